"""A recording → a timed transcript document, in one call (what the CLI and the GUI run)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sialign.core.model import MACHINE_FORMAT, Document
from sialign.core.progress import ProgressFn, StopFn, stage
from sialign.transcribe.recognise import Recognition, recognise
from sialign.transcribe.segmenting import words_to_document

# Written into a machine transcript's Document.format, so projects and reports can say so.


@dataclass
class Transcription:
    """A transcript made by a speech model.

    Attributes:
        document: sentences (source) or chunks (interpretation) with times;
            ``format`` is ``"whisper"`` and ``audio_path`` the recording.
        recognition: the recognised words and timings.
    """

    document: Document
    recognition: Recognition


def transcribe_file(
    audio: str | Path,
    model: str | Path,
    *,
    language: str | None = None,
    role: str = "source",
    device: str = "auto",
    threads: int | None = None,
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
) -> Transcription:
    """Recognise ``audio`` with the Whisper model folder ``model`` and segment the words.

    Interrupted (``should_stop`` or Ctrl+C), the document holds what was
    recognised so far and ``recognition.interrupted`` is set.

    Raises:
        InputError / ModelLoadError / UnknownLanguageError: as :func:`recognise`.
    """
    heard = recognise(audio, model, language=language, device=device, threads=threads,
                      progress=stage(progress, 0.0, 0.97), should_stop=should_stop)
    lang = language.split("-")[0].lower() if language else heard.language
    doc = words_to_document(heard.words, lang, role=role)
    doc.audio_path = str(Path(audio).expanduser().resolve())
    doc.format = MACHINE_FORMAT
    if progress is not None:
        progress(1.0, f"Cut {len(doc)} segments")
    return Transcription(document=doc, recognition=heard)
