"""Transcript readers: plain text, TSV, SubRip, WebVTT, Praat TextGrid, ELAN EAF.

Every reader returns a :class:`~sialign.core.model.Document` whose segments
keep their exact text (surrounding whitespace is layout, not text), their
times in seconds and the 1-based line of the file they came from. A bad file
raises an :class:`~sialign.core.errors.InputError` subclass naming the file,
the line and what to fix; nothing is guessed silently.

Entry point: :func:`read_transcript`.
"""

from __future__ import annotations

import re
from pathlib import Path

from sialign.core.errors import (
    EmptyInputError,
    FormatError,
    InputError,
    OverlapError,
    TierNotFoundError,
    TimestampError,
)
from sialign.core.file_kind import PROJECT_SUFFIX
from sialign.core.languages import normalise_language
from sialign.core.model import Document, Segment
from sialign.io.encoding import MAX_TRANSCRIPT_BYTES, read_text
from sialign.io.language_words import UKRAINIAN_LETTERS, cyrillic_language, guess_from_words
from sialign.io.project_schema import AUTOSAVE_SUFFIX, FORMAT_NAME
from sialign.io.read_subtitles import parse_srt, parse_vtt
from sialign.io.read_tiers import parse_eaf, parse_eaf_tiers, parse_textgrid, parse_textgrid_tiers
from sialign.io.read_tsv import END_COLUMNS, START_COLUMNS, TEXT_COLUMNS, parse_tsv, tsv_header
from sialign.io.timecodes import format_vtt_time
from sialign.io.transcript_items import (
    MAX_LINES,
    MAX_SEGMENTS,
    TIME_ARROW,
    RawItem,
    describe_item,
    split_lines,
    too_many_error,
)

FORMATS = ("txt", "tsv", "srt", "vtt", "textgrid", "eaf")

FORMAT_NAMES = {
    "txt": "plain text",
    "tsv": "TSV",
    "srt": "SubRip (.srt)",
    "vtt": "WebVTT (.vtt)",
    "textgrid": "Praat TextGrid",
    "eaf": "ELAN (.eaf)",
}

EXTENSIONS = {
    ".txt": "txt",
    ".text": "txt",
    ".tsv": "tsv",
    ".tab": "tsv",
    ".srt": "srt",
    ".vtt": "vtt",
    ".textgrid": "textgrid",
    ".eaf": "eaf",
}

_ALIASES = {
    "text": "txt",
    "plain": "txt",
    "subrip": "srt",
    "webvtt": "vtt",
    "praat": "textgrid",
    "elan": "eaf",
}


# Captions may share a boundary that rounding moved by a millisecond.
OVERLAP_TOLERANCE = 0.0015


def normalise_format(name: str) -> str:
    """``"SRT"`` → ``"srt"``, ``"praat"`` → ``"textgrid"``; raises InputError for unknown names."""
    key = name.strip().lower().lstrip(".")
    key = _ALIASES.get(key, key)
    if key not in FORMATS:
        raise InputError(None, f"unknown transcript format {name!r}", hint="use one of " + ", ".join(FORMATS))
    return key


# ---------------------------------------------------------------------------
# Format detection


def sniff_format(text: str) -> str:
    """The format the content looks like (``"txt"`` when nothing more specific)."""
    head = text.lstrip("\ufeff \t\r\n")[:4000]
    if head.startswith("WEBVTT"):
        return "vtt"
    if "ooTextFile" in head[:200] and "TextGrid" in head[:300]:
        return "textgrid"
    if "<ANNOTATION_DOCUMENT" in head:
        return "eaf"
    lines = [ln for ln in split_lines(head) if ln.strip()]
    if lines:
        first_timing = next((i for i, ln in enumerate(lines[:3]) if TIME_ARROW in ln), None)
        if first_timing is not None and re.search(r"\d+:\d{1,2}:\d{1,2}[,.]\d+\s*-->", lines[first_timing]):
            if first_timing == 0 or lines[0].strip().isdigit():
                return "srt"
        tabbed = sum("\t" in ln for ln in lines)
        if tabbed and tabbed >= len(lines) / 2:
            return "tsv"
    return "txt"


def detect_format(path: str | Path, text: str) -> str:
    """Format from the extension, checked against the content.

    ``.txt`` and unknown extensions are decided by the content. A specific
    extension whose content is clearly another format is an error, so a
    mislabelled file is never half-read.
    """
    ext = Path(path).suffix.lower()
    sniffed = sniff_format(text)
    by_ext = EXTENSIONS.get(ext)
    if by_ext is None or by_ext == "txt":
        return sniffed
    if by_ext != sniffed and sniffed not in ("txt", "tsv"):
        raise FormatError(
            path,
            f"the file is named {ext} but its content is {FORMAT_NAMES[sniffed]}",
            hint=f"rename it to .{sniffed if sniffed != 'textgrid' else 'TextGrid'} or choose the format {sniffed!r} explicitly",
        )
    return by_ext


# ---------------------------------------------------------------------------
# Language


# Fewer Han characters than this, with no kana, are too little to call Chinese.
CHINESE_MIN_HAN = 4


# The script count looks at this many characters at most: plenty to tell
# scripts apart, and a one-line 10 MB transcript is not walked character by character.
GUESS_CHARACTERS = 200_000


def guess_language(texts: list[str], default: str = "en") -> str:
    """The language of ``texts`` guessed from their script and, in Latin script, their words.

    Kana (or a few kanji alone) → ``"ja"``, Han without kana → ``"zh"``,
    Hangul → ``"ko"``, Cyrillic → ``"ru"`` (``"uk"`` with і ї є ґ), no letters
    → ``"und"``. Latin-script text is ``en``, ``fr``, ``de``, ``es``, ``it``,
    ``pt``, ``nl`` or ``pl`` when that language's frequent function words
    clearly lead (:func:`sialign.io.language_words.guess_from_words`), else
    ``default`` (a few words such as "Hello world" say too little).

    A deliberately simple count: the project always lets the user set
    the language, this only fills it in when nobody did.
    """
    kana = han = latin = hangul = cyrillic = ukrainian = 0
    budget = GUESS_CHARACTERS
    for whole in texts:
        if budget <= 0:
            break
        text = whole[:budget]
        budget -= len(text)
        for ch in text:
            cp = ord(ch)
            if 0x3040 <= cp <= 0x30FF or 0xFF66 <= cp <= 0xFF9F:
                kana += 1
            elif 0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF:
                han += 1
            elif 0xAC00 <= cp <= 0xD7AF:
                hangul += 1
            elif ch.isalpha() and cp < 0x250:
                latin += 1
            elif 0x400 <= cp <= 0x4FF:
                cyrillic += 1
                if ch in UKRAINIAN_LETTERS:
                    ukrainian += 1
    if kana + han == 0 and latin == 0 and hangul == 0 and cyrillic == 0:
        return "und"
    if hangul > max(kana + han, latin, cyrillic):
        return "ko"
    if cyrillic > max(kana + han, latin):
        return cyrillic_language(ukrainian, cyrillic)
    if kana + han >= latin:
        # Japanese writes kana in nearly every sentence; Chinese writes none.
        # A few kanji alone (a short chunk) are taken as Japanese, the pairing
        # the application is made for.
        if han >= CHINESE_MIN_HAN and kana * 20 < han:
            return "zh"
        return "ja"
    return guess_from_words(texts) or default


# ---------------------------------------------------------------------------
# Shared checks


def _check_times(raws: list[RawItem], path: str | Path, *, strict: bool, kind: str) -> None:
    """Negative, reversed and (in strict mode) overlapping or unordered times are errors."""
    previous: RawItem | None = None
    for raw in raws:
        if raw.start is not None and raw.start < 0 or raw.end is not None and raw.end < 0:
            raise TimestampError(path, f"{describe_item(raw, kind)} has a negative time", line=raw.line)
        if raw.start is not None and raw.end is not None and raw.end < raw.start:
            raise TimestampError(
                path,
                f"{describe_item(raw, kind)} ends ({format_vtt_time(raw.end)}) before it starts ({format_vtt_time(raw.start)})",
                line=raw.line,
                hint="swap or correct the two times",
            )
        if strict and previous is not None and raw.start is not None:
            prev_end = previous.end if previous.end is not None else previous.start
            if prev_end is not None and raw.start < prev_end - OVERLAP_TOLERANCE:
                raise OverlapError(
                    path,
                    f"{describe_item(raw, kind)} starts at {format_vtt_time(raw.start)}, before the previous "
                    f"{describe_item(previous, kind)} ends at {format_vtt_time(prev_end)}",
                    line=raw.line,
                    hint="correct the times so that each caption starts after the one before it ends, or let "
                    "overlapping captions through",
                    settings=("allow_overlaps",),
                )
        if raw.start is not None:
            previous = raw


def _to_document(
    raws: list[RawItem],
    path: str | Path,
    fmt: str,
    encoding: str | None,
    language: str | None,
    gaps: list[str] | None = None,
) -> Document:
    if not raws:
        raise EmptyInputError(path, f"no text segment found in this {FORMAT_NAMES[fmt]} file", hint="check that it is the right file")
    if len(raws) > MAX_SEGMENTS:
        raise too_many_error(path, len(raws), "segments", MAX_SEGMENTS)
    segments = [
        Segment(
            id=i,
            text=r.text,
            start=r.start,
            end=r.end,
            line=r.line,
            gap=gaps[i] if gaps is not None else ("" if i == 0 else "\n"),
            speaker=r.speaker,
        )
        for i, r in enumerate(raws)
    ]
    lang = language or guess_language([r.text for r in raws[:2000]])
    return Document(language=lang, segments=segments, path=str(path), format=fmt, encoding=encoding)


# ---------------------------------------------------------------------------
# Plain text


def parse_txt(text: str, path: str | Path) -> tuple[list[RawItem], list[str]]:
    """One segment per non-blank line; what lies between two texts becomes the gap.

    Returns the raw segments and their gaps (``"".join(gap + text)`` rebuilds
    the file up to trailing whitespace).
    """
    raws: list[RawItem] = []
    gaps: list[str] = []
    last_end = 0
    for line_no, m in enumerate(re.finditer(r"([^\r\n]*)(?:\r\n|\n|\r|\Z)", text), start=1):
        content = m.group(1)
        stripped = content.strip()
        if not stripped:
            continue
        start = m.start(1) + len(content) - len(content.lstrip())
        gaps.append(text[last_end:start])
        raws.append(RawItem(stripped, None, None, line_no))
        if len(raws) > MAX_SEGMENTS:
            raise too_many_error(path, len(raws), "segments", MAX_SEGMENTS)
        last_end = start + len(stripped)
    return raws, gaps


# ---------------------------------------------------------------------------
# SubRip and WebVTT


# ---------------------------------------------------------------------------
# Praat TextGrid


# ---------------------------------------------------------------------------
# ELAN EAF


# ---------------------------------------------------------------------------
# Entry point


def list_tiers(path: str | Path, *, encoding: str | None = None) -> list[str]:
    """Tier names of a TextGrid or EAF file, or column names of a TSV with a header (else [])."""
    decoded = read_text(path, encoding=encoding)
    return _tier_names(decoded.text, path, detect_format(path, decoded.text))


def _tier_names(text: str, path: str | Path, fmt: str) -> list[str]:
    if fmt == "textgrid":
        return [f"{t.name} ({'interval' if t.tier_class == 'IntervalTier' else 'point'})" for t in parse_textgrid_tiers(text, path)]
    if fmt == "eaf":
        return [t.tier_id for t in parse_eaf_tiers(text, path)]
    if fmt == "tsv":
        return tsv_header(text) or []
    return []


def tier_choices(path: str | Path, *, encoding: str | None = None) -> list[tuple[str, str | int | None]]:
    """What a reader may choose to read from ``path``: (label, ``tier`` value for :func:`read_transcript`).

    TextGrid and EAF tiers by number; a TSV's columns by name, except its time
    columns, the text column it would read first. When its header names no
    text column the first choice is ``None``: reading then fails until one is chosen.
    """
    decoded = read_text(path, encoding=encoding)
    fmt = detect_format(path, decoded.text)
    if fmt != "tsv":
        return [(name, number) for number, name in enumerate(_tier_names(decoded.text, path, fmt), start=1)]
    header = tsv_header(decoded.text)
    if not header:
        return []
    lowered = [name.lower() for name in header]
    columns = [name for name, low in zip(header, lowered) if low not in START_COLUMNS + END_COLUMNS]
    text = next((header[lowered.index(n)] for n in TEXT_COLUMNS if n in lowered), None)
    choices: list[tuple[str, str | int | None]] = [(name, name) for name in columns if name != text]
    return [(text, text)] + choices if text else [("choose the text column", None)] + choices


def _is_project_file(path: Path, text: str) -> bool:
    """A project (or its autosave) given where a transcript is expected: by its name or its first bytes."""
    name = path.name.lower()
    if name.endswith(PROJECT_SUFFIX) or name.endswith(PROJECT_SUFFIX + AUTOSAVE_SUFFIX):
        return True
    head = text.lstrip()[:200]
    return head.startswith("{") and f'"{FORMAT_NAME}"' in head


def read_transcript(path: str | Path, *, format: str | None = None, language: str | None = None,
                    tier: str | int | None = None, encoding: str | None = None, strict: bool = True,
                    max_bytes: int = MAX_TRANSCRIPT_BYTES, keep_markup: bool = False) -> Document:
    """Read a transcript into a :class:`Document`.

    Args:
        path: the file.
        format: one of :data:`FORMATS` (or an alias such as ``"praat"``);
            detected from the extension and the content when None.
        language: the document language (checked and normalised by
            :func:`sialign.core.languages.normalise_language`: ``eng`` → ``en``);
            guessed from the text when None (:func:`guess_language`).
        tier: TextGrid tier name or 1-based number, EAF TIER_ID or number,
            or TSV column name/number holding the text.
        encoding: a codec name; detected when None (see :mod:`sialign.io.encoding`).
        strict: when True, overlapping or unordered caption times are an
            :class:`OverlapError`; when False they are kept as they are.
        max_bytes: larger files are refused before being read.
        keep_markup: keep SRT/VTT caption markup (tags, ``{\\an8}``, WebVTT
            character references) as text instead of removing it.

    Raises:
        InputError subclasses: FileTooLargeError, EmptyInputError,
        BinaryFileError, EncodingError, FormatError, TimestampError,
        OverlapError, TierNotFoundError — each naming the file and line;
        UnknownLanguageError for a ``language`` that is no language code.
    """
    if language:
        language = normalise_language(language)
    path = Path(path)
    decoded = read_text(path, encoding=encoding, limit=max_bytes)
    text = decoded.text
    if _is_project_file(path, text):
        raise FormatError(
            path,
            "this is an SI Aligner project, not a transcript",
            hint="open it as a project (it is one) instead of reading it as a transcript",
            settings=("project_file",),
        )
    fmt = normalise_format(format) if format else detect_format(path, text)
    if not text.strip():
        raise EmptyInputError(path, "the file holds only whitespace", hint="choose a transcript with at least one line of text")
    if tier is not None and fmt in ("txt", "srt", "vtt"):
        raise TierNotFoundError(path, f"{FORMAT_NAMES[fmt]} files have no tiers", hint="leave out the tier")
    if fmt != "eaf":
        n_lines = text.count("\n") + text.count("\r") - text.count("\r\n")
        if n_lines > MAX_LINES:
            raise too_many_error(path, n_lines, "lines", MAX_LINES)

    gaps: list[str] | None = None
    kind = "caption"
    tsv_warnings: list[str] = []
    if fmt == "txt":
        raws, gaps = parse_txt(text, path)
        kind = "line"
    elif fmt == "tsv":
        raws = parse_tsv(text, path, tier, warnings=tsv_warnings)
        kind = "row"
    elif fmt == "srt":
        raws = parse_srt(text, path, keep_markup=keep_markup)
    elif fmt == "vtt":
        raws = parse_vtt(text, path, keep_markup=keep_markup)
    elif fmt == "textgrid":
        raws = parse_textgrid(text, path, tier)
        kind = "interval"
    else:
        raws = parse_eaf(text, path, tier)
        kind = "annotation"
    _check_times(raws, path, strict=strict, kind=kind)
    doc = _to_document(raws, path, fmt, decoded.encoding, language, gaps)
    if decoded.doubt:
        where = f", line {decoded.doubt_line}" if decoded.doubt_line else ""
        doc.warnings.append(f"{path}{where}: {decoded.doubt}")
    doc.warnings.extend(tsv_warnings)
    return doc

