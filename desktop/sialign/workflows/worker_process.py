"""Long work in a worker process, so that a window's thread never waits for the interpreter lock.

Recognising speech (faster-whisper on CTranslate2) and aligning hold Python's
interpreter lock for long stretches: run on a thread of the app's process,
the practice booth's live engine stalled the window's thread for up to 0.6 s
(``tests/benchmarks/RESULTS_practice.md``). A worker process has a lock of
its own. Here:

- :func:`start_worker` starts one with the ``spawn`` method (no copy of the
  parent's Qt state or threads, and the only method on Windows and macOS) as a
  daemon, which ends with the process that started it
  (:func:`sialign.core.parent_guard.exit_with_parent`: on Linux the kernel
  kills it with the thread that started it, so start it from a thread that
  outlives it). The practice session's process
  (:mod:`sialign.workflows.practice_process`) is one.
- :func:`call_apart` runs one function in a fresh worker and waits for its
  value (call it from a worker thread, never a window's), relaying
  ``progress`` and ``should_stop``: a cancel is asked of the function first
  and the worker terminated after :data:`CANCEL_GRACE_S`. A transcription
  (:func:`sialign.workflows.recordings.transcribe_recordings_apart`) and the
  booth's review of a recorded rendition run this way.
- An exception crosses as itself when it survives pickling, else as a
  :class:`~sialign.core.errors.SialignError` with the same message and
  settings (:func:`portable_error`), so the front ends word it as ever; a
  worker that dies says so in one line (:class:`WorkerDied`).

The module imports nothing heavy and no Qt: the worker imports it first. A
frozen (PyInstaller) program reaches the worker through
``multiprocessing.freeze_support()`` in its entry point.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import queue
import time
import traceback
from collections.abc import Callable
from multiprocessing.process import BaseProcess
from typing import Any

from sialign.core.errors import AlignmentCancelled, SialignError
from sialign.core.progress import ProgressFn, StopFn
from sialign.core.remote import RemoteTraceback, end_process, one_line, portable_error

# How often a waiting caller looks at its should_stop and the worker's health.
POLL_S = 0.05
# How long a function may ignore a cancel before its worker is terminated.
CANCEL_GRACE_S = 3.0
# A worker reports progress at most this often (unless the message changes).
PROGRESS_INTERVAL_S = 0.04
# How long a worker that has ended may take to hand over what it sent last.
LAST_WORDS_S = 0.5


class WorkerDied(SialignError):
    """A worker process ended in the middle of its work (killed, or out of memory)."""


def died_message(what: str, exitcode: int | None) -> str:
    """What a worker's death is called, in one line."""
    return (f"{what} stopped unexpectedly (exit code {exitcode}), perhaps for lack of memory — close other programs "
            "and try again")


def start_worker(target: Callable[..., None], args: tuple[Any, ...], *, name: str) -> BaseProcess:
    """Start ``target(*args)`` in a new worker process (spawned, daemon, ending with this process) and return it.

    ``target`` and ``args`` are pickled: ``target`` must be a module-level function.
    """
    context = multiprocessing.get_context("spawn")  # no inherited threads or Qt state
    process = context.Process(target=_worker_main, args=(os.getpid(), target, args), name=name, daemon=True)
    process.start()
    return process


def _worker_main(parent_pid: int, target: Callable[..., None], args: tuple[Any, ...]) -> None:
    from sialign.core.parent_guard import exit_with_parent

    exit_with_parent(parent_pid)
    target(*args)


def call_apart(function: Callable[..., Any], *args: Any, progress: ProgressFn | None = None,
               should_stop: StopFn | None = None, what: str = "the worker process", **kwargs: Any) -> Any:
    """``function(*args, progress=..., should_stop=..., **kwargs)`` run in a fresh worker process; its value.

    Blocks until the function ends (call it from a worker thread). ``function``
    is a module-level function; its arguments and value are pickled.

    Args:
        what: how a message names the work when the worker dies ("the transcription").

    Raises:
        AlignmentCancelled: ``should_stop()`` said so (the function stops at its
            next check, or its worker is terminated after :data:`CANCEL_GRACE_S`).
        WorkerDied: the worker ended without an answer.
        Exception: what the function raised (:func:`portable_error`), with the
            worker's traceback chained as ``__cause__``.
    """
    context = multiprocessing.get_context("spawn")
    replies: Any = context.Queue()
    cancel = context.Event()
    process = start_worker(_run_call, (function, args, kwargs, replies, cancel), name="sialign-worker")
    cancelled_at: float | None = None
    try:
        while True:
            if cancelled_at is None and should_stop is not None and should_stop():
                cancel.set()
                cancelled_at = time.monotonic()
            if cancelled_at is not None and time.monotonic() - cancelled_at > CANCEL_GRACE_S:
                raise AlignmentCancelled()
            try:
                reply = pickle.loads(replies.get(timeout=POLL_S))
            except queue.Empty:
                if process.is_alive():
                    continue
                try:  # what it sent just before it ended
                    reply = pickle.loads(replies.get(timeout=LAST_WORDS_S))
                except queue.Empty:
                    if cancelled_at is not None:
                        raise AlignmentCancelled() from None
                    raise WorkerDied(died_message(what, process.exitcode)) from None
            except (EOFError, OSError) as exc:
                raise WorkerDied(f"lost contact with {what} ({exc}); try again") from exc
            kind = reply[0]
            if kind == "progress":
                if progress is not None and cancelled_at is None:
                    progress(reply[1], reply[2])
            elif kind == "result":
                return reply[1]
            elif kind == "cancelled":
                raise AlignmentCancelled()
            elif kind == "error":
                raise reply[1] from RemoteTraceback(reply[2])
    finally:
        _end(process, replies)


def _end(process: BaseProcess, replies: Any) -> None:
    """Let the worker go: it has answered (and leaves at once) or is terminated."""
    end_process(process, LAST_WORDS_S)
    replies.cancel_join_thread()  # never block on a pipe nobody reads any more
    replies.close()


def _send(replies: Any, reply: tuple[Any, ...]) -> None:
    """Put ``reply`` pickled here, so that one that cannot cross is said rather than lost in the queue's thread."""
    try:
        data = pickle.dumps(reply)
    except Exception as exc:
        data = pickle.dumps(("error", RuntimeError(f"the answer could not be sent back ({type(exc).__name__}: {exc})"),
                             traceback.format_exc()))
    replies.put(data)


def _run_call(function: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any], replies: Any,
              cancel: Any) -> None:
    """In the worker: run the function, send its progress and its one outcome, leave."""
    last_t, last_message = [0.0], [""]

    def progress(fraction: float, message: str) -> None:
        now = time.monotonic()
        if message != last_message[0] or now - last_t[0] >= PROGRESS_INTERVAL_S:
            last_t[0], last_message[0] = now, message
            _send(replies, ("progress", float(fraction), str(message)))

    try:
        value = function(*args, progress=progress, should_stop=cancel.is_set, **kwargs)
    except AlignmentCancelled:
        reply: tuple[Any, ...] = ("cancelled",)
    except BaseException as exc:  # every outcome is answered, KeyboardInterrupt included
        reply = ("error", portable_error(exc), traceback.format_exc())
    else:
        reply = ("cancelled",) if cancel.is_set() else ("result", value)
    _send(replies, reply)
    replies.close()
    replies.join_thread()
    leave_now()


def leave_now() -> None:
    """End this worker at once, once what it sends is sent.

    Without the interpreter's teardown, which a recogniser's threads could hold
    up; the named semaphores it made (tqdm's lock, in faster-whisper) are
    released first, so that none is reported leaked when the app ends.
    """
    from multiprocessing import util

    run_finalizers = getattr(util, "_run_finalizers", None)  # what a normal exit runs first
    try:
        if run_finalizers is not None:
            run_finalizers(0)
    finally:
        os._exit(0)


__all__ = [
    "CANCEL_GRACE_S",
    "RemoteTraceback",
    "WorkerDied",
    "call_apart",
    "died_message",
    "leave_now",
    "one_line",
    "portable_error",
    "start_worker",
]
