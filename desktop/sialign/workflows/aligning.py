"""Aligning a talk: compute an alignment, install it as one undoable edit, run the filters.

The CLI runs these in one go (:func:`align_talk`); the desktop app computes
in a worker thread on a snapshot (:func:`compute_alignment`) and installs the
result through its session with :func:`alignment_edit`, so both record the
same history.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sialign.align.result import AlignResult
    from sialign.core.edits import Edit
    from sialign.core.model import Project
    from sialign.core.params import AlignParams, FilterParams
    from sialign.core.progress import ProgressFn, StopFn

log = logging.getLogger(__name__)

# The filter groups ``--filters`` and the demo name.
FILTER_NAMES = ("intra", "inter")
ALIGN_LABEL = "Align the talk"
REALIGN_LABEL = "Re-align unconfirmed beads"


def align_params(project: Project) -> AlignParams:
    """The project's alignment parameters, or the defaults with the default embedder for a new talk."""
    from sialign.core.params import AlignParams
    from sialign.workflows.talks import default_embedder

    if project.params is not None:
        return project.params
    return AlignParams(embedder=default_embedder())


def alignment_label(project: Project, keep_confirmed: bool) -> str:
    """The undo label of (re-)aligning ``project``."""
    return REALIGN_LABEL if keep_confirmed and project.alignment is not None else ALIGN_LABEL


def compute_alignment(
    project: Project,
    params: AlignParams,
    *,
    keep_confirmed: bool = True,
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
) -> AlignResult:
    """Align ``project`` (unchanged); with ``keep_confirmed`` its confirmed beads are anchors and only the gaps are re-aligned."""
    from sialign.align.pipeline import align_project

    return align_project(project, params, progress=progress, should_stop=should_stop, keep_confirmed=keep_confirmed)


def alignment_edit(result: AlignResult, label: str = ALIGN_LABEL) -> Edit:
    """The undoable edit that installs ``result``."""
    from sialign.core.edits import ReplaceAlignment

    return ReplaceAlignment(result.alignment, label=label)


def record_params(project: Project, params: AlignParams) -> bool:
    """Store the parameters an alignment was made with; True when they changed."""
    if project.params == params:
        return False
    project.params = params
    return True


def align_talk(
    project: Project,
    params: AlignParams,
    *,
    keep_confirmed: bool = True,
    filters: set[str] | frozenset[str] = frozenset(),
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
) -> AlignResult:
    """Align ``project`` in place: the alignment as one edit, the parameters, then the ``filters`` named (one edit)."""
    from sialign.core.edits import apply_edit

    label = alignment_label(project, keep_confirmed)
    result = compute_alignment(project, params, keep_confirmed=keep_confirmed, progress=progress, should_stop=should_stop)
    apply_edit(project, alignment_edit(result, label))
    record_params(project, params)
    log.info("%s: %d beads with %s in %.2f s", label, len(result.alignment.beads), result.alignment.embedder,
             result.timings.get("total", 0.0))  # fmt: skip
    if filters:
        run_filters(project, filters, progress=progress)
    return result


def filter_params_for(project: Project, names: set[str] | frozenset[str]) -> FilterParams:
    """The project's filter settings with only the filter groups ``names`` switched on.

    ``intra`` trims contentless edge chunks and drops contentless beads;
    ``inter`` applies the alpha/gamma/eta thresholds (their scores are shown
    either way).
    """
    from sialign.core.errors import SialignError

    unknown = set(names) - set(FILTER_NAMES)
    if unknown:
        raise SialignError(f"unknown filter(s) {', '.join(sorted(unknown))} — use intra, inter or intra,inter")
    params = project.filter_params
    if "intra" not in names:
        params = dataclasses.replace(params, intra=False, drop_contentless=False)
    if "inter" not in names:
        params = dataclasses.replace(params, inter=False)
    return params


def run_filters(project: Project, names: set[str] | frozenset[str] = frozenset(FILTER_NAMES), progress: Any = None) -> None:
    """Run the fine-grained filters named in ``names`` on the project's alignment (one undoable edit)."""
    from sialign.core.edits import ReplaceBeads, apply_edit
    from sialign.filters import apply_filters

    assert project.alignment is not None
    params = filter_params_for(project, names)
    beads = apply_filters(project, params, progress=progress)
    apply_edit(project, ReplaceBeads(0, len(project.alignment.beads), tuple(beads), label="Apply filters"))
    log.info("filters %s applied to %d beads", ", ".join(sorted(names)) or "(none)", len(beads))
    project.filter_params = params


__all__ = [
    "FILTER_NAMES",
    "align_params",
    "align_talk",
    "alignment_edit",
    "alignment_label",
    "compute_alignment",
    "filter_params_for",
    "record_params",
    "run_filters",
]
