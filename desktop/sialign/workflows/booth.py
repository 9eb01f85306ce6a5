"""The practice booth's use cases for the front ends (docs/practice.md).

A session is interpreted against a *talk*: the source transcript with times
on the source recording's clock and that recording, taken from a project,
from a project file, or from a source recording with or without its
transcript (without one it is transcribed first). The session's files lie
beside the talk: ``TALK.practice-YYYYmmdd-HHMMSS.wav`` (the microphone) and
``.sialign`` (the session's project).

While the student speaks the live view shows beads made on the fly; at Stop
they become a project (:func:`session_project`) and the full pass over the
recording replaces them as one undoable edit (:func:`practice_edit`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sialign.booth.live import LiveResult
from sialign.booth.recorder import RecordingResult
from sialign.core.edits import Batch, Edit, ReplaceTranscript, SetParams
from sialign.core.errors import InputError
from sialign.core.file_kind import PROJECT_SUFFIX
from sialign.core.model import Document, Project
from sialign.core.progress import ProgressFn, StopFn
from sialign.workflows.practice import live_project, practice_source, project_source

# The undo label of the full pass; session files are named TALK.practice-YYYYmmdd-HHMMSS.*.
PRACTICE_LABEL = "Full pass over the recording"
SESSION_INFIX = ".practice-"


@dataclass
class BoothTalk:
    """What a practice session is interpreted against.

    Attributes:
        talk_id: the talk's name (sessions are named after it).
        source: the source transcript, times on ``src_audio``'s clock.
        src_audio: the recording the student hears.
        src_lang: the source's language.
        tgt_lang: the interpretation's language when the talk says it (a project's target), else None.
        folder: where the session's files are written.
        origin: where the talk came from, for the window ("project water.sialign").
        metadata: the talk's project metadata (carried into the session's project).
    """

    talk_id: str
    source: Document
    src_audio: Path | None
    src_lang: str
    tgt_lang: str | None
    folder: Path
    origin: str
    metadata: dict[str, Any] = field(default_factory=dict)


def booth_talk_from_project(project: Project) -> BoothTalk:
    """The talk of an open or loaded project: its source transcript and recording.

    Raises:
        InputError: the project has no source transcript, no source recording, or no times on its source.
    """
    from sialign.audio.decode import audio_file_problem

    name = Path(project.path).name if project.path else project.talk_id
    if not len(project.source):
        raise InputError(project.path, "the project has no source transcript to practise with",
                         hint="open a talk first, or pick a source recording")
    source, audio = project_source(project)
    if audio is None:
        raise InputError(project.path, "the project has no source recording to play",
                         hint="set the project's source recording, or pick the recording itself", settings=("src_audio",))
    problem = audio_file_problem(audio)
    if problem:
        raise InputError(audio, problem, hint="locate it and set it as the project's source recording", settings=("src_audio",))
    if not project.source.has_times:
        raise InputError(project.path, "the source transcript has no times, so the live view cannot follow the talk",
                         hint="time it from its recording first", settings=("source_times",))
    folder = Path(project.path).parent if project.path else audio.parent
    return BoothTalk(project.talk_id, source, audio, project.source.language,
                     project.target.language if len(project.target) and project.target.language != "und" else None,
                     folder, f"project {name}", dict(project.metadata))


def booth_talk_from_file(path: str | Path) -> BoothTalk:
    """The talk of a project file (see :func:`booth_talk_from_project`)."""
    from sialign.io.project_file import load_project

    project = load_project(path)
    project.path = str(path)
    return booth_talk_from_project(project)


def booth_talk_from_recording(audio: str | Path, transcript: str | Path | None = None, *, src_lang: str | None = None,
                              model: str | Path | None = None, progress: ProgressFn | None = None,
                              should_stop: StopFn | None = None) -> BoothTalk:
    """The talk of a source recording: its transcript when given (with times), else a transcription of it.

    Read by :func:`sialign.workflows.practice.practice_source`, as ``sialign practice`` reads it.

    Raises:
        InputError: the recording or the transcript cannot be read.
        SialignError: the transcript has no times.
        ModelLoadError / ModelNotFoundError: no Whisper model to transcribe with.
    """
    from sialign.audio.decode import load_audio
    from sialign.transcribe.models import whisper_model_for
    from sialign.workflows.talks import talk_id_from_path

    path = Path(load_audio(audio).path)
    folder = whisper_model_for(model) if transcript is None else None
    source, _ = practice_source(transcript or path, src_lang=src_lang, src_audio=path, whisper_model=folder,
                                progress=progress, should_stop=should_stop)
    origin = f"{path.name} with {Path(transcript).name}" if transcript is not None else f"{path.name} (transcribed)"
    return BoothTalk(talk_id_from_path(transcript or path), source, path, source.language, None, path.parent, origin)


@dataclass(frozen=True)
class TalkChoice:
    """Which talk a session is interpreted against, as the booth offers it: exactly one of

    Attributes:
        project: a project already open (a snapshot: the session never changes it);
        project_file: a ``.sialign`` file;
        recording: a source recording, with its timed ``transcript`` when there is one
            (else it is transcribed into sentences, in ``src_lang`` when given).
    """

    project: Project | None = None
    project_file: str | None = None
    recording: str | None = None
    transcript: str | None = None
    src_lang: str | None = None


def read_booth_talk(choice: TalkChoice, *, tgt_lang: str, model: str | Path, progress: ProgressFn | None = None,
                    should_stop: StopFn | None = None) -> BoothTalk:
    """The talk of ``choice`` (call it in a worker: a source recording may take a minute to transcribe).

    The speech model is checked first: one that cannot hear ``tgt_lang`` is refused before a recording is transcribed.

    Raises:
        SialignError: the speech model does not know ``tgt_lang`` (names the speech model).
        InputError: as :func:`booth_talk_from_project`, :func:`booth_talk_from_file` and :func:`booth_talk_from_recording`.
    """
    from sialign.workflows.speech import check_model_hears

    check_model_hears(model, tgt_lang)
    if progress is not None:
        progress(0.0, "Reading the talk…")
    if choice.project is not None:
        return booth_talk_from_project(choice.project)
    if choice.project_file:
        return booth_talk_from_file(choice.project_file)
    if not choice.recording:
        raise InputError(None, "no talk was chosen", hint="choose the talk's project or its source recording")
    return booth_talk_from_recording(choice.recording, choice.transcript, src_lang=choice.src_lang, model=model,
                                     progress=progress, should_stop=should_stop)


def practice_talk(path: str | Path, *, src_lang: str | None = None, src_audio: str | Path | None = None,
                  whisper_model: str | Path | None = None, progress: ProgressFn | None = None,
                  should_stop: StopFn | None = None) -> BoothTalk:
    """The talk of ``sialign practice SOURCE``: a project, a timed transcript or the source recording
    (:func:`sialign.workflows.practice.practice_source`), as a talk the session engine takes.

    The session's files are named by the caller, so ``folder`` is the talk's own folder.
    """
    from sialign.workflows.talks import talk_id_from_path

    source, audio = practice_source(path, src_lang=src_lang, src_audio=src_audio, whisper_model=whisper_model,
                                    progress=progress, should_stop=should_stop)
    p = Path(path).expanduser()
    return BoothTalk(talk_id_from_path(p), source, Path(audio) if audio else None, source.language, None, p.parent,
                     p.name)


def session_files(talk: BoothTalk, when: float | None = None) -> tuple[Path, Path]:
    """(recording, project) of a new session of ``talk``: ``TALK.practice-YYYYmmdd-HHMMSS.wav`` and ``.sialign``.

    Raises:
        InputError: the talk's folder cannot be written to.
    """
    import os

    folder = talk.folder
    if not folder.is_dir() or not os.access(folder, os.W_OK):
        raise InputError(folder, "the session's recording cannot be written here", hint="copy the talk to a folder you can write to")
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(when if when is not None else time.time()))
    base = f"{talk.talk_id}{SESSION_INFIX}{stamp}"
    n = 1
    while (folder / f"{base}.wav").exists() or (folder / f"{base}{PROJECT_SUFFIX}").exists():
        n += 1
        base = f"{talk.talk_id}{SESSION_INFIX}{stamp}-{n}"
    return folder / f"{base}.wav", folder / f"{base}{PROJECT_SUFFIX}"


def free_recording_path(wanted: Path, when: float | None = None) -> Path:
    """Where to record when ``wanted`` is asked for: ``wanted`` itself when no file has that name, else a new name.

    A recording is never written over an existing file (the talk's own
    recording, an earlier session): the new name is
    ``STEM.practice-YYYYmmdd-HHMMSS.wav`` beside it, with ``-2``, ``-3``… when taken.
    """
    wanted = Path(wanted)
    if not wanted.exists():
        return wanted
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(when if when is not None else time.time()))
    stem = wanted.stem.split(SESSION_INFIX)[0]
    candidate = wanted.with_name(f"{stem}{SESSION_INFIX}{stamp}{wanted.suffix}")
    n = 1
    while candidate.exists():
        n += 1
        candidate = wanted.with_name(f"{stem}{SESSION_INFIX}{stamp}-{n}{wanted.suffix}")
    return candidate


def earlier_sessions(project_path: str | Path) -> list[Path]:
    """The other practice sessions of the same talk beside ``project_path``, oldest first (for *Compare renditions*)."""
    path = Path(project_path)
    talk = path.name.split(SESSION_INFIX)[0]
    return sorted(p for p in path.parent.glob(f"{talk}{SESSION_INFIX}*{PROJECT_SUFFIX}") if p != path)


def session_project(talk: BoothTalk, live: LiveResult, recording: RecordingResult, *, tgt_lang: str, model: str | Path | None,
                    project_path: str | Path | None = None) -> Project:
    """The session as the live view left it at Stop (:func:`sialign.workflows.practice.live_project`), with the booth's record.

    Beside what ``live_project`` records (machine transcript, model, live
    figures), the project keeps the talk's metadata, where it came from, and
    the recording's details under ``practice.booth`` (devices, latency
    correction, pauses, dropped blocks).

    """
    project = live_project(talk.source, live, recording=Path(recording.path), src_audio=talk.src_audio, talk_id=talk.talk_id)
    project.target.language = tgt_lang
    project.path = str(project_path) if project_path else None
    metadata = {**talk.metadata, **project.metadata}
    if not metadata.get("speech_model") and model:
        metadata["speech_model"] = str(model)
    practice = dict(metadata.get("practice") or {})
    practice.update({"recording": str(recording.path), "booth": recording.to_dict(), "talk": talk.origin, "pass": "live"})
    metadata["practice"] = practice
    project.metadata = metadata
    return project


def reviewed_session(talk: BoothTalk, project: Project) -> Project:
    """A rendition reviewed from a file (the full pass, no live view) as a new session of ``talk``.

    It is named like a recorded session (:func:`session_files`: saved beside the talk, so *Compare
    renditions* finds it) and keeps the talk's metadata and where the talk came from, as
    :func:`session_project` does.

    Raises:
        InputError: the talk's folder cannot be written to.
    """
    project.path = str(session_files(talk)[1])
    practice = dict(project.metadata.get("practice") or {})
    practice.update({"talk": talk.origin, "pass": "full", "from_file": True})
    project.metadata = {**talk.metadata, **project.metadata, "practice": practice}
    return project


def practice_edit(project: Project, final: Project) -> Edit:
    """The one undoable edit that replaces a session's live transcript and beads with the full pass ``final``.

    ``final`` comes from ``workflows.practice.practice_project`` over the same
    recording; its metadata is added to the session's (the recording's
    details stay) and its alignment parameters are installed with it.
    """
    metadata = dict(project.metadata)
    for key, value in final.metadata.items():
        if key == "practice" and isinstance(value, dict) and isinstance(metadata.get("practice"), dict):
            metadata["practice"] = {**metadata["practice"], **value, "pass": "full"}
        else:
            metadata[key] = value
    if isinstance(metadata.get("practice"), dict):
        metadata["practice"] = {**metadata["practice"], "pass": "full"}
    edits: list[Edit] = []
    if final.source.texts() != project.source.texts() or final.source.ids() != project.source.ids():
        edits.append(ReplaceTranscript("src", final.source, None))
    edits.append(ReplaceTranscript("tgt", final.target, final.alignment, metadata, label=PRACTICE_LABEL))
    if final.params is not None and final.params != project.params:
        edits.append(SetParams(final.params))
    return edits[0] if len(edits) == 1 else Batch(tuple(edits), label=PRACTICE_LABEL)
