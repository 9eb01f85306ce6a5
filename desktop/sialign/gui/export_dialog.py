"""The export dialog: format, which beads, where — and how many rows will go out.

The row count is exact: it comes from the writer itself, run into a scratch
file whenever an option changes (a few milliseconds for thousands of beads),
so the dialog never disagrees with the file it then writes atomically.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtWidgets import (
    QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFileDialog, QFormLayout, QHBoxLayout, QLabel, QLineEdit,
    QPushButton, QWidget,
)

from sialign.core.errors import SialignError
from sialign.core.model import Project
from sialign.gui.dialogs import dialog_layout
from sialign.io.export_formats import EXPORT_FORMATS, ExportFormat


# Every format the writers know, in the order of the registry.
FORMATS = list(EXPORT_FORMATS)


@dataclass(frozen=True)
class ExportOptions:
    path: str
    format: ExportFormat
    only_confirmed: bool
    include_dropped: bool


def export(project: Project, options: ExportOptions) -> int:
    """Write the alignment with ``options`` (atomically); returns the rows written."""
    from sialign.io.writers import write_alignment

    return write_alignment(
        project,
        options.path,
        format=options.format.key,
        only_confirmed=options.only_confirmed,
        include_dropped=options.include_dropped,
    )


def count_rows(project: Project, fmt: ExportFormat, *, only_confirmed: bool, include_dropped: bool) -> int:
    """How many rows an export with these options writes (by running the writer into a scratch file)."""
    with tempfile.TemporaryDirectory(prefix="sialign-count-") as scratch:
        path = str(Path(scratch) / f"count{fmt.suffix}")
        return export(project, ExportOptions(path, fmt, only_confirmed, include_dropped))


class ExportDialog(QDialog):
    """Choose format, options and file; :meth:`options` gives the choice."""

    def __init__(self, project: Project, default_path: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Export the alignment")
        self.setMinimumWidth(600)
        self.project = project
        self.format_box = QComboBox()
        for fmt in FORMATS:
            self.format_box.addItem(fmt.label)
        self.only_confirmed = QCheckBox("Only confirmed beads")
        self.only_confirmed.setToolTip("Leave out beads nobody has confirmed yet")
        self.include_dropped = QCheckBox("Include dropped beads (with their status and reason)")
        self.path_edit = QLineEdit(default_path)
        browse = QPushButton("Browse…")
        browse.clicked.connect(self.browse)
        path_row = QHBoxLayout()
        path_row.addWidget(self.path_edit, 1)
        path_row.addWidget(browse)
        self.count_label = QLabel("")
        form = QFormLayout()
        form.addRow("Format", self.format_box)
        form.addRow("", self.only_confirmed)
        form.addRow("", self.include_dropped)
        form.addRow("File", path_row)
        form.addRow("Rows", self.count_label)
        self.buttons = dialog_layout(self, form, ok_text="Export")
        self.format_box.currentIndexChanged.connect(self._format_changed)
        self.only_confirmed.toggled.connect(self.update_count)
        self.include_dropped.toggled.connect(self.update_count)
        self.row_count = 0
        self.update_count()

    @property
    def format(self) -> ExportFormat:
        return FORMATS[self.format_box.currentIndex()]

    def _format_changed(self) -> None:
        path = self.path_edit.text().strip()
        if path:
            self.path_edit.setText(str(Path(path).with_suffix(self.format.suffix)))
        self.update_count()

    def update_count(self) -> None:
        try:
            self.row_count = count_rows(
                self.project,
                self.format,
                only_confirmed=self.only_confirmed.isChecked(),
                include_dropped=self.include_dropped.isChecked(),
            )
        except SialignError as exc:
            self.row_count = 0
            self.count_label.setText(f"Cannot export: {exc}")
            self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(False)
            return
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(self.row_count > 0)
        if self.row_count == 0:
            self.count_label.setText("No bead matches these options; nothing would be written.")
        else:
            self.count_label.setText(f"{self.row_count} rows will be written.")

    def browse(self) -> None:
        fmt = self.format
        path, _ = QFileDialog.getSaveFileName(
            self, "Export to", self.path_edit.text(), f"{fmt.name} (*{fmt.suffix});;All files (*)"
        )
        if path:
            self.path_edit.setText(path)

    def options(self) -> ExportOptions:
        return ExportOptions(
            path=self.path_edit.text().strip(),
            format=self.format,
            only_confirmed=self.only_confirmed.isChecked(),
            include_dropped=self.include_dropped.isChecked(),
        )

    def accept(self) -> None:
        if not self.path_edit.text().strip():
            self.count_label.setText("Choose a file to export to.")
            return
        super().accept()
