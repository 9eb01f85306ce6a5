"""Undo goes on after a project is saved and opened again (and never applies to a project changed elsewhere)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("pytestqt")

from sialign.core.model import BeadStatus

pytestmark = [pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints")]


def _save_and_reopen(window, path, monkeypatch):
    from sialign.io.project_file import load_project

    monkeypatch.setattr("sialign.gui.main.project_files.save_file_name", lambda *a, **k: str(path))
    assert window.files.save_as()
    reopened = load_project(path)
    window.session.set_project(reopened)
    return reopened


def test_undo_after_reopening_takes_back_the_last_steps(qtbot, window, tmp_path, monkeypatch) -> None:
    from sialign.core.edits import MergeBeads, SetStatus

    session = window.session
    before = [b.status for b in session.project.alignment.beads]
    n = len(session.project.alignment.beads)
    assert session.apply(SetStatus((1,), BeadStatus.CONFIRMED))
    assert session.apply(MergeBeads(3))
    path = tmp_path / "talk.sialign"
    project = _save_and_reopen(window, path, monkeypatch)
    assert len(project.undo) == 2 and not session.is_modified
    assert session.undo_stack.count() == 2 and session.undo_stack.canUndo()
    assert "Merge" in session.undo_stack.undoText()
    session.undo_stack.undo()
    assert len(session.project.alignment.beads) == n
    session.undo_stack.undo()
    assert [b.status for b in session.project.alignment.beads] == before
    assert session.is_modified
    session.undo_stack.redo()
    assert session.project.alignment.beads[1].status is BeadStatus.CONFIRMED


def test_undo_steps_of_a_project_changed_elsewhere_are_left_out(qtbot, window, tmp_path, monkeypatch) -> None:
    from sialign.core.edits import SetStatus
    from sialign.io.project_file import load_project, project_checksum

    assert window.session.apply(SetStatus((2,), BeadStatus.DROPPED, "off topic"))
    path = tmp_path / "talk.sialign"
    _save_and_reopen(window, path, monkeypatch)
    # Another program changes the talk id (and fixes the checksum, as a tool would).
    data = json.loads(path.read_text(encoding="utf-8"))
    data["project"]["talk_id"] = "renamed"
    data["checksum"] = project_checksum(data["project"])
    path.write_text(json.dumps(data), encoding="utf-8")
    project = load_project(path)
    assert project.talk_id == "renamed" and project.undo == []
    window.session.set_project(project)
    assert not window.session.undo_stack.canUndo()


def test_a_project_saved_without_undo_steps_has_no_undo_key(tmp_path, project) -> None:
    from sialign.io.project_file import save_project

    save_project(project, tmp_path / "plain.sialign")
    assert "undo" not in json.loads((tmp_path / "plain.sialign").read_text(encoding="utf-8"))["project"]
