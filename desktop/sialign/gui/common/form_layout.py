"""The parts the dialogs share: a form whose fields grow with the dialog, a message line for errors, OK/Cancel below the parts, and growing to fit a wrapped message."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLabel, QLayout, QVBoxLayout, QWidget

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
