"""The vectors of two documents to compare, memoised per process.

:func:`encode_pair` is how the aligner (:mod:`sialign.align.pipeline`), the
doubt features (:mod:`sialign.filters.doubt_features`) and the live booth
embed a pair of documents: the lexical embedder fitted on both first, a
neural one through the on-disk vector cache, and the result kept in this
process, so re-aligning a talk whose texts did not change (the desktop app
re-aligns after every change of parameters), or computing its doubt just
after aligning it, encodes nothing again.
"""

from __future__ import annotations

import hashlib
import inspect
import logging
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from sialign.core.errors import SialignError
from sialign.core.progress import ProgressFn, StopFn, stage
from sialign.embed.base import Embedder
from sialign.embed.lexical import LexicalEmbedder

log = logging.getLogger(__name__)

_PAIR_MEMO: OrderedDict[str, tuple[np.ndarray, np.ndarray, np.ndarray | None, np.ndarray | None]] = OrderedDict()
_PAIR_MEMO_SIZE = 16


def _digest(*parts: object) -> str:
    h = hashlib.sha1()
    for part in parts:
        if isinstance(part, (list, tuple)):
            for item in part:
                h.update(str(item).encode("utf-8"))
                h.update(b"\x00")
        else:
            h.update(str(part).encode("utf-8"))
        h.update(b"\x01")
    return h.hexdigest()


def encode_pair(
    embedder: Embedder,
    side: Sequence[str],
    other: Sequence[str],
    *,
    candidates: str = "fast",
    max_side: int = 1,
    max_other: int = 1,
    side_joiner: str = " ",
    other_joiner: str = " ",
    same_language: bool = False,
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, np.ndarray | None]:
    """Vectors of two documents to compare, memoised per process.

    The lexical embedder is first fitted on both documents (its statistics
    are per talk); for a same-language pair (pivot) its cross-lingual
    positional feature weighting is turned off, as the embedder documents. In exact mode the concatenations of up to ``max_side`` /
    ``max_other`` consecutive segments are encoded too.

    Returns:
        ``(side_vectors (n, dim), other_vectors (m, dim), side_spans, other_spans)``;
        the spans are (max_side, n, dim) / (max_other, m, dim) in exact mode, else None.
    """
    from sialign.embed.cache import cached_encode, shared_cache
    from sialign.embed.candidates import RunEncoder, candidate_vectors

    lexical = isinstance(embedder, LexicalEmbedder)
    identity = repr(getattr(embedder, "settings", "")) if lexical else embedder.cache_id or f"id{id(embedder)}"
    # Fast mode vectors do not depend on the bead sizes; exact ones do.
    sizes = (max_side, max_other) if candidates == "exact" else ()
    key = _digest(type(embedder).__name__, identity, candidates, sizes, same_language, list(side), "|", list(other))
    hit = _PAIR_MEMO.get(key)
    if hit is not None:
        log.debug("vectors of %d × %d texts from this process's memo (%s)", len(side), len(other), embedder.name)
        _PAIR_MEMO.move_to_end(key)
        if progress is not None:
            progress(1.0, f"Embedding with {embedder.name} (cached)")
        return hit
    if lexical:
        options = {}
        if same_language and "positional" in inspect.signature(embedder.fit).parameters:
            options["positional"] = False
        embedder.fit(side, other=other, **options)  # type: ignore[call-arg]
    # Vectors of neural embedders go through the on-disk cache: re-aligning
    # after an edit, or the same file in another run, encodes only new texts.
    cache = None if lexical else shared_cache()
    if candidates not in ("fast", "exact"):
        raise SialignError(f"candidates must be 'fast' or 'exact', not {candidates!r}")
    side_encoder: Embedder = embedder
    other_encoder: Embedder = embedder
    if candidates == "exact" and callable(getattr(embedder, "encode_runs", None)):
        # One pass over each document gives its segments' vectors and its runs' together
        # (both stored in the cache: the first pass then reads the segments' from there).
        side_encoder = RunEncoder(embedder, list(side), max_side, side_joiner)
        other_encoder = RunEncoder(embedder, list(other), max_other, other_joiner)
    half_a, half_b = stage(progress, 0.0, 0.5), stage(progress, 0.5, 1.0)
    x_spans = y_spans = None
    # One side after the other: a RunEncoder holds its document's runs until its spans are taken.
    x = cached_encode(side_encoder, list(side), cache, progress=half_a, should_stop=should_stop)
    if candidates == "exact":
        x_spans = candidate_vectors(
            x, max_side, "exact", list(side), side_encoder, joiner=side_joiner, cache=cache, should_stop=should_stop
        )
    del side_encoder
    y = cached_encode(other_encoder, list(other), cache, progress=half_b, should_stop=should_stop)
    if candidates == "exact":
        y_spans = candidate_vectors(
            y, max_other, "exact", list(other), other_encoder, joiner=other_joiner, cache=cache, should_stop=should_stop
        )
    del other_encoder
    result = (x, y, x_spans, y_spans)
    _PAIR_MEMO[key] = result
    while len(_PAIR_MEMO) > _PAIR_MEMO_SIZE:
        _PAIR_MEMO.popitem(last=False)
    return result


def clear_memo() -> None:
    """Forget memoised vectors (tests; after changing a model in place)."""
    _PAIR_MEMO.clear()


__all__ = ["clear_memo", "encode_pair"]
