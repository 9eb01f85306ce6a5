"""Edits of beads: merge, split, statuses, labels, post-edits, trims, replacing beads, the alignment or a whole transcript, batches."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from sialign.core.changes import Changes
from sialign.core.edit_base import (
    Edit,
    bead_label,
    beads_of,
    check_index,
    check_side,
    replace_bead,
    require_alignment,
    tuple_of_ints,
)
from sialign.core.errors import EditError
from sialign.core.model import Alignment, Bead, BeadStatus, Document, Project
from sialign.core.plurals import count_noun


def _join_optional(a: str, b: str, sep: str) -> str:
    return sep.join(t for t in (a, b) if t)


@dataclass(frozen=True)
class MergeBeads(Edit):
    """Merge bead ``index`` with bead ``index + 1``.

    The merged bead keeps a status both agreed on (else auto), labels both
    agreed on (else unjudged), joins notes and post-edited targets, and loses
    the cost and filter flags (they were measured on other content).
    Inverse: :class:`ReplaceBeads` with the two original beads.
    """

    index: int

    def changes(self) -> Changes:
        return Changes(beads=True, statuses=True, annotations=True)

    def describe(self) -> str:
        return f"Merge beads {self.index + 1} and {self.index + 2}"

    def status_notice(self, project: Project) -> str:
        """What the merge does to the beads' review statuses, for the reviewer; "" when nothing is lost.

        The rule: the merged bead keeps a status both beads had; when they
        differ it becomes auto (a confirmation or drop covered only part of
        its content), and this says so.
        """
        alignment = project.alignment
        if alignment is None or not 0 <= self.index < len(alignment.beads) - 1:
            return ""
        a, b = alignment.beads[self.index], alignment.beads[self.index + 1]
        if a.status == b.status:
            return ""
        return (
            f"Bead {self.index + 1} was {a.status.value} and bead {self.index + 2} {b.status.value}: "
            "the merged bead is auto, review it again (Undo restores both)"
        )

    def apply(self, project: Project) -> Edit:
        alignment = require_alignment(project)
        beads = alignment.beads
        if not 0 <= self.index < len(beads) - 1:
            raise EditError(f"bead {self.index + 1} has no next bead to merge with; the alignment has {count_noun(len(beads), 'bead')}")
        a, b = beads[self.index], beads[self.index + 1]
        same_status = a.status == b.status
        post_edit = None
        if a.post_edit is not None or b.post_edit is not None:
            from sialign.core.model import bead_text

            post_edit = _join_optional(
                bead_text(a, project.target, "tgt"), bead_text(b, project.target, "tgt"), project.target.joiner
            )
        merged = Bead(
            src=a.src + b.src,
            tgt=a.tgt + b.tgt,
            cost=None,
            status=a.status if same_status else BeadStatus.AUTO,
            reason=_join_optional(a.reason, b.reason if b.reason != a.reason else "", "; ") if same_status else "",
            good_align=a.good_align if a.good_align == b.good_align else None,
            good_mt=a.good_mt if a.good_mt == b.good_mt else None,
            note=_join_optional(a.note, b.note, "\n"),
            post_edit=post_edit,
            trimmed=a.trimmed + b.trimmed,
            flags=[],
            restored=a.restored + b.restored,
        )
        beads[self.index : self.index + 2] = [merged]
        return ReplaceBeads(self.index, self.index + 1, (a, b), label=f"Split bead {self.index + 1} back")


@dataclass(frozen=True)
class SplitBead(Edit):
    """Split bead ``index`` after ``src_count`` source and ``tgt_count`` target segments.

    Both halves must hold at least one segment. They keep the bead's status,
    reason, labels and note; cost and flags are cleared. A bead with a
    post-edited target cannot be split (the edited text cannot be divided
    automatically). Inverse: :class:`ReplaceBeads` with the original bead.
    """

    index: int
    src_count: int
    tgt_count: int

    def changes(self) -> Changes:
        return Changes(beads=True, statuses=True, annotations=True)

    def describe(self) -> str:
        return f"Split bead {self.index + 1}"

    def apply(self, project: Project) -> Edit:
        alignment = require_alignment(project)
        check_index(alignment, self.index)
        bead = alignment.beads[self.index]
        label = f"bead {self.index + 1}"
        if not 0 <= self.src_count <= len(bead.src) or not 0 <= self.tgt_count <= len(bead.tgt):
            raise EditError(
                f"cannot split {label} after {self.src_count} source and {self.tgt_count} target segments: "
                f"it holds {len(bead.src)} and {len(bead.tgt)}"
            )
        first_src, second_src = bead.src[: self.src_count], bead.src[self.src_count :]
        first_tgt, second_tgt = bead.tgt[: self.tgt_count], bead.tgt[self.tgt_count :]
        if not (first_src or first_tgt) or not (second_src or second_tgt):
            raise EditError(f"splitting {label} there leaves an empty bead; each half needs at least one segment")
        if bead.post_edit is not None:
            raise EditError(f"{label} has a post-edited target; clear it before splitting the bead")
        first = replace_bead(
            bead, src=first_src, tgt=first_tgt, cost=None, confidence=None, flags=[], trimmed=tuple(i for i in bead.trimmed if i in first_tgt),
            restored=tuple(i for i in bead.restored if i in first_tgt),
        )
        second = replace_bead(
            bead, src=second_src, tgt=second_tgt, cost=None, confidence=None, flags=[], trimmed=tuple(i for i in bead.trimmed if i in second_tgt),
            restored=tuple(i for i in bead.restored if i in second_tgt),
        )
        alignment.beads[self.index : self.index + 1] = [first, second]
        return ReplaceBeads(self.index, self.index + 2, (bead,), label=f"Merge beads {self.index + 1} and {self.index + 2} back")


_STATUS_TEXT = {BeadStatus.CONFIRMED: "Confirm {}", BeadStatus.DROPPED: "Drop {}", BeadStatus.AUTO: "Set {} back to auto"}


@dataclass(frozen=True)
class SetStatus(Edit):
    """Set the status (auto / confirmed / dropped) and reason of some beads.

    Inverse: one :class:`SetStatus` per previous (status, reason) group,
    wrapped in a :class:`Batch` when there is more than one.
    """

    indices: tuple[int, ...]
    status: BeadStatus
    reason: str = ""

    _decoders: ClassVar[dict[str, Callable[[Any], Any]]] = {"indices": tuple_of_ints, "status": BeadStatus}

    def __post_init__(self) -> None:
        indices = (self.indices,) if isinstance(self.indices, int) else self.indices
        object.__setattr__(self, "indices", tuple(int(i) for i in indices))
        if not isinstance(self.status, BeadStatus):
            try:
                object.__setattr__(self, "status", BeadStatus(self.status))
            except ValueError:
                raise EditError(f"status must be auto, confirmed or dropped, not {self.status!r}") from None

    def changes(self) -> Changes:
        return Changes(statuses=True)

    def describe(self) -> str:
        return _STATUS_TEXT[self.status].format(bead_label(self.indices))

    def apply(self, project: Project) -> Edit:
        alignment = require_alignment(project)
        if not self.indices:
            raise EditError("no bead selected")
        for i in self.indices:
            check_index(alignment, i)
        groups: dict[tuple[BeadStatus, str], list[int]] = {}
        for i in dict.fromkeys(self.indices):
            bead = alignment.beads[i]
            groups.setdefault((bead.status, bead.reason), []).append(i)
            alignment.beads[i] = replace_bead(bead, status=self.status, reason=self.reason)
        inverses = [SetStatus(tuple(ix), status, reason) for (status, reason), ix in groups.items()]
        if len(inverses) == 1:
            return inverses[0]
        return Batch(tuple(inverses), label=f"Undo: {self.describe()}")


@dataclass(frozen=True)
class SetLabels(Edit):
    """Set a bead's review labels. Inverse: :class:`SetLabels` with the previous labels."""

    index: int
    good_align: bool | None
    good_mt: bool | None
    note: str = ""

    def changes(self) -> Changes:
        return Changes(annotations=True)

    def describe(self) -> str:
        return f"Label bead {self.index + 1}"

    def apply(self, project: Project) -> Edit:
        alignment = require_alignment(project)
        check_index(alignment, self.index)
        bead = alignment.beads[self.index]
        alignment.beads[self.index] = replace_bead(bead, good_align=self.good_align, good_mt=self.good_mt, note=self.note)
        return SetLabels(self.index, bead.good_align, bead.good_mt, bead.note)


@dataclass(frozen=True)
class SetPostEdit(Edit):
    """Set (or clear with None) a bead's post-edited target; the original target stays in the segments.

    Inverse: :class:`SetPostEdit` with the previous value.
    """

    index: int
    text: str | None

    def changes(self) -> Changes:
        return Changes(annotations=True)

    def describe(self) -> str:
        if self.text is None:
            return f"Clear the post-edit of bead {self.index + 1}"
        return f"Post-edit bead {self.index + 1}"

    def apply(self, project: Project) -> Edit:
        alignment = require_alignment(project)
        check_index(alignment, self.index)
        bead = alignment.beads[self.index]
        alignment.beads[self.index] = replace_bead(bead, post_edit=self.text)
        return SetPostEdit(self.index, bead.post_edit)


@dataclass(frozen=True)
class SetTrimmed(Edit):
    """Set which target chunks of a bead are trimmed from its output text.

    Inverse: :class:`SetTrimmed` with the previous set.
    """

    index: int
    trimmed: tuple[int, ...]

    _decoders: ClassVar[dict[str, Callable[[Any], Any]]] = {"trimmed": tuple_of_ints}

    def __post_init__(self) -> None:
        object.__setattr__(self, "trimmed", tuple(int(i) for i in self.trimmed))

    def changes(self) -> Changes:
        return Changes(annotations=True)

    def describe(self) -> str:
        return f"Trim bead {self.index + 1}" if self.trimmed else f"Untrim bead {self.index + 1}"

    def apply(self, project: Project) -> Edit:
        alignment = require_alignment(project)
        check_index(alignment, self.index)
        bead = alignment.beads[self.index]
        foreign = [i for i in self.trimmed if i not in bead.tgt]
        if foreign:
            raise EditError(f"bead {self.index + 1} holds no target segment {foreign[0]}; only its own chunks can be trimmed")
        alignment.beads[self.index] = replace_bead(bead, trimmed=self.trimmed)
        return SetTrimmed(self.index, bead.trimmed)


def _optional_ids(v: Any) -> tuple[int, ...] | None:
    return None if v is None else tuple_of_ints(v)


@dataclass(frozen=True)
class RestoreTrimmedChunk(Edit):
    """Bring back one chunk the intra filter trimmed from a bead, and remember the reviewer's choice.

    The chunk ``seg_id`` leaves the bead's ``trimmed`` and joins its
    ``restored``, so a later filter run does not trim it again.

    The inverse is the same edit with ``trimmed`` and ``restored`` given: it
    puts back exactly those two sets of the bead (and its own inverse puts
    back the ones it found), so undo and redo are exact whatever the bead held.
    """

    index: int
    seg_id: int
    trimmed: tuple[int, ...] | None = None
    restored: tuple[int, ...] | None = None

    _decoders: ClassVar[dict[str, Callable[[Any], Any]]] = {"trimmed": _optional_ids, "restored": _optional_ids}

    def __post_init__(self) -> None:
        for name in ("trimmed", "restored"):
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, tuple(int(i) for i in value))

    def changes(self) -> Changes:
        return Changes(annotations=True)

    def describe(self) -> str:
        if self.trimmed is not None and self.seg_id in self.trimmed:
            return f"Trim target segment {self.seg_id} of bead {self.index + 1} again"
        return f"Restore trimmed target segment {self.seg_id} of bead {self.index + 1}"

    def apply(self, project: Project) -> Edit:
        alignment = require_alignment(project)
        check_index(alignment, self.index)
        bead = alignment.beads[self.index]
        label = f"target segment {self.seg_id} of bead {self.index + 1}"
        if self.seg_id not in bead.tgt:
            raise EditError(f"bead {self.index + 1} holds no target segment {self.seg_id}")
        if self.trimmed is not None or self.restored is not None:
            trimmed, restored = tuple(self.trimmed or ()), tuple(self.restored or ())
            foreign = [i for i in trimmed + restored if i not in bead.tgt]
            if foreign:
                raise EditError(f"bead {self.index + 1} holds no target segment {foreign[0]}")
        else:
            if self.seg_id not in bead.trimmed:
                raise EditError(f"{label} is not trimmed; there is nothing to restore")
            trimmed = tuple(i for i in bead.trimmed if i != self.seg_id)
            restored = tuple(i for i in bead.tgt if i in bead.restored or i == self.seg_id)
        alignment.beads[self.index] = replace_bead(bead, trimmed=trimmed, restored=restored)
        return RestoreTrimmedChunk(self.index, self.seg_id, bead.trimmed, bead.restored)


@dataclass(frozen=True)
class ReplaceBeads(Edit):
    """Replace ``beads[start:stop]`` with new beads (a re-aligned stretch, filter results).

    The new beads are copied in, so later changes to the caller's objects do
    not leak into the project. Inverse: :class:`ReplaceBeads` with the
    replaced beads.
    """

    start: int
    stop: int
    beads: tuple[Bead, ...]
    label: str = ""

    _decoders: ClassVar[dict[str, Callable[[Any], Any]]] = {"beads": beads_of}

    def __post_init__(self) -> None:
        object.__setattr__(self, "beads", tuple(self.beads))

    def changes(self) -> Changes:
        return Changes(beads=True, statuses=True, annotations=True)

    def describe(self) -> str:
        if self.label:
            return self.label
        if self.stop - self.start == 1:
            return f"Replace bead {self.start + 1}"
        return f"Replace beads {self.start + 1}–{self.stop}"

    def apply(self, project: Project) -> Edit:
        alignment = require_alignment(project)
        n = len(alignment.beads)
        if not 0 <= self.start <= self.stop <= n:
            raise EditError(f"cannot replace beads {self.start + 1}–{self.stop}: the alignment has {count_noun(n, 'bead')}")
        old = tuple(alignment.beads[self.start : self.stop])
        alignment.beads[self.start : self.stop] = [b.copy() for b in self.beads]
        return ReplaceBeads(self.start, self.start + len(self.beads), old, label=f"Undo: {self.describe()}")


@dataclass(frozen=True)
class ReplaceAlignment(Edit):
    """Install a new alignment (or None); used when a whole talk is (re-)aligned.

    A copy of the bead list is installed, so the caller's object stays its
    own. Inverse: :class:`ReplaceAlignment` with the previous alignment.
    """

    alignment: Alignment | None
    label: str = ""

    _decoders: ClassVar[dict[str, Callable[[Any], Any]]] = {
        "alignment": lambda v: Alignment.from_dict(v) if v is not None else None
    }

    def changes(self) -> Changes:
        return Changes(beads=True, statuses=True, annotations=True, alignment=True)

    def describe(self) -> str:
        if self.label:
            return self.label
        return "Align the talk" if self.alignment is not None else "Clear the alignment"

    def apply(self, project: Project) -> Edit:
        old = project.alignment
        new = self.alignment
        if new is not None:
            new = Alignment(
                beads=[b.copy() for b in new.beads], embedder=new.embedder, created=new.created, info=dict(new.info)
            )
        project.alignment = new
        return ReplaceAlignment(old, label=f"Undo: {self.describe()}")


def _copy_alignment(alignment: Alignment | None) -> Alignment | None:
    if alignment is None:
        return None
    return Alignment(beads=[b.copy() for b in alignment.beads], embedder=alignment.embedder, created=alignment.created,
                     info=dict(alignment.info))


@dataclass(frozen=True)
class ReplaceTranscript(Edit):
    """Install a new transcript of one side together with its alignment (and, when given, the project's metadata).

    The practice booth's full pass over a recording replaces the transcript
    and beads the live view made while the student spoke. The side's
    segments and header (language, file, audio, format) are replaced inside
    the project's own :class:`Document`; everything is checked before
    anything changes. Inverse: :class:`ReplaceTranscript` with what was there.
    """

    side: str
    document: Document
    alignment: Alignment | None
    metadata: dict[str, Any] | None = None
    label: str = ""

    preserves_text: ClassVar[bool] = False
    _decoders: ClassVar[dict[str, Callable[[Any], Any]]] = {
        "document": Document.from_dict,
        "alignment": lambda v: Alignment.from_dict(v) if v is not None else None,
    }

    def changes(self) -> Changes:
        return Changes(reshaped=(self.side,), beads=True, statuses=True, annotations=True, alignment=True)

    def describe(self) -> str:
        return self.label or ("Replace the interpretation's transcript" if self.side == "tgt" else "Replace the source's transcript")

    def to_dict(self) -> dict[str, Any]:
        return {"type": type(self).__name__, "side": self.side, "document": self.document.to_dict(),
                "alignment": self.alignment.to_dict() if self.alignment is not None else None,
                "metadata": dict(self.metadata) if self.metadata is not None else None, "label": self.label}

    def apply(self, project: Project) -> Edit:
        check_side(self.side)
        if self.side not in ("src", "tgt"):
            raise EditError(f"only the source or the interpretation can be replaced, not {self.side!r}")
        new = self.document
        if self.alignment is not None:
            source = new if self.side == "src" else project.source
            target = new if self.side == "tgt" else project.target
            self.alignment.validate(source, target)
        doc = project.document(self.side)
        old = Document(language=doc.language, segments=list(doc.segments), path=doc.path, audio_path=doc.audio_path,
                       format=doc.format, encoding=doc.encoding)
        old_alignment = project.alignment
        old_metadata = dict(project.metadata) if self.metadata is not None else None
        doc.segments[:] = list(new.segments)
        doc.language, doc.path, doc.audio_path, doc.format, doc.encoding = new.language, new.path, new.audio_path, new.format, new.encoding
        project.alignment = _copy_alignment(self.alignment)
        if self.metadata is not None:
            project.metadata = dict(self.metadata)
        return ReplaceTranscript(self.side, old, old_alignment, old_metadata, label=f"Undo: {self.describe()}")


@dataclass(frozen=True)
class Batch(Edit):
    """Several edits applied as one undoable step. Inverse: the inverses in reverse order."""

    edits: tuple[Edit, ...]
    label: str = ""

    # The edits may be of any type: sialign.core.edits.edit_from_dict decodes them through its registry.
    _edit_fields: ClassVar[frozenset[str]] = frozenset({"edits"})

    def __post_init__(self) -> None:
        object.__setattr__(self, "edits", tuple(self.edits))

    @property
    def preserves_text(self) -> bool:  # type: ignore[override]
        return all(e.preserves_text for e in self.edits)

    def changes(self) -> Changes:
        result = Changes()
        for edit in self.edits:
            result = result | edit.changes()
        return result

    def describe(self) -> str:
        if self.label:
            return self.label
        if len(self.edits) == 1:
            return self.edits[0].describe()
        return f"{count_noun(len(self.edits), 'edit')}"

    def apply(self, project: Project) -> Edit:
        inverses: list[Edit] = []
        try:
            for edit in self.edits:
                inverses.append(edit.apply(project))
        except BaseException:
            # Leave the project as it was even when Batch.apply is called
            # directly rather than through apply_edit.
            for inverse in reversed(inverses):
                inverse.apply(project)
            raise
        label = f"Undo: {self.describe()}"
        return Batch(tuple(reversed(inverses)), label=label)
