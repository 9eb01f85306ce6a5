"""A practice session driven by commands that return at once, in a worker process or on threads of this one.

The booth's window must never wait for the session's engine: the live
recogniser (faster-whisper on CTranslate2) and the aligner hold Python's
interpreter lock for long stretches, and with them on threads of the app's
process the window's thread stalled for up to 0.6 s
(``tests/benchmarks/RESULTS_practice.md``). Here the same
:class:`~sialign.workflows.practice_session.PracticeSession` is driven by
commands and says what happens as events:

- :class:`PracticeProcess` runs it in a worker process
  (:func:`~sialign.workflows.worker_process.start_worker`: spawned, ending
  with the app): the live recogniser and aligner, the recorder's audio I/O
  with them, the full pass at Stop and the save. The booth's window uses it.
- :class:`PracticeThreads` runs it on threads of this process: for the
  engines a test or a screenshot puts in
  (:class:`~sialign.workflows.practice_session.SessionParts`, which cannot
  cross into another process), and inside the worker process itself, where
  :class:`PracticeProcess`'s commands arrive.

``sialign practice`` drives a :class:`PracticeSession` itself: a command line
has no window to keep awake.

Both drivers have a session's operations (:class:`SessionDriver`):
:meth:`~PracticeThreads.prepare`, ``start``, ``feed``, ``pause``, ``resume``,
``status``, ``stop``, ``full_pass``, ``save``, ``cancel``, ``abandon`` and
``close``, each returning at once, and ``poll``, which returns the events
that came since it was last called without waiting (a window calls it on a
timer). The long steps (prepare, start, stop, full pass, save) run one after
another in the order asked; ``cancel`` stops the one running at its next
check and those still waiting.

============== =================================================================
event          when
============== =================================================================
Progressed     a long step moved on (fraction, message)
Prepared       the talk is read and the models loaded (:class:`SessionFacts`)
Started        the talk plays and the microphone records (a file may be fed)
LiveUpdated    the live alignment changed (a :class:`LiveUpdate`)
Ticked         the clock and the microphone's level (from the worker process,
               every :data:`TICK_S` while the session runs)
Fed            a rendition file has been fed to its end
Stopped        Stop: the recording is finished, the live pass ended; the
               project the live view left
FullPassed     the full pass's project
Saved          the project was written
Abandoned      the session was let go (a recording stops, its file is kept)
Cancelled      a long step stopped on ``cancel``
Failed         a step failed: the error, shown in one line (also when the
               worker process died)
============== =================================================================
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import os
import pickle
import queue
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any, Protocol

from sialign.core.errors import AlignmentCancelled, SialignError
from sialign.core.model import Document, Project
from sialign.core.progress import ProgressFn, StopFn, check_stop, stage
from sialign.core.remote import end_process
from sialign.workflows.booth import BoothTalk, TalkChoice, read_booth_talk, session_files
from sialign.workflows.outputs import Written
from sialign.workflows.practice_session import (
    LiveResult,
    LiveUpdate,
    Microphone,
    PracticeSession,
    RecordingResult,
    RenditionFile,
    SessionParts,
    SessionStatus,
    UpdateFn,
)
from sialign.workflows.worker_process import WorkerDied, died_message, leave_now, one_line, portable_error, start_worker

# How often the worker process sends the session's clock and level while it runs.
TICK_S = 0.1
# A step's progress is sent at most this often (unless its message changes).
PROGRESS_INTERVAL_S = 0.04
# The worker process's niceness above the app's. When other programs keep the CPUs busy, the window's thread
# (asleep between events) then gets a CPU before the recogniser's threads rather than after a scheduler's round:
# at the same priority it waited up to 197 ms at a time without running, at +5 at most 95 ms (four runs under
# load 3-4 on two cores, tests/benchmarks/RESULTS_practice.md). The recorder's audio thread is asleep between blocks too, so
# a waking scheduler should still run it promptly (not tried with a microphone); the recogniser yields only to
# what runs at a higher priority, and only while the CPUs are all busy.
ENGINE_NICE = 5
# How long a closed worker process may take to leave before it is terminated.
CLOSE_GRACE_S = 5.0
# What a message calls the worker process.
PROCESS_NAME = "the practice session's process"


# -- what a session is made of ------------------------------------------------------------
@dataclass(frozen=True)
class SessionRecipe:
    """How a driver makes its session (it crosses into the worker process, so it holds only plain values).

    Attributes:
        talk: the talk as the booth offers it (:class:`TalkChoice`: read when the session is prepared, the
            session's files named beside it) or a talk already read (:class:`BoothTalk`).
        tgt_lang: the interpretation's language.
        model: the Whisper model folder (or a name the registry knows, for a :class:`TalkChoice`).
        rendition: None: the microphone, recorded into a new file beside the talk (a :class:`TalkChoice` only);
            :class:`Microphone`; or :class:`RenditionFile`, fed as if it came from the microphone.
        input_device / output_device: the devices when ``rendition`` is None.
        project_path: where the session's project is to be saved (default: beside the talk, for a :class:`TalkChoice`).
        events: a JSON-lines file for every bead shown or revised.
        threads: CPU threads for the live recogniser and the full pass (None: their defaults).
    """

    talk: TalkChoice | BoothTalk
    tgt_lang: str
    model: str | Path
    rendition: Microphone | RenditionFile | None = None
    input_device: int | str | None = None
    output_device: int | str | None = None
    project_path: Path | None = None
    events: Path | None = None
    threads: int | None = None

    def __post_init__(self) -> None:
        if self.rendition is None and not isinstance(self.talk, TalkChoice):
            raise ValueError("a talk already read needs its rendition: a Microphone with its recording, or a RenditionFile")


def make_session(recipe: SessionRecipe, *, parts: SessionParts | None = None, on_update: UpdateFn | None = None,
                 progress: ProgressFn | None = None, should_stop: StopFn | None = None) -> PracticeSession:
    """The prepared session of ``recipe`` (seconds: the talk is read, the models loaded).

    Raises:
        as :func:`~sialign.workflows.booth.read_booth_talk` and :meth:`PracticeSession.prepare`.
    """
    talk, project_path, rest = recipe.talk, recipe.project_path, progress
    rendition = recipe.rendition
    if isinstance(talk, TalkChoice):
        talk = read_booth_talk(talk, tgt_lang=recipe.tgt_lang, model=recipe.model, progress=stage(progress, 0.0, 0.5),
                               should_stop=should_stop)
        recording, beside = session_files(talk)
        project_path = project_path or beside
        if rendition is None:
            rendition = Microphone(recording, recipe.input_device, recipe.output_device)
        rest = stage(progress, 0.5, 1.0)
    assert rendition is not None
    check_stop(should_stop)
    session = PracticeSession(talk, tgt_lang=recipe.tgt_lang, model=Path(recipe.model), rendition=rendition,
                              project_path=project_path, on_update=on_update, events=recipe.events,
                              threads=recipe.threads, parts=parts)
    session.prepare(rest, should_stop)
    return session


# -- what a driver tells ------------------------------------------------------------------
@dataclass(frozen=True)
class SessionFacts:
    """What a front end shows of a prepared session.

    Attributes:
        talk_id / origin: the talk, and where it came from (a project, a file, a recording).
        source: the talk's source sentences (the live table's rows).
        recording: the rendition's recording (to be recorded into, or the file fed).
        project_path: where the session's project is to be saved (None when not named).
        from_file: the rendition is a file fed as if it came from the microphone.
    """

    talk_id: str
    origin: str
    source: Document
    recording: Path
    project_path: Path | None
    from_file: bool


@dataclass(frozen=True)
class Progressed:
    step: str
    fraction: float
    message: str


@dataclass(frozen=True)
class Prepared:
    facts: SessionFacts


@dataclass(frozen=True)
class Started:
    pass


@dataclass(frozen=True)
class LiveUpdated:
    update: LiveUpdate


@dataclass(frozen=True)
class Ticked:
    status: SessionStatus


@dataclass(frozen=True)
class Fed:
    seconds: float


@dataclass(frozen=True)
class Stopped:
    """Stop has ended the recording and the live pass.

    Attributes:
        live: what the live aligner produced.
        recorded: what the recorder wrote (None for a file).
        project: the session as the live view left it (:meth:`PracticeSession.shown_project`).
    """

    live: LiveResult
    recorded: RecordingResult | None
    project: Project


@dataclass(frozen=True)
class FullPassed:
    project: Project


@dataclass(frozen=True)
class Saved:
    written: Written


@dataclass(frozen=True)
class Abandoned:
    recorded: RecordingResult | None


@dataclass(frozen=True)
class Cancelled:
    step: str


@dataclass(frozen=True)
class Failed:
    """A step failed (``step``: ``prepare``, ``start``, ``feed``, ``stop``, ``full_pass``, ``save``).

    ``error`` is what was raised (an application error keeps its message and settings, so a front end words it
    as its own); ``details`` the traceback, for a bug report.
    """

    step: str
    error: BaseException
    details: str = ""

    @property
    def message(self) -> str:
        """The error in one line."""
        error = self.error
        text = str(error) if isinstance(error, SialignError) else f"{type(error).__name__}: {error}"
        return one_line(text)


SessionEvent = (Progressed | Prepared | Started | LiveUpdated | Ticked | Fed | Stopped | FullPassed | Saved | Abandoned
                | Cancelled | Failed)


class EventSink(Protocol):
    def put(self, event: SessionEvent) -> None: ...


class SessionDriver(Protocol):
    """The operations of a session driven by commands (:class:`PracticeThreads`, :class:`PracticeProcess`)."""

    facts: SessionFacts | None

    def prepare(self) -> None: ...

    def start(self) -> None: ...

    def feed(self) -> None: ...

    def pause(self) -> None: ...

    def resume(self) -> None: ...

    def status(self) -> SessionStatus: ...

    def stop(self) -> None: ...

    def full_pass(self) -> None: ...

    def save(self, project: Project, path: str | Path, *, force: bool = False, discard_recovery: bool = False,
             program: str = "a sialign command") -> None: ...

    def cancel(self) -> None: ...

    def abandon(self) -> None: ...

    def close(self, wait_s: float = 0.0) -> None: ...

    def poll(self) -> list[SessionEvent]: ...

    @property
    def recording_path(self) -> Path | None: ...

    @property
    def project_path(self) -> Path | None: ...


# -- on threads of this process ------------------------------------------------------------
Work = Callable[[ProgressFn, StopFn], SessionEvent]


class PracticeThreads:
    """A session driven by commands on threads of this process.

    The long steps run one after another on a thread of their own, a file is fed on another, and the live
    aligner's updates come from its thread; every outcome is put into ``sink`` as an event (default: a queue
    that :meth:`poll` empties). :meth:`pause`, :meth:`resume`, :meth:`status` and :meth:`abandon` act at once
    on the caller's thread.

    Args:
        recipe: the session to make.
        parts: the engines (default: the real ones; fakes only here, never in :class:`PracticeProcess`).
        sink: where the events go (the worker process's queue); None: :meth:`poll` returns them.

    Attributes:
        engine: the session, once prepared.
        facts: what a front end shows of it, once prepared.
        running: started and not yet stopped.
    """

    def __init__(self, recipe: SessionRecipe, *, parts: SessionParts | None = None, sink: EventSink | None = None) -> None:
        self.recipe = recipe
        self.parts = parts
        self._inbox: queue.SimpleQueue[SessionEvent] = queue.SimpleQueue()
        self._sink: EventSink = sink if sink is not None else self._inbox
        self.engine: PracticeSession | None = None
        self.facts: SessionFacts | None = None
        self.running = False
        self.closed = False
        self._lock = threading.Lock()  # guards the job numbers and the threads below
        self._jobs: queue.SimpleQueue[tuple[int, str, Work] | None] = queue.SimpleQueue()
        self._submitted = 0
        self._cancelled_upto = 0
        self._worker: threading.Thread | None = None
        self._feeder: threading.Thread | None = None
        self._stop_feed = threading.Event()

    # -- the plumbing ---------------------------------------------------------------------
    def _emit(self, event: SessionEvent) -> None:
        self._sink.put(event)

    def _submit(self, step: str, work: Work) -> None:
        with self._lock:
            if self.closed:
                return
            self._submitted += 1
            self._jobs.put((self._submitted, step, work))
            if self._worker is None:
                self._worker = threading.Thread(target=self._work, name="practice-session-steps", daemon=True)
                self._worker.start()

    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            number, step, work = job

            def should_stop(number: int = number) -> bool:
                return self.closed or self._cancelled_upto >= number

            try:
                check_stop(should_stop)  # cancelled while it waited
                event = work(self._progress(step), should_stop)
                check_stop(should_stop)  # cancelled while it ran: its result is not wanted
            except AlignmentCancelled:
                self._emit(Cancelled(step))
            except Exception as exc:
                self._emit(Failed(step, exc, traceback.format_exc()))
            else:
                self._emit(event)

    def _progress(self, step: str) -> ProgressFn:
        last_t, last_message = [0.0], [""]

        def progress(fraction: float, message: str) -> None:
            now = time.monotonic()
            if message != last_message[0] or now - last_t[0] >= PROGRESS_INTERVAL_S:
                last_t[0], last_message[0] = now, message
                self._emit(Progressed(step, float(fraction), str(message)))

        return progress

    def _engine(self) -> PracticeSession:
        if self.engine is None:
            raise RuntimeError("the session has not been prepared")
        return self.engine

    def _updated(self, update: LiveUpdate) -> None:
        """On the live aligner's thread."""
        self._emit(LiveUpdated(update))

    # -- the operations -------------------------------------------------------------------
    def prepare(self) -> None:
        """Read the talk and load the models (:func:`make_session`); then :class:`Prepared`."""
        self._submit("prepare", self._prepare)

    def _prepare(self, progress: ProgressFn, should_stop: StopFn) -> SessionEvent:
        engine = make_session(self.recipe, parts=self.parts, on_update=self._updated, progress=progress,
                              should_stop=should_stop)
        self.engine = engine
        self.facts = SessionFacts(engine.talk.talk_id, engine.talk.origin, engine.talk.source, engine.recording_path,
                                  engine.project_path, isinstance(engine.rendition, RenditionFile))
        return Prepared(self.facts)

    def start(self) -> None:
        """Play the talk and record (:meth:`PracticeSession.start`), after the steps asked before; then :class:`Started`."""
        self._submit("start", self._start)

    def _start(self, progress: ProgressFn, should_stop: StopFn) -> SessionEvent:
        self._engine().start()  # a session that cannot start lets its live aligner go
        self.running = True
        return Started()

    def feed(self) -> None:
        """Feed the rendition file on a thread of its own (until its end or Stop); then :class:`Fed`."""
        engine = self.engine
        with self._lock:
            if engine is None or self._feeder is not None or self.closed:
                return
            self._stop_feed.clear()
            self._feeder = threading.Thread(target=self._feed, args=(engine,), name="practice-feed", daemon=True)
            self._feeder.start()

    def _feed(self, engine: PracticeSession) -> None:
        try:
            seconds = engine.feed(should_stop=self._stop_feed.is_set)
        except Exception as exc:
            self._emit(Failed("feed", exc, traceback.format_exc()))
        else:
            self._emit(Fed(seconds))

    def pause(self) -> None:
        if self.engine is not None:
            self.engine.pause()

    def resume(self) -> None:
        if self.engine is not None:
            self.engine.resume()

    def status(self) -> SessionStatus:
        """The clock and the microphone's level now."""
        return self.engine.status() if self.engine is not None else SessionStatus(elapsed_s=0.0)

    def stop(self) -> None:
        """End the recording (or the feeding) and the live pass (:meth:`PracticeSession.stop`); then :class:`Stopped`."""
        self._stop_feed.set()
        self._submit("stop", self._stop)

    def _stop(self, progress: ProgressFn, should_stop: StopFn) -> SessionEvent:
        feeder = self._feeder
        if feeder is not None:
            feeder.join()
        engine = self._engine()
        live = engine.stop(progress)
        self.running = False
        return Stopped(live, engine.recorded, engine.shown_project())

    def full_pass(self) -> None:
        """The session's project from the full pass over the recording (:meth:`PracticeSession.full_pass`);
        then :class:`FullPassed`."""
        self._submit("full_pass", lambda progress, should_stop: FullPassed(self._engine().full_pass(progress, should_stop)))

    def save(self, project: Project, path: str | Path, *, force: bool = False, discard_recovery: bool = False,
             program: str = "a sialign command") -> None:
        """Write ``project`` to ``path`` atomically (:meth:`PracticeSession.save`); then :class:`Saved`."""
        self._submit("save", lambda progress, should_stop: Saved(self._engine().save(
            project, path, force=force, discard_recovery=discard_recovery, program=program)))

    def cancel(self) -> None:
        """Stop the step running at its next check, and those still waiting (each then :class:`Cancelled`)."""
        with self._lock:
            self._cancelled_upto = self._submitted

    def abandon(self) -> None:
        """Let the session go now (:meth:`PracticeSession.abandon`: a recording stops, its file is kept); then
        :class:`Abandoned`."""
        self._stop_feed.set()
        self.cancel()
        engine = self.engine
        if engine is not None:
            engine.abandon()
        self.running = False
        self._emit(Abandoned(engine.recorded if engine is not None else None))

    def close(self, wait_s: float = 0.0) -> None:
        """End the driver: a session still recording is let go (its file kept), the steps waiting are dropped."""
        if self.closed:
            return
        if self.running:
            self.abandon()
        with self._lock:
            self.closed = True
            self._jobs.put(None)

    def poll(self) -> list[SessionEvent]:
        """The events that came since the last call (never waits)."""
        events: list[SessionEvent] = []
        while True:
            try:
                events.append(self._inbox.get_nowait())
            except queue.Empty:
                return events

    @property
    def recording_path(self) -> Path | None:
        return self.engine.recording_path if self.engine is not None else None

    @property
    def project_path(self) -> Path | None:
        return self.facts.project_path if self.facts is not None else None


# -- in a worker process -----------------------------------------------------------------
class _PickledSink:
    """Puts each event pickled on the putting thread, so that one that cannot cross is said, not lost."""

    def __init__(self, events: Any) -> None:
        self.events = events

    def put(self, event: SessionEvent) -> None:
        if isinstance(event, Failed):
            event = dataclasses.replace(event, error=portable_error(event.error))
        try:
            data = pickle.dumps(event)
        except Exception as exc:
            step = getattr(event, "step", type(event).__name__)
            data = pickle.dumps(Failed(step, RuntimeError(f"{type(event).__name__} could not be sent ({exc})"),
                                       traceback.format_exc()))
        self.events.put(data)


# The commands the worker process obeys (the driver's operations).
COMMANDS = frozenset({"prepare", "start", "feed", "pause", "resume", "stop", "full_pass", "save", "cancel", "abandon"})


def serve_session(recipe: SessionRecipe, commands: Any, events: Any, tick_s: float = TICK_S) -> None:
    """In the worker process: obey ``commands`` with a :class:`PracticeThreads` of the real engines, tell ``events``.

    Each command is ``(operation, args, kwargs)``; ``("close", (), {})`` (or the app's end) ends the process,
    letting a recording still running go first (its file kept).
    """
    if hasattr(os, "nice"):  # every thread started from here on inherits it
        try:
            os.nice(ENGINE_NICE)
        except OSError:
            pass
    sink = _PickledSink(events)
    driver = PracticeThreads(recipe, sink=sink)
    next_tick = time.monotonic() + tick_s
    while True:
        try:
            name, args, kwargs = commands.get(timeout=max(0.0, next_tick - time.monotonic()))
        except queue.Empty:
            name = ""
        except (EOFError, OSError, KeyboardInterrupt):
            break
        if name == "close":
            break
        if name in COMMANDS:
            getattr(driver, name)(*args, **kwargs)
        if time.monotonic() >= next_tick:
            next_tick = time.monotonic() + tick_s
            if driver.running:
                sink.put(Ticked(driver.status()))
    driver.close()
    events.close()
    events.join_thread()
    leave_now()


class PracticeProcess:
    """A session driven by commands in a worker process of its own (the real engines; see :class:`PracticeThreads`).

    The process starts at once (its first event comes a second or two later, once it has imported the engine);
    each operation sends a command; :meth:`poll` reads the events that came, and :meth:`status` is the last
    :class:`Ticked`. A process that dies is reported as a :class:`Failed` of the step it was on, in one line.
    :meth:`close` ends it; it also ends with this process (:mod:`sialign.core.parent_guard`).

    Create it on a thread that outlives it (a window's): on Linux the worker ends with the thread that started it.
    """

    def __init__(self, recipe: SessionRecipe, *, tick_s: float = TICK_S) -> None:
        context = multiprocessing.get_context("spawn")
        self.recipe = recipe
        self._commands: Any = context.Queue()
        self._events: Any = context.Queue()
        self._process: BaseProcess = start_worker(serve_session, (recipe, self._commands, self._events, tick_s),
                                                  name="sialign-practice")
        self.facts: SessionFacts | None = None
        self.recorded: RecordingResult | None = None
        self._status = SessionStatus(elapsed_s=0.0)
        self.running = False
        self._asked: list[str] = []  # the long steps asked for and not answered yet, in order
        self._closing = False
        self._gone = False

    @property
    def pid(self) -> int | None:
        return self._process.pid

    @property
    def alive(self) -> bool:
        """The worker process is running."""
        return self._process.is_alive()

    def _send(self, name: str, *args: Any, **kwargs: Any) -> None:
        if self._closing or self._gone:
            return
        if name in ("prepare", "start", "stop", "full_pass", "save"):
            self._asked.append(name)
        try:
            self._commands.put((name, args, kwargs))
        except (OSError, ValueError):
            pass  # the process is gone: poll says so

    def prepare(self) -> None:
        self._send("prepare")

    def start(self) -> None:
        self._send("start")

    def feed(self) -> None:
        self._send("feed")

    def pause(self) -> None:
        self._send("pause")

    def resume(self) -> None:
        self._send("resume")

    def status(self) -> SessionStatus:
        """The clock and the level as last heard (at most :data:`TICK_S` old while the session runs)."""
        return self._status

    def stop(self) -> None:
        self._send("stop")

    def full_pass(self) -> None:
        self._send("full_pass")

    def save(self, project: Project, path: str | Path, *, force: bool = False, discard_recovery: bool = False,
             program: str = "a sialign command") -> None:
        self._send("save", project, path, force=force, discard_recovery=discard_recovery, program=program)

    def cancel(self) -> None:
        self._send("cancel")

    def abandon(self) -> None:
        self._send("abandon")

    def close(self, wait_s: float = 0.0) -> None:
        """End the worker process: a recording still running is stopped first (its file kept), whatever runs is
        dropped. Waits up to ``wait_s`` for it to leave (on quitting, so that the recording is finished); a process
        that has not left after :data:`CLOSE_GRACE_S` is terminated."""
        if self._closing:
            return
        self._closing = True
        try:
            self._commands.put(("close", (), {}))
        except (OSError, ValueError):
            pass
        if wait_s > 0:
            self._process.join(wait_s)
        if self._process.is_alive():
            threading.Thread(target=self._end, name="practice-process-end", daemon=True).start()
        else:
            self._end()

    def _end(self) -> None:
        end_process(self._process, CLOSE_GRACE_S)
        self._commands.cancel_join_thread()  # never block on a pipe nobody reads any more
        self._commands.close()

    def poll(self) -> list[SessionEvent]:
        """The events that came since the last call (never waits); a :class:`Failed` when the process has died."""
        events = self._drain()
        if not events and not self._gone and not self._process.is_alive():
            events = self._drain()  # what it sent just before it ended
            self._gone = True
            if not self._closing:
                step = self._asked[0] if self._asked else "session"
                events.append(Failed(step, WorkerDied(died_message(PROCESS_NAME, self._process.exitcode))))
            self.running = False
        return events

    def _drain(self) -> list[SessionEvent]:
        events: list[SessionEvent] = []
        while True:
            try:
                data = self._events.get_nowait()
            except (queue.Empty, EOFError, OSError, ValueError):
                return events
            event: SessionEvent = pickle.loads(data)
            self._note(event)
            events.append(event)

    def _note(self, event: SessionEvent) -> None:
        """Keep what the driver answers itself (the facts, the status, the recording) and the steps answered."""
        if isinstance(event, Ticked):
            self._status = event.status
            return
        if isinstance(event, Prepared):
            self.facts = event.facts
        elif isinstance(event, Started):
            self.running = True
        elif isinstance(event, (Stopped, Abandoned)):
            self.recorded = event.recorded
            self.running = False
        step = {Prepared: "prepare", Started: "start", Stopped: "stop", FullPassed: "full_pass", Saved: "save"}.get(
            type(event), getattr(event, "step", "") if isinstance(event, (Cancelled, Failed)) else "")
        if step in self._asked:
            self._asked.remove(step)

    @property
    def recording_path(self) -> Path | None:
        if self.recorded is not None:
            return Path(self.recorded.path)
        return self.facts.recording if self.facts is not None else None

    @property
    def project_path(self) -> Path | None:
        return self.facts.project_path if self.facts is not None else None


__all__ = [
    "CLOSE_GRACE_S",
    "ENGINE_NICE",
    "TICK_S",
    "Abandoned",
    "Cancelled",
    "Failed",
    "Fed",
    "FullPassed",
    "LiveUpdated",
    "PracticeProcess",
    "PracticeThreads",
    "Prepared",
    "Progressed",
    "Saved",
    "SessionDriver",
    "SessionEvent",
    "SessionFacts",
    "SessionRecipe",
    "Started",
    "Stopped",
    "Ticked",
    "make_session",
    "serve_session",
]
