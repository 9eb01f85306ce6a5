"""The main window's long work: one worker at a time with progress and Cancel, and (re-)aligning the talk in it."""

from __future__ import annotations

import time
from typing import Any, Callable

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QMessageBox

from sialign.core.errors import SialignError
from sialign.core.paths import error_log_path
from sialign.core.params import AlignParams
from sialign.align.result import SimilarityGrid
from sialign.gui.workers import AlignWorker, TaskWorker


class TaskRunning:
    """Mixin of :class:`~sialign.gui.main_window.MainWindow`: runs workers, reports their outcome, aligns the talk."""

    def run_task(self, worker: TaskWorker, on_success: Callable[[Any], None]) -> bool:
        """Run ``worker`` (one at a time); ``on_success`` gets its result on the GUI thread."""
        if self.runner.busy:
            self.statusBar().showMessage("Wait for the running task to finish, or cancel it.", 5000)
            return False
        self._on_task_success = on_success
        # Explicitly queued: the handlers touch widgets, which only the GUI
        # thread may do.
        queued = Qt.ConnectionType.QueuedConnection
        worker.progressed.connect(self._task_progressed, queued)
        worker.succeeded.connect(self._task_succeeded, queued)
        worker.failed.connect(self._task_failed, queued)
        worker.cancelled.connect(self._task_cancelled, queued)
        self.session.locked_reason = f"{worker.title} is running; edit again when it finishes (or cancel it)."
        self._progress_started = time.monotonic()
        self.progress.setValue(0)
        self.progress.setFormat(f"{worker.title}…")
        self.progress.show()
        self.cancel_button.show()
        self.cancel_button.setEnabled(True)
        self.runner.start(worker)
        self._update_enabled()
        return True

    def _task_progressed(self, fraction: float, message: str) -> None:
        self.progress.setValue(int(fraction * 1000))
        self.progress.setFormat(f"{message} — %p%")

    def _task_succeeded(self, result: Any) -> None:
        callback = self._on_task_success
        self._on_task_success = None
        self.session.locked_reason = ""
        if callback is not None:
            try:
                callback(result)
            except SialignError as exc:
                self.show_error("Could not use the result", str(exc))

    def _task_failed(self, message: str, details: str) -> None:
        from sialign.core.errors import ModelNotFoundError

        self._on_task_success = None
        self.session.locked_reason = ""
        worker = self.runner.worker
        if worker is not None and isinstance(worker.error, ModelNotFoundError):
            message += "\n\nIn SI Aligner: Settings → Embedding model… to add or choose a model (lexical always works)."
        if details:
            self._log_error(details)
            message += f"\n\nDetails were written to {error_log_path()}."
        self.show_error("Something went wrong", message)

    def _task_cancelled(self) -> None:
        self._on_task_success = None
        self.session.locked_reason = ""
        self.statusBar().showMessage("Cancelled. Nothing was changed.", 6000)

    def _task_finished(self) -> None:
        self.session.locked_reason = ""
        self.progress.hide()
        self.cancel_button.hide()
        self._update_enabled()

    def cancel_task(self) -> None:
        if self.runner.busy:
            self.runner.cancel()
            self.cancel_button.setEnabled(False)
            self.progress.setFormat("Cancelling…")

    def _log_error(self, details: str) -> None:
        from sialign.gui.error_log import log_error

        log_error(details)

    def show_error(self, title: str, message: str) -> None:
        """A readable error dialog (tests replace ``QMessageBox.warning``)."""
        QMessageBox.warning(self, title, message)

    # -- alignment ---------------------------------------------------------------
    def align_params(self) -> AlignParams:
        from sialign.workflows.aligning import align_params

        return align_params(self.session.project)

    def align(self, *, keep_confirmed: bool = True, on_done: Callable[[], None] | None = None) -> bool:
        """Start aligning the talk in a worker; True when it started."""
        from sialign.workflows.aligning import alignment_label

        project = self.session.project
        if not len(project.source) or not len(project.target):
            self.show_error("Nothing to align", "Open or create a talk with a source and a target transcript first.")
            return False
        params = self.align_params()
        worker = AlignWorker(project, params, keep_confirmed=keep_confirmed)
        src_ids, tgt_ids = worker.project.source.ids(), worker.project.target.ids()
        label = alignment_label(project, keep_confirmed)

        def install(result: Any) -> None:
            self._install_alignment(result, src_ids, tgt_ids, params, label)
            if on_done is not None:
                on_done()

        return self.run_task(worker, install)

    def realign(self) -> None:
        self.align(keep_confirmed=True)

    def align_from_scratch(self) -> None:
        alignment = self.session.project.alignment
        confirmed = alignment.counts()["confirmed"] if alignment is not None else 0
        if confirmed:
            answer = QMessageBox.question(
                self,
                "Align from scratch",
                f"{confirmed} confirmed beads will be re-aligned like the rest (you can undo this). Continue?",
            )
            if answer != QMessageBox.StandardButton.Yes:
                return
        self.align(keep_confirmed=False)

    def _accept_lost_review(self, carried: Any) -> bool:
        """Ask before a re-alignment leaves review data behind; True to apply it anyway."""
        lines = [item.describe() for item in carried.lost[:6]]
        if len(carried.lost) > 6:
            lines.append(f"… and {len(carried.lost) - 6} more")
        answer = QMessageBox.question(
            self,
            "Review data would be left behind",
            f"The new alignment groups the segments of {len(carried.lost)} reviewed beads differently, so their "
            "review data cannot be carried over:\n\n" + "\n".join(lines)
            + f"\n\n{carried.summary()}.\nApply the new alignment anyway? (Edit → Undo brings the old one back.)",
        )
        return answer == QMessageBox.StandardButton.Yes

    def _install_alignment(self, result: Any, src_ids: list[int], tgt_ids: list[int], params: AlignParams,
                           label: str) -> None:  # fmt: skip
        from sialign.core.carry import carry_review
        from sialign.workflows.aligning import alignment_edit, record_params

        project = self.session.project
        first_run = project.alignment is None  # a re-alignment keeps the user's zoom
        if project.source.ids() != src_ids or project.target.ids() != tgt_ids:
            self.show_error("Alignment not applied", "The segments changed while aligning; align again.")
            return
        # Carry again from the alignment as it is now: the reviewer may have
        # worked on while the alignment ran in the background.
        carried = carry_review(project.alignment, result.alignment)
        result.alignment.info["review_carry"] = carried.to_dict()
        if carried.lost and not self._accept_lost_review(carried):
            self.statusBar().showMessage("Alignment not applied: nothing was changed.", 8000)
            return
        self.session.set_similarity(SimilarityGrid(result.similarity, src_ids, tgt_ids), notify=False)
        if self.session.apply(alignment_edit(result, label)):
            if record_params(project, params):
                self.session.mark_dirty()
            self.last_align_seconds = dict(result.timings)
            total = sum(result.timings.values())
            parts = ", ".join(f"{k} {v:.1f} s" for k, v in result.timings.items() if k != "total")
            total = result.timings.get("total", total)
            info = result.alignment.info
            notes = [str((info.get("lag") or {}).get("note", "")), str(info.get("pivot_note", ""))]
            if not first_run:
                notes.insert(0, carried.summary())
            extra = "".join(f" {note[0].upper()}{note[1:]}." for note in notes if note)
            self.statusBar().showMessage(f"Aligned in {total:.1f} s ({parts}).{extra}", 15000)
            if first_run:
                self.matrix.fit_to_window()
            if self.session.selected_bead < 0 and result.alignment.beads:
                self.session.select_bead(0)
            # Autosave once the new result has been drawn, not while it is.
            QTimer.singleShot(1500, self.autosave)
