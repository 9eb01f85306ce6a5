"""Filter scoring in a separate process, so that loading GiNZA never freezes the GUI.

Importing spaCy, GiNZA and SudachiPy and loading ``ja_ginza`` takes about
ten seconds and 1.8 GB, and most of it holds the interpreter lock: in a
thread of the GUI process the window froze for up to a second at a time.
A :class:`ScoringProcess` runs the work in one long-lived child process
instead, started with the ``spawn`` method (no copy of the parent's Qt
state or threads, and the only method on Windows and macOS) the first time
it is needed, so GiNZA loads once per session and later scorings are fast.

Protocol (parent ↔ child, over two ``multiprocessing`` queues):

- request ``(job, function, args)``: the child calls
  ``function(*args, progress=..., should_stop=...)``; ``function`` is a
  module-level function (pickled by name);
- replies ``(job, "started")``, ``(job, "progress", fraction, message)``
  (throttled), then exactly one of ``(job, "result", value)``,
  ``(job, "error", exception, traceback_text)`` or ``(job, "cancelled")``.

Cancellation is per job: the parent writes the job's number into a shared
integer that the child's ``should_stop`` compares with its current job, so
a stale cancel can never stop a later job. A job that does not stop within
:data:`CANCEL_GRACE_S` of being cancelled gets the child terminated (the
last resort; the next job starts a fresh child). :meth:`ScoringProcess.warm_up`
loads GiNZA ahead of time without waiting for it; cancelling a scoring that
is only waiting for that load leaves the load running, since the next
scoring needs it.

The module imports nothing heavy and no Qt: the child imports it to run
jobs, and a frozen (PyInstaller) program reaches the child through
``multiprocessing.freeze_support()`` in its entry point.
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import queue
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from typing import Any

from sialign.core.errors import AlignmentCancelled, SialignError
from sialign.core.model import Project
from sialign.core.progress import ProgressFn, StopFn
from sialign.core.remote import RemoteTraceback, end_process, portable_error

# How often the waiting parent looks at its should_stop and the child's health.
POLL_S = 0.05
# How long a started job may ignore a cancel before its process is terminated.
CANCEL_GRACE_S = 3.0
# How often an idle child checks that the application still runs.
PARENT_CHECK_S = 1.0
# How long shutdown waits for the child to leave on its own.
SHUTDOWN_GRACE_S = 2.0
# The child sends a progress report at most this often (unless the message changes).
CHILD_PROGRESS_INTERVAL_S = 0.04

_STOP_REQUEST = None  # the request that tells the child to exit


class ScoringProcessDied(SialignError):
    """The scoring process ended in the middle of a job (killed, or out of memory)."""


def _child_main(requests: Any, replies: Any, cancelled_job: Any) -> None:
    """The child's loop: run requests one at a time until the stop request (or the parent is gone)."""
    parent = multiprocessing.parent_process()
    while True:
        try:
            request = requests.get(timeout=PARENT_CHECK_S)
        except queue.Empty:
            # The child holds both ends of the request pipe, so a parent that
            # was killed never shows as end-of-file: look at the parent itself.
            if parent is not None and not parent.is_alive():
                return
            continue
        except (EOFError, OSError, KeyboardInterrupt):
            return
        if request is _STOP_REQUEST:
            # Leave without the interpreter's teardown: freeing GiNZA's
            # objects one by one takes most of a second, and the parent may
            # be waiting for this exit on quit. Replies are flushed first.
            replies.close()
            replies.join_thread()
            os._exit(0)
        job, function, args = request
        if cancelled_job.value >= job:  # cancelled while it waited behind another job
            replies.put((job, "cancelled"))
            continue
        replies.put((job, "started"))
        last_t, last_message = [0.0], [""]

        def progress(fraction: float, message: str, job: int = job) -> None:
            now = time.monotonic()
            if message != last_message[0] or now - last_t[0] >= CHILD_PROGRESS_INTERVAL_S:
                last_t[0], last_message[0] = now, message
                replies.put((job, "progress", float(fraction), str(message)))

        def should_stop(job: int = job) -> bool:
            return cancelled_job.value >= job

        try:
            value = function(*args, progress=progress, should_stop=should_stop)
        except AlignmentCancelled:
            replies.put((job, "cancelled"))
        except BaseException as exc:
            replies.put((job, "error", portable_error(exc), traceback.format_exc()))
            if not isinstance(exc, Exception):
                return  # KeyboardInterrupt, SystemExit: leave
        else:
            if should_stop():
                replies.put((job, "cancelled"))
            else:
                replies.put((job, "result", value))


class ScoringProcess:
    """One child process that runs jobs in order; the parent waits for one job at a time.

    :meth:`call` blocks (in a worker thread, never the GUI thread) until the
    job ends, relaying progress and cancellation. Thread-safe: calls from
    several threads queue up behind each other.
    """

    def __init__(self) -> None:
        self._context = multiprocessing.get_context("spawn")
        self._lock = threading.RLock()  # guards the fields below
        self._call_lock = threading.Lock()  # one waiting caller reads the replies
        self._process: Any = None
        self._requests: Any = None
        self._replies: Any = None
        self._cancelled_job: Any = None
        self._next_job = 1

    # -- life cycle ----------------------------------------------------------------
    @property
    def running(self) -> bool:
        """Whether the child process is alive."""
        with self._lock:
            return self._process is not None and self._process.is_alive()

    @property
    def pid(self) -> int | None:
        with self._lock:
            return self._process.pid if self._process is not None else None

    def _ensure_started(self) -> None:
        with self._lock:
            if self._process is not None and self._process.is_alive():
                return
            self._discard()
            ctx = self._context
            self._requests = ctx.Queue()
            self._replies = ctx.Queue()
            self._cancelled_job = ctx.RawValue("q", 0)
            # A job number never repeats, even across restarts: a reply of an
            # earlier child can never be taken for a later job's.
            self._cancelled_job.value = self._next_job - 1
            process = ctx.Process(
                target=_child_main,
                args=(self._requests, self._replies, self._cancelled_job),
                name="sialign-scoring",
                daemon=True,  # never outlives the application, even if shutdown is skipped
            )
            process.start()
            self._process = process

    def _discard(self) -> None:
        """Forget a dead child and its queues."""
        for q in (self._requests, self._replies):
            if q is not None:
                q.cancel_join_thread()  # never block exit on a pipe nobody reads
                q.close()
        self._process = self._requests = self._replies = self._cancelled_job = None

    def shutdown(self, timeout_s: float = SHUTDOWN_GRACE_S) -> None:
        """Stop the child: ask it to leave, terminate it if it does not within ``timeout_s``."""
        with self._lock:
            process = self._process
            if process is None:
                return
            if process.is_alive():
                # Whatever runs now stops at its next check.
                self._cancelled_job.value = self._next_job
                try:
                    self._requests.put(_STOP_REQUEST)
                except (OSError, ValueError):
                    pass
                process.join(timeout_s)
            self._terminate_locked()

    def terminate(self) -> None:
        """Kill the child now (the last resort: a job that ignores cancellation)."""
        with self._lock:
            self._terminate_locked()

    def _terminate_locked(self) -> None:
        process = self._process
        if process is None:
            return
        end_process(process)
        self._discard()

    # -- jobs ----------------------------------------------------------------------
    def _submit(self, function: Callable[..., Any], args: tuple[Any, ...]) -> int:
        with self._lock:
            self._ensure_started()
            job = self._next_job
            self._next_job += 1
            self._requests.put((job, function, args))
            return job

    def warm_up(self, function: Callable[..., Any], *args: Any) -> None:
        """Start ``function`` in the child without waiting for it (preloading); failures are ignored.

        Whatever it loads is there for later jobs; a failure (GiNZA missing)
        shows up again, as a readable error, in the job that needs it.
        """
        self._submit(function, args)

    def call(
        self,
        function: Callable[..., Any],
        *args: Any,
        progress: ProgressFn | None = None,
        should_stop: StopFn | None = None,
        terminate_on_cancel: bool = True,
    ) -> Any:
        """Run ``function(*args, progress=, should_stop=)`` in the child and return its value.

        A cancel stops this job and any earlier one still running (whose
        callers have already given up on them).

        Args:
            terminate_on_cancel: terminate the child when the job has not
                stopped :data:`CANCEL_GRACE_S` after a cancel. False for work
                that cannot stop midway but is worth finishing (loading
                GiNZA): the call returns at once and the child finishes it.

        Raises:
            AlignmentCancelled: ``should_stop()`` said so (the child stops at
                its next check, or is terminated after :data:`CANCEL_GRACE_S`).
            ScoringProcessDied: the child ended during the job.
            Exception: whatever the function raised, with the child's
                traceback chained as ``__cause__``.
        """
        with self._call_lock:
            job = self._submit(function, args)
            with self._lock:
                replies, process, cancelled_job = self._replies, self._process, self._cancelled_job
            started = False
            cancel_at: float | None = None
            while True:
                if cancel_at is None and should_stop is not None and should_stop():
                    cancel_at = time.monotonic()
                    cancelled_job.value = max(cancelled_job.value, job)
                    if not started or not terminate_on_cancel:
                        # Queued behind another job (a warm-up loading GiNZA):
                        # the child will skip it. Or it cannot stop midway and
                        # is worth finishing. Either way nothing to wait for.
                        raise AlignmentCancelled()
                if cancel_at is not None and time.monotonic() - cancel_at > CANCEL_GRACE_S:
                    self.terminate()
                    raise AlignmentCancelled()
                try:
                    reply = replies.get(timeout=POLL_S)
                except queue.Empty:
                    if not process.is_alive():
                        code = process.exitcode
                        with self._lock:
                            if self._process is process:
                                self._discard()
                        if cancel_at is not None:
                            raise AlignmentCancelled() from None
                        raise ScoringProcessDied(
                            f"the scoring process stopped unexpectedly (exit code {code}), perhaps for lack of "
                            "memory — close other programs and try again"
                        ) from None
                    continue
                except (EOFError, OSError) as exc:
                    self.terminate()
                    raise ScoringProcessDied(f"lost contact with the scoring process ({exc}); try again") from exc
                reply_job, kind = reply[0], reply[1]
                if reply_job != job:
                    continue  # a warm-up's or a cancelled job's late reply
                if kind == "started":
                    started = True
                elif kind == "progress":
                    if progress is not None and cancel_at is None:
                        progress(reply[2], reply[3])
                elif kind == "result":
                    return reply[2]
                elif kind == "cancelled":
                    raise AlignmentCancelled()
                elif kind == "error":
                    error, text = reply[2], reply[3]
                    raise error from RemoteTraceback(text, "the scoring process")


# -- the application's scoring process --------------------------------------------
_SHARED: ScoringProcess | None = None
_SHARED_LOCK = threading.Lock()


def scoring_process() -> ScoringProcess:
    """The application's scoring process (created on first use; the child starts with the first job)."""
    global _SHARED
    with _SHARED_LOCK:
        if _SHARED is None:
            _SHARED = ScoringProcess()
            atexit.register(shutdown)
        return _SHARED


def shutdown() -> None:
    """Stop the application's scoring process, if one runs (on quit; safe to call twice)."""
    with _SHARED_LOCK:
        process = _SHARED
    if process is not None:
        process.shutdown()


def needs_japanese(project: Project) -> bool:
    """Whether scoring ``project`` runs GiNZA (a Japanese interpretation or usable reference).

    The same test as :func:`sialign.filters.score_beads`: a reference counts
    only when it has a sentence for every source sentence.
    """
    reference = project.reference
    usable = reference is not None and len(reference) == len(project.source)
    docs = [project.target] + ([reference] if usable and reference is not None else [])
    return any(doc.language.split("-")[0].lower() == "ja" for doc in docs)


def load_japanese(*, progress: ProgressFn | None = None, should_stop: StopFn | None = None) -> bool:
    """Load GiNZA in this process (run in the child); True when it was already loaded."""
    from sialign.text.japanese import ginza_loaded, ginza_nlp

    if ginza_loaded():
        return True
    if progress is not None:
        progress(0.0, "Loading the Japanese analyser (GiNZA; first time only)")
    ginza_nlp()
    return False


def _score(project: Project, content_pos: Sequence[str] | None, *, progress: ProgressFn, should_stop: StopFn) -> Any:
    from sialign.filters.scores import score_beads

    return score_beads(project, content_pos=content_pos, progress=progress, should_stop=should_stop)


def warm_up_japanese() -> None:
    """Load GiNZA in the scoring process in the background (returns at once)."""
    scoring_process().warm_up(load_japanese)


def score_beads_in_process(
    project: Project,
    *,
    content_pos: Sequence[str] | None = None,
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
    process: ScoringProcess | None = None,
) -> Any:
    """:func:`sialign.filters.score_beads` run in the scoring process; returns its ``BeadScores``.

    Blocks until done, so call it from a worker thread. For a Japanese talk
    GiNZA is loaded first, as a job of its own: a cancel during the load
    returns at once and leaves the load to finish for the next scoring.

    Args:
        project: the project to score (pickled to the child; pass a snapshot
            the GUI will not change meanwhile).
        content_pos: POS tags of the intra filter (None: the project's).
        process: the process to use; the application's shared one by default.
    """
    from sialign.core.progress import stage

    process = process if process is not None else scoring_process()
    if needs_japanese(project):
        process.call(load_japanese, progress=stage(progress, 0.0, 0.05), should_stop=should_stop, terminate_on_cancel=False)
    return process.call(
        _score, project, tuple(content_pos) if content_pos is not None else None,
        progress=stage(progress, 0.05, 1.0), should_stop=should_stop,
    )
