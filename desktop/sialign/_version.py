"""The version of SI Aligner, importable without the package's API (and what it imports)."""

__version__ = "0.1.0"
