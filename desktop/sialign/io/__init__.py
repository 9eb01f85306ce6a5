"""Readers and writers keyed by format, and the project file."""
