"""The ``sialign evs`` command on saved projects."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from evs_data import interpreter_projects
from evs_data import timed_project as _project

from sialign.core.model import Bead


def test_cmd_evs_prints_talks_and_interpreters(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from sialign.cli.main import main
    from sialign.io.project_file import save_project

    paths = []
    for project in interpreter_projects():
        path = tmp_path / f"{project.talk_id}.sialign"
        save_project(project, path)
        paths.append(str(path))
    report = tmp_path / "evs.json"
    assert main(["evs", *paths, "--json", str(report)]) == 0
    out = capsys.readouterr().out
    assert "t1" in out and "t3" in out and "Per interpreter" in out
    interpreter_lines = [line.split() for line in out.splitlines()[out.splitlines().index("Per interpreter (all their beads pooled)") + 2 :]]
    assert [row[0] for row in interpreter_lines] == ["A", "B", "unknown"]
    assert interpreter_lines[1][1:4] == ["2", "6", "+3.00"]
    data = json.loads(report.read_text())
    assert data["talks"][0]["start"]["median"] == pytest.approx(2.0)
    assert [i["interpreter"] for i in data["interpreters"]] == ["A", "B", "unknown (t4.sialign)"]


def test_cmd_evs_without_times_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from sialign.cli.main import main
    from sialign.io.project_file import save_project

    project = _project([(0.0, 1.0)], [(None, None)], [Bead((0,), (0,))])
    save_project(project, tmp_path / "p.sialign")
    assert main(["evs", str(tmp_path / "p.sialign")]) == 2
    assert "timestamps" in capsys.readouterr().err
