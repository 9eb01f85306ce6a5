"""Edits of a project, each returning its exact inverse.

Every change a reviewer makes — splitting a segment, moving a chunk to the
neighbouring bead, confirming or dropping beads, re-aligning a stretch,
changing the alignment parameters or the filter thresholds — is an
:class:`Edit`. ``edit.apply(project)`` mutates the project and returns the
edit that undoes it; :func:`apply_edit` wraps that with the invariant checks,
rolls the project back when they fail and records the edit in
``project.history`` so a session can be saved and replayed. The GUI's undo
stack only holds these objects (see ``sialign.gui.common.commands``).

Inverses are exact: applying an edit and then its inverse gives back a
project whose ``to_dict()`` is equal to the original (history aside), with
the same segment ids, so redo after undo recreates the same ids as well.

Edits are copy-on-write: they never mutate a :class:`Segment` or
:class:`Bead` in place but put new objects into the lists. That lets
:func:`apply_edit` roll back by restoring a shallow copy of the lists
(pointer copies, microseconds for 5,000 beads) instead of deep-copying.

The edit classes live in :mod:`sialign.core.segment_edits`,
:mod:`sialign.core.bead_edits` and :mod:`sialign.core.param_edits` (their base and helpers in
:mod:`sialign.core.edit_base`); this module holds the registry
(:data:`EDIT_TYPES`), the invariant checks and :func:`apply_edit`, and every
edit class can be imported from here.

Bead numbers in messages and in :meth:`Edit.describe` are 1-based (the row a
reviewer sees); ``index`` arguments are 0-based positions in
``alignment.beads``. Segment ids are shown as they are.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sialign.core.bead_edits import (
    Batch,
    MergeBeads,
    ReplaceAlignment,
    ReplaceBeads,
    ReplaceTranscript,
    RestoreTrimmedChunk,
    SetLabels,
    SetPostEdit,
    SetStatus,
    SetTrimmed,
    SplitBead,
)
from sialign.core.changes import Changes
from sialign.core.edit_base import Edit
from sialign.core.errors import EditError, InvariantError, ParamsError, SialignError
from sialign.core.model import Alignment, Bead, Document, Project, Segment
from sialign.core.param_edits import SetFilterParams, SetParams, SetTalkInfo
from sialign.core.params import AlignParams, FilterParams
from sialign.core.segment_edits import (
    EditText,
    MergeSegments,
    MoveSegment,
    SetSegmentTimes,
    SetTimes,
    ShiftTimes,
    SplitSegment,
    UnmergeSegments,
)

EDIT_TYPES: dict[str, type[Edit]] = {
    cls.__name__: cls
    for cls in (
        SplitSegment,
        MergeSegments,
        UnmergeSegments,
        MoveSegment,
        EditText,
        SetSegmentTimes,
        SetTimes,
        ShiftTimes,
        MergeBeads,
        SplitBead,
        SetStatus,
        SetLabels,
        SetPostEdit,
        SetTrimmed,
        RestoreTrimmedChunk,
        ReplaceBeads,
        ReplaceAlignment,
        ReplaceTranscript,
        SetParams,
        SetFilterParams,
        SetTalkInfo,
        Batch,
    )
}


def edit_from_dict(d: dict[str, Any]) -> Edit:
    """Rebuild an edit from :meth:`Edit.to_dict` output (as stored in ``project.history``)."""
    if not isinstance(d, dict) or "type" not in d:
        raise EditError(f"not a recorded edit: {d!r:.80}")
    cls = EDIT_TYPES.get(d["type"])
    if cls is None:
        raise EditError(f"unknown edit type {d['type']!r}; the project may come from a newer SI Aligner")
    try:
        return cls.from_dict(d, edit_from_dict)
    except (KeyError, TypeError, ValueError, ParamsError) as exc:
        raise EditError(f"recorded {d['type']} edit is malformed: {exc}") from exc


# --------------------------------------------------------------------------
# applying with checks


@dataclass
class _Snapshot:
    """Shallow copies of every list an edit may change (edits are copy-on-write)."""

    segments: list[tuple[Document, list[Segment]]] = field(default_factory=list)
    alignment: Alignment | None = None
    beads: list[Bead] | None = None
    params: AlignParams | None = None
    filter_params: FilterParams = field(default_factory=FilterParams)

    @classmethod
    def take(cls, project: Project) -> _Snapshot:
        docs = [project.source, project.target] + ([project.reference] if project.reference is not None else [])
        alignment = project.alignment
        return cls(
            segments=[(d, list(d.segments)) for d in docs],
            alignment=alignment,
            beads=list(alignment.beads) if alignment is not None else None,
            params=project.params,
            filter_params=project.filter_params,
        )

    def restore(self, project: Project) -> None:
        for doc, segments in self.segments:
            doc.segments[:] = segments
        project.alignment = self.alignment
        project.params = self.params
        project.filter_params = self.filter_params
        if self.alignment is not None and self.beads is not None:
            self.alignment.beads[:] = self.beads


def _full_texts(project: Project) -> list[str]:
    docs = [project.source, project.target] + ([project.reference] if project.reference is not None else [])
    return [d.full_text() for d in docs]


def check_invariants(project: Project, full_texts_before: list[str] | None = None) -> None:
    """Raise :class:`InvariantError` unless the project is consistent.

    Checks: unique segment ids per document; times non-negative and
    start <= end; beads monotonic, covering each side exactly once, never
    empty on both sides, trimmed ⊆ tgt; the reference has one line per
    source segment; and, when ``full_texts_before`` is given (from before a
    split/merge/move), no character was lost or duplicated.
    """
    for name, doc in (("source", project.source), ("target", project.target), ("reference", project.reference)):
        if doc is None:
            continue
        ids = doc.ids()
        if len(set(ids)) != len(ids):
            raise InvariantError(f"the {name} has two segments with the same id")
        for seg in doc.segments:
            for value in (seg.start, seg.end):
                if value is not None and not value >= 0:
                    raise InvariantError(f"{name} segment {seg.id} has a negative or invalid time {value}")
            if seg.start is not None and seg.end is not None and seg.start > seg.end:
                raise InvariantError(f"{name} segment {seg.id} ends ({seg.end}) before it starts ({seg.start})")
    project.validate()
    if full_texts_before is not None and _full_texts(project) != full_texts_before:
        raise InvariantError("the edit lost or duplicated characters of a transcript")


def apply_edit_changes(project: Project, edit: Edit, *, record: bool = True) -> tuple[Edit, Changes]:
    """:func:`apply_edit`, returning the inverse and the record of what changed."""
    return apply_edit(project, edit, record=record), edit.changes()


def apply_edit(project: Project, edit: Edit, *, record: bool = True) -> Edit:
    """Apply ``edit``, check the invariants, record it, and return its inverse.

    On any failure (the edit refuses with :class:`EditError`, or the result
    breaks an invariant) the project is restored to exactly its previous
    state and the error is raised. With ``record`` the edit's ``to_dict()``
    is appended to ``project.history``.
    """
    snapshot = _Snapshot.take(project)
    texts_before = _full_texts(project) if edit.preserves_text else None
    try:
        inverse = edit.apply(project)
        check_invariants(project, texts_before)
    except SialignError:
        snapshot.restore(project)
        raise
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        # A malformed edit (e.g. from a hand-edited history) must not leave a
        # half-applied project behind; report it as a refused edit.
        snapshot.restore(project)
        raise EditError(f"{edit.describe()}: {exc}") from exc
    except BaseException:
        snapshot.restore(project)
        raise
    if record:
        project.history.append(edit.to_dict())
    return inverse


__all__ = [
    "Changes",
    "EDIT_TYPES",
    "Batch",
    "Edit",
    "EditText",
    "MergeBeads",
    "MergeSegments",
    "MoveSegment",
    "ReplaceAlignment",
    "ReplaceBeads",
    "ReplaceTranscript",
    "RestoreTrimmedChunk",
    "SetLabels",
    "SetFilterParams",
    "SetParams",
    "SetTalkInfo",
    "SetPostEdit",
    "SetSegmentTimes",
    "SetStatus",
    "SetTimes",
    "SetTrimmed",
    "ShiftTimes",
    "SplitBead",
    "SplitSegment",
    "UnmergeSegments",
    "apply_edit",
    "apply_edit_changes",
    "check_invariants",
    "edit_from_dict",
]
