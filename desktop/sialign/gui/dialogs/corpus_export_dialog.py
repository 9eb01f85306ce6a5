"""The corpus window's *Export…*: every aligned talk in one file, with the options of ``sialign corpus export``.

The format is one of the registry's pooling formats
(:data:`sialign.io.export_formats.POOLED_FORMATS`: tsv, tsv2, jsonl, tmx),
the talks all aligned ones or those of one split (``splits.json``, else the
manifest's column: the CLI's ``--split``), with *Only confirmed beads* as
``--only-confirmed``. The dialog shows how many talks go out, checks what it
can at once (a file name, an existing folder, not a file the corpus stands
on), asks before replacing a file, and then leaves the writing to the corpus
window, which runs :func:`sialign.corpus.outputs.export_corpus` (the CLI's
use case) in the background. What it could not accept is said in one line
and the dialog stays open.

The last format, split and *Only confirmed beads* are remembered in
``QSettings`` (``corpus_export/...``), and the folder last exported to
(``last_dir/corpus_export``) is where the next export is proposed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSizePolicy,
    QWidget,
)

from sialign.core.errors import SialignError
from sialign.core.plurals import count_noun
from sialign.gui.common.error_words import error_text
from sialign.gui.common.file_dialogs import export_file_name, remember_folder
from sialign.gui.common.form_layout import dialog_layout, error_message, grow_to_fit, growing_form
from sialign.io.export_formats import POOLED_FORMATS, ExportFormat, export_format, export_path

FORMATS: list[ExportFormat] = [export_format(key) for key in POOLED_FORMATS]
ALL_TALKS = "All aligned talks"
# The file dialogs' kind (gui/common/file_dialogs.py) and the choices remembered for the next export.
FOLDER_KIND = "corpus_export"
LAST_DIR_KEY = f"last_dir/{FOLDER_KIND}"
FORMAT_KEY = "corpus_export/format"
SPLIT_KEY = "corpus_export/split"
ONLY_CONFIRMED_KEY = "corpus_export/only_confirmed"


@dataclass(frozen=True)
class CorpusExportOptions:
    """What ``sialign corpus export`` is given: ``-o``, ``-f``, ``--split`` (None: every talk) and ``--only-confirmed``."""

    path: str
    format: str
    split: str | None = None
    only_confirmed: bool = False


def default_name(folder: Path, fmt: ExportFormat, split: str | None) -> str:
    """``corpus.train.pairs.tsv``: the corpus folder's name, the split, the format's tag and suffix."""
    return (folder.name or "corpus") + (f".{split}" if split else "") + fmt.name_tag + fmt.suffix


class CorpusExportDialog(QDialog):
    """Choose format, split, beads and file for a corpus export; :meth:`options` gives the choice once accepted."""

    def __init__(self, folder: str | Path, parent: QWidget | None = None, settings: QSettings | None = None) -> None:
        from sialign.corpus.outputs import split_names

        super().__init__(parent)
        self.folder = Path(folder)
        self._settings = settings if settings is not None else QSettings()
        self.setWindowTitle("Export the corpus")
        self.setMinimumWidth(640)
        self.format_box = QComboBox()
        for fmt in FORMATS:
            self.format_box.addItem(fmt.label, fmt.key)
        self.split_box = QComboBox()
        self.split_box.addItem(ALL_TALKS, None)
        try:
            splits = split_names(self.folder)
        except SialignError:
            splits = []  # a damaged splits file: the talks row says so
        for name in splits:
            self.split_box.addItem(name, name)
        self.split_box.setToolTip("Only the talks of one split (sialign corpus split, or the manifest's split column)")
        self.only_confirmed = QCheckBox("Only confirmed beads")
        self.only_confirmed.setToolTip("Leave out beads nobody has confirmed yet (--only-confirmed)")
        self.path_edit = QLineEdit()
        browse = QPushButton("Browse…")
        browse.clicked.connect(self.browse)
        path_row = QHBoxLayout()
        path_row.setContentsMargins(0, 0, 0, 0)
        path_row.addWidget(self.path_edit, 1)
        path_row.addWidget(browse)
        path_box = QWidget()
        path_box.setLayout(path_row)
        self.talks_label = QLabel("")
        self.talks_label.setWordWrap(True)
        self.error_label = error_message()
        self.error_label.hide()
        for label in (self.talks_label, self.error_label):
            # A long path in a message wraps or is cut at the edge (whole in the tooltip); it never widens the dialog off screen.
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        form = growing_form([("Format", self.format_box), ("Split", self.split_box), ("", self.only_confirmed),
                             ("File", path_box), ("", self.talks_label)])
        self.buttons = dialog_layout(self, form, self.error_label, ok_text="Export")
        self._restore()
        self._proposed = self._propose(self._start_folder())
        self.format_box.currentIndexChanged.connect(self._format_changed)
        self.split_box.currentIndexChanged.connect(self._split_changed)
        self.update_talks()

    # -- choices -------------------------------------------------------------
    @property
    def format(self) -> ExportFormat:
        return FORMATS[max(self.format_box.currentIndex(), 0)]

    @property
    def split(self) -> str | None:
        value = self.split_box.currentData()
        return str(value) if value else None

    def _restore(self) -> None:
        """The format, split and beads of the last export (a split this corpus lacks falls back to every talk)."""
        keys = [f.key for f in FORMATS]
        fmt = str(self._settings.value(FORMAT_KEY, "") or "")
        self.format_box.setCurrentIndex(keys.index(fmt) if fmt in keys else 0)
        split = str(self._settings.value(SPLIT_KEY, "") or "")
        self.split_box.setCurrentIndex(max(self.split_box.findData(split), 0) if split else 0)
        self.only_confirmed.setChecked(str(self._settings.value(ONLY_CONFIRMED_KEY, "false")).lower() == "true")

    def _remember(self, options: CorpusExportOptions) -> None:
        self._settings.setValue(FORMAT_KEY, options.format)
        self._settings.setValue(SPLIT_KEY, options.split or "")
        self._settings.setValue(ONLY_CONFIRMED_KEY, "true" if options.only_confirmed else "false")
        remember_folder(options.path, FOLDER_KIND, self._settings)

    def _start_folder(self) -> Path:
        """The folder last exported to, else the one holding the corpus folder."""
        remembered = str(self._settings.value(LAST_DIR_KEY, "") or "")
        if remembered and Path(remembered).is_dir():
            return Path(remembered)
        return self.folder.parent

    def _propose(self, folder: Path) -> str:
        """Put the default name for the current choices in ``folder`` into the file field; returns it."""
        proposed = str(folder / default_name(self.folder, self.format, self.split))
        self.path_edit.setText(proposed)
        return proposed

    def _format_changed(self) -> None:
        self._follow_choices()

    def _split_changed(self) -> None:
        self._follow_choices()
        self.update_talks()

    def _follow_choices(self) -> None:
        """A proposed name follows the format and split; a name the user typed keeps its stem and takes the suffix."""
        text = self.path_edit.text().strip()
        if not text or text == self._proposed:
            self._proposed = self._propose(Path(text).parent if text else self._start_folder())
        else:
            self.path_edit.setText(str(export_path(text, self.format)))

    def update_talks(self) -> None:
        """Say how many talks go out with the chosen split, or why none does (Export is then off)."""
        from sialign.corpus.outputs import export_talks

        try:
            talks = export_talks(self.folder, self.split)
        except SialignError as exc:
            self.talks_label.setText(" ".join(error_text(exc).split()))
            self.talks_label.setStyleSheet(self.error_label.styleSheet())
            self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(False)
            return
        self.talks_label.setStyleSheet("")
        self.talks_label.setText(f"{count_noun(len(talks), 'aligned talk')} will be written, one after the other.")
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(True)

    def browse(self) -> None:
        path = export_file_name(self, "Export the corpus to", self.path_edit.text(), self.format.name, self.format.suffix)
        if path:
            self.path_edit.setText(path)

    def options(self) -> CorpusExportOptions:
        return CorpusExportOptions(str(Path(self.path_edit.text().strip()).expanduser()), self.format.key, self.split,
                                   self.only_confirmed.isChecked())

    # -- accepting ------------------------------------------------------------
    def show_error(self, message: str) -> None:
        """One line under the options; the dialog stays open."""
        text = " ".join(message.split())
        self.error_label.setText(text)
        self.error_label.setToolTip(text)
        self.error_label.setVisible(bool(text))
        if text:
            grow_to_fit(self)

    def accept(self) -> None:
        """Check the choice (talks to export, a file in an existing folder, not one the corpus reads), ask before replacing."""
        from sialign.corpus.outputs import corpus_files, export_talks
        from sialign.workflows.outputs import check_not_an_input, check_output_folder

        self.show_error("")
        text = self.path_edit.text().strip()
        if not text:
            self.show_error("Choose a file to export to.")
            return
        path = Path(text).expanduser()
        try:
            if path.is_dir():
                self.show_error(f"{path} is a folder; add a file name.")
                return
            blocking = next((p for p in path.parents if p.exists() and not p.is_dir()), None)
            if blocking is not None:
                self.show_error(f"{blocking} is a file, not a folder; choose another folder.")
                return
            export_talks(self.folder, self.split)
            check_output_folder(str(path), "the export")
            check_not_an_input(path, corpus_files(self.folder, "this corpus"), "The export")
            exists = path.exists()
        except SialignError as exc:
            self.show_error(error_text(exc))
            return
        except OSError as exc:  # a name too long, a folder that cannot be looked into
            self.show_error(f"{path}: {exc.strerror or exc} — choose another file.")
            return
        if exists and QMessageBox.question(
            self, "Replace the file?", f"{path.name} already exists in {path.parent}.\nReplace it?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No,
        ) != QMessageBox.StandardButton.Yes:
            return
        self.path_edit.setText(str(path))
        self._remember(self.options())
        super().accept()


__all__ = ["ALL_TALKS", "FORMATS", "CorpusExportDialog", "CorpusExportOptions", "default_name"]
