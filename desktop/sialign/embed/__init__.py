"""Embedders: the built-in lexical one, sentence-transformers models resolved offline, and the vector cache."""

from sialign.embed.base import Embedder, l2_normalise_rows
from sialign.embed.lexical import LexicalEmbedder, LexicalSettings, fold_sparse

__all__ = ["Embedder", "LexicalEmbedder", "LexicalSettings", "fold_sparse", "l2_normalise_rows"]
