"""Keyboard shortcuts: single keys type in text fields instead of acting; keys can be changed and are remembered."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication, QComboBox, QLabel, QLineEdit, QPlainTextEdit, QSpinBox

from sialign.gui.main.shortcuts import is_text_input, typing_wins

pytestmark = [pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints")]


def _key(key: Qt.Key, text: str, modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> QKeyEvent:
    return QKeyEvent(QEvent.Type.ShortcutOverride, key, modifiers, text)


def test_shortcuts_text_inputs_are_recognised(qtbot) -> None:
    line = QLineEdit()
    read_only_line = QLineEdit()
    read_only_line.setReadOnly(True)
    box = QPlainTextEdit()
    read_only_box = QPlainTextEdit()
    read_only_box.setReadOnly(True)
    spin = QSpinBox()
    combo = QComboBox()
    editable_combo = QComboBox()
    editable_combo.setEditable(True)
    for w in (line, read_only_line, box, read_only_box, spin, combo, editable_combo):
        qtbot.addWidget(w)
    assert is_text_input(line) and is_text_input(box) and is_text_input(spin) and is_text_input(editable_combo)
    assert is_text_input(spin.findChild(QLineEdit)) and is_text_input(editable_combo.lineEdit())
    assert not is_text_input(read_only_line) and not is_text_input(read_only_box)
    assert not is_text_input(combo) and not is_text_input(QLabel("x")) and not is_text_input(None)


def test_shortcuts_single_keys_type_but_control_keys_act(qtbot) -> None:
    line = QLineEdit()
    qtbot.addWidget(line)
    assert typing_wins(line, _key(Qt.Key.Key_C, "c"))
    assert typing_wins(line, _key(Qt.Key.Key_N, "N", Qt.KeyboardModifier.ShiftModifier))
    assert typing_wins(line, _key(Qt.Key.Key_Backspace, ""))
    assert not typing_wins(line, _key(Qt.Key.Key_Z, "\x1a", Qt.KeyboardModifier.ControlModifier))
    assert not typing_wins(line, _key(Qt.Key.Key_Up, "", Qt.KeyboardModifier.AltModifier))
    assert not typing_wins(QLabel("x"), _key(Qt.Key.Key_C, "c"))


class _UnclaimingLineEdit(QLineEdit):
    """A text field that does not claim its keys itself (as some platforms and input methods leave it)."""

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ShortcutOverride:
            event.ignore()
            return False
        return super().event(event)


def _activate(qtbot, window) -> None:
    # Window shortcuts only fire in the active window.
    window.activateWindow()
    qtbot.waitActive(window)
    window.session.select_bead(1)


@pytest.mark.parametrize("field", ["search", "post_edit", "note", "unclaiming"])
def test_shortcuts_do_not_fire_while_typing(qtbot, window, field) -> None:
    _activate(qtbot, window)
    if field == "search":
        widget = window.search_edit
    elif field == "unclaiming":
        widget = _UnclaimingLineEdit()
        window.table_panel.layout().addWidget(widget)
        widget.show()  # a child added to a shown window is shown only later; hidden, it takes no focus
    else:
        widget = getattr(window.inspector, field)
    widget.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is widget, timeout=2000)
    qtbot.keyClicks(widget, "ncdmbgfwqeNGM")
    assert "ncdmbgfwqeNGM" in widget.text()
    assert window.session.undo_stack.count() == 0
    bead = window.session.project.alignment.beads[1]
    assert bead.post_edit is None and bead.note == "" and bead.good_align is None
    if field != "search":  # the search filters the table (and may hide the selected bead)
        assert window.session.selected_bead == 1


def test_shortcuts_still_fire_outside_text_fields(qtbot, window) -> None:
    _activate(qtbot, window)
    window.table.setFocus()
    qtbot.keyClick(window.table, Qt.Key.Key_C)
    assert window.session.undo_stack.count() == 1


def test_shortcuts_dialog_lists_every_action_and_searches(qtbot, window) -> None:
    from sialign.gui.dialogs.shortcuts_dialog import ShortcutsDialog

    dialog = ShortcutsDialog(window.shortcuts, window)
    qtbot.addWidget(dialog)
    names = [window.shortcuts.entries[r].name for r in range(dialog.table.rowCount())]
    assert "Review › Confirm" in names and "Edit › Undo" in names and "Help › Keyboard shortcuts" in names
    row = names.index("Review › Confirm")
    assert dialog.table.item(row, 1).text() == "C"
    # Every key shows whole at the dialog's size (the name column gives way).
    dialog.resize(560, 520)
    dialog.show()
    qtbot.waitExposed(dialog)
    metrics = dialog.table.fontMetrics()
    widest = max(metrics.horizontalAdvance(dialog.table.item(r, 1).text()) for r in range(dialog.table.rowCount()))
    assert dialog.table.columnWidth(1) >= widest
    dialog.search.setText("confirm")
    shown = [names[r] for r in range(len(names)) if not dialog.table.isRowHidden(r)]
    assert "Review › Confirm" in shown and "Edit › Undo" not in shown


def test_shortcuts_change_is_applied_remembered_and_conflicts_refused(qtbot, window) -> None:
    from PySide6.QtGui import QKeySequence

    from sialign.gui.common.session import ProjectSession
    from sialign.gui.dialogs.shortcuts_dialog import ShortcutsDialog
    from sialign.gui.main.main_window import MainWindow

    dialog = ShortcutsDialog(window.shortcuts, window)
    qtbot.addWidget(dialog)
    dialog.select("Review/Confirm")
    # A key another action has is refused with a message naming that action.
    dialog.key_edit.setKeySequence(QKeySequence("D"))
    dialog.set_button.click()
    assert "Drop / restore" in dialog.message.text()
    assert window.act.confirm.shortcut().toString() == "C"
    # A free key is taken, stored, and applied in the next window.
    dialog.key_edit.setKeySequence(QKeySequence("K"))
    dialog.set_button.click()
    assert dialog.message.text() == ""
    assert window.act.confirm.shortcut().toString() == "K"
    assert "(K)" in window.act.confirm.toolTip()
    window.shortcuts.settings.sync()
    other = MainWindow(ProjectSession())
    qtbot.addWidget(other)
    assert other.act.confirm.shortcut().toString() == "K"
    # Reset to defaults gives C back, here and from now on.
    dialog.reset_button.click()
    assert window.act.confirm.shortcut().toString() == "C"
    third = MainWindow(ProjectSession())
    qtbot.addWidget(third)
    assert third.act.confirm.shortcut().toString() == "C"


def test_shortcuts_changed_key_triggers_the_action(qtbot, window) -> None:
    from PySide6.QtGui import QKeySequence

    entry = window.shortcuts.entry("Review/Confirm")
    assert window.shortcuts.assign(entry, QKeySequence("K")) is None
    _activate(qtbot, window)
    window.table.setFocus()
    qtbot.keyClick(window.table, Qt.Key.Key_C)
    assert window.session.undo_stack.count() == 0
    qtbot.keyClick(window.table, Qt.Key.Key_K)
    assert window.session.project.alignment.beads[1].status.value == "confirmed"
