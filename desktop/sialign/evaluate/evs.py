"""Ear-voice span (EVS): how far behind the speaker the interpreter is.

For every bead whose source and target sides both have times, the start lag
is ``target start − source start`` (how long the interpreter listened before
speaking) and the end lag is ``target end − source end`` (how long the
rendition ran on after the speaker finished that material). Per talk we
report the median and the interquartile range (robust to the misaligned
beads a lag plot is there to reveal) and mark outliers with Tukey's fences
(1.5 IQR beyond the quartiles); per interpreter we pool the talks.

The lags and their statistics are computed in :mod:`sialign.core.lags`
(importable from here), which the one bead summary reads too.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from sialign.core.lags import TUKEY_K, EvsRecord, EvsStats, EvsTable, bead_lags, evs_stats, evs_table, lag_stats
from sialign.core.model import Project


@dataclass
class InterpreterEvs:
    """EVS of one interpreter pooled over their talks.

    Attributes:
        interpreter: ``project.metadata["interpreter"]`` (``"unknown (FILE)"`` when unset: see :func:`interpreter_label`).
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
    return evs_table(project, include_dropped=include_dropped).records()


def interpreter_of(project: Project) -> str:
    value = project.metadata.get("interpreter")
    return str(value) if value not in (None, "") else "unknown"


def file_labels(paths: Sequence[str]) -> list[str]:
    """How to name each project file in a table: its file name, or the path as given where file names repeat."""
    import os

    names = [os.path.basename(str(p)) or str(p) for p in paths]
    return [name if names.count(name) == 1 else str(path) for name, path in zip(names, paths)]


def _file_label(project: Project) -> str:
    import os

    return os.path.basename(project.path) if project.path else project.talk_id


def talk_labels(projects: Sequence[Project], files: Sequence[str] | None = None) -> list[str]:
    """Each project's talk id, followed by its file (``"talk (ex.sialign)"``) where talk ids repeat.

    ``files``: the labels of the project files (default: from ``project.path``).
    """
    files = list(files) if files is not None else [_file_label(p) for p in projects]
    ids = [p.talk_id for p in projects]
    return [talk if ids.count(talk) == 1 else f"{talk} ({file})" for talk, file in zip(ids, files)]


def interpreter_label(project: Project, file: str | None = None) -> str:
    """The project's interpreter id; without one, ``"unknown (FILE)"``, so unnamed interpreters are never pooled."""
    value = project.metadata.get("interpreter")
    if value not in (None, ""):
        return str(value)
    return f"unknown ({file if file is not None else _file_label(project)})"


def compare_interpreters(
    projects: Iterable[Project], *, include_dropped: bool = False, files: Sequence[str] | None = None
) -> list[InterpreterEvs]:
    """Pool each interpreter's beads over their talks, sorted by interpreter name.

    Projects without an interpreter id are not pooled: each is its own
    ``"unknown (FILE)"`` entry (``files``: the labels of the project files,
    default from ``project.path``, else the talk id).
    """
    groups: dict[str, tuple[InterpreterEvs, list[float], list[float]]] = {}
    projects = list(projects)
    file_names = list(files) if files is not None else [None] * len(projects)
    for project, file in zip(projects, file_names):
        records = compute_evs(project, include_dropped=include_dropped)
        name = interpreter_label(project, file)
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


__all__ = ["TUKEY_K", "EvsRecord", "EvsStats", "EvsTable", "InterpreterEvs", "bead_lags", "compare_interpreters", "compute_evs",
           "evs_stats", "evs_table", "file_labels", "interpreter_label", "interpreter_of", "lag_stats", "talk_labels"]
