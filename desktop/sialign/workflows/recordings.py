"""A talk from its recordings: transcribe what has no transcript, then align on the recordings' shared clock.

The use case behind ``sialign align talk.en.ogg talk.ja.ogg``, *New talk*
with only the two recordings, and the practice booth's pass at Stop. Each
side without a transcript is recognised with a local Whisper model
(:func:`sialign.transcribe.transcribe_file`): the source is cut into
sentences, the interpretation with the chunker. Both transcripts then carry
word-level times on the recordings' clock, and a machine transcript is noisy
text, so such a talk aligns with :func:`recording_params`
(:mod:`sialign.workflows.recording_params`):

- **the lag window fitted to the talk** (``lag_window="fit"``): a text-only
  pass dates the interpreter's lag and the window becomes that lag's range,
  with a small pull toward its median, instead of the generic -1..10 s
  window that lets a bead take its neighbour's chunks;
- **a stronger time weight** (``time_weight`` 0.3 per second outside the
  window, also beyond 5 s): word times from a recogniser are good to a few
  tenths of a second, unlike caption times typed by hand;
- **no learned second pass**: its bead score was fitted on typed
  transcripts; on recognised text its features (similarity, margin) fall
  outside what it learned and it moved correct beads (span accuracy on the
  example 0.66 without it against 0.43 with it, both sides recognised, before
  the other changes here);
- **drop threshold 1.2**: recognition errors raise the text cost of a
  correct bead, so "no better than chance" (1.0) drops beads whose times
  agree (span accuracy 0.63 at 1.0 against 0.86 at 1.2, both sides
  recognised); 1.3 gave the same figures as 1.2 on both renditions.

The parameters are stored in the project like any others, so re-aligning
reproduces the run.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sialign.core.errors import AlignmentCancelled, SialignError
from sialign.core.file_kind import is_media
from sialign.core.model import mark_machine_transcript
from sialign.workflows.aligning import align_params, align_talk
from sialign.workflows.recording_params import (
    RECORDING_DROP_THRESHOLD,
    RECORDING_TIME_WEIGHT,
    SIDES,
    machine_sides,
    params_for,
    recording_params,
)

if TYPE_CHECKING:
    from sialign.core.model import Document, Project
    from sialign.core.params import AlignParams
    from sialign.core.progress import ProgressFn, StopFn
    from sialign.transcribe import Transcription
    from sialign.workflows.aligning import Aligned

log = logging.getLogger(__name__)



def is_recording(path: str | Path) -> bool:
    """Whether ``path`` names a recording (by its extension) rather than a transcript."""
    return is_media(str(path))


@dataclass
class RecordedTalk:
    """A talk built from recordings, before it is aligned.

    Attributes:
        project: the new project (both recordings attached; machine sides marked in its metadata).
        transcriptions: the recognitions made, by side (``src``/``tgt``).
        model: the Whisper model folder used (None when nothing was transcribed).
        language_doubts: by side (``src``/``tgt``), a recording that sounds like another language than the one
            given (:func:`language_doubt`); the front end names its setting.
    """

    project: Project
    transcriptions: dict[str, Transcription] = field(default_factory=dict)
    model: Path | None = None
    language_doubts: dict[str, str] = field(default_factory=dict)


# How sure the speech model must be that a recording is in another language before the language given is questioned.
LANGUAGE_DOUBT = 0.5


def language_doubt(audio: str | Path, given: str | None, heard: str, probability: float) -> str:
    """One line when a multilingual model hears another language in ``audio`` than ``given`` ("" when it agrees).

    ``heard`` and ``probability`` come from the first 30 s of speech (:class:`~sialign.transcribe.recognise.Recognition`'s
    ``heard``); the front end adds the setting to correct.
    """
    from sialign.core.languages import language_code

    if not given or not heard or probability < LANGUAGE_DOUBT or language_code(heard) == language_code(given):
        return ""
    return f"{Path(audio).name} sounds like '{heard}' to the speech model (probability {probability:.2f}), not '{given}' as given"


def transcribe_recording(
    audio: str | Path,
    *,
    role: str,
    language: str | None,
    model: str | Path | None = None,
    device: str = "auto",
    threads: int | None = None,
    keep_partial: bool = False,
    language_setting: str | None = None,
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
) -> Transcription:
    """Transcribe one recording (``role`` ``source`` → sentences, ``interpretation`` → chunks).

    ``model`` is a folder, a registered name, or None for the default speech model.

    Args:
        device: where the model runs (``auto``: a CUDA GPU when there is one, else the CPU; ``cpu``; ``cuda``).
        keep_partial: interrupted (``should_stop`` or Ctrl+C), return what was recognised so far
            (``recognition.interrupted`` is set) instead of raising.
        language_setting: the setting an error about the language names (default: ``tgt_lang`` for an
            interpretation, which is a talk's interpretation language, else ``language``).

    Raises:
        AlignmentCancelled: ``should_stop`` said so (nothing is kept), unless ``keep_partial``.
        SialignError: no speech model set, bad audio, unknown language (one line each).
    """
    from sialign.transcribe import transcribe_file
    from sialign.transcribe.models import whisper_model_for
    from sialign.transcribe.recognise import require_recogniser

    require_recogniser()
    folder = whisper_model_for(model)
    setting = language_setting or ("tgt_lang" if role == "interpretation" else "language")
    try:
        result = transcribe_file(audio, folder, language=language, role=role, device=device, threads=threads,
                                 progress=progress, should_stop=should_stop)
    except SialignError as exc:
        # The rendition's language is the interpretation's setting, not the source's.
        if "language" in exc.settings:
            exc.settings = tuple(setting if s == "language" else s for s in exc.settings)
        raise
    if result.recognition.interrupted and not keep_partial:
        raise AlignmentCancelled(f"Transcription of {Path(audio).name} cancelled; nothing was kept.")
    return result


@dataclass(frozen=True)
class ToTranscribe:
    """One recording to transcribe: the file, who speaks in it (``source`` or ``interpretation``), its language
    (None: detected by a multilingual model)."""

    audio: str
    role: str = "source"
    language: str | None = None


def transcribe_recordings(recordings: Sequence[ToTranscribe], *, model: str | Path | None = None,
                          progress: ProgressFn | None = None, should_stop: StopFn | None = None) -> list[Transcription]:
    """Transcribe ``recordings`` in turn (:func:`transcribe_recording`), the progress shared between them.

    With several recordings each message names the recording it is about.

    Raises:
        as :func:`transcribe_recording`; nothing is returned unless every recording was heard.
    """
    from sialign.core.progress import stage

    done = []
    for k, rec in enumerate(recordings):
        part = stage(progress, k / len(recordings), (k + 1) / len(recordings))
        name = Path(rec.audio).name

        def report(fraction: float, message: str, name: str = name, part: ProgressFn = part) -> None:
            part(fraction, f"{name}: {message}" if len(recordings) > 1 else message)

        done.append(transcribe_recording(rec.audio, role=rec.role, language=rec.language, model=model,
                                         progress=report, should_stop=should_stop))
    return done


def transcribe_recordings_apart(recordings: Sequence[ToTranscribe], *, model: str | Path | None = None,
                                progress: ProgressFn | None = None,
                                should_stop: StopFn | None = None) -> list[Transcription]:
    """:func:`transcribe_recordings` in a worker process of its own (a window's: its thread never waits for the
    recogniser, which holds the interpreter lock); blocks until done, so call it from a worker thread.

    Raises:
        as :func:`transcribe_recordings`; WorkerDied: the process ended without an answer.
    """
    from sialign.workflows.worker_process import call_apart

    return list(call_apart(transcribe_recordings, list(recordings), model=str(model) if model is not None else None,
                           progress=progress, should_stop=should_stop, what="the transcription"))


def talk_from_recordings(
    source: str | Path | Document,
    target: str | Path | Document,
    *,
    src_lang: str | None,
    tgt_lang: str | None,
    source_audio: str | Path | None = None,
    target_audio: str | Path | None = None,
    model: str | Path | None = None,
    talk_id: str | None = None,
    metadata: dict[str, Any] | None = None,
    threads: int | None = None,
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
) -> RecordedTalk:
    """A new, unaligned talk where each side is a recording, a transcript file or a document already read.

    A recording (``talk.en.ogg``) is transcribed with the speech model
    (``model``: folder, name, or None for the default) and attached as that
    side's audio; a transcript file is read as ``sialign align`` reads it
    (``source_audio`` / ``target_audio`` attach recordings to such sides).

    Args:
        source / target: a recording, a transcript path, or a Document.
        src_lang / tgt_lang: the spoken languages (``en``, ``ja``); None lets
            the model detect a recording's language.

    Raises:
        UnknownLanguageError: a language given is no language code (before any recognition).
        SialignError: a side cannot be read or recognised; AlignmentCancelled when stopped.
    """
    from sialign.core.model import Document
    from sialign.core.progress import stage
    from sialign.io.readers import read_transcript
    from sialign.workflows.talks import _given_language, talk_from_documents

    languages = {"src": _given_language(src_lang), "tgt": _given_language(tgt_lang)}
    inputs = {"src": source, "tgt": target}
    audio = {"src": source_audio, "tgt": target_audio}
    to_hear = [side for side, value in inputs.items() if not isinstance(value, Document) and is_recording(value)]
    done: dict[str, Transcription] = {}
    doubts: dict[str, str] = {}
    docs: dict[str, Document] = {}
    paths: dict[str, str] = {}
    folder: Path | None = None
    if to_hear:
        from sialign.transcribe.models import whisper_model_for
        from sialign.transcribe.recognise import require_recogniser

        require_recogniser()
        folder = whisper_model_for(model)  # one line naming where to set it, before any decoding
    for side, value in inputs.items():
        if isinstance(value, Document):
            docs[side] = value
            paths[side] = ""
        elif side not in to_hear:
            docs[side] = read_transcript(value, language=languages[side])
            paths[side] = str(value)
    for k, side in enumerate(to_hear):
        part = stage(progress, k / len(to_hear), (k + 1) / len(to_hear))
        recording = Path(str(inputs[side]))
        if part is not None:
            part(0.0, f"Transcribing the {SIDES[side]} ({recording.name})")
        result = transcribe_recording(recording, role="source" if side == "src" else "interpretation",
                                      language=languages[side], model=folder, threads=threads,
                                      progress=part, should_stop=should_stop)
        done[side] = result
        heard = result.recognition
        doubt = language_doubt(recording, languages[side], heard.heard, heard.heard_probability)
        if doubt:
            doubts[side] = doubt
        docs[side] = result.document
        paths[side] = str(recording)
        audio[side] = str(recording.expanduser().resolve())
    meta = dict(metadata or {})
    if folder is not None:
        for side in done:
            mark_machine_transcript(meta, side, folder.name)
        meta["whisper_model"] = folder.name
    project = talk_from_documents(
        docs["src"], docs["tgt"],
        source_path=paths["src"], target_path=paths["tgt"], talk_id=talk_id,
        source_language=languages["src"] or docs["src"].language,
        target_language=languages["tgt"] or docs["tgt"].language,
        source_audio=str(audio["src"]) if audio["src"] else None,
        target_audio=str(audio["tgt"]) if audio["tgt"] else None,
        metadata=meta,
    )
    log.info("talk %s from recordings: %s transcribed", project.talk_id, ", ".join(SIDES[s] for s in done) or "nothing")
    return RecordedTalk(project=project, transcriptions=done, model=folder, language_doubts=doubts)


def align_recorded_talk(
    project: Project,
    base: AlignParams | None = None,
    *,
    filters: tuple[str, ...] | list[str] = (),
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
) -> Aligned:
    """Align a talk built by :func:`talk_from_recordings` on the recordings' clock (one undoable edit, as Align).

    Args:
        base: the parameters (default: the talk's own; for a new talk with a
            machine transcript, :func:`recording_params` of the defaults).

    Raises:
        SialignError: a side has no times (the recordings' clock is what this aligns on).
    """
    for side, name in SIDES.items():
        doc = project.document(side)
        if doc is None or not doc.has_times:
            raise SialignError(f"the {name} has no times: align it with `sialign align` and a timed transcript, "
                               "or give its recording to transcribe.")
    params = base if base is not None else align_params(project)
    return align_talk(project, params, filters=filters, progress=progress, should_stop=should_stop)


__all__ = [
    "RECORDING_DROP_THRESHOLD",
    "RECORDING_TIME_WEIGHT",
    "RecordedTalk",
    "ToTranscribe",
    "align_recorded_talk",
    "is_recording",
    "machine_sides",
    "params_for",
    "recording_params",
    "talk_from_recordings",
    "transcribe_recording",
    "transcribe_recordings",
    "transcribe_recordings_apart",
]
