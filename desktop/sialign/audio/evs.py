"""Ear-voice span (EVS): how far behind the speaker the interpreter is.

For every bead whose source and target sides both have times, the start lag
is ``target start − source start`` (how long the interpreter listened before
speaking) and the end lag is ``target end − source end`` (how long the
rendition ran on after the speaker finished that material). Per talk we
report the median and the interquartile range (robust to the misaligned
beads a lag plot is there to reveal) and mark outliers with Tukey's fences
(1.5 IQR beyond the quartiles); per interpreter we pool the talks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence

import numpy as np

from sialign.core.model import BeadStatus, Project, bead_times

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


@dataclass
class InterpreterEvs:
    """EVS of one interpreter pooled over their talks.

    Attributes:
        interpreter: ``project.metadata["interpreter"]`` (``"unknown"`` when unset).
        talks: talk ids, in the order given.
        start: statistics of the start lag over all their beads (outliers name no bead: indices are per talk).
        end: statistics of the end lag.
        per_talk_median: median start lag of each talk, same order as ``talks``.
    """

    interpreter: str
    talks: list[str] = field(default_factory=list)
    start: EvsStats | None = None
    end: EvsStats | None = None
    per_talk_median: list[float] = field(default_factory=list)


def compute_evs(project: Project, *, include_dropped: bool = False) -> list[EvsRecord]:
    """One record per bead with times on both sides, in bead order.

    Dropped beads are left out by default: a misalignment's lag says nothing
    about the interpreter.
    """
    if project.alignment is None:
        return []
    records = []
    for i, bead in enumerate(project.alignment.beads):
        if not bead.src or not bead.tgt:
            continue
        if bead.status == BeadStatus.DROPPED and not include_dropped:
            continue
        s0, s1 = bead_times(bead, project.source, "src")
        t0, t1 = bead_times(bead, project.target, "tgt")
        if None in (s0, s1, t0, t1):
            continue
        assert s0 is not None and s1 is not None and t0 is not None and t1 is not None
        records.append(EvsRecord(i, s0, s1, t0, t1, t0 - s0, t1 - s1, bead.status == BeadStatus.CONFIRMED))
    return records


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
    ids = list(ids) if ids is not None else list(range(len(arr)))
    outliers = tuple(int(ids[i]) for i in np.flatnonzero((arr < lo) | (arr > hi)))
    return EvsStats(
        n=int(arr.size), median=median, q1=q1, q3=q3, iqr=iqr, mean=float(arr.mean()),
        minimum=float(arr.min()), maximum=float(arr.max()), lower_fence=lo, upper_fence=hi, outliers=outliers,
    )


def evs_stats(records: Sequence[EvsRecord], which: str = "start") -> EvsStats | None:
    """Statistics of the start lag (``which="start"``) or end lag (``"end"``); outliers are bead indices."""
    if which not in ("start", "end"):
        raise ValueError(f"which must be 'start' or 'end', not {which!r}")
    values = [r.start_lag if which == "start" else r.end_lag for r in records]
    return lag_stats(values, [r.bead for r in records])


def interpreter_of(project: Project) -> str:
    value = project.metadata.get("interpreter")
    return str(value) if value not in (None, "") else "unknown"


def compare_interpreters(projects: Iterable[Project], *, include_dropped: bool = False) -> list[InterpreterEvs]:
    """Pool each interpreter's beads over their talks, sorted by interpreter name."""
    groups: dict[str, tuple[InterpreterEvs, list[float], list[float]]] = {}
    for project in projects:
        records = compute_evs(project, include_dropped=include_dropped)
        name = interpreter_of(project)
        entry, starts, ends = groups.setdefault(name, (InterpreterEvs(name), [], []))
        entry.talks.append(project.talk_id)
        talk = evs_stats(records)
        entry.per_talk_median.append(talk.median if talk is not None else float("nan"))
        starts.extend(r.start_lag for r in records)
        ends.extend(r.end_lag for r in records)
    result = []
    for name in sorted(groups):
        entry, starts, ends = groups[name]
        entry.start = lag_stats(starts)
        entry.end = lag_stats(ends)
        result.append(entry)
    return result
