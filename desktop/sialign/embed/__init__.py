"""Embedders: the built-in lexical one, sentence-transformers models resolved offline, and the vector cache."""
