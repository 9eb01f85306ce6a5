"""*File → New corpus…*: a folder of transcripts becomes a manifest and a corpus, without the command line.

The user chooses a folder; :func:`~sialign.corpus.propose.propose_manifest`
pairs its files into talks and the rows show in an editable table (talk id,
files, languages, interpreter). Enter in the folder field scans the folder
and shows the table; nothing is written until *Save manifest and align*,
which writes ``manifest.tsv`` in that folder, checks it as ``sialign corpus
align`` would, and the main window then aligns it in the corpus window with
progress and Cancel, with the options chosen here (the CLI's ``--jobs``,
``--filters``, ``--learned``).

A folder the user cannot write to, or one that belongs to another user (a
shared data folder), gets nothing written into it by default: the corpus
folder is proposed under the home folder (:data:`CORPORA_HOME`), the
manifest goes there with absolute paths, and writing into the shared folder
anyway is asked first.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from sialign.core.errors import SialignError
from sialign.gui.common.file_dialogs import existing_folder
from sialign.gui.common.form_layout import dialog_layout, error_message, growing_form

MANIFEST_NAME = "manifest.tsv"
CORPUS_SUBFOLDER = "corpus"
# Where corpora of read-only or shared folders go by default (one folder per source folder).
CORPORA_HOME = Path("~") / "SI Aligner corpora"


def not_ours(folder: Path) -> str:
    """Why nothing should be written into ``folder`` by default ("" when it is the user's own)."""
    if not os.access(folder, os.W_OK):
        return "is read-only"
    getuid = getattr(os, "getuid", None)
    try:
        if getuid is not None and folder.stat().st_uid != getuid():
            return "belongs to another user"
    except OSError:
        return "cannot be read"
    return ""


@dataclass(frozen=True)
class CorpusRun:
    """What the dialog asks for: the manifest saved, the corpus folder and the CLI's options."""

    manifest: Path
    output: Path
    jobs: int = 1
    filters: list[str] = field(default_factory=list)


def _absolute(row: list[str], folder: Path) -> list[str]:
    """``row`` with its file cells made absolute paths (relative ones are relative to ``folder``)."""
    from sialign.corpus.propose import COLUMNS

    files = {"source", "target", "reference", "source_audio", "target_audio"}
    return [str((folder / cell).resolve()) if name in files and cell.strip() and not Path(cell).expanduser().is_absolute()
            else cell for name, cell in zip(COLUMNS, row)]


class NewCorpusDialog(QDialog):
    """Choose a folder, edit the proposed manifest, choose the options; :meth:`run` says what to align."""

    def __init__(self, parent: QWidget | None = None, *, settings: QSettings | None = None) -> None:
        from sialign.corpus.propose import COLUMNS

        super().__init__(parent)
        self.setWindowTitle("New corpus")
        self.settings = settings
        self.folder = QLineEdit()
        self.folder.setPlaceholderText("the folder holding the talks' transcripts (and audio)")
        self.folder.setToolTip("Type a folder and press Enter (or Browse…) to find its talks; nothing is written yet")
        # Enter scans the folder (editingFinished follows returnPressed); it never presses the dialog's button.
        self.folder.editingFinished.connect(self._folder_edited)
        self._scanned = ""  # the folder whose talks the table shows
        browse = QPushButton("Browse…")
        browse.clicked.connect(self.browse)
        folder_row = QHBoxLayout()
        folder_row.addWidget(self.folder, 1)
        folder_row.addWidget(browse)
        folder_box = QWidget()
        folder_box.setLayout(folder_row)
        folder_row.setContentsMargins(0, 0, 0, 0)
        self.source_language = QComboBox()
        self.source_language.setToolTip("The language of the speeches: files named <talk>.<this language>.<ext> are the sources")
        self.source_language.currentTextChanged.connect(lambda _t: self._propose())
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(list(COLUMNS))
        self.table.setToolTip("The proposed manifest: edit any cell; paths are relative to the folder")
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setMinimumHeight(120)
        remove = QPushButton("Remove talk")
        remove.setToolTip("Leave the selected talks out of the manifest")
        remove.clicked.connect(self._remove_selected)
        self.found = QLabel("")
        found_row = QHBoxLayout()
        found_row.addWidget(self.found, 1)
        found_row.addWidget(remove)
        self.output = QLineEdit()
        self.output.setToolTip("Where the talks' projects and corpus.json are written (created when missing)")
        self.jobs = QSpinBox()
        self.jobs.setRange(1, max(1, os.cpu_count() or 1))
        self.jobs.setToolTip("Talks aligned at once, each in its own process (sialign corpus align --jobs)")
        self.intra = QCheckBox("intra")
        self.intra.setToolTip("Flag or drop beads whose halves do not match inside (--filters intra)")
        self.inter = QCheckBox("inter")
        self.inter.setToolTip("Flag or drop beads that fit a neighbour better (--filters inter)")
        self.learned = QCheckBox("learned doubt")
        self.learned.setToolTip("Score each bead's doubt with the learned filter and drop the most doubtful (--learned)")
        filters_row = QHBoxLayout()
        for box in (self.intra, self.inter, self.learned):
            filters_row.addWidget(box)
        filters_row.addStretch(1)
        filters_box = QWidget()
        filters_box.setLayout(filters_row)
        filters_row.setContentsMargins(0, 0, 0, 0)
        self.form = growing_form([("Folder", folder_box), ("Source language", self.source_language)])
        self.form.setRowVisible(self.source_language, False)  # shown with the languages of a folder
        self.output_note = QLabel("")
        self.output_note.setWordWrap(True)
        self.output_note.hide()
        options = growing_form([("Corpus folder", self.output), ("", self.output_note), ("Talks at once", self.jobs),
                                ("Filters", filters_box)])
        self.message = error_message()
        self.buttons = dialog_layout(self, self.form, self.table, found_row, options, self.message, ok_text="Save manifest and align")
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(False)
        self.resize(980, 620)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        # Enter in a field (the folder above all) never presses "Save manifest and align": in the folder
        # field it scans (editingFinished), elsewhere it does nothing; the button takes a click or Space.
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not isinstance(self.focusWidget(), QPushButton):
            event.accept()
            return
        super().keyPressEvent(event)

    # -- the folder and its proposal ----------------------------------------
    def browse(self) -> None:
        folder = existing_folder(self, "Folder of transcripts", kind="corpus", settings=self.settings)
        if folder:
            self.set_folder(folder)

    def _folder_edited(self) -> None:
        # Leaving the field without changing it keeps the table as edited.
        if self.folder.text().strip() != self._scanned:
            self.set_folder(self.folder.text())

    def set_folder(self, folder: str) -> None:
        """Propose the manifest of ``folder`` (the talks found there) and a corpus folder (inside it when it is the user's)."""
        from sialign.corpus.propose import languages_in

        folder = folder.strip()
        self._scanned = folder
        self.folder.setText(folder)
        if not folder or not Path(folder).is_dir():
            self._show_rows([])
            self.message.setText(f"{folder}: no such folder — choose the folder holding the transcripts" if folder else "")
            return
        why = not_ours(Path(folder))
        if why:
            out = CORPORA_HOME.expanduser() / (Path(folder).resolve().name or "corpus")
            self.output.setText(str(out))
            self.output_note.setText(f"{folder} {why}: the manifest and the projects go to this corpus folder instead "
                                     "(change it if you like).")
        else:
            self.output.setText(str(Path(folder) / CORPUS_SUBFOLDER))
        self.output_note.setVisible(bool(why))
        self.source_language.blockSignals(True)
        self.source_language.clear()
        self.source_language.addItems(languages_in(folder))
        self.form.setRowVisible(self.source_language, self.source_language.count() > 0)
        self.source_language.blockSignals(False)
        self._propose()

    def _propose(self) -> None:
        from sialign.corpus.propose import propose_manifest

        folder = self.folder.text().strip()
        if not folder or not Path(folder).is_dir():
            return
        rows = propose_manifest(folder, self.source_language.currentText())
        self._show_rows([r.row() for r in rows])
        self.message.setText("" if rows else (
            f"No talks found in {folder}: name the files <talk>.<lang>.<ext> (ted_42.en.srt and ted_42.ja.srt) "
            "or put each talk in its own folder as src.* and tgt.*; or add rows and type the paths."))

    def _show_rows(self, rows: list[list[str]]) -> None:
        self.table.setRowCount(0)
        for cells in rows:
            r = self.table.rowCount()
            self.table.insertRow(r)
            for c, text in enumerate(cells):
                self.table.setItem(r, c, QTableWidgetItem(text))
        self.table.resizeColumnsToContents()
        n = len(rows)
        self.found.setText(f"{n} talk{'s' if n != 1 else ''} found — edit any cell before saving" if n else "")
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(n > 0)

    def _remove_selected(self) -> None:
        for r in sorted({i.row() for i in self.table.selectedIndexes()}, reverse=True):
            self.table.removeRow(r)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(self.table.rowCount() > 0)

    def rows(self) -> list[list[str]]:
        """The table's rows as edited, cells in :data:`~sialign.corpus.propose.COLUMNS` order."""
        rows = []
        for r in range(self.table.rowCount()):
            cells = []
            for c in range(self.table.columnCount()):
                item = self.table.item(r, c)
                cells.append(item.text() if item is not None else "")
            rows.append(cells)
        return rows

    # -- result -------------------------------------------------------------
    def filters(self) -> list[str]:
        """The filters in the order ``sialign corpus align`` passes them."""
        return sorted(name for name, box in (("intra", self.intra), ("inter", self.inter)) if box.isChecked()) + (
            ["learned"] if self.learned.isChecked() else []
        )

    def accept(self) -> None:
        from sialign.corpus.manifest import read_manifest
        from sialign.corpus.propose import write_manifest

        folder = Path(self.folder.text().strip())
        if not self.output.text().strip():
            self.message.setText("Choose the corpus folder the projects are written to.")
            return
        output = Path(self.output.text().strip()).expanduser()
        rows = self.rows()
        why = not_ours(folder)
        manifest = folder / MANIFEST_NAME
        if why:
            # The manifest goes beside the projects, its paths made absolute (they were relative to the folder).
            manifest = output / MANIFEST_NAME
            rows = [_absolute(row, folder) for row in rows]
            inside = output.resolve() == folder.resolve() or folder.resolve() in output.resolve().parents
            if inside and QMessageBox.question(
                self, "Write into the folder?", f"{folder} {why}. Write the corpus into it anyway ({output})?",
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No,
            ) != QMessageBox.StandardButton.Yes:
                return
        if manifest.exists() and QMessageBox.question(
            self, "Replace the manifest?", f"{manifest} exists. Replace it with the table shown?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        ) != QMessageBox.StandardButton.Yes:
            return
        try:
            manifest.parent.mkdir(parents=True, exist_ok=True)
            write_manifest(rows, manifest)
            specs = read_manifest(manifest)
        except (SialignError, OSError) as exc:
            self.message.setText(f"{exc} — correct the row in the table and save again")
            return
        missing = [f"{s.talk}: {p.name}" for s in specs for p in s.inputs() if not p.is_file()]
        if missing:
            self.message.setText("Files not found (" + ", ".join(missing[:4]) + (" …" if len(missing) > 4 else "")
                                 + ") — correct the paths in the table.")
            return
        self._run = CorpusRun(manifest, output, self.jobs.value(), self.filters())
        super().accept()

    def run(self) -> CorpusRun:
        """What to align (call after the dialog was accepted)."""
        return self._run
