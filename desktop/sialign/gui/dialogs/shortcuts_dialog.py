"""*Help → Keyboard shortcuts…*: every action and its key, searchable; select one, press a key, Set."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QKeySequenceEdit,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from sialign.gui.main.shortcuts import ShortcutEntry, ShortcutManager


class ShortcutsDialog(QDialog):
    """*Help → Keyboard shortcuts…*: every action and its key, searchable; select one, press a key, Set."""

    def __init__(self, manager: ShortcutManager, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard shortcuts")
        self.manager = manager
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search actions or keys…")
        self.search.setClearButtonEnabled(True)
        self.table = QTableWidget(0, 2)
        self.table.setHorizontalHeaderLabels(["Action", "Key"])
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().lineSpacing() + 8)
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        # Keys are short and must show whole ("Ctrl+Shift+Z, Ctrl+Y"): the name column gives way.
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.key_edit = QKeySequenceEdit()
        self.key_edit.setToolTip("Click, then press the new key")
        self.set_button = QPushButton("Set")
        self.clear_button = QPushButton("No key")
        self.reset_button = QPushButton("Reset to defaults")
        self.message = QLabel("")
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #b00020;")
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)

        row = QHBoxLayout()
        row.addWidget(QLabel("New key:"))
        row.addWidget(self.key_edit, 1)
        row.addWidget(self.set_button)
        row.addWidget(self.clear_button)
        row.addStretch(1)
        row.addWidget(self.reset_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.search)
        layout.addWidget(self.table, 1)
        layout.addLayout(row)
        layout.addWidget(self.message)
        layout.addWidget(close)
        self.resize(560, 520)

        self.search.textChanged.connect(self._filter)
        self.table.currentCellChanged.connect(lambda *_: self._row_changed())
        self.set_button.clicked.connect(lambda: self._assign(self._edited_key()))
        self.clear_button.clicked.connect(lambda: self._assign(QKeySequence()))
        self.reset_button.clicked.connect(self._reset)
        self._fill()

    def _fill(self) -> None:
        self.table.setRowCount(len(self.manager.entries))
        for r, entry in enumerate(self.manager.entries):
            name = QTableWidgetItem(entry.name)
            name.setData(Qt.ItemDataRole.UserRole, entry.key)
            self.table.setItem(r, 0, name)
            key = QTableWidgetItem(entry.key_text())
            key.setToolTip(entry.key_text())
            self.table.setItem(r, 1, key)
        self._filter(self.search.text())

    def _filter(self, text: str) -> None:
        needle = text.strip().lower()
        for r, entry in enumerate(self.manager.entries):
            shown = not needle or needle in entry.name.lower() or needle in entry.key_text().lower()
            self.table.setRowHidden(r, not shown)

    def select(self, key: str) -> None:
        """Select the action stored under ``key`` (e.g. ``"Review/Confirm"``)."""
        for r, entry in enumerate(self.manager.entries):
            if entry.key == key:
                self.table.setCurrentCell(r, 0)
                return

    def current_entry(self) -> ShortcutEntry | None:
        r = self.table.currentRow()
        return self.manager.entries[r] if 0 <= r < len(self.manager.entries) else None

    def _row_changed(self) -> None:
        entry = self.current_entry()
        keys = entry.keys() if entry is not None else []
        self.key_edit.setKeySequence(keys[0] if keys else QKeySequence())
        self.message.clear()

    def _edited_key(self) -> QKeySequence:
        sequence = self.key_edit.keySequence()
        # One key (or chord) per action: a second press would make a two-stroke sequence.
        return QKeySequence(sequence[0]) if sequence.count() else QKeySequence()  # type: ignore[index]

    def _assign(self, sequence: QKeySequence) -> None:
        entry = self.current_entry()
        if entry is None:
            self.message.setText("Select an action first.")
            return
        error = self.manager.assign(entry, sequence)
        self.message.setText(error or "")
        self._fill()

    def _reset(self) -> None:
        self.manager.reset_defaults()
        self.message.clear()
        self._fill()
