"""The edit journal: lines written as edits are applied, replayed on recovery on top of the file or the autosave."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.io.test_project_file import make_project

from sialign.core.edits import SetLabels, SetStatus, apply_edit
from sialign.core.model import BeadStatus, Project
from sialign.io import edit_journal
from sialign.io.edit_journal import EditJournal, autosave_base, edits_after, file_base, read_journal, replay_journal
from sialign.io.project_file import (
    autosave_path,
    discard_autosave,
    find_unsaved_work,
    journal_path,
    load_project,
    load_unsaved_work,
    save_autosave,
    save_project,
)


class Live:
    """A project edited as the app does, each step written to a journal (the app's undo stack, without Qt)."""

    def __init__(self, project: Project, journal: EditJournal) -> None:
        self.project = project
        self.journal = journal
        self.steps: list[dict[str, Any]] = []  # label, forward, inverse
        self.index = 0

    def do(self, edit: Any) -> None:
        inverse = apply_edit(self.project, edit)
        step = {"label": edit.describe(), "forward": edit.to_dict(), "inverse": inverse.to_dict()}
        del self.steps[self.index:]
        self.steps.append(step)
        self.index += 1
        self.journal.record("do", step["label"], step["forward"], step["inverse"])

    def undo(self) -> None:
        from sialign.core.edits import edit_from_dict

        step = self.steps[self.index - 1]
        forward = apply_edit(self.project, edit_from_dict(step["inverse"]))
        step["forward"] = forward.to_dict()
        self.index -= 1
        self.journal.record("undo", step["label"], step["forward"], step["inverse"])

    def redo(self) -> None:
        from sialign.core.edits import edit_from_dict

        step = self.steps[self.index]
        inverse = apply_edit(self.project, edit_from_dict(step["forward"]))
        step["inverse"] = inverse.to_dict()
        self.index += 1
        self.journal.record("redo", step["label"], step["forward"], step["inverse"])


def _saved(tmp_path: Path) -> Path:
    path = tmp_path / "rivers.sialign"
    save_project(make_project(), path)
    return path


def test_edit_journal_replays_edits_and_undo_steps_on_the_saved_file(tmp_path: Path) -> None:
    path = _saved(tmp_path)
    live = Live(load_project(path), EditJournal(journal_path(path, "rivers"), file_base(path), "rivers"))
    live.do(SetStatus((0,), BeadStatus.CONFIRMED))
    live.do(SetLabels(1, False, True, "a note"))
    live.undo()
    live.redo()
    live.undo()
    live.do(SetStatus((2,), BeadStatus.AUTO))
    live.journal.close()

    work = find_unsaved_work(path, "rivers")
    assert work is not None and work.autosave is None and work.edits == 6
    recovered = load_unsaved_work(work, path)
    assert recovered.problem == ""
    assert recovered.project.to_dict() == live.project.to_dict()
    assert [s["label"] for s in recovered.project.undo] == [s["label"] for s in live.steps[: live.index]]


def test_edit_journal_starts_over_at_each_autosave(tmp_path: Path) -> None:
    path = _saved(tmp_path)
    live = Live(load_project(path), EditJournal(journal_path(path, "rivers"), file_base(path), "rivers"))
    live.do(SetStatus((0,), BeadStatus.CONFIRMED))
    mark = edit_journal.new_mark()
    live.journal.checkpoint(mark)
    snapshot = Project.from_dict(live.project.to_dict())
    snapshot.path = str(path)
    live.do(SetLabels(1, True, None, "after the snapshot"))
    save_autosave(snapshot, journal_mark=mark)
    # Written but the journal not yet rewritten (a crash at this moment): the lines after the checkpoint apply.
    work = find_unsaved_work(path, "rivers")
    assert work is not None and work.autosave is not None and work.edits == 1
    assert load_unsaved_work(work, path).project.to_dict() == live.project.to_dict()
    # Rewritten: the journal holds only what came after the autosave.
    assert live.journal.rebase(mark)
    journal = read_journal(live.journal.path)
    assert journal is not None and journal.base == autosave_base(mark) and [line["op"] for line in journal.lines] == ["do"]
    live.do(SetStatus((1,), BeadStatus.DROPPED, "noise"))
    live.journal.close()
    work = find_unsaved_work(path, "rivers")
    assert work is not None and work.edits == 2
    assert load_unsaved_work(work, path).project.to_dict() == live.project.to_dict()
    # A save leaves nothing to recover; the app then removes both (they are its files, never a save's).
    save_project(live.project, path)
    assert live.journal.path.exists() and find_unsaved_work(path, "rivers") is None
    discard_autosave(path, "rivers")
    assert not live.journal.path.exists() and not autosave_path(path, "rivers").exists()


def test_edit_journal_torn_last_line_is_left_out(tmp_path: Path) -> None:
    path = _saved(tmp_path)
    live = Live(load_project(path), EditJournal(journal_path(path, "rivers"), file_base(path), "rivers"))
    live.do(SetStatus((0,), BeadStatus.CONFIRMED))
    expected = live.project.to_dict()
    live.do(SetLabels(1, True, None, "cut short"))
    live.journal.close()
    text = live.journal.path.read_text(encoding="utf-8")
    live.journal.path.write_text(text[: len(text) - 20], encoding="utf-8")
    work = find_unsaved_work(path, "rivers")
    assert work is not None and work.edits == 1
    assert load_unsaved_work(work, path).project.to_dict() == expected


def test_edit_journal_of_another_file_state_is_not_replayed(tmp_path: Path) -> None:
    path = _saved(tmp_path)
    live = Live(load_project(path), EditJournal(journal_path(path, "rivers"), file_base(path), "rivers"))
    live.do(SetStatus((0,), BeadStatus.CONFIRMED))
    live.journal.close()
    other = make_project()
    other.metadata["rank"] = "A"
    save_project(other, tmp_path / "elsewhere.sialign")
    path.write_bytes((tmp_path / "elsewhere.sialign").read_bytes())  # the file changed since the journal began
    assert live.journal.path.exists() and find_unsaved_work(path, "rivers") is None


def test_edit_journal_replay_stops_at_an_edit_that_does_not_apply(tmp_path: Path) -> None:
    project = make_project()
    good = SetStatus((0,), BeadStatus.CONFIRMED).to_dict()
    bad = SetStatus((99,), BeadStatus.CONFIRMED).to_dict()
    lines = [{"op": "do", "label": "ok", "forward": good, "inverse": good},
             {"op": "do", "label": "Confirm bead 100", "forward": bad, "inverse": bad}]
    replayed = replay_journal(project, lines)
    assert replayed.applied == 1 and "journal edit 2 (Confirm bead 100)" in replayed.problem
    assert project.alignment is not None and project.alignment.beads[0].status is BeadStatus.CONFIRMED


def test_edit_journal_fsyncs_at_most_once_a_second(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[int] = []
    monkeypatch.setattr(edit_journal.os, "fsync", lambda fd: synced.append(fd))
    now = [1000.0]
    monkeypatch.setattr(edit_journal.time, "monotonic", lambda: now[0])
    journal = EditJournal(tmp_path / "t.sialign.journal", {"file_sha256": "0"}, "t")
    synced.clear()  # (the header is written atomically, synced once)
    step = SetStatus((0,), BeadStatus.CONFIRMED).to_dict()
    for _ in range(20):
        now[0] += 0.01
        journal.record("do", "x", step, step)
    assert synced == [] and journal.needs_sync  # written and flushed, not yet synced: within the second
    now[0] += 1.0
    journal.record("do", "x", step, step)
    assert len(synced) == 1 and not journal.needs_sync
    journal.record("do", "x", step, step)
    journal.sync()  # the app's one-second timer
    assert len(synced) == 2
    lines = (tmp_path / "t.sialign.journal").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 23 and json.loads(lines[0])["format"] == "sialign-journal"
    journal.remove()
    assert not (tmp_path / "t.sialign.journal").exists()


def test_edit_journal_of_a_newer_version_or_not_a_journal_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "x.journal"
    path.write_text('{"format": "sialign-journal", "version": 99, "base": {}}\n', encoding="utf-8")
    assert read_journal(path) is None
    path.write_text("hello\n", encoding="utf-8")
    assert read_journal(path) is None
    assert read_journal(tmp_path / "missing.journal") is None
    journal = edit_journal.JournalEntries({"file_sha256": "a"}, [])
    assert edits_after(journal, {"file_sha256": "b"}) is None and edits_after(journal, {"file_sha256": "a"}) == []
