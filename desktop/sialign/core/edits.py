"""Edits of a project, each returning its exact inverse.

Every change a reviewer makes — splitting a segment, moving a chunk to the
neighbouring bead, confirming or dropping beads, re-aligning a stretch — is an
:class:`Edit`. ``edit.apply(project)`` mutates the project and returns the
edit that undoes it; :func:`apply_edit` wraps that with the invariant checks,
rolls the project back when they fail and records the edit in
``project.history`` so a session can be saved and replayed. The GUI's undo
stack only holds these objects (see ``sialign.gui.commands``).

Inverses are exact: applying an edit and then its inverse gives back a
project whose ``to_dict()`` is equal to the original (history aside), with
the same segment ids, so redo after undo recreates the same ids as well.

Edits are copy-on-write: they never mutate a :class:`Segment` or
:class:`Bead` in place but put new objects into the lists. That lets
:func:`apply_edit` roll back by restoring a shallow copy of the lists
(pointer copies, microseconds for 5,000 beads) instead of deep-copying.

Bead numbers in messages and in :meth:`Edit.describe` are 1-based (the row a
reviewer sees); ``index`` arguments are 0-based positions in
``alignment.beads``. Segment ids are shown as they are.
"""

from __future__ import annotations

import abc
import dataclasses
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Sequence

from sialign.core.changes import Changes
from sialign.core.errors import EditError, InvariantError, SialignError
from sialign.core.model import Alignment, Bead, BeadStatus, Document, Project, Segment

SIDES = ("src", "tgt")
_SIDE_NAME = {"src": "source", "tgt": "target"}


# --------------------------------------------------------------------------
# helpers


def _check_side(side: str) -> None:
    if side not in SIDES:
        raise EditError(f"side must be 'src' or 'tgt', not {side!r}")


def _ids(bead: Bead, side: str) -> tuple[int, ...]:
    return bead.src if side == "src" else bead.tgt


def _replace_bead(bead: Bead, **changes: Any) -> Bead:
    """A new bead with ``changes``; flags are copied so the old bead stays untouched."""
    if "flags" not in changes:
        changes["flags"] = [dataclasses.replace(f) for f in bead.flags]
    return dataclasses.replace(bead, **changes)


def _with_ids(bead: Bead, side: str, ids: tuple[int, ...], **changes: Any) -> Bead:
    changes["src" if side == "src" else "tgt"] = ids
    if side == "tgt" and "trimmed" not in changes:
        # A trimmed chunk that left the bead is no longer trimmed there.
        changes["trimmed"] = tuple(i for i in bead.trimmed if i in set(ids))
    return _replace_bead(bead, **changes)


def _position(doc: Document, side: str, seg_id: int) -> int:
    try:
        return doc.index_of(seg_id)
    except KeyError:
        raise EditError(f"the {_SIDE_NAME.get(side, side)} has no segment {seg_id}") from None


def _alignment(project: Project) -> Alignment:
    if project.alignment is None:
        raise EditError("the project has no alignment yet; run Align first")
    return project.alignment


def _bead_index(alignment: Alignment, side: str, seg_id: int) -> int:
    for i, bead in enumerate(alignment.beads):
        if seg_id in _ids(bead, side):
            return i
    raise EditError(f"no bead holds {_SIDE_NAME[side]} segment {seg_id}")


def _check_index(alignment: Alignment, index: int, what: str = "bead") -> None:
    if not 0 <= index < len(alignment.beads):
        raise EditError(f"there is no {what} {index + 1}; the alignment has {len(alignment.beads)} beads")


def _bead_label(indices: Sequence[int]) -> str:
    if len(indices) == 1:
        return f"bead {indices[0] + 1}"
    return f"{len(indices)} beads"


def _encode(value: Any) -> Any:
    """JSON-ready form of an edit field."""
    if isinstance(value, Edit):
        return value.to_dict()
    if isinstance(value, (Segment, Bead, Alignment)):
        return value.to_dict()
    if isinstance(value, BeadStatus):
        return value.value
    if isinstance(value, (list, tuple)):
        return [_encode(v) for v in value]
    return value


# --------------------------------------------------------------------------
# base class


class Edit(abc.ABC):
    """Base of all edits.

    Subclasses are frozen dataclasses. ``preserves_text`` says whether the
    edit must leave every document's :meth:`Document.full_text` unchanged;
    :func:`apply_edit` checks it.
    """

    preserves_text: ClassVar[bool] = True
    # field name -> function turning the JSON value back into the field value
    _decoders: ClassVar[dict[str, Callable[[Any], Any]]] = {}

    @abc.abstractmethod
    def apply(self, project: Project) -> Edit:
        """Mutate ``project`` (copy-on-write) and return the edit that undoes it.

        Raises :class:`EditError` before changing anything when the edit does
        not fit the project. Use :func:`apply_edit`, which also checks the
        invariants and rolls back.
        """

    @abc.abstractmethod
    def describe(self) -> str:
        """Undo-menu text, e.g. ``"Split source segment 12"``."""

    def changes(self) -> Changes:
        """What applying this edit changes, for the views (see :mod:`sialign.core.changes`).

        The default says everything may have changed; subclasses say exactly.
        """
        return Changes.everything()

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": type(self).__name__}
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            d[f.name] = _encode(getattr(self, f.name))
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Edit:
        kwargs = {}
        for f in dataclasses.fields(cls):  # type: ignore[arg-type]
            if f.name in d:
                decode = cls._decoders.get(f.name)
                kwargs[f.name] = decode(d[f.name]) if decode else d[f.name]
        return cls(**kwargs)


def _tuple_of_ints(v: Any) -> tuple[int, ...]:
    return tuple(int(i) for i in v)


def _segment_or_none(v: Any) -> Segment | None:
    return Segment.from_dict(v) if v is not None else None


def _beads(v: Any) -> tuple[Bead, ...]:
    return tuple(b if isinstance(b, Bead) else Bead.from_dict(b) for b in v)


# --------------------------------------------------------------------------
# segment edits


@dataclass(frozen=True)
class SplitSegment(Edit):
    """Split a segment in two at a character offset.

    Whitespace at the cut moves into the right part's ``gap``, so the
    document's full text is unchanged. Times split at ``at_time`` when given,
    else in proportion to the characters on each side of the cut. The right
    part gets a fresh id and stays in the same bead (and stays trimmed if the
    segment was). Splitting a source segment of a project with a reference
    translation inserts an empty reference line after the segment's own, so
    the reference keeps one line per source segment.

    Inverse: :class:`MergeSegments` on the left part.
    """

    side: str
    seg_id: int
    offset: int
    at_time: float | None = None

    def changes(self) -> Changes:
        return Changes(text=((self.side, self.seg_id),), reshaped=(self.side,), beads=True)

    def describe(self) -> str:
        return f"Split {_SIDE_NAME.get(self.side, self.side)} segment {self.seg_id}"

    def apply(self, project: Project) -> Edit:
        _check_side(self.side)
        doc = project.document(self.side)
        pos = _position(doc, self.side, self.seg_id)
        seg = doc.segments[pos]
        name = f"{_SIDE_NAME[self.side]} segment {self.seg_id}"
        if not 0 < self.offset < len(seg.text):
            raise EditError(f"cannot split {name} at character {self.offset}: it must be between 1 and {len(seg.text) - 1}")
        head, tail = seg.text[: self.offset], seg.text[self.offset :]
        left_text, right_text = head.rstrip(), tail.lstrip()
        if not left_text or not right_text:
            raise EditError(f"splitting {name} at character {self.offset} would leave an empty part; cut between words")
        cut_gap = head[len(left_text) :] + tail[: len(tail) - len(right_text)]

        left_end: float | None
        right_start: float | None
        if self.at_time is not None:
            if not seg.has_time:
                raise EditError(f"{name} has no timestamps; split it without a time")
            assert seg.start is not None and seg.end is not None
            if not seg.start <= self.at_time <= seg.end:
                raise EditError(
                    f"cannot split {name} at {self.at_time:.3f} s: it lasts from {seg.start:.3f} to {seg.end:.3f} s"
                )
            left_end = right_start = float(self.at_time)
        elif seg.has_time:
            assert seg.start is not None and seg.end is not None
            # Speech rate is roughly constant within a segment, so characters
            # are the best proxy for time we have without the audio.
            cut = seg.start + (seg.end - seg.start) * (self.offset / len(seg.text))
            left_end = right_start = min(max(cut, seg.start), seg.end)
        else:
            left_end = right_start = None

        new_id = doc.next_id()
        line = seg.line + (head + tail[: len(tail) - len(right_text)]).count("\n") if seg.line is not None else None
        left = dataclasses.replace(seg, text=left_text, end=left_end if seg.has_time else None)
        right = Segment(
            id=new_id,
            text=right_text,
            start=right_start if seg.has_time else None,
            end=seg.end,
            line=line,
            gap=cut_gap,
        )
        doc.segments[pos] = left
        doc.segments.insert(pos + 1, right)

        if self.side == "src" and project.reference is not None and pos < len(project.reference.segments):
            ref = project.reference
            ref.segments.insert(pos + 1, Segment(id=ref.next_id(), text=""))

        if project.alignment is not None:
            beads = project.alignment.beads
            bi = _bead_index(project.alignment, self.side, self.seg_id)
            bead = beads[bi]
            ids = list(_ids(bead, self.side))
            ids.insert(ids.index(self.seg_id) + 1, new_id)
            trimmed = list(bead.trimmed)
            if self.side == "tgt" and self.seg_id in trimmed:
                trimmed.insert(trimmed.index(self.seg_id) + 1, new_id)
            beads[bi] = _with_ids(bead, self.side, tuple(ids), trimmed=tuple(trimmed))
        return MergeSegments(self.side, self.seg_id)


@dataclass(frozen=True)
class MergeSegments(Edit):
    """Merge a segment with the next one in document order.

    Text becomes ``a.text + b.gap + b.text`` (lossless), times
    ``(a.start, b.end)``, id/line/gap those of ``a``. When the two lie in
    different beads the merged segment stays in ``a``'s bead; a bead left
    empty on both sides is removed. Merging source segments also merges their
    reference translation lines.

    Inverse: :class:`UnmergeSegments`, which restores both segments and the
    beads exactly.
    """

    side: str
    seg_id: int

    def changes(self) -> Changes:
        return Changes(text=((self.side, self.seg_id),), reshaped=(self.side,), beads=True)

    def describe(self) -> str:
        return f"Merge {_SIDE_NAME.get(self.side, self.side)} segment {self.seg_id} with the next"

    def apply(self, project: Project) -> Edit:
        _check_side(self.side)
        doc = project.document(self.side)
        pos = _position(doc, self.side, self.seg_id)
        if pos + 1 >= len(doc.segments):
            raise EditError(f"{_SIDE_NAME[self.side]} segment {self.seg_id} is the last one; there is nothing after it to merge with")
        a, b = doc.segments[pos], doc.segments[pos + 1]
        merged = dataclasses.replace(a, text=a.text + b.gap + b.text, start=a.start, end=b.end)

        ref_a = ref_b = None
        ref = project.reference
        if self.side == "src" and ref is not None and pos + 1 < len(ref.segments):
            ref_a, ref_b = ref.segments[pos], ref.segments[pos + 1]

        bead_start = 0
        old_beads: list[Bead] = []
        new_beads: list[Bead] = []
        if project.alignment is not None:
            beads = project.alignment.beads
            ia = _bead_index(project.alignment, self.side, a.id)
            ib = _bead_index(project.alignment, self.side, b.id)
            bead_start = ia
            old_beads = beads[ia : ib + 1]
            bead_b = beads[ib]
            ids_b = tuple(i for i in _ids(bead_b, self.side) if i != b.id)
            changes: dict[str, Any] = {}
            if ia != ib:
                # The merged segment's text now lies in a's bead: b's bead lost
                # content and a's bead gained some, so neither cost holds.
                changes["cost"] = None
            new_b = _with_ids(bead_b, self.side, ids_b, **changes)
            if ia == ib:
                new_beads = [new_b]
            else:
                new_beads = [_replace_bead(beads[ia], cost=None), *beads[ia + 1 : ib]]
                if new_b.src or new_b.tgt:
                    new_beads.append(new_b)

        doc.segments[pos] = merged
        del doc.segments[pos + 1]
        if ref_a is not None and ref_b is not None and ref is not None:
            ref.segments[pos] = dataclasses.replace(ref_a, text=ref_a.text + ref_b.gap + ref_b.text, end=ref_b.end)
            del ref.segments[pos + 1]
        if project.alignment is not None:
            project.alignment.beads[bead_start : bead_start + len(old_beads)] = new_beads
        return UnmergeSegments(
            side=self.side,
            left=a,
            right=b,
            ref_left=ref_a,
            ref_right=ref_b,
            bead_start=bead_start,
            bead_count=len(new_beads),
            beads=tuple(old_beads),
        )


@dataclass(frozen=True)
class UnmergeSegments(Edit):
    """Undo a :class:`MergeSegments`: put back the two segments and the beads they were in.

    Attributes:
        left / right: the two segments as they were before the merge.
        ref_left / ref_right: their reference translation lines, if merged too.
        bead_start / bead_count: the beads the merge left in place of ``beads``.
        beads: the beads as they were before the merge.
    """

    side: str
    left: Segment
    right: Segment
    ref_left: Segment | None = None
    ref_right: Segment | None = None
    bead_start: int = 0
    bead_count: int = 0
    beads: tuple[Bead, ...] = ()

    _decoders: ClassVar[dict[str, Callable[[Any], Any]]] = {
        "left": Segment.from_dict,
        "right": Segment.from_dict,
        "ref_left": _segment_or_none,
        "ref_right": _segment_or_none,
        "beads": _beads,
    }

    def __post_init__(self) -> None:
        object.__setattr__(self, "beads", tuple(self.beads))

    def changes(self) -> Changes:
        return Changes(text=((self.side, self.left.id),), reshaped=(self.side,), beads=True)

    def describe(self) -> str:
        return f"Split {_SIDE_NAME.get(self.side, self.side)} segments {self.left.id} and {self.right.id} apart again"

    def apply(self, project: Project) -> Edit:
        _check_side(self.side)
        doc = project.document(self.side)
        pos = _position(doc, self.side, self.left.id)
        current = doc.segments[pos]
        if current.text != self.left.text + self.right.gap + self.right.text or self.right.id in set(doc.ids()):
            raise EditError(
                f"{_SIDE_NAME[self.side]} segment {self.left.id} changed since it was merged; cannot split it back"
            )
        alignment = project.alignment
        if self.beads and (alignment is None or self.bead_start + self.bead_count > len(alignment.beads)):
            raise EditError("the beads changed since the merge; cannot split the segment back")
        doc.segments[pos] = dataclasses.replace(self.left)
        doc.segments.insert(pos + 1, dataclasses.replace(self.right))
        if self.ref_left is not None and self.ref_right is not None and project.reference is not None:
            project.reference.segments[pos] = dataclasses.replace(self.ref_left)
            project.reference.segments.insert(pos + 1, dataclasses.replace(self.ref_right))
        if alignment is not None and self.beads:
            alignment.beads[self.bead_start : self.bead_start + self.bead_count] = [b.copy() for b in self.beads]
        return MergeSegments(self.side, self.left.id)


@dataclass(frozen=True)
class MoveSegment(Edit):
    """Move the first (direction -1) or last (+1) segment of a bead's side to the neighbouring bead.

    A bead left empty on both sides is removed. Both beads lose their cost
    (it was measured on other content). Inverse: :class:`ReplaceBeads` with
    the two original beads.
    """

    side: str
    seg_id: int
    direction: int = 1

    def changes(self) -> Changes:
        return Changes(beads=True, annotations=True)  # both beads lose their cost

    def describe(self) -> str:
        where = "previous" if self.direction < 0 else "next"
        return f"Move {_SIDE_NAME.get(self.side, self.side)} segment {self.seg_id} to the {where} bead"

    def apply(self, project: Project) -> Edit:
        _check_side(self.side)
        if self.direction not in (-1, 1):
            raise EditError(f"direction must be -1 (previous bead) or +1 (next bead), not {self.direction}")
        alignment = _alignment(project)
        beads = alignment.beads
        name = f"{_SIDE_NAME[self.side]} segment {self.seg_id}"
        bi = _bead_index(alignment, self.side, self.seg_id)
        bead = beads[bi]
        ids = _ids(bead, self.side)
        if self.direction < 0:
            if ids[0] != self.seg_id:
                raise EditError(f"only the first {_SIDE_NAME[self.side]} segment of a bead can move to the previous bead; {name} is not first in bead {bi + 1}")
            if bi == 0:
                raise EditError(f"{name} is in the first bead; there is no previous bead")
            nj = bi - 1
            neighbour = beads[nj]
            new_neighbour = _with_ids(neighbour, self.side, _ids(neighbour, self.side) + (self.seg_id,), cost=None)
            new_bead = _with_ids(bead, self.side, ids[1:], cost=None)
            lo, replacement = nj, [new_neighbour, new_bead]
        else:
            if ids[-1] != self.seg_id:
                raise EditError(f"only the last {_SIDE_NAME[self.side]} segment of a bead can move to the next bead; {name} is not last in bead {bi + 1}")
            if bi == len(beads) - 1:
                raise EditError(f"{name} is in the last bead; there is no next bead")
            nj = bi + 1
            neighbour = beads[nj]
            new_neighbour = _with_ids(neighbour, self.side, (self.seg_id,) + _ids(neighbour, self.side), cost=None)
            new_bead = _with_ids(bead, self.side, ids[:-1], cost=None)
            lo, replacement = bi, [new_bead, new_neighbour]
        old = beads[lo : lo + 2]
        replacement = [b for b in replacement if b.src or b.tgt]
        beads[lo : lo + 2] = replacement
        return ReplaceBeads(lo, lo + len(replacement), tuple(old), label=f"Move {name} back")


@dataclass(frozen=True)
class EditText(Edit):
    """Replace a segment's text (the one edit that changes a document's full text).

    Inverse: :class:`EditText` with the original text.
    """

    side: str
    seg_id: int
    text: str

    preserves_text: ClassVar[bool] = False

    def changes(self) -> Changes:
        return Changes(text=((self.side, self.seg_id),))

    def describe(self) -> str:
        return f"Edit the text of {_SIDE_NAME.get(self.side, self.side)} segment {self.seg_id}"

    def apply(self, project: Project) -> Edit:
        _check_side(self.side)
        doc = project.document(self.side)
        pos = _position(doc, self.side, self.seg_id)
        if not self.text.strip():
            raise EditError(
                f"{_SIDE_NAME[self.side]} segment {self.seg_id} cannot be empty; merge it into a neighbour instead"
            )
        seg = doc.segments[pos]
        doc.segments[pos] = dataclasses.replace(seg, text=self.text)
        return EditText(self.side, self.seg_id, seg.text)


@dataclass(frozen=True)
class SetSegmentTimes(Edit):
    """Set a segment's start and end in seconds (both None to clear them).

    Inverse: :class:`SetSegmentTimes` with the previous times.
    """

    side: str
    seg_id: int
    start: float | None
    end: float | None

    def changes(self) -> Changes:
        return Changes(times=((self.side, self.seg_id),))

    def describe(self) -> str:
        return f"Set the times of {_SIDE_NAME.get(self.side, self.side)} segment {self.seg_id}"

    def apply(self, project: Project) -> Edit:
        _check_side(self.side)
        doc = project.document(self.side)
        pos = _position(doc, self.side, self.seg_id)
        name = f"{_SIDE_NAME[self.side]} segment {self.seg_id}"
        for label, value in (("start", self.start), ("end", self.end)):
            if value is not None and not value >= 0:
                raise EditError(f"the {label} time of {name} must be 0 s or later, not {value}")
        if self.start is not None and self.end is not None and self.start > self.end:
            raise EditError(f"{name} cannot end ({self.end:.3f} s) before it starts ({self.start:.3f} s)")
        seg = doc.segments[pos]
        doc.segments[pos] = dataclasses.replace(seg, start=self.start, end=self.end)
        return SetSegmentTimes(self.side, self.seg_id, seg.start, seg.end)


# --------------------------------------------------------------------------
# bead edits


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

    def apply(self, project: Project) -> Edit:
        alignment = _alignment(project)
        beads = alignment.beads
        if not 0 <= self.index < len(beads) - 1:
            raise EditError(f"bead {self.index + 1} has no next bead to merge with; the alignment has {len(beads)} beads")
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
        alignment = _alignment(project)
        _check_index(alignment, self.index)
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
        first = _replace_bead(
            bead, src=first_src, tgt=first_tgt, cost=None, flags=[], trimmed=tuple(i for i in bead.trimmed if i in first_tgt)
        )
        second = _replace_bead(
            bead, src=second_src, tgt=second_tgt, cost=None, flags=[], trimmed=tuple(i for i in bead.trimmed if i in second_tgt)
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

    _decoders: ClassVar[dict[str, Callable[[Any], Any]]] = {"indices": _tuple_of_ints, "status": BeadStatus}

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
        return _STATUS_TEXT[self.status].format(_bead_label(self.indices))

    def apply(self, project: Project) -> Edit:
        alignment = _alignment(project)
        if not self.indices:
            raise EditError("no bead selected")
        for i in self.indices:
            _check_index(alignment, i)
        groups: dict[tuple[BeadStatus, str], list[int]] = {}
        for i in dict.fromkeys(self.indices):
            bead = alignment.beads[i]
            groups.setdefault((bead.status, bead.reason), []).append(i)
            alignment.beads[i] = _replace_bead(bead, status=self.status, reason=self.reason)
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
        alignment = _alignment(project)
        _check_index(alignment, self.index)
        bead = alignment.beads[self.index]
        alignment.beads[self.index] = _replace_bead(bead, good_align=self.good_align, good_mt=self.good_mt, note=self.note)
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
        alignment = _alignment(project)
        _check_index(alignment, self.index)
        bead = alignment.beads[self.index]
        alignment.beads[self.index] = _replace_bead(bead, post_edit=self.text)
        return SetPostEdit(self.index, bead.post_edit)


@dataclass(frozen=True)
class SetTrimmed(Edit):
    """Set which target chunks of a bead are trimmed from its output text.

    Inverse: :class:`SetTrimmed` with the previous set.
    """

    index: int
    trimmed: tuple[int, ...]

    _decoders: ClassVar[dict[str, Callable[[Any], Any]]] = {"trimmed": _tuple_of_ints}

    def __post_init__(self) -> None:
        object.__setattr__(self, "trimmed", tuple(int(i) for i in self.trimmed))

    def changes(self) -> Changes:
        return Changes(annotations=True)

    def describe(self) -> str:
        return f"Trim bead {self.index + 1}" if self.trimmed else f"Untrim bead {self.index + 1}"

    def apply(self, project: Project) -> Edit:
        alignment = _alignment(project)
        _check_index(alignment, self.index)
        bead = alignment.beads[self.index]
        foreign = [i for i in self.trimmed if i not in bead.tgt]
        if foreign:
            raise EditError(f"bead {self.index + 1} holds no target segment {foreign[0]}; only its own chunks can be trimmed")
        alignment.beads[self.index] = _replace_bead(bead, trimmed=self.trimmed)
        return SetTrimmed(self.index, bead.trimmed)


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

    _decoders: ClassVar[dict[str, Callable[[Any], Any]]] = {"beads": _beads}

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
        alignment = _alignment(project)
        n = len(alignment.beads)
        if not 0 <= self.start <= self.stop <= n:
            raise EditError(f"cannot replace beads {self.start + 1}–{self.stop}: the alignment has {n} beads")
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


@dataclass(frozen=True)
class Batch(Edit):
    """Several edits applied as one undoable step. Inverse: the inverses in reverse order."""

    edits: tuple[Edit, ...]
    label: str = ""

    _decoders: ClassVar[dict[str, Callable[[Any], Any]]] = {"edits": lambda v: tuple(edit_from_dict(e) for e in v)}

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
        return f"{len(self.edits)} edits"

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


EDIT_TYPES: dict[str, type[Edit]] = {
    cls.__name__: cls
    for cls in (
        SplitSegment,
        MergeSegments,
        UnmergeSegments,
        MoveSegment,
        EditText,
        SetSegmentTimes,
        MergeBeads,
        SplitBead,
        SetStatus,
        SetLabels,
        SetPostEdit,
        SetTrimmed,
        ReplaceBeads,
        ReplaceAlignment,
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
        return cls.from_dict(d)
    except (KeyError, TypeError, ValueError) as exc:
        raise EditError(f"recorded {d['type']} edit is malformed: {exc}") from exc


# --------------------------------------------------------------------------
# applying with checks


@dataclass
class _Snapshot:
    """Shallow copies of every list an edit may change (edits are copy-on-write)."""

    segments: list[tuple[Document, list[Segment]]] = field(default_factory=list)
    alignment: Alignment | None = None
    beads: list[Bead] | None = None

    @classmethod
    def take(cls, project: Project) -> _Snapshot:
        docs = [project.source, project.target] + ([project.reference] if project.reference is not None else [])
        alignment = project.alignment
        return cls(
            segments=[(d, list(d.segments)) for d in docs],
            alignment=alignment,
            beads=list(alignment.beads) if alignment is not None else None,
        )

    def restore(self, project: Project) -> None:
        for doc, segments in self.segments:
            doc.segments[:] = segments
        project.alignment = self.alignment
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
    "SetLabels",
    "SetPostEdit",
    "SetSegmentTimes",
    "SetStatus",
    "SetTrimmed",
    "SplitBead",
    "SplitSegment",
    "UnmergeSegments",
    "apply_edit",
    "apply_edit_changes",
    "check_invariants",
    "edit_from_dict",
]
