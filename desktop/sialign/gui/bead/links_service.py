"""Draws the word links of the open project's beads in the background.

After a project opens, an alignment run or any edit, the beads whose texts
have no stored links (:func:`sialign.workflows.word_links.stale_pairs`) are
linked in a worker thread of their own, so reviewing never waits: a whole
talk takes some seconds to half a minute the first time, one edited bead a
fraction of a second. Japanese words and their readings come from GiNZA in the application's
scoring process (as for the filters: loading it in a thread would freeze
the window). The links go into the project
(:attr:`~sialign.core.model.Project.word_links`) and are saved with its next
save; being derived from the texts they are not an edit and do not mark
the project modified.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Qt, QTimer, Signal

from sialign.core.model import Project
from sialign.core.progress import ProgressFn, StopFn
from sialign.core.word_links import BeadLinks
from sialign.gui.common.session import ProjectSession
from sialign.gui.common.workers import TaskWorker, WorkerRunner, snapshot

log = logging.getLogger(__name__)

# Edits come in bursts (a split then a move): wait this long after the last one.
DELAY_MS = 400


class LinksService(QObject):
    """Keeps ``session.project.word_links`` up to date.

    Args:
        session: the open project.
        linker_factory: makes the word aligner (called once, in the worker
            thread); None: :func:`sialign.workflows.word_links.default_linker`, the built-in
            encoder.

    Signals:
        links_changed(): new links are stored in the project.
        state_changed(str): what the bead panel should say meanwhile ("" when idle).
    """

    links_changed = Signal()
    state_changed = Signal(str)
    # Off: links are drawn only when update_now() is called (the GUI tests turn it off,
    # so that a test's project does not load the encoder and GiNZA in the background).
    auto = True

    def __init__(self, session: ProjectSession, parent: QObject | None = None,
                 linker_factory: Callable[[], Any] | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.runner = WorkerRunner(self)
        self.runner.finished.connect(self._runner_finished)
        self._linker_factory = linker_factory
        self._linker: Any = None
        self._pending = False
        self._target: Project | None = None
        self.message = ""
        self.enabled = True
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DELAY_MS)
        self._timer.timeout.connect(self.update_now)
        session.project_replaced.connect(self._project_replaced)
        session.alignment_replaced.connect(self.schedule)
        session.edited.connect(lambda _edit: self.schedule())

    @property
    def busy(self) -> bool:
        return self.runner.busy

    def schedule(self) -> None:
        """Link the changed beads shortly (edits in a burst are linked together)."""
        if self.enabled and self.auto:
            self._timer.start()

    def _project_replaced(self) -> None:
        self.enabled = True  # a failure on the last project is tried again on this one
        self.schedule()

    def _make_linker(self) -> Any:
        if self._linker is None:
            if self._linker_factory is not None:
                self._linker = self._linker_factory()
            else:
                from sialign.workflows.word_links import default_linker

                self._linker = default_linker()
        return self._linker

    def update_now(self) -> None:
        """Start linking the beads without stored links (after the running pass, if one runs)."""
        from sialign.workflows.word_links import stale_pairs

        self._timer.stop()
        if self.runner.busy:
            self._pending = True
            return
        project = self.session.project
        pairs = stale_pairs(project)
        if not pairs:
            self._store(project, {})  # drop the entries of beads that are gone
            self._set_message("")
            return
        copy = snapshot(project)

        def task(progress: ProgressFn, should_stop: StopFn) -> dict[str, BeadLinks]:
            from sialign.workflows.word_links import compute_links, scoring_japanese_reader, scoring_tokenizer

            return compute_links(copy, pairs, linker=self._make_linker(), tokenizer=scoring_tokenizer(should_stop),
                                 japanese_reader=scoring_japanese_reader(should_stop), progress=progress,
                                 should_stop=should_stop)

        worker = TaskWorker(task, "Drawing word links")
        queued = Qt.ConnectionType.QueuedConnection
        worker.succeeded.connect(self._succeeded, queued)
        worker.failed.connect(self._failed, queued)
        self._target = project
        self._set_message(f"Drawing the word links of {len(pairs)} bead{'' if len(pairs) == 1 else 's'}…")
        self.runner.start(worker)

    def _aligner(self) -> str:
        from sialign.workflows.word_links import linker_name

        return linker_name(self._linker)

    def _store(self, project: Project, new: dict[str, BeadLinks]) -> None:
        from sialign.workflows.word_links import store_links

        if store_links(project, new, self._aligner()):
            self.links_changed.emit()

    def _succeeded(self, new: dict[str, BeadLinks]) -> None:
        # Results for another project are of no use; those of beads edited meanwhile are kept
        # (their key is their text) and dropped by the next merge if no bead has that text any more.
        if self.session.project is self._target:
            self._store(self.session.project, new)
            self._set_message("")
        else:
            self._pending = True

    def _failed(self, message: str, details: str) -> None:
        if details:
            log.warning("drawing word links failed: %s", details)
        self.enabled = False  # not again after every edit; reopening the project tries again
        self._set_message(f"Word links not available: {message}")

    def _runner_finished(self) -> None:
        if self._pending:
            self._pending = False
            self.update_now()

    def _set_message(self, message: str) -> None:
        if message != self.message:
            self.message = message
            self.state_changed.emit(message)

    def cancel(self) -> None:
        self._pending = False
        self._timer.stop()
        self.runner.cancel()

    def shutdown(self) -> None:
        """Stop and wait (on close)."""
        self.cancel()
        self.runner.wait(15000)
