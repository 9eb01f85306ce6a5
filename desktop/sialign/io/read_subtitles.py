"""Readers of SubRip (.srt) and WebVTT (.vtt) captions."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from sialign.core.errors import FormatError, TimestampError
from sialign.io.timecodes import parse_clock
from sialign.io.transcript_items import TIME_ARROW, RawItem, split_lines, text_blocks

# Caption markup. WebVTT: every <...> is a tag (a literal '<' is written
# '&lt;'): <i>, <b>, <c.yellow>, <v Speaker>, <lang en>, <ruby>, and the word
# timestamps <00:00:08.500> of YouTube captions. SubRip has no standard
# markup; players accept <i>, <b>, <u>, <s>, <font ...> and the {\an8}-style
# positioning codes of ASS, so only those are removed there, with <term>, the
# glossary mark of a tagged source (sialign project-tags reads the tags back
# from the file, so the text that is aligned carries none).
_VTT_TAG = re.compile(r"<[^>\n]*>")


_VTT_VOICE = re.compile(r"<v(?:\.[^\s>]*)?[ \t]+([^>\n]+)>")


_SRT_TAG = re.compile(r"</?(?:i|b|u|s|font|term)(?:\s[^>\n]*)?>|\{\\[^}\n]*\}", re.IGNORECASE)


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


def _no_time_line(path: str | Path, block: str, first_line: str, line_no: int, hint: str) -> FormatError:
    """The error for a caption or cue (``block`` names which) without a ``start --> end`` line."""
    return FormatError(path, f"{block} has no time line (found {first_line.strip()[:60]!r})", line=line_no, hint=hint)


def _parse_timing(line: str, path: str | Path, line_no: int, parse: Callable[[str], float], example: str) -> tuple[float, float]:
    left, _, right = line.partition(TIME_ARROW)
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


def parse_srt(text: str, path: str | Path, *, keep_markup: bool = False) -> list[RawItem]:
    """SubRip: blocks of ``number``, ``start --> end``, text lines, separated by blank lines.

    The number line may be missing; a ``.`` instead of ``,`` before the
    milliseconds is accepted. Formatting tags (``<i>``, ``<font>``...) and
    ``{\\an8}`` codes are removed unless ``keep_markup``. Captions with no
    text are skipped.
    """
    lines = split_lines(text)
    raws: list[RawItem] = []
    for block_no, (line_no, block) in enumerate(text_blocks(lines)):
        label = ""
        timing_at = 0
        if TIME_ARROW not in block[0]:
            if len(block) > 1 and TIME_ARROW in block[1]:
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
                raise _no_time_line(
                    path, "caption block", block[0], line_no,
                    "each caption needs a line 'start --> end' after its number; a blank line may be missing or extra",
                )
        timing_line = line_no + timing_at
        start, end = _parse_timing(block[timing_at], path, timing_line, parse_clock, "00:00:01,000 --> 00:00:03,500")
        body = [ln.strip() for ln in block[timing_at + 1 :]]
        if any(TIME_ARROW in ln and re.search(r"\d:\d\d[,.]\d", ln) for ln in body):
            raise FormatError(
                path,
                "a time line inside a caption's text",
                line=timing_line + 1 + next(i for i, ln in enumerate(body) if TIME_ARROW in ln),
                hint="a blank line is missing between two captions",
            )
        if not keep_markup:
            body = [clean_srt_caption(ln).strip() for ln in body]
        caption = "\n".join(ln for ln in body if ln or keep_markup).strip()
        if caption:
            raws.append(RawItem(caption, start, end, timing_line + 1, label=label or str(block_no + 1)))
    return raws


def parse_vtt(text: str, path: str | Path, *, keep_markup: bool = False) -> list[RawItem]:
    """WebVTT: a ``WEBVTT`` header, then cues (optional id, ``start --> end [settings]``, text).

    NOTE, STYLE and REGION blocks are skipped; cue settings are ignored. The
    cue text loses its tags (``<i>``, ``<c>``, word timestamps) and gets its
    character references undone (``&amp;`` → ``&``); the name of a ``<v
    Name>`` voice tag becomes the segment's speaker. With ``keep_markup``
    the cue text is kept exactly as written.
    """
    lines = split_lines(text.lstrip("\ufeff"))
    if not lines or not (lines[0].startswith("WEBVTT") and (len(lines[0]) == 6 or lines[0][6] in " \t")):
        raise FormatError(
            path,
            "this is not WebVTT: the first line must be 'WEBVTT'",
            line=1,
            hint="add the WEBVTT header or choose the right format (SRT uses ',' in times and has no header)",
        )
    raws: list[RawItem] = []
    blocks = text_blocks(lines)
    if blocks and blocks[0][0] == 1:
        header_line, header = blocks.pop(0)
        # A cue written right under the header, without the blank line the
        # format asks for, is still a cue: keep it rather than drop it.
        arrow_at = next((k for k, ln in enumerate(header) if TIME_ARROW in ln), None)
        if arrow_at is not None:
            first = arrow_at - 1 if arrow_at >= 2 else arrow_at
            blocks.insert(0, (header_line + first, header[first:]))
    for line_no, block in blocks:
        head = block[0].strip()
        if head.startswith(("NOTE", "STYLE", "REGION")) and TIME_ARROW not in head:
            continue
        label = ""
        timing_at = 0
        if TIME_ARROW not in block[0]:
            if len(block) > 1 and TIME_ARROW in block[1]:
                label, timing_at = head, 1
            else:
                raise _no_time_line(
                    path, "cue", head, line_no, "each cue needs 'start --> end' (00:00:01.000 --> 00:00:03.500); a blank line may be missing"
                )
        timing_line = line_no + timing_at
        start, end = _parse_timing(block[timing_at], path, timing_line, _parse_vtt_clock, "00:00:01.000 --> 00:00:03.500")
        caption = "\n".join(ln.strip() for ln in block[timing_at + 1 :]).strip()
        speaker = ""
        if not keep_markup:
            caption, speaker = clean_vtt_cue(caption)
            caption = "\n".join(ln.strip() for ln in caption.split("\n") if ln.strip())
        if caption:
            raws.append(RawItem(caption, start, end, timing_line + 1, label=label, speaker=speaker))
    return raws


def _parse_vtt_clock(value: str) -> float:
    if "," in value:
        raise ValueError("WebVTT uses '.' before the milliseconds")
    return parse_clock(value)
