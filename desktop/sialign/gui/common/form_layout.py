"""The parts the project dialogs share: a form whose fields grow with the dialog, and a message line for errors."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtWidgets import QFormLayout, QLabel, QWidget

ERROR_COLOUR = "#b00020"


def growing_form(rows: Iterable[tuple[str, QWidget]]) -> QFormLayout:
    """A form of ``(label, field)`` rows whose fields take the dialog's width."""
    form = QFormLayout()
    form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
    for label, field in rows:
        form.addRow(label, field)
    return form


def error_message() -> QLabel:
    """An empty, word-wrapped line in the error colour, for what keeps a dialog from its OK."""
    message = QLabel("")
    message.setWordWrap(True)
    message.setStyleSheet(f"color: {ERROR_COLOUR};")
    return message
