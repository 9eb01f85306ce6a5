"""Workers: results, readable failures, cancellation within a second, throttled progress."""

from __future__ import annotations

import time

import pytest

from sialign.core.errors import AlignmentCancelled, InputError
from sialign.gui.common.workers import TaskWorker, WorkerRunner

# Qt warnings fail these tests (as in pyqtgraph's suite): a warning about threads or
# timers is a bug. The offscreen platform's note about size hints is not.
pytestmark = [pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints")]


def _run(qtbot, worker: TaskWorker, timeout: int = 10_000) -> WorkerRunner:
    runner = WorkerRunner()
    with qtbot.waitSignal(runner.finished, timeout=timeout):
        runner.start(worker)
    return runner


def test_workers_result_arrives_on_gui_thread(qtbot) -> None:
    from PySide6.QtCore import QObject, QThread, Slot

    gui_thread = QThread.currentThread()
    results: list[tuple[object, bool]] = []

    class Receiver(QObject):
        """Lives on the GUI thread, so the worker's signals reach it queued."""

        @Slot(object)
        def take(self, result: object) -> None:
            results.append((result, QThread.currentThread() is gui_thread))

    receiver = Receiver()

    def task(progress, should_stop):
        assert QThread.currentThread() is not gui_thread
        progress(0.5, "half")
        return 42

    worker = TaskWorker(task, "Test")
    worker.succeeded.connect(receiver.take)
    _run(qtbot, worker)
    assert results == [(42, True)]


@pytest.mark.parametrize(
    "exc, expected_message, has_details",
    [
        (InputError("talk.srt", "timestamp goes backwards", line=12), "talk.srt, line 12: timestamp goes backwards", False),
        (RuntimeError("boom"), "Test failed unexpectedly: RuntimeError: boom", True),
        (MemoryError(), "Test ran out of memory", True),
    ],
)
def test_workers_failure_is_a_message(qtbot, exc, expected_message, has_details) -> None:
    failures: list[tuple[str, str]] = []

    def task(progress, should_stop):
        raise exc

    worker = TaskWorker(task, "Test")
    worker.failed.connect(lambda m, d: failures.append((m, d)))
    _run(qtbot, worker)
    assert len(failures) == 1
    message, details = failures[0]
    assert message.startswith(expected_message)
    assert "Traceback" not in message
    assert bool(details) == has_details


def test_workers_cancel_stops_within_a_second(qtbot) -> None:
    started = []

    def task(progress, should_stop):
        started.append(time.monotonic())
        for i in range(10_000):
            if should_stop():
                raise AlignmentCancelled()
            time.sleep(0.01)
            progress(i / 10_000, "working")
        return "finished"

    worker = TaskWorker(task, "Test")
    cancelled: list[bool] = []
    worker.cancelled.connect(lambda: cancelled.append(True))
    succeeded: list[object] = []
    worker.succeeded.connect(succeeded.append)
    runner = WorkerRunner()
    runner.start(worker)
    qtbot.waitUntil(lambda: bool(started), timeout=5000)
    time.sleep(0.1)
    t0 = time.monotonic()
    with qtbot.waitSignal(runner.finished, timeout=5000):
        runner.cancel()
    assert time.monotonic() - t0 < 1.0
    assert cancelled == [True] and succeeded == []
    assert not runner.busy


def test_workers_progress_is_throttled(qtbot) -> None:
    def task(progress, should_stop):
        for i in range(20_000):
            progress(i / 20_000, "embedding")
        progress(1.0, "aligning")
        return None

    worker = TaskWorker(task, "Test")
    seen: list[tuple[float, str]] = []
    worker.progressed.connect(lambda f, m: seen.append((f, m)))
    _run(qtbot, worker)
    # 20,000 calls collapse to a handful of visible changes; the new stage always shows.
    assert 1 < len(seen) < 200
    assert seen[-1] == (1.0, "aligning")
    fractions = [f for f, _ in seen]
    assert fractions == sorted(fractions)


def test_workers_runner_refuses_a_second_worker(qtbot) -> None:
    def slow(progress, should_stop):
        while not should_stop():
            time.sleep(0.005)
        raise AlignmentCancelled()

    runner = WorkerRunner()
    runner.start(TaskWorker(slow, "Slow"))
    with pytest.raises(RuntimeError):
        runner.start(TaskWorker(slow, "Second"))
    with qtbot.waitSignal(runner.finished, timeout=5000):
        runner.cancel()


def test_workers_gui_thread_stays_responsive(qtbot) -> None:
    """A Python-heavy task in the worker must not stall the GUI thread (heartbeat gaps)."""
    from PySide6.QtCore import QTimer

    def busy(progress, should_stop):
        end = time.monotonic() + 1.5
        total = 0
        i = 0
        while time.monotonic() < end:
            total += sum(range(2000))
            i += 1
            progress(min(1.0, i / 3000), "crunching")
            if should_stop():
                raise AlignmentCancelled()
        return total

    beats: list[float] = []
    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(lambda: beats.append(time.perf_counter()))
    timer.start()
    _run(qtbot, TaskWorker(busy, "Busy"))
    timer.stop()
    gaps = [b - a for a, b in zip(beats, beats[1:])]
    assert len(gaps) > 20
    assert max(gaps) < 0.1, f"GUI thread stalled {max(gaps) * 1000:.0f} ms"


def test_workers_a_finished_worker_lets_wait_return_while_the_gui_thread_is_blocked(qtbot) -> None:
    """Closing the window waits for the workers without running the event loop: the thread must end by itself."""
    runner = WorkerRunner()
    runner.start(TaskWorker(lambda progress, should_stop: 1, "Quick"))
    time.sleep(0.3)  # the task is done; the GUI thread has not processed a single event
    started = time.monotonic()
    assert runner.wait(5000)
    assert time.monotonic() - started < 1.0
    qtbot.waitUntil(lambda: not runner.busy, timeout=2000)
