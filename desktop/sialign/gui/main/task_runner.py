"""Long work in the desktop app: one worker at a time with progress and Cancel, and aligning the talk in it.

:class:`TaskRunner` runs workers. It receives the session (edits are refused
while a task runs on a snapshot of it) and ``show_error(title, message)``,
owns the progress bar and Cancel button the window puts in its status bar,
and says what to show there through ``message``. :class:`AlignmentController`
aligns the open talk in it and installs the result with its parameters as one undoable edit,
carrying the reviewer's work over; it receives the session, the runner and a
widget to parent its one question, not the window.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QMessageBox, QProgressBar, QPushButton, QWidget

from sialign.core.errors import SialignError
from sialign.core.params import AlignParams
from sialign.core.paths import error_log_path
from sialign.core.similarity import SimilarityGrid
from sialign.gui.common.error_words import error_text
from sialign.gui.common.session import ProjectSession
from sialign.gui.common.workers import AlignWorker, TaskWorker, WorkerRunner

if TYPE_CHECKING:
    from sialign.core.carry import CarryReport
    from sialign.workflows.aligning import AlignResult


def lost_review_question(carried: CarryReport) -> str:
    """What the question before a re-alignment that leaves review data behind says (``carried``: a CarryReport)."""
    from sialign.core.plurals import count_noun

    lines = [item.describe() for item in carried.lost[:6]]
    if len(carried.lost) > 6:
        lines.append(f"… and {len(carried.lost) - 6} more")
    their = "its" if len(carried.lost) == 1 else "their"
    return (f"The new alignment groups the segments of {count_noun(len(carried.lost), 'reviewed bead')} differently, "
            f"so {their} review data cannot be carried over:\n\n" + "\n".join(lines)
            + f"\n\n{carried.summary()}.\nApply the new alignment anyway? (Edit → Undo brings the old one back.)")


class TaskRunner(QObject):
    """Runs one :class:`TaskWorker` at a time and reports its outcome.

    Signals:
        message(str, int): text for the status bar and how long to show it (ms).
        busy_changed(): a task started or ended (actions enable or disable).
    """

    message = Signal(str, int)
    busy_changed = Signal()

    def __init__(self, session: ProjectSession, show_error: Callable[[str, str], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self._show_error = show_error
        self.runner = WorkerRunner(self)
        self.runner.finished.connect(self._finished)
        self._on_success: Callable[[Any], None] | None = None
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.progress.setMaximumWidth(360)
        self.progress.setMinimumWidth(240)
        self.progress.setTextVisible(True)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(self.cancel)
        # Keep their place when hidden: showing them must not re-lay-out the
        # window (and repaint every panel) at the start of each alignment.
        for widget in (self.progress, self.cancel_button):
            policy = widget.sizePolicy()
            policy.setRetainSizeWhenHidden(True)
            widget.setSizePolicy(policy)
            widget.hide()

    @property
    def busy(self) -> bool:
        return self.runner.busy

    def run_task(self, worker: TaskWorker, on_success: Callable[[Any], None]) -> bool:
        """Run ``worker`` (one at a time); ``on_success`` gets its result on the GUI thread."""
        if self.runner.busy:
            self.message.emit("Wait for the running task to finish, or cancel it.", 5000)
            return False
        self._on_success = on_success
        # Explicitly queued: the handlers touch widgets, which only the GUI
        # thread may do.
        queued = Qt.ConnectionType.QueuedConnection
        worker.progressed.connect(self._progressed, queued)
        worker.succeeded.connect(self._succeeded, queued)
        worker.failed.connect(self._failed, queued)
        worker.cancelled.connect(self._cancelled, queued)
        self.session.locked_reason = f"{worker.title} is running; edit again when it finishes (or cancel it)."
        self.progress.setValue(0)
        self.progress.setFormat(f"{worker.title}…")
        self.progress.show()
        self.cancel_button.show()
        self.cancel_button.setEnabled(True)
        self.runner.start(worker)
        self.busy_changed.emit()
        return True

    def cancel(self) -> None:
        if self.runner.busy:
            self.runner.cancel()
            self.cancel_button.setEnabled(False)
            self.progress.setFormat("Cancelling…")

    def _progressed(self, fraction: float, message: str) -> None:
        self.progress.setValue(int(fraction * 1000))
        self.progress.setFormat(f"{message} — %p%")

    def _succeeded(self, result: Any) -> None:
        callback, self._on_success = self._on_success, None
        self.session.locked_reason = ""
        if callback is not None:
            try:
                callback(result)
            except SialignError as exc:
                self._show_error("Could not use the result", error_text(exc))

    def _failed(self, message: str, details: str) -> None:
        from sialign.core.errors import ModelNotFoundError
        from sialign.gui.common.error_log import log_error

        self._on_success = None
        self.session.locked_reason = ""
        worker = self.runner.worker
        if worker is not None and isinstance(worker.error, ModelNotFoundError) and "speech_model" not in worker.error.settings:
            message += "\n\nIn SI Aligner: Settings → Embedding model… to add or choose a model (lexical always works)."
        if details:
            log_error(details)
            message += f"\n\nDetails were written to {error_log_path()}."
        self._show_error("Something went wrong", message)

    def _cancelled(self) -> None:
        self._on_success = None
        self.session.locked_reason = ""
        self.message.emit("Cancelled. Nothing was changed.", 6000)

    def _finished(self) -> None:
        self.session.locked_reason = ""
        self.progress.hide()
        self.cancel_button.hide()
        self.busy_changed.emit()


class AlignmentController(QObject):
    """Aligns the open talk with :class:`TaskRunner` and installs the result as one undoable edit.

    Signals:
        installed(bool): a new alignment was applied; True for the talk's first one.
    """

    installed = Signal(bool)

    def __init__(self, session: ProjectSession, tasks: TaskRunner, show_error: Callable[[str, str], None],
                 dialog_parent: QWidget) -> None:
        super().__init__(dialog_parent)
        self.session = session
        self.tasks = tasks
        self._show_error = show_error
        self._parent = dialog_parent
        self.last_align_seconds: dict[str, float] = {}

    def align_params(self) -> AlignParams:
        from sialign.workflows.aligning import align_params

        return align_params(self.session.project)

    def align(self, *, keep_confirmed: bool = True, params: AlignParams | None = None,
              on_done: Callable[[], None] | None = None) -> bool:
        """Start aligning the talk in a worker (with ``params``, default the talk's); True when it started.

        The new alignment and the parameters it was made with are one undoable step.
        """
        from sialign.workflows.aligning import alignment_label

        self.session.commit_pending()  # a note typed without Enter goes into the run's carried review data
        project = self.session.project
        if not len(project.source) or not len(project.target):
            self._show_error("Nothing to align", "Open or create a talk with a source and a target transcript first.")
            return False
        params = params or self.align_params()
        worker = AlignWorker(project, params, keep_confirmed=keep_confirmed)
        src_ids, tgt_ids = worker.project.source.ids(), worker.project.target.ids()
        label = alignment_label(project, keep_confirmed)

        def install(result: AlignResult) -> None:
            self._install(result, src_ids, tgt_ids, params, label)
            if on_done is not None:
                on_done()

        return self.tasks.run_task(worker, install)

    def align_from_scratch(self) -> None:
        alignment = self.session.project.alignment
        confirmed = alignment.counts()["confirmed"] if alignment is not None else 0
        if confirmed:
            answer = QMessageBox.question(
                self._parent,
                "Align from scratch",
                f"{confirmed} confirmed beads will be re-aligned like the rest (you can undo this). Continue?",
            )
            if answer != QMessageBox.StandardButton.Yes:
                return
        self.align(keep_confirmed=False)

    def _accept_lost_review(self, carried: CarryReport) -> bool:
        """Ask before a re-alignment leaves review data behind; True to apply it anyway."""
        answer = QMessageBox.question(self._parent, "Review data would be left behind", lost_review_question(carried))
        return answer == QMessageBox.StandardButton.Yes

    def _install(self, result: AlignResult, src_ids: list[int], tgt_ids: list[int], params: AlignParams, label: str) -> None:
        from sialign.workflows.aligning import alignment_edit, weights_note

        project = self.session.project
        first_run = project.alignment is None  # a re-alignment keeps the user's zoom
        if project.source.ids() != src_ids or project.target.ids() != tgt_ids:
            self._show_error("Alignment not applied", "The segments changed while aligning; align again.")
            return
        # Carried from the alignment as it is now: the reviewer may have
        # worked on while the alignment ran in the background.
        edit, carried = alignment_edit(project, result, params, label=label)
        if carried.lost and not self._accept_lost_review(carried):
            self.tasks.message.emit("Alignment not applied: nothing was changed.", 8000)
            return
        self.session.set_similarity(SimilarityGrid(result.similarity, src_ids, tgt_ids), notify=False)
        if not self.session.apply(edit):
            return
        self.last_align_seconds = dict(result.timings)
        parts = ", ".join(f"{k} {v:.1f} s" for k, v in result.timings.items() if k != "total")
        total = result.timings.get("total", sum(result.timings.values()))
        info = result.alignment.info
        weights = weights_note(info)
        notes = [str((info.get("lag") or {}).get("note", "")), str(info.get("pivot_note", "")),
                 f"{weights} (Settings → Alignment…)" if weights else ""]
        if not first_run:
            notes.insert(0, carried.summary())
        extra = "".join(f" {note[0].upper()}{note[1:]}." for note in notes if note)
        self.tasks.message.emit(f"Aligned in {total:.1f} s ({parts}).{extra}", 15000)
        if self.session.selected_bead < 0 and result.alignment.beads:
            self.session.select_bead(0)
        self.installed.emit(first_run)


__all__ = ["AlignmentController", "TaskRunner"]
