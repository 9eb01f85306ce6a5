"""Edits of segments: split, merge, unmerge, move to the neighbouring bead, edit text, set times."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from sialign.core.bead_edits import ReplaceBeads
from sialign.core.changes import Changes
from sialign.core.edit_base import (
    SIDE_NAME,
    Edit,
    bead_index_of,
    beads_of,
    check_side,
    replace_bead,
    require_alignment,
    segment_name,
    segment_number,
    segment_or_none,
    segment_position,
    side_ids,
    with_side_ids,
)
from sialign.core.errors import EditError
from sialign.core.model import Bead, Document, Project, Segment


def _document(project: Project, side: str) -> Document | None:
    """The document of ``side``, or None for a side name the edit will refuse."""
    return project.document(side) if side in ("src", "tgt") else None


@dataclass(frozen=True)
class SplitSegment(Edit):
    """Split a segment in two at a character offset.

    Whitespace at the cut moves into the right part's ``gap``, so the
    document's full text is unchanged. Times split at ``at_time`` when given,
    else in proportion to the characters on each side of the cut. The right
    part gets a fresh id and stays in the same bead (and stays trimmed if the
    segment was). The bead loses its cost and confidence: they were measured
    on its old shape (a 1-4 bead is scored apart from a 2-4 one), and the
    next alignment run scores it again. Splitting a source segment of a project with a reference
    translation inserts an empty reference line after the segment's own, so
    the reference keeps one line per source segment.

    Inverse: :class:`MergeSegments` on the left part, bringing back the
    bead's cost and confidence.
    """

    side: str
    seg_id: int
    offset: int
    at_time: float | None = None

    def changes(self) -> Changes:
        return Changes(text=((self.side, self.seg_id),), reshaped=(self.side,), beads=True)

    def describe(self) -> str:
        return f"Split {segment_name(self.side, self.seg_id)}"

    def describe_in(self, project: Project) -> str:
        return f"Split {segment_name(self.side, self.seg_id, _document(project, self.side))}"

    def apply(self, project: Project) -> Edit:
        check_side(self.side)
        doc = project.document(self.side)
        pos = segment_position(doc, self.side, self.seg_id)
        seg = doc.segments[pos]
        name = segment_name(self.side, self.seg_id, doc)
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
            bi = bead_index_of(project.alignment, self.side, self.seg_id)
            bead = beads[bi]
            ids = list(side_ids(bead, self.side))
            ids.insert(ids.index(self.seg_id) + 1, new_id)
            trimmed = list(bead.trimmed)
            if self.side == "tgt" and self.seg_id in trimmed:
                trimmed.insert(trimmed.index(self.seg_id) + 1, new_id)
            beads[bi] = with_side_ids(bead, self.side, tuple(ids), trimmed=tuple(trimmed), cost=None, confidence=None)
            return MergeSegments(self.side, self.seg_id, scores=(bead.cost, bead.confidence))
        return MergeSegments(self.side, self.seg_id)


@dataclass(frozen=True)
class MergeSegments(Edit):
    """Merge a segment with the next one in document order.

    Text becomes ``a.text + b.gap + b.text`` (lossless), times
    ``(a.start, b.end)``, id/line/gap those of ``a``. When the two lie in
    different beads the merged segment stays in ``a``'s bead; a bead left
    empty on both sides is removed. Every bead whose segments changed loses
    its cost and confidence (measured on other segments), except that
    ``scores`` (the undo of a :class:`SplitSegment`) gives the bead back the
    ``(cost, confidence)`` it had before the split. Merging source segments
    also merges their reference translation lines.

    Inverse: :class:`UnmergeSegments`, which restores both segments and the
    beads exactly.
    """

    side: str
    seg_id: int
    scores: tuple[float | None, float | None] | None = None

    _decoders: ClassVar[dict[str, Callable[[Any], Any]]] = {"scores": lambda v: None if v is None else (v[0], v[1])}

    def changes(self) -> Changes:
        return Changes(text=((self.side, self.seg_id),), reshaped=(self.side,), beads=True)

    def describe(self) -> str:
        return f"Merge {segment_name(self.side, self.seg_id)} with the next"

    def describe_in(self, project: Project) -> str:
        return f"Merge {segment_name(self.side, self.seg_id, _document(project, self.side))} with the next"

    def apply(self, project: Project) -> Edit:
        check_side(self.side)
        doc = project.document(self.side)
        pos = segment_position(doc, self.side, self.seg_id)
        if pos + 1 >= len(doc.segments):
            raise EditError(f"{segment_name(self.side, self.seg_id, doc)} is the last one; there is nothing after it to merge with")
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
            ia = bead_index_of(project.alignment, self.side, a.id)
            ib = bead_index_of(project.alignment, self.side, b.id)
            bead_start = ia
            old_beads = beads[ia : ib + 1]
            bead_b = beads[ib]
            ids_b = tuple(i for i in side_ids(bead_b, self.side) if i != b.id)
            # The bead's shape changed (and across beads, b's bead lost content
            # and a's gained some), so no cost holds, unless this undoes a split.
            cost, confidence = self.scores if self.scores is not None and ia == ib else (None, None)
            new_b = with_side_ids(bead_b, self.side, ids_b, cost=cost, confidence=confidence)
            if ia == ib:
                new_beads = [new_b]
            else:
                new_beads = [replace_bead(beads[ia], cost=None, confidence=None), *beads[ia + 1 : ib]]
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
        "ref_left": segment_or_none,
        "ref_right": segment_or_none,
        "beads": beads_of,
    }

    def __post_init__(self) -> None:
        object.__setattr__(self, "beads", tuple(self.beads))

    def changes(self) -> Changes:
        return Changes(text=((self.side, self.left.id),), reshaped=(self.side,), beads=True)

    def describe(self) -> str:
        return f"Split {SIDE_NAME.get(self.side, self.side)} segments {self.left.id + 1} and {self.right.id + 1} apart again"

    def describe_in(self, project: Project) -> str:
        number = segment_number(_document(project, self.side), self.left.id)
        return f"Split {SIDE_NAME.get(self.side, self.side)} segments {number} and {number + 1} apart again"

    def apply(self, project: Project) -> Edit:
        check_side(self.side)
        doc = project.document(self.side)
        pos = segment_position(doc, self.side, self.left.id)
        current = doc.segments[pos]
        if current.text != self.left.text + self.right.gap + self.right.text or self.right.id in set(doc.ids()):
            raise EditError(
                f"{segment_name(self.side, self.left.id, doc)} changed since it was merged; cannot split it back"
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
        return f"Move {segment_name(self.side, self.seg_id)} to the {where} bead"

    def describe_in(self, project: Project) -> str:
        where = "previous" if self.direction < 0 else "next"
        return f"Move {segment_name(self.side, self.seg_id, _document(project, self.side))} to the {where} bead"

    def apply(self, project: Project) -> Edit:
        check_side(self.side)
        if self.direction not in (-1, 1):
            raise EditError(f"direction must be -1 (previous bead) or +1 (next bead), not {self.direction}")
        alignment = require_alignment(project)
        beads = alignment.beads
        name = segment_name(self.side, self.seg_id, project.document(self.side))
        bi = bead_index_of(alignment, self.side, self.seg_id)
        bead = beads[bi]
        ids = side_ids(bead, self.side)
        if self.direction < 0:
            if ids[0] != self.seg_id:
                raise EditError(f"only the first {SIDE_NAME[self.side]} segment of a bead can move to the previous bead; {name} is not first in bead {bi + 1}")
            if bi == 0:
                raise EditError(f"{name} is in the first bead; there is no previous bead")
            nj = bi - 1
            neighbour = beads[nj]
            new_neighbour = with_side_ids(neighbour, self.side, side_ids(neighbour, self.side) + (self.seg_id,), cost=None, confidence=None)
            new_bead = with_side_ids(bead, self.side, ids[1:], cost=None, confidence=None)
            lo, replacement = nj, [new_neighbour, new_bead]
        else:
            if ids[-1] != self.seg_id:
                raise EditError(f"only the last {SIDE_NAME[self.side]} segment of a bead can move to the next bead; {name} is not last in bead {bi + 1}")
            if bi == len(beads) - 1:
                raise EditError(f"{name} is in the last bead; there is no next bead")
            nj = bi + 1
            neighbour = beads[nj]
            new_neighbour = with_side_ids(neighbour, self.side, (self.seg_id,) + side_ids(neighbour, self.side), cost=None, confidence=None)
            new_bead = with_side_ids(bead, self.side, ids[:-1], cost=None, confidence=None)
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
        return f"Edit the text of {segment_name(self.side, self.seg_id)}"

    def describe_in(self, project: Project) -> str:
        return f"Edit the text of {segment_name(self.side, self.seg_id, _document(project, self.side))}"

    def apply(self, project: Project) -> Edit:
        check_side(self.side)
        doc = project.document(self.side)
        pos = segment_position(doc, self.side, self.seg_id)
        if not self.text.strip():
            raise EditError(
                f"{segment_name(self.side, self.seg_id, doc)} cannot be empty; merge it into a neighbour instead"
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
        return f"Set the times of {segment_name(self.side, self.seg_id)}"

    def describe_in(self, project: Project) -> str:
        return f"Set the times of {segment_name(self.side, self.seg_id, _document(project, self.side))}"

    def apply(self, project: Project) -> Edit:
        check_side(self.side)
        doc = project.document(self.side)
        pos = segment_position(doc, self.side, self.seg_id)
        name = segment_name(self.side, self.seg_id, doc)
        for label, value in (("start", self.start), ("end", self.end)):
            if value is not None and not value >= 0:
                raise EditError(f"the {label} time of {name} must be 0 s or later, not {value}")
        if self.start is not None and self.end is not None and self.start > self.end:
            raise EditError(f"{name} cannot end ({self.end:.3f} s) before it starts ({self.start:.3f} s)")
        seg = doc.segments[pos]
        doc.segments[pos] = dataclasses.replace(seg, start=self.start, end=self.end)
        return SetSegmentTimes(self.side, self.seg_id, seg.start, seg.end)


def _times(v: Any) -> tuple[tuple[int, float | None, float | None], ...]:
    return tuple((int(i), None if a is None else float(a), None if b is None else float(b)) for i, a, b in v)


@dataclass(frozen=True)
class SetTimes(Edit):
    """Set the start and end of several segments of one side: ``times`` holds (segment id, start, end).

    Inverse: :class:`SetTimes` with the previous times.
    """

    side: str
    times: tuple[tuple[int, float | None, float | None], ...]
    label: str = ""

    _decoders: ClassVar[dict[str, Callable[[Any], Any]]] = {"times": _times}

    def __post_init__(self) -> None:
        object.__setattr__(self, "times", _times(self.times))

    def changes(self) -> Changes:
        return Changes(times=tuple((self.side, seg_id) for seg_id, _, _ in self.times))

    def describe(self) -> str:
        return self.label or f"Set the times of {len(self.times)} {SIDE_NAME.get(self.side, self.side)} segments"

    def apply(self, project: Project) -> Edit:
        check_side(self.side)
        doc = project.document(self.side)
        positions = [segment_position(doc, self.side, seg_id) for seg_id, _, _ in self.times]
        for (seg_id, start, end) in self.times:
            name = segment_name(self.side, seg_id, doc)
            if (start is not None and not start >= 0) or (end is not None and not end >= 0):
                raise EditError(f"the times of {name} must be 0 s or later")
            if start is not None and end is not None and start > end:
                raise EditError(f"{name} cannot end ({end:.3f} s) before it starts ({start:.3f} s)")
        old = []
        for pos, (_, start, end) in zip(positions, self.times):
            seg = doc.segments[pos]
            old.append((seg.id, seg.start, seg.end))
            doc.segments[pos] = dataclasses.replace(seg, start=start, end=end)
        return SetTimes(self.side, tuple(old), label=f"Undo: {self.describe()}")


@dataclass(frozen=True)
class ShiftTimes(Edit):
    """Move every timed segment of one side by ``offset`` seconds; starts that would fall before 0 s become 0 s.

    A shift that would put a whole segment before 0 s is refused (its span would be lost).

    Inverse: :class:`SetTimes` with the previous times (exact, clamped ones included).
    """

    side: str
    offset: float

    def changes(self) -> Changes:
        # Which segments move is known only against a project: say everything
        # may have changed. An app that wants the precise record applies
        # :meth:`as_set_times` instead.
        return Changes.everything()

    def describe(self) -> str:
        return f"Shift the {SIDE_NAME.get(self.side, self.side)} times by {self.offset:+.3f} s"

    def clamped(self, project: Project) -> int:
        """How many segments would start before 0 s (and are set to 0 s instead)."""
        if self.side not in ("src", "tgt"):
            return 0
        return sum(1 for s in project.document(self.side).segments if s.start is not None and s.start + self.offset < 0)

    def as_set_times(self, project: Project) -> SetTimes:
        """The same change as a :class:`SetTimes` of ``project``'s segments (one undo step, precise :meth:`changes`)."""
        check_side(self.side)
        doc = project.document(self.side)
        if not math.isfinite(self.offset):
            raise EditError(f"cannot shift times by {self.offset} s")
        timed = [s for s in doc.segments if s.start is not None or s.end is not None]
        if not timed:
            raise EditError(f"the {SIDE_NAME[self.side]} has no times to shift")
        # A segment that would end at or before 0 s would lose its whole span.
        ends = [(s.end, row) for row, s in enumerate(doc.segments, start=1) if s.end is not None and s.end > 0]
        lost = [(end, row) for end, row in ends if end + self.offset <= 0]
        if lost:
            earliest = min(end for end, _ in ends)
            raise EditError(
                f"shifting the {SIDE_NAME[self.side]} times by {self.offset:+.3f} s would put {len(lost)} "
                f"segment{'s' if len(lost) != 1 else ''} (from segment {lost[0][1]}) wholly before 0 s; "
                f"shift earlier by less than {earliest:.3f} s"
            )
        new = tuple(
            (
                s.id,
                None if s.start is None else max(0.0, s.start + self.offset),
                None if s.end is None else max(0.0, s.end + self.offset),
            )
            for s in timed
        )
        return SetTimes(self.side, new, label=self.describe())

    def apply(self, project: Project) -> Edit:
        inverse = self.as_set_times(project).apply(project)
        assert isinstance(inverse, SetTimes)
        return SetTimes(inverse.side, inverse.times, label=f"Undo: {self.describe()}")
