"""Review actions: confirm, drop, merge, split, move and label beads and segments.

The controller turns a reviewer's command into one core edit applied through
the session; the core refuses what breaks its rules. It sees the window only
through callables: the selected beads, the segment under the bead panel's
text cursor, a question for the split counts, a notice for the status bar,
and :class:`~sialign.gui.dialogs.review_questions.ReviewQuestions` for a segment's
text or times, a time shift and a find/replace.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from sialign.core.edit_base import Edit
from sialign.core.model import REVIEWER_DROP_REASON, BeadStatus
from sialign.gui.dialogs.review_questions import ReviewQuestions

if TYPE_CHECKING:
    from sialign.core.bead_edits import MergeBeads
    from sialign.gui.bead.bead_inspector import SegmentCursor
    from sialign.gui.common.session import ProjectSession


class ReviewActions:
    """The review commands of the main window's Review menu and shortcuts.

    Args:
        session: the open project.
        selected_beads: bead indices the reviewer selected (the current bead when none).
        current_segment: the segment under the bead panel's text cursor, or None.
        ask_split: asks how many source and target segments the first half of
            bead ``index`` keeps; None when the reviewer cancels.
    """

    def __init__(
        self,
        session: ProjectSession,
        selected_beads: Callable[[], list[int]],
        current_segment: Callable[[], SegmentCursor | None],
        ask_split: Callable[[int], tuple[int, int] | None],
        notify: Callable[[str], None] | None = None,
        questions: ReviewQuestions | None = None,
    ) -> None:
        self._session = session
        self._selected_beads = selected_beads
        self._current_segment = current_segment
        self._ask_split = ask_split
        # Tells the reviewer what an edit did beyond the obvious (the status bar).
        self._notify = notify or (lambda _message: None)
        self.questions = questions or ReviewQuestions()
        # Confirm moves on to the next unconfirmed bead (Review → Confirm moves to next unconfirmed).
        self.confirm_advances = False
        self.next_unconfirmed: Callable[[], None] = lambda: None

    def _apply(self, edit: Edit) -> bool:
        return self._session.apply(edit)

    def _refuse(self, message: str) -> None:
        self._session.edit_failed.emit(message)

    def confirm(self) -> None:
        from sialign.core.edits import SetStatus

        indices = self._selected_beads()
        if indices and self._apply(SetStatus(tuple(indices), BeadStatus.CONFIRMED)) and self.confirm_advances:
            self.next_unconfirmed()

    def confirm_up_to_here(self) -> None:
        """Confirm every auto bead from the first to the selected one, as one step; dropped beads stay dropped."""
        from sialign.core.edits import Batch, SetStatus

        index = self._session.selected_bead
        alignment = self._session.project.alignment
        if index < 0 or alignment is None:
            return
        indices = tuple(i for i in range(index + 1) if alignment.beads[i].status is BeadStatus.AUTO)
        if not indices:
            self._refuse(f"beads 1–{index + 1} are all confirmed or dropped already")
            return
        label = f"Confirm all beads up to bead {index + 1}"
        if self._apply(Batch((SetStatus(indices, BeadStatus.CONFIRMED),), label=label)):
            self._notify(f"Confirmed {len(indices)} bead{'s' if len(indices) != 1 else ''} up to bead {index + 1}.")

    def drop_or_restore(self) -> None:
        from sialign.core.edits import SetStatus

        indices = self._selected_beads()
        alignment = self._session.project.alignment
        if not indices or alignment is None:
            return
        if all(alignment.beads[i].status is BeadStatus.DROPPED for i in indices):
            self._apply(SetStatus(tuple(indices), BeadStatus.AUTO))
        else:
            self._apply(SetStatus(tuple(indices), BeadStatus.DROPPED, REVIEWER_DROP_REASON))

    def reset_status(self) -> None:
        from sialign.core.edits import SetStatus

        indices = self._selected_beads()
        if indices:
            self._apply(SetStatus(tuple(indices), BeadStatus.AUTO))

    def merge_with_next_bead(self) -> None:
        from sialign.core.edits import MergeBeads

        index = self._session.selected_bead
        if index >= 0:
            self._merge(MergeBeads(index))

    def merge_with_previous_bead(self) -> None:
        from sialign.core.edits import MergeBeads

        index = self._session.selected_bead
        if index >= 1 and self._merge(MergeBeads(index - 1)):
            self._session.select_bead(index - 1)
        elif index == 0:
            self._refuse("the first bead has no previous bead to merge with")

    def _merge(self, edit: MergeBeads) -> bool:
        """Merge two beads; says so when their different statuses made the merged bead auto."""
        notice = edit.status_notice(self._session.project)
        done = self._apply(edit)
        if done and notice:
            self._notify(notice)
        return done

    def split_bead(self) -> None:
        from sialign.core.edits import SplitBead

        index = self._session.selected_bead
        alignment = self._session.project.alignment
        if index < 0 or alignment is None:
            return
        bead = alignment.beads[index]
        if len(bead.src) + len(bead.tgt) < 2:
            self._refuse(f"bead {index + 1} holds one segment; there is nothing to split")
            return
        counts = self._ask_split(index)
        if counts is not None:
            self._apply(SplitBead(index, *counts))

    def split_segment(self) -> None:
        from sialign.core.edits import SplitSegment

        where = self._current_segment()
        if where is None:
            self._refuse("put the text cursor in a segment of the bead panel, where it should be cut")
            return
        self._apply(SplitSegment(where.side, where.seg_id, where.offset))

    def merge_segment_next(self) -> None:
        self._merge_segment(+1)

    def merge_segment_previous(self) -> None:
        self._merge_segment(-1)

    def _merge_segment(self, direction: int) -> None:
        """Merge the segment under the text cursor with the next (+1) or previous (-1) segment of its document."""
        from sialign.core.edits import MergeSegments

        where = self._current_segment()
        if where is None:
            self._refuse("put the text cursor in a segment of the bead panel")
            return
        doc = self._session.project.document(where.side)
        pos = doc.index_of(where.seg_id)
        if direction > 0 and pos == len(doc) - 1:
            self._refuse(f"segment {pos + 1} is the last one; there is no next segment")
            return
        if direction < 0 and pos == 0:
            self._refuse("segment 1 is the first one; there is no previous segment")
            return
        self._apply(MergeSegments(where.side, where.seg_id if direction > 0 else doc.segments[pos - 1].id))

    def _edit_side(self) -> str:
        where = self._current_segment()
        return where.side if where is not None else "tgt"

    def move_first_to_previous(self) -> None:
        self._move_boundary(-1)

    def move_last_to_next(self) -> None:
        self._move_boundary(+1)

    def _move_boundary(self, direction: int) -> None:
        from sialign.core.edits import MoveSegment

        index = self._session.selected_bead
        alignment = self._session.project.alignment
        if index < 0 or alignment is None:
            return
        side = self._edit_side()
        bead = alignment.beads[index]
        ids = bead.src if side == "src" else bead.tgt
        if not ids:
            name = "source" if side == "src" else "target"
            self._refuse(f"bead {index + 1} has no {name} segment to move")
            return
        n_before = len(alignment.beads)
        seg_id = ids[0] if direction < 0 else ids[-1]
        if self._apply(MoveSegment(side, seg_id, direction)):
            # Keep the selection on what is left of the bead (it may have been
            # removed when its last segment moved away).
            if len(alignment.beads) < n_before and direction < 0:
                self._session.select_bead(index - 1)
            else:
                self._session.select_bead(min(index, len(alignment.beads) - 1))

    def cycle_label(self, name: str) -> None:
        from sialign.core.edits import SetLabels

        index = self._session.selected_bead
        alignment = self._session.project.alignment
        if index < 0 or alignment is None:
            return
        bead = alignment.beads[index]
        current = getattr(bead, name)
        new = True if current is None else (False if current else None)
        good_align = new if name == "good_align" else bead.good_align
        good_mt = new if name == "good_mt" else bead.good_mt
        self._apply(SetLabels(index, good_align, good_mt, bead.note))

    # -- text and times --------------------------------------------------------
    def _cursor_segment(self) -> tuple[SegmentCursor, str] | None:
        """The segment under the bead panel's cursor and its name ("target segment 5"), or None (refused)."""
        where = self._current_segment()
        if where is None:
            self._refuse("put the text cursor in a segment of the bead panel")
            return None
        doc = self._session.project.document(where.side)
        name = "source" if where.side == "src" else "target"
        return where, f"{name} segment {doc.index_of(where.seg_id) + 1}"

    def edit_segment_text(self) -> None:
        """Correct the transcript text of the segment under the cursor (undoable)."""
        from sialign.core.edits import EditText

        found = self._cursor_segment()
        if found is None:
            return
        where, name = found
        old = self._session.project.document(where.side).get(where.seg_id).text
        new = self.questions.segment_text(f"Edit the text of {name}", old)
        if new is not None and new != old:
            self._apply(EditText(where.side, where.seg_id, new))

    def edit_bead_text(self, index: int, side: str) -> None:
        """Correct the text of bead ``index``'s one segment on ``side`` (the table's double-click)."""
        from sialign.core.edits import EditText

        alignment = self._session.project.alignment
        if alignment is None or not 0 <= index < len(alignment.beads):
            return
        ids = alignment.beads[index].src if side == "src" else alignment.beads[index].tgt
        name = "source" if side == "src" else "target"
        if len(ids) != 1:
            held = f"{len(ids)} {name} segments" if ids else f"no {name} segment"
            self._refuse(f"bead {index + 1} holds {held}; put the cursor in one in the bead panel and press F2")
            return
        doc = self._session.project.document(side)
        old = doc.get(ids[0]).text
        new = self.questions.segment_text(f"Edit the text of {name} segment {doc.index_of(ids[0]) + 1}", old)
        if new is not None and new != old:
            self._apply(EditText(side, ids[0], new))

    def edit_segment_times(self) -> None:
        """Type the start and end of the segment under the cursor (0 ≤ start < end; undoable)."""
        from sialign.core.edits import SetSegmentTimes
        from sialign.gui.dialogs.review_questions import times_problem

        found = self._cursor_segment()
        if found is None:
            return
        where, name = found
        seg = self._session.project.document(where.side).get(where.seg_id)
        answer = self.questions.segment_times(f"Times of {name}", seg.start, seg.end)
        if answer is None or answer == (seg.start, seg.end):
            return
        problem = times_problem(*answer)
        if problem:
            self._refuse(f"{name}: {problem[0].lower()}{problem[1:]}")
            return
        self._apply(SetSegmentTimes(where.side, where.seg_id, *answer))

    def shift_times(self) -> None:
        """Move every time of one side by an offset, as one step; says how many were clamped at 0 s."""
        from sialign.core.edits import ShiftTimes
        from sialign.core.errors import EditError

        answer = self.questions.shift()
        if answer is None:
            return
        side, offset = answer
        if offset == 0:
            return
        shift = ShiftTimes(side, offset)
        project = self._session.project
        try:
            edit = shift.as_set_times(project)
        except EditError as exc:
            self._refuse(str(exc))
            return
        clamped = shift.clamped(project)
        if self._apply(edit) and clamped:
            self._notify(f"{clamped} segment{'s' if clamped != 1 else ''} would have started before 0 s; "
                         "their times were set to 0 s.")

    # -- post-edits ------------------------------------------------------------
    def _post_edit_count(self, find: str, replace: str, regex: bool) -> int | str:
        import re

        from sialign.gui.dialogs.review_questions import post_edit_replacements

        alignment = self._session.project.alignment
        try:
            return len(post_edit_replacements(alignment.beads if alignment else [], find, replace, regex=regex))
        except re.error as exc:
            return f"Not a valid regular expression: {exc}"

    def find_replace_post_edits(self) -> None:
        """Replace text in every post-edit, as one undoable step (the dialog previews how many change)."""
        import re

        from sialign.core.edits import Batch, SetPostEdit
        from sialign.gui.dialogs.review_questions import post_edit_replacements

        alignment = self._session.project.alignment
        if alignment is None:
            return
        answer = self.questions.find_replace(self._post_edit_count)
        if answer is None:
            return
        find, replace, regex = answer
        try:
            changes = post_edit_replacements(alignment.beads, find, replace, regex=regex)
        except re.error as exc:
            self._refuse(f"not a valid regular expression: {exc}")
            return
        if not changes:
            self._refuse(f"no post-edit contains “{find}”")
            return
        label = f"Replace “{find}” in {len(changes)} post-edit{'s' if len(changes) != 1 else ''}"
        if self._apply(Batch(tuple(SetPostEdit(i, text) for i, text in changes), label=label)):
            self._notify(f"{label[0].upper()}{label[1:]}.")
