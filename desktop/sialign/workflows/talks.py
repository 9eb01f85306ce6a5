"""Building a talk from files: one way for ``sialign align``, ``sialign demo``, the New talk dialog and the example."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sialign.core.model import Document, Project

log = logging.getLogger(__name__)

TRANSCRIPT_SUFFIXES = (".srt", ".vtt", ".tsv", ".textgrid", ".eaf", ".txt")
AUDIO_SUFFIXES = (".wav", ".flac", ".ogg", ".mp3")
_LANGUAGE_SUFFIXES = (".en", ".ja", "_en", "_ja", "-en", "-ja", ".src", ".tgt")


def talk_id_from_path(path: str | Path) -> str:
    """A short talk id from a source file name: letters, digits, '-' and '_' only.

    ``ted_42.en.srt`` → ``ted_42``; ``talk-ja.vtt`` → ``talk``; a name with
    nothing usable → ``talk``.
    """
    stem = Path(path).stem
    for suffix in _LANGUAGE_SUFFIXES:
        if stem.lower().endswith(suffix):
            stem = stem[: -len(suffix)]
    return re.sub(r"[^\w-]+", "_", stem).strip("_") or "talk"


def default_embedder() -> str:
    """The embedder new talks use: the model chosen with ``sialign models`` / Settings, else ``auto``.

    ``auto`` is resolved per language pair when aligning: the built-in
    multilingual encoder when it covers both languages, else lexical.
    """
    from sialign.embed.models_registry import default_model

    return default_model() or "auto"


@dataclass
class TalkFiles:
    """What a talk is made of: transcripts (with their tier and language when known), audio and metadata."""

    source: str | Path
    target: str | Path
    reference: str | Path | None = None
    source_language: str | None = None
    target_language: str | None = None
    source_tier: str | int | None = None
    target_tier: str | int | None = None
    source_audio: str | None = None
    target_audio: str | None = None
    talk_id: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    strict: bool = True


def read_talk(files: TalkFiles) -> Project:
    """Read the transcripts of ``files`` into a new, unaligned project.

    Raises:
        InputError, FormatError: a transcript cannot be read (file, line, what to do).
    """
    from sialign.io.readers import read_transcript

    strict = files.strict
    source = read_transcript(files.source, language=files.source_language, tier=files.source_tier, strict=strict)
    target = read_transcript(files.target, language=files.target_language, tier=files.target_tier, strict=strict)
    reference = None
    if files.reference:
        reference = read_transcript(files.reference, language=files.target_language or target.language, strict=strict)
    return talk_from_documents(
        source,
        target,
        reference,
        source_path=files.source,
        talk_id=files.talk_id,
        source_audio=files.source_audio,
        target_audio=files.target_audio,
        metadata=files.metadata,
    )


def talk_from_documents(
    source: Document,
    target: Document,
    reference: Document | None = None,
    *,
    source_path: str | Path = "",
    talk_id: str | None = None,
    source_language: str | None = None,
    target_language: str | None = None,
    source_audio: str | None = None,
    target_audio: str | None = None,
    metadata: dict[str, Any] | None = None,
) -> Project:
    """A new, unaligned project from documents already read.

    The talk id is ``talk_id`` when given, else :func:`talk_id_from_path` of
    ``source_path``; given languages replace the documents' (the reference
    always takes the target's); audio paths are attached when given.
    """
    from sialign.core.model import Project

    log.debug("talk from %d source and %d target segments%s", len(source), len(target),
              "" if reference is None else f" and a reference of {len(reference)} lines")  # fmt: skip
    if source_language:
        source.language = source_language
    if target_language:
        target.language = target_language
    if reference is not None:
        reference.language = target.language
    if source_audio is not None:
        source.audio_path = source_audio or None
    if target_audio is not None:
        target.audio_path = target_audio or None
    return Project(
        talk_id=(talk_id or "").strip() or talk_id_from_path(source_path),
        source=source,
        target=target,
        reference=reference,
        metadata=dict(metadata or {}),
    )


def example_folder(explicit: str | Path | None = None) -> Path:
    """The example folder: ``explicit``, else ``examples/`` of the bundled resources."""
    from sialign.core.errors import InputError
    from sialign.core.paths import resource_roots

    if explicit:
        folder = Path(explicit)
        if not folder.is_dir():
            raise InputError(folder, "no such folder", hint="give the folder holding the example transcripts")
        return folder
    for root in resource_roots():
        if (root / "examples").is_dir():
            return root / "examples"
    raise InputError(None, "the example talk is not installed", hint="reinstall SI Aligner or run 'sialign align' on your own files")


def audio_beside(path: Path) -> str | None:
    """An audio file named like the transcript ``path`` (``talk.en.srt`` → ``talk.en.ogg``), or None."""
    stem = path.name.split(".")[0] + "." + path.name.split(".")[1] if path.name.count(".") >= 2 else path.stem
    for suffix in AUDIO_SUFFIXES:
        for candidate in (path.with_suffix(suffix), path.parent / f"{stem}{suffix}"):
            if candidate.is_file():
                return str(candidate)
    return None


def load_example(folder: Path) -> Project:
    """Read an example folder into an unaligned project.

    The Japanese transcript named without "ref" is the interpretation, the
    one with "ref" the reference translation, the other one the source;
    audio files named like a transcript are attached to it.
    """
    from sialign.core.errors import InputError
    from sialign.io.readers import read_transcript

    found = []
    for path in sorted(folder.iterdir()):
        if path.is_file() and path.suffix.lower() in TRANSCRIPT_SUFFIXES and not path.name.lower().startswith(("readme", "license")):
            found.append((path, read_transcript(path)))
    sources = [(p, d) for p, d in found if d.language != "ja"]
    targets = [(p, d) for p, d in found if d.language == "ja" and "ref" not in p.name.lower()]
    references = [(p, d) for p, d in found if d.language == "ja" and "ref" in p.name.lower()]
    if not sources or not targets:
        raise InputError(folder, "the example folder needs a source transcript and a Japanese interpretation transcript")
    (src_path, source), (tgt_path, target) = sources[0], targets[0]
    return talk_from_documents(
        source,
        target,
        references[0][1] if references else None,
        source_path=src_path,
        source_audio=audio_beside(src_path) or "",
        target_audio=audio_beside(tgt_path) or "",
        metadata={"example": True},
    )


__all__ = [
    "TalkFiles",
    "audio_beside",
    "default_embedder",
    "example_folder",
    "load_example",
    "read_talk",
    "talk_from_documents",
    "talk_id_from_path",
]
