"""Colours the alignment matrix of an opened project in the background.

Projects store beads, not the similarity matrix. When a project with an
alignment is opened (or recovered), this service computes the similarity
again with the model the alignment used, in its own worker thread so the
reviewer can start at once; the vector cache usually makes it a matter of
seconds. It never blocks edits and never replaces the similarity of a run
that finished meanwhile.

A split or merge makes segments the similarity has no row or column for
(a white band) or whose text it no longer measures; after such an edit the
service computes the matrix again the same way (the vectors of the
unchanged segments come from the cache), so the new segments are drawn
without re-aligning.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QObject, Qt, Signal

from sialign.core.changes import Changes
from sialign.core.model import Project
from sialign.core.progress import ProgressFn, StopFn
from sialign.core.similarity import SimilarityGrid
from sialign.gui.common.session import ProjectSession
from sialign.gui.common.workers import TaskWorker, WorkerRunner, snapshot

log = logging.getLogger(__name__)


class SimilarityService(QObject):
    """Computes the matrix colours of an opened project.

    Signals:
        state_changed(str): what the matrix should say meanwhile ("" when
            there is nothing to say: done, or nothing to compute).
    """

    state_changed = Signal(str)

    def __init__(self, session: ProjectSession, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.runner = WorkerRunner(self)
        self.runner.finished.connect(self._runner_finished)
        self._target: Project | None = None
        # The similarity a refresh after an edit replaces (None for a first colouring).
        self._replacing: SimilarityGrid | None = None
        self._pending = False
        self._pending_refresh = False
        self.message = ""
        session.project_replaced.connect(self.schedule)
        session.edited.connect(self._edited)

    @property
    def busy(self) -> bool:
        return self.runner.busy

    def _edited(self, changes: Changes) -> None:
        """After a split, merge or text edit of a side the matrix shows: compute it again."""
        if self.session.similarity is None:
            return
        sides = set(changes.reshaped) | {side for side, _ in changes.text}
        if sides & {"src", "tgt"}:
            self.refresh()

    def refresh(self) -> None:
        """Compute the open project's similarity again (after an edit changed its segments)."""
        if self.runner.busy:
            # The running computation may have read the project before the edit: run again after it.
            self._pending_refresh = True
            return
        self._start(replacing=self.session.similarity)

    def schedule(self) -> None:
        """Start computing for the open project if it has beads but no similarity yet."""
        project = self.session.project
        if self.session.similarity is not None or project.alignment is None or not len(project.source) \
                or not len(project.target):
            self._set_message("")
            return
        if self.runner.busy:
            # The previous project's computation stops first; this one follows.
            self._pending = True
            self.runner.cancel()
            return
        self._start(replacing=None)

    def _start(self, replacing: SimilarityGrid | None) -> None:
        project = self.session.project
        if project.alignment is None or not len(project.source) or not len(project.target):
            return
        copy = snapshot(project)

        def task(progress: ProgressFn, should_stop: StopFn) -> SimilarityGrid:
            from sialign.workflows.aligning import similarity_grid

            return similarity_grid(copy, progress=progress, should_stop=should_stop)

        worker = TaskWorker(task, "Colouring the matrix")
        queued = Qt.ConnectionType.QueuedConnection
        worker.succeeded.connect(self._succeeded, queued)
        worker.failed.connect(self._failed, queued)
        self._target = project
        self._replacing = replacing
        if replacing is None:
            self._set_message("Computing the similarity for the matrix…")
        self.runner.start(worker)

    def cancel(self) -> None:
        self._pending = self._pending_refresh = False
        self.runner.cancel()

    def shutdown(self) -> None:
        """Stop and wait (on close): the encoder checks for cancellation between batches."""
        self.cancel()
        self.runner.wait(15000)

    def _succeeded(self, grid: SimilarityGrid) -> None:
        # Another project, or a new alignment run brought its own similarity.
        if self.session.project is not self._target or self.session.similarity is not self._replacing:
            return
        self._set_message("")
        self.session.set_similarity(grid)

    def _failed(self, message: str, details: str) -> None:
        if self.session.project is not self._target:
            return
        if details:
            log.warning("computing the matrix colours failed: %s", details)
        if self._replacing is not None:
            return  # the matrix keeps the colours it has; only the edited segments stay blank
        self._set_message(f"Similarity not available: {message}\nAlign (Ctrl+R) to colour the matrix.")

    def _runner_finished(self) -> None:
        if self._pending:
            self._pending = False
            self.schedule()
        elif self._pending_refresh:
            self._pending_refresh = False
            if self.session.similarity is not None:
                self.refresh()
        elif self.message.startswith("Computing"):
            # Cancelled before it finished.
            self._set_message("")

    def _set_message(self, message: str) -> None:
        if message != self.message:
            self.message = message
            self.state_changed.emit(message)
