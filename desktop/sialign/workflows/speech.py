"""The speech models, as the front ends ask for them: which Whisper folder to use, what it hears, whether it loads.

The command line, the desktop app's dialogs and the practice booth look up
speech models here rather than in :mod:`sialign.transcribe` (the ``speech-door``
contract in ``pyproject.toml``): a name or folder given by the user
(:func:`whisper_model_for`), the default model with what it recognises
(:func:`default_whisper_info`), what a folder recognises without loading it
(:func:`whisper_model_info`), the models to offer in a list
(:func:`speech_models`, joined ahead of time by
:func:`prepare_speech_models_in_background`), and the check that the recogniser itself is
installed (:func:`require_recogniser`).
"""

from __future__ import annotations

import threading
from pathlib import Path

from sialign.core.errors import SialignError
from sialign.core.progress import ProgressFn, StopFn
from sialign.transcribe.models import WhisperInfo, default_whisper_info, whisper_model_for, whisper_model_info
from sialign.transcribe.recognise import require_recogniser


def speech_models() -> tuple[list[tuple[str, Path]], str | None]:
    """(name, folder) of every usable Whisper model, and the name of the one to use by default (None: none chosen).

    The default is the one set in the settings or with ``sialign models default``, else the one the registry implies
    (:meth:`~sialign.embed.models_registry.ModelRegistry.implied_whisper_default`).
    """
    from sialign.embed.models_registry import KIND_WHISPER, ModelRegistry

    registry = ModelRegistry()
    found = [(e.name, e.path) for e in registry.list_models(kind=KIND_WHISPER) if e.usable and e.path is not None]
    default = registry.default_whisper
    if default is None:
        implied = registry.implied_whisper_default()  # the registry's one rule (the only model, or the multilingual
        default = implied[0].name if len(implied) == 1 else None  # one of those installed as packages)
    return found, default


def prepare_speech_models_in_background() -> threading.Thread:
    """Look the speech models up once on a background thread, so that a model installed in parts is joined there.

    Whisper base comes as two packages whose parts are joined into one file on first use (about a second for
    145 MB, :func:`~sialign.embed.models_registry.packaged_whisper_folder`); the desktop app starts this at
    launch so that the first *Speech models* dialog or booth does not do it on the window's thread. Joining is
    safe to race with a lookup elsewhere (each writes a scratch folder and renames it). Errors are left for the
    lookup that needs the model to report.
    """

    def look_up() -> None:
        try:
            speech_models()
        except Exception:  # reported by whoever needs the model, in one line
            pass

    thread = threading.Thread(target=look_up, name="speech-models", daemon=True)
    thread.start()
    return thread


def detect_recording_language(audio: str | Path, model: str | Path | None = None, *,
                              progress: ProgressFn | None = None, should_stop: StopFn | None = None) -> tuple[str, float]:
    """The language the speech model (``model``: a folder, a name, or None for the default) hears in the first 30 s of
    speech of ``audio``, and how sure it is; ("", 0.0) for an English-only model. A second or two, so ``progress``
    hears only the start and ``should_stop`` is asked once, before the model loads (as a worker process calls it).

    Raises:
        SialignError: no speech model, the recording cannot be decoded (one line each).
        AlignmentCancelled: ``should_stop`` said so.
    """
    from sialign.core.progress import check_stop
    from sialign.transcribe.recognise import detect_language

    require_recogniser()
    folder = whisper_model_for(model)
    if progress is not None:
        progress(0.0, f"Listening to {Path(audio).name}")
    check_stop(should_stop)
    return detect_language(audio, folder)


def check_model_hears(model: str | Path, language: str) -> WhisperInfo:
    """What the Whisper model ``model`` (a folder) recognises, refusing a model that cannot hear ``language``.

    Read from the folder's files, without loading the model: a session is refused before anything is recorded.

    Raises:
        ModelLoadError: ``model`` is not a Whisper folder.
        SialignError: the model does not know ``language`` (an English-only model for a Japanese rendition).
    """
    info = whisper_model_info(model)
    if not info.knows(language):
        raise SialignError(f"the speech model {info.name} recognises {info.describe()}, not {language!r}: "
                           "choose a multilingual model.", settings=("speech_model",))
    return info


__all__ = [
    "WhisperInfo",
    "check_model_hears",
    "default_whisper_info",
    "require_recogniser",
    "speech_models",
    "whisper_model_for",
    "whisper_model_info",
]
