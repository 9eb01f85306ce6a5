"""The main window's edit journal: written as edits are applied, started over at each autosave, gone on save.

The crash itself (a real app process killed with SIGKILL) is tested in
test_edit_journal_crash.py; these check the controller's bookkeeping.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from sialign.core.edits import SetLabels, SetStatus
from sialign.core.model import BeadStatus


def _journal_lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_journal_follows_each_edit_and_goes_with_the_save(qtbot, window, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("SIALIGN_AUTOSAVE_DIR", str(tmp_path / "autosave"))
    target = tmp_path / "talk.sialign"
    assert window.files.save_to(str(target))
    journal = tmp_path / "talk.sialign.journal"
    assert not journal.exists()  # nothing to journal yet
    window.session.apply(SetStatus((0,), BeadStatus.CONFIRMED))
    window.session.apply(SetLabels(1, True, None, "a note"))
    window.session.undo_stack.undo()
    lines = _journal_lines(journal)
    assert lines[0]["base"].keys() == {"file_sha256"}
    assert [(line["op"], line["label"]) for line in lines[1:]] == [
        ("do", "Confirm bead 1"), ("do", lines[2]["label"]), ("undo", lines[2]["label"]),
    ]
    # An autosave: the journal starts over from it.
    window.files.autosave()
    window.files.wait_for_autosave()
    qtbot.waitUntil(lambda: _journal_lines(journal)[0]["base"].keys() == {"autosave"}, timeout=3000)
    assert len(_journal_lines(journal)) == 1
    window.session.apply(SetStatus((2,), BeadStatus.DROPPED, "noise"))
    assert [line.get("op") for line in _journal_lines(journal)] == [None, "do"]
    assert window.files.save_to(str(target))
    assert not journal.exists() and not Path(str(target) + ".autosave").exists()


def test_journal_waits_for_the_first_autosave_of_a_talk_never_saved(qtbot, window, tmp_path, monkeypatch) -> None:
    autosaves = tmp_path / "autosave"
    monkeypatch.setenv("SIALIGN_AUTOSAVE_DIR", str(autosaves))
    window.session.set_project(window.session.project, modified=True)
    window.session.apply(SetStatus((0,), BeadStatus.CONFIRMED))
    assert not autosaves.exists() or not list(autosaves.iterdir())
    window.files.autosave()
    window.files.wait_for_autosave()
    window.session.apply(SetStatus((1,), BeadStatus.CONFIRMED))
    journal = autosaves / "water.sialign.journal"
    qtbot.waitUntil(lambda: len(_journal_lines(journal)) == 2, timeout=3000)
    assert [line.get("op") for line in _journal_lines(journal)] == [None, "do"]


def test_project_properties_change_is_journalled(qtbot, window, tmp_path, monkeypatch) -> None:
    """Project properties… is a core edit (SetTalkInfo): the journal records it like any other edit."""
    from sialign.gui.dialogs.project_properties import current_properties

    monkeypatch.setenv("SIALIGN_AUTOSAVE_DIR", str(tmp_path / "autosave"))
    target = tmp_path / "talk.sialign"
    assert window.files.save_to(str(target))
    properties = dataclasses.replace(current_properties(window.session.project), interpreter="Someone else")
    window.files._apply_properties(properties, "Change project properties")
    journal = tmp_path / "talk.sialign.journal"
    qtbot.waitUntil(lambda: journal.exists() and len(_journal_lines(journal)) == 2, timeout=3000)
    step = _journal_lines(journal)[1]
    assert step["op"] == "do" and step["forward"]["type"] == "SetTalkInfo" and step["forward"]["interpreter"] == "Someone else"


def test_no_journal_when_autosave_is_off(qtbot, window, tmp_path) -> None:
    window.prefs.autosave_minutes = 0
    window._apply_prefs()
    target = tmp_path / "talk.sialign"
    assert window.files.save_to(str(target))
    window.session.apply(SetStatus((0,), BeadStatus.CONFIRMED))
    assert not (tmp_path / "talk.sialign.journal").exists()
