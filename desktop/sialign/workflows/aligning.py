"""Aligning a talk: compute an alignment, carry the review over, install it with its parameters as one undoable edit.

The command line, corpus mode and the Python API run it in one go
(:func:`align_talk`); the desktop app computes in a worker thread on a
snapshot (:func:`compute_alignment`) and installs the result through its
session with the edit :func:`alignment_edit` builds, so all of them record the
same history. Nothing outside this module (and :mod:`sialign.align`) calls
the aligner.

The edit replaces the alignment and, when they differ, sets the parameters
it was made with (:class:`~sialign.core.edits.SetParams`): undoing an *Align*
brings back the old beads and the old parameters together.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sialign.align.result import AlignResult
    from sialign.core.carry import CarryReport
    from sialign.core.changes import Changes
    from sialign.core.edits import Edit
    from sialign.core.model import Alignment, Project
    from sialign.core.params import AlignParams
    from sialign.core.progress import ProgressFn, StopFn
    from sialign.core.similarity import SimilarityGrid
    from sialign.embed.choice import EmbedderChoice
    from sialign.workflows.filtering import Filtered

log = logging.getLogger(__name__)

ALIGN_LABEL = "Align the talk"
REALIGN_LABEL = "Re-align unconfirmed beads"


def align_params(project: Project) -> AlignParams:
    """The project's alignment parameters; for a new talk the defaults with the default embedder.

    A new talk with a machine transcript (made from a recording) starts from
    the recording settings (:func:`sialign.workflows.recording_params.recording_params`).
    """
    from sialign.core.params import AlignParams
    from sialign.workflows.recording_params import params_for
    from sialign.workflows.talks import default_embedder

    if project.params is not None:
        return project.params
    return params_for(project, AlignParams(embedder=default_embedder()))


# The words of the two settings a user chooses for the kind of target (Settings → Alignment…,
# ``sialign align --target-units/--text-kind``), as the settings dialog shows them.
TARGET_UNITS_CHOICES = {
    "auto": "Automatic (chunks when the target has many more segments, mostly not ending a sentence)",
    "chunks": "Interpreter's chunks",
    "sentences": "Sentences",
}
TEXT_KIND_CHOICES = {
    "auto": "Automatic (from the talk's timestamps, recordings and hesitations)",
    "interpretation": "An interpretation",
    "translation": "A written translation",
}


def text_kind_note(project: Project, params: AlignParams | None = None, text_kind: str | None = None) -> str:
    """What ``params.text_kind`` (default: the talk's; ``text_kind`` instead when given) makes of the talk's target, and why, in one sentence.

    Raises:
        ParamsError: ``text_kind`` is not one of the choices.
    """
    from dataclasses import replace

    from sialign.align.pipeline import text_kind_and_evidence

    params = params or align_params(project)
    if text_kind is not None:
        chosen: dict[str, Any] = {"text_kind": text_kind}
        params = replace(params, **chosen)  # validates
    # The transcripts are scanned once (for hesitations), for the kind and the reason both.
    kind, evidence = text_kind_and_evidence(params, project)
    word = "an interpretation" if kind == "interpretation" else "a written translation"
    if params.text_kind != "auto":
        return f"Aligned as {word}, as chosen."
    why = {"recording": "the interpretation has a recording", "timestamps": "both transcripts have timestamps",
           "hesitations": "the transcripts keep hesitations (ehm, euh…) as transcribed speech does"}.get(
        evidence, "no timestamps on both sides, no interpretation recording and no hesitations")
    return f"Aligned as {word}: {why}."


def weights_note(info: dict[str, Any]) -> str:
    """Which learned weights scored an alignment's sentence targets (from its ``info``), or "" (chunks, or no second pass)."""
    kind = {"interpretation": "an interpretation", "sentences": "a written translation"}.get(str(info.get("bead_score")))
    return f"sentences scored as {kind}" if kind else ""


def alignment_settings_edit(project: Project, target_units: str, text_kind: str) -> Edit | None:
    """The undoable edit that gives the talk these alignment settings, or None when it has them already.

    Raises:
        ParamsError: a value that is not one of the choices.
    """
    from dataclasses import replace

    from sialign.core.edits import SetParams

    params = align_params(project)
    chosen: dict[str, Any] = {"target_units": target_units, "text_kind": text_kind}
    new = replace(params, **chosen)  # validates
    if new == params and project.params is not None:
        return None
    return SetParams(new, label="Alignment settings")


def embedder_choice(project: Project, params: AlignParams | None = None) -> EmbedderChoice:
    """The embedder ``params`` (default: the talk's) name for this talk, ``auto`` resolved for its language pair.

    The one rule every consumer follows (the aligner, the doubt features, the
    matrix, the model settings): ``auto`` is the user's default model, else
    the built-in multilingual encoder when it covers both languages, else the
    lexical embedder.
    """
    from sialign.embed.choice import choose_embedder

    spec = (params or align_params(project)).embedder
    return choose_embedder(spec, project.source.language, project.target.language)


def talk_embedder(project: Project) -> str:
    """The embedder the talk's alignment was made with (what its matrix and doubt compare with); for an unaligned talk, the one it would use."""
    from sialign.embed.choice import talk_embedder_spec

    return talk_embedder_spec(project, align_params(project).embedder)


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


def alignment_edit(
    project: Project,
    result: AlignResult,
    params: AlignParams,
    *,
    label: str = ALIGN_LABEL,
    carry_from: Alignment | None = None,
) -> tuple[Edit, CarryReport]:
    """The one undoable edit that installs ``result`` (made with ``params``), and what review data it carries.

    Every bead of the new alignment with the same segments as a bead of the
    old one takes over its review data (:mod:`sialign.core.carry`), in
    ``result`` itself; the report is also kept in ``info["review_carry"]``.

    Args:
        project: the talk as it is now (the desktop app: after the reviewer
            worked on while the alignment ran).
        result: from :func:`compute_alignment`.
        params: what it was made with; stored by the same edit when they differ.
        label: the undo label.
        carry_from: the alignment whose review data to carry (default: the project's own).
    """
    from sialign.core.carry import carry_review
    from sialign.core.edits import Batch, ReplaceAlignment, SetParams

    old = carry_from if carry_from is not None else project.alignment
    carried = carry_review(old, result.alignment)
    result.alignment.info["review_carry"] = carried.to_dict()
    replace = ReplaceAlignment(result.alignment, label=label)
    if project.params == params:
        return replace, carried
    return Batch((replace, SetParams(params)), label=label), carried


def similarity_grid(project: Project, *, progress: ProgressFn | None = None, should_stop: StopFn | None = None) -> SimilarityGrid:
    """The matrix view's similarity for the talk's segments, with the signals its alignment used (no aligning)."""
    from sialign.align.pipeline import similarity_grid as compute

    return compute(project, align_params(project), embedder_spec=talk_embedder(project), progress=progress, should_stop=should_stop)


def load_aligner() -> None:
    """Import the aligner's modules now (SciPy and friends take about a second the first time)."""
    import sialign.align.pipeline  # noqa: F401


@dataclass
class Aligned:
    """What :func:`align_talk` did.

    Attributes:
        result: the alignment run (timings, similarity).
        carried: the review data carried over, and what could not be.
        edit: the edit applied (None when ``accept`` refused it).
        undo: its inverse: applying it restores the alignment and the parameters from before.
        changes: what it (and the filters) changed, for the views.
        filtered: what the filters did (None when none was named).
    """

    result: AlignResult
    carried: CarryReport
    edit: Edit | None = None
    undo: Edit | None = None
    changes: Changes | None = None
    filtered: Filtered | None = None


def align_talk(
    project: Project,
    params: AlignParams,
    *,
    keep_confirmed: bool = True,
    filters: Iterable[str] = (),
    carry_from: Alignment | None = None,
    accept: Callable[[CarryReport], bool] | None = None,
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
) -> Aligned:
    """Align ``project`` in place: the alignment with its parameters as one edit, then the ``filters`` named.

    Args:
        project: the talk; its confirmed beads are anchors with ``keep_confirmed``.
        params: the alignment parameters; stored in the project by the same edit.
        filters: some of :data:`~sialign.workflows.filtering.FILTER_NAMES`, applied after aligning.
        carry_from: the alignment whose review data to carry over (default:
            the project's own; corpus mode passes the one of the project a
            changed transcript replaces).
        accept: asked with the carry report before anything changes; False
            leaves the project as it was (``sialign realign`` without
            ``--force`` when review data would be left behind, ``--dry-run``).
        progress / should_stop: see :mod:`sialign.core.progress`.
    """
    from sialign.core.edits import apply_edit_changes
    from sialign.workflows.filtering import apply_filters, check_filter_names

    names = check_filter_names(filters)
    label = alignment_label(project, keep_confirmed)
    result = compute_alignment(project, params, keep_confirmed=keep_confirmed, progress=progress, should_stop=should_stop)
    edit, carried = alignment_edit(project, result, params, label=label, carry_from=carry_from)
    done = Aligned(result, carried)
    if accept is not None and not accept(carried):
        return done
    done.undo, done.changes = apply_edit_changes(project, edit)
    done.edit = edit
    log.info("%s: %d beads with %s in %.2f s", label, len(result.alignment.beads), result.alignment.embedder,
             result.timings.get("total", 0.0))
    if names:
        done.filtered = apply_filters(project, names, progress=progress, should_stop=should_stop)
        if done.filtered.changes is not None:
            done.changes = done.changes | done.filtered.changes
    return done


__all__ = [
    "ALIGN_LABEL",
    "REALIGN_LABEL",
    "Aligned",
    "align_params",
    "align_talk",
    "alignment_edit",
    "alignment_label",
    "compute_alignment",
    "embedder_choice",
    "load_aligner",
    "similarity_grid",
    "talk_embedder",
]
