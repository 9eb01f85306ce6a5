"""Reading transcript bytes and finding their text encoding.

Transcripts of Japanese interpretation often come in legacy encodings
(CP932/Shift_JIS from Windows tools, EUC-JP from older Unix corpora) or in
UTF-16 (Praat writes TextGrids with non-ASCII text that way). The detector
decodes the bytes strictly under each candidate and keeps only decodings that
succeed and look like text; it never falls back to a lossy decoding. When the
bytes decode under none of the candidates the user gets an
:class:`EncodingError` that names the file and the first bad line.

Order of the checks, and why:

1. A byte-order mark decides (UTF-8, UTF-16 LE/BE, UTF-32 LE/BE).
2. BOM-less UTF-16 is recognised by its NUL-byte pattern: text that is mostly
   ASCII has a NUL in every other byte, and line breaks appear as ``0A 00``
   (LE) or ``00 0A`` (BE) at even offsets.
3. Any other NUL byte means the file is binary (UTF-8 and the Japanese legacy
   encodings never contain NUL in text).
4. Strict UTF-8 (pure ASCII included) — a legacy-encoded Japanese file almost
   never decodes as valid UTF-8 by accident.
5. CP932 and EUC-JP: both are tried strictly; each successful decoding is
   scored by how much of its non-ASCII text is ordinary Japanese (kana,
   common kanji, full-width punctuation) rather than the debris a wrong
   decoding produces (half-width katakana, private-use characters, control
   characters). charset-normalizer breaks near ties.
"""

from __future__ import annotations

import codecs
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from sialign.core.errors import BinaryFileError, EmptyInputError, EncodingError, FileTooLargeError, InputError

# Transcripts of a talk are kilobytes; 50 MB is far beyond any real one and
# keeps a mistaken choice (a video, a corpus dump) from being read into memory.
MAX_TRANSCRIPT_BYTES = 50 * 1024 * 1024
# Exported corpora (TSV, JSONL) of many talks can be larger.
MAX_TABLE_BYTES = 1024 * 1024 * 1024

# Encodings tried after BOM and UTF-16 checks, in order.
LEGACY_JAPANESE = ("cp932", "euc_jp")

# Below this share of plausible characters a decoding is treated as wrong.
MIN_PLAUSIBILITY = 0.85

# Magic numbers of files people pick by mistake, for a helpful message.
_MAGIC = (
    (b"%PDF", "a PDF document"),
    (b"PK\x03\x04", "a ZIP archive (for example a .docx or .xlsx file)"),
    (b"\xd0\xcf\x11\xe0", "a legacy Microsoft Office document"),
    (b"RIFF", "a RIFF file (for example WAV audio)"),
    (b"fLaC", "FLAC audio"),
    (b"OggS", "Ogg audio"),
    (b"ID3", "MP3 audio"),
    (b"\x1f\x8b", "a gzip-compressed file"),
    (b"\x89PNG", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"ooBinaryFile", "a binary Praat file"),
)

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le", "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32-be", "utf-32"),
    (codecs.BOM_UTF8, "utf-8", "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16-le", "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16-be", "utf-16"),
)

# Codecs that decode bytes to str but are no encoding of a transcript.
_NOT_TEXT_CODECS = {"punycode", "idna", "undefined", "raw_unicode_escape", "unicode_escape", "mbcs", "oem"}

_ENCODING_HINT = (
    "save it as UTF-8, or name its encoding (--encoding cp932, euc_jp, utf-16, cp1252...)"
)


@dataclass(frozen=True)
class DecodedText:
    """The text of a file and how it was decoded.

    Attributes:
        text: the decoded text, byte-order mark removed.
        encoding: the encoding name reported to the user (``"utf-8"``,
            ``"utf-8-sig"``, ``"utf-16"``, ``"utf-16-le"``, ``"cp932"``,
            ``"euc_jp"``...).
    """

    text: str
    encoding: str


STDIN_NAME = "-"
_stdin_data: bytes | None = None


def _read_stdin(limit: int, kind: str) -> bytes:
    """Standard input, read once and kept (a command may look at it twice, like ``info -``)."""
    global _stdin_data
    if _stdin_data is None:
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:
            raise InputError(STDIN_NAME, "standard input is not available", hint="give a file name instead of '-'")
        _stdin_data = stream.read(limit + 1)
    if len(_stdin_data) > limit:
        raise FileTooLargeError(STDIN_NAME, f"standard input holds more than the {limit / 2**20:.0f} MB limit for a {kind}")
    if not _stdin_data:
        raise EmptyInputError(STDIN_NAME, "standard input is empty", hint="pipe a transcript into the command")
    return _stdin_data


def read_limited_bytes(path: str | Path, *, limit: int = MAX_TRANSCRIPT_BYTES, kind: str = "transcript") -> bytes:
    """Read a whole file, refusing files over ``limit`` bytes before reading them.

    ``-`` reads standard input (once; later calls get the same bytes).

    Raises:
        InputError: the file does not exist or cannot be opened.
        FileTooLargeError: the file is larger than ``limit``.
        EmptyInputError: the file has no bytes.
    """
    if str(path) == STDIN_NAME:
        return _read_stdin(limit, kind)
    path = Path(path)
    try:
        size = os.stat(path).st_size
    except FileNotFoundError:
        raise InputError(path, "file not found", hint="check the path") from None
    except OSError as exc:
        raise InputError(path, f"cannot open the file ({exc.strerror})") from None
    if path.is_dir():
        raise InputError(path, "is a folder, not a file", hint="choose a transcript file")
    if size > limit:
        raise FileTooLargeError(
            path,
            f"the file is {size / 2**20:.1f} MB, more than the {limit / 2**20:.0f} MB limit for a {kind}",
            hint="check that this is the right file; split very long transcripts into talks",
        )
    try:
        with open(path, "rb") as fh:
            # Read one byte past the limit: stat can be wrong for special files.
            data = fh.read(limit + 1)
    except OSError as exc:
        raise InputError(path, f"cannot read the file ({exc.strerror})") from None
    if len(data) > limit:
        raise FileTooLargeError(path, f"the file is larger than the {limit / 2**20:.0f} MB limit for a {kind}")
    if not data:
        raise EmptyInputError(path, "the file is empty", hint="choose a transcript with at least one line of text")
    return data


def _first_bad_line(data: bytes, bad_offset: int) -> int:
    """1-based line of byte ``bad_offset``, counting LF bytes before it."""
    return data.count(b"\n", 0, bad_offset) + 1


def _looks_like_bomless_utf16(data: bytes) -> str | None:
    """``"utf-16-le"`` / ``"utf-16-be"`` when the NUL pattern says so, else None."""
    if len(data) < 2 or b"\x00" not in data:
        return None
    sample = data[: 1 << 16]
    if len(sample) % 2:
        sample = sample[:-1]
    even_nul = sample[0::2].count(0)
    odd_nul = sample[1::2].count(0)
    pairs = len(sample) // 2
    # ASCII in UTF-16LE puts NUL in the odd bytes; BE in the even bytes. Japanese
    # text has few NULs, so line breaks (0A 00 / 00 0A at even offsets) also count.
    lf_le = sum(1 for i in range(0, len(sample) - 1, 2) if sample[i] == 0x0A and sample[i + 1] == 0)
    lf_be = sum(1 for i in range(0, len(sample) - 1, 2) if sample[i] == 0 and sample[i + 1] == 0x0A)
    candidate = None
    if odd_nul > 0.2 * pairs and even_nul < 0.05 * pairs or lf_le > 0 and even_nul == 0:
        candidate = "utf-16-le"
    elif even_nul > 0.2 * pairs and odd_nul < 0.05 * pairs or lf_be > 0 and odd_nul == 0:
        candidate = "utf-16-be"
    if candidate is None or len(data) % 2:
        return None
    try:
        text = data.decode(candidate)
    except UnicodeDecodeError:
        return None
    return candidate if _plausibility(text) >= MIN_PLAUSIBILITY else None


# Characters ordinary transcripts are made of: printable ASCII and usual
# whitespace, Latin letters with accents, general punctuation, Greek/Cyrillic,
# Hebrew/Arabic, Indic, Thai/Lao, kana, common CJK ideographs and punctuation,
# full-width ASCII, Hangul, enclosed and compatibility CJK, arrows, maths and
# shapes, emoji. Missing on purpose: C0/C1 controls, private use, half-width
# katakana (what EUC-JP bytes become when read as CP932) and rare ideographs.
_PLAUSIBLE = (
    "\t\n\r\f\x20-\x7e"
    "\u00a0-\u024f\u1e00-\u1eff"
    "\u2000-\u206f\u2100-\u214f\u2190-\u22ff\u2460-\u24ff\u25a0-\u26ff"
    "\u0370-\u04ff\u0590-\u06ff\u0900-\u0dff\u0e00-\u0eff"
    "\u3000-\u303f\u3040-\u30ff\u4e00-\u9fff\uff01-\uff5e"
    "\uac00-\ud7af\u1100-\u11ff\u3130-\u318f"
    "\u3200-\u33ff\ufe30-\ufe4f\u2e80-\u2fdf\ufeff"
    "\U0001f300-\U0001faff"
)
_IMPLAUSIBLE_RE = re.compile(f"[^{_PLAUSIBLE}]")
_NON_ASCII_RE = re.compile("[^\x00-\x7f]")
_JAPANESE_RE = re.compile("[\u3000-\u303f\u3040-\u30ff\u4e00-\u9fff\uff01-\uff5e]")


def _plausibility(text: str) -> float:
    """Share of characters that ordinary transcript text is made of (see ``_PLAUSIBLE``)."""
    if not text:
        return 1.0
    return 1.0 - len(_IMPLAUSIBLE_RE.findall(text)) / len(text)


def _japanese_score(text: str) -> float:
    """Share of non-ASCII characters that are kana, common kanji or CJK punctuation."""
    non_ascii = len(_NON_ASCII_RE.findall(text))
    if not non_ascii:
        return 1.0
    return len(_JAPANESE_RE.findall(text)) / non_ascii


def _charset_normalizer_choice(data: bytes, candidates: list[str]) -> str | None:
    """The candidate charset-normalizer prefers, or None when it names none of them."""
    try:
        from charset_normalizer import from_bytes
    except ImportError:  # an optional tiebreaker: the scores alone still decide
        return None
    names = {codecs.lookup(c).name: c for c in candidates}
    best = from_bytes(data, cp_isolation=list(names)).best()
    if best is None:
        return None
    return names.get(codecs.lookup(best.encoding).name)


def decode_bytes(data: bytes, path: str | Path | None = None, *, encoding: str | None = None) -> DecodedText:
    """Decode transcript bytes, detecting the encoding unless ``encoding`` is given.

    Args:
        data: the raw file content.
        path: the file, named in error messages.
        encoding: a Python codec name to use instead of detecting.

    Raises:
        EncodingError: the bytes decode under no candidate (or not under
            ``encoding``); the message names the first bad line.
        BinaryFileError: the bytes are not text at all.
    """
    if encoding:
        try:
            codec = codecs.lookup(encoding)
        except LookupError:
            raise EncodingError(path, f"unknown encoding {encoding!r}", hint="use a name such as utf-8, cp932, euc_jp, utf-16") from None
        name = codec.name
        # rot13, hex, base64, zlib... are codecs but not text encodings.
        if not getattr(codec, "_is_text_encoding", True) or name in _NOT_TEXT_CODECS:
            raise EncodingError(path, f"{encoding!r} is not a text encoding", hint="use a name such as utf-8, cp932, euc_jp, utf-16")
        if name == "utf-8" and data.startswith(codecs.BOM_UTF8):
            name = "utf-8-sig"
        try:
            text = data.decode(name)
        except UnicodeDecodeError as exc:
            raise EncodingError(
                path,
                f"the bytes are not valid {encoding} (byte {exc.start})",
                line=_first_bad_line(data, exc.start),
                hint="check the encoding, or leave it out to detect it",
            ) from None
        except (UnicodeError, LookupError, ValueError, TypeError) as exc:
            raise EncodingError(path, f"the bytes cannot be read as {encoding} ({str(exc)[:80]})", hint="check the encoding, or leave it out to detect it") from None
        return DecodedText(text, name)

    for bom, codec_name, reported in _BOMS:
        if data.startswith(bom):
            body = data[len(bom) :]
            try:
                return DecodedText(body.decode(codec_name), reported)
            except UnicodeDecodeError as exc:
                raise EncodingError(
                    path,
                    f"the file starts with a {reported.upper()} byte-order mark but is not valid {reported.upper()}",
                    line=_first_bad_line(body, exc.start) if reported == "utf-8" else None,
                    hint=_ENCODING_HINT,
                ) from None

    utf16 = _looks_like_bomless_utf16(data)
    if utf16:
        return DecodedText(data.decode(utf16), utf16)

    head = data[:16]
    for magic, what in _MAGIC:
        if head.startswith(magic):
            raise BinaryFileError(path, f"this is {what}, not a text transcript", hint="choose the transcript file")
    nul = data.find(b"\x00")
    if nul >= 0:
        raise BinaryFileError(
            path,
            f"the file holds binary data (a NUL byte at offset {nul}), not text",
            line=_first_bad_line(data, nul),
            hint="choose a plain-text transcript (TXT, TSV, SRT, VTT, TextGrid, EAF)",
        )

    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        utf8_error = exc
    else:
        return DecodedText(text, "utf-8")

    decoded: list[tuple[float, str, str]] = []
    for name in LEGACY_JAPANESE:
        try:
            text = data.decode(name)
        except UnicodeDecodeError:
            continue
        if _plausibility(text) >= MIN_PLAUSIBILITY:
            decoded.append((_japanese_score(text), name, text))
    if not decoded:
        raise EncodingError(
            path,
            "cannot tell the text encoding: the bytes are not UTF-8, UTF-16, CP932/Shift_JIS or EUC-JP "
            f"(first invalid UTF-8 byte 0x{data[utf8_error.start]:02X})",
            line=_first_bad_line(data, utf8_error.start),
            hint=_ENCODING_HINT,
        )
    decoded.sort(key=lambda d: d[0], reverse=True)
    if len(decoded) > 1 and decoded[0][0] - decoded[1][0] < 0.05 and decoded[0][2] != decoded[1][2]:
        choice = _charset_normalizer_choice(data, [d[1] for d in decoded])
        for score, name, text in decoded:
            if name == choice:
                return DecodedText(text, name)
    return DecodedText(decoded[0][2], decoded[0][1])


def read_text(path: str | Path, *, encoding: str | None = None, limit: int = MAX_TRANSCRIPT_BYTES) -> DecodedText:
    """Read and decode a transcript file (size-checked before reading).

    Raises the errors of :func:`read_limited_bytes` and :func:`decode_bytes`.
    """
    data = read_limited_bytes(path, limit=limit)
    return decode_bytes(data, path, encoding=encoding)


def detect_encoding(path: str | Path) -> str:
    """The encoding name :func:`read_text` would use for ``path``."""
    return read_text(path).encoding
