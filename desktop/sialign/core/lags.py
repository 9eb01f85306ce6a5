"""The lag of each bead: how far the interpretation starts (and ends) after the source.

For every bead whose source and target sides both have times, the start lag
is ``target start − source start`` (the ear-voice span) and the end lag
``target end − source end``. :func:`evs_table` computes them for every bead
at once; :func:`evs_stats` gives the median, the quartiles and Tukey's
outliers. A core fact, so the one bead summary
(:mod:`sialign.core.bead_summary`) and the EVS study (:mod:`sialign.evaluate.evs`)
read the same numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from sialign.core.model import Bead, BeadStatus, Document, Project, bead_times

TUKEY_K = 1.5


@dataclass(frozen=True)
class EvsRecord:
    """The lags of one bead.

    Attributes:
        bead: index of the bead in the alignment.
        src_start / src_end: source side times (s).
        tgt_start / tgt_end: target side times (s).
        start_lag: ``tgt_start - src_start`` (s).
        end_lag: ``tgt_end - src_end`` (s).
        confirmed: the reviewer confirmed the bead.
    """

    bead: int
    src_start: float
    src_end: float
    tgt_start: float
    tgt_end: float
    start_lag: float
    end_lag: float
    confirmed: bool = False


@dataclass(frozen=True)
class EvsStats:
    """Summary of one lag over a set of beads (seconds).

    Attributes:
        n: number of beads.
        median, q1, q3, iqr, mean, minimum, maximum: the usual.
        lower_fence / upper_fence: ``q1 - 1.5 IQR`` and ``q3 + 1.5 IQR``.
        outliers: bead indices whose lag lies outside the fences.
    """

    n: int
    median: float
    q1: float
    q3: float
    iqr: float
    mean: float
    minimum: float
    maximum: float
    lower_fence: float
    upper_fence: float
    outliers: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, object]:
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.__dict__.items()}


@dataclass(frozen=True)
class EvsTable:
    """The lags of every bead with times on both sides, as columns (one row per bead).

    The GUI redraws the lag plot from these arrays after edits, so a
    5,000-bead talk costs a few milliseconds instead of building thousands
    of objects.

    Attributes:
        bead: bead indices, shape (n,) int64, ascending.
        src_start / src_end / tgt_start / tgt_end: side times in seconds, shape (n,) float64.
        confirmed: the reviewer confirmed the bead, shape (n,) bool.
    """

    bead: np.ndarray
    src_start: np.ndarray
    src_end: np.ndarray
    tgt_start: np.ndarray
    tgt_end: np.ndarray
    confirmed: np.ndarray

    @classmethod
    def empty(cls) -> EvsTable:
        none = np.zeros(0, dtype=np.float64)
        return cls(np.zeros(0, dtype=np.int64), none, none, none, none, np.zeros(0, dtype=bool))

    def __len__(self) -> int:
        return int(self.bead.size)

    @property
    def start_lag(self) -> np.ndarray:
        """``tgt_start - src_start``, shape (n,)."""
        return self.tgt_start - self.src_start

    @property
    def end_lag(self) -> np.ndarray:
        """``tgt_end - src_end``, shape (n,)."""
        return self.tgt_end - self.src_end

    def row_of(self, bead: int) -> int | None:
        """Row of bead index ``bead``, None when the bead has no lag."""
        row = int(np.searchsorted(self.bead, bead))
        return row if row < self.bead.size and int(self.bead[row]) == bead else None

    def records(self) -> list[EvsRecord]:
        """The rows as :class:`EvsRecord` objects."""
        start_lag, end_lag = self.start_lag, self.end_lag
        return [
            EvsRecord(int(self.bead[i]), float(self.src_start[i]), float(self.src_end[i]), float(self.tgt_start[i]),
                      float(self.tgt_end[i]), float(start_lag[i]), float(end_lag[i]), bool(self.confirmed[i]))
            for i in range(len(self))
        ]


def bead_lags(bead: Bead, source: Document, target: Document) -> tuple[float | None, float | None]:
    """(start lag, end lag) of one bead in seconds: interpretation minus source; None where a time is missing.

    The start lag is the ear-voice span; :func:`evs_table` computes the same
    for every bead at once.
    """
    s_start, s_end = bead_times(bead, source, "src")
    t_start, t_end = bead_times(bead, target, "tgt")
    start = t_start - s_start if (t_start is not None and s_start is not None) else None
    end = t_end - s_end if (t_end is not None and s_end is not None) else None
    return start, end


def _segment_times(doc: Document) -> tuple[dict[int, int], np.ndarray, np.ndarray]:
    """Id → position, and starts and ends by position with a NaN sentinel appended, shapes (n + 1,)."""
    positions = {s.id: i for i, s in enumerate(doc.segments)}
    nan = float("nan")
    starts = np.array([nan if s.start is None else s.start for s in doc.segments] + [nan], dtype=np.float64)
    ends = np.array([nan if s.end is None else s.end for s in doc.segments] + [nan], dtype=np.float64)
    return positions, starts, ends


def evs_table(project: Project, *, include_dropped: bool = False) -> EvsTable:
    """The lags of every bead with times on both sides, vectorised over the beads.

    Same beads and values as :func:`sialign.evaluate.evs.compute_evs` (dropped beads left out by default).
    """
    alignment = project.alignment
    if alignment is None or not alignment.beads:
        return EvsTable.empty()
    src_pos, src_starts, src_ends = _segment_times(project.source)
    tgt_pos, tgt_starts, tgt_ends = _segment_times(project.target)
    src_none, tgt_none = len(src_starts) - 1, len(tgt_starts) - 1
    # One pass over the beads for the positions of each side's first and last
    # segment (the NaN sentinel for an empty side); the rest is array work.
    rows = [
        (src_pos[b.src[0]] if b.src else src_none, src_pos[b.src[-1]] if b.src else src_none,
         tgt_pos[b.tgt[0]] if b.tgt else tgt_none, tgt_pos[b.tgt[-1]] if b.tgt else tgt_none,
         b.status is BeadStatus.DROPPED, b.status is BeadStatus.CONFIRMED)
        for b in alignment.beads
    ]
    cols = np.array(rows, dtype=np.int64).reshape(len(rows), 6)
    s0, s1 = src_starts[cols[:, 0]], src_ends[cols[:, 1]]
    t0, t1 = tgt_starts[cols[:, 2]], tgt_ends[cols[:, 3]]
    keep = np.isfinite(s0) & np.isfinite(s1) & np.isfinite(t0) & np.isfinite(t1)
    if not include_dropped:
        keep &= cols[:, 4] == 0
    beads = np.flatnonzero(keep).astype(np.int64)
    return EvsTable(beads, s0[keep], s1[keep], t0[keep], t1[keep], cols[keep, 5].astype(bool))


def lag_stats(values: Sequence[float], ids: Sequence[int] | None = None) -> EvsStats | None:
    """Median, quartiles and Tukey outliers of ``values`` (None for no values).

    Args:
        values: lags in seconds, shape (n,).
        ids: what to report for outliers (bead indices), same length; defaults to positions.
    """
    if len(values) == 0:
        return None
    arr = np.asarray(values, dtype=np.float64)
    q1, median, q3 = (float(v) for v in np.percentile(arr, [25, 50, 75]))
    iqr = q3 - q1
    lo, hi = q1 - TUKEY_K * iqr, q3 + TUKEY_K * iqr
    labels = np.asarray(ids, dtype=np.int64) if ids is not None else np.arange(arr.size)
    outliers = tuple(int(v) for v in labels[(arr < lo) | (arr > hi)])
    return EvsStats(
        n=int(arr.size), median=median, q1=q1, q3=q3, iqr=iqr, mean=float(arr.mean()),
        minimum=float(arr.min()), maximum=float(arr.max()), lower_fence=lo, upper_fence=hi, outliers=outliers,
    )


def evs_stats(records: Sequence[EvsRecord] | EvsTable, which: str = "start") -> EvsStats | None:
    """Statistics of the start lag (``which="start"``) or end lag (``"end"``); outliers are bead indices."""
    if which not in ("start", "end"):
        raise ValueError(f"which must be 'start' or 'end', not {which!r}")
    if isinstance(records, EvsTable):
        lags = records.start_lag if which == "start" else records.end_lag
        return lag_stats(lags.tolist(), records.bead.tolist())
    values = [r.start_lag if which == "start" else r.end_lag for r in records]
    return lag_stats(values, [r.bead for r in records])


__all__ = ["TUKEY_K", "EvsRecord", "EvsStats", "EvsTable", "bead_lags", "evs_stats", "evs_table", "lag_stats"]
