"""Coarse alignment DP over beads (docs/algorithms.md: Coarse alignment): exact, banded and recursive.

The DP table is indexed by lattice points (i, j): i source and j target
segments consumed. A bead (a, b) moves from (i-a, j-b) to (i, j). Besides the
match beads (1 <= a <= max_src, 1 <= b <= max_tgt) there are the skips 1-0
(source segment without rendition) and 0-1 (target chunk matching nothing).

Each row of the table is stored only inside a band of fixed width ``W``
starting at column ``lo[i]``; the exact DP is the band covering every column.
Rows are filled in order. The match beads and the 1-0 skip read earlier
rows, so a whole row is one vectorised gather-add-min over (types, W). The
0-1 skip reads the same row; its recurrence ``D[i,j] = min(C[j], D[i,j-1] +
skip)`` is a running minimum of ``C[j] - j*skip``, also vectorised.

Large inputs use vecalign's linear-time scheme: average runs of ``f``
segments into one vector on both sides, align the short documents (recursively
if still large), project that path to full resolution and search only a band
around it. With timestamps on both sides the ear-voice-span corridor gives
the band directly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from scipy.ndimage import maximum_filter1d, minimum_filter1d

from sialign.align.cost_tables import TABLE_MEMORY_LIMIT
from sialign.align.costs import BeadCostModel, CostSettings, Signal
from sialign.core.errors import AlignmentTooLargeError
from sialign.core.progress import ProgressFn, StopFn, check_stop, stage

# Back-pointer code of a 0-1 bead; other codes index the model's bead types.
ZERO_ONE = -1
# Up to this many lattice cells the DP is exact (no band). Above it a band
# around a coarse path is searched: on the dev sets (Text+Berg 469 x 555,
# the AHC-SI talks joined, 239 x 641) the banded result equals the exact one
# at half the time.
EXACT_CELL_LIMIT = 60_000
# Largest downsampling factor of one level; larger reductions recurse, so the
# band around each level's path stays narrow.
MAX_FACTOR = 8


def bead_types(max_src: int, max_tgt: int) -> list[tuple[int, int]]:
    """Bead shapes read from earlier rows: the 1-0 skip and every a-b match.

    The 0-1 skip is handled separately (it reads the current row).
    """
    if max_src < 1 or max_tgt < 1:
        raise ValueError("max_src and max_tgt must be at least 1")
    return [(1, 0)] + [(a, b) for a in range(1, max_src + 1) for b in range(1, max_tgt + 1)]


@dataclass(frozen=True)
class Band:
    """Which columns of each DP row are searched.

    Attributes:
        lo: (n_src + 1,) int64, first column (target count) of each row.
        width: columns per row; row i covers ``lo[i] .. lo[i] + width - 1``.
        n_tgt: number of target segments (columns run 0..n_tgt).
    """

    lo: np.ndarray
    width: int
    n_tgt: int

    @property
    def n_src(self) -> int:
        return len(self.lo) - 1

    @property
    def cells(self) -> int:
        return len(self.lo) * self.width

    @classmethod
    def full(cls, n_src: int, n_tgt: int) -> Band:
        return cls(np.zeros(n_src + 1, dtype=np.int64), n_tgt + 1, n_tgt)

    @classmethod
    def from_ranges(cls, lo: np.ndarray, hi: np.ndarray, n_tgt: int) -> Band:
        """The narrowest fixed-width band containing ``lo[i] .. hi[i]`` on each row.

        The ranges are widened so that a monotone path from (0, 0) to
        (n_src, n_tgt) always exists inside the band: both ends are included,
        ``lo`` and ``hi`` are made non-decreasing and consecutive rows overlap.
        """
        lo = np.clip(np.asarray(lo, dtype=np.int64).copy(), 0, n_tgt)
        hi = np.clip(np.asarray(hi, dtype=np.int64).copy(), 0, n_tgt)
        lo[0] = 0
        hi[-1] = n_tgt
        hi = np.maximum(hi, lo)
        lo = np.minimum.accumulate(lo[::-1])[::-1]
        hi = np.maximum.accumulate(hi)
        # a 1-0 step from row i to row i+1 stays in one column: rows must overlap
        hi[:-1] = np.maximum(hi[:-1], lo[1:])
        width = int((hi - lo).max()) + 1
        width = min(width, n_tgt + 1)
        lo = np.minimum(lo, n_tgt + 1 - width)
        return cls(lo, width, n_tgt)


@dataclass
class DPResult:
    """A path through the lattice.

    Attributes:
        beads: (src_start, n_src, tgt_start, n_tgt) per bead, in order.
        total: total DP cost.
        cells: lattice cells searched.
        levels: sizes of the DPs run, coarsest first (for reports).
    """

    beads: list[tuple[int, int, int, int]]
    total: float
    cells: int
    levels: list[tuple[int, int, int]] = field(default_factory=list)


# Most memory one dynamic programme may ask for. Sizes above it come from
# options no talk needs (a bead of 10^9 segments) or a talk far beyond any
# interpreted session: refused before allocating, never a MemoryError or an
# out-of-memory kill half-way.
DP_MEMORY_LIMIT = TABLE_MEMORY_LIMIT


def check_dp_memory(rows: int, width: int, n_types: int, block_rows: int) -> None:
    """Refuse a DP whose tables would exceed :data:`DP_MEMORY_LIMIT`.

    Args:
        rows: DP rows (n_src + 1).
        width: columns searched per row.
        n_types: bead shapes (1 + max_src * max_tgt).
        block_rows: rows whose bead costs are computed together.

    Raises:
        AlignmentTooLargeError: naming the sizes and what to lower.
    """
    # The float64 cost table and int16 back-pointers, plus one block of bead
    # costs (T, R, W) and about two temporaries of its size.
    need = rows * width * (8 + 2) + 3 * n_types * block_rows * width * 8
    if need > DP_MEMORY_LIMIT:
        raise AlignmentTooLargeError(
            f"aligning {rows - 1} source segments against {width} target columns with {n_types} bead shapes "
            f"would need about {need / 2**30:.0f} GiB (the limit is {DP_MEMORY_LIMIT / 2**30:.0f} GiB) — "
            "lower the largest bead (max_src, max_tgt) or split the talk into parts",
            settings=("max_src", "max_tgt"),
        )


def banded_dp(
    model: BeadCostModel | WindowCosts,
    band: Band,
    *,
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
    block_rows: int = 64,
) -> DPResult:
    """The cheapest monotone path of beads inside ``band``.

    Args:
        model: bead costs over (n_src, n_tgt).
        band: columns searched per row (``Band.full`` for the exact DP).
        progress: ``progress(fraction, message)``.
        should_stop: checked every ``block_rows`` rows.
        block_rows: rows whose bead costs are computed together.

    Returns:
        The beads of the best path, the total cost and the cells searched.
    """
    n, m = model.n_src, model.n_tgt
    if band.n_src != n or band.n_tgt != m:
        raise ValueError(f"band is for {band.n_src} x {band.n_tgt}, costs for {n} x {m}")
    types = bead_types(model.max_src, model.max_tgt)
    a_t = np.array([t[0] for t in types], dtype=np.int64)
    b_t = np.array([t[1] for t in types], dtype=np.int64)
    W = band.width
    lo = band.lo
    skip = float(model.settings.skip)
    cols = np.arange(W, dtype=np.int64)
    ramp = cols * skip
    # Per-target 0-1 costs (lines without words are cheap to leave out):
    # cumulative skip cost up to each absolute column, so a row's ramp is a
    # difference of two entries instead of c * skip.
    scale = getattr(model, "tgt_skip_scale", None)
    skip_cums = None
    if scale is not None:
        per = skip * np.clip(np.asarray(scale, dtype=np.float64), 0.0, 1.0)
        skip_cums = np.concatenate(([0.0], np.cumsum(per)))

    def row_ramp(start: int) -> np.ndarray:
        if skip_cums is None:
            return ramp
        at = start + cols
        inside = np.minimum(at, m)
        return skip_cums[inside] - skip_cums[min(start, m)] + (at - inside) * skip

    check_dp_memory(n + 1, W, len(types), min(block_rows, n + 1))
    base_idx = cols[None, :] - b_t[:, None]  # (T, W) column in the earlier row, before the band shift
    table = np.full((n + 1, W), np.inf)
    back = np.full((n + 1, W), ZERO_ONE, dtype=np.int16)
    # Row 0: only 0-1 skips from (0, 0) (lo[0] is 0).
    table[0] = row_ramp(0)
    t_index = np.arange(len(types))
    for r0 in range(1, n + 1, block_rows):
        check_stop(should_stop)
        r1 = min(n + 1, r0 + block_rows)
        rows = np.arange(r0, r1)
        j_grid = lo[rows][:, None] + cols[None, :]
        costs = model.band_costs(types, rows, j_grid)  # (T, R, W)
        for k, i in enumerate(rows):
            prev_rows = i - a_t
            row_ok = prev_rows >= 0
            safe_rows = np.where(row_ok, prev_rows, 0)
            idx = base_idx + (lo[i] - lo[safe_rows])[:, None]
            valid = (idx >= 0) & (idx < W) & row_ok[:, None]
            prev = table[safe_rows[:, None], np.clip(idx, 0, W - 1)]
            cand = np.where(valid, prev, np.inf) + costs[:, k, :]
            best_t = cand.argmin(axis=0)
            best = cand[best_t, cols]
            # 0-1 skips within the row: running minimum of best[c] - c*skip.
            row_skip = row_ramp(int(lo[i]))
            shifted = best - row_skip
            run = np.minimum.accumulate(shifted)
            table[i] = run + row_skip
            back[i] = np.where(run < shifted, ZERO_ONE, t_index[best_t])
        if progress is not None:
            progress((r1 - 1) / max(n, 1), "aligning")
    total = float(table[n, m - lo[n]])
    if not np.isfinite(total):
        raise RuntimeError("no path through the alignment band (a bug: bands always contain one)")
    beads: list[tuple[int, int, int, int]] = []
    row, col = int(n), int(m)
    while row > 0 or col > 0:
        t = int(back[row, col - lo[row]])
        if t == ZERO_ONE:
            beads.append((row, 0, col - 1, 1))
            col -= 1
        else:
            a, b = types[t]
            beads.append((row - a, a, col - b, b))
            row -= a
            col -= b
    beads.reverse()
    return DPResult(beads=beads, total=total, cells=band.cells, levels=[(n, m, band.cells)])


# ------------------------------------------------------------------ banding
def band_around_path(points: np.ndarray, n_src: int, n_tgt: int, margin: int) -> Band:
    """A band containing a monotone path widened by ``margin`` cells each way.

    Args:
        points: (k, 2) int lattice points (i, j) of a path from (0, 0) to
            (n_src, n_tgt), in order (may be coarse: gaps are interpolated as
            rectangles).
        margin: rows and columns added on every side.
    """
    pts = np.asarray(points, dtype=np.int64)
    rows = np.arange(n_src + 1)
    # For row i: the path's columns span from the last point at or above the
    # row to the first point at or below it.
    before = np.searchsorted(pts[:, 0], rows, side="right") - 1
    after = np.searchsorted(pts[:, 0], rows, side="left")
    before = np.clip(before, 0, len(pts) - 1)
    after = np.clip(after, 0, len(pts) - 1)
    lo = np.minimum(pts[before, 1], pts[after, 1])
    hi = np.maximum(pts[before, 1], pts[after, 1])
    # Points sharing a row (0-1 runs) all count.
    for r in np.unique(pts[:, 0]):
        on_row = pts[pts[:, 0] == r, 1]
        lo[r] = min(lo[r], on_row.min())
        hi[r] = max(hi[r], on_row.max())
    size = 2 * margin + 1
    lo = minimum_filter1d(lo, size=size, mode="nearest") - margin
    hi = maximum_filter1d(hi, size=size, mode="nearest") + margin
    return Band.from_ranges(lo, hi, n_tgt)


def band_from_times(
    src_starts: np.ndarray, tgt_starts: np.ndarray, evs_min: float, evs_max: float, slack: float, max_tgt: int
) -> Band:
    """The ear-voice-span corridor: rows where the next target chunk can plausibly start.

    At lattice point (i, j) the next bead starts with source segment i and
    target segment j; its target should start within
    ``[start_i + evs_min - slack, start_i + evs_max + slack]``.

    Args:
        src_starts: (n_src,) seconds, non-decreasing.
        tgt_starts: (n_tgt,) seconds, non-decreasing.
        slack: seconds of tolerance on both sides of the window.
        max_tgt: extra columns so that the largest bead fits.
    """
    m = len(tgt_starts)
    row_time = np.concatenate((np.asarray(src_starts, dtype=np.float64), [np.inf]))
    t = np.asarray(tgt_starts, dtype=np.float64)
    lo = np.searchsorted(t, row_time + evs_min - slack, side="left")
    hi = np.searchsorted(t, row_time + evs_max + slack, side="right") + max_tgt
    lo[-1] = m
    return Band.from_ranges(lo, hi, m)


def downsample(vectors: np.ndarray, factor: int) -> np.ndarray:
    """Mean of each run of ``factor`` consecutive vectors, renormalised.

    Args:
        vectors: (n, dim).

    Returns:
        (ceil(n / factor), dim) float32 unit vectors (zero rows stay zero).
    """
    n, dim = vectors.shape
    if n == 0:
        return np.zeros((0, dim), dtype=np.float32)
    # Summed from views of the rows, without a padded copy (100,000 lexical
    # vectors are 1.6 GB); the same sums as padding the last run with zeros.
    v = np.ascontiguousarray(vectors, dtype=np.float32)
    whole = n // factor
    sums = np.empty((math.ceil(n / factor), dim), dtype=np.float32)
    sums[:whole] = v[: whole * factor].reshape(whole, factor, dim).sum(axis=1)
    if whole * factor < n:
        sums[whole] = v[whole * factor :].sum(axis=0)
    norms = np.linalg.norm(sums, axis=1, keepdims=True)
    np.divide(sums, norms, out=sums, where=norms > 0)
    return sums


def _sorted(values: np.ndarray | None) -> bool:
    return values is not None and bool(np.all(np.diff(values) >= 0))


def _group_sums(values: np.ndarray | None, factor: int) -> np.ndarray | None:
    """Sums of each run of ``factor`` values (lengths of downsampled segments)."""
    if values is None or len(values) == 0:
        return values
    v = np.asarray(values, dtype=np.float64)
    return np.add.reduceat(v, np.arange(0, len(v), factor))


# ------------------------------------------------------------------ driver
class WindowCosts:
    """The bead costs of a sub-rectangle of a larger :class:`BeadCostModel`.

    Re-aligning the gap between two confirmed beads reuses the whole
    document's tables (similarities, normalisers estimated on the whole talk)
    instead of re-estimating them from a handful of segments.

    Args:
        model: costs over the whole documents.
        src_start, src_stop: source positions of the window (half-open).
        tgt_start, tgt_stop: target positions of the window (half-open).
    """

    def __init__(self, model: BeadCostModel, src_start: int, src_stop: int, tgt_start: int, tgt_stop: int) -> None:
        self.model = model
        self.src_start, self.tgt_start = src_start, tgt_start
        self.n_src = src_stop - src_start
        self.n_tgt = tgt_stop - tgt_start
        self.max_src, self.max_tgt = model.max_src, model.max_tgt
        self.settings = model.settings
        scale = model.tgt_skip_scale
        self.tgt_skip_scale = None if scale is None else np.asarray(scale)[tgt_start:tgt_stop]

    def band_costs(self, types: list[tuple[int, int]], rows: np.ndarray, j_grid: np.ndarray) -> np.ndarray:
        """:meth:`BeadCostModel.band_costs` in window coordinates: (T, R, W)."""
        costs = self.model.band_costs(types, rows + self.src_start, j_grid + self.tgt_start)
        # Beads reaching back before the window's first row or column do not fit.
        for k, (a, b) in enumerate(types):
            bad = (rows[:, None] < a) | (j_grid < b)
            costs[k][bad] = np.inf
        return costs

    def bead_cost(self, a: int, b: int, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        i, j = np.broadcast_arrays(np.asarray(i, dtype=np.int64), np.asarray(j, dtype=np.int64))
        ok = (i >= a) & (j >= b) & (i <= self.n_src) & (j <= self.n_tgt)
        cost = self.model.bead_cost(a, b, np.where(ok, i, a) + self.src_start, np.where(ok, j, b) + self.tgt_start)
        return np.where(ok, cost, np.inf)


def align_window(
    model: BeadCostModel,
    src_start: int,
    src_stop: int,
    tgt_start: int,
    tgt_stop: int,
    *,
    exact_cell_limit: int = EXACT_CELL_LIMIT,
    time_band_slack: float = 30.0,
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
) -> DPResult:
    """Align source ``src_start:src_stop`` with target ``tgt_start:tgt_stop``.

    Exact DP up to ``exact_cell_limit`` lattice cells; above it the band
    comes from the ear-voice-span corridor (timestamps on both sides, time
    prior on) or from aligning downsampled vectors (recursively).

    Returns:
        Beads as (src_start, n_src, tgt_start, n_tgt) in whole-document positions.
    """
    progress = progress or (lambda f, m: None)
    view = WindowCosts(model, src_start, src_stop, tgt_start, tgt_stop)
    n, m = view.n_src, view.n_tgt
    cells = (n + 1) * (m + 1)
    settings = model.settings
    levels: list[tuple[int, int, int]] = []
    band: Band | None = None
    if cells <= exact_cell_limit:
        band = Band.full(n, m)
    elif (model.use_time and model.src_starts is not None and model.tgt_starts is not None
          and _sorted(model.src_starts[src_start:src_stop]) and _sorted(model.tgt_starts[tgt_start:tgt_stop])):
        # (overlapping captions out of order would make the corridor lie)
        timed = band_from_times(
            model.src_starts[src_start:src_stop],
            model.tgt_starts[tgt_start:tgt_stop],
            settings.evs_min,
            settings.evs_max,
            time_band_slack,
            model.max_tgt,
        )
        # The corridor is only worth it when it is narrow; a talk with long
        # silences or bad timestamps falls back to downsampling.
        if timed.cells <= max(exact_cell_limit, 64 * (n + 1)):
            band = timed
    if band is None:
        factor = min(MAX_FACTOR, max(2, math.ceil(math.sqrt(cells / exact_cell_limit))))
        coarse_signals = [
            Signal(
                downsample(s.src[src_start:src_stop], factor),
                downsample(s.tgt[tgt_start:tgt_stop], factor),
                s.weight,
                name=s.name,
            )
            for s in model.signals
        ]

        def sliced(values: np.ndarray | None, lo: int, hi: int) -> np.ndarray | None:
            return None if values is None else np.asarray(values)[lo:hi]

        src_times = sliced(model.src_starts, src_start, src_stop)
        tgt_times = sliced(model.tgt_starts, tgt_start, tgt_stop)
        coarse, _ = align_signals(
            coarse_signals,
            max_src=min(model.max_src, 2),
            max_tgt=min(model.max_tgt, 4),
            settings=settings,
            src_starts=src_times[::factor] if src_times is not None else None,
            tgt_starts=tgt_times[::factor] if tgt_times is not None else None,
            src_lengths=_group_sums(sliced(model.src_lengths, src_start, src_stop), factor),
            tgt_lengths=_group_sums(sliced(model.tgt_lengths, tgt_start, tgt_stop), factor),
            exact_cell_limit=exact_cell_limit,
            progress=stage(progress, 0.0, 0.2),
            should_stop=should_stop,
        )
        levels.extend(coarse.levels)
        pts = [(0, 0)]
        for i0, a, j0, b in coarse.beads:
            pts.append((min((i0 + a) * factor, n), min((j0 + b) * factor, m)))
        pts[-1] = (n, m)
        band = band_around_path(np.array(pts), n, m, margin=max(8, factor + 4))
    result = banded_dp(view, band, progress=stage(progress, 0.2 if levels else 0.0, 1.0), should_stop=should_stop)  # type: ignore[arg-type]
    result.beads = [(i0 + src_start, a, j0 + tgt_start, b) for i0, a, j0, b in result.beads]
    result.levels = levels + result.levels
    return result


def align_signals(
    signals: list[Signal],
    *,
    max_src: int,
    max_tgt: int,
    settings: CostSettings | None = None,
    src_starts: np.ndarray | None = None,
    tgt_starts: np.ndarray | None = None,
    src_lengths: np.ndarray | None = None,
    tgt_lengths: np.ndarray | None = None,
    exact_cell_limit: int = EXACT_CELL_LIMIT,
    time_band_slack: float = 30.0,
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
) -> tuple[DPResult, BeadCostModel]:
    """Align two vector sequences: exact DP when small, banded when large.

    Args:
        signals: the vectors to compare (see :class:`Signal`).
        max_src, max_tgt: largest bead sides.
        settings: cost knobs.
        src_starts, tgt_starts: (n_src,), (n_tgt,) start times, or None.
        src_lengths, tgt_lengths: (n_src,), (n_tgt,) character lengths, or None.
        exact_cell_limit: largest (n_src+1) x (n_tgt+1) run without a band.
        time_band_slack: seconds added around the ear-voice-span window
            when timestamps give the band.

    Returns:
        The path and the cost model (for per-bead costs).
    """
    model = BeadCostModel(
        signals, max_src, max_tgt, settings or CostSettings(), src_starts, tgt_starts, src_lengths, tgt_lengths
    )
    result = align_window(
        model,
        0,
        model.n_src,
        0,
        model.n_tgt,
        exact_cell_limit=exact_cell_limit,
        time_band_slack=time_band_slack,
        progress=progress,
        should_stop=should_stop,
    )
    return result, model
