"""What a reviewer typed or ticked in the bead panel is never thrown away.

Each field (Good alignment, Good translation, note, post-edit) and each way of
leaving it (clicking another row, another edit, Undo, saving, closing the
window, re-aligning) keeps the input as an undoable edit of the bead it was
typed for.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from sialign.gui.table.table_model import Column

pytestmark = [pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints")]

BEAD = 1  # the bead the input is typed for; the tests then move to bead 2


def _click_checkbox(qtbot, box) -> None:
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=box.rect().center())


def _enter(qtbot, window, field: str) -> str:
    """Give ``field`` of the bead panel new input, without Enter; returns a description of the expected bead value."""
    inspector = window.inspector
    if field == "good_align":
        _click_checkbox(qtbot, inspector.good_align)
    elif field == "good_mt":
        _click_checkbox(qtbot, inspector.good_mt)
    elif field == "note":
        inspector.note.setFocus()
        qtbot.keyClicks(inspector.note, "check the number")
    elif field == "post_edit":
        inspector.post_edit.setFocus()
        inspector.post_edit.setCursorPosition(len(inspector.post_edit.text()))
        qtbot.keyClicks(inspector.post_edit, " (fixed)")
    return field


def _kept(window, field: str) -> bool:
    bead = window.session.project.alignment.beads[BEAD]
    return {
        "good_align": bead.good_align is not None,
        "good_mt": bead.good_mt is not None,
        "note": bead.note == "check the number",
        "post_edit": (bead.post_edit or "").endswith("(fixed)"),
    }[field]


def _select_row(qtbot, window, row: int) -> None:
    rect = window.table.visualRect(window.proxy.index(row, Column.SOURCE))
    qtbot.mouseClick(window.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


FIELDS = ["good_align", "good_mt", "note", "post_edit"]


@pytest.mark.parametrize("field", FIELDS)
def test_pending_input_kept_when_the_selection_moves(qtbot, window, field) -> None:
    _select_row(qtbot, window, BEAD)
    _enter(qtbot, window, field)
    _select_row(qtbot, window, BEAD + 1)
    assert window.session.selected_bead == BEAD + 1
    assert _kept(window, field)
    # Back on the bead, the panel shows what was typed.
    _select_row(qtbot, window, BEAD)
    inspector = window.inspector
    shown = {
        "good_align": inspector.good_align.checkState() != Qt.CheckState.PartiallyChecked,
        "good_mt": inspector.good_mt.checkState() != Qt.CheckState.PartiallyChecked,
        "note": inspector.note.text() == "check the number",
        "post_edit": inspector.post_edit.text().endswith("(fixed)"),
    }[field]
    assert shown
    # It is one undoable step.
    window.act.undo.trigger()
    assert not _kept(window, field)


@pytest.mark.parametrize("field", FIELDS)
def test_pending_input_kept_when_another_edit_runs(qtbot, window, field) -> None:
    from sialign.core.edits import SetStatus
    from sialign.core.model import BeadStatus

    _select_row(qtbot, window, BEAD)
    _enter(qtbot, window, field)
    assert window.session.apply(SetStatus(BEAD + 2, BeadStatus.CONFIRMED))
    assert _kept(window, field)


@pytest.mark.parametrize("field", ["note", "post_edit"])
def test_pending_text_applied_then_taken_back_by_undo(qtbot, window, field) -> None:
    from sialign.core.edits import SetStatus
    from sialign.core.model import BeadStatus

    assert window.session.apply(SetStatus(BEAD + 2, BeadStatus.CONFIRMED))  # an older step Undo must not take
    _select_row(qtbot, window, BEAD)
    before = window.session.undo_stack.count()
    _enter(qtbot, window, field)
    window.act.undo.trigger()  # Undo right after typing takes the typing back, not an older step
    assert not _kept(window, field)
    assert window.session.undo_stack.count() == before + 1
    assert window.session.project.alignment.beads[BEAD + 2].status is BeadStatus.CONFIRMED
    window.act.redo.trigger()
    assert _kept(window, field)


@pytest.mark.parametrize("field", FIELDS)
def test_pending_input_saved_with_the_project(qtbot, window, field, tmp_path: Path) -> None:
    from sialign.io.project_file import load_project

    _select_row(qtbot, window, BEAD)
    _enter(qtbot, window, field)
    path = tmp_path / "talk.sialign"
    window.session.project.path = str(path)
    assert window.files.save()
    assert _kept(window, field)
    saved = load_project(path)
    window.session.project.alignment = saved.alignment
    assert _kept(window, field)
    assert not window.session.is_modified


@pytest.mark.parametrize("field", FIELDS)
def test_pending_input_counts_when_the_window_closes(qtbot, window, field, monkeypatch) -> None:
    asked: list[str] = []

    def question(*args, **kwargs):
        asked.append(args[1])
        return QMessageBox.StandardButton.Cancel

    _select_row(qtbot, window, BEAD)
    window.session.mark_saved()
    _enter(qtbot, window, field)
    monkeypatch.setattr(QMessageBox, "question", question)
    assert not window.close()  # asked to save (and cancelled): the input was not dropped silently
    assert asked == ["Unsaved changes"]
    assert _kept(window, field)


def test_pending_input_goes_into_a_re_alignment(qtbot, window) -> None:
    """The note is applied before the worker takes its snapshot, so the run carries it (or asks about it)."""
    _select_row(qtbot, window, BEAD)
    _enter(qtbot, window, "note")
    with qtbot.waitSignal(window.runner.finished, timeout=120_000):
        assert window.align()
        # Applied as its own step before the snapshot was taken.
        assert window.session.project.alignment.beads[BEAD].note == "check the number"
        assert window.session.undo_stack.count() == 1


def test_pending_input_never_lands_on_another_project(qtbot, window, make_project) -> None:
    """Opening another project applies the input to the old one first; the new one's beads stay clean."""
    _select_row(qtbot, window, BEAD)
    _enter(qtbot, window, "note")
    old = window.session.project
    window.session.commit_pending()
    other = make_project()
    window.session.set_project(other)
    window.session.commit_pending()
    assert old.alignment.beads[BEAD].note == "check the number"
    assert all(bead.note == "" for bead in other.alignment.beads)


def test_pending_input_fields_disabled_without_a_bead(qtbot, window) -> None:
    window.session.select_bead(-1)
    inspector = window.inspector
    assert not inspector.note.isEnabled()
    assert not any(button.isEnabled() for button in inspector._buttons)
    window.session.select_bead(0)
    assert inspector.note.isEnabled() and all(button.isEnabled() for button in inspector._buttons)


@pytest.mark.parametrize("field", ["note", "post_edit"])
def test_pending_input_typed_text_marks_the_window_modified_at_once(qtbot, window, field: str) -> None:
    _select_row(qtbot, window, BEAD)
    assert not window.session.is_modified and not window.isWindowModified()
    _enter(qtbot, window, field)
    # Not applied yet (no Enter), but the title shows the "*" and a save would keep it.
    assert not _kept(window, field)
    assert window.session.is_modified and window.isWindowModified()
    # Typed back to what the bead holds: nothing pending any more.
    line = window.inspector.note if field == "note" else window.inspector.post_edit
    for _ in range(len("check the number") if field == "note" else len(" (fixed)")):
        qtbot.keyClick(line, Qt.Key.Key_Backspace)
    assert not window.session.is_modified and not window.isWindowModified()
