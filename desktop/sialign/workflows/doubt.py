"""The learned filter's doubt while a reviewer works: retrain, preview, find the most doubtful bead.

The desktop app retrains the doubt model a moment after every review step,
on a snapshot in a background thread (:func:`retrain_doubt`, reusing the
talk's vectors from :func:`doubt_context` while the segments stay the same),
previews what a threshold would change (:func:`preview_doubt`) and jumps to
the unreviewed bead it doubts most (:func:`most_doubtful`). None of these
change the project; applying the doubt is
:func:`sialign.workflows.filtering.compute_doubt` with
:func:`~sialign.workflows.filtering.filters_edit`, and the command line runs
the learned filter through :func:`sialign.workflows.filtering.apply_filters`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from sialign.core.doubt import BeadKey, DoubtScores

if TYPE_CHECKING:
    from sialign.core.model import Bead, Project
    from sialign.core.progress import StopFn


class DoubtContext:
    """What retraining reads of a talk (its vectors and cost models), kept by a front end and handed back as it is."""

    def __init__(self, context: object) -> None:
        self._context = context


def doubt_context(project: Project, *, should_stop: StopFn | None = None) -> DoubtContext:
    """What retraining reads of the talk (its vectors and cost models), to reuse while the segments stay the same."""
    from sialign.filters.learned import talk_context

    return DoubtContext(talk_context(project, should_stop=should_stop))


def retrain_doubt(project: Project, context: DoubtContext | None = None, *,
                  should_stop: StopFn | None = None) -> DoubtScores:
    """Train the doubt model on the talk's reviewed beads and score every bead; the project is not changed.

    Args:
        context: a :func:`doubt_context` of the project's current segments (None: made here).

    Raises:
        ValueError: the project has no alignment.
        AlignmentCancelled: when ``should_stop()`` says so.
    """
    from sialign.filters.learned import TalkContext, compute_doubt

    talk = context._context if context is not None else None
    assert talk is None or isinstance(talk, TalkContext)
    return compute_doubt(project, context=talk, should_stop=should_stop)


def preview_doubt(result: DoubtScores, beads: Sequence[Bead], threshold: float, drop: bool) -> list[int]:
    """The beads whose status applying the doubt at ``threshold`` would change (dropped or given back)."""
    from sialign.filters.doubt_decisions import preview_doubt_flips

    return preview_doubt_flips(result, beads, threshold, drop)


def most_doubtful(beads: Sequence[Bead], doubt: dict[BeadKey, float]) -> int:
    """Index of the unreviewed bead with the highest doubt (keyed by (src ids, tgt ids)), or -1 when none has one."""
    from sialign.filters.doubt_decisions import most_doubtful as highest

    return highest(beads, doubt)


__all__ = ["doubt_context", "most_doubtful", "preview_doubt", "retrain_doubt"]
