"""Constrained segmentation DP (Zhao et al. 2021, "It is not as good as you think!", Algorithm 1; docs/algorithms.md: Constrained segmentation).

Given K source segments X_1..X_K and an unsegmented target stream of N units
Y_1..Y_N, cut the stream into K consecutive spans, span k rendering X_k, so
that the total similarity is largest:

    T[1, i] = d(X_1, Y_1..i)
    T[k, i] = max over k <= j <= i of T[k-1, j-1] + d(X_k, Y_j..i)

and trace back the cuts. The paper's version is O(K·N²); spans here are at
most ``max_span`` units long, which makes it O(K·N·L) and vectorised over i.

``d`` is the cosine similarity between X_k and the normalised sum of the
span's vectors (the "fast" multi-segment vector), read in O(1) per span from
prefix sums of the similarity matrix. With ``allow_empty`` a source segment
may also get an empty span (scoring ``empty_score``): an omission.

Unlike the coarse DP every source segment gets a span and every target unit
is used, which suits a stream that renders the whole source (the seed aligned
an offline translation to an interpretation this way).
"""

from __future__ import annotations

import numpy as np

from sialign.align.cost_tables import check_table_memory, similarity_matrix
from sialign.align.costs import Signal, run_norms
from sialign.core.progress import ProgressFn, StopFn, check_stop


class SegmentationInfeasible(ValueError):
    """N target units cannot be cut into K spans of 1..max_span units."""


def span_scores(signals: list[Signal], k: int, starts: np.ndarray, stops: np.ndarray, tables: list[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
    """Weighted cosine of source ``k`` with target spans ``starts[x]:stops[x]`` (arrays of equal shape)."""
    total = np.zeros(starts.shape, dtype=np.float64)
    weight_sum = sum(s.weight for s in signals)
    for signal, (row_cums, norms) in zip(signals, tables):
        length = stops - starts
        block = row_cums[k, stops] - row_cums[k, starts]
        norm = norms[np.clip(length, 0, norms.shape[0] - 1), stops]
        with np.errstate(invalid="ignore", divide="ignore"):
            cos = np.where(norm > 0, block / norm, 0.0)
        total += (signal.weight / weight_sum) * cos
    return total


def constrained_segmentation(
    signals: list[Signal],
    max_span: int,
    *,
    allow_empty: bool = False,
    empty_score: float = 0.0,
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
) -> tuple[list[tuple[int, int]], float]:
    """Cut the target stream into one span per source segment (Algorithm 1, bounded spans).

    Args:
        signals: vectors of the K source segments and N target units (each
            ``Signal.src`` is (K, dim), ``Signal.tgt`` is (N, dim)); their
            similarities are averaged with the signals' weights.
        max_span: L, the most target units in one span.
        allow_empty: let a source segment take no unit (scored ``empty_score``).
        progress / should_stop: as usual (checked once per source segment).

    Returns:
        ``(spans, total)``: ``spans[k] = (start, stop)``, half-open target
        positions, consecutive and covering ``0..N``; ``total`` the summed
        similarity of the best segmentation.

    Raises:
        SegmentationInfeasible: N > K·max_span (or N < K without ``allow_empty``).
    """
    if max_span < 1:
        raise ValueError(f"max_span must be at least 1, not {max_span}")
    K, N = signals[0].src.shape[0], signals[0].tgt.shape[0]
    least = 0 if allow_empty else 1
    if N > K * max_span or (N < K * least):
        raise SegmentationInfeasible(
            f"{N} target units cannot be cut into {K} spans of {least}..{max_span} units"
            + ("" if allow_empty else "; allow empty spans or merge source segments")
            + ("; raise the maximum span" if N > K * max_span else "")
        )
    # Per cell: each signal's float64 similarities and row sums (and the
    # float32 product they come from), the float64 table and int32 back-pointers.
    check_table_memory(
        f"segment mode over {K} source sentences and {N} target units", (K + 1) * (N + 1), 12 + 20 * len(signals),
        "align with the bead aligner (method 'beads'), or split the talk into parts", ("method",),
    )
    tables = []
    for s in signals:
        sim = similarity_matrix(s.src, s.tgt).astype(np.float64)
        row_cums = np.zeros((K, N + 1))
        np.cumsum(sim, axis=1, out=row_cums[:, 1:])
        tables.append((row_cums, run_norms(s.tgt, max_span)))
    table = np.full((K + 1, N + 1), -np.inf)
    table[0, 0] = 0.0
    back = np.zeros((K + 1, N + 1), dtype=np.int32)
    stops = np.arange(N + 1)
    for k in range(1, K + 1):
        check_stop(should_stop)
        best = np.full(N + 1, -np.inf)
        best_len = np.zeros(N + 1, dtype=np.int32)
        for length in range(least, max_span + 1):
            ends = stops[length:]
            begins = ends - length
            if length == 0:
                cand = table[k - 1] + empty_score
            else:
                cand = table[k - 1, begins] + span_scores(signals, k - 1, begins, ends, tables)
            target = best[length:]
            better = cand > target
            target[better] = cand[better]
            best_len[length:][better] = length
        table[k] = best
        back[k] = best_len
        if progress is not None:
            progress(k / K, "segmenting")
    total = float(table[K, N])
    if not np.isfinite(total):
        raise SegmentationInfeasible(f"{N} target units cannot be cut into {K} spans of {least}..{max_span} units")
    spans: list[tuple[int, int]] = []
    i = N
    for k in range(K, 0, -1):
        length = int(back[k, i])
        spans.append((i - length, i))
        i -= length
    spans.reverse()
    return spans, total
