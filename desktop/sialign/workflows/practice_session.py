"""A practice session from start to finish: the one engine behind the booth's window and ``sialign practice``.

:class:`PracticeSession` owns a session's lifecycle, so that the front ends
only show what it reports:

1. it is made for a talk (:class:`~sialign.workflows.booth.BoothTalk`), the
   interpretation's language, a Whisper model and where the rendition comes
   from: the microphone while the talk plays (:class:`Microphone`: the
   recording's path and the devices) or a recording made elsewhere
   (:class:`RenditionFile`, fed to the live aligner as if it came from the
   microphone);
2. :meth:`~PracticeSession.prepare` makes the live aligner and the recorder
   and decodes the talk's recording (seconds: in a worker);
3. :meth:`~PracticeSession.start` starts them; :meth:`~PracticeSession.feed`
   delivers a rendition file; :meth:`~PracticeSession.pause` and
   :meth:`~PracticeSession.resume` hold the talk and the recording together;
   :meth:`~PracticeSession.status` is the clock and the microphone's level;
4. :meth:`~PracticeSession.stop` closes the recording and recognises the
   last words (in a worker); :meth:`~PracticeSession.session_project` or
   :meth:`~PracticeSession.live_project` is what the live view showed;
5. :meth:`~PracticeSession.full_pass` (in a worker, with ``progress`` and
   ``should_stop``) makes the project the session saves, and
   :meth:`~PracticeSession.save` writes it atomically.

Live results reach the front end through ``on_update``, called with each
:class:`LiveUpdate` on the live aligner's own thread (a window hands it to
its own thread; nothing here knows Qt). The recording is written as it
arrives and its sidecar (``RECORDING.booth.json``, replaced whole at every
write) keeps the local time the session started, the devices and the latency
correction (:mod:`sialign.booth.recorder`); an events file, when asked for,
gets one JSON line per bead shown or revised and replaces an earlier file of
that name only when the live pass ends.

The plain types a front end holds (:class:`LiveUpdate`, :class:`LiveBead`,
:class:`LiveResult`, :class:`RecordingResult`, :class:`BoothDevices`,
:class:`AudioDevice`) are re-exported here: the front ends reach the booth's
engine only through this module (the ``speech-door`` contract in
``pyproject.toml``).
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Protocol

import numpy as np

from sialign.booth.live import LiveBead, LiveResult, LiveUpdate
from sialign.booth.recorder import LIVE_RATE, SILENCE_DBFS, AudioDevice, BoothDevices, RecordingResult, list_devices
from sialign.core.model import Document, Project
from sialign.core.progress import ProgressFn, StopFn, stage
from sialign.workflows import practice
from sialign.workflows.booth import (
    BoothTalk,
    TalkChoice,
    read_booth_talk,
    reviewed_session,
    session_files,
    session_project,
)
from sialign.workflows.outputs import Written, export

UpdateFn = Callable[[LiveUpdate], None]
BlockFn = Callable[[np.ndarray, float], None]


class LiveEngine(Protocol):
    """What a session needs of its live aligner (:class:`sialign.booth.live.LiveAligner`)."""

    def start(self) -> None: ...

    def feed(self, samples: np.ndarray, t_start_s: float) -> None: ...

    def finish(self) -> LiveResult: ...


class LiveFactory(Protocol):
    """Makes the live aligner of a session (the fakes of the tests and screenshots take these arguments)."""

    def __call__(self, source: Document, *, tgt_lang: str, model: Path, src_lang: str | None,
                 on_update: UpdateFn) -> LiveEngine: ...


class Recorder(Protocol):
    """What a session needs of its recorder (:class:`sialign.booth.recorder.BoothRecorder`)."""

    level_dbfs: float
    error: str
    dropped_blocks: int

    def prepare(self, should_stop: StopFn | None = None) -> None: ...

    def start(self) -> None: ...

    def pause(self) -> None: ...

    def resume(self) -> None: ...

    def stop(self) -> RecordingResult: ...

    @property
    def paused(self) -> bool: ...

    @property
    def recording(self) -> bool: ...

    @property
    def elapsed_s(self) -> float: ...

    @property
    def source_duration_s(self) -> float | None: ...

    @property
    def source_finished(self) -> bool: ...


class RecorderFactory(Protocol):
    """Makes the recorder of a session: plays ``source_audio`` and records into ``out_path``."""

    def __call__(self, source_audio: Path | None, out_path: Path, *, input_device: int | str | None,
                 output_device: int | str | None, on_block: BlockFn) -> Recorder: ...


class FullPass(Protocol):
    """The full pass at Stop (:func:`sialign.workflows.practice.practice_project`'s arguments)."""

    def __call__(self, source: Document, recording: Path, *, tgt_lang: str, model: Path, live: LiveResult | None,
                 src_audio: Path | None, progress: ProgressFn | None = None,
                 should_stop: StopFn | None = None) -> Project: ...


@dataclass(frozen=True)
class SessionParts:
    """The engines a session is made of; None takes the real one. Tests and screenshots put fakes in.

    Attributes:
        live: makes the live aligner (default: :class:`~sialign.booth.live.LiveAligner` at the rendition's speed).
        recorder: makes the recorder (default: :class:`~sialign.booth.recorder.BoothRecorder`).
        full_pass: the full pass at Stop (default: :func:`~sialign.workflows.practice.practice_project`).
    """

    live: LiveFactory | None = None
    recorder: RecorderFactory | None = None
    full_pass: FullPass | None = None


@dataclass(frozen=True)
class Microphone:
    """The rendition is recorded from the microphone while the talk plays, in one full-duplex stream (one clock).

    Attributes:
        recording: the file to record into (``.wav`` or ``.flac``); choose a free name
            (:func:`~sialign.workflows.booth.session_files`, :func:`~sialign.workflows.booth.free_recording_path`).
        input_device / output_device: PortAudio device index or name (None: the system's default).
    """

    recording: Path
    input_device: int | str | None = None
    output_device: int | str | None = None


@dataclass(frozen=True)
class RenditionFile:
    """The rendition was recorded elsewhere, on the talk's clock: it is fed as if it came from the microphone.

    Attributes:
        path: the recording (WAV, FLAC, OGG, MP3).
        speed: times real time (1: as a student speaks; 0: as fast as possible).
    """

    path: Path
    speed: float = 1.0


@dataclass(frozen=True)
class SessionStatus:
    """The session's clock and microphone, read on a timer for the meter.

    Attributes:
        elapsed_s: how far into the talk the session is (pauses excluded; for a file, the audio fed so far).
        talk_s: the length of the talk being played (None when nothing is played).
        talk_finished: the talk has played to its end (the microphone is recorded until Stop).
        level_dbfs: the microphone's peak in its last block (:data:`SILENCE_DBFS` for silence and for a file).
        paused: the talk and the recording wait.
        dropped_blocks: short gaps filled with silence because the computer could not keep up.
        error: what went wrong with the recording ("" while all is well).
    """

    elapsed_s: float
    talk_s: float | None = None
    talk_finished: bool = False
    level_dbfs: float = SILENCE_DBFS
    paused: bool = False
    dropped_blocks: int = 0
    error: str = ""


class PracticeSession:
    """One practice session: a rendition of ``talk`` aligned live while it is spoken, then by a full pass.

    Args:
        talk: what the student interprets.
        tgt_lang: the interpretation's language.
        model: the Whisper model folder.
        rendition: :class:`Microphone` or :class:`RenditionFile`.
        project_path: where the session's project is to be saved (the booth's session files), if known.
        on_update: called with every :class:`LiveUpdate`, on the live aligner's thread.
        events: a JSON-lines file to write every bead to as it is shown or revised (``LiveBead.event``).
        threads: CPU threads for the live recogniser and the full pass (None: their defaults).
        parts: the engines (default: the real ones).

    Attributes:
        recorded: what the recorder wrote, once stopped (None for a rendition file).
        live_result: what the live aligner produced, once stopped.

    Threads: :meth:`prepare`, :meth:`stop` and :meth:`full_pass` take seconds to minutes (a worker's);
    :meth:`start`, :meth:`pause`, :meth:`resume`, :meth:`status` and :meth:`abandon` return at once.
    """

    def __init__(self, talk: BoothTalk, *, tgt_lang: str, model: Path, rendition: Microphone | RenditionFile,
                 project_path: Path | None = None, on_update: UpdateFn | None = None, events: Path | None = None,
                 threads: int | None = None, parts: SessionParts | None = None) -> None:
        self.talk = talk
        self.tgt_lang = tgt_lang
        self.model = Path(model)
        self.rendition = rendition
        self.project_path = project_path
        self.on_update = on_update
        self.events_path = events
        self.threads = threads
        self.parts = parts or SessionParts()
        self.live: LiveEngine | None = None
        self.recorder: Recorder | None = None
        self.recorded: RecordingResult | None = None
        self.live_result: LiveResult | None = None
        self._events: IO[str] | None = None
        self._closing = contextlib.ExitStack()
        self._events_lock = threading.Lock()  # the live aligner's thread writes the events, another closes the file
        self._fed_s = 0.0
        self._abandoned = False

    # -- the files ----------------------------------------------------------------------
    @property
    def recording_path(self) -> Path:
        """The rendition's recording: the file recorded into (as finally written), or the file fed."""
        if isinstance(self.rendition, RenditionFile):
            return self.rendition.path
        return Path(self.recorded.path) if self.recorded is not None else self.rendition.recording

    # -- before -------------------------------------------------------------------------
    def prepare(self, progress: ProgressFn | None = None, should_stop: StopFn | None = None) -> None:
        """Make the live aligner and, for the microphone, the recorder; decode the talk's recording at the devices' rate.

        Raises:
            AudioUnavailable: no device to record or play with.
            InputError: the talk's recording cannot be decoded; the recording's folder does not exist.
        """
        if progress is not None:
            progress(0.0, "Loading the speech model…")
        live = self._make_live()
        self.live = live
        if isinstance(self.rendition, Microphone):
            make = self.parts.recorder or _booth_recorder
            recorder = make(self.talk.src_audio, self.rendition.recording, input_device=self.rendition.input_device,
                            output_device=self.rendition.output_device, on_block=live.feed)
            self.recorder = recorder
            if progress is not None:
                progress(0.6, "Preparing the talk's audio…")
            recorder.prepare(should_stop)

    def _make_live(self) -> LiveEngine:
        source, src_lang = self.talk.source, self.talk.src_lang
        if self.parts.live is not None:
            return self.parts.live(source, tgt_lang=self.tgt_lang, model=self.model, src_lang=src_lang,
                                   on_update=self._updated)
        from sialign.booth.live import LiveAligner

        # A file fed faster than real time maps wall time onto the recording's clock at that speed.
        speed = self.rendition.speed if isinstance(self.rendition, RenditionFile) else 1.0
        if self.threads is None:
            return LiveAligner(source, tgt_lang=self.tgt_lang, model=self.model, src_lang=src_lang,
                               on_update=self._updated, speed=speed)
        return LiveAligner(source, tgt_lang=self.tgt_lang, model=self.model, src_lang=src_lang,
                           on_update=self._updated, speed=speed, threads=self.threads)

    # -- during -------------------------------------------------------------------------
    def start(self) -> None:
        """Start the live aligner and, for the microphone, play the talk and record (prepares first if needed).

        A session that cannot start lets its live aligner go (:meth:`abandon`) before the error is raised.

        Raises:
            AudioUnavailable: the devices refused to open.
            OutputError / InputError: the recording or the events file cannot be created.
        """
        if self.live is None:
            self.prepare()
        assert self.live is not None
        try:
            if self.events_path is not None:
                from sialign.core.atomic import atomic_open

                # Written into a temporary file beside it as beads come, which replaces it when the live pass
                # ends: an earlier file of that name is never left half-written.
                self._events = self._closing.enter_context(
                    atomic_open(self.events_path, "w", encoding="utf-8", newline=None))
            self.live.start()
            if self.recorder is not None:
                self.recorder.start()
        except Exception:
            self.abandon()
            raise

    def feed(self, should_stop: StopFn | None = None) -> float:
        """Deliver the rendition file to the live aligner in the microphone's blocks, at its speed.

        Blocks until the file's end (or until ``should_stop`` says so); returns the seconds delivered.

        Raises:
            InputError: the file cannot be decoded (names it).
        """
        from sialign.booth.recorder import feed_file

        if not isinstance(self.rendition, RenditionFile):
            raise RuntimeError("a session recorded from the microphone is fed by its recorder")
        if self.live is None:
            raise RuntimeError("start the session before feeding it")
        return feed_file(self.rendition.path, self._feed_block, speed=self.rendition.speed, should_stop=should_stop)

    def _feed_block(self, samples: np.ndarray, t_start_s: float) -> None:
        assert self.live is not None
        self.live.feed(samples, t_start_s)
        self._fed_s = t_start_s + samples.size / LIVE_RATE

    def _updated(self, update: LiveUpdate) -> None:
        """On the live aligner's thread: the beads new or revised go to the events file, the update to the front end."""
        with self._events_lock:
            if self._events is not None:
                for k in update.changed:
                    self._events.write(json.dumps(update.beads[k].event(), ensure_ascii=False) + "\n")
                self._events.flush()
        if self.on_update is not None:
            self.on_update(update)

    def pause(self) -> None:
        """Stop the talk and the recording together; :meth:`resume` goes on from the same place of the talk."""
        if self.recorder is not None:
            self.recorder.pause()

    def resume(self) -> None:
        if self.recorder is not None:
            self.recorder.resume()

    def status(self) -> SessionStatus:
        """The clock, the microphone's level and what went wrong, now (cheap: read it on a timer)."""
        recorder = self.recorder
        if recorder is None:
            return SessionStatus(elapsed_s=self._fed_s)
        return SessionStatus(elapsed_s=recorder.elapsed_s, talk_s=recorder.source_duration_s,
                             talk_finished=recorder.source_finished, level_dbfs=float(recorder.level_dbfs),
                             paused=recorder.paused, dropped_blocks=recorder.dropped_blocks, error=recorder.error)

    # -- at Stop ------------------------------------------------------------------------
    def stop(self, progress: ProgressFn | None = None) -> LiveResult:
        """Stop recording (the file is finished and kept), recognise the last words and end the live pass.

        Raises:
            SialignError (or what the live aligner raised): its models could not be loaded, or a pass failed.
        """
        self.stop_recording()
        if progress is not None:
            progress(0.5, "Recognising the last words…")
        return self.finish_live()

    def stop_recording(self) -> RecordingResult | None:
        """Stop playing and recording and finish the file (idempotent); None for a rendition file."""
        if self.recorder is not None and self.recorded is None:
            self.recorded = self.recorder.stop()
        return self.recorded

    def finish_live(self) -> LiveResult:
        """Recognise what is left, end the live pass and close the events file; what the live view showed."""
        if self.live is None:
            raise RuntimeError("the session was never started")
        try:
            self.live_result = self.live.finish()
        finally:
            self._close_events()
        return self.live_result

    def _close_events(self) -> None:
        """Put the events file in place with the beads written so far (no more are written after)."""
        with self._events_lock:
            self._events = None
            self._closing.close()

    def abandon(self) -> None:
        """Let the session go without waiting for it: the recording stops (its file is kept), the events file keeps
        the beads shown so far, and the live aligner ends on a thread of its own, so the caller (a window's thread)
        never waits for the recogniser."""
        if self._abandoned:
            return
        self._abandoned = True
        recorder = self.recorder
        if recorder is not None and recorder.recording:
            self.recorded = recorder.stop()
        self._close_events()
        if self.live_result is not None:  # it has ended already
            return
        threading.Thread(target=self._finish_quietly, name="practice-live-finish", daemon=True).start()

    def _finish_quietly(self) -> None:
        try:
            if self.live is not None:
                self.live.finish()
        except Exception:  # an abandoned live pass: nothing is waiting for its result
            pass

    def live_project(self) -> Project:
        """The live alignment as shown at Stop, as a project (:func:`~sialign.workflows.practice.live_project`)."""
        return practice.live_project(self.talk.source, self._live(), recording=self.recording_path,
                                     src_audio=self.talk.src_audio)

    def session_project(self) -> Project:
        """The recorded session as the live view left it at Stop, with the booth's record of the recording and the talk
        (:func:`~sialign.workflows.booth.session_project`), to be saved at :attr:`project_path`."""
        if self.recorded is None:
            raise RuntimeError("only a session recorded from the microphone has the booth's record")
        return session_project(self.talk, self._live(), self.recorded, tgt_lang=self.tgt_lang, model=self.model,
                               project_path=self.project_path)

    def shown_project(self) -> Project:
        """What the live view showed at Stop as the session's project, named :attr:`project_path`: with the booth's
        record of a recording made here (:meth:`session_project`), else the live project of the file fed, keeping
        the talk's metadata and where it came from as a recorded session does."""
        if self.recorded is not None:
            return self.session_project()
        project = self.live_project()
        project.path = str(self.project_path) if self.project_path else None
        project.target.language = self.tgt_lang
        practice = dict(project.metadata.get("practice") or {})
        practice.update({"recording": str(self.recording_path), "talk": self.talk.origin, "pass": "live",
                         "from_file": True})
        project.metadata = {**self.talk.metadata, **project.metadata, "practice": practice}
        return project

    def _live(self) -> LiveResult:
        if self.live_result is None:
            raise RuntimeError("the session has not been stopped")
        return self.live_result

    def full_pass(self, progress: ProgressFn | None = None, should_stop: StopFn | None = None) -> Project:
        """The session's project from one full offline pass over the recording (as ``sialign align`` aligns it),
        with the live figures in its metadata when there was a live pass.

        Raises:
            InputError / ModelLoadError / UnknownLanguageError: the recording or the model cannot be read.
            AlignmentCancelled: ``should_stop`` said so.
        """
        run = self.parts.full_pass or self._practice_project
        return run(self.talk.source, self.recording_path, tgt_lang=self.tgt_lang, model=self.model,
                   live=self.live_result, src_audio=self.talk.src_audio, progress=progress, should_stop=should_stop)

    def _practice_project(self, source: Document, recording: Path, *, tgt_lang: str, model: Path,
                          live: LiveResult | None, src_audio: Path | None, progress: ProgressFn | None = None,
                          should_stop: StopFn | None = None) -> Project:
        return practice.practice_project(source, recording, tgt_lang=tgt_lang, model=model, live=live,
                                         src_audio=src_audio, threads=self.threads, progress=progress,
                                         should_stop=should_stop)

    def save(self, project: Project, path: str | Path, *, force: bool = False, discard_recovery: bool = False,
             program: str = "a sialign command") -> Written:
        """Write the session's project to ``path`` atomically (:func:`sialign.workflows.outputs.export`)."""
        return export(project, path, force=force, discard_recovery=discard_recovery, program=program)


def _booth_recorder(source_audio: Path | None, out_path: Path, *, input_device: int | str | None,
                    output_device: int | str | None, on_block: BlockFn) -> Recorder:
    from sialign.booth.recorder import BoothRecorder

    return BoothRecorder(source_audio, out_path, input_device=input_device, output_device=output_device,
                         on_block=on_block)


def prepare_booth_session(choice: TalkChoice, *, tgt_lang: str, model: str | Path, input_device: int | str | None = None,
                          output_device: int | str | None = None, on_update: UpdateFn | None = None,
                          parts: SessionParts | None = None, progress: ProgressFn | None = None,
                          should_stop: StopFn | None = None) -> PracticeSession:
    """The booth's session of the talk ``choice``, prepared (in a worker): the talk read, the model checked, the
    session's files named beside the talk (:func:`~sialign.workflows.booth.session_files`), the engines made.

    Raises:
        SialignError: the speech model cannot hear ``tgt_lang``; InputError: the talk cannot be read or its folder
        written; AudioUnavailable: no devices.
    """
    talk = read_booth_talk(choice, tgt_lang=tgt_lang, model=model, progress=stage(progress, 0.0, 0.5),
                           should_stop=should_stop)
    recording, project_path = session_files(talk)
    session = PracticeSession(talk, tgt_lang=tgt_lang, model=Path(model),
                              rendition=Microphone(recording, input_device, output_device), project_path=project_path,
                              on_update=on_update, parts=parts)
    session.prepare(stage(progress, 0.5, 1.0), should_stop)
    return session


def review_rendition(choice: TalkChoice, rendition: Path, *, tgt_lang: str, model: str | Path,
                     parts: SessionParts | None = None, progress: ProgressFn | None = None,
                     should_stop: StopFn | None = None) -> Project:
    """A rendition recorded elsewhere, aligned against the talk of ``choice`` by the full pass at Stop (no live
    view, no device), as a new session of that talk (:func:`~sialign.workflows.booth.reviewed_session`).

    Raises:
        as :func:`~sialign.workflows.booth.read_booth_talk` and :meth:`PracticeSession.full_pass`.
    """
    talk = read_booth_talk(choice, tgt_lang=tgt_lang, model=model, progress=progress, should_stop=should_stop)
    session = PracticeSession(talk, tgt_lang=tgt_lang, model=Path(model), rendition=RenditionFile(Path(rendition)),
                              parts=parts)
    return reviewed_session(talk, session.full_pass(stage(progress, 0.1, 1.0), should_stop))


__all__ = [
    "SILENCE_DBFS",
    "AudioDevice",
    "BoothDevices",
    "BoothTalk",
    "FullPass",
    "LiveBead",
    "LiveEngine",
    "LiveFactory",
    "LiveResult",
    "LiveUpdate",
    "Microphone",
    "PracticeSession",
    "Recorder",
    "RecorderFactory",
    "RecordingResult",
    "RenditionFile",
    "SessionParts",
    "SessionStatus",
    "TalkChoice",
    "list_devices",
    "prepare_booth_session",
    "review_rendition",
]
