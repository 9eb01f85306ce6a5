"""The selection follows the reviewer's bead through merges, undo and re-alignment; counts and filters stay true."""

from __future__ import annotations

import pytest

pytest.importorskip("pytestqt")

pytestmark = [pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints")]


def test_merging_with_the_previous_bead_keeps_the_merged_bead_selected(qtbot, window) -> None:
    beads = window.session.project.alignment.beads
    first_src = beads[3].src[0]
    window.session.select_bead(3)
    window.review.merge_with_previous_bead()
    qtbot.wait(20)
    selected = window.session.selected_bead
    assert first_src in window.session.project.alignment.beads[selected].src
    assert selected == 2
    # Undo of the merge: the bead selected before it, again.
    window.session.undo_stack.undo()
    qtbot.wait(20)
    selected = window.session.selected_bead
    assert selected == 3 and first_src in window.session.project.alignment.beads[selected].src
    assert window.proxy.bead_of(window.table.currentIndex()) == selected


def test_the_shown_count_is_right_after_a_merge(qtbot, window) -> None:
    n = len(window.session.project.alignment.beads)
    window.session.select_bead(1)
    window.review.merge_with_next_bead()
    qtbot.waitUntil(lambda: window.shown_label.text() == f"{n - 1} beads", timeout=2000)
    window.session.undo_stack.undo()
    qtbot.waitUntil(lambda: window.shown_label.text() == f"{n} beads", timeout=2000)


def test_opening_another_talk_clears_the_search(qtbot, window, make_project) -> None:
    window.search_edit.setText("zzz nothing matches")
    window.status_filter.setCurrentIndex(2)
    assert window.proxy.rowCount() == 0
    window.session.set_project(make_project())
    assert window.search_edit.text() == "" and window.status_filter.currentIndex() == 0
    assert window.proxy.rowCount() == len(window.session.project.alignment.beads) > 0


def test_a_realignment_keeps_the_selection_on_the_same_segments(qtbot, window) -> None:
    """Re-aligning shifts the rows before the selected bead: the selection goes with its segments."""
    from sialign.core.edits import MergeBeads, ReplaceAlignment
    from sialign.core.model import Alignment

    project = window.session.project
    window.session.select_bead(4)
    anchor = project.alignment.beads[4].src[0]
    # A new alignment in which beads 0 and 1 are merged: bead 4's segments are now in bead 3.
    merged = MergeBeads(0).apply(project)  # returns the inverse; the project changed
    new_beads = list(project.alignment.beads)
    merged.apply(project)  # back to the original
    assert window.session.apply(ReplaceAlignment(Alignment(new_beads)))
    qtbot.wait(20)
    selected = window.session.selected_bead
    assert anchor in project.alignment.beads[selected].src and selected == 3


def _selected_rows(window) -> list[int]:
    return sorted(index.row() for index in window.table.selectionModel().selectedRows())


def test_undo_and_redo_leave_exactly_the_current_bead_selected(qtbot, window) -> None:
    """Rows inserted by undoing a merge do not widen the selection: the next key acts on one bead."""
    window.session.select_bead(2)
    window.review.merge_with_next_bead()
    qtbot.wait(20)
    assert _selected_rows(window) == [window.session.selected_bead] == [2]
    window.session.undo_stack.undo()
    qtbot.wait(20)
    assert _selected_rows(window) == [window.session.selected_bead]
    window.session.undo_stack.redo()
    qtbot.wait(20)
    assert _selected_rows(window) == [window.session.selected_bead]


def test_a_status_change_keeps_a_group_selected(qtbot, window) -> None:
    from PySide6.QtCore import QItemSelectionModel

    selection = window.table.selectionModel()
    window.session.select_bead(2)
    flags = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
    for row in (3, 4):
        selection.select(window.proxy.index(row, 0), flags)
    window.review.confirm()  # all three, as one step
    qtbot.wait(20)
    assert _selected_rows(window) == [2, 3, 4]
    assert window.table_panel.selected_beads() == [2, 3, 4]


def test_keys_act_on_the_shown_bead_after_moving_without_selecting(qtbot, window) -> None:
    """Ctrl+End moves the current row without selecting it: D drops the bead shown, not the row left behind."""
    window.session.select_bead(1)
    window.session.select_bead(5)  # as the matrix or Ctrl+End does
    window.table.selectionModel().select(
        window.proxy.index(1, 0), window.table.selectionModel().SelectionFlag.ClearAndSelect | window.table.selectionModel().SelectionFlag.Rows
    )  # row 2 still selected while bead 6 is the current one
    assert window.table_panel.selected_beads() == [5]


def test_opening_a_talk_puts_the_keys_on_the_table(qtbot, window, make_project) -> None:
    """N, C, D act on beads at once after opening: the search box would type them."""
    window.show()
    qtbot.waitExposed(window)
    window.table_panel.focus_search()
    assert window.focusWidget() is window.search_edit
    window.session.set_project(make_project())
    assert window.focusWidget() is window.table
    window.table_panel.focus_search()
    window._alignment_installed(False)
    assert window.focusWidget() is window.table


def test_the_matrix_info_line_follows_the_bead_through_a_merge_and_a_split(qtbot, window) -> None:
    window.session.select_bead(2)
    before = window.matrix.hover_label.text()
    window.review.merge_with_next_bead()
    qtbot.wait(20)
    after = window.matrix.hover_label.text()
    assert after != before and after == window.matrix.describe_bead(window.session.selected_bead)
    bead = window.session.project.alignment.beads[window.session.selected_bead]
    assert f"source {bead.src[0] + 1}–{bead.src[-1] + 1}" in after or len(bead.src) == 1


@pytest.mark.parametrize("key", ["End", "Home"])
def test_ctrl_home_and_end_select_the_row_they_move_to(qtbot, window, key) -> None:
    """What the keys act on and what the table highlights agree after Ctrl+End / Ctrl+Home."""
    from PySide6.QtCore import QItemSelectionModel, Qt

    window.session.select_bead(2)
    flags = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
    window.table.selectionModel().select(window.proxy.index(3, 0), flags)
    window.table.setFocus()
    qtbot.keyClick(window.table, getattr(Qt.Key, f"Key_{key}"), Qt.KeyboardModifier.ControlModifier)
    last = len(window.session.project.alignment.beads) - 1
    expected = last if key == "End" else 0
    assert window.session.selected_bead == expected
    assert _selected_rows(window) == [expected]


def test_selection_follows_a_realignment_even_when_the_table_gets_the_focus_back(qtbot, window) -> None:
    """A re-alignment replaces the table's rows; the window getting the focus back must not select bead 1."""
    import dataclasses

    from PySide6.QtCore import QEvent, Qt
    from PySide6.QtGui import QFocusEvent
    from PySide6.QtWidgets import QApplication

    from sialign.core.edits import ReplaceAlignment

    session = window.session
    session.select_bead(4)
    alignment = session.project.alignment
    session.apply(ReplaceAlignment(dataclasses.replace(alignment, beads=[b.copy() for b in alignment.beads])))
    # As when the progress bar goes and the window is active again: the table takes the focus before any queued work.
    QApplication.sendEvent(window.table, QFocusEvent(QEvent.Type.FocusIn, Qt.FocusReason.ActiveWindowFocusReason))
    qtbot.wait(20)
    assert session.selected_bead == 4 and window.proxy.bead_of(window.table.currentIndex()) == 4
