from __future__ import annotations

from pathlib import Path

import pytest

from sialign.cli.main import main


def test_cmd_segment_english_to_stdout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "talk.txt"
    path.write_text("Mr. Smith came at 3 p.m. Then he left. It cost $1,000.\nSecond line!\n", encoding="utf-8")
    assert main(["segment", str(path), "--lang", "en"]) == 0
    assert capsys.readouterr().out.splitlines() == ["Mr. Smith came at 3 p.m.", "Then he left.", "It cost $1,000.", "Second line!"]


def test_cmd_segment_japanese_chunks_to_file(tmp_path: Path) -> None:
    path = tmp_path / "si.txt"
    path.write_text("じゃあ、今日はですね、政府の話をします。えー、それで\n", encoding="utf-8")
    out = tmp_path / "chunks.txt"
    assert main(["segment", str(path), "--lang", "ja", "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8").splitlines() == ["じゃあ、", "今日はですね、", "政府の話をします。", "えー、", "それで"]


def test_cmd_segment_captions_keep_times_as_tsv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "talk.srt"
    path.write_text(
        "1\n00:00:00,000 --> 00:00:02,000\nI'd like to invite you\n\n"
        "2\n00:00:02,000 --> 00:00:04,000\nto close your eyes.\n\n"
        "3\n00:00:04,000 --> 00:00:06,000\nImagine yourself\n",
        encoding="utf-8",
    )
    assert main(["segment", str(path), "--lang", "en", "--captions"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "0.000\t4.000\tI'd like to invite you to close your eyes.",
        "4.000\t6.000\tImagine yourself",
    ]


def test_cmd_segment_rejects_pivot_without_captions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "a.txt"
    path.write_text("a\n", encoding="utf-8")
    assert main(["segment", str(path), "--lang", "en", "--pivot", str(path)]) == 64  # a combination of options that does not go together
    assert "--captions" in capsys.readouterr().err
