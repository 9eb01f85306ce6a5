"""Keyboard shortcuts: single keys never fire while the user types, and every key can be changed.

Review commands use single keys (C, D, M, N…) so a reviewer can work through
a talk without the mouse. While a text field has the focus those keys must
type instead: :class:`TypingGuard`, an application-wide event filter, accepts
Qt's ``ShortcutOverride`` event for them, which makes Qt deliver the key to
the field instead of triggering the action.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractSpinBox, QApplication, QComboBox, QKeySequenceEdit, QLineEdit, QPlainTextEdit, QTextEdit, QWidget,
)

# Modifiers that still leave a key "single": Shift types capitals, the keypad types digits.
_TYPING_MODIFIERS = Qt.KeyboardModifier.ShiftModifier | Qt.KeyboardModifier.KeypadModifier


def is_text_input(widget: QWidget | None) -> bool:
    """Whether ``widget`` (or the field it belongs to) takes typed text: an editable line, text box, spin box or combo box."""
    while widget is not None:
        if isinstance(widget, QKeySequenceEdit):
            return True
        if isinstance(widget, QLineEdit):
            return not widget.isReadOnly()
        if isinstance(widget, (QTextEdit, QPlainTextEdit)):
            return not widget.isReadOnly()
        if isinstance(widget, QAbstractSpinBox):
            return not widget.isReadOnly()
        if isinstance(widget, QComboBox):
            return widget.isEditable()
        # A spin box's or combo box's line edit is its child: ask the owner.
        parent = widget.parentWidget()
        if not isinstance(parent, (QAbstractSpinBox, QComboBox)):
            return False
        widget = parent
    return False


def is_typing_key(event: QKeyEvent) -> bool:
    """Whether ``event`` is a key without Ctrl, Alt or Meta: one that types (or edits) text."""
    modifiers = event.modifiers() & ~_TYPING_MODIFIERS
    if modifiers != Qt.KeyboardModifier.NoModifier:
        return False
    if event.text() and event.text().isprintable():
        return True
    return event.key() in (Qt.Key.Key_Backspace, Qt.Key.Key_Delete, Qt.Key.Key_Home, Qt.Key.Key_End,
                           Qt.Key.Key_Left, Qt.Key.Key_Right)  # fmt: skip


def typing_wins(widget: QWidget | None, event: QKeyEvent) -> bool:
    """Whether a key pressed in ``widget`` must go to the widget rather than trigger a shortcut."""
    return is_text_input(widget) and is_typing_key(event)


class TypingGuard(QObject):
    """Application event filter: single-key shortcuts do not fire while a text field has the focus."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent):
            if typing_wins(QApplication.focusWidget(), event):
                # Accepting the override sends the key to the focused field as a key press.
                event.accept()
                return True
        return False


_guard: TypingGuard | None = None


def install_typing_guard() -> TypingGuard:
    """Install the guard on the application once (several windows share it)."""
    global _guard
    app = QApplication.instance()
    if _guard is None:
        _guard = TypingGuard()
        if app is not None:
            app.installEventFilter(_guard)
    return _guard
