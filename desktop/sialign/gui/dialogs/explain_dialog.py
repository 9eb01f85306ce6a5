"""Review → Why this bead?: the learned bead score's features of the selected bead (``sialign explain`` in the app)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QPlainTextEdit, QVBoxLayout, QWidget

from sialign.core.progress import ProgressFn, StopFn
from sialign.gui.common.session import ProjectSession

if TYPE_CHECKING:
    from sialign.gui.common.workers import TaskWorker


class ExplainDialog(QDialog):
    """Shows the lines of one bead's explanation, in a fixed-width font so the shares line up."""

    def __init__(self, title: str, lines: list[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        intro = QLabel(
            "The aligner scores every candidate bead by a model learned from gold alignments and keeps the "
            "path with the best total, so a bead can be kept at a probability below one half when its "
            "alternatives score lower. What each feature added to this bead's score (the probability is calibrated on the training talks; the top lines say how):"
        )
        intro.setWordWrap(True)
        self.text = QPlainTextEdit("\n".join(lines))
        self.text.setReadOnly(True)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.text, 1)
        layout.addWidget(buttons)
        # The box shows every line whole at its opening size (the screen's free area permitting):
        # a scroll bar in a dozen lines hid the features a reviewer opened the dialog for.
        metrics = self.text.fontMetrics()
        frame = 2 * self.text.frameWidth() + 2 * int(self.text.document().documentMargin()) + 12
        widest = max((metrics.horizontalAdvance(line) for line in lines), default=0)
        self.text.setMinimumSize(min(widest + frame + self.text.verticalScrollBar().sizeHint().width(), 1100),
                                 min(metrics.lineSpacing() * (len(lines) + 2) + frame, 600))
        self.resize(max(self.sizeHint().width(), 560), self.sizeHint().height())


class ExplainController:
    """Explains the session's selected bead in a worker (the talk's vectors are read again) and shows the result.

    Args:
        session: the open project and its selection.
        run_task: the window's ``run_task(worker, on_success)`` (one worker at a time).
        show_error: ``show_error(title, message)``.
        parent: the dialog's parent.
    """

    def __init__(self, session: ProjectSession, run_task: Callable[[TaskWorker, Callable[[Any], None]], bool],
                 show_error: Callable[[str, str], None], parent: QWidget) -> None:
        self.session = session
        self._run_task = run_task
        self._show_error = show_error
        self._parent = parent
        self.dialog: ExplainDialog | None = None

    def explain_selected(self) -> bool:
        """Start explaining the selected bead; True when the work started."""
        from sialign.gui.common.workers import TaskWorker, snapshot

        index = self.session.selected_bead
        if index < 0 or self.session.project.alignment is None:
            self._show_error("Why this bead?", "Select a bead first (click a row of the table).")
            return False
        self.session.commit_pending()
        project = snapshot(self.session.project)

        def task(progress: ProgressFn, should_stop: StopFn) -> Any:
            from sialign.workflows.explaining import explain_beads

            return explain_beads(project, [index])[0]

        return self._run_task(TaskWorker(task, "Explaining the bead"), self._show)

    def _show(self, explanation: Any) -> None:
        self.dialog = ExplainDialog(f"Why bead {explanation.index + 1}?", explanation.lines(top=10), self._parent)
        self.dialog.show()
