"""A transcript's first lines as a given (or the detected) encoding decodes them, with any doubt about it.

The New talk dialog shows this next to each transcript so the user can see
garbled text before building a talk and pick another encoding. Qt-free.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path

from sialign.io.encoding import DecodedText, decode_bytes, read_limited_bytes

# (label shown to the user, Python codec name; None detects the encoding).
ENCODING_CHOICES: tuple[tuple[str, str | None], ...] = (
    ("Auto", None),
    ("UTF-8", "utf-8"),
    ("UTF-8 with BOM", "utf-8-sig"),
    ("UTF-16", "utf-16"),
    ("Windows-1252 / Latin-1", "cp1252"),
    ("Shift_JIS / CP932", "cp932"),
    ("EUC-JP", "euc_jp"),
    ("ISO-2022-JP", "iso2022_jp"),
    ("GB18030 / GBK", "gb18030"),
    ("Big5", "big5"),
    ("EUC-KR", "euc_kr"),
)

_LABELS = {codec: label for label, codec in ENCODING_CHOICES if codec} | {"euc_jp": "EUC-JP", "cp932": "Shift_JIS"}

PREVIEW_LINES = 6
# Encodings that read two bytes as one CJK character: a short text can decode
# under several of them, so a detected one is only trusted with kana or enough text.
_DOUBLE_BYTE = {"cp932", "shift_jis", "euc_jp", "gb2312", "gbk", "gb18030", "big5", "big5hkscs", "cp950", "euc_kr", "cp949"}
_KANA = re.compile("[\u3040-\u30ff]")
_HAN = re.compile("[\u4e00-\u9fff]")
_HANGUL = re.compile("[\uac00-\ud7a3]")
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_MOJIBAKE = re.compile("[\u00c2\u00c3][\u0080-\u00bf\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u2013-\u2122]")
MIN_HAN_FOR_TRUST = 40


@dataclass(frozen=True)
class TextPreview:
    """The first lines of a file as decoded, the encoding used and why it may be wrong.

    Attributes:
        lines: up to :data:`PREVIEW_LINES` lines of text (empty lines skipped).
        encoding: the codec name that decoded the file.
        detected: True when the encoding was detected rather than chosen.
        doubts: one plain sentence per reason to check the text (empty: no doubt).
    """

    lines: list[str]
    encoding: str
    detected: bool
    doubts: list[str] = field(default_factory=list)


def decoding_doubts(data: bytes, decoded: DecodedText, *, detected: bool) -> list[str]:
    """Reasons to doubt ``decoded`` as the text of ``data`` (empty when there are none).

    The detector's own doubt (mixed encodings, a low-confidence guess),
    replacement characters in the text, and a detected double-byte CJK
    encoding of a short text without kana, which other CJK encodings read
    just as well (GBK Chinese decodes as EUC-JP, for instance).
    """
    doubts = []
    if decoded.doubt:
        named = f"line {decoded.doubt_line}"
        where = f"{named}: " if decoded.doubt_line and named not in decoded.doubt else ""
        doubts.append(where + decoded.doubt)
    text = decoded.text
    replacement = text.find("\ufffd")
    if replacement >= 0:
        line = text.count("\n", 0, replacement) + 1
        doubts.append(f"line {line}: the text holds replacement characters (�), so part of it was lost before")
    # Mojibake of UTF-8 only when that line's bytes are UTF-8; else name the encoding the file reads as (GBK read as Windows-1252).
    mojibake = "UTF-8 read as a single-byte encoding (Ã© for é): choose UTF-8 or Auto"
    found = _MOJIBAKE.search(text)
    if found and not _line_is_utf8(text, found.start(), decoded.encoding):
        other = _cjk_reading(data)
        mojibake = (f"{_LABELS.get(other, other)} text read as a single-byte encoding: choose {_LABELS.get(other, other)} "
                    "or Auto") if other else "letters of another encoding: choose Auto or the file's encoding"
    for pattern, what in ((_CONTROL, "control characters, so the encoding is probably wrong"), (_MOJIBAKE, mojibake)):
        found = pattern.search(text)
        if found:
            doubts.append(f"line {text.count(chr(10), 0, found.start()) + 1}: the text holds {what}")
    name = decoded.encoding.replace("-", "_").lower()
    if detected and not doubts and name in _DOUBLE_BYTE:
        han = len(_HAN.findall(text))
        others = [
            other for other in ("gb18030", "big5", "euc_kr", "cp932", "euc_jp")
            if other != name and _decodes(data, other)
        ]
        if others and not _KANA.search(text) and not _HANGUL.search(text) and han < MIN_HAN_FOR_TRUST:
            names = ", ".join(_LABELS.get(o, o) for o in others)
            doubts.append(f"detected as {_LABELS.get(name, name)} from a short text that {names} read too")
    return doubts


def _line_is_utf8(text: str, position: int, encoding: str) -> bool:
    """Whether the line of ``text`` at ``position``, encoded back with ``encoding``, is UTF-8."""
    start = text.rfind("\n", 0, position) + 1
    end = text.find("\n", position)
    try:
        text[start : end if end >= 0 else len(text)].encode(encoding).decode("utf-8")
    except (UnicodeError, LookupError):
        return False
    return True


def _cjk_reading(data: bytes) -> str:
    """The double-byte encoding under which ``data`` reads as mostly Chinese, Japanese or Korean text ("" when none)."""
    wide = sum(1 for b in data if b >= 0x80) // 2
    for codec in ("gb18030", "cp932", "euc_jp", "big5", "euc_kr"):
        try:
            text = data.decode(codec)
        except UnicodeDecodeError:
            continue
        letters = len(_HAN.findall(text)) + len(_KANA.findall(text)) + len(_HANGUL.findall(text))
        if wide and letters >= 0.9 * wide and not _CONTROL.search(text):
            return codec
    return ""


def _decodes(data: bytes, encoding: str) -> bool:
    try:
        data.decode(encoding)
    except UnicodeDecodeError:
        return False
    return True


def _lines(text: str) -> Iterator[str]:
    """The lines of ``text`` one at a time (``splitlines`` would copy a whole 10 MB file at once)."""
    for match in _LINE.finditer(text):
        yield match.group(1)


_LINE = re.compile(r"([^\r\n\v\f\x1c\x1d\x1e\x85\u2028\u2029]*)(?:\r\n|[\r\n\v\f\x1c\x1d\x1e\x85\u2028\u2029]|\Z)")


def preview_transcript(path: str | Path, encoding: str | None = None, *, max_lines: int = PREVIEW_LINES) -> TextPreview:
    """Decode ``path`` (detecting the encoding when ``encoding`` is None) and return its first lines.

    Raises:
        InputError subclasses of :func:`~sialign.io.encoding.read_text`: the
        file cannot be read or does not decode as ``encoding``.
    """
    data = read_limited_bytes(path)
    decoded = decode_bytes(data, path, encoding=encoding)
    lines = list(islice((line for line in _lines(decoded.text) if line.strip()), max_lines))
    return TextPreview(lines, decoded.encoding, encoding is None, decoding_doubts(data, decoded, detected=encoding is None))


__all__ = ["ENCODING_CHOICES", "PREVIEW_LINES", "TextPreview", "decoding_doubts", "preview_transcript"]
