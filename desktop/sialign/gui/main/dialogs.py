"""Small dialogs: split a bead, preferences."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QLayout,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from sialign.core.model import Bead, Project, join_segments
from sialign.gui.table.table_model import DEFAULT_LOW_CONFIDENCE


class SplitBeadDialog(QDialog):
    """Choose how many source and target segments go into the first half of a bead."""

    def __init__(self, project: Project, index: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        assert project.alignment is not None
        self.project = project
        self.index = index
        self.bead: Bead = project.alignment.beads[index]
        self.setWindowTitle(f"Split bead {index + 1}")
        self.setMinimumWidth(560)
        self.src_count = QSpinBox()
        self.src_count.setRange(0, len(self.bead.src))
        self.src_count.setValue(min(1, len(self.bead.src)) if len(self.bead.src) > 1 else len(self.bead.src))
        self.tgt_count = QSpinBox()
        self.tgt_count.setRange(0, len(self.bead.tgt))
        self.tgt_count.setValue(max(0, len(self.bead.tgt) // 2) if len(self.bead.tgt) > 1 else len(self.bead.tgt))
        self.first = QLabel()
        self.second = QLabel()
        for label in (self.first, self.second):
            label.setWordWrap(True)
        self.problem = QLabel()
        self.problem.setStyleSheet("color: #b00020;")
        form = QFormLayout()
        form.addRow("Source segments in the first bead", self.src_count)
        form.addRow("Target segments in the first bead", self.tgt_count)
        form.addRow("First bead", self.first)
        form.addRow("Second bead", self.second)
        self.buttons = dialog_layout(self, form, self.problem)
        self.src_count.valueChanged.connect(self._preview)
        self.tgt_count.valueChanged.connect(self._preview)
        self._preview()

    def _side_text(self, ids: tuple[int, ...], side: str) -> str:
        doc = self.project.document(side)
        return join_segments(doc, ids, collapse=False) or "∅"

    def _preview(self) -> None:
        s, t = self.src_count.value(), self.tgt_count.value()
        b = self.bead
        self.first.setText(f"{self._side_text(b.src[:s], 'src')}\n→ {self._side_text(b.tgt[:t], 'tgt')}")
        self.second.setText(f"{self._side_text(b.src[s:], 'src')}\n→ {self._side_text(b.tgt[t:], 'tgt')}")
        empty = (s == 0 and t == 0) or (s == len(b.src) and t == len(b.tgt))
        self.problem.setText("Each half needs at least one segment." if empty else "")
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(not empty)

    def counts(self) -> tuple[int, int]:
        return self.src_count.value(), self.tgt_count.value()


def dialog_layout(dialog: QDialog, *parts: QLayout | QWidget, ok_text: str | None = None) -> QDialogButtonBox:
    """Lay ``parts`` out top to bottom above OK/Cancel buttons wired to accept/reject; returns the buttons."""
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
    if ok_text:
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(ok_text)
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    layout = QVBoxLayout(dialog)
    for part in parts:
        if isinstance(part, QLayout):
            layout.addLayout(part)
        else:
            layout.addWidget(part)
    layout.addWidget(buttons)
    return buttons


def grow_to_fit(dialog: QDialog) -> None:
    """Make ``dialog`` tall enough for its word-wrapped messages at its current width (it never shrinks).

    A label's wrapped height is known only once its width is: call this
    after changing a message in a dialog that is already shown.
    """
    layout = dialog.layout()
    if layout is None:
        return
    layout.activate()
    needed = layout.totalHeightForWidth(dialog.width()) if layout.hasHeightForWidth() else layout.totalSizeHint().height()
    if needed > dialog.height():
        from sialign.gui.common.screen_fit import fit_to_screen

        dialog.resize(dialog.width(), needed)
        fit_to_screen(dialog)  # never past the screen's edge: the dialog's contents scroll instead


@dataclass
class Preferences:
    """GUI preferences kept in ``QSettings`` (alignment parameters live in the project)."""

    low_confidence: float = DEFAULT_LOW_CONFIDENCE
    autosave_minutes: int = 3

    @classmethod
    def load(cls, settings: QSettings) -> Preferences:
        d = cls()
        try:
            low = float(str(settings.value("prefs/low_confidence", d.low_confidence)))
            minutes = int(str(settings.value("prefs/autosave_minutes", d.autosave_minutes)))
        except (TypeError, ValueError):
            low, minutes = d.low_confidence, d.autosave_minutes
        return cls(low_confidence=low, autosave_minutes=max(0, minutes))

    def save(self, settings: QSettings) -> None:
        settings.setValue("prefs/low_confidence", self.low_confidence)
        settings.setValue("prefs/autosave_minutes", self.autosave_minutes)


class PreferencesDialog(QDialog):
    """Edit :class:`Preferences`."""

    def __init__(self, prefs: Preferences, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Preferences")
        self.low = QDoubleSpinBox()
        self.low.setRange(0.0, 2.0)
        self.low.setSingleStep(0.05)
        self.low.setDecimals(2)
        self.low.setValue(prefs.low_confidence)
        self.low.setToolTip("Beads costing more than this are shown in red and found by 'Next low-confidence'")
        self.autosave = QSpinBox()
        self.autosave.setRange(0, 60)
        self.autosave.setSuffix(" min")
        self.autosave.setSpecialValueText("never")
        self.autosave.setValue(prefs.autosave_minutes)
        form = QFormLayout()
        form.addRow("Low-confidence cost above", self.low)
        form.addRow("Autosave every", self.autosave)
        dialog_layout(self, form)

    def preferences(self) -> Preferences:
        return Preferences(
            low_confidence=self.low.value(),
            autosave_minutes=self.autosave.value(),
        )
