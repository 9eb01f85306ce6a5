"""*Preferences…*: the settings the app keeps in QSettings."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QDialog, QDoubleSpinBox, QFormLayout, QSpinBox, QWidget

from sialign.core.bead_summary import DEFAULT_LOW_CONFIDENCE
from sialign.gui.common.form_layout import dialog_layout


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
