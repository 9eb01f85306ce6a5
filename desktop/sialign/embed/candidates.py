"""Vectors of multi-segment candidates: runs of 1..max_len consecutive segments.

A bead may join two source sentences or five interpreter chunks; the DP needs
a vector for each such run. Two ways (docs/algorithms.md: Embeddings):

* ``fast``: the normalised sum of the members' vectors. No re-encoding, so
  it is what makes interactive re-alignment possible.
* ``exact``: encode the concatenated texts, as vecalign and Bertalign do;
  max_len times more text to embed (fed through the cache when one is given).
  An encoder with ``encode_runs`` (the built-in multilingual one) gives the
  same vectors from about 1.6 passes over the document instead of max_len²/2
  (:class:`RunEncoder`, :meth:`sialign.embed.multilingual.MultilingualEncoder.encode_runs`).

Layout (the one :class:`sialign.align.costs.Signal` reads): ``out[k-1, p]``
is the vector of the run of ``k`` segments starting at position ``p``
(segments ``p .. p+k-1``); runs that would pass the end of the document are
zero rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from sialign.core.progress import ProgressFn, StopFn, check_stop
from sialign.embed.base import Embedder, l2_normalise_rows
from sialign.embed.cache import EmbeddingCache, cached_encode


def overlap_texts(texts: Sequence[str], max_len: int, joiner: str = " ") -> list[list[str]]:
    """The texts of all runs of 1..max_len consecutive segments.

    Returns:
        ``runs[k-1][p]`` = ``joiner.join(texts[p:p+k])`` for ``p`` in
        ``0 .. len(texts)-k`` (shorter lists for longer runs).
    """
    if max_len < 1:
        raise ValueError(f"max_len must be at least 1, not {max_len}")
    return [[joiner.join(texts[p : p + k]) for p in range(len(texts) - k + 1)] for k in range(1, max_len + 1)]


def candidate_vectors(
    doc_vectors: np.ndarray,
    max_len: int,
    mode: str = "fast",
    texts: Sequence[str] | None = None,
    embedder: Embedder | None = None,
    *,
    joiner: str = " ",
    cache: EmbeddingCache | None = None,
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
) -> np.ndarray:
    """Vectors of every run of 1..max_len consecutive segments.

    Args:
        doc_vectors: (n, dim) float32 unit vectors of the single segments.
        max_len: the longest run.
        mode: ``"fast"`` (normalised sums) or ``"exact"`` (encode concatenations).
        texts: the n segment texts (exact mode).
        embedder: encodes the concatenations (exact mode).
        joiner: joins segment texts in exact mode (``""`` for Japanese).
        cache: exact mode reads and stores the concatenations' vectors here.
        progress / should_stop: as usual; exact mode reports encoding progress.

    Returns:
        float32 array of shape (max_len, n, dim): ``out[k-1, p]`` is the unit
        vector of segments ``p .. p+k-1``; zero rows where ``p+k > n`` or the
        run has no content. ``out[0]`` equals ``doc_vectors`` (fast mode).

    Raises:
        ValueError: an unknown mode, or exact mode without texts and embedder.
        AlignmentCancelled: ``should_stop()`` returned True.
    """
    if max_len < 1:
        raise ValueError(f"max_len must be at least 1, not {max_len}")
    n, dim = doc_vectors.shape
    out = np.zeros((max_len, n, dim), dtype=np.float32)
    if mode == "fast":
        # Running sums: run k starting at p = run k-1 starting at p plus segment p+k-1.
        running = doc_vectors.astype(np.float32, copy=True)
        for k in range(1, max_len + 1):
            check_stop(should_stop)
            if k > 1:
                running = running[:-1] + doc_vectors[k - 1 :]
            out[k - 1, : n - k + 1] = running
            l2_normalise_rows(out[k - 1])
            if progress is not None:
                progress(k / max_len, "Combining segment vectors")
        return out
    if mode != "exact":
        raise ValueError(f"mode must be 'fast' or 'exact', not {mode!r}")
    if texts is None or embedder is None:
        raise ValueError("exact mode needs the segment texts and an embedder")
    if len(texts) != n:
        raise ValueError(f"{len(texts)} texts but {n} vectors")
    if not isinstance(embedder, RunEncoder) and callable(getattr(embedder, "encode_runs", None)):
        embedder = RunEncoder(embedder, texts, max_len, joiner)
    runs = overlap_texts(texts, max_len, joiner)
    out[0] = doc_vectors
    longer = [t for k_runs in runs[1:] for t in k_runs]
    vectors = cached_encode(embedder, longer, cache, progress=progress, should_stop=should_stop)
    offset = 0
    for k in range(2, max_len + 1):
        count = len(runs[k - 1])
        out[k - 1, :count] = vectors[offset : offset + count]
        offset += count
    return out


# Texts holding less than this share of a document's characters are encoded
# whole rather than by reading the whole document (which costs about 1.6 passes).
WHOLE_SHARE = 0.25


class RunEncoder:
    """An encoder of one document's runs of 1..max_len segments, for an encoder that puts runs together.

    :func:`~sialign.embed.cache.cached_encode` asks it for the texts the cache
    lacks; the first such call has the encoder's ``encode_runs`` read the
    whole document once, and every later one is answered from that, unless
    the texts asked for hold less than ``WHOLE_SHARE`` of the document's
    characters (the runs an edit touched): those are encoded as they are. Its vectors
    share the encoder's cache key: they are the vectors encoding each joined
    text gives (up to float rounding).

    Args:
        embedder: has ``encode_runs(texts, max_len, joiner=..., progress=..., should_stop=...)``.
        texts: the document's segments; max_len, joiner: as for :func:`overlap_texts`.
    """

    def __init__(self, embedder: Any, texts: Sequence[str], max_len: int, joiner: str = " ") -> None:
        self.embedder = embedder
        self.name: str = embedder.name
        self.dim: int = embedder.dim
        self.cacheable = bool(getattr(embedder, "cacheable", True))
        self.texts, self.max_len, self.joiner = list(texts), max_len, joiner
        self._runs: np.ndarray | None = None
        self._where: dict[str, tuple[int, int]] = {}
        self._chars = sum(map(len, self.texts))

    @property
    def cache_id(self) -> str:
        return str(self.embedder.cache_id)

    def fit(self, texts: Sequence[str], **_: Any) -> None:
        """Nothing to fit: the encoder is trained."""

    def encode(self, texts: Sequence[str], *, progress: ProgressFn | None = None, should_stop: StopFn | None = None) -> np.ndarray:
        """Vectors of ``texts``, each a segment or a run of the document joined by ``joiner``.

        Raises:
            KeyError: a text that is neither.
        """
        if self._runs is None and sum(map(len, texts)) < WHOLE_SHARE * self._chars:
            # A few texts (the runs an edit touched): encoding them costs less than reading the document.
            encoded: np.ndarray = self.embedder.encode(texts, progress=progress, should_stop=should_stop)
            return encoded
        if self._runs is None:
            self._runs = self.embedder.encode_runs(
                self.texts, self.max_len, joiner=self.joiner, progress=progress, should_stop=should_stop
            )
            for k, k_runs in enumerate(overlap_texts(self.texts, self.max_len, self.joiner)):
                for p, text in enumerate(k_runs):
                    self._where.setdefault(text, (k, p))
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            k, p = self._where[text]
            out[row] = self._runs[k, p]
        return out
