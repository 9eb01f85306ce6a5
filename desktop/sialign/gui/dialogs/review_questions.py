"""The questions review commands ask (a segment's text or times, a time shift, a find/replace).

:class:`ReviewQuestions` opens one small dialog per question and returns the
answer, or None when the reviewer cancels; the review controller
(:class:`~sialign.gui.main.review_actions.ReviewActions`) turns answers into edits.
Tests replace its methods instead of clicking through dialogs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from sialign.core.model import Bead

# Seconds shown and typed with millisecond precision, up to ten hours.
_MAX_SECONDS = 36_000.0


def post_edit_replacements(
    beads: Sequence[Bead], find: str, replace: str, *, regex: bool = False, case_sensitive: bool = True
) -> list[tuple[int, str]]:
    """(bead index, new post-edit) for every bead whose post-edit contains ``find``.

    Raises ``re.error`` for a bad regular expression. Beads without a
    post-edit are left alone: their target is the interpreter's text.
    """
    if not find:
        return []
    flags = 0 if case_sensitive else re.IGNORECASE
    pattern = re.compile(find if regex else re.escape(find), flags)
    template = replace if regex else replace.replace("\\", "\\\\")
    result = []
    for i, bead in enumerate(beads):
        if bead.post_edit is None:
            continue
        new = pattern.sub(template, bead.post_edit)
        if new != bead.post_edit:
            result.append((i, new))
    return result


def _seconds_box(value: float | None) -> QDoubleSpinBox:
    box = QDoubleSpinBox()
    box.setDecimals(3)
    box.setRange(-_MAX_SECONDS, _MAX_SECONDS)
    box.setSingleStep(0.1)
    box.setSuffix(" s")
    box.setValue(value if value is not None else 0.0)
    return box


def _heading(dialog: QDialog, title: str) -> QLabel:
    """The dialog's question as a bold, wrapped line inside it: a window manager cuts a long title."""
    dialog.setWindowTitle(title)
    label = QLabel(title)
    label.setWordWrap(True)
    font = label.font()
    font.setBold(True)
    label.setFont(font)
    return label


class TextDialog(QDialog):
    """A segment's text, wrapped in a box wide enough for a sentence (F2, Edit text…)."""

    def __init__(self, title: str, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        heading = _heading(self, title)
        self.edit = QPlainTextEdit(text)
        self.edit.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.edit.setTabChangesFocus(True)
        metrics = self.edit.fontMetrics()
        # About 60 characters wide and five lines tall: a long sentence shows whole.
        self.edit.setMinimumSize(metrics.averageCharWidth() * 60, metrics.lineSpacing() * 5 + 12)
        hint = QLabel("Line breaks are kept in the segment's text; the table and exports show them as spaces.")
        hint.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(heading)
        layout.addWidget(self.edit, 1)
        layout.addWidget(hint)
        layout.addWidget(buttons)
        self.resize(max(self.sizeHint().width(), 560), self.sizeHint().height())

    def text(self) -> str:
        return self.edit.toPlainText()


class TimesDialog(QDialog):
    """A segment's start and end in seconds; OK only while 0 ≤ start < end."""

    def __init__(self, title: str, start: float | None, end: float | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        heading = _heading(self, title)
        self.start = _seconds_box(start)
        self.end = _seconds_box(end)
        self.message = QLabel("")
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #b00020;")
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        form.addRow(heading)
        form.addRow("Start", self.start)
        form.addRow("End", self.end)
        form.addRow(self.message)
        form.addRow(self.buttons)
        self.start.valueChanged.connect(self._check)
        self.end.valueChanged.connect(self._check)
        self._check()
        # Wide enough for the title in the window's own bar too (plus the frame's buttons).
        self.setMinimumWidth(max(320, self.fontMetrics().horizontalAdvance(title) + 140))

    def problem(self) -> str:
        """Why the times cannot be used, or ""."""
        return times_problem(self.start.value(), self.end.value())

    def _check(self) -> None:
        problem = self.problem()
        self.message.setText(problem)
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        if ok is not None:
            ok.setEnabled(not problem)


def times_problem(start: float, end: float) -> str:
    """Why ``start``–``end`` cannot be a segment's times (negative, or not ending after it starts), or ""."""
    if start < 0 or end < 0:
        return "Times cannot be negative."
    if not start < end:
        return "The segment must start before it ends."
    return ""


class ShiftDialog(QDialog):
    """Which side to shift and by how many seconds."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Shift times")
        self.side = QComboBox()
        self.side.addItem("Source", "src")
        self.side.addItem("Target (interpretation)", "tgt")
        self.offset = _seconds_box(0.0)
        self.offset.setToolTip("Positive moves later, negative earlier; times before 0 s become 0 s")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        form.addRow("Side", self.side)
        form.addRow("Offset", self.offset)
        form.addRow(buttons)


class FindReplaceDialog(QDialog):
    """Find and replace in post-edits, with the number of post-edits it would change."""

    def __init__(self, count: Callable[[str, str, bool], int | str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Find and replace in post-edits")
        self._count = count
        self.find_edit = QLineEdit()
        self.replace_edit = QLineEdit()
        self.regex = QCheckBox("Regular expression")
        self.preview = QLabel("")
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        if ok is not None:
            ok.setText("Replace all")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form = QFormLayout()
        form.addRow("Find", self.find_edit)
        form.addRow("Replace with", self.replace_edit)
        form.addRow(self.regex)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.preview)
        layout.addWidget(self.buttons)
        for signal in (self.find_edit.textChanged, self.replace_edit.textChanged, self.regex.toggled):
            signal.connect(self.update_preview)
        self.update_preview()

    def update_preview(self, *_: object) -> None:
        answer = self._count(self.find_edit.text(), self.replace_edit.text(), self.regex.isChecked())
        if isinstance(answer, str):
            self.preview.setText(answer)
            n = 0
        else:
            n = answer
            self.preview.setText(f"{n} post-edit{'s' if n != 1 else ''} would change" if self.find_edit.text() else "")
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        if ok is not None:
            ok.setEnabled(n > 0)


class ReviewQuestions:
    """Asks the reviewer for what a command needs; every method returns None when cancelled."""

    def __init__(self, parent: QWidget | None = None) -> None:
        self.parent = parent

    def segment_text(self, title: str, text: str) -> str | None:
        dialog = TextDialog(title, text, self.parent)
        return dialog.text() if dialog.exec() else None

    def segment_times(self, title: str, start: float | None, end: float | None) -> tuple[float, float] | None:
        dialog = TimesDialog(title, start, end, self.parent)
        if not dialog.exec():
            return None
        return dialog.start.value(), dialog.end.value()

    def shift(self) -> tuple[str, float] | None:
        dialog = ShiftDialog(self.parent)
        if not dialog.exec():
            return None
        return str(dialog.side.currentData()), dialog.offset.value()

    def find_replace(self, count: Callable[[str, str, bool], int | str]) -> tuple[str, str, bool] | None:
        dialog = FindReplaceDialog(count, self.parent)
        if not dialog.exec():
            return None
        return dialog.find_edit.text(), dialog.replace_edit.text(), dialog.regex.isChecked()


__all__ = [
    "FindReplaceDialog", "ReviewQuestions", "ShiftDialog", "TimesDialog", "post_edit_replacements",
    "times_problem",
]
