"""Building a talk from files: one way for ``sialign align``, ``sialign demo``, the New talk dialog and the example.

Also the front ends' way to read a project file (:func:`load_project`) and to
name its interpreter for a report (:func:`name_interpreter`, an edit).
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sialign.core.errors import SialignError
from sialign.core.file_kind import AUDIO_SUFFIXES
from sialign.io.project_file import load_project

if TYPE_CHECKING:
    from sialign.core.edit_base import Edit
    from sialign.core.model import Document, Project

log = logging.getLogger(__name__)

# Language codes and role words that file names of a talk's transcripts carry
# ("ted_42.en.srt", "talk-ja.vtt", "lecture_src.txt"): stripped from the end
# of a stem, and never a talk id on their own.
_LANGUAGE_CODES = frozenset(
    "en ja de fr es it zh ko pt ru ar nl pl cs sv da fi no nb tr el he hi uk hu ro bg hr sk sl et lv lt id th vi ms "
    "fa ca eu gl sr".split()
)
_ROLE_WORDS = frozenset(
    "src tgt source target ref reference interp interpretation interpreter transcript transcription text orig "
    "original translation subtitles captions audio".split()
)
_SEPARATORS = "._- "
# Folders that hold files for a while, never one talk: their names are no talk id.
_SCRATCH_FOLDERS = frozenset(
    "tmp temp scratch downloads desktop documents home data files new_folder untitled_folder var".split()
)


def _is_generic(word: str) -> bool:
    """A language code (``en``, ``pt-BR``) or a role word (``src``, ``target``): says nothing about the talk."""
    lower = word.lower()
    base = re.split(r"[-_]", lower, maxsplit=1)[0] if re.fullmatch(r"[a-z]{2}[-_][a-z]{2,4}", lower) else lower
    return base in _LANGUAGE_CODES or lower in _ROLE_WORDS


def _clean_stem(path: str | Path) -> str:
    """The file name without its extensions and trailing language codes or role words."""
    stem = Path(path).name.split(".")[0] if Path(path).name.count(".") > 1 else Path(path).stem
    # Also the middle parts of "ted_42.en.srt": keep the part before the first dot,
    # then drop "_en", "-ja", "_src"... from the end, repeatedly.
    while True:
        match = re.search(r"[._ -]([A-Za-z]{2,}(?:[-_][A-Za-z]{2,4})?)$", stem)
        if match is None or not _is_generic(match.group(1)):
            break
        stem = stem[: match.start()]
    return stem


def _sanitise(text: str) -> str:
    return re.sub(r"[^\w-]+", "_", text).strip("_")


def _common_stem(first: str, second: str) -> str:
    """The longest common start of two stems that ends where a word ends in both."""
    n = 0
    while n < min(len(first), len(second)) and first[n] == second[n]:
        n += 1
    while n > 0:
        ends_first = n == len(first) or first[n] in _SEPARATORS
        ends_second = n == len(second) or second[n] in _SEPARATORS
        if ends_first and ends_second:
            break
        n -= 1
    return first[:n].rstrip(_SEPARATORS)


def talk_id_from_path(path: str | Path, other: str | Path | None = None) -> str:
    """A short talk id from a talk's file names: letters, digits, '-' and '_' only.

    The rule, the same for ``sialign align`` and the New talk dialog:

    1. the name shared by the source and the interpretation file (``ted_42.en.srt``
       and ``ted_42.ja.srt`` → ``ted_42``; language codes and words such as
       ``src``/``target`` at the end of a name are dropped);
    2. else the source file's name (``talk-ja.vtt`` → ``talk``);
    3. when the names say nothing about the talk (``src.txt`` and ``tgt.txt``,
       ``en.srt`` and ``ja.srt``), the name of the folder holding the source,
       unless it is a scratch folder (``tmp``, ``Downloads``, ``Desktop``...);
    4. else ``talk``.
    """
    source = _clean_stem(path)
    candidates = []
    if other:
        candidates.append(_common_stem(source, _clean_stem(other)))
    candidates.append(source)
    for candidate in candidates:
        cleaned = _sanitise(candidate)
        if len(cleaned) >= 2 and not _is_generic(cleaned):
            return cleaned
    folder = _sanitise(Path(path).parent.name)
    if len(folder) >= 2 and not _is_generic(folder) and folder.lower() not in _SCRATCH_FOLDERS:
        return folder
    return "talk"


def default_embedder() -> str:
    """The embedder new talks use: the model chosen with ``sialign models`` / Settings, else ``auto``.

    ``auto`` is resolved per language pair when aligning: the built-in
    multilingual encoder when it covers both languages, else lexical.
    """
    from sialign.embed.models_registry import default_model

    return default_model() or "auto"


def _given_language(code: str | None) -> str | None:
    """A language the user gave, checked and normalised (``eng`` → ``en``); None or blank when none was given."""
    from sialign.core.languages import normalise_language

    return normalise_language(code) if code else None


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
    # Codec names (``"cp932"``, ``"gb18030"``...); None detects each file's encoding.
    source_encoding: str | None = None
    target_encoding: str | None = None
    reference_encoding: str | None = None
    source_audio: str | None = None
    target_audio: str | None = None
    talk_id: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    strict: bool = True


def read_talk(files: TalkFiles) -> Project:
    """Read the transcripts of ``files`` into a new, unaligned project.

    Raises:
        UnknownLanguageError: a language given is no language code (checked before any file is read).
        InputError, FormatError: a transcript cannot be read (file, line, what to do).
    """
    from sialign.io.readers import read_transcript

    source_language = _given_language(files.source_language)
    target_language = _given_language(files.target_language)
    strict = files.strict
    source = read_transcript(files.source, language=source_language, tier=files.source_tier,
                             encoding=files.source_encoding, strict=strict)
    target = read_transcript(files.target, language=target_language, tier=files.target_tier,
                             encoding=files.target_encoding, strict=strict)
    reference = None
    if files.reference:
        reference = read_transcript(files.reference, language=target_language or target.language,
                                    encoding=files.reference_encoding, strict=strict)
    return talk_from_documents(
        source,
        target,
        reference,
        source_path=files.source,
        target_path=files.target,
        talk_id=files.talk_id,
        source_audio=files.source_audio,
        target_audio=files.target_audio,
        metadata=files.metadata,
    )


def encoding_doubts(files: TalkFiles) -> list[tuple[str, str]]:
    """``(setting, line)`` per transcript whose detected encoding may be wrong (none for an encoding the user gave).

    Each line names the file, the reason and that naming its encoding fixes
    it; ``setting`` (``src_encoding``, ``tgt_encoding``, ``ref_encoding``) says
    which encoding, for the front end to word (the CLI prints the lines as
    warnings with its option, as *New talk* shows its preview).
    """
    lines = []
    for path, encoding, setting in ((files.source, files.source_encoding, "src_encoding"),
                                    (files.target, files.target_encoding, "tgt_encoding"),
                                    (files.reference, files.reference_encoding, "ref_encoding")):
        if path and not encoding:
            lines += [(setting, line) for line in transcript_encoding_doubts(path)]
    return lines


def transcript_encoding_doubts(path: str | Path) -> list[str]:
    """One line per reason the detected encoding of the transcript at ``path`` may be wrong, saying to name it."""
    from sialign.io.text_preview import preview_transcript

    try:
        preview = preview_transcript(path)
    except SialignError:
        return []  # reading it reports the problem itself
    return [f"{path}: the encoding may be wrong ({doubt}); if the text looks garbled, name its encoding" for doubt in preview.doubts]


def talk_from_documents(
    source: Document,
    target: Document,
    reference: Document | None = None,
    *,
    source_path: str | Path = "",
    target_path: str | Path = "",
    talk_id: str | None = None,
    source_language: str | None = None,
    target_language: str | None = None,
    source_audio: str | None = None,
    target_audio: str | None = None,
    metadata: dict[str, Any] | None = None,
) -> Project:
    """A new, unaligned project from documents already read.

    The talk id is ``talk_id`` when given, else :func:`talk_id_from_path` of
    ``source_path`` and ``target_path``; given languages replace the documents' (the reference
    always takes the target's); audio paths are attached when given.

    Raises:
        UnknownLanguageError: a language given is no language code.
    """
    from sialign.core.model import Project

    log.debug("talk from %d source and %d target segments%s", len(source), len(target),
              "" if reference is None else f" and a reference of {len(reference)} lines")
    source_language = _given_language(source_language)
    target_language = _given_language(target_language)
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
        talk_id=(talk_id or "").strip() or talk_id_from_path(source_path, target_path or None),
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
    from sialign.io.readers import EXTENSIONS, read_transcript

    found = []
    for path in sorted(folder.iterdir()):
        if path.is_file() and path.suffix.lower() in EXTENSIONS and not path.name.lower().startswith(("readme", "license")):
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


def name_interpreter(project: Project, interpreter: str | None = None, rank: str | None = None) -> Edit | None:
    """Set the interpreter's id and rank that reports print (an edit, as *Project properties* makes it).

    None leaves a value as it is. Returns the edit that undoes it, None when nothing changed.
    """
    from dataclasses import replace

    from sialign.core.edits import apply_edit
    from sialign.core.param_edits import SetTalkInfo

    current = SetTalkInfo.of(project, label="Name the interpreter")
    wanted = replace(current, interpreter=current.interpreter if interpreter is None else interpreter,
                     rank=current.rank if rank is None else rank)
    return apply_edit(project, wanted) if wanted != current else None


__all__ = [
    "TalkFiles",
    "audio_beside",
    "default_embedder",
    "encoding_doubts",
    "example_folder",
    "load_example",
    "load_project",
    "name_interpreter",
    "read_talk",
    "talk_from_documents",
    "talk_id_from_path",
    "transcript_encoding_doubts",
]
