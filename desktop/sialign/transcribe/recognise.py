"""Speech recognition with a local Whisper model (faster-whisper, CTranslate2).

Nothing here reaches for a network: the model is a folder on disk, loaded
with ``local_files_only=True``; faster-whisper and its voice-activity model
(Silero, shipped inside the faster-whisper wheel) are imported lazily, so
the rest of SI Aligner works without them.
"""

from __future__ import annotations

import logging
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from sialign.core.errors import InputError, ModelLoadError, UnknownLanguageError
from sialign.core.progress import ProgressFn, StopFn

log = logging.getLogger(__name__)

SAMPLE_RATE = 16_000  # what Whisper listens at
# Below this peak amplitude (about -70 dBFS) a recording holds no speech to find.
SILENCE_PEAK = 3e-4
INSTALL_HINT = "install SI Aligner with its 'transcribe' extra (pip install 'sialign[transcribe]')"


def require_recogniser() -> None:
    """Fail at once, in one line, when faster-whisper cannot be imported (before any model or file is read).

    Raises:
        ModelLoadError: :func:`whisper_missing`'s message.
    """
    from sialign.core.offline import no_telemetry

    no_telemetry()
    try:
        import faster_whisper  # noqa: F401
    except (ImportError, OSError) as exc:  # OSError: a native library of CTranslate2 or PyAV that does not load
        raise whisper_missing(exc) from exc


def whisper_missing(exc: Exception) -> ModelLoadError:
    """The one-line error when faster-whisper cannot be imported.

    Both installers carry the recogniser, so in a frozen program its failing
    to import means a damaged installation: the user needs to reinstall, not a
    pip command.
    """
    if getattr(sys, "frozen", False):
        return ModelLoadError(
            f"the speech recogniser of this installation does not load ({_first_line(exc)}): "
            "reinstall SI Aligner, or open transcripts made elsewhere."
        )
    return ModelLoadError(f"faster-whisper is not installed ({exc}); {INSTALL_HINT}.")


@dataclass(frozen=True)
class Word:
    """One recognised word.

    Attributes:
        text: the word as Whisper wrote it, with its leading space when the
            language puts spaces between words (`` Good``); joined without
            a separator these give the transcript.
        start / end: seconds from the start of the recording.
        probability: the recogniser's confidence, 0..1.
    """

    text: str
    start: float
    end: float
    probability: float = 1.0


@dataclass
class Recognition:
    """What the recogniser heard.

    Attributes:
        words: in time order.
        language: the language recognised (given, or detected by a multilingual model).
        duration: length of the recording in seconds.
        speech_seconds: length of what the voice-activity filter kept.
        seconds: wall-clock time the recognition took.
        interrupted: stopped early (Ctrl+C, Cancel): ``words`` hold what was done.
        done_until: the recording time up to which words were recognised.
        model: the model folder used.
        heard / heard_probability: the language a multilingual model hears in the first 30 s of speech and how sure
            it is (the same as ``language`` when none was given); "" and 0 for an English-only model.
    """

    words: list[Word] = field(default_factory=list)
    language: str = "und"
    duration: float = 0.0
    speech_seconds: float = 0.0
    seconds: float = 0.0
    interrupted: bool = False
    done_until: float = 0.0
    model: str = ""
    heard: str = ""
    heard_probability: float = 0.0

    @property
    def real_time_factor(self) -> float:
        """Processing time over recording time (0.1 = ten times faster than real time)."""
        return self.seconds / self.duration if self.duration > 0 else 0.0


def whisper_languages() -> frozenset[str]:
    """The language codes Whisper knows (``en``, ``ja``, ``de``... 100 of them)."""
    from faster_whisper.tokenizer import _LANGUAGE_CODES

    return frozenset(_LANGUAGE_CODES)


def check_language(language: str | None, multilingual: bool, model: Path) -> str | None:
    """The Whisper code for ``language`` (``en-US`` → ``en``); None lets a multilingual model detect it.

    Raises:
        UnknownLanguageError: Whisper knows no such language.
        ModelLoadError: an English-only model (``tiny.en``) and another language.
    """
    if language is None or language in ("", "auto", "und"):
        return None if multilingual else "en"
    code = language.split("-")[0].split("_")[0].lower()
    if code not in whisper_languages():
        raise UnknownLanguageError(language)
    if not multilingual and code != "en":
        raise ModelLoadError(
            f"{model}: an English-only Whisper model (such as tiny.en) cannot recognise '{language}' — "
            "use a multilingual model (tiny, small, medium, large-v3)."
        )
    return code


def decode_with_soundfile(path: Path) -> np.ndarray | None:
    """16 kHz mono float32 samples of ``path`` through libsndfile (WAV, FLAC, OGG, MP3...); None when it cannot read it.

    The recogniser needs no PyAV for the formats every build reads anyway: the
    booth's decoder (:func:`sialign.audio.mono.read_mono`) averages the
    channels and converts the rate with a polyphase filter, block by block.
    """
    import soundfile as sf

    from sialign.audio.mono import read_mono

    try:
        info = sf.info(str(path))
    except (RuntimeError, TypeError, ValueError):  # sf.LibsndfileError is a RuntimeError: a format it does not know
        return None
    if info.frames <= 0:
        return np.zeros(0, dtype=np.float32)
    return np.ascontiguousarray(read_mono(path, SAMPLE_RATE), dtype=np.float32)


def decode_audio_file(path: str | Path) -> tuple[Path, np.ndarray]:
    """Decode ``path`` to 16 kHz mono float32 samples: libsndfile first, PyAV for what it cannot read (M4A, video).

    Returns:
        The resolved path and an array of shape (n_samples,).

    Raises:
        InputError: missing, empty, not audio, or silent; the message names the file.
    """
    from sialign.audio.decode import audio_file_problem

    p = Path(path).expanduser()
    problem = audio_file_problem(p)
    if problem:
        raise InputError(p, problem, hint="give the recording's path")
    if p.stat().st_size == 0:
        raise InputError(p, "the file is empty (0 bytes)", hint="copy the recording again")
    samples = decode_with_soundfile(p)
    if samples is None:
        samples = _decode_with_pyav(p)
    if samples.size == 0:
        raise InputError(p, "the recording holds no samples", hint="check that the recording is not empty")
    if float(np.max(np.abs(samples))) < SILENCE_PEAK:
        raise InputError(p, f"the recording is silent ({samples.size / SAMPLE_RATE:.1f} s without sound)",
                         hint="check that the right track or microphone was recorded")
    return p.resolve(), samples


def _decode_with_pyav(p: Path) -> np.ndarray:
    """16 kHz mono samples through PyAV (faster-whisper's decoder), for formats libsndfile does not read."""
    try:
        from faster_whisper import decode_audio
    except (ImportError, OSError) as exc:
        raise InputError(p, f"not a format this build can decode without PyAV ({_first_line(exc)})",
                         hint="convert it to WAV, FLAC, OGG or MP3") from exc
    try:
        samples = np.asarray(decode_audio(str(p), sampling_rate=SAMPLE_RATE), dtype=np.float32)
    except ImportError as exc:  # the installers carry a placeholder for PyAV (packaging/rthook_no_pyav.py)
        raise InputError(p, f"not a format this build can decode without PyAV ({_first_line(exc)})",
                         hint="convert it to WAV, FLAC, OGG or MP3") from exc
    except Exception as exc:  # PyAV raises its own error classes for every kind of bad file
        # A container without an audio stream fails inside faster-whisper with an IndexError.
        detail = "no audio stream" if isinstance(exc, (IndexError, StopIteration)) else f"{type(exc).__name__}: {_first_line(exc)}"
        raise InputError(
            p, f"not an audio or video file that can be decoded ({detail})",
            hint="give a WAV, FLAC, OGG, MP3, M4A or video file",
        ) from exc
    return samples


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0][:160] if text else "no message"


def pick_device(device: str) -> tuple[str, str]:
    """(device, compute type): ``auto`` takes a CUDA GPU with float16 when CTranslate2 sees one, else CPU int8."""
    if device == "cpu":
        return "cpu", "int8"
    if device == "cuda":
        return "cuda", "float16"
    import ctranslate2

    return ("cuda", "float16") if ctranslate2.get_cuda_device_count() > 0 else ("cpu", "int8")


def recognise(
    audio: str | Path,
    model: str | Path,
    *,
    language: str | None = None,
    device: str = "auto",
    threads: int | None = None,
    beam_size: int = 5,
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
) -> Recognition:
    """Recognise the words of a recording, with their times.

    Args:
        audio: the recording (anything FFmpeg decodes).
        model: a Whisper model folder in CTranslate2 format.
        language: the spoken language (``en``, ``ja``...); None lets a
            multilingual model detect it.
        device: ``auto`` (a GPU when there is one), ``cpu`` or ``cuda``.
        threads: CPU threads (default: the machine's cores, at most 4).
        progress: ``progress(fraction, message)`` with an ETA in the message.
        should_stop: polled between recognised stretches; when it says so
            (or on Ctrl+C) the words so far are returned with ``interrupted``.

    Raises:
        InputError: the recording cannot be decoded, is empty or silent, or holds no speech.
        ModelLoadError: faster-whisper missing, or the folder is not a Whisper model that loads.
        UnknownLanguageError: Whisper knows no such language.
    """
    from sialign.embed.models_registry import whisper_folder_problem

    require_recogniser()
    folder = Path(model).expanduser()
    problem = whisper_folder_problem(folder)
    if problem:
        raise ModelLoadError(problem)
    if language:
        check_language(language, True, folder)  # an unknown code fails before seconds of decoding
    path, samples = decode_audio_file(audio)
    duration = float(samples.size) / SAMPLE_RATE
    try:
        from faster_whisper import WhisperModel
    except ImportError as exc:
        raise whisper_missing(exc) from exc
    dev, compute_type = pick_device(device)
    cpu_threads = threads if threads else min(4, os.cpu_count() or 1)
    started = time.perf_counter()
    try:
        whisper = WhisperModel(str(folder), device=dev, compute_type=compute_type, cpu_threads=cpu_threads,
                               local_files_only=True)
    except Exception as exc:  # a loader failure is a broken folder to the user
        raise ModelLoadError(
            f"{folder}: the Whisper model could not be loaded ({type(exc).__name__}: {_first_line(exc)}) — "
            "copy the whole folder again."
        ) from exc
    multilingual = bool(whisper.model.is_multilingual)
    code = check_language(language, multilingual, folder)
    heard, heard_probability = "", 0.0
    if multilingual and code is not None:
        # The language chosen is checked against what the model hears (one pass over 30 s of speech).
        heard, heard_probability = _heard_language(whisper, samples)
    segments, info = whisper.transcribe(
        samples, language=code, beam_size=beam_size, word_timestamps=True, vad_filter=True,
        condition_on_previous_text=False,
    )
    if multilingual and code is None:
        heard, heard_probability = info.language, float(info.language_probability or 0.0)
    result = Recognition(language=info.language, duration=duration, model=str(folder),
                         speech_seconds=float(info.duration_after_vad or 0.0), heard=heard,
                         heard_probability=heard_probability)
    if progress is not None:
        progress(0.0, "Recognising speech")
    try:
        for seg in segments:
            for w in seg.words or []:
                result.words.append(Word(str(w.word), float(w.start), float(w.end), float(w.probability)))
            result.done_until = float(seg.end)
            if progress is not None and duration > 0:
                fraction = min(1.0, result.done_until / duration)
                spent = time.perf_counter() - started
                left = spent / fraction * (1 - fraction) if fraction > 0 else 0.0
                progress(fraction, f"Recognised {_clock(result.done_until)} of {_clock(duration)}, about {_clock(left)} left")
            if should_stop is not None and should_stop():
                result.interrupted = True
                break
    except KeyboardInterrupt:
        result.interrupted = True
    result.seconds = time.perf_counter() - started
    if not result.interrupted:
        result.done_until = duration
    if not result.words and not result.interrupted:
        raise InputError(path, f"no speech was found in {duration:.1f} s of sound",
                         hint="check that the recording holds speech and that its language is right", settings=("language",))
    return result


def _heard_language(whisper: Any, samples: np.ndarray) -> tuple[str, float]:
    """The language ``whisper`` (a loaded multilingual model) hears in the first 30 s of speech, and its probability."""
    try:
        language, probability, _all = whisper.detect_language(samples, vad_filter=True)
    except Exception as exc:  # no speech in the first stretch, an older faster-whisper: nothing heard
        log.info("language not detected: %s", _first_line(exc))
        return "", 0.0
    return str(language), float(probability)


def detect_language(audio: str | Path, model: str | Path, *, device: str = "auto",
                    threads: int | None = None) -> tuple[str, float]:
    """The language a multilingual Whisper model hears in a recording's first 30 s of speech, and its probability.

    ("", 0.0) for an English-only model, which hears English only.

    Raises:
        InputError: the recording cannot be decoded. ModelLoadError: the model is missing or does not load.
    """
    from sialign.embed.models_registry import whisper_folder_problem

    require_recogniser()
    folder = Path(model).expanduser()
    problem = whisper_folder_problem(folder)
    if problem:
        raise ModelLoadError(problem)
    _path, samples = decode_audio_file(audio)
    from faster_whisper import WhisperModel

    dev, compute_type = pick_device(device)
    try:
        whisper = WhisperModel(str(folder), device=dev, compute_type=compute_type,
                               cpu_threads=threads if threads else min(4, os.cpu_count() or 1), local_files_only=True)
    except Exception as exc:
        raise ModelLoadError(f"{folder}: the Whisper model could not be loaded ({type(exc).__name__}: "
                             f"{_first_line(exc)}) — copy the whole folder again.") from exc
    if not whisper.model.is_multilingual:
        return "", 0.0
    return _heard_language(whisper, samples[: 60 * SAMPLE_RATE])


def _clock(seconds: float) -> str:
    seconds = max(0, int(round(seconds)))
    return f"{seconds // 60}:{seconds % 60:02d}"
