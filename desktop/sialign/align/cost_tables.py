"""The numeric building blocks of bead costs: signals, similarity matrices, prefix sums and run norms."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from sialign.core.errors import AlignmentTooLargeError

# The least normaliser: a segment whose random partners are on average almost
# as close as its true partner would otherwise divide by ~0 and make every
# bead with it arbitrarily cheap or expensive.
MIN_NORMALISER = 0.05


@dataclass
class Signal:
    """One pair of vector sequences the DP compares, with its weight.

    Attributes:
        src: (n_src, dim) float32 unit vectors of the source side (or of the
            reference translation, 1:1 with the source, in pivot mode).
        tgt: (n_tgt, dim) float32 unit vectors of the target side.
        weight: share of this signal in the combined cost.
        src_spans: optional (max_src, n_src, dim) vectors of concatenated
            source runs for exact mode (row ``p`` of slice ``a-1`` is the run
            ``p .. p+a-1``; rows past the end are ignored).
        tgt_spans: optional (max_tgt, n_tgt, dim), likewise.
        name: shown in timings and reports.
        src_trust: optional (n_src,) values in [0, 1] scaling ``weight`` per
            source row: a bead over source rows ``i-a .. i-1`` weighs this
            signal by ``weight`` times their mean trust. A reference
            translation line that is blank or shifted gets trust 0, so the
            other signals decide there.
    """

    src: np.ndarray
    tgt: np.ndarray
    weight: float = 1.0
    src_spans: np.ndarray | None = None
    tgt_spans: np.ndarray | None = None
    name: str = "text"
    src_trust: np.ndarray | None = None

    @property
    def exact(self) -> bool:
        return self.src_spans is not None and self.tgt_spans is not None


def similarity_matrix(src: np.ndarray, tgt: np.ndarray) -> np.ndarray:
    """Cosine similarities of unit vectors.

    Args:
        src: (n_src, dim) unit vectors.
        tgt: (n_tgt, dim) unit vectors.

    Returns:
        (n_src, n_tgt) float32.
    """
    if src.shape[0] == 0 or tgt.shape[0] == 0:
        return np.zeros((src.shape[0], tgt.shape[0]), dtype=np.float32)
    return np.asarray(src @ tgt.T, dtype=np.float32)


# Most memory one table of an alignment may ask for. Larger sizes come from
# options no talk needs or documents far beyond any interpreted session:
# refused before allocating, with the sizes and what to do, never a
# MemoryError half-way.
TABLE_MEMORY_LIMIT = 8 * 2**30


def check_table_memory(what: str, cells: int, bytes_per_cell: float, hint: str, settings: tuple[str, ...] = ()) -> None:
    """Refuse a table of ``cells`` cells at ``bytes_per_cell`` bytes each that would exceed :data:`TABLE_MEMORY_LIMIT`.

    Args:
        what: the table and its sizes, as the user should read them
            ("segment mode over 100000 source sentences and 95 target chunks").
        cells: its cells.
        bytes_per_cell: memory per cell, temporaries included.
        hint: what the user can do instead.
        settings: the settings ``hint`` names (:attr:`~sialign.core.errors.SialignError.settings`).

    Raises:
        AlignmentTooLargeError: one line naming the sizes, the memory and the hint.
    """
    need = cells * bytes_per_cell
    if need > TABLE_MEMORY_LIMIT:
        raise AlignmentTooLargeError(
            f"{what} would need about {need / 2**30:.1f} GiB (the limit is {TABLE_MEMORY_LIMIT / 2**30:.0f} GiB) — {hint}",
            settings=settings,
        )


# Above this many cells (n_src x n_tgt) the single-segment similarities are
# not stored: :class:`LazySimilarity` computes the cells the DP reads (a band,
# a few sampled rows and columns) from the vectors. 64M cells are 256 MB of
# float32; two 100,000-line documents would need 37 GiB.
DENSE_SIMILARITY_CELLS = 64_000_000


class LazySimilarity:
    """Cosine similarities of unit vectors computed on demand, for documents too large for a dense matrix.

    Supports what :class:`~sialign.align.costs.BeadCostModel` reads:
    ``sim[r0:r1, c0:c1]`` (a block), ``sim[:, cols]`` and ``sim[rows, :]``
    (sampled columns and rows) and ``sim[I, J]`` with integer arrays of one
    shape (cells, as a float32 array of that shape).

    Args:
        src: (n_src, dim) unit vectors.
        tgt: (n_tgt, dim) unit vectors.
    """

    def __init__(self, src: np.ndarray, tgt: np.ndarray) -> None:
        self.src = src
        self.tgt = tgt
        self.shape = (int(src.shape[0]), int(tgt.shape[0]))
        self.dtype = np.dtype(np.float32)

    def __getitem__(self, key: Any) -> np.ndarray:
        rows, cols = key
        if isinstance(rows, (slice, int, np.integer)) or isinstance(cols, (slice, int, np.integer)):
            r = self.src[rows] if not isinstance(rows, (int, np.integer)) else self.src[rows : rows + 1]
            c = self.tgt[cols] if not isinstance(cols, (int, np.integer)) else self.tgt[cols : cols + 1]
            block = np.asarray(np.atleast_2d(r) @ np.atleast_2d(c).T, dtype=np.float32)
            if isinstance(rows, (int, np.integer)):
                block = block[0]
            if isinstance(cols, (int, np.integer)):
                block = block[..., 0]
            return block
        i, j = np.broadcast_arrays(np.asarray(rows), np.asarray(cols))
        out = np.empty(i.shape, dtype=np.float32)
        flat_i, flat_j, flat_out = i.reshape(-1), j.reshape(-1), out.reshape(-1)
        step = 4096  # cells per pass: two (step, dim) gathers at a time
        for k in range(0, flat_i.size, step):
            flat_out[k : k + step] = np.einsum("ij,ij->i", self.src[flat_i[k : k + step]], self.tgt[flat_j[k : k + step]])
        return out


def similarities(src: np.ndarray, tgt: np.ndarray) -> np.ndarray | LazySimilarity:
    """The single-segment similarities: dense up to :data:`DENSE_SIMILARITY_CELLS`, else computed on demand."""
    if src.shape[0] * tgt.shape[0] > DENSE_SIMILARITY_CELLS:
        return LazySimilarity(src, tgt)
    return similarity_matrix(src, tgt)


def prefix_sums_2d(sim: np.ndarray) -> np.ndarray:
    """2-D inclusive prefix sums padded with a zero row and column.

    Args:
        sim: (n, m) similarities.

    Returns:
        (n+1, m+1) float64 ``P`` with ``P[i, j] = sim[:i, :j].sum()``.
    """
    n, m = sim.shape
    out = np.zeros((n + 1, m + 1), dtype=np.float64)
    if n and m:
        np.cumsum(sim, axis=0, dtype=np.float64, out=out[1:, 1:])
        np.cumsum(out[1:, 1:], axis=1, out=out[1:, 1:])
    return out


def run_norms(vectors: np.ndarray, max_run: int) -> np.ndarray:
    """Norms of sums of consecutive vectors, indexed by run end.

    Args:
        vectors: (n, dim) vectors.
        max_run: longest run.

    Returns:
        (max_run + 1, n + 1) float64 ``N`` with ``N[a, i] = ||sum(vectors[i-a:i])||``
        for ``a <= i``; NaN where the run does not fit. Row 0 is unused (zeros).
    """
    n = vectors.shape[0]
    out = np.full((max_run + 1, n + 1), np.nan)
    out[0] = 0.0
    if n == 0:
        return out
    # lagged[k][p] = v[p] . v[p+k]; the squared norm of a run is the sum of
    # all pair products inside it, i.e. the diagonal plus twice each lag.
    # In float64, a block of rows at a time: a float64 copy of 100,000
    # lexical vectors would be 3.3 GB.
    lagged_cums = []
    step = 8192
    for k in range(max_run):
        d = np.zeros(max(n - k, 0))
        for p in range(0, n - k, step):
            q = min(n - k, p + step)
            d[p:q] = np.einsum("ij,ij->i", vectors[p:q].astype(np.float64), vectors[p + k : q + k].astype(np.float64))
        lagged_cums.append(np.concatenate(([0.0], np.cumsum(d))))
    ends = np.arange(n + 1)
    for a in range(1, max_run + 1):
        ok = ends >= a
        i = ends[ok]
        sq = np.zeros(i.shape)
        for k in range(a):
            # pairs (p, p+k) with i-a <= p and p+k <= i-1
            c = lagged_cums[k]
            hi = np.clip(i - k, 0, len(c) - 1)
            lo = np.clip(i - a, 0, len(c) - 1)
            part = c[hi] - c[lo]
            sq += part if k == 0 else 2.0 * part
        out[a, ok] = np.sqrt(np.maximum(sq, 0.0))
    return out


def random_partners(n: int, count: int, rng: np.random.Generator) -> np.ndarray:
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    if n <= count:
        return np.arange(n)
    return np.sort(rng.choice(n, size=count, replace=False))


@dataclass
class SignalTables:
    """Precomputed tables of one signal (see :class:`BeadCostModel`)."""

    signal: Signal
    sim: np.ndarray | LazySimilarity  # (n, m) float32 single-segment similarities
    fast: bool  # sums of member vectors (True) or exact span vectors
    src_norm: np.ndarray  # (A+1, n+1) norms of summed runs (fast) or ones (exact)
    tgt_norm: np.ndarray  # (B+1, m+1)
    src_random: np.ndarray  # (A+1, n+1) mean distance of each run to random targets
    tgt_random: np.ndarray  # (B+1, m+1)
