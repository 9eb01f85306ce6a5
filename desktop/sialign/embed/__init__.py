"""Embedders: the built-in lexical one, sentence-transformers models resolved offline, and the vector cache.

Heavy libraries (torch, sentence-transformers) are imported only when a
:class:`SentenceTransformerEmbedder` is created.
"""

from sialign.embed.base import Embedder, l2_normalise_rows, similarities
from sialign.embed.cache import EmbeddingCache, cached_encode, user_cache_dir
from sialign.embed.candidates import candidate_vectors, overlap_texts
from sialign.embed.lexical import LexicalEmbedder, LexicalSettings, fold_sparse
from sialign.embed.models import SentenceTransformerEmbedder, make_embedder, model_digest, resolve_model

__all__ = [
    "Embedder",
    "EmbeddingCache",
    "LexicalEmbedder",
    "LexicalSettings",
    "SentenceTransformerEmbedder",
    "cached_encode",
    "candidate_vectors",
    "fold_sparse",
    "l2_normalise_rows",
    "make_embedder",
    "model_digest",
    "overlap_texts",
    "resolve_model",
    "similarities",
    "user_cache_dir",
]
