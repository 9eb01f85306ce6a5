"""Transcript readers: plain text, TSV, SubRip, WebVTT, Praat TextGrid, ELAN EAF.

Every reader returns a :class:`~sialign.core.model.Document` whose segments
keep their exact text (surrounding whitespace is layout, not text), their
times in seconds and the 1-based line of the file they came from. A bad file
raises an :class:`~sialign.core.errors.InputError` subclass naming the file,
the line and what to fix; nothing is guessed silently.

Entry point: :func:`read_transcript`.
"""

from __future__ import annotations

import math
import re
import xml.parsers.expat
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from sialign.core.errors import (
    EmptyInputError, FileTooLargeError, FormatError, InputError, OverlapError, TierNotFoundError, TimestampError,
)
from sialign.core.model import Document, Segment
from sialign.io.encoding import MAX_TRANSCRIPT_BYTES, read_text
from sialign.io.escaping import unescape_tsv_field
from sialign.io.timecodes import check_seconds, format_vtt_time, parse_clock, parse_time

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

# A talk's transcript has a few thousand segments; these bounds keep a file
# of millions of tiny lines (a corpus dump, a damaged or hostile file) from
# taking gigabytes: it is refused before the reader builds anything big.
MAX_LINES = 1_500_000
MAX_SEGMENTS = 300_000

# Captions may share a boundary that rounding moved by a millisecond.
OVERLAP_TOLERANCE = 0.0015

_LINE_BREAK = re.compile(r"\r\n|\n|\r")
_ARROW = "-->"


def normalise_format(name: str) -> str:
    """``"SRT"`` → ``"srt"``, ``"praat"`` → ``"textgrid"``; raises InputError for unknown names."""
    key = name.strip().lower().lstrip(".")
    key = _ALIASES.get(key, key)
    if key not in FORMATS:
        raise InputError(None, f"unknown transcript format {name!r}", hint="use one of " + ", ".join(FORMATS))
    return key


def _lines(text: str) -> list[str]:
    return _LINE_BREAK.split(text)


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
    lines = [ln for ln in _lines(head) if ln.strip()]
    if lines:
        first_timing = next((i for i, ln in enumerate(lines[:3]) if _ARROW in ln), None)
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


def guess_language(texts: list[str], default: str = "en") -> str:
    """``"ja"`` when kana or kanji dominate the letters, ``"ko"`` for Hangul, else ``default``.

    A deliberately simple script count: the project always lets the user set
    the language, this only fills it in when nobody did.
    """
    kana = han = latin = hangul = 0
    for text in texts:
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
    if kana + han == 0 and latin == 0 and hangul == 0:
        return "und"
    if hangul > max(kana + han, latin):
        return "ko"
    if kana + han >= latin:
        # The application pairs Western sources with Japanese interpretation,
        # so kanji without kana (short chunks) are taken as Japanese too.
        return "ja"
    return default


# ---------------------------------------------------------------------------
# Shared checks


@dataclass(slots=True)
class _Raw:
    """A segment before ids are assigned: text, times, line, optional label."""

    text: str
    start: float | None
    end: float | None
    line: int
    label: str = ""
    speaker: str = ""


def _describe(raw: _Raw, kind: str) -> str:
    label = f"{kind} {raw.label}" if raw.label else kind
    return f"{label} at line {raw.line}"


def _check_times(raws: list[_Raw], path: str | Path, *, strict: bool, kind: str) -> None:
    """Negative, reversed and (in strict mode) overlapping or unordered times are errors."""
    previous: _Raw | None = None
    for raw in raws:
        if raw.start is not None and raw.start < 0 or raw.end is not None and raw.end < 0:
            raise TimestampError(path, f"{_describe(raw, kind)} has a negative time", line=raw.line)
        if raw.start is not None and raw.end is not None and raw.end < raw.start:
            raise TimestampError(
                path,
                f"{_describe(raw, kind)} ends ({format_vtt_time(raw.end)}) before it starts ({format_vtt_time(raw.start)})",
                line=raw.line,
                hint="swap or correct the two times",
            )
        if strict and previous is not None and raw.start is not None:
            prev_end = previous.end if previous.end is not None else previous.start
            if prev_end is not None and raw.start < prev_end - OVERLAP_TOLERANCE:
                raise OverlapError(
                    path,
                    f"{_describe(raw, kind)} starts at {format_vtt_time(raw.start)}, before the previous "
                    f"{_describe(previous, kind)} ends at {format_vtt_time(prev_end)}",
                    line=raw.line,
                    hint="correct the times so captions follow each other, or read the file with overlaps allowed "
                    "(strict=False, --allow-overlaps)",
                )
        if raw.start is not None:
            previous = raw


def _too_many(path: str | Path, count: int, what: str, limit: int) -> FileTooLargeError:
    return FileTooLargeError(
        path,
        f"the file holds more than {limit:,} {what} ({count:,} or more); a transcript reader takes at most {limit:,}",
        hint="split it into talks, or read a corpus file with the corpus tools",
    )


def _to_document(
    raws: list[_Raw],
    path: str | Path,
    fmt: str,
    encoding: str | None,
    language: str | None,
    gaps: list[str] | None = None,
) -> Document:
    if not raws:
        raise EmptyInputError(path, f"no text segment found in this {FORMAT_NAMES[fmt]} file", hint="check that it is the right file")
    if len(raws) > MAX_SEGMENTS:
        raise _too_many(path, len(raws), "segments", MAX_SEGMENTS)
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


def parse_txt(text: str, path: str | Path) -> tuple[list[_Raw], list[str]]:
    """One segment per non-blank line; what lies between two texts becomes the gap.

    Returns the raw segments and their gaps (``"".join(gap + text)`` rebuilds
    the file up to trailing whitespace).
    """
    raws: list[_Raw] = []
    gaps: list[str] = []
    last_end = 0
    for line_no, m in enumerate(re.finditer(r"([^\r\n]*)(?:\r\n|\n|\r|\Z)", text), start=1):
        content = m.group(1)
        stripped = content.strip()
        if not stripped:
            continue
        start = m.start(1) + len(content) - len(content.lstrip())
        gaps.append(text[last_end:start])
        raws.append(_Raw(stripped, None, None, line_no))
        if len(raws) > MAX_SEGMENTS:
            raise _too_many(path, len(raws), "segments", MAX_SEGMENTS)
        last_end = start + len(stripped)
    return raws, gaps


# ---------------------------------------------------------------------------
# TSV

_TEXT_COLUMNS = ("text", "transcript", "sentence", "utterance", "segment", "caption", "content", "source", "target", "src", "tgt", "translation")
_START_COLUMNS = ("start", "begin", "start_time", "starttime", "start_sec", "tmin", "from", "onset", "bg")
_END_COLUMNS = ("end", "stop", "end_time", "endtime", "end_sec", "tmax", "to", "ed")
PARALLEL_TSV_HEADER = ("talk", "src_ids", "tgt_ids", "src_start", "src_end", "tgt_start", "tgt_end", "cost", "status", "source", "target")


def _is_time(value: str) -> bool:
    try:
        parse_time(value)
    except ValueError:
        return False
    return True


# A cell quoted the CSV way (pandas' to_csv, Excel's "Text (Tab delimited)"):
# it starts with '"', doubles inner quotes and ends with '"' right before a
# tab, a line break or the end. Only such a well-formed cell is unquoted, so a
# hand-written cell that merely starts with a quote keeps it.
_TSV_QUOTED = re.compile(r'"([^"]*(?:""[^"]*)*)"(?=[\t\r\n]|\Z)')
_TSV_RAW = re.compile(r"[^\t\r\n]*")
_TSV_BREAK = re.compile(r"\r\n|\n|\r")


def _tsv_records(text: str) -> list[tuple[int, list[str]]]:
    """Rows of a TSV as (1-based line, cells), understanding CSV-style quoted cells.

    A quoted cell may hold tabs and line breaks; the row's line is the line
    it starts on. Blank rows are left out.
    """
    if '"' not in text:
        return [(i + 1, ln.split("\t")) for i, ln in enumerate(_lines(text)) if ln.strip()]
    records: list[tuple[int, list[str]]] = []
    pos, line, end = 0, 1, len(text)
    while pos < end:
        row_line = line
        cells: list[str] = []
        while True:
            quoted = _TSV_QUOTED.match(text, pos) if text.startswith('"', pos) else None
            if quoted:
                cell = quoted.group(1)
                line += cell.count("\n") + cell.count("\r") - cell.count("\r\n")
                cells.append(cell.replace('""', '"'))
                pos = quoted.end()
            else:
                raw = _TSV_RAW.match(text, pos)
                assert raw is not None
                cells.append(raw.group())
                pos = raw.end()
            if pos < end and text[pos] == "\t":
                pos += 1
                continue
            brk = _TSV_BREAK.match(text, pos)
            if brk:
                pos = brk.end()
                line += 1
            break
        if any(c.strip() for c in cells):
            records.append((row_line, cells))
    return records


def parse_tsv(text: str, path: str | Path, tier: str | int | None = None) -> list[_Raw]:
    """Rows of ``[start, end,] text`` with an optional header naming the columns.

    Without a header a row is ``start<TAB>end<TAB>text`` when its first two
    fields are times (seconds or ``hh:mm:ss.mmm``), else the whole line is the
    text. With a header the text column is ``tier`` (a column name or 1-based
    number) or the first of text/transcript/sentence/.../source/target; start
    and end columns are found by name. A parallel TSV written by SI Aligner
    is read with its escapes undone and the times of the chosen side; any
    other TSV may quote cells the CSV way (pandas, Excel): ``"a ""b"" c"``,
    with tabs and line breaks inside the quotes.
    """
    first_line = text.lstrip("\r\n").split("\n", 1)[0].rstrip("\r")
    ours = tuple(f.strip().lower() for f in first_line.split("\t")[: len(PARALLEL_TSV_HEADER)]) == PARALLEL_TSV_HEADER
    if ours:
        # Our own parallel TSV is never quoted: a cell starting with '"' is text.
        rows = [(i + 1, ln.split("\t")) for i, ln in enumerate(_lines(text)) if ln.strip()]
    else:
        rows = _tsv_records(text)
    if not rows:
        return []
    first_no, first = rows[0]
    fields = [f.strip() for f in first]
    lowered = [f.lower() for f in fields]
    first_is_data = len(fields) >= 3 and _is_time(fields[0]) and _is_time(fields[1])
    known = set(_TEXT_COLUMNS) | set(_START_COLUMNS) | set(_END_COLUMNS)
    named_by_tier = isinstance(tier, str) and tier.strip().lower() in lowered
    has_header = not first_is_data and len(fields) > 1 and (named_by_tier or any(f in known for f in lowered))

    text_col: int | None
    start_col: int | None = None
    end_col: int | None = None
    escaped = False
    if has_header:
        rows = rows[1:]
        escaped = tuple(lowered[: len(PARALLEL_TSV_HEADER)]) == PARALLEL_TSV_HEADER
        if tier is not None:
            text_col = _choose_column(lowered, tier, path, first_no)
        else:
            text_col = next((lowered.index(n) for n in _TEXT_COLUMNS if n in lowered), None)
            if text_col is None:
                raise FormatError(
                    path,
                    "the header names no text column",
                    line=first_no,
                    hint="name it 'text' or choose the column (tier) explicitly; header: " + ", ".join(fields),
                )
        name = lowered[text_col]
        prefix = {"source": "src_", "src": "src_", "target": "tgt_", "tgt": "tgt_"}.get(name, "")
        for names, slot in ((_START_COLUMNS, "start"), (_END_COLUMNS, "end")):
            candidates = ([prefix + slot] if prefix else []) + list(names)
            col = next((lowered.index(n) for n in candidates if n in lowered), None)
            if slot == "start":
                start_col = col
            else:
                end_col = col
    elif tier is not None:
        raise TierNotFoundError(path, "this TSV has no header, so a column cannot be chosen by name", line=first_no, hint="add a header row")
    elif first_is_data:
        start_col, end_col, text_col = 0, 1, None  # text = all fields from the third on
    else:
        text_col = -1  # the whole line

    raws: list[_Raw] = []
    for line_no, cells in rows:
        if text_col == -1:
            raws.append(_Raw("\t".join(cells).strip(), None, None, line_no))
            continue
        if text_col is None:
            if len(cells) < 3:
                raise FormatError(
                    path,
                    f"expected start<TAB>end<TAB>text like the first row, found {len(cells)} field(s)",
                    line=line_no,
                    hint="give every row a start time, an end time and the text",
                )
            value = "\t".join(cells[2:])
        else:
            value = cells[text_col] if text_col < len(cells) else ""
        if escaped:
            value = unescape_tsv_field(value)
        start = _tsv_time(cells, start_col, path, line_no, "start")
        end = _tsv_time(cells, end_col, path, line_no, "end")
        if value.strip():
            raws.append(_Raw(value.strip(), start, end, line_no))
    return raws


def _choose_column(lowered: list[str], tier: str | int, path: str | Path, line: int) -> int:
    key = str(tier).strip().lower()
    if key in lowered:
        return lowered.index(key)
    if key.isascii() and key.isdigit() and 1 <= int(key) <= len(lowered):
        return int(key) - 1
    raise TierNotFoundError(path, f"no column {tier!r}", line=line, hint="columns: " + ", ".join(lowered))


def _tsv_time(cells: list[str], col: int | None, path: str | Path, line: int, what: str) -> float | None:
    if col is None or col >= len(cells) or not cells[col].strip():
        return None
    try:
        return parse_time(cells[col])
    except ValueError:
        raise TimestampError(
            path,
            f"cannot read the {what} time {cells[col].strip()!r}",
            line=line,
            hint="write seconds (12.5) or hh:mm:ss.mmm (00:00:12.500)",
        ) from None


# ---------------------------------------------------------------------------
# SubRip and WebVTT


def _blocks(lines: list[str], first: int = 0) -> list[tuple[int, list[str]]]:
    """Runs of non-blank lines as (1-based line of the first, lines)."""
    blocks: list[tuple[int, list[str]]] = []
    current: list[str] = []
    start = 0
    for i in range(first, len(lines)):
        if lines[i].strip():
            if not current:
                start = i + 1
            current.append(lines[i])
        elif current:
            blocks.append((start, current))
            current = []
    if current:
        blocks.append((start, current))
    return blocks


# Caption markup. WebVTT: every <...> is a tag (a literal '<' is written
# '&lt;'): <i>, <b>, <c.yellow>, <v Speaker>, <lang en>, <ruby>, and the word
# timestamps <00:00:08.500> of YouTube captions. SubRip has no standard
# markup; players accept <i>, <b>, <u>, <s>, <font ...> and the {\an8}-style
# positioning codes of ASS, so only those are removed there.
_VTT_TAG = re.compile(r"<[^>\n]*>")
_VTT_VOICE = re.compile(r"<v(?:\.[^\s>]*)?[ \t]+([^>\n]+)>")
_SRT_TAG = re.compile(r"</?(?:i|b|u|s|font)(?:\s[^>\n]*)?>|\{\\[^}\n]*\}", re.IGNORECASE)
_VTT_ENTITY = re.compile(r"&(amp|lt|gt|nbsp|lrm|rlm|quot|apos|#\d{1,7}|#[xX][0-9a-fA-F]{1,6});")
_VTT_ENTITIES = {"amp": "&", "lt": "<", "gt": ">", "nbsp": "\u00a0", "lrm": "\u200e", "rlm": "\u200f", "quot": '"', "apos": "'"}


def _vtt_entity(m: re.Match[str]) -> str:
    name = m.group(1)
    if name.startswith("#"):
        code = int(name[2:], 16) if name[1] in "xX" else int(name[1:])
        return chr(code) if 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else m.group()
    return _VTT_ENTITIES[name]


def unescape_vtt_text(text: str) -> str:
    """Undo WebVTT's character references (``&amp;`` → ``&``, ``&lt;`` → ``<``...)."""
    return _VTT_ENTITY.sub(_vtt_entity, text) if "&" in text else text


def clean_vtt_cue(text: str) -> tuple[str, str]:
    """(plain text, speaker) of a WebVTT cue: tags removed, references undone.

    The speaker is the name of the first ``<v Name>`` voice tag, else empty.
    """
    voice = _VTT_VOICE.search(text)
    speaker = unescape_vtt_text(voice.group(1).strip()) if voice else ""
    return unescape_vtt_text(_VTT_TAG.sub("", text)), speaker


def clean_srt_caption(text: str) -> str:
    """A SubRip caption without its formatting tags and ``{\\an8}`` codes."""
    return _SRT_TAG.sub("", text)


def _parse_timing(line: str, path: str | Path, line_no: int, parse: Callable[[str], float], example: str) -> tuple[float, float]:
    left, _, right = line.partition(_ARROW)
    right_fields = right.split()
    values = []
    for part in (left.strip(), right_fields[0] if right_fields else ""):
        try:
            values.append(parse(part))
        except ValueError:
            raise TimestampError(
                path,
                f"cannot read the time {part!r} in {line.strip()!r}",
                line=line_no,
                hint=f"times look like {example}",
            ) from None
    return values[0], values[1]


def parse_srt(text: str, path: str | Path, *, keep_markup: bool = False) -> list[_Raw]:
    """SubRip: blocks of ``number``, ``start --> end``, text lines, separated by blank lines.

    The number line may be missing; a ``.`` instead of ``,`` before the
    milliseconds is accepted. Formatting tags (``<i>``, ``<font>``...) and
    ``{\\an8}`` codes are removed unless ``keep_markup``. Captions with no
    text are skipped.
    """
    lines = _lines(text)
    raws: list[_Raw] = []
    for block_no, (line_no, block) in enumerate(_blocks(lines)):
        label = ""
        timing_at = 0
        if _ARROW not in block[0]:
            if len(block) > 1 and _ARROW in block[1]:
                label = block[0].strip()
                timing_at = 1
            elif block[0].strip().isdigit() and len(block) > 1:
                raise FormatError(
                    path,
                    f"caption {block[0].strip()} has no valid time line (found {block[1].strip()[:60]!r})",
                    line=line_no + 1,
                    hint="write it as 00:00:01,000 --> 00:00:03,500",
                )
            elif block_no == 0:
                raise FormatError(
                    path,
                    f"this is not SubRip: expected a caption number and a time line, found {block[0].strip()[:60]!r}",
                    line=line_no,
                    hint="SRT captions look like '1' / '00:00:01,000 --> 00:00:03,500' / text; choose the right format",
                )
            else:
                raise FormatError(
                    path,
                    f"caption block has no time line (found {block[0].strip()[:60]!r})",
                    line=line_no,
                    hint="each caption needs a line 'start --> end' after its number; a blank line may be missing or extra",
                )
        timing_line = line_no + timing_at
        start, end = _parse_timing(block[timing_at], path, timing_line, parse_clock, "00:00:01,000 --> 00:00:03,500")
        body = [ln.strip() for ln in block[timing_at + 1 :]]
        if any(_ARROW in ln and re.search(r"\d:\d\d[,.]\d", ln) for ln in body):
            raise FormatError(
                path,
                "a time line inside a caption's text",
                line=timing_line + 1 + next(i for i, ln in enumerate(body) if _ARROW in ln),
                hint="a blank line is missing between two captions",
            )
        if not keep_markup:
            body = [clean_srt_caption(ln).strip() for ln in body]
        caption = "\n".join(ln for ln in body if ln or keep_markup).strip()
        if caption:
            raws.append(_Raw(caption, start, end, timing_line + 1, label=label or str(block_no + 1)))
    return raws


def parse_vtt(text: str, path: str | Path, *, keep_markup: bool = False) -> list[_Raw]:
    """WebVTT: a ``WEBVTT`` header, then cues (optional id, ``start --> end [settings]``, text).

    NOTE, STYLE and REGION blocks are skipped; cue settings are ignored. The
    cue text loses its tags (``<i>``, ``<c>``, word timestamps) and gets its
    character references undone (``&amp;`` → ``&``); the name of a ``<v
    Name>`` voice tag becomes the segment's speaker. With ``keep_markup``
    the cue text is kept exactly as written.
    """
    lines = _lines(text.lstrip("\ufeff"))
    if not lines or not (lines[0].startswith("WEBVTT") and (len(lines[0]) == 6 or lines[0][6] in " \t")):
        raise FormatError(
            path,
            "this is not WebVTT: the first line must be 'WEBVTT'",
            line=1,
            hint="add the WEBVTT header or choose the right format (SRT uses ',' in times and has no header)",
        )
    raws: list[_Raw] = []
    blocks = _blocks(lines)
    if blocks and blocks[0][0] == 1:
        header_line, header = blocks.pop(0)
        # A cue written right under the header, without the blank line the
        # format asks for, is still a cue: keep it rather than drop it.
        arrow_at = next((k for k, ln in enumerate(header) if _ARROW in ln), None)
        if arrow_at is not None:
            first = arrow_at - 1 if arrow_at >= 2 else arrow_at
            blocks.insert(0, (header_line + first, header[first:]))
    for line_no, block in blocks:
        head = block[0].strip()
        if head.startswith(("NOTE", "STYLE", "REGION")) and _ARROW not in head:
            continue
        label = ""
        timing_at = 0
        if _ARROW not in block[0]:
            if len(block) > 1 and _ARROW in block[1]:
                label, timing_at = head, 1
            else:
                raise FormatError(
                    path,
                    f"cue has no time line (found {head[:60]!r})",
                    line=line_no,
                    hint="each cue needs 'start --> end' (00:00:01.000 --> 00:00:03.500); a blank line may be missing",
                )
        timing_line = line_no + timing_at
        start, end = _parse_timing(block[timing_at], path, timing_line, _parse_vtt_clock, "00:00:01.000 --> 00:00:03.500")
        caption = "\n".join(ln.strip() for ln in block[timing_at + 1 :]).strip()
        speaker = ""
        if not keep_markup:
            caption, speaker = clean_vtt_cue(caption)
            caption = "\n".join(ln.strip() for ln in caption.split("\n") if ln.strip())
        if caption:
            raws.append(_Raw(caption, start, end, timing_line + 1, label=label, speaker=speaker))
    return raws


def _parse_vtt_clock(value: str) -> float:
    if "," in value:
        raise ValueError("WebVTT uses '.' before the milliseconds")
    return parse_clock(value)


# ---------------------------------------------------------------------------
# Praat TextGrid

_TG_TOKEN = re.compile(
    # Strings ("" escapes a quote, may span lines). Written as an unrolled
    # loop: "(?:[^"]|"")*" keeps one backtracking frame per character and
    # needs gigabytes for a string of a few megabytes.
    r'"(?P<str>[^"]*(?:""[^"]*)*)"'
    r"|(?P<flag><exists>|<absent>)"
    r"|\[[^\]\n]*\]"  # item [1]: / intervals [3]: indices are labels, not data
    r"|(?P<num>(?<![\w.])[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?(?![\w.]))"
    r"|(?P<comment>![^\n]*)"
    r"|[A-Za-z_]\w*"  # labels such as 'xmin =' and 'intervals: size ='
    r"|[=:?\s]+"
)


# Three values per interval (xmin, xmax, text), plus the header.
_MAX_TOKENS = 3 * MAX_SEGMENTS + 1000


@dataclass(slots=True)
class _Token:
    kind: str  # "str", "num" or "flag"
    value: str
    line: int


def _textgrid_tokens(text: str, path: str | Path) -> list[_Token]:
    tokens: list[_Token] = []
    pos = 0
    line = 1
    while pos < len(text):
        m = _TG_TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise FormatError(path, f"unexpected text {text[pos:pos + 30]!r} in the TextGrid", line=line, hint="open and save the file in Praat")
        for kind in ("str", "num", "flag"):
            if m.group(kind) is not None:
                value = m.group(kind).replace('""', '"') if kind == "str" else m.group(kind)
                tokens.append(_Token(kind, value, line))
                if len(tokens) > _MAX_TOKENS:
                    raise _too_many(path, len(tokens) // 3, "intervals", MAX_SEGMENTS)
        line += m.group().count("\n")
        pos = m.end()
    return tokens


@dataclass
class TextGridTier:
    """One tier of a TextGrid: name, class and its intervals (or points)."""

    name: str
    tier_class: str
    items: list[_Raw]
    line: int = 0


class _TokenStream:
    def __init__(self, tokens: list[_Token], path: str | Path) -> None:
        self.tokens = tokens
        self.pos = 0
        self.path = path

    def take(self, kind: str, what: str) -> _Token:
        if self.pos >= len(self.tokens):
            last = self.tokens[-1].line if self.tokens else 1
            raise FormatError(self.path, f"the TextGrid ends early (expected {what})", line=last, hint="the file is truncated; save it again in Praat")
        tok = self.tokens[self.pos]
        if tok.kind != kind:
            raise FormatError(self.path, f"expected {what} but found {tok.value!r}", line=tok.line, hint="the TextGrid is malformed; open and save it in Praat")
        self.pos += 1
        return tok

    def number(self, what: str) -> float:
        tok = self.take("num", what)
        try:
            return check_seconds(float(tok.value), tok.value)
        except ValueError:
            raise TimestampError(
                self.path, f"{what} {tok.value[:30]!r} is not a usable time", line=tok.line, hint="correct the time in Praat"
            ) from None

    def count(self, what: str) -> int:
        tok = self.take("num", what)
        value = float(tok.value)
        if not math.isfinite(value) or value < 0 or value != int(value):
            raise FormatError(self.path, f"{what} must be a whole number, found {tok.value[:30]}", line=tok.line)
        # No count can exceed the tokens left in the file; a larger one is
        # damage, reported here instead of as a confusing early end.
        if value > len(self.tokens):
            raise FormatError(
                self.path, f"{what} is {tok.value[:30]}, more than the file holds", line=tok.line, hint="the TextGrid is damaged; open and save it in Praat"
            )
        return int(value)


def parse_textgrid_tiers(text: str, path: str | Path) -> list[TextGridTier]:
    """All tiers of a text TextGrid (long or short form, Praat's "ooTextFile")."""
    if "ooBinaryFile" in text[:40]:
        raise FormatError(path, "binary TextGrids cannot be read", line=1, hint="in Praat, save it with 'Save as text file'")
    stream = _TokenStream(_textgrid_tokens(text, path), path)
    file_type = stream.take("str", "the file type 'ooTextFile'")
    if not file_type.value.startswith("ooTextFile"):
        raise FormatError(path, f"this is not a Praat text file (file type {file_type.value!r})", line=file_type.line)
    obj = stream.take("str", "the object class 'TextGrid'")
    if not obj.value.startswith("TextGrid"):
        raise FormatError(path, f"this Praat file holds a {obj.value}, not a TextGrid", line=obj.line)
    stream.number("xmin")
    stream.number("xmax")
    if stream.pos < len(stream.tokens) and stream.tokens[stream.pos].kind == "flag":
        if stream.take("flag", "<exists>").value == "<absent>":
            return []
    n_tiers = stream.count("the number of tiers")
    tiers: list[TextGridTier] = []
    for _ in range(n_tiers):
        class_tok = stream.take("str", "a tier class")
        tier_class = class_tok.value
        name = stream.take("str", "a tier name").value
        stream.number("tier xmin")
        stream.number("tier xmax")
        n_items = stream.count("the number of intervals")
        items: list[_Raw] = []
        if tier_class == "IntervalTier":
            for _ in range(n_items):
                xmin = stream.number("interval xmin")
                xmax = stream.number("interval xmax")
                tok = stream.take("str", "interval text")
                items.append(_Raw(tok.value, xmin, xmax, tok.line))
        elif tier_class == "TextTier":
            for _ in range(n_items):
                t = stream.number("point time")
                tok = stream.take("str", "point mark")
                items.append(_Raw(tok.value, t, t, tok.line))
        else:
            raise FormatError(path, f"unknown tier class {tier_class[:40]!r}", line=class_tok.line, hint="expected IntervalTier or TextTier")
        tiers.append(TextGridTier(name, tier_class, items, class_tok.line))
    return tiers


def _choose_tier(names: list[str], tier: str | int | None, path: str | Path, kind: str, usable: list[bool]) -> int:
    """Index of the tier asked for (a name, or a 1-based number), or the first usable one."""
    listing = ", ".join(f"{i + 1}: {n!r}" for i, n in enumerate(names)) or "none"
    if tier is None:
        for i, ok in enumerate(usable):
            if ok:
                return i
        raise EmptyInputError(path, f"no {kind} with text in this file", hint=f"tiers: {listing}")
    if isinstance(tier, str) and tier in names:
        return names.index(tier)
    key = str(tier).strip()
    # isdigit() is also true for '²' and other digits int() refuses.
    if key.isascii() and key.isdigit() and 1 <= int(key) <= len(names):
        return int(key) - 1
    raise TierNotFoundError(path, f"no tier {tier!r}", hint=f"choose one of {listing}")


def parse_textgrid(text: str, path: str | Path, tier: str | int | None = None) -> list[_Raw]:
    """Non-empty intervals of one interval tier (default: the first interval tier)."""
    tiers = parse_textgrid_tiers(text, path)
    usable = [t.tier_class == "IntervalTier" and any(r.text.strip() for r in t.items) for t in tiers]
    chosen = tiers[_choose_tier([t.name for t in tiers], tier, path, "interval tier", usable)]
    if chosen.tier_class != "IntervalTier":
        raise FormatError(path, f"tier {chosen.name!r} is a point tier, not an interval tier", line=chosen.line or None, hint="choose an interval tier")
    return [_Raw(r.text.strip(), r.start, r.end, r.line) for r in chosen.items if r.text.strip()]


# ---------------------------------------------------------------------------
# ELAN EAF


@dataclass
class EafTier:
    """One tier of an ELAN file and its annotations (times in seconds)."""

    tier_id: str
    items: list[_Raw]


def parse_eaf_tiers(text: str, path: str | Path) -> list[EafTier]:
    """All tiers of an ELAN annotation document, annotations sorted by start time.

    Time slots without a value (unaligned) get times interpolated between the
    nearest aligned slots, as ELAN displays them. Reference annotations take
    the times of the annotation they refer to.
    """
    slot_order: list[str] = []
    slot_values: dict[str, float | None] = {}
    tiers: list[tuple[str, list[dict]]] = []
    stack: list[str] = []
    current: dict | None = None
    value_parts: list[str] = []
    parser = xml.parsers.expat.ParserCreate()
    root_seen: list[str] = []
    counted = [0]

    def start(name: str, attrs: dict[str, str]) -> None:
        nonlocal current
        if not root_seen:
            root_seen.append(name)
        stack.append(name)
        if name == "TIME_SLOT":
            sid = attrs.get("TIME_SLOT_ID", "")
            slot_order.append(sid)
            raw = attrs.get("TIME_VALUE")
            try:
                slot_values[sid] = check_seconds(int(raw) / 1000, raw) if raw not in (None, "") else None
            except (ValueError, OverflowError):
                raise TimestampError(
                    path, f"time slot {sid[:40]!r} has the value {str(raw)[:30]!r}, not milliseconds of a recording", line=parser.CurrentLineNumber
                ) from None
        elif name == "TIER":
            tiers.append((attrs.get("TIER_ID", f"tier {len(tiers) + 1}"), []))
        elif name in ("ALIGNABLE_ANNOTATION", "REF_ANNOTATION") and tiers:
            current = dict(attrs, _kind=name, _line=parser.CurrentLineNumber)
            counted[0] += 1
            if counted[0] > MAX_SEGMENTS:
                raise _too_many(path, counted[0], "annotations", MAX_SEGMENTS)
        elif name == "ANNOTATION_VALUE":
            value_parts.clear()

    def end(name: str) -> None:
        nonlocal current
        stack.pop()
        if name == "ANNOTATION_VALUE" and current is not None:
            current["_value"] = "".join(value_parts)
        elif name in ("ALIGNABLE_ANNOTATION", "REF_ANNOTATION") and current is not None:
            tiers[-1][1].append(current)
            current = None

    def chars(data: str) -> None:
        if stack and stack[-1] == "ANNOTATION_VALUE":
            value_parts.append(data)

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = chars
    try:
        parser.Parse(text, True)
    except xml.parsers.expat.ExpatError as exc:
        raise FormatError(path, f"the ELAN file is not well-formed XML ({xml.parsers.expat.errors.messages[exc.code]})", line=exc.lineno, hint="open and save it in ELAN") from None
    if not root_seen or root_seen[0] != "ANNOTATION_DOCUMENT":
        raise FormatError(path, "this XML file is not an ELAN annotation document", line=1, hint="choose an .eaf file")

    times = _interpolate_slots(slot_order, slot_values)
    by_id: dict[str, tuple[float | None, float | None]] = {}
    pending_refs: list[dict] = []
    for _, tier_annotations in tiers:
        for a in tier_annotations:
            if a["_kind"] == "ALIGNABLE_ANNOTATION":
                for key in ("TIME_SLOT_REF1", "TIME_SLOT_REF2"):
                    if a.get(key) not in times:
                        raise FormatError(path, f"annotation {a.get('ANNOTATION_ID')!r} refers to an unknown time slot {a.get(key)!r}", line=a["_line"])
                by_id[a.get("ANNOTATION_ID", "")] = (times[a["TIME_SLOT_REF1"]], times[a["TIME_SLOT_REF2"]])
            else:
                pending_refs.append(a)
    _resolve_references(pending_refs, by_id)

    result: list[EafTier] = []
    for tier_id, tier_annotations in tiers:
        items = []
        for a in tier_annotations:
            s, e = by_id.get(a.get("ANNOTATION_ID", ""), (None, None))
            items.append(_Raw(a.get("_value", ""), s, e, a["_line"], label=a.get("ANNOTATION_ID", "")))
        items.sort(key=lambda r: (r.start is None, r.start if r.start is not None else 0.0))
        result.append(EafTier(tier_id, items))
    return result


def _resolve_references(refs: list[dict], by_id: dict[str, tuple[float | None, float | None]]) -> None:
    """Give each reference annotation the times of the annotation it refers to.

    References may point at other references. Each chain is followed once and
    every annotation on it resolved on the way back, so the work is linear in
    the number of annotations; a chain that ends nowhere or loops leaves its
    annotations without times.
    """
    ref_of = {a.get("ANNOTATION_ID", ""): a.get("ANNOTATION_REF") for a in refs}
    for start in ref_of:
        if start in by_id:
            continue
        chain: list[str] = []
        seen: set[str] = set()
        node: str | None = start
        while node is not None and node not in by_id and node in ref_of and node not in seen:
            seen.add(node)
            chain.append(node)
            node = ref_of[node]
        times = by_id.get(node, (None, None)) if node is not None and node in by_id else (None, None)
        for aid in chain:
            by_id[aid] = times


def _interpolate_slots(order: list[str], values: dict[str, float | None]) -> dict[str, float | None]:
    """Fill unaligned slots linearly between the nearest aligned ones (None at the ends)."""
    out: dict[str, float | None] = dict(values)
    known = [i for i, sid in enumerate(order) if values.get(sid) is not None]
    for a, b in zip(known, known[1:]):
        va, vb = values[order[a]], values[order[b]]
        assert va is not None and vb is not None
        for k in range(a + 1, b):
            out[order[k]] = va + (vb - va) * (k - a) / (b - a)
    return out


def parse_eaf(text: str, path: str | Path, tier: str | int | None = None) -> list[_Raw]:
    """Non-empty annotations of one tier (by TIER_ID or 1-based number; default the first with text)."""
    tiers = parse_eaf_tiers(text, path)
    usable = [any(r.text.strip() for r in t.items) for t in tiers]
    chosen = tiers[_choose_tier([t.tier_id for t in tiers], tier, path, "tier", usable)]
    return [_Raw(r.text.strip(), r.start, r.end, r.line, label=r.label) for r in chosen.items if r.text.strip()]


# ---------------------------------------------------------------------------
# Entry point


def list_tiers(path: str | Path, *, encoding: str | None = None) -> list[str]:
    """Tier names of a TextGrid or EAF file, or column names of a TSV with a header (else [])."""
    decoded = read_text(path, encoding=encoding)
    fmt = detect_format(path, decoded.text)
    if fmt == "textgrid":
        return [f"{t.name} ({'interval' if t.tier_class == 'IntervalTier' else 'point'})" for t in parse_textgrid_tiers(decoded.text, path)]
    if fmt == "eaf":
        return [t.tier_id for t in parse_eaf_tiers(decoded.text, path)]
    return []


def read_transcript(
    path: str | Path,
    *,
    format: str | None = None,
    language: str | None = None,
    tier: str | int | None = None,
    encoding: str | None = None,
    strict: bool = True,
    max_bytes: int = MAX_TRANSCRIPT_BYTES,
    keep_markup: bool = False,
) -> Document:
    """Read a transcript into a :class:`Document`.

    Args:
        path: the file.
        format: one of :data:`FORMATS` (or an alias such as ``"praat"``);
            detected from the extension and the content when None.
        language: the document language; guessed from the script when None
            (kana/kanji → ``"ja"``, Latin → ``"en"``).
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
        OverlapError, TierNotFoundError — each naming the file and line.
    """
    path = Path(path)
    decoded = read_text(path, encoding=encoding, limit=max_bytes)
    text = decoded.text
    fmt = normalise_format(format) if format else detect_format(path, text)
    if not text.strip():
        raise EmptyInputError(path, "the file holds only whitespace", hint="choose a transcript with at least one line of text")
    if tier is not None and fmt in ("txt", "srt", "vtt"):
        raise TierNotFoundError(path, f"{FORMAT_NAMES[fmt]} files have no tiers", hint="leave out the tier")
    if fmt != "eaf":
        n_lines = text.count("\n") + text.count("\r") - text.count("\r\n")
        if n_lines > MAX_LINES:
            raise _too_many(path, n_lines, "lines", MAX_LINES)

    gaps: list[str] | None = None
    kind = "caption"
    if fmt == "txt":
        raws, gaps = parse_txt(text, path)
        kind = "line"
    elif fmt == "tsv":
        raws = parse_tsv(text, path, tier)
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
    return doc
