"""Command-line front end: argument parsing only, calling the library."""
