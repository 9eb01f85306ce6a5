"""A folder that cannot be written to (read-only, a full disk) no longer turns off the journal and the autosave.

Data safety round 2, finding 5: 4/4 and 5/5 edits were lost after ``kill -9``, and the only sign was a
status-bar note saying "Autosave still runs; save often", which was untrue. Now the recovery files go to the
per-user folder and recovery looks there too; where nothing can be written, a dialog says so.
"""

from __future__ import annotations

import errno
from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox

from sialign.core.edits import SetStatus
from sialign.core.model import BeadStatus
from sialign.io import edit_journal, project_file

pytestmark = [pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints")]


@pytest.fixture
def refused(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """Folders in this list refuse every write of a journal or an autosave, as a read-only or full disk does."""
    folders: list[Path] = []
    real_write = project_file._write_payload
    real_record = edit_journal.EditJournal.record

    def blocked(path: Path) -> bool:
        return any(Path(path).resolve().parent == f.resolve() or f.resolve() in Path(path).resolve().parents for f in folders)

    def write(payload, path):  # type: ignore[no-untyped-def]
        if blocked(Path(path)):
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        return real_write(payload, path)

    def record(self, *args):  # type: ignore[no-untyped-def]
        if blocked(self.path):
            raise OSError(errno.EROFS, "Read-only file system", str(self.path))
        return real_record(self, *args)

    monkeypatch.setattr(project_file, "_write_payload", write)
    monkeypatch.setattr(edit_journal.EditJournal, "record", record)
    yield folders
    project_file._UNWRITABLE.clear()


@pytest.fixture
def saved(window, tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    """The window's talk saved as talks/talk.sialign; per-user autosaves in auto/; warning dialogs collected."""
    auto = tmp_path / "auto"
    monkeypatch.setenv("SIALIGN_AUTOSAVE_DIR", str(auto))
    folder = tmp_path / "talks"
    folder.mkdir()
    target = folder / "talk.sialign"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    window.act.save.trigger()
    warnings: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text, *a: warnings.append(text))
    return target, folder, auto, warnings


def test_the_review_goes_on_being_protected_in_the_per_user_folder(qtbot, window, saved, refused) -> None:
    from sialign.io.project_file import find_unsaved_work, load_unsaved_work

    target, folder, auto, warnings = saved

    refused.append(folder)  # from now on the project's folder takes no write
    window.session.apply(SetStatus((0,), BeadStatus.CONFIRMED))
    qtbot.waitUntil(lambda: any(auto.glob("projects/*.sialign.autosave")), timeout=10000)
    window.files.wait_for_autosave()
    qtbot.wait(50)  # the written autosave's mark reaches the journal (queued)
    window.session.apply(SetStatus((1,), BeadStatus.DROPPED, "noise"))
    window.files.close_journal()  # as a kill -9 leaves it: flushed lines, nothing saved
    assert warnings == []  # protected elsewhere: no alarm
    assert not (folder / "talk.sialign.autosave").exists()

    # Reopened after the crash: the recovery is found in the per-user folder, both edits in it.
    work = find_unsaved_work(target, "water")
    assert work is not None and work.autosave is not None and work.autosave.parent == auto / "projects"
    recovered = load_unsaved_work(work, target).project
    beads = recovered.alignment.beads
    assert beads[0].status is BeadStatus.CONFIRMED and beads[1].status is BeadStatus.DROPPED
    assert recovered.path == str(target)


def test_where_nothing_can_be_written_a_dialog_says_so(qtbot, window, saved, refused) -> None:
    target, folder, auto, warnings = saved
    refused.extend([folder, auto])
    window.session.apply(SetStatus((0,), BeadStatus.CONFIRMED))
    qtbot.waitUntil(lambda: bool(warnings), timeout=10000)
    window.session.apply(SetStatus((1,), BeadStatus.CONFIRMED))
    window.files.wait_for_autosave()
    qtbot.wait(50)
    assert len(warnings) == 1  # once per project, not at every edit
    assert "Save As" in warnings[0] and ("No space left" in warnings[0] or "Read-only" in warnings[0])
    assert "Autosave still runs" not in window.statusBar().currentMessage()
