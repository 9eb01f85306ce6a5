"""Sentence splitting, caption rebuilding and Japanese chunking (GiNZA, loaded lazily)."""
