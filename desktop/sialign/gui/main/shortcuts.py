"""Keyboard shortcuts: single keys never fire while the user types, and every key can be changed.

Review commands use single keys (C, D, M, N…) so a reviewer can work through
a talk without the mouse. While a text field has the focus those keys must
type instead: :class:`TypingGuard`, an application-wide event filter, accepts
Qt's ``ShortcutOverride`` event for them, which makes Qt deliver the key to
the field instead of triggering the action.

:class:`ShortcutManager` lists every action of the menus with its keys,
changes a key (refusing one another action already has), stores the changes
in ``QSettings`` and applies them when the window opens;
:class:`~sialign.gui.dialogs.shortcuts_dialog.ShortcutsDialog` (*Help → Keyboard shortcuts…*) is its face.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QEvent, QObject, QSettings, Qt
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QKeySequenceEdit,
    QLineEdit,
    QMainWindow,
    QMenu,
    QPlainTextEdit,
    QTextEdit,
    QWidget,
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
                           Qt.Key.Key_Left, Qt.Key.Key_Right)


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


# --------------------------------------------------------------------------
# customisable keys

SETTINGS_GROUP = "shortcuts"
_SEPARATOR = "\t"  # between the keys of one action in the settings (a key text never holds a tab)


def plain_text(text: str) -> str:
    """A menu or action text as read: no mnemonic '&' ('&&' stays one '&'), no trailing '…'."""
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip("…").strip()


def _key_text(sequences: list[QKeySequence]) -> str:
    return ", ".join(s.toString(QKeySequence.SequenceFormat.NativeText) for s in sequences if not s.isEmpty())


@dataclass
class ShortcutEntry:
    """One action of the menus with its default keys.

    Attributes:
        key: stable name in the settings (the menu path, e.g. ``"Review/Confirm"``).
        name: what the list shows (``"Review › Confirm"``).
    """

    key: str
    name: str
    action: QAction
    default: list[QKeySequence]

    def keys(self) -> list[QKeySequence]:
        return [s for s in self.action.shortcuts() if not s.isEmpty()]

    def key_text(self) -> str:
        return _key_text(self.keys())


class ShortcutManager:
    """Every action of a window's menus, its keys, changes to them (refusing conflicts) and their storage in QSettings.

    Built once the menus exist; applies the stored keys at once.
    """

    def __init__(self, window: QMainWindow, settings: QSettings, skip_menus: tuple[QMenu, ...] = ()) -> None:
        self.settings = settings
        self.entries: list[ShortcutEntry] = []
        seen: set[int] = set()
        for menu_action in window.menuBar().actions():
            menu = menu_action.menu()
            if isinstance(menu, QMenu):
                self._collect(menu, [plain_text(menu.title())], seen, skip_menus)
        self.load()

    def _collect(self, menu: QMenu, path: list[str], seen: set[int], skip: tuple[QMenu, ...]) -> None:
        if menu in skip:
            return
        for action in menu.actions():
            sub = action.menu()
            if isinstance(sub, QMenu):
                self._collect(sub, [*path, plain_text(sub.title())], seen, skip)
                continue
            if action.isSeparator() or not action.text() or id(action) in seen:
                continue
            seen.add(id(action))
            names = [*path, plain_text(action.text())]
            self.entries.append(ShortcutEntry("/".join(names), " › ".join(names), action, self._keys_of(action)))

    @staticmethod
    def _keys_of(action: QAction) -> list[QKeySequence]:
        return [QKeySequence(s) for s in action.shortcuts() if not s.isEmpty()]

    def entry(self, key: str) -> ShortcutEntry:
        for entry in self.entries:
            if entry.key == key:
                return entry
        raise KeyError(key)

    def conflict(self, entry: ShortcutEntry, sequence: QKeySequence) -> ShortcutEntry | None:
        """The other action that already uses ``sequence``, if any."""
        for other in self.entries:
            if other is not entry and any(s.matches(sequence) == QKeySequence.SequenceMatch.ExactMatch for s in other.keys()):
                return other
        return None

    def assign(self, entry: ShortcutEntry, sequence: QKeySequence) -> str | None:
        """Give ``entry`` the one key ``sequence`` (empty: no key) and store it; a message instead when another action has it."""
        if not sequence.isEmpty():
            other = self.conflict(entry, sequence)
            if other is not None:
                text = sequence.toString(QKeySequence.SequenceFormat.NativeText)
                return f"{text} is already the key of “{other.name}”; change that one first."
        self._set(entry, [sequence] if not sequence.isEmpty() else [])
        self.save()
        return None

    def _set(self, entry: ShortcutEntry, sequences: list[QKeySequence]) -> None:
        entry.action.setShortcuts(sequences)
        tip = entry.action.statusTip()
        if tip:
            text = _key_text(sequences)
            entry.action.setToolTip(f"{tip} ({text})" if text else tip)

    def reset_defaults(self) -> None:
        """Every action gets its built-in keys back; the stored changes are forgotten."""
        for entry in self.entries:
            self._set(entry, list(entry.default))
        self.settings.remove(SETTINGS_GROUP)

    def save(self) -> None:
        """Store the keys that differ from the defaults."""
        self.settings.remove(SETTINGS_GROUP)
        for entry in self.entries:
            keys = [s.toString(QKeySequence.SequenceFormat.PortableText) for s in entry.keys()]
            if keys != [s.toString(QKeySequence.SequenceFormat.PortableText) for s in entry.default]:
                self.settings.setValue(f"{SETTINGS_GROUP}/{entry.key}", _SEPARATOR.join(keys))

    def load(self) -> None:
        """Apply the stored keys (those of actions that no longer exist are ignored)."""
        by_key = {entry.key: entry for entry in self.entries}
        self.settings.beginGroup(SETTINGS_GROUP)
        stored = {k: self.settings.value(k) for k in self.settings.allKeys()}
        self.settings.endGroup()
        for key, value in stored.items():
            entry = by_key.get(key)
            if entry is not None and isinstance(value, str):
                self._set(entry, [QKeySequence(t) for t in value.split(_SEPARATOR) if t])
