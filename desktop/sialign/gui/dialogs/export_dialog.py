"""The export dialog: format, which beads, where — and how many rows will go out.

The row count is exact: it comes from the writer itself, run into a scratch
file whenever an option changes (a few milliseconds for thousands of beads),
so the dialog never disagrees with the file it then writes atomically.

Every format of :data:`sialign.io.export_formats.EXPORT_FORMATS` is offered,
the subtitles of each side included. *Export* asks before replacing an
existing file or creating a missing folder, then writes the file; when that
fails the dialog stays open with its options and says why in one line. It
opens in the folder last exported to (``QSettings`` key ``export/last_dir``).
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QWidget,
)

from sialign.core.errors import SialignError
from sialign.core.model import Project, target_role
from sialign.core.plurals import count_noun
from sialign.gui.common.error_words import error_text
from sialign.gui.common.file_dialogs import export_file_name, remember_folder
from sialign.gui.common.form_layout import dialog_layout, grow_to_fit
from sialign.io.export_formats import EXPORT_FORMATS, ExportFormat, export_path
from sialign.workflows.outputs import check_not_an_input, project_inputs

# Every format the writers know, in the order of the registry.
FORMATS = list(EXPORT_FORMATS)
# The folder last exported to (see gui/common/file_dialogs.py, kind "export").
LAST_DIR_KEY = "last_dir/export"
ERROR_STYLE = "color: #b00020"


@dataclass(frozen=True)
class ExportOptions:
    path: str
    format: ExportFormat
    only_confirmed: bool
    include_dropped: bool
    links: bool = False


def export(project: Project, options: ExportOptions) -> int:
    """Write the alignment with ``options`` (atomically); returns the rows written."""
    from sialign.workflows.outputs import export as write_out

    written = write_out(project, options.path, format=options.format.key, only_confirmed=options.only_confirmed,
                        include_dropped=options.include_dropped, links=options.links and options.format.key in LINK_FORMATS)
    return written.beads or 0


# The formats that carry word links (a links column of the TSV, tokens and links in JSONL).
LINK_FORMATS = frozenset({"tsv", "jsonl"})


# Formats whose files hold the interpreter's text, and those that also hold it as said (target_original).
NO_TARGET_TEXT = frozenset({"align", "srt-source", "vtt-source"})
WITH_ORIGINAL = frozenset({"tsv", "jsonl"})


def target_text_note(project: Project, fmt: ExportFormat) -> str:
    """Which text of the interpretation (or translation) the format's ``target`` holds ("" for a format without one)."""
    if fmt.key in NO_TARGET_TEXT:
        return ""
    beads = project.alignment.beads if project.alignment is not None else []
    edited = sum(1 for b in beads if b.post_edit is not None)
    trimmed = sum(1 for b in beads if b.trimmed)
    role = target_role(project)
    said = "what the interpreter said" if role == "interpretation" else "what the translator wrote"
    text = f"Target text: the reviewer's post-edit where there is one, else the {role} without the trimmed fillers"
    text += f" ({count_noun(edited, 'post-edited bead')}, {trimmed} with trimmed fillers)."
    if fmt.key in WITH_ORIGINAL:
        text += f" The column target_original holds {said}: every chunk, no post-edit."
    else:
        text += f" {said[0].upper()}{said[1:]} as is goes only into TSV (all fields) and JSONL (target_original)."
    return text


def count_rows(project: Project, fmt: ExportFormat, *, only_confirmed: bool, include_dropped: bool) -> int:
    """How many rows an export with these options writes (by running the writer into a scratch file)."""
    with tempfile.TemporaryDirectory(prefix="sialign-count-") as scratch:
        path = str(Path(scratch) / f"count{fmt.suffix}")
        return export(project, ExportOptions(path, fmt, only_confirmed, include_dropped))


class ExportDialog(QDialog):
    """Choose format, options and file, and write it; :meth:`options` gives the choice.

    Attributes:
        rows_written: rows of the file *Export* wrote (None until then).
    """

    def __init__(self, project: Project, default_path: str, parent: QWidget | None = None,
                 settings: QSettings | None = None) -> None:
        super().__init__(parent)
        self._settings = settings or QSettings()
        self.rows_written: int | None = None
        last_dir = str(self._settings.value(LAST_DIR_KEY, "") or "")
        if last_dir and Path(last_dir).is_dir() and default_path:
            default_path = str(Path(last_dir) / Path(default_path).name)
        self.setWindowTitle("Export the alignment")
        self.setMinimumWidth(600)
        self.project = project
        self.format_box = QComboBox()
        for fmt in FORMATS:
            self.format_box.addItem(fmt.label)
        self.only_confirmed = QCheckBox("Only confirmed beads")
        self.only_confirmed.setToolTip("Leave out beads nobody has confirmed yet")
        self.include_dropped = QCheckBox("Include dropped beads (with their status and reason)")
        self.links = QCheckBox("Include word links (i-j pairs of source and interpretation words)")
        drawn = project.word_links is not None and bool(project.word_links.beads)
        self.links.setToolTip(
            "TSV: a last 'links' column; JSONL: the words of both sides and their links. "
            + ("Beads whose links are still being drawn get none." if drawn else "No links are drawn yet; they are drawn in the background after the talk opens.")
        )
        self.path_edit = QLineEdit(default_path)
        browse = QPushButton("Browse…")
        browse.clicked.connect(self.browse)
        path_row = QHBoxLayout()
        path_row.addWidget(self.path_edit, 1)
        path_row.addWidget(browse)
        self.count_label = QLabel("")
        self.target_note = QLabel("")
        self.target_note.setWordWrap(True)
        self.error_label = QLabel("")
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet(ERROR_STYLE)
        self.error_label.hide()
        form = QFormLayout()
        form.addRow("Format", self.format_box)
        form.addRow("", self.only_confirmed)
        form.addRow("", self.include_dropped)
        form.addRow("", self.links)
        form.addRow("", self.target_note)
        form.addRow("File", path_row)
        form.addRow("Rows", self.count_label)
        form.addRow("", self.error_label)
        self.buttons = dialog_layout(self, form, ok_text="Export")
        self.format_box.currentIndexChanged.connect(self._format_changed)
        self.only_confirmed.toggled.connect(self.update_count)
        self.include_dropped.toggled.connect(self.update_count)
        self.row_count = 0
        self.links.setEnabled(self.format.key in LINK_FORMATS)
        self._show_target_note()
        self.update_count()

    def _show_target_note(self) -> None:
        note = target_text_note(self.project, self.format)
        self.target_note.setText(note)
        self.target_note.setVisible(bool(note))

    @property
    def format(self) -> ExportFormat:
        return FORMATS[self.format_box.currentIndex()]

    def _format_changed(self) -> None:
        self.links.setEnabled(self.format.key in LINK_FORMATS)
        self._show_target_note()
        path = self.path_edit.text().strip()
        if path:
            self.path_edit.setText(str(export_path(path, self.format)))
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
            self.count_label.setText(f"{count_noun(self.row_count, 'row')} will be written.")

    def browse(self) -> None:
        path = export_file_name(self, "Export to", self.path_edit.text(), self.format.name, self.format.suffix)
        if path:
            self.path_edit.setText(path)

    def options(self) -> ExportOptions:
        return ExportOptions(
            path=self.path_edit.text().strip(),
            format=self.format,
            only_confirmed=self.only_confirmed.isChecked(),
            include_dropped=self.include_dropped.isChecked(),
            links=self.links.isChecked(),
        )

    def show_error(self, message: str) -> None:
        """One line under the options; the dialog stays open."""
        text = " ".join(message.split())
        self.error_label.setText(text)
        self.error_label.setToolTip(text)
        self.error_label.setVisible(bool(message))
        if message:
            grow_to_fit(self)  # a long path wraps over several lines: all of it shows

    def _ask(self, title: str, question: str, *, default_yes: bool) -> bool:
        """A Yes/No question; True when the answer is Yes (``default_yes``: the button Enter presses)."""
        yes, no = QMessageBox.StandardButton.Yes, QMessageBox.StandardButton.No
        return QMessageBox.question(self, title, question, yes | no, yes if default_yes else no) == yes

    def accept(self) -> None:
        """Ask before replacing a file or creating folders, write the export, close only when it worked."""
        self.show_error("")
        text = self.path_edit.text().strip()
        if not text:
            self.show_error("Choose a file to export to.")
            return
        path = Path(text).expanduser()
        if path.is_dir():
            self.show_error(f"{path} is a folder; add a file name.")
            return
        try:
            check_not_an_input(path, project_inputs(self.project), "The export")
        except SialignError as exc:
            self.show_error(error_text(exc))
            return
        if path.exists():
            if not self._ask("Replace the file?", f"{path.name} already exists in {path.parent}.\nReplace it?", default_yes=False):
                return
        elif not path.parent.is_dir():
            blocking = next((p for p in path.parents if p.exists() and not p.is_dir()), None)
            if blocking is not None:
                self.show_error(f"{blocking} is a file, not a folder; choose another folder.")
                return
            missing = next((p for p in reversed(path.parents) if not p.exists()), path.parent)
            if not self._ask("Create the folder?", f"The folder {missing} does not exist.\nCreate {path.parent} and export there?", default_yes=True):
                return
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                self.show_error(f"Cannot create {path.parent}: {exc.strerror or exc}")
                return
        options = ExportOptions(str(path), self.format, self.only_confirmed.isChecked(), self.include_dropped.isChecked(),
                                self.links.isChecked())
        try:
            self.rows_written = export(self.project, options)
        except (SialignError, OSError) as exc:
            detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            self.show_error(f"Export failed: {detail}")
            return
        self.path_edit.setText(str(path))
        remember_folder(path, "export", self._settings)
        super().accept()
