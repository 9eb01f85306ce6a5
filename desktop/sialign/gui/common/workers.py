"""Long work off the GUI thread: alignment, re-alignment and filter scoring.

A worker is a ``QObject`` moved to its own ``QThread``. It calls a library
function with the two plain callables every long function takes
(``progress(fraction, message)`` and ``should_stop()``) and turns them into
queued signals. Progress is emitted only when it changes visibly (a new
message, or a tenth of a percent after at least 40 ms), so a chatty library
cannot flood the GUI thread's event queue. Cancellation sets a flag that
``should_stop`` reads; the library raises ``AlignmentCancelled`` at its next
check. Any exception becomes a ``failed`` signal with a readable message —
the user never sees a traceback (it is kept as details for bug reports).
"""

from __future__ import annotations

import dataclasses
import threading
import time
import traceback
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QThread, Signal, Slot

from sialign.core.errors import AlignmentCancelled, SialignError
from sialign.core.model import Document, Project
from sialign.core.params import AlignParams
from sialign.core.progress import ProgressFn, StopFn
from sialign.gui.common.error_words import error_text

# Smallest change of the progress fraction worth a repaint (one per mille) and
# the least time between two such repaints.
PROGRESS_STEP = 0.001
PROGRESS_MIN_INTERVAL_S = 0.04

TaskFn = Callable[[ProgressFn, StopFn], Any]


class TaskWorker(QObject):
    """Runs ``task(progress, should_stop)`` once in a worker thread.

    Signals:
        progressed(float, str): fraction 0..1 and a message, throttled.
        succeeded(object): the task's return value.
        failed(str, str): a readable message, and technical details for the
            error log ("" for the application's own errors, whose message
            says everything).
        cancelled(): the task stopped because :meth:`cancel` was called.
        done(): emitted last in every case, for clean-up.
    """

    progressed = Signal(float, str)
    succeeded = Signal(object)
    failed = Signal(str, str)
    cancelled = Signal()
    done = Signal()

    def __init__(self, task: TaskFn, title: str = "Working") -> None:
        super().__init__()
        self.title = title
        self._task = task
        self._stop = threading.Event()
        self._last_fraction = -1.0
        self._last_message: str | None = None
        self._last_emit = 0.0
        # The exception behind ``failed``, for callers that add advice by type.
        self.error: BaseException | None = None

    def cancel(self) -> None:
        """Ask the task to stop at its next check (thread-safe)."""
        self._stop.set()

    def should_stop(self) -> bool:
        return self._stop.is_set()

    def report(self, fraction: float, message: str) -> None:
        """The ``progress`` callable handed to the task; runs in the worker thread."""
        now = time.monotonic()
        fraction = min(1.0, max(0.0, float(fraction)))
        if message != self._last_message or (
            abs(fraction - self._last_fraction) >= PROGRESS_STEP and now - self._last_emit >= PROGRESS_MIN_INTERVAL_S
        ):
            self._last_fraction = fraction
            self._last_message = message
            self._last_emit = now
            self.progressed.emit(fraction, message)

    @Slot()
    def run(self) -> None:
        try:
            result = self._task(self.report, self.should_stop)
        except AlignmentCancelled:
            self.cancelled.emit()
        except SialignError as exc:
            # The user's own problem, fully described by the message.
            self.error = exc
            self.failed.emit(error_text(exc), "")
        except MemoryError as exc:
            self.error = exc
            self.failed.emit(
                f"{self.title} ran out of memory. Close other programs or use the lexical embedder and try again.",
                traceback.format_exc(),
            )
        except Exception as exc:
            self.error = exc
            self.failed.emit(
                f"{self.title} failed unexpectedly: {type(exc).__name__}: {exc}",
                traceback.format_exc(),
            )
        else:
            if self._stop.is_set():
                self.cancelled.emit()
            else:
                self.succeeded.emit(result)
        finally:
            self.done.emit()


def snapshot(project: Project) -> Project:
    """A copy of ``project`` a worker may read while the GUI goes on editing the original.

    Core edits are copy-on-write (they put new Segment and Bead objects into
    the lists, never change one in place), so copying the lists is enough:
    microseconds for thousands of beads, where a deep copy would stall the
    GUI thread for tens of milliseconds.
    """

    def doc_copy(doc: Document) -> Document:
        return dataclasses.replace(doc, segments=list(doc.segments))

    alignment = project.alignment
    return dataclasses.replace(
        project,
        source=doc_copy(project.source),
        target=doc_copy(project.target),
        reference=doc_copy(project.reference) if project.reference is not None else None,
        alignment=dataclasses.replace(alignment, beads=list(alignment.beads), info=dict(alignment.info))
        if alignment is not None
        else None,
        params=project.params,
        filter_params=project.filter_params,
        metadata=dict(project.metadata),
        history=list(project.history),
    )


class AlignWorker(TaskWorker):
    """Aligns a snapshot of the project (:func:`sialign.workflows.aligning.compute_alignment`).

    Emits ``succeeded(AlignResult)``; the caller applies the result to the
    live project as one undoable ``ReplaceAlignment`` edit.

    Args:
        project: the live project (copied here, on the GUI thread).
        params: alignment parameters.
        keep_confirmed: keep confirmed beads as anchors and re-align only the gaps.

    The pipeline keeps loaded embedders and the vectors of recent runs for
    the life of the process, so a re-alignment after edits only embeds
    segments it has not seen (split or merged ones).
    """

    def __init__(
        self,
        project: Project,
        params: AlignParams,
        *,
        keep_confirmed: bool = True,
    ) -> None:
        self.project = snapshot(project)
        self.params = params
        self.keep_confirmed = keep_confirmed
        super().__init__(self._align, "Re-alignment" if keep_confirmed and project.alignment else "Alignment")

    def _align(self, progress: ProgressFn, should_stop: StopFn) -> Any:
        from sialign.workflows.aligning import compute_alignment

        return compute_alignment(
            self.project,
            self.params,
            progress=progress,
            should_stop=should_stop,
            keep_confirmed=self.keep_confirmed,
        )


class WorkerRunner(QObject):
    """Owns at most one running worker and its thread.

    Signals:
        started(str): a worker started (its title).
        finished(): the running worker ended (success, failure or cancel) and
            its thread has quit.
    """

    started = Signal(str)
    finished = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._thread: QThread | None = None
        self._worker: TaskWorker | None = None

    @property
    def busy(self) -> bool:
        return self._worker is not None

    @property
    def worker(self) -> TaskWorker | None:
        return self._worker

    def start(self, worker: TaskWorker) -> None:
        """Run ``worker`` in a new thread; connect its signals before calling this."""
        if self._worker is not None:
            raise RuntimeError("a worker is already running")
        thread = QThread()
        thread.setObjectName(worker.title)
        worker.moveToThread(thread)
        thread.started.connect(worker.run)
        worker.done.connect(thread.quit)
        thread.finished.connect(self._on_thread_finished)
        self._thread = thread
        self._worker = worker
        thread.start()
        self.started.emit(worker.title)

    def cancel(self) -> None:
        if self._worker is not None:
            self._worker.cancel()

    def wait(self, timeout_ms: int = 5000) -> bool:
        """Block until the running worker's thread ends (used on close); True if it did."""
        if self._thread is None:
            return True
        # The worker's ``done`` quits its thread through the GUI thread's event loop,
        # which a caller of wait() (closeEvent) is blocking: ask the thread's loop to
        # end once the running task returns, or it would never end and be destroyed running.
        self._thread.quit()
        return self._thread.wait(timeout_ms)

    def _on_thread_finished(self) -> None:
        thread = self._thread
        if thread is not None:
            # ``finished`` is emitted just before the thread ends; wait for
            # the end so dropping the last reference cannot destroy a
            # running QThread. Both objects are then freed by Python.
            thread.wait()
        self._thread = None
        self._worker = None
        self.finished.emit()
