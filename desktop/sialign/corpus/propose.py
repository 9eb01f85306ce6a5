"""A manifest proposed from a folder of transcripts, for *File → New corpus…*.

Two layouts are recognised, both at once:

* one folder for all talks, the language in each file name:
  ``<talk>.<lang>.<ext>`` (``ted_42.en.srt`` ↔ ``ted_42.ja.srt``), a
  reference as ``<talk>.ref.<lang>.<ext>``, audio as ``<talk>.<lang>.ogg``
  (``wav``, ``mp3``, ``flac``) beside them;
* one folder per talk holding ``src.*`` and ``tgt.*`` (or ``source.*`` and
  ``target.*``), ``ref.*`` and audio of the same names; the folder names the talk.

The proposal is a starting point shown for editing; :func:`write_manifest`
saves the edited rows as the TSV that :func:`~sialign.corpus.manifest.read_manifest`
reads and ``sialign corpus align`` takes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from sialign.core.file_kind import AUDIO_SUFFIXES
from sialign.corpus.manifest import REQUIRED

# The manifest's columns, in the order the proposal and the saved file use.
COLUMNS = ("talk", "source", "target", "reference", "source_audio", "target_audio", "interpreter", "src_lang", "tgt_lang")
_SIDE_NAMES = {"src": "source", "source": "source", "tgt": "target", "target": "target", "ref": "reference",
               "reference": "reference"}
_LANG_RE = re.compile(r"^[a-z]{2,3}(?:[-_][A-Za-z]{2,4})?$")


@dataclass
class ProposedTalk:
    """One row of a proposed manifest; paths relative to the corpus folder ("" when there is none)."""

    talk: str
    source: str
    target: str
    reference: str = ""
    source_audio: str = ""
    target_audio: str = ""
    interpreter: str = ""
    src_lang: str = ""
    tgt_lang: str = ""

    def row(self) -> list[str]:
        return [str(getattr(self, name)) for name in COLUMNS]


def _is_transcript(path: Path) -> bool:
    from sialign.io.readers import EXTENSIONS

    return path.is_file() and path.suffix.lower() in EXTENSIONS and path.name != "manifest.tsv"


def _talk_name(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("._-")[:120] or "talk"


def languages_in(folder: str | Path) -> list[str]:
    """The language codes named in the folder's ``<talk>.<lang>.<ext>`` transcripts, most frequent first."""
    counts: dict[str, int] = {}
    for path in sorted(Path(folder).iterdir()):
        parts = path.name.split(".")
        if _is_transcript(path) and len(parts) >= 3 and _LANG_RE.match(parts[-2]) and parts[-3] != "ref":
            counts[parts[-2]] = counts.get(parts[-2], 0) + 1
    return sorted(counts, key=lambda code: (-counts[code], code != "en", code))


def propose_manifest(folder: str | Path, source_language: str = "") -> list[ProposedTalk]:
    """Pair the transcripts (and audio) under ``folder`` into talks.

    Args:
        folder: the corpus folder.
        source_language: the language of the source side in ``<talk>.<lang>.<ext>``
            names; "" picks the most frequent one (English on a tie).

    Returns:
        One row per talk with a source and a target found, sorted by talk.
    """
    folder = Path(folder)
    rows: dict[str, ProposedTalk] = {}
    for talk in _per_folder_talks(folder):
        rows.setdefault(talk.talk, talk)
    languages = languages_in(folder)
    source_language = source_language or (languages[0] if languages else "")
    for talk in _named_talks(folder, source_language):
        rows.setdefault(talk.talk, talk)
    return [rows[name] for name in sorted(rows)]


def _per_folder_talks(folder: Path) -> list[ProposedTalk]:
    """``<talk>/src.*`` and ``<talk>/tgt.*`` (any depth below ``folder``)."""
    found = []
    for sub in sorted(p for p in folder.rglob("*") if p.is_dir()):
        sides: dict[str, Path] = {}
        audio: dict[str, Path] = {}
        for path in sorted(sub.iterdir()):
            side = _SIDE_NAMES.get(path.name.split(".")[0].lower())
            if side is None or not path.is_file():
                continue
            if path.suffix.lower() in AUDIO_SUFFIXES:
                audio.setdefault(side, path)
            elif _is_transcript(path):
                sides.setdefault(side, path)
        if "source" in sides and "target" in sides:
            rel = lambda p: str(p.relative_to(folder)) if p is not None else ""  # noqa: E731
            found.append(ProposedTalk(
                talk=_talk_name(str(sub.relative_to(folder)).replace("/", "_")),
                source=rel(sides["source"]), target=rel(sides["target"]), reference=rel(sides.get("reference")),
                source_audio=rel(audio.get("source")), target_audio=rel(audio.get("target")),
            ))
    return found


def _named_talks(folder: Path, source_language: str) -> list[ProposedTalk]:
    """``<talk>.<lang>.<ext>`` files in ``folder`` itself: the source language's file with one of another language."""
    transcripts: dict[str, dict[str, Path]] = {}
    references: dict[str, Path] = {}
    audio: dict[tuple[str, str], Path] = {}
    for path in sorted(folder.iterdir()):
        parts = path.name.split(".")
        if len(parts) < 3 or not _LANG_RE.match(parts[-2]) or not path.is_file():
            continue
        stem, lang = ".".join(parts[:-2]), parts[-2]
        if path.suffix.lower() in AUDIO_SUFFIXES:
            audio.setdefault((stem, lang), path)
        elif _is_transcript(path):
            if stem.endswith(".ref"):
                references.setdefault(stem[: -len(".ref")], path)
            else:
                transcripts.setdefault(stem, {}).setdefault(lang, path)
    found = []
    for stem, by_lang in sorted(transcripts.items()):
        if source_language not in by_lang or len(by_lang) < 2:
            continue
        target_language = next(lang for lang in sorted(by_lang) if lang != source_language)
        source_audio = audio.get((stem, source_language))
        target_audio = audio.get((stem, target_language))
        reference = references.get(stem)
        found.append(ProposedTalk(
            talk=_talk_name(stem), source=by_lang[source_language].name, target=by_lang[target_language].name,
            reference=reference.name if reference else "", source_audio=source_audio.name if source_audio else "",
            target_audio=target_audio.name if target_audio else "", src_lang=source_language, tgt_lang=target_language,
        ))
    return found


def write_manifest(rows: list[list[str]], path: str | Path) -> Path:
    """Write ``rows`` (cells in :data:`COLUMNS` order) as a TSV manifest; columns empty in every row are left out."""
    from sialign.core.atomic import atomic_write_text

    keep = [k for k, name in enumerate(COLUMNS) if name in REQUIRED or any(row[k].strip() for row in rows)]
    lines = ["\t".join(COLUMNS[k] for k in keep)]
    for row in rows:
        lines.append("\t".join(row[k].strip().replace("\t", " ") for k in keep))
    path = Path(path)
    atomic_write_text(path, "\n".join(lines) + "\n")
    return path
