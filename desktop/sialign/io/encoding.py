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
   characters). charset-normalizer breaks near ties. A decoding with many
   kanji but hardly any kana is not taken: that is Korean or Chinese read
   as Japanese.

ISO-2022-JP (7-bit, so valid ASCII) is recognised by its escape sequences
before step 4. After step 5:

6. Mixed encodings: a file that is UTF-8 except for a few lines (pasted from
   a Latin-1 document) is decoded line by line, the odd lines as CP1252, and
   reported as doubtful with the first such line.
7. Western European text (CP1252/Latin-1): accented letters inside mostly
   ASCII words; then Central European text (CP1250, ISO-8859-2) the same
   way, with at least one letter only those encodings give (ą ł ř ő...).
8. charset-normalizer decides among every other encoding (Chinese, Korean,
   Cyrillic, Greek...); a result it is not sure of is reported as doubtful.

A doubtful decode is still returned (:attr:`DecodedText.doubt`) so the
application can read the file and warn, naming the line.
"""

from __future__ import annotations

import codecs
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from sialign.core.errors import BinaryFileError, EmptyInputError, EncodingError, FileTooLargeError, InputError
from sialign.core.file_kind import special_file_kind_of_mode

# Transcripts of a talk are kilobytes; 50 MiB is far beyond any real one and
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
    "save it as UTF-8, or name its encoding (cp932, euc_jp, utf-16, cp1252...)"
)


@dataclass(frozen=True)
class DecodedText:
    """The text of a file and how it was decoded.

    Attributes:
        text: the decoded text, byte-order mark removed.
        encoding: the encoding name reported to the user (``"utf-8"``,
            ``"utf-8-sig"``, ``"utf-16"``, ``"utf-16-le"``, ``"cp932"``,
            ``"euc_jp"``...).
        doubt: why the decoding may be wrong (mixed encodings, a guess with
            low confidence); empty when it is certain enough.
        doubt_line: the 1-based line the doubt is about, when one is.
    """

    text: str
    encoding: str
    doubt: str = ""
    doubt_line: int | None = None


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
        raise FileTooLargeError(STDIN_NAME, f"standard input holds more than the {limit / 2**20:.0f} MiB limit for a {kind}")
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
    kind_of_file = special_file_kind(path)
    if kind_of_file:
        # Opening a named pipe blocks until something writes to it.
        raise InputError(path, f"is {kind_of_file}, not a regular file", hint="choose the transcript file itself")
    if size > limit:
        raise FileTooLargeError(
            path,
            f"the file is {size / 2**20:.1f} MiB, more than the {limit / 2**20:.0f} MiB limit for a {kind}",
            hint="check that this is the right file; split very long transcripts into talks",
        )
    try:
        with open(path, "rb") as fh:
            # A buffer of the file's size, not of the limit (read() sets aside all it is asked for);
            # one byte past it shows a file that grew since stat: read on, up to one byte past the limit.
            data = fh.read(size + 1)
            if len(data) > size:
                data += fh.read(limit + 1 - len(data))
    except OSError as exc:
        raise InputError(path, f"cannot read the file ({exc.strerror})") from None
    if len(data) > limit:
        raise FileTooLargeError(path, f"the file is larger than the {limit / 2**20:.0f} MiB limit for a {kind}")
    if not data:
        raise EmptyInputError(path, "the file is empty", hint="choose a transcript with at least one line of text")
    return data


def special_file_kind(path: str | Path) -> str:
    """What ``path`` is when it exists but is not a regular file (``"a named pipe (FIFO)"``...); "" otherwise.

    Only ``stat`` is called: it never blocks on a pipe, where ``open`` would.
    """
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return ""
    return special_file_kind_of_mode(mode)


def _first_bad_line(data: bytes, bad_offset: int) -> int:
    """1-based line of byte ``bad_offset``, counting LF bytes before it."""
    return data.count(b"\n", 0, bad_offset) + 1


_CONTROL_RE = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f]")


def _looks_like_bomless_utf16(data: bytes) -> str | None:
    """``"utf-16-le"`` / ``"utf-16-be"`` when the bytes read as plausible UTF-16 text, else None.

    Both byte orders are decoded strictly and scored: mostly-ASCII text puts
    a NUL in every other byte, Japanese text puts few NULs but decodes to
    kana and kanji in the right order and to unrelated (often unassigned or
    private-use) characters in the wrong one.
    """
    if len(data) < 2 or len(data) % 2 or b"\x00" not in data:
        return None
    sample = data[: 1 << 16]
    best: tuple[float, float, str] | None = None
    for candidate in ("utf-16-le", "utf-16-be"):
        try:
            text = sample.decode(candidate)
        except UnicodeDecodeError:
            continue
        if _CONTROL_RE.search(text):
            continue  # NUL or another control character: binary, or the wrong byte order
        score = _plausibility(text)
        # Ties (ASCII digits read in the wrong order become U+3000 ideographic
        # spaces, which are plausible too) go to the order giving more ASCII.
        ascii_share = 1.0 - _count(_NON_ASCII_RE, text) / max(len(text), 1)
        if score >= 0.95 and (best is None or (score, ascii_share) > best[:2]):
            best = (score, ascii_share, candidate)
    if best is None:
        return None
    try:
        data.decode(best[2])
    except UnicodeDecodeError:
        return None
    return best[2]


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


def _count(pattern: re.Pattern[str], text: str) -> int:
    """How many characters of ``text`` match ``pattern`` (one per match).

    ``len(findall())`` would build a list of one string per match: for 17
    million kanji, gigabytes. ``subn`` builds one shorter string.
    """
    return pattern.subn("", text)[1]


def _plausibility(text: str) -> float:
    """Share of characters that ordinary transcript text is made of (see ``_PLAUSIBLE``)."""
    if not text:
        return 1.0
    return 1.0 - _count(_IMPLAUSIBLE_RE, text) / len(text)


def _japanese_score(text: str) -> float:
    """Share of non-ASCII characters that are kana, common kanji or CJK punctuation."""
    non_ascii = _count(_NON_ASCII_RE, text)
    if not non_ascii:
        return 1.0
    return _count(_JAPANESE_RE, text) / non_ascii


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
                    settings=("encoding",),
                ) from None

    utf16 = _looks_like_bomless_utf16(data)
    if utf16:
        return DecodedText(data.decode(utf16), utf16)
    iso2022 = _iso2022_jp(data)
    if iso2022 is not None:
        return iso2022

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
        if _plausibility(text) >= MIN_PLAUSIBILITY and _has_enough_kana(text) and not _INSIDE_LATIN_WORD.search(text):
            score = _japanese_score(text)
            if score >= 0.6:
                decoded.append((score, name, text))
    if decoded:
        decoded.sort(key=lambda d: d[0], reverse=True)
        if len(decoded) > 1 and decoded[0][0] - decoded[1][0] < 0.05 and decoded[0][2] != decoded[1][2]:
            choice = _charset_normalizer_choice(data, [d[1] for d in decoded])
            for _score, name, text in decoded:
                if name == choice:
                    return DecodedText(text, name)
        return DecodedText(decoded[0][2], decoded[0][1])

    # Then, in order: UTF-8 with stray legacy lines, Western and Central
    # European legacy encodings, and charset-normalizer's best guess.
    for detect in (_mixed_utf8, _western, _central_european, _charset_normalizer_guess):
        found = detect(data)
        if found is not None:
            return found
    raise EncodingError(
        path,
        "cannot tell the text encoding: the bytes are not UTF-8, UTF-16 or any encoding SI Aligner knows "
        f"(first invalid UTF-8 byte 0x{data[utf8_error.start]:02X})",
        line=_first_bad_line(data, utf8_error.start),
        hint=_ENCODING_HINT,
        settings=("encoding",),
    )


_KANA_RE = re.compile("[\u3040-\u30ff]")
_KANJI_RE = re.compile("[\u4e00-\u9fff]")


# One non-ASCII character between two ASCII letters ("Br杯chen"): a Western
# accented letter read as half of a double-byte character.
_INSIDE_LATIN_WORD = re.compile("[A-Za-z][^\x00-\x7f][A-Za-z]")


def _has_enough_kana(text: str) -> bool:
    """Japanese prose is a third or more kana; Korean or Chinese read as Japanese has almost none."""
    kanji = _count(_KANJI_RE, text)
    if kanji < 20:
        return True
    kana = _count(_KANA_RE, text)
    return kana >= 0.1 * (kana + kanji)


# ISO-2022-JP switches to JIS X 0208 / 0212 with these escape sequences.
_ISO2022_JP_ESCAPES = (b"\x1b$B", b"\x1b$@", b"\x1b$(D", b"\x1b(J", b"\x1b(I")


def _iso2022_jp(data: bytes) -> DecodedText | None:
    if b"\x1b" not in data or max(data) > 0x7F or not any(e in data for e in _ISO2022_JP_ESCAPES):
        return None
    for name in ("iso2022_jp", "iso2022_jp_ext", "iso2022_jp_2004"):
        try:
            return DecodedText(data.decode(name), name)
        except UnicodeDecodeError:
            continue
    return None


def _mixed_utf8(data: bytes) -> DecodedText | None:
    """UTF-8 with a few lines in another encoding: each such line read as CP1252.

    Only when the file holds valid multi-byte UTF-8 too (else it is simply in
    a legacy encoding) and at most a fifth of its lines are not UTF-8.
    """
    lines = data.split(b"\n")
    most_bad = max(1, len(lines) // 5)
    bad: list[int] = []
    utf8_non_ascii = False
    out: list[str] = []
    for number, line in enumerate(lines, start=1):
        try:
            text = line.decode("utf-8")
            utf8_non_ascii = utf8_non_ascii or not line.isascii()
        except UnicodeDecodeError:
            bad.append(number)
            if len(bad) > most_bad:
                return None
            try:
                text = line.decode("cp1252")
            except UnicodeDecodeError:
                text = line.decode("latin-1")
        out.append(text)
    if not bad or not utf8_non_ascii or len(bad) > max(1, len(lines) // 5):
        return None
    text = "\n".join(out)
    if _plausibility(text) < MIN_PLAUSIBILITY:
        return None
    where = f"line {bad[0]}" + (f" and {len(bad) - 1} more" if len(bad) > 1 else "")
    return DecodedText(
        text,
        "utf-8",
        doubt=f"mixed encodings: the file is UTF-8 but {where} is not; read as CP1252 (Western European)",
        doubt_line=bad[0],
    )


_WESTERN_LETTERS = re.compile("[A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u00ff\u0152\u0153\u0160\u0161\u017d\u017e\u0178]")
_WESTERN_SYMBOLS = set("\u2018\u2019\u201a\u201c\u201d\u201e\u2013\u2014\u2026\u20ac\u00ab\u00bb\u00b0\u00b7\u00a1\u00bf\u00a7\u00a0\u00a3\u00a9\u00ae\u2022")


_ASCII_LETTERS = re.compile("[A-Za-z]")


def _western(data: bytes) -> DecodedText | None:
    """CP1252 (a superset of the printable Latin-1) when the bytes read as Western European prose.

    Accented letters then sit inside mostly-ASCII words and are a small share
    of all letters; Cyrillic or Greek read as CP1252 is nearly all accented
    letters, Central European text gives symbols (³, ¹, ¿) inside words.
    """
    try:
        text = data.decode("cp1252")
    except UnicodeDecodeError:
        return None
    letters = _count(_ASCII_LETTERS, text)
    if _count(_NON_ASCII_RE, text) > 0.25 * (letters + 1) / 0.75:
        return None  # far more non-ASCII than Western prose has: no need to look closer
    accented = 0
    for m in _NON_ASCII_RE.finditer(text):
        k, ch = m.start(), m.group()
        if ch in "ýþðÝÞÐ":
            # Icelandic letters, but mostly Turkish ı ş ğ read as CP1252:
            # leave the choice to charset-normalizer.
            return None
        if _WESTERN_LETTERS.fullmatch(ch):
            letters += 1
            accented += 1
        elif ch not in _WESTERN_SYMBOLS:
            return None
        elif 0 < k < len(text) - 1 and text[k - 1].isalpha() and text[k + 1].isalpha() and ch not in "\u2019\u00b7":
            return None  # a symbol inside a word: a letter of another encoding
    if not letters or accented > 0.25 * letters:
        return None
    return DecodedText(text, "cp1252")


# Letters of Polish, Czech, Slovak, Hungarian, Slovene, Croatian that no other
# single-byte encoding gives: one of them must appear in a CP1250/ISO-8859-2 reading.
_CENTRAL_MARKERS = set("ąęłśźżćńőűčřěůťľĺŕďňĄĘŁŚŹŻĆŃŐŰČŘĚŮŤĽĹŔĎŇ")
# What Turkish (CP1254) becomes in CP1250: leave it to charset-normalizer.
_CENTRAL_FOREIGN = set("ţđŢĐ")


def _central_european(data: bytes) -> DecodedText | None:
    """CP1250 or ISO-8859-2 when the bytes read as Central European prose.

    As for Western text: accented letters are a minority inside Latin words,
    and no symbol sits inside a word. The two encodings differ in a few
    letters (ą ś ź and their capitals), and the wrong one turns them into
    symbols (± ¶ ¼) or controls, so the first reading that passes is taken.
    """
    for name in ("cp1250", "iso8859_2"):
        try:
            text = data.decode(name)
        except UnicodeDecodeError:
            continue
        letters = _count(_ASCII_LETTERS, text)
        accented = 0
        marked = False
        for m in _NON_ASCII_RE.finditer(text):
            ch, k = m.group(), m.start()
            if "\u00c0" <= ch <= "\u017f" and ch not in "\u00d7\u00f7" and ch not in _CENTRAL_FOREIGN:
                accented += 1
                marked = marked or ch in _CENTRAL_MARKERS
            elif ch not in _WESTERN_SYMBOLS or 0 < k < len(text) - 1 and text[k - 1].isalpha() and text[k + 1].isalpha():
                break  # not a Latin letter, or a symbol inside a word: a letter of the other encoding
            if accented > 0.3 * (letters + accented) and accented > 20:
                break
        else:
            if marked and accented <= 0.3 * (letters + accented):
                return DecodedText(text, name)
    return None


def _charset_normalizer_guess(data: bytes) -> DecodedText | None:
    try:
        from charset_normalizer import from_bytes
    except ImportError:
        return None
    best = from_bytes(data).best()
    if best is None or best.encoding.startswith(("utf_16", "utf_32")):
        return None  # BOM-less UTF-16/32 is decided above, on stricter evidence
    text = str(best)
    if _plausibility(text) < MIN_PLAUSIBILITY:
        return None
    doubt = ""
    if best.chaos > 0.1 or len(data) < 200:
        doubt = f"the encoding was guessed as {best.encoding} with low confidence; check the text or name the encoding"
    first_non_ascii = next((k for k, byte in enumerate(data) if byte > 0x7F), 0)
    line = _first_bad_line(data, first_non_ascii)
    return DecodedText(text, best.encoding, doubt=doubt, doubt_line=line if doubt else None)


def read_text(path: str | Path, *, encoding: str | None = None, limit: int = MAX_TRANSCRIPT_BYTES) -> DecodedText:
    """Read and decode a transcript file (size-checked before reading).

    Raises the errors of :func:`read_limited_bytes` and :func:`decode_bytes`.
    """
    data = read_limited_bytes(path, limit=limit)
    return decode_bytes(data, path, encoding=encoding)


def detect_encoding(path: str | Path) -> str:
    """The encoding name :func:`read_text` would use for ``path``."""
    return read_text(path).encoding
