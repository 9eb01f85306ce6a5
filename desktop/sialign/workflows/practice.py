"""A practice session's use cases: the talk to interpret, the live engine, and the full pass at Stop (docs/practice.md).

While the student speaks, :class:`~sialign.booth.live.LiveAligner` shows a
provisional alignment. At Stop, :func:`practice_project` makes the session's
project from one full offline pass over the final recording: transcribe it
(cut into the interpreter's chunks), align it with the source exactly as
``sialign align`` aligns a transcript (both sides timed on the recordings'
shared clock), and record that the target is a machine transcript, not
corrected, and which model heard it. The saved result therefore never
depends on the streaming path. The desktop app installs it as one undoable
step.
"""

from __future__ import annotations

import math
import statistics
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sialign.core.coverage import NOT_REACHED_REASON
from sialign.core.errors import SialignError
from sialign.core.model import Document, mark_machine_transcript

if TYPE_CHECKING:
    from sialign.booth.live import LiveResult
    from sialign.core.model import Project
    from sialign.core.params import AlignParams
    from sialign.core.progress import ProgressFn, StopFn



def practice_source(path: str | Path, *, src_lang: str | None = None, src_audio: str | Path | None = None,
                    whisper_model: str | Path | None = None, progress: ProgressFn | None = None,
                    should_stop: StopFn | None = None) -> tuple[Document, str | None]:
    """The talk a student interprets, from a project, a timed transcript or the source recording.

    Args:
        path: a ``.sialign`` project (its source and source recording), a
            transcript with times, or a recording (transcribed into sentences first).
        src_lang: the source language (a transcript's is guessed otherwise; a recording needs it or a multilingual model).
        src_audio: the source recording, when ``path`` is a transcript (or to replace a project's).
        whisper_model: the Whisper folder (or registered name) for a recording; None: the default speech model.

    Returns:
        The source document (times on the source recording's clock) and the source recording, if any.

    Raises:
        InputError, FormatError: the file cannot be read (names it).
        SialignError: the transcript has no times.
    """
    p = Path(path).expanduser()
    audio = str(src_audio) if src_audio else None
    from sialign.core.file_kind import is_project_file

    if is_project_file(p):
        from sialign.io.project_file import load_project

        # As the app's booth reads a project: its stored paths against the project's folder, named absolutely.
        source, recording = project_source(load_project(p), src_audio)
        audio = str(recording) if recording is not None else None
    elif is_recording(p):
        from sialign.workflows.recordings import transcribe_recording

        source = transcribe_recording(p, role="source", language=src_lang, model=whisper_model, progress=progress,
                                      should_stop=should_stop).document
        audio = audio or str(p.resolve())
    else:
        from sialign.io.readers import read_transcript

        source = read_transcript(p, language=src_lang)
    if src_lang:
        from sialign.core.languages import normalise_language

        source.language = normalise_language(src_lang)
    if not source.has_times:
        raise SialignError(
            f"{p}: the source transcript has no times, so a session cannot tell when each sentence is spoken — "
            "give a timed transcript (SRT, VTT, TextGrid...), time it with 'sialign retime', or give the source recording."
        )
    if audio:
        source.audio_path = str(audio)
    return source, audio


def project_source(project: Project, src_audio: str | Path | None = None) -> tuple[Document, Path | None]:
    """A project's source transcript as a session reads it, with its recording (``src_audio`` replaces the project's).

    The stored paths are relative to the project's folder; the copy returned
    names both files absolutely, so a session's project saved in another
    folder still finds them. Whether they exist is not checked here (see the
    callers), but a stored path outside the project's folder and the allowed
    folders is refused (:func:`sialign.core.paths.confined_path`).

    Raises:
        OutsideAllowedFolders: a stored path lies outside the allowed folders.
    """
    from sialign.core.stored_files import confined_path

    audio = (Path(src_audio).expanduser().resolve() if src_audio
             else confined_path(project.source.audio_path, project.path, "source.audio_path"))
    transcript = confined_path(project.source.path, project.path, "source.path")
    source = Document(language=project.source.language, segments=list(project.source.segments),
                      path=str(transcript) if transcript is not None else None,
                      audio_path=str(audio) if audio is not None else None,
                      format=project.source.format, encoding=project.source.encoding)
    return source, audio


def is_recording(path: str | Path) -> bool:
    """Whether ``path`` names a recording (by its extension) rather than a transcript or a project."""
    from sialign.workflows.recordings import is_recording as recording

    return recording(path)


def practice_project(
    source: Document,
    recording: Path,
    *,
    tgt_lang: str,
    model: Path,
    live: LiveResult | None,
    src_audio: Path | None,
    params: AlignParams | None = None,
    talk_id: str | None = None,
    threads: int | None = None,
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
) -> Project:
    """At Stop: the session's project from one full offline pass over the recording.

    The same as ``sialign align SOURCE RECORDING`` (the recording transcribed
    into chunks, aligned on the recordings' shared clock with the parameters
    for a machine transcript, both recordings attached): the result equals the
    offline alignment of the same files.

    Args:
        source: the talk's sentences (timed on the source recording's clock; not changed).
        recording: the student's rendition, on the same clock.
        tgt_lang: its language.
        model: the Whisper model folder.
        live: what the live engine showed (kept as a summary in the project's metadata), or None.
        src_audio: the source recording to attach.
        params: alignment parameters (default: those ``sialign align`` uses for a talk from a recording).
        talk_id: the talk's name (default: from the file names).

    Raises:
        InputError / ModelLoadError / UnknownLanguageError: as :func:`~sialign.transcribe.transcribe_file`.
        AlignmentCancelled: ``should_stop`` said so.
    """
    import copy

    from sialign.core.progress import stage
    from sialign.workflows.aligning import align_params, align_talk
    from sialign.workflows.recordings import talk_from_recordings

    metadata: dict[str, Any] = {
        "speech_model": str(model),
        "practice": {"recording": str(Path(recording).expanduser().resolve()), "live": live_summary(live, source)},
    }
    # The talk exactly as `sialign align SOURCE RECORDING` builds it: the recording transcribed into
    # chunks, a machine transcript on the recordings' clock, aligned with the parameters for one.
    talk = talk_from_recordings(
        copy.deepcopy(source), Path(recording), src_lang=source.language, tgt_lang=tgt_lang,
        source_audio=src_audio if src_audio else source.audio_path, model=model, talk_id=talk_id,
        metadata=metadata, threads=threads, progress=stage(progress, 0.0, 0.8), should_stop=should_stop,
    )
    project = talk.project
    align_talk(project, params or align_params(project), progress=stage(progress, 0.8, 1.0), should_stop=should_stop)
    return project


def live_project(source: Document, live: LiveResult, *, recording: Path | None = None, src_audio: Path | None = None,
                 talk_id: str | None = None) -> Project:
    """The live alignment as a project (what was shown when the session stopped; before or without the full pass).

    Rendered beads are kept; a sentence left without a rendition, a chunk
    matched to no sentence and the sentences the session never reached are
    dropped beads with their reason, as the aligner marks them.
    """
    import copy

    from sialign.core.edits import ReplaceAlignment, apply_edit
    from sialign.core.model import Alignment, Bead, BeadStatus
    from sialign.workflows.talks import talk_from_documents

    target = copy.deepcopy(live.target)
    if recording is not None:
        target.audio_path = str(Path(recording).expanduser().resolve())
    metadata: dict[str, Any] = {"speech_model": live.model, "practice": {"live": live_summary(live, source)}}
    mark_machine_transcript(metadata, "tgt", Path(live.model).name if live.model else None)
    project = talk_from_documents(
        copy.deepcopy(source), target, source_path=source.path or "", target_path=recording or "", talk_id=talk_id,
        source_audio=str(src_audio) if src_audio else (source.audio_path or ""), metadata=metadata,
    )
    beads: list[Bead] = []
    for live_bead in live.beads:
        if live_bead.src and live_bead.tgt:
            beads.append(Bead(live_bead.src, live_bead.tgt))
        elif live_bead.src:
            beads.append(Bead(live_bead.src, (), None, BeadStatus.DROPPED, "no rendition found in the interpretation (1-0, omission)"))
        else:
            beads.append(Bead((), live_bead.tgt, None, BeadStatus.DROPPED, "no source segment: nothing in the source matches this (0-1)"))
    shown = {i for b in live.beads for i in b.src}
    beads += [Bead((seg.id,), (), None, BeadStatus.DROPPED, NOT_REACHED_REASON)
              for seg in project.source.segments if seg.id not in shown]
    apply_edit(project, ReplaceAlignment(Alignment(beads=beads, embedder="live"), label="Live alignment"))
    return project


def live_summary(live: LiveResult | None, source: Document) -> dict[str, Any] | None:
    """The live session in figures: sentences rendered and left out (:mod:`sialign.core.coverage`), latency
    median and 90th percentile, audio read, passes."""
    if live is None:
        return None
    from sialign.core.coverage import live_coverage

    latencies = sorted(live.latencies())
    covered = live_coverage(live.beads, source.ids())
    return {
        "beads": len(live.beads),
        "rendered": covered.rendered,
        "unrendered": covered.omitted,
        "events": len(live.events),
        "latency_median_s": _round(statistics.median(latencies)) if latencies else None,
        "latency_p90_s": _round(percentile(latencies, 90)) if latencies else None,
        "audio_s": live.received_s,
        "audio_read_s": live.processed_s,
        "passes": live.passes,
        "recognition_s": live.recognition_s,
        "model": live.model,
    }


def percentile(values: list[float], q: float) -> float:
    """The ``q``-th percentile of ``values`` (linear interpolation, as numpy's default)."""
    ordered = sorted(values)
    if not ordered:
        return math.nan
    k = (len(ordered) - 1) * q / 100.0
    lo = math.floor(k)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def _round(x: float) -> float:
    return round(float(x), 3)


__all__ = [
    "is_recording", "live_project", "live_summary", "percentile", "practice_project", "practice_source",
    "project_source",
]
