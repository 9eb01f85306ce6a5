"""Settings → Alignment…: what kind of target the talk has, as the aligner should read it.

Two choices, saved with the project (its alignment parameters):

- *Target units*: the interpreter's chunks or sentences (the cost preset and
  the learned second pass's features; automatic by the segment counts);
- *Target is*: an interpretation or a written translation (which learned
  weights score sentence targets; automatic from the talk's timestamps and
  recordings). A line under it says what the automatic choice makes of the
  open talk, and why.

Accepting changes the project by one undoable edit
(:func:`sialign.workflows.aligning.alignment_settings_edit`); the talk is
aligned with them at the next *Align*.
"""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QDialog, QLabel, QWidget

from sialign.core.model import Project
from sialign.gui.common.form_layout import dialog_layout, growing_form
from sialign.workflows.aligning import TARGET_UNITS_CHOICES, TEXT_KIND_CHOICES, align_params, text_kind_note


def _choice_box(choices: dict[str, str], current: str, tip: str) -> QComboBox:
    box = QComboBox()
    for value, words in choices.items():
        box.addItem(words, value)
    box.setCurrentIndex(max(box.findData(current), 0))
    box.setToolTip(tip)
    return box


class AlignmentSettingsDialog(QDialog):
    """Choose the talk's target units and text kind; :meth:`choices` returns them after the dialog was accepted."""

    def __init__(self, project: Project, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Alignment settings")
        self.setMinimumWidth(560)
        self.project = project
        params = align_params(project)
        self.target_units = _choice_box(
            TARGET_UNITS_CHOICES, params.target_units,
            "How the target is cut: an interpreter's chunks (several to a source sentence) or sentences",
        )
        self.text_kind = _choice_box(
            TEXT_KIND_CHOICES, params.text_kind,
            "Which learned weights score sentence targets: those fitted on interpreted speeches, or those fitted "
            "on a written translation and speeches together. Chunks have weights of their own.",
        )
        self.note = QLabel("")
        self.note.setWordWrap(True)
        self.text_kind.currentIndexChanged.connect(self._update_note)
        self.target_units.currentIndexChanged.connect(self._update_note)
        self._update_note()
        form = growing_form([("Target units", self.target_units), ("Target is", self.text_kind), ("", self.note)])
        dialog_layout(self, form, ok_text="Save")

    def choices(self) -> tuple[str, str]:
        """The chosen target units and text kind (``AlignParams`` values)."""
        return str(self.target_units.currentData()), str(self.text_kind.currentData())

    def _update_note(self) -> None:
        units, kind = self.choices()
        note = text_kind_note(self.project, text_kind=kind)
        if units == "chunks":
            note += " Chunks are scored with weights of their own, whatever the kind."
        self.note.setText(note + " Used at the next Align (Ctrl+R).")
