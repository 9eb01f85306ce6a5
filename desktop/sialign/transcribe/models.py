"""Speech models: which Whisper folder to use, and what a folder can recognise (no Qt, nothing loaded).

The model registry of :mod:`sialign.embed.models_registry` keeps the speech
models beside the sentence models (``sialign models add``, *Settings →
Speech models…*) and remembers a default. :func:`default_whisper_model` is
what every front end asks when the user names no model (``sialign
transcribe`` / ``retime`` / ``align`` with recordings, the Transcribe… and
Time from audio… dialogs, the practice booth); :func:`whisper_model_info`
reads a folder's languages from its own files without loading the model.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from sialign.core.errors import ModelLoadError

# Vocabulary size of Whisper's English-only models (tiny.en ... medium.en); multilingual ones have more tokens.
ENGLISH_ONLY_VOCABULARY = 51864


@dataclass(frozen=True)
class WhisperInfo:
    """What a Whisper model folder holds, read from its files.

    Attributes:
        folder: the model folder.
        name: its name in the registry (the folder's name for a folder given by path).
        multilingual: recognises many languages (``base``, ``large-v3``), not English only (``base.en``).
        languages: the language codes it knows, in the model's order (``en`` first).
        size_bytes: size of ``model.bin``.
    """

    folder: Path
    name: str
    multilingual: bool
    languages: tuple[str, ...]
    size_bytes: int

    def describe(self) -> str:
        """``multilingual (99 languages)`` or ``English only``."""
        if not self.multilingual:
            return "English only"
        return f"multilingual ({len(self.languages)} languages)"

    def knows(self, language: str | None) -> bool:
        """Whether the model can recognise ``language`` (``en-US`` counts as ``en``; None or ``auto``: yes)."""
        if not language or language in ("auto", "und"):
            return True
        return language.split("-")[0].split("_")[0].lower() in self.languages


def _vocabulary(folder: Path) -> list[str] | None:
    """The model's token list (``vocabulary.txt`` / ``.json``, else ``tokenizer.json``), None when unreadable."""
    try:
        if (folder / "vocabulary.txt").is_file():
            text = (folder / "vocabulary.txt").read_text(encoding="utf-8")
            return text[:-1].split("\n") if text.endswith("\n") else text.split("\n")
        if (folder / "vocabulary.json").is_file():
            data = json.loads((folder / "vocabulary.json").read_text(encoding="utf-8"))
            return [str(t) for t in data] if isinstance(data, list) else None
        if (folder / "tokenizer.json").is_file():
            data = json.loads((folder / "tokenizer.json").read_text(encoding="utf-8"))
            vocab: dict[str, int] = dict(data.get("model", {}).get("vocab", {}))
            for token in data.get("added_tokens", []):
                vocab.setdefault(str(token.get("content")), int(token.get("id")))
            tokens = [""] * (max(vocab.values()) + 1 if vocab else 0)
            for token_text, index in vocab.items():
                tokens[index] = token_text
            return tokens
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, TypeError, ValueError, AttributeError):
        return None
    return None


def whisper_model_info(folder: str | Path, name: str | None = None) -> WhisperInfo:
    """Read what the Whisper model in ``folder`` recognises (fast: no model is loaded).

    Multilingual or English only follows from the vocabulary's size (as
    CTranslate2 decides it); the languages are the ``<|xx|>`` tokens that
    ``config.json``'s ``lang_ids`` point to.

    Raises:
        ModelLoadError: not a Whisper folder (config.json, model.bin and a
            tokenizer), or its files cannot be read; the message says what to do.
    """
    from sialign.embed.models_registry import whisper_folder_problem

    path = Path(folder).expanduser()
    problem = whisper_folder_problem(path)
    if problem:
        raise ModelLoadError(problem)
    vocabulary = _vocabulary(path)
    try:
        config = json.loads((path / "config.json").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ModelLoadError(f"{path / 'config.json'}: cannot be read ({exc}) — copy the model folder again.") from exc
    if vocabulary is None:
        raise ModelLoadError(f"{path}: the model's vocabulary (vocabulary.txt or tokenizer.json) cannot be read — "
                             "copy the model folder again.")
    multilingual = len(vocabulary) > ENGLISH_ONLY_VOCABULARY
    languages: list[str] = []
    if multilingual:
        for index in config.get("lang_ids") or []:
            token = vocabulary[index] if isinstance(index, int) and 0 <= index < len(vocabulary) else ""
            if token.startswith("<|") and token.endswith("|>"):
                languages.append(token[2:-2])
    return WhisperInfo(
        folder=path,
        name=name or path.name,
        multilingual=multilingual,
        languages=tuple(languages) if multilingual else ("en",),
        size_bytes=(path / "model.bin").stat().st_size,
    )


def default_whisper_model() -> Path:
    """The Whisper model folder to use when none is named.

    The default chosen in *Settings → Speech models…* or with ``sialign models
    default NAME``; without one, the only Whisper model installed.

    Raises:
        ModelNotFoundError: none is set and there is not exactly one; the
            one-line message says where to set it.
        ModelLoadError: the default's folder is no longer a Whisper model.
    """
    from sialign.embed.models_registry import ModelRegistry

    return ModelRegistry().whisper_folder(None)


def default_whisper_info() -> WhisperInfo:
    """:func:`whisper_model_info` of :func:`default_whisper_model`, with its registry name.

    Raises:
        ModelNotFoundError, ModelLoadError: as :func:`default_whisper_model`.
    """
    from sialign.embed.models_registry import ModelRegistry

    registry = ModelRegistry()
    folder = registry.whisper_folder(None)
    name = registry.default_whisper or folder.name
    return whisper_model_info(folder, name=name)


def whisper_model_for(name_or_path: str | Path | None) -> Path:
    """The folder of ``--model``: a folder, a name added with ``sialign models add``, or None for the default."""
    from sialign.embed.models_registry import ModelRegistry

    if name_or_path is None:
        return default_whisper_model()
    return ModelRegistry().whisper_folder(name_or_path)


__all__ = [
    "WhisperInfo",
    "default_whisper_info",
    "default_whisper_model",
    "whisper_model_for",
    "whisper_model_info",
]
