"""Work in a worker process: its value and progress come back, its errors as the app's, a cancel and a death in one line."""

from __future__ import annotations

import os
import time
from typing import Any

import pytest

from sialign.core.errors import AlignmentCancelled, InputError, SialignError
from sialign.workflows.worker_process import WorkerDied, call_apart, portable_error


def add_slowly(a: int, b: int, *, progress: Any, should_stop: Any, steps: int = 3) -> tuple[int, int]:
    for k in range(steps):
        progress(k / steps, f"step {k}")
        time.sleep(0.05)
    return a + b, os.getpid()


def refuse(path: str, *, progress: Any, should_stop: Any) -> None:
    raise InputError(path, "it is not a recording", hint="choose a WAV file")


def wait_for_cancel(*, progress: Any, should_stop: Any) -> None:
    progress(0.0, "waiting")
    while not should_stop():
        time.sleep(0.01)
    raise AlignmentCancelled()


def ignore_cancel(*, progress: Any, should_stop: Any) -> None:
    progress(0.0, "busy")
    time.sleep(60)


def die(*, progress: Any, should_stop: Any) -> None:
    progress(0.0, "about to die")
    os._exit(3)


def test_the_value_and_the_progress_come_back_from_another_process() -> None:
    seen: list[tuple[float, str]] = []
    total, pid = call_apart(add_slowly, 2, 3, progress=lambda f, m: seen.append((f, m)), steps=4)
    assert total == 5 and pid != os.getpid()
    assert [m for _, m in seen] == ["step 0", "step 1", "step 2", "step 3"]


def test_an_application_error_crosses_with_its_message_and_settings() -> None:
    with pytest.raises(SialignError) as caught:
        call_apart(refuse, "/nowhere/talk.txt")
    assert str(caught.value) == str(InputError("/nowhere/talk.txt", "it is not a recording", hint="choose a WAV file"))
    assert "in the worker process" in str(caught.value.__cause__)
    unpicklable = InputError("x", "bad", hint="h")
    unpicklable.settings = ("src_audio",)
    portable = portable_error(unpicklable)
    assert type(portable) in (InputError, SialignError) and portable.settings == ("src_audio",)


def test_a_cancel_stops_the_work_and_a_worker_deaf_to_it_is_terminated(monkeypatch: pytest.MonkeyPatch) -> None:
    from sialign.workflows import worker_process

    started: list[float] = []
    stop_at = [0.0]

    def should_stop() -> bool:
        return bool(started) and time.monotonic() >= stop_at[0]

    def progress(fraction: float, message: str) -> None:
        if not started:
            started.append(time.monotonic())
            stop_at[0] = started[0] + 0.2

    with pytest.raises(AlignmentCancelled):
        call_apart(wait_for_cancel, progress=progress, should_stop=should_stop)
    assert time.monotonic() - started[0] < 2.0
    monkeypatch.setattr(worker_process, "CANCEL_GRACE_S", 0.5)
    started.clear()
    began = time.monotonic()
    with pytest.raises(AlignmentCancelled):
        call_apart(ignore_cancel, progress=progress, should_stop=should_stop)
    assert time.monotonic() - began < 15.0  # not the minute it would sleep


def test_a_worker_that_dies_is_said_in_one_line() -> None:
    with pytest.raises(WorkerDied) as caught:
        call_apart(die, what="the transcription")
    message = str(caught.value)
    assert message.startswith("the transcription stopped unexpectedly (exit code 3)") and "\n" not in message
