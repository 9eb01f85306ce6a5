"""``sialign explain``: the learned bead score's features of a bead, as text and as JSON."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pytest

from sialign.cli.main import main

sys.path.insert(0, str(Path(__file__).parent))
from test_cli_align import align_args, talk  # noqa: F401  (fixture)


@pytest.fixture
def project(talk: Path, capsys: pytest.CaptureFixture[str]) -> Path:  # noqa: F811
    path = talk / "talk.sialign"
    assert main(align_args(talk, path)) == 0
    capsys.readouterr()
    return path


def test_cli_explain_prints_the_shares(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", str(project), "1", "2-3"]) == 0
    out = capsys.readouterr().out
    assert out.count("P(right) = ") == 3
    assert "similarity of the two sides" in out and "baseline" in out


def test_cli_explain_json_shares_add_up(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", str(project), "1-3", "--json"]) == 0
    beads = json.loads(capsys.readouterr().out)
    assert [b["bead"] for b in beads] == [1, 2, 3]
    for bead in beads:
        assert bead["model"] == "bead"
        total = sum(f["share"] for f in bead["features"])
        assert math.isclose(total, bead["log_odds"], abs_tol=1e-3)
        # The probability shown is the log-odds calibrated on the aligned training talks.
        from sialign.align.learned_pass import shipped_weights
        from sialign.io.project_file import load_project

        info = load_project(project).alignment.info
        weights = shipped_weights(info["bead_score"])
        assert math.isclose(bead["probability"], weights.calibrated(bead["log_odds"], False), abs_tol=1e-3)
        # The aligner kept these beads: the learned score finds them more likely right than not.
        assert bead["probability"] > 0.3


def test_cli_explain_refuses_what_it_cannot_explain(project: Path, talk: Path, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: F811
    assert main(["explain", str(project), "99"]) == 64
    assert "there is no bead 99" in capsys.readouterr().err
    assert main(["explain", str(project), "0"]) == 64
    capsys.readouterr()
    lexical = talk / "lexical.sialign"
    assert main(align_args(talk, lexical, "--model", "lexical")) == 0
    capsys.readouterr()
    assert main(["explain", str(lexical), "1"]) == 2
    assert "without the learned bead score" in capsys.readouterr().err
