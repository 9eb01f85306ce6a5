"""Encoding detection: BOMs, BOM-less UTF-16, CP932, EUC-JP, and refusals."""

from __future__ import annotations

import codecs
import os
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from sialign.core.errors import BinaryFileError, EmptyInputError, EncodingError, FileTooLargeError, InputError
from sialign.io.encoding import MAX_TRANSCRIPT_BYTES, decode_bytes, detect_encoding, read_limited_bytes, read_text

JA_TEXT = "えー、今日はですね、パンの話をします。\n漢字とカタカナ、それから「かぎかっこ」。\nABC 123\n"
EN_TEXT = "Good morning.\nToday I want to talk about bread.\n"

ENCODING_CASES = [
    # (how the bytes are made, expected detected name)
    ("utf-8", "utf-8"),
    ("utf-8-sig", "utf-8-sig"),
    ("utf-16", "utf-16"),  # Python writes a BOM
    ("utf-16-le", "utf-16-le"),  # BOM-less
    ("utf-16-be", "utf-16-be"),  # BOM-less
    ("cp932", "cp932"),
    ("shift_jis", "cp932"),  # CP932 is the superset Windows writes
    ("euc_jp", "euc_jp"),
]


@pytest.mark.parametrize(("codec", "expected"), ENCODING_CASES)
@pytest.mark.parametrize("text", [JA_TEXT, EN_TEXT + JA_TEXT], ids=["ja", "mixed"])
def test_encoding_detects_each_encoding(tmp_path: Path, codec: str, expected: str, text: str) -> None:
    path = tmp_path / "t.txt"
    path.write_bytes(text.encode(codec))
    decoded = read_text(path)
    assert decoded.text == text
    assert decoded.encoding == expected
    assert detect_encoding(path) == expected


@pytest.mark.parametrize("codec", ["utf-8", "utf-16-le", "utf-16-be"])
def test_encoding_ascii_only_text(codec: str) -> None:
    decoded = decode_bytes(EN_TEXT.encode(codec))
    assert decoded.text == EN_TEXT
    assert decoded.encoding == codec


@pytest.mark.parametrize(
    ("bom", "codec", "name"),
    [
        (codecs.BOM_UTF16_LE, "utf-16-le", "utf-16"),
        (codecs.BOM_UTF16_BE, "utf-16-be", "utf-16"),
        (codecs.BOM_UTF32_LE, "utf-32-le", "utf-32"),
        (codecs.BOM_UTF8, "utf-8", "utf-8-sig"),
    ],
)
def test_encoding_bom_removed_from_text(bom: bytes, codec: str, name: str) -> None:
    decoded = decode_bytes(bom + JA_TEXT.encode(codec))
    assert decoded.text == JA_TEXT
    assert decoded.encoding == name


def test_encoding_explicit_encoding_is_used(tmp_path: Path) -> None:
    path = tmp_path / "latin.txt"
    path.write_bytes("Café crème\n".encode("cp1252"))
    assert read_text(path, encoding="cp1252").text == "Café crème\n"


def test_encoding_explicit_wrong_encoding_names_line(tmp_path: Path) -> None:
    path = tmp_path / "ja.txt"
    path.write_bytes(("line one\n" + JA_TEXT).encode("cp932"))
    with pytest.raises(EncodingError) as info:
        read_text(path, encoding="utf-8")
    assert info.value.line == 2
    assert str(path) in str(info.value)


def test_encoding_unknown_encoding_name() -> None:
    with pytest.raises(EncodingError, match="unknown encoding"):
        decode_bytes(b"abc", "x.txt", encoding="no-such-codec")


@pytest.mark.parametrize(
    "data",
    [
        b"ok line\n\xff\xfe\xfd\xfc\xfb\n",  # garbage bytes
        b"ok line\n\xfa\xfb\xfc\xfd\xfe\xff\n",
    ],
)
def test_encoding_undecodable_bytes_raise_naming_file_and_line(data: bytes, tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_bytes(data)
    with pytest.raises(EncodingError) as info:
        read_text(path)
    message = str(info.value)
    assert str(path) in message
    assert "line" in message
    assert "name its encoding" in message and info.value.settings == ("encoding",)  # the CLI adds --encoding, the app its box


def test_encoding_broken_utf8_after_bom_is_error() -> None:
    with pytest.raises(EncodingError, match="byte-order mark"):
        decode_bytes(codecs.BOM_UTF8 + b"ok\n\xff\xfe bad\n", "x.txt")


def test_encoding_latin1_and_guesses_are_read_not_refused(tmp_path: Path) -> None:
    # Issue 12: Latin-1/CP1252 files were refused; they are read now, and a
    # guess charset-normalizer is unsure of is reported with its line.
    path = tmp_path / "fr.txt"
    path.write_bytes(b"Caf\xe9 cr\xe8me\nna\xefve\n")
    decoded = read_text(path)
    assert (decoded.text, decoded.encoding, decoded.doubt) == ("Café crème\nnaïve\n", "cp1252", "")
    guessed = decode_bytes(b"Good\n" + b"\x80\x80\x80 \x81\n", "x.txt")
    assert guessed.doubt and guessed.doubt_line == 2


@pytest.mark.parametrize(
    ("data", "what"),
    [
        (b"%PDF-1.7\n...", "PDF"),
        (b"PK\x03\x04\x14\x00\x06\x00", "ZIP"),
        (b"RIFF\x24\x08\x00\x00WAVEfmt ", "WAV"),
        (b"fLaC\x00\x00\x00\x22", "FLAC"),
        (b"hello\x00\x01\x02\x03\xff\x00\x00\x07world", "NUL"),
    ],
)
def test_encoding_binary_file_is_refused(data: bytes, what: str) -> None:
    with pytest.raises(BinaryFileError) as info:
        decode_bytes(data, "x.srt")
    assert "x.srt" in str(info.value)
    if what != "NUL":
        assert what in str(info.value)


def test_encoding_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.txt"
    path.write_bytes(b"")
    with pytest.raises(EmptyInputError, match="empty"):
        read_limited_bytes(path)


def test_encoding_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not found"):
        read_limited_bytes(tmp_path / "nope.txt")


def test_encoding_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="folder"):
        read_limited_bytes(tmp_path)


def test_encoding_large_file_fails_fast_without_reading(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "huge.txt"
    # A sparse 100 MB file: no disk used, and the refusal must come from its size.
    with open(path, "wb") as fh:
        fh.truncate(100 * 1024 * 1024)
    opened: list[str] = []
    real_open = open

    def spy_open(file, *args, **kwargs):  # type: ignore[no-untyped-def]
        opened.append(str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr("builtins.open", spy_open)
    with pytest.raises(FileTooLargeError) as info:
        read_limited_bytes(path)
    assert str(path) not in opened
    # The limit is 50 MiB (52,428,800 bytes), and the message says so in those units.
    assert "100.0 MiB" in str(info.value)
    assert "50 MiB" in str(info.value)
    assert os.path.getsize(path) > MAX_TRANSCRIPT_BYTES


def test_encoding_limit_is_50_mib_and_says_so(tmp_path: Path) -> None:
    """50 MiB is 52,428,800 bytes: a 50,000,002-byte file is within it, one byte over it is refused in MiB."""
    within, over = tmp_path / "within.txt", tmp_path / "over.txt"
    with open(within, "wb") as fh:
        fh.truncate(50_000_002)
    with open(over, "wb") as fh:
        fh.truncate(MAX_TRANSCRIPT_BYTES + 1)
    assert MAX_TRANSCRIPT_BYTES == 50 * 2**20
    with pytest.raises(FileTooLargeError, match=r"the file is 50\.0 MiB, more than the 50 MiB limit"):
        read_limited_bytes(over)
    assert len(read_limited_bytes(within)) == 50_000_002


def test_encoding_limit_is_configurable(tmp_path: Path) -> None:
    path = tmp_path / "t.txt"
    path.write_text("x" * 2000)
    with pytest.raises(FileTooLargeError):
        read_limited_bytes(path, limit=1000)
    assert len(read_limited_bytes(path, limit=2000)) == 2000


# Realistic Japanese: kana, common kanji, Japanese punctuation and some ASCII.
JAPANESE_ALPHABET = (
    [chr(c) for c in range(0x3041, 0x3094)]
    + [chr(c) for c in range(0x30A1, 0x30F7)]
    + list("日本語話今年私達会議大学生時間問題政府経済社会")
    + list("、。「」！？ー")
    + list("abcXYZ 0123")
)


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.text(st.sampled_from(JAPANESE_ALPHABET), min_size=4, max_size=30), min_size=1, max_size=8),
    st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "cp932", "euc_jp"]),
)
def test_encoding_detects_random_japanese_text(lines: list[str], codec: str) -> None:
    text = "\n".join(lines) + "\n"
    # A transcript's worth of text, not a handful of characters: below about 30
    # Japanese characters ("、」XあX / 。「ぁぃい") CP932, EUC-JP, Big5 and CP949
    # cannot always be told apart — such a file is read with a doubt or refused,
    # asking for --encoding (tested elsewhere). 20,000 examples pass above it.
    assume(sum(not ch.isascii() for ch in text) >= 30 and len({ch for ch in text if not ch.isascii()}) >= 8)
    assert decode_bytes(text.encode(codec)).text == text


@pytest.mark.parametrize("codec", ["cp932", "euc_jp"])
def test_encoding_charset_normalizer_tiebreak_names_the_right_codec(codec: str) -> None:
    from sialign.io.encoding import _charset_normalizer_choice

    data = (JA_TEXT * 3).encode(codec)
    assert _charset_normalizer_choice(data, ["cp932", "euc_jp"]) == codec


@pytest.mark.parametrize(
    ("text", "plausible"),
    [
        ("今日はパンの話です。", True),
        ("Café, naïve — “quoted”", True),
        ("\x01\x02\x03 control", False),
        ("ｱｲｳｴｵｶｷｸｹｺｻｼｽｾｿ", False),  # half-width katakana: EUC-JP read as CP932
        ("\ue000\ue001\ue002\ue003", False),  # private use
    ],
)
def test_encoding_plausibility(text: str, plausible: bool) -> None:
    from sialign.io.encoding import MIN_PLAUSIBILITY, _plausibility

    assert (_plausibility(text) >= MIN_PLAUSIBILITY) is plausible


def test_encoding_euc_jp_read_as_cp932_is_rejected() -> None:
    """EUC-JP bytes often decode as CP932 too; the detector must still say EUC-JP."""
    text = "政府の会議、時間は大学生と先生。\n新しい野菜、ひらがなとカタカナ。\n"
    data = text.encode("euc_jp")
    assert data.decode("cp932") != text  # the trap: valid CP932, but mojibake
    decoded = decode_bytes(data)
    assert (decoded.encoding, decoded.text) == ("euc_jp", text)


@pytest.mark.parametrize("codec", ["utf-16-be", "utf-16-le"])
def test_encoding_bomless_utf16_ascii_digits_keep_their_byte_order(tmp_path, codec: str) -> None:
    # Read in the wrong order, ASCII digits become U+3000 ideographic spaces,
    # which look like text too: the order giving ASCII must win the tie.
    path = tmp_path / "digits.txt"
    path.write_bytes("0000\n1234\n".encode(codec))
    assert read_text(path).text == "0000\n1234\n"
