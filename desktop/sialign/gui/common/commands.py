"""Undo commands: thin wrappers that call core edits and hold their inverses.

Every user action maps to one core edit (``sialign.core.edits``); this module
only adapts it to ``QUndoStack``. Multi-step actions use a core ``Batch``
edit, so they undo in one step and replay from the project history.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtGui import QUndoCommand

from sialign.core.edit_base import Edit

if TYPE_CHECKING:
    from sialign.gui.common.session import ProjectSession


class EditCommand(QUndoCommand):
    """One core edit on the undo stack.

    ``redo`` applies the forward edit and keeps the inverse ``apply_edit``
    returns; ``undo`` applies that inverse and keeps *its* inverse as the new
    forward edit, so ids created by a split come back the same on redo.
    """

    def __init__(self, session: ProjectSession, edit: Edit, text: str | None = None) -> None:
        super().__init__(text or edit.describe())
        self._session = session
        self._forward = edit
        self._inverse: Edit | None = None
        self._skip_first_redo = False
        # Undo puts the selection back where it was before the edit.
        self._selected_before = session.selected_bead

    @classmethod
    def applied(cls, session: ProjectSession, edit: Edit, text: str | None = None) -> EditCommand:
        """Apply ``edit`` now (raising on refusal) and return a command for the stack.

        Applying before pushing lets a refused edit surface as an exception
        here instead of inside Qt's ``push`` → ``redo`` call.
        """
        from sialign.core.edits import apply_edit_changes

        # Named before applying: segment numbers are rows of the document as the reviewer saw it.
        command = cls(session, edit, text or edit.describe_in(session.project))
        command._inverse, changes = apply_edit_changes(session.project, edit)
        command._skip_first_redo = True
        session.journal_step("do", command.text(), edit, command._inverse)
        session.notify_edited(edit, changes)
        return command

    @classmethod
    def restored(cls, session: ProjectSession, forward: Edit, inverse: Edit, text: str) -> EditCommand:
        """A step saved with the project (already applied): pushing it does not apply it again."""
        command = cls(session, forward, text)
        command._inverse = inverse
        command._skip_first_redo = True
        command._selected_before = -1
        return command

    def saved_step(self) -> dict[str, Any]:
        """This step as the project file keeps it (see :attr:`sialign.core.model.Project.undo`)."""
        return {"label": self.text(), "forward": self._forward.to_dict(), "inverse": self._applied_inverse().to_dict()}

    def _applied_inverse(self) -> Edit:
        """The inverse of the forward edit, known once it was applied (a command is pushed applied or restored)."""
        if self._inverse is None:
            raise RuntimeError(f"undo step {self.text()!r} was never applied")
        return self._inverse

    def redo(self) -> None:
        from sialign.core.edits import apply_edit_changes

        if self._skip_first_redo:
            self._skip_first_redo = False
            return
        self._inverse, changes = apply_edit_changes(self._session.project, self._forward)
        self._session.journal_step("redo", self.text(), self._forward, self._inverse)
        self._session.notify_edited(self._forward, changes)

    def undo(self) -> None:
        from sialign.core.edits import apply_edit_changes

        inverse = self._applied_inverse()
        self._forward, changes = apply_edit_changes(self._session.project, inverse)
        self._session.journal_step("undo", self.text(), self._forward, inverse)
        self._session.notify_edited(inverse, changes)
        if self._selected_before >= 0:
            self._session.select_bead(self._selected_before)
