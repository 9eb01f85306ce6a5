"""The open project as the GUI sees it: one project, one undo stack, one selection.

Views never edit the project directly: they call :meth:`ProjectSession.apply`
with a core edit (``sialign.core.edits``); the session applies it, pushes an
undo command and emits signals so the matrix, the table and the waveforms
stay in step. Selection lives here too, so every view shows the same bead.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import shiboken6
from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAction, QUndoStack

from sialign.core.changes import Changes
from sialign.core.edit_base import Edit
from sialign.core.errors import SialignError
from sialign.core.model import Project
from sialign.core.similarity import SimilarityGrid
from sialign.gui.common.error_words import error_text

log = logging.getLogger(__name__)

# How many undo steps a saved project keeps (a re-alignment's step holds a
# copy of the whole previous alignment).
SAVED_UNDO_STEPS = 100


def changes_of(edit_or_changes: Edit | Changes) -> Changes:
    """The :class:`Changes` record of an edit (or the record itself, as ``edited`` emits it)."""
    if isinstance(edit_or_changes, Changes):
        return edit_or_changes
    return edit_or_changes.changes()


def touched_segments(edit_or_changes: Edit | Changes) -> list[tuple[str, int]]:
    """(side, seg_id) of segments whose text or times changed in place (see :meth:`Changes.touched_segments`).

    Other changes show up in the beads themselves (the table diffs them).
    """
    return changes_of(edit_or_changes).touched_segments()


class ProjectSession(QObject):
    """Holds the open :class:`Project`, its undo stack and the selected bead.

    Signals:
        project_replaced: a different project was opened or created.
        edited(object): an edit (or its inverse) was applied; the argument is
            its :class:`~sialign.core.changes.Changes` record, so views update
            exactly what changed.
        alignment_replaced: the whole alignment changed (new run, undo of one).
        selection_changed(int): the selected bead index (-1 for none).
        modified_changed(bool): the project differs from the saved file.
        edit_failed(str): an edit was refused; the message says why.
        similarity_changed: the matrix's similarity grid was computed again
            (on opening a project; a new run announces itself with
            ``alignment_replaced``).
        step_applied(object): an undo step's core edit ran — a dict ``op``
            (do, undo, redo), ``label``, ``forward``, ``inverse`` (the edits'
            ``to_dict()``), as the edit journal records it.
    """

    project_replaced = Signal()
    edited = Signal(object)
    alignment_replaced = Signal()
    selection_changed = Signal(int)
    modified_changed = Signal(bool)
    edit_failed = Signal(str)
    similarity_changed = Signal()
    step_applied = Signal(object)

    def __init__(self, project: Project | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._on_clean_changed)
        self._project = project if project is not None else Project()
        self._selected = -1
        # A segment of the selected bead: after an edit or a re-alignment the
        # selection follows the bead that holds it, not the row number.
        self._anchor: tuple[str, int] | None = None
        # Similarity of the last alignment run, keyed by segment ids so that it
        # survives splits and merges (new segments show as blank cells).
        self.similarity: SimilarityGrid | None = None
        # Changes outside the undo stack (filter thresholds) that still need saving.
        self._dirty = False
        # While a worker aligns a snapshot, edits would be lost when its result
        # lands; the reason is shown to the user instead.
        self.locked_reason = ""
        # Views holding typed-but-unapplied input (a note, a post-edit) register
        # a callable that applies it; see commit_pending.
        self._pending_committers: list[Callable[[], None]] = []
        self._committing = False
        # A view holds typed input that differs from the project (shown as modified).
        self._typing = False

    # -- project -----------------------------------------------------------
    @property
    def project(self) -> Project:
        return self._project

    def set_project(self, project: Project, *, similarity: SimilarityGrid | None = None, modified: bool = False) -> None:
        """Replace the open project; its saved undo steps (``project.undo``) become the undo history.

        ``modified`` marks a project that does not match any saved file yet
        (a new talk, a recovered autosave).
        """
        self._project = project
        self.similarity = similarity
        self.undo_stack.clear()
        self._restore_undo(project)
        self.undo_stack.setClean()
        self._selected = -1
        self._anchor = None
        self._dirty = modified
        self._typing = False
        self.project_replaced.emit()
        self.selection_changed.emit(-1)
        self.modified_changed.emit(self.is_modified)

    def set_similarity(self, similarity: SimilarityGrid | None, *, notify: bool = True) -> None:
        """Keep the similarity matrix of the latest run (shown by the matrix view).

        ``notify=False`` when an ``alignment_replaced`` follows at once (its
        redraw shows the new similarity too).
        """
        self.similarity = similarity
        if notify:
            self.similarity_changed.emit()

    def _restore_undo(self, project: Project) -> None:
        from sialign.core.edits import edit_from_dict
        from sialign.gui.common.commands import EditCommand

        try:
            commands = [
                EditCommand.restored(self, edit_from_dict(step["forward"]), edit_from_dict(step["inverse"]), step["label"])
                for step in project.undo
            ]
        except (KeyError, TypeError, ValueError, SialignError) as exc:
            log.info("saved undo steps not restored: %s", exc)
            return
        for command in commands:
            self.undo_stack.push(command)

    def undo_steps(self, limit: int = SAVED_UNDO_STEPS) -> list[dict[str, Any]]:
        """The steps Undo would take back (at most ``limit``, the latest), oldest first, for saving with the project.

        Only core edits can be saved: the steps before the latest other
        command (Project properties…) are left out.
        """
        from sialign.gui.common.commands import EditCommand

        stack = self.undo_stack
        steps: list[dict[str, Any]] = []
        for index in range(stack.index() - 1, -1, -1):
            command = stack.command(index)
            if not isinstance(command, EditCommand) or len(steps) >= limit:
                break
            steps.append(command.saved_step())
        return steps[::-1]

    def _on_clean_changed(self, clean: bool) -> None:
        # A bound method (not a lambda) so Qt drops the connection when the
        # session is destroyed; the stack emits cleanChanged while dying.
        self.modified_changed.emit(self._dirty or self._typing or not clean)

    @property
    def is_modified(self) -> bool:
        """The project differs from its file, or a view holds typed input not applied yet."""
        return self._dirty or self._typing or not self.undo_stack.isClean()

    def set_pending_input(self, pending: bool) -> None:
        """Say whether a view holds typed input that differs from the project (a note typed without Enter).

        The window shows it as modified, as a word processor does while you type;
        the input itself is applied by :meth:`commit_pending`.
        """
        if pending == self._typing:
            return
        was = self.is_modified
        self._typing = pending
        if self.is_modified != was:
            self.modified_changed.emit(self.is_modified)

    def mark_dirty(self) -> None:
        """Record a change made outside the undo stack (e.g. filter thresholds)."""
        if not self._dirty:
            self._dirty = True
            self.modified_changed.emit(True)

    def mark_saved(self) -> None:
        was = self.is_modified
        self._dirty = False
        self.undo_stack.setClean()
        if was:
            self.modified_changed.emit(False)

    # -- pending input -----------------------------------------------------
    def add_pending_committer(self, commit: Callable[[], None]) -> None:
        """Register a view's "apply what the user typed" callable.

        A reviewer never presses Enter on a checkbox and rarely on a note: what
        a view holds unapplied is applied (as an undoable edit) before the
        selection moves, before any other edit, and before the project is
        saved, re-aligned or closed — :meth:`commit_pending`.
        """
        self._pending_committers.append(commit)

    def commit_pending(self) -> None:
        """Apply every view's pending input now (each as its own undoable edit)."""
        if self._committing:
            return
        self._committing = True
        try:
            for commit in list(self._pending_committers):
                commit()
        finally:
            self._committing = False

    def undo_action(self, parent: QObject, prefix: str, *, redo: bool = False) -> QAction:
        """An Undo (or Redo) action like QUndoStack's own, applying pending input first.

        Undo right after typing a note takes the note back (it was applied as
        the latest step), rather than silently dropping it.
        """
        stack = self.undo_stack
        action = QAction(prefix, parent)
        can = stack.canRedo if redo else stack.canUndo
        text = stack.redoText if redo else stack.undoText

        def refresh() -> None:
            # The stack emits while it is being destroyed (it clears itself).
            if not (shiboken6.isValid(stack) and shiboken6.isValid(action)):
                return
            action.setEnabled(can())
            action.setText(f"{prefix} {text()}".rstrip())

        def run() -> None:
            self.commit_pending()
            if redo:
                stack.redo()
            else:
                stack.undo()

        action.triggered.connect(run)
        stack.indexChanged.connect(refresh)
        stack.cleanChanged.connect(refresh)
        refresh()
        return action

    # -- edits -------------------------------------------------------------
    def apply(self, edit: Edit) -> bool:
        """Apply a core edit as one undoable step; False (and ``edit_failed``) if refused.

        Input a view holds unapplied is applied first, as its own step, so an
        edit never throws away a note typed without Enter.
        """
        from sialign.gui.common.commands import EditCommand

        self.commit_pending()
        if self.locked_reason:
            self.edit_failed.emit(self.locked_reason)
            return False
        try:
            command = EditCommand.applied(self, edit)
        except SialignError as exc:
            self.edit_failed.emit(error_text(exc))
            return False
        self.undo_stack.push(command)
        return True

    def journal_step(self, op: str, label: str, forward: Edit, inverse: Edit) -> None:
        """Called by undo commands after a core edit ran: tells the edit journal (``step_applied``)."""
        self.step_applied.emit({"op": op, "label": label, "forward": forward.to_dict(), "inverse": inverse.to_dict()})

    def notify_edited(self, edit: Edit, changes: Changes | None = None) -> None:
        """Called by undo commands after an edit or its inverse ran: emits what changed."""
        changes = changes if changes is not None else changes_of(edit)
        if changes.alignment:
            self.alignment_replaced.emit()
        else:
            self.edited.emit(changes)
        self._follow_selection()

    # -- selection ---------------------------------------------------------
    @property
    def selected_bead(self) -> int:
        return self._selected

    def select_bead(self, index: int) -> None:
        self.commit_pending()
        n = len(self._project.alignment) if self._project.alignment is not None else 0
        index = index if 0 <= index < n else -1
        self._anchor = self._anchor_of(index)
        if index != self._selected:
            self._selected = index
            self.selection_changed.emit(index)

    def _anchor_of(self, index: int) -> tuple[str, int] | None:
        alignment = self._project.alignment
        if alignment is None or not 0 <= index < len(alignment.beads):
            return None
        bead = alignment.beads[index]
        if bead.src:
            return ("src", bead.src[0])
        return ("tgt", bead.tgt[0]) if bead.tgt else None

    def _follow_selection(self) -> None:
        """After an edit: select the bead holding the selected bead's first segment (merges, undo, re-alignment)."""
        alignment = self._project.alignment
        beads = alignment.beads if alignment is not None else []
        anchor = self._anchor
        index = self._selected
        if anchor is not None and beads:
            side, sid = anchor

            def holds(i: int) -> bool:
                return sid in (beads[i].src if side == "src" else beads[i].tgt)

            if not (0 <= index < len(beads) and holds(index)):
                # Near the old row first: an edit moves a bead by a few rows at most.
                order = sorted(range(len(beads)), key=lambda i: abs(i - index))
                index = next((i for i in order if holds(i)), min(index, len(beads) - 1))
        elif index >= len(beads):
            index = len(beads) - 1
        self.select_bead(index)
