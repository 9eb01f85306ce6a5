"""Filtering an aligned talk: the fine-grained filters and the learned one, each applied as one undoable edit.

The names a front end may ask for are :data:`FILTER_NAMES`: ``intra`` trims
contentless edge chunks and drops contentless beads, ``inter`` applies the
alpha/gamma/eta thresholds (their scores are shown either way), ``learned``
scores every bead's doubt with a model trained on the talk's reviewed beads.
The thresholds used are stored in the project by the same edit
(:class:`~sialign.core.edits.SetFilterParams`), so undoing a filter run
restores them too.

The desktop app computes the new beads in a worker on a snapshot and installs
them with :func:`filters_edit`; the command line, corpus mode and the Python
API call :func:`apply_filters`.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sialign.core.changes import Changes
    from sialign.core.doubt import DoubtScores
    from sialign.core.edits import Edit
    from sialign.core.model import Bead, BeadStatus, Project
    from sialign.core.params import FilterParams
    from sialign.core.progress import ProgressFn, StopFn
    from sialign.filters.learned import DoubtResult
    from sialign.filters.preview import PreviewChange
    from sialign.filters.scores import BeadScores

log = logging.getLogger(__name__)

# The fine-grained filter groups (``sialign align --filters``, the demo) and every filter a front end can name.
FINE_FILTERS = ("intra", "inter")
FILTER_NAMES = (*FINE_FILTERS, "learned")
FILTERS_LABEL = "Apply filters"
LEARNED_LABEL = "Apply the learned filter"
DOUBT_LABEL = "Apply the doubt filter"


def parse_filter_names(filters: str | Iterable[str]) -> tuple[str, ...]:
    """The filter names of ``filters`` — a name, a comma-separated list (``"intra,inter"``) or a list of names.

    Case and spaces do not matter. This is the one reading of filter names
    for the command line, corpus mode, the Python API and the app.

    Returns:
        The names, each once, in the order of :data:`FILTER_NAMES`.

    Raises:
        FilterNameError: naming the unknown filters and the choices (a ValueError too).
        TypeError: ``filters`` is neither text nor a collection of names.
    """
    from sialign.core.errors import FilterNameError

    if isinstance(filters, str):
        items: list[str] = filters.split(",")
    elif isinstance(filters, Iterable):
        items = [str(f) for f in filters]
    else:
        raise TypeError(f"filters must be a name such as 'intra' or a list of names, not {type(filters).__name__}")
    chosen = {item.strip().lower() for item in items if item.strip()}
    unknown = sorted(chosen - set(FILTER_NAMES))
    if unknown:
        raise FilterNameError(f"unknown filter(s) {', '.join(map(repr, unknown))}: choose from {', '.join(FILTER_NAMES)} "
                              "or a comma-separated list such as intra,inter")
    return tuple(name for name in FILTER_NAMES if name in chosen)


def check_filter_names(names: str | Iterable[str]) -> frozenset[str]:
    """:func:`parse_filter_names` as a set.

    Raises:
        FilterNameError, TypeError: as :func:`parse_filter_names`.
    """
    return frozenset(parse_filter_names(names))


def filter_params_for(params: FilterParams, names: Iterable[str]) -> FilterParams:
    """``params`` with only the fine-grained filter groups in ``names`` switched on (unchanged when none is named)."""
    chosen = set(names)
    if not chosen & set(FINE_FILTERS):
        return params
    if "intra" not in chosen:
        params = dataclasses.replace(params, intra=False, drop_contentless=False)
    if "inter" not in chosen:
        params = dataclasses.replace(params, inter=False)
    return params


def filters_edit(project: Project, beads: Sequence[Bead], params: FilterParams, label: str = FILTERS_LABEL) -> Edit:
    """The one undoable edit that installs filtered ``beads`` and the thresholds ``params`` they were decided with."""
    from sialign.core.edits import Batch, ReplaceBeads, SetFilterParams

    assert project.alignment is not None
    replace = ReplaceBeads(0, len(project.alignment.beads), tuple(beads), label=label)
    if project.filter_params == params:
        return replace
    return Batch((replace, SetFilterParams(params)), label=label)


@dataclass
class Filtered:
    """What :func:`apply_filters` did.

    Attributes:
        edits: the edits applied, in order (one per filter kind that ran).
        undos: their inverses, in the order that undoes them.
        changes: what they changed, for the views.
        params: the thresholds used (now the project's).
        before: bead statuses before any filter ran.
        fine: the beads the fine-grained filters made (None: they did not run).
        scores: their scores of the beads.
        before_learned: bead statuses before the learned filter ran.
        learned: the beads the learned filter made (None: it did not run).
        doubt: its doubt of every bead.
    """

    edits: list[Edit] = field(default_factory=list)
    undos: list[Edit] = field(default_factory=list)
    changes: Changes | None = None
    params: FilterParams | None = None
    before: list[BeadStatus] = field(default_factory=list)
    fine: list[Bead] | None = None
    scores: BeadScores | None = None
    before_learned: list[BeadStatus] = field(default_factory=list)
    learned: list[Bead] | None = None
    doubt: DoubtResult | None = None

    def fine_drops(self) -> tuple[int, int]:
        """(newly dropped, restored) by the fine-grained filters ((0, 0) when they did not run)."""
        from sialign.filters.apply import drop_changes

        return drop_changes(self.before, self.fine) if self.fine is not None else (0, 0)

    def learned_drops(self) -> tuple[int, int]:
        """(newly dropped, restored) by the learned filter ((0, 0) when it did not run)."""
        from sialign.filters.apply import drop_changes

        return drop_changes(self.before_learned, self.learned) if self.learned is not None else (0, 0)

    def skipped_note(self) -> str:
        """One line naming the filters not applied for the talk's target language ("" when all were)."""
        if self.scores is None or not self.scores.skipped:
            return ""
        from sialign.filters.languages import skipped_note

        return skipped_note(self.scores.skipped)


def apply_filters(
    project: Project,
    names: Iterable[str],
    *,
    params: FilterParams | None = None,
    embedder: str | None = None,
    others: Sequence[Project] = (),
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
) -> Filtered:
    """Run the filters named in ``names`` on the project's alignment, each kind as one undoable edit.

    Args:
        project: an aligned project; changed in place.
        names: some of :data:`FILTER_NAMES`.
        params: the thresholds (default: the project's); the fine-grained
            groups not named are switched off in what is stored.
        embedder: ``"lexical"`` or a sentence-transformers model, for eta by
            cosine and alpha by word alignment (default: neither).
        others: projects whose confirmed beads the learned filter trains on too.
        progress / should_stop: see :mod:`sialign.core.progress`.

    Raises:
        SialignError: an unknown filter name, or the project is not aligned.
    """
    from sialign.core.changes import Changes
    from sialign.core.errors import SialignError
    from sialign.filters import apply_filters as decide_filters
    from sialign.filters import score_beads

    chosen = check_filter_names(names)
    if project.alignment is None:
        raise SialignError("the project has no alignment yet — align it first")
    params = filter_params_for(params if params is not None else project.filter_params, chosen)
    done = Filtered(params=params, changes=Changes(), before=[b.status for b in project.alignment.beads])
    if chosen & set(FINE_FILTERS):
        if params.rendered_min > 0:
            # "Partly rendered" reads the stored word links: draw those the project lacks.
            from sialign.workflows.word_links import update_word_links

            update_word_links(project, progress=progress, should_stop=should_stop)
        model = _embedder(project, embedder)
        done.scores = score_beads(project, embedder=model, content_pos=params.content_pos, progress=progress,
                                  should_stop=should_stop)
        done.fine = decide_filters(project, params, done.scores, progress=progress, should_stop=should_stop)
        _apply(project, filters_edit(project, done.fine, params, FILTERS_LABEL), done)
        log.info("filters %s applied to %d beads", ", ".join(sorted(chosen & set(FINE_FILTERS))), len(done.fine))
    if "learned" in chosen:
        from sialign.filters.learned import learned_filter

        done.before_learned = [b.status for b in project.alignment.beads]
        done.learned, done.doubt = learned_filter(project, threshold=params.doubt_max, drop=params.drop_failed, others=others,
                                                  progress=progress, should_stop=should_stop)
        _apply(project, filters_edit(project, done.learned, params, LEARNED_LABEL), done)
    return done


def compute_scores(
    project: Project, content_pos: Sequence[str] | None = None, *, progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
) -> BeadScores:
    """Every bead's filter scores, computed in the scoring process (GiNZA loads once, away from a window's thread).

    The project is not changed (give a snapshot from a front end's worker).
    """
    from sialign.filters.remote import score_beads_in_process

    pos = tuple(content_pos) if content_pos is not None else None
    return score_beads_in_process(project, content_pos=pos, progress=progress, should_stop=should_stop)


def compute_filters(
    project: Project,
    params: FilterParams,
    scores: BeadScores | None = None,
    *,
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
) -> tuple[list[Bead], BeadScores]:
    """What the fine-grained filters decide for the project's beads, and the scores they decided on.

    The same decision as :func:`apply_filters` (scores that do not match the
    beads or the content words are computed again; the stored word links are
    brought up to date first when the rendered share is filtered on), without
    changing anything the caller keeps: apply the beads with
    :func:`filters_edit`. A front end runs this in a worker on a snapshot.

    Raises:
        SialignError: the project is not aligned.
    """
    from sialign.core.errors import SialignError
    from sialign.core.progress import stage
    from sialign.filters import apply_filters as decide_filters

    if project.alignment is None:
        raise SialignError("the project has no alignment yet — align it first")
    if params.rendered_min > 0:
        from sialign.workflows.word_links import update_word_links

        update_word_links(project, progress=stage(progress, 0.0, 0.2), should_stop=should_stop)
        progress = stage(progress, 0.2, 1.0)
    beads = project.alignment.beads
    if scores is None or not scores.matches(beads) or tuple(scores.content_pos) != tuple(params.content_pos):
        scores = compute_scores(project, params.content_pos, progress=stage(progress, 0.0, 0.9), should_stop=should_stop)
        progress = stage(progress, 0.9, 1.0)
    return decide_filters(project, params, scores, progress=progress, should_stop=should_stop), scores


def compute_doubt(project: Project, result: DoubtScores, threshold: float, *, drop: bool) -> list[Bead]:
    """The beads with the learned filter's doubt flags (and drops above ``threshold`` when ``drop``), to apply with
    :func:`filters_edit` as one step; the project is not changed."""
    from sialign.filters.doubt_decisions import apply_doubt

    return apply_doubt(project, result, threshold, drop=drop)


def skipped_filters(project: Project) -> dict[str, str]:
    """The filters that do not apply to the talk's target language: name → the reason, for the user."""
    from sialign.filters.languages import skipped_filters as skipped

    return skipped(project)


def learning_projects(paths: Iterable[str], *, besides: str | Path | None = None) -> list[Project]:
    """The projects named by ``paths`` (``.sialign`` files, corpus folders searched recursively) for the learned
    filter to train on too, leaving out the project file ``besides`` (the one being filtered).

    Raises:
        InputError: a path does not exist or names no project; a project file cannot be read.
    """
    from sialign.filters.learned import find_projects
    from sialign.io.project_file import load_project

    mine = Path(besides).resolve() if besides is not None else None
    return [load_project(p) for p in find_projects(paths) if Path(p).resolve() != mine]


@dataclass
class FilterPreview:
    """What the fine-grained filters would change at some thresholds, without changing anything.

    Attributes:
        flips: beads whose status would change (dropped or given back).
        changes: every bead that would change, with its reasons.
        counts: how many of ``changes`` are each kind (``drop``, ``restore``, ``flag``, ``trim``).
    """

    flips: list[int]
    changes: list[PreviewChange]
    counts: dict[str, int]

    @property
    def changed(self) -> list[int]:
        """The indices of the beads that would change, in order."""
        return sorted({change.index for change in self.changes})


def preview_filters(project: Project, scores: BeadScores, params: FilterParams) -> FilterPreview:
    """What applying ``params`` on ``scores`` (from :func:`compute_scores`) would change; quick enough for a slider.

    Raises:
        ValueError: the thresholds cannot be applied to these scores (the message says why).
    """
    from sialign.core.word_links import rendered_share
    from sialign.filters import preview_flips
    from sialign.filters.preview import count_changes, preview_changes

    beads = project.alignment.beads if project.alignment is not None else []
    flips = preview_flips(scores, params)
    rendered = [rendered_share(project, b) for b in beads] if params.rendered_min > 0 else None
    changes = preview_changes(beads, project.target, scores, params, rendered)
    return FilterPreview(flips, changes, count_changes(changes))


def load_filters() -> None:
    """Import the filters' modules now (a front end does it before its window shows, not mid-task)."""
    import sialign.filters  # noqa: F401


def warm_up_scoring(project: Project) -> bool:
    """Start loading the Japanese analyser in the scoring process when scoring this aligned talk will need it.

    Returns at once (the load runs in the background); True when a load was started or already under way.
    """
    from sialign.filters.remote import needs_japanese, warm_up_japanese

    if project.alignment is None or not project.alignment.beads or not needs_japanese(project):
        return False
    warm_up_japanese()
    return True


def stop_scoring() -> None:
    """Stop the scoring process and free its memory (when the application quits; safe to call twice)."""
    from sialign.filters.remote import shutdown

    shutdown()


def _apply(project: Project, edit: Edit, done: Filtered) -> None:
    from sialign.core.edits import apply_edit_changes

    undo, changes = apply_edit_changes(project, edit)
    done.edits.append(edit)
    done.undos.insert(0, undo)
    done.changes = changes if done.changes is None else done.changes | changes


def _embedder(project: Project, spec: str | None) -> object:
    """The embedder ``spec`` names, fitted on the talk's target-language texts when it learns from them (lexical)."""
    if not spec:
        return None
    from sialign.embed.choice import choose_embedder
    from sialign.embed.models import make_embedder

    embedder = make_embedder(choose_embedder(spec, project.source.language, project.target.language).spec)
    if hasattr(embedder, "fit"):
        texts = project.target.texts() + (project.reference.texts() if project.reference is not None else [])
        embedder.fit(texts)
    return embedder


__all__ = [
    "DOUBT_LABEL",
    "FILTERS_LABEL",
    "FILTER_NAMES",
    "FINE_FILTERS",
    "LEARNED_LABEL",
    "FilterPreview",
    "Filtered",
    "apply_filters",
    "check_filter_names",
    "parse_filter_names",
    "compute_doubt",
    "compute_filters",
    "compute_scores",
    "filter_params_for",
    "filters_edit",
    "learning_projects",
    "load_filters",
    "preview_filters",
    "skipped_filters",
    "stop_scoring",
    "warm_up_scoring",
]
