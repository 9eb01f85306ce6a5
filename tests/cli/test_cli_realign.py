"""``sialign realign``: re-align a reviewed project without losing review data."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from sialign.cli.main import main
from sialign.core.model import BeadStatus
from sialign.io.project_file import load_project, save_project

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


@pytest.fixture
def reviewed(tmp_path: Path) -> Path:
    out = tmp_path / "talk.sialign"
    args = ["align", str(EXAMPLES / "talk.en.srt"), str(EXAMPLES / "talk.ja.srt"), "-o", str(out), "-q", "--model", "lexical"]
    assert main(args) == 0
    project = load_project(out)
    assert project.alignment is not None
    beads = project.alignment.beads
    beads[3] = dataclasses.replace(beads[3], note="lovely rendering", good_mt=True)
    beads[4] = dataclasses.replace(beads[4], status=BeadStatus.CONFIRMED)
    save_project(project, out)
    return out


def test_cli_realign_keeps_review_data(reviewed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = reviewed.with_name("again.sialign")
    assert main(["realign", str(reviewed), "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "review data carried over for 2" in printed
    project = load_project(out)
    assert project.alignment is not None
    notes = [b for b in project.alignment.beads if b.note == "lovely rendering"]
    assert len(notes) == 1 and notes[0].good_mt is True
    assert sum(b.status is BeadStatus.CONFIRMED for b in project.alignment.beads) == 1


def test_cli_realign_refuses_to_leave_review_data_behind(reviewed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = load_project(reviewed)
    assert project.alignment is not None
    beads = project.alignment.beads
    merged = dataclasses.replace(beads[5], src=beads[5].src + beads[6].src, tgt=beads[5].tgt + beads[6].tgt,
                                 note="odd grouping")
    beads[5:7] = [merged]
    save_project(project, reviewed)
    before = reviewed.read_bytes()
    assert main(["realign", str(reviewed)]) == 2
    captured = capsys.readouterr()
    assert "left behind: bead 6 (2-" in captured.out and "note" in captured.out
    assert "--force" in captured.err
    assert reviewed.read_bytes() == before
    assert main(["realign", str(reviewed), "--dry-run"]) == 0
    assert reviewed.read_bytes() == before
    assert main(["realign", str(reviewed), "--force"]) == 0
    assert reviewed.read_bytes() != before


def test_cli_realign_needs_an_aligned_project(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from sialign.core.model import Document, Project

    path = tmp_path / "bare.sialign"
    save_project(Project(source=Document.from_texts(["a"], "en"), target=Document.from_texts(["b"], "ja")), path)
    assert main(["realign", str(path)]) == 2
    assert "not aligned yet" in capsys.readouterr().err
