from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sialign.cli.main import main
from sialign.core.model import Alignment, Bead, BeadStatus, Document, Project
from sialign.io.project_file import load_project, save_project


def _save(tmp_path: Path) -> Path:
    src = Document.from_texts(["They haven't given up on government.", "In 1950 there were 3 million people.", "(Laughter)"], "en")
    tgt = Document.from_texts(["じゃあ、", "政府は、", "諦めていないのです。", "三百万人。"], "ja")
    ref = Document.from_texts(["彼らは政府を諦めていないのです。", "1950年には300万人がいました。", "（笑）"], "ja")
    project = Project(
        talk_id="t1", source=src, target=tgt, reference=ref,
        alignment=Alignment([Bead((0,), (0, 1, 2)), Bead((1,), (3,)), Bead((2,), ())]),
    )
    path = tmp_path / "talk.sialign"
    save_project(project, path)
    return path


@pytest.mark.slow
def test_cmd_filter_trims_drops_reports_and_saves(tmp_path: Path, ginza: Any, capsys: pytest.CaptureFixture[str]) -> None:
    path = _save(tmp_path)
    out = tmp_path / "out.sialign"
    assert main(["filter", str(path), "--gamma-min", "0.5", "--report", "-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert "3 beads: 1 trimmed, 1 newly dropped" in text
    assert "omission" in text and "Source not interpreted" in text
    assert "as long as the reference translation" in text
    project = load_project(out)
    beads = project.alignment.beads
    assert beads[0].trimmed == (0,) and beads[0].status == BeadStatus.AUTO
    assert beads[1].status == BeadStatus.DROPPED and beads[1].reason.startswith("filter: ")
    assert project.filter_params.gamma_min == 0.5
    # Applied as one undoable edit with the thresholds it used, recorded in the project's history.
    step = project.history[-1]
    assert step["label"] == "Apply filters"
    assert [e["type"] for e in step["edits"]] == ["ReplaceBeads", "SetFilterParams"]
    # The original file is untouched when -o is given.
    assert load_project(path).alignment.beads[1].status == BeadStatus.AUTO


@pytest.mark.slow
def test_cmd_filter_flag_only_and_no_intra(tmp_path: Path, ginza: Any) -> None:
    path = _save(tmp_path)
    assert main(["filter", str(path), "--gamma-min", "0.5", "--flag-only", "--no-intra"]) == 0
    beads = load_project(path).alignment.beads
    assert beads[0].trimmed == ()
    assert beads[1].status == BeadStatus.AUTO and any(f.failed and f.name == "gamma" for f in beads[1].flags)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--alpha-min", "1.5"], "between 0 and 1"),
        (["--gamma-min", "3", "--gamma-max", "2"], "above --gamma-max"),
    ],
)
def test_cmd_filter_rejects_bad_thresholds(tmp_path: Path, args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = _save(tmp_path)
    assert main(["filter", str(path), *args]) == 64  # wrong command-line arguments
    assert message in capsys.readouterr().err


def test_cmd_filter_needs_an_alignment(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "empty.sialign"
    save_project(Project(source=Document.from_texts(["a"], "en"), target=Document.from_texts(["b"], "ja")), path)
    assert main(["filter", str(path)]) == 2
    assert "no alignment" in capsys.readouterr().err
