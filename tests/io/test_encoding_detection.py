"""Encoding detection on the generated 65-sample set and the cases of issue 12."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from sialign.io.encoding import decode_bytes
from sialign.io.readers import read_transcript

sys.path.insert(0, str(Path(__file__).parent))
from encoding_samples import JA, KO, RU, ZH, encoding_samples, score

# Measured on this set (tests/benchmarks/bench_encoding.py): the detector
# before issue 12 was right on 29 of 65; now on 64 (only Polish in
# ISO-8859-2 is read as CP1252). A fall below 64 is a regression.
EXPECTED_RIGHT = 64


def test_encoding_detection_sample_set_has_65_samples() -> None:
    samples = encoding_samples()
    assert len(samples) == 65 and len({name for name, _, _ in samples}) == 65


def test_encoding_detection_count() -> None:
    right, wrong = score(lambda data: decode_bytes(data).text)
    assert right >= EXPECTED_RIGHT, wrong


@pytest.mark.parametrize(
    "data, text, encoding",
    [
        (JA.encode("utf-16-le"), JA, "utf-16-le"),
        (JA.encode("utf-16-be"), JA, "utf-16-be"),
        (JA.encode("iso2022_jp"), JA, "iso2022_jp"),
        (KO.encode("euc_kr"), KO, None),
        (ZH.encode("gb18030"), ZH, "gb18030"),
        (RU.encode("cp1251"), RU, "cp1251"),
        (RU.encode("koi8_r"), RU, "koi8_r"),
        ("Bonjour à tous, ça va très bien.\n".encode("cp1252"), "Bonjour à tous, ça va très bien.\n", "cp1252"),
        ("Grüße aus München.\n".encode("latin-1"), "Grüße aus München.\n", "cp1252"),
    ],
    ids=["utf16le-no-bom", "utf16be-no-bom", "iso2022jp", "euckr", "gb18030", "cp1251", "koi8r", "cp1252", "latin1"],
)
def test_encoding_detection_issue_cases(data: bytes, text: str, encoding: str | None) -> None:
    decoded = decode_bytes(data)
    assert decoded.text == text
    if encoding is not None:
        assert decoded.encoding == encoding


def test_encoding_detection_mixed_file_is_read_and_reported(tmp_path: Path) -> None:
    path = tmp_path / "mixed.txt"
    path.write_bytes("皆さん、おはようございます。\n".encode() + "Café crème.\n".encode("latin-1") + "ありがとう。\n".encode())
    doc = read_transcript(path)
    assert doc.texts() == ["皆さん、おはようございます。", "Café crème.", "ありがとう。"]
    assert doc.encoding == "utf-8"
    assert len(doc.warnings) == 1 and "line 2" in doc.warnings[0] and "mixed encodings" in doc.warnings[0]


def test_encoding_detection_guess_is_reported_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "ru.txt"
    path.write_bytes(("Title\n" + RU).encode("koi8_r"))
    doc = read_transcript(path)
    assert doc.texts()[1] == RU.splitlines()[0]
    assert doc.warnings and "line 2" in doc.warnings[0]


def test_encoding_detection_utf8_stays_certain() -> None:
    decoded = decode_bytes(JA.encode("utf-8"))
    assert decoded.encoding == "utf-8" and decoded.doubt == "" and decoded.doubt_line is None
