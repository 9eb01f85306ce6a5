"""*Split bead…*: how many source and target segments go to the first part."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLabel, QSpinBox, QWidget

from sialign.core.model import Bead, Project, join_segments
from sialign.gui.common.form_layout import dialog_layout


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
