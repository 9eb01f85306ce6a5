"""The app's project keeping without Qt: one writer, save, autosave, the edit journal and recovery after a crash."""

from __future__ import annotations

from pathlib import Path

import pytest

from sialign.core.edits import SetStatus, apply_edit
from sialign.core.errors import ProjectBusyError
from sialign.core.model import Alignment, Bead, BeadStatus, Document, Project
from sialign.workflows.keeping import ProjectKeeper, Trouble
from sialign.workflows.outputs import save


def _project() -> Project:
    src = Document.from_texts(["One.", "Two.", "Three."], "en")
    tgt = Document.from_texts(["Eins.", "Zwei.", "Drei."], "de")
    return Project(source=src, target=tgt, alignment=Alignment([Bead((i,), (i,)) for i in range(3)]), talk_id="talk")


def _apply(keeper: ProjectKeeper, project: Project, edit: SetStatus) -> None:
    """Apply ``edit`` as the window's session does, and journal it."""
    inverse = apply_edit(project, edit)
    keeper.record(project, {"op": "do", "label": "Confirm", "forward": edit.to_dict(), "inverse": inverse.to_dict()})


@pytest.fixture
def troubles() -> list[Trouble]:
    return []


def test_a_command_cannot_overwrite_the_apps_unsaved_review(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            troubles: list[Trouble]) -> None:
    monkeypatch.setenv("SIALIGN_AUTOSAVE_DIR", str(tmp_path / "autosave"))
    keeper, project = ProjectKeeper(troubles.append), _project()
    path = tmp_path / "talk.sialign"
    keeper.save(project, path, [])
    assert project.path == str(path) and path.is_file()
    keeper.project_replaced(project, modified=False)
    _apply(keeper, project, SetStatus((0,), BeadStatus.CONFIRMED))
    keeper.sync(project)
    # The review is journalled but not saved: a command's save refuses (the app's Save is the way).
    with pytest.raises(ProjectBusyError):
        save(_project(), path, program="sialign filter")
    keeper.save(project, path, [])
    keeper.release_lock()
    save(project, path, program="sialign filter")  # saved and given back: a command may write it
    assert troubles == []


def test_journalled_edits_come_back_after_a_crash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  troubles: list[Trouble]) -> None:
    monkeypatch.setenv("SIALIGN_AUTOSAVE_DIR", str(tmp_path / "autosave"))
    keeper, project = ProjectKeeper(troubles.append), _project()
    path = tmp_path / "talk.sialign"
    keeper.save(project, path, [])
    keeper.project_replaced(project, modified=False)
    _apply(keeper, project, SetStatus((0,), BeadStatus.CONFIRMED))
    mark = keeper.begin_autosave(project)
    keeper.write_autosave(project, mark)
    keeper.autosave_written(project, mark)
    _apply(keeper, project, SetStatus((2,), BeadStatus.DROPPED, "noise"))
    keeper.sync(project)
    keeper.close_journal()  # what a kill leaves: flushed lines, nothing saved
    keeper.release_lock()

    after = ProjectKeeper(troubles.append)
    opening = after.open(path)
    assert opening.holder is None and opening.work is not None and opening.work.edits == 1
    recovered = after.recover(opening)
    statuses = [bead.status for bead in recovered.project.alignment.beads]
    assert statuses == [BeadStatus.CONFIRMED, BeadStatus.AUTO, BeadStatus.DROPPED]
    assert recovered.project.path == str(path) and recovered.problem == ""
    assert after.go_on_after_recovery(recovered.project, recovered)
    # Saved: the file holds it all and nothing is offered again.
    after.save(recovered.project, path, [])
    after.release_lock()
    assert ProjectKeeper(troubles.append).open(path).work is None
    assert troubles == []


def test_declined_recovery_is_gone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, troubles: list[Trouble]) -> None:
    monkeypatch.setenv("SIALIGN_AUTOSAVE_DIR", str(tmp_path / "autosave"))
    keeper, project = ProjectKeeper(troubles.append), _project()
    path = tmp_path / "talk.sialign"
    keeper.save(project, path, [])
    keeper.project_replaced(project, modified=False)
    _apply(keeper, project, SetStatus((1,), BeadStatus.CONFIRMED))
    keeper.close_journal()
    keeper.release_lock()
    opening = ProjectKeeper(troubles.append).open(path)
    assert opening.work is not None
    ProjectKeeper.decline_recovery(opening)
    assert ProjectKeeper(troubles.append).open(path).work is None


def test_an_unwritable_folder_moves_the_journal_to_the_per_user_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                      troubles: list[Trouble]) -> None:
    monkeypatch.setenv("SIALIGN_AUTOSAVE_DIR", str(tmp_path / "autosave"))
    keeper, project = ProjectKeeper(troubles.append), _project()
    folder = tmp_path / "shared"
    folder.mkdir()
    path = folder / "talk.sialign"
    keeper.save(project, path, [])
    keeper.project_replaced(project, modified=False)
    # Beside the project, the journal's place is taken by a folder: it cannot be written there.
    (folder / "talk.sialign.journal").mkdir()
    _apply(keeper, project, SetStatus((0,), BeadStatus.CONFIRMED))
    assert troubles and troubles[0].source == "journal" and troubles[0].outcome == "moved"
    # The autosave that follows goes to the per-user folder, and its journal with it.
    mark = keeper.begin_autosave(project)
    written = keeper.write_autosave(project, mark)
    assert (tmp_path / "autosave") in written.parents
