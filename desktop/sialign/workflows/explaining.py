"""Why a bead is where it is, for a reader: ``sialign explain`` and the app's *Why this bead?*.

The use case behind both front ends: the talk is scored again as the aligner
scored it (from the vector cache when it holds the vectors) and the chosen
beads are explained by the learned bead score's features
(:mod:`sialign.align.explain`). The project is not changed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sialign.core.errors import SialignError
from sialign.core.params import AlignParams

if TYPE_CHECKING:
    from sialign.align.explain import BeadExplanation
    from sialign.core.model import Project


def explain_beads(project: Project, indices: list[int], params: AlignParams | None = None) -> list[BeadExplanation]:
    """Explain beads ``indices`` (0-based) of the project's alignment by the learned bead score.

    Raises:
        SialignError: no alignment, an index out of range, or no learned score for this talk.
    """
    from sialign.align.explain import bead_spans, explain_spans
    from sialign.align.pipeline import align_project

    alignment = project.alignment
    if alignment is None or not alignment.beads:
        raise SialignError("the project has no alignment to explain; align it first")
    for index in indices:
        if not 0 <= index < len(alignment.beads):
            raise SialignError(f"there is no bead {index + 1}: the alignment has {len(alignment.beads)} beads")
    result = align_project(project, params or project.params or AlignParams(), keep_confirmed=False, keep_scoring=True)
    inputs = result.scoring
    if inputs is None:
        raise SialignError(
            "this talk is aligned without the learned bead score (a lexical embedder, the pivot alone, "
            "segment mode, or more than 4,000 segments), so there is nothing to explain"
        )
    return explain_spans(inputs, bead_spans(project, alignment.beads), indices)


__all__ = ["explain_beads"]
