"""Sentence splitting, caption rebuilding and Japanese chunking (GiNZA, loaded lazily).

All segmenters return new :class:`~sialign.core.model.Document` objects with
fresh ids whose ``full_text()`` equals the input's: segments are exact
slices of the original text, whitespace between them is kept as ``gap``.
"""

from __future__ import annotations

from sialign.text.captions import rebuild_captions
from sialign.text.chunking import DEFAULT_MAX_CHARS, chunk_japanese
from sialign.text.japanese import Analysis, LanguageToolUnavailable, Token, analyze_japanese, ginza_loaded, ginza_nlp
from sialign.text.sentences import ends_with_strong_punctuation, split_sentences

__all__ = [
    "DEFAULT_MAX_CHARS",
    "Analysis",
    "LanguageToolUnavailable",
    "Token",
    "analyze_japanese",
    "chunk_japanese",
    "ends_with_strong_punctuation",
    "ginza_loaded",
    "ginza_nlp",
    "rebuild_captions",
    "split_sentences",
]
