"""Subtitles of one side of the alignment: one cue per bead, at the times of its text."""

from __future__ import annotations

from pathlib import Path

import pytest

from sialign.cli.main import main
from sialign.core.errors import ExportError
from sialign.core.model import Alignment, Bead, Document, Project
from sialign.io.project_file import save_project
from sialign.io.readers import read_transcript
from sialign.io.writers import write_alignment


def _project() -> Project:
    src = Document.from_texts(["Hello <there> & you.", "Goodbye."], "en", [(0.0, 1.5), (2.0, 3.0)])
    tgt = Document.from_texts(["えー、", "こんにちは。", "さようなら。"], "ja", [(0.2, 0.5), (0.5, 1.8), (2.2, 3.4)])
    return Project(talk_id="hi", source=src, target=tgt, alignment=Alignment([Bead((0,), (0, 1), trimmed=(0,)), Bead((1,), (2,))]))


def test_side_subtitles_content(tmp_path: Path) -> None:
    project = _project()
    assert write_alignment(project, tmp_path / "s.srt", format="srt-source") == 2
    assert (tmp_path / "s.srt").read_text(encoding="utf-8") == (
        "1\n00:00:00,000 --> 00:00:01,500\nHello <there> & you.\n\n2\n00:00:02,000 --> 00:00:03,000\nGoodbye.\n\n"
    )
    write_alignment(project, tmp_path / "t.srt", format="srt-target")
    # The trimmed filler is left out, with its time.
    assert (tmp_path / "t.srt").read_text(encoding="utf-8") == (
        "1\n00:00:00,500 --> 00:00:01,800\nこんにちは。\n\n2\n00:00:02,200 --> 00:00:03,400\nさようなら。\n\n"
    )
    write_alignment(project, tmp_path / "s.vtt", format="vtt-source")
    text = (tmp_path / "s.vtt").read_text(encoding="utf-8")
    assert text.startswith("WEBVTT\n\n00:00:00.000 --> 00:00:01.500\nHello &lt;there&gt; &amp; you.\n")
    write_alignment(project, tmp_path / "t.vtt", format="vtt-target")
    back = read_transcript(tmp_path / "t.vtt", language="ja")
    assert [(s.text, s.start, s.end) for s in back.segments] == [("こんにちは。", 0.5, 1.8), ("さようなら。", 2.2, 3.4)]


def test_side_subtitles_need_a_side_and_times(tmp_path: Path) -> None:
    with pytest.raises(ExportError, match="srt-source or srt-target"):
        write_alignment(_project(), tmp_path / "x.srt")
    untimed = _project()
    for seg in untimed.target.segments:
        seg.start = seg.end = None
    with pytest.raises(ExportError, match="no target times"):
        write_alignment(untimed, tmp_path / "x.srt", format="srt-target")


def test_side_subtitles_from_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "hi.sialign"
    save_project(_project(), path)
    assert main(["export", str(path), "-f", "vtt-target"]) == 0
    assert (tmp_path / "hi.target.vtt").read_text(encoding="utf-8").startswith("WEBVTT\n\n00:00:00.500 --> 00:00:01.800\nこんにちは。")
    assert main(["export", str(path), "-f", "srt-source", "-o", str(tmp_path / "en.srt")]) == 0
    assert (tmp_path / "en.srt").read_text(encoding="utf-8").startswith("1\n00:00:00,000 --> 00:00:01,500\nHello")
    assert main(["export", str(path), "-o", str(tmp_path / "which.srt")]) != 0
    assert "srt-source or srt-target" in capsys.readouterr().err
    assert not (tmp_path / "which.srt").exists()
