"""Time a transcript from its recording: the use case behind Talk → Time from audio… and ``sialign retime``.

The recording is recognised with a local Whisper model and the transcript's
words are aligned to the recognised ones
(:func:`sialign.transcribe.retime_document`): :func:`retime_transcript` for a
transcript file, :func:`retime_side` for a side of a talk, whose result is one
:class:`~sialign.core.segment_edits.SetTimes` edit, so the times change as one
undoable step and the text is never touched.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sialign.core.errors import AlignmentCancelled, SialignError
from sialign.core.model import Document, Project
from sialign.core.progress import ProgressFn, StopFn
from sialign.core.segment_edits import SetTimes
from sialign.transcribe import RetimeStats, recognise, retime_document

SIDE_NAMES = {"src": "source", "tgt": "interpretation"}


@dataclass(frozen=True)
class RetimeResult:
    """The edit that times the side, and how the words matched."""

    edit: SetTimes
    stats: RetimeStats


def side_audio(project: Project, side: str) -> Path:
    """The recording of ``side`` (``src``/``tgt``), resolved beside the project file.

    Raises:
        SialignError: the side has no recording, or it is missing, or outside the allowed folders.
    """
    from sialign.audio.decode import audio_file_problem, resolve_audio_path

    doc = project.document(side)
    name = SIDE_NAMES.get(side, side)
    key = f"{'source' if side == 'src' else 'target'}.audio_path"
    path = resolve_audio_path(doc.audio_path if doc is not None else None, project.path, key)
    if path is None:
        raise SialignError(f"the {name} has no recording — set the project's {name} recording first.", settings=(f"{side}_audio",))
    if problem := audio_file_problem(path):
        raise SialignError(f"{path}: {problem} — set the project's {name} recording.", settings=(f"{side}_audio",))
    return path


def retime_transcript(doc: Document, audio: str | Path, model: str | Path, *, language: str | None = None,
                      device: str = "auto", threads: int | None = None, progress: ProgressFn | None = None,
                      should_stop: StopFn | None = None) -> tuple[Document, RetimeStats]:
    """A copy of ``doc`` whose segments have the times of their words in ``audio``; the text is kept.

    Args:
        language: of the recording (default: the transcript's, when it has one).
        device / threads: where Whisper runs (see :func:`sialign.transcribe.recognise`).

    Raises:
        SialignError: no Whisper model, bad audio, or no word in common.
        AlignmentCancelled: ``should_stop`` said so, or the recognition was interrupted.
    """
    if language is None and doc.language not in ("", "und"):
        language = doc.language
    heard = recognise(audio, model, language=language, device=device, threads=threads, progress=progress,
                      should_stop=should_stop)
    if heard.interrupted:
        raise AlignmentCancelled("Timing from audio cancelled; the times are unchanged.")
    return retime_document(doc, heard.words)


def retime_side(project: Project, side: str, model: str | Path, *, progress: ProgressFn | None = None,
                should_stop: StopFn | None = None, threads: int | None = None) -> RetimeResult:
    """Recognise the recording of ``side`` and give each of its segments the times of its words.

    Raises:
        SialignError: no recording, no Whisper model, bad audio, or no word in common.
        AlignmentCancelled: ``should_stop`` said so (nothing changes).
    """
    doc = project.document(side)
    if doc is None or not doc.segments:
        raise SialignError(f"the {SIDE_NAMES.get(side, side)} has no segments to time.")
    audio = side_audio(project, side)
    timed, stats = retime_transcript(doc, audio, model, threads=threads, progress=progress, should_stop=should_stop)
    times = tuple((seg.id, seg.start, seg.end) for seg in timed.segments)
    label = f"Time the {SIDE_NAMES.get(side, side)} from its recording"
    return RetimeResult(edit=SetTimes(side, times, label=label), stats=stats)
