"""The corpus view: every talk of a corpus folder with its status and figures.

Opened with *File → Open corpus…* on a folder written by ``sialign corpus
align`` (it holds ``corpus.json``). One row per talk, sortable, with a filter
(not reviewed, failed, flagged) and a search field. Double-clicking a talk
(or *Review talk*) opens its project in the main window; coming back to this
window re-reads the figures, so a reviewed talk shows its new counts. *Align
pending talks* runs the corpus alignment of the manifest recorded in the
folder in the background (new and changed talks only; reviewed ones are
kept), with progress and Cancel, the window staying responsive.

*Export…* (Ctrl+E) writes every aligned talk into one file with the options
of ``sialign corpus export`` (format, split, only confirmed beads; see
:mod:`sialign.gui.dialogs.corpus_export_dialog`) through the same use case,
:func:`sialign.corpus.outputs.export_corpus`, in the background with progress
and Cancel; the window then says how many talks and rows went to which file,
or in one line why nothing was written.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QObject, QSettings, QSortFilterProxyModel, Qt, QThread, Signal, Slot
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from sialign.core.plurals import count_noun
from sialign.gui.common.error_words import error_text
from sialign.gui.common.form_layout import ERROR_COLOUR
from sialign.gui.common.workers import TaskWorker, WorkerRunner
from sialign.gui.dialogs.corpus_export_dialog import CorpusExportDialog, CorpusExportOptions

COLUMNS = ("Talk", "Status", "Beads", "Confirmed", "Dropped", "Flagged", "Omissions", "Median EVS", "Reviewed", "Note")
FILTERS = ("All talks", "Not reviewed", "Reviewed", "Failed", "With flagged beads")


def _item(value: Any) -> QStandardItem:
    item = QStandardItem("" if value is None else (f"{value:.1f}" if isinstance(value, float) else str(value)))
    # Numbers sort as numbers.
    item.setData(value if isinstance(value, (int, float)) else str(value or ""), Qt.ItemDataRole.UserRole)
    item.setEditable(False)
    item.setToolTip(item.text() if len(item.text()) > 40 else "")
    return item


class _Rows(QSortFilterProxyModel):
    """Sorts by the raw values and filters by the chosen view and the search text."""

    def __init__(self) -> None:
        super().__init__()
        self.setSortRole(Qt.ItemDataRole.UserRole)
        self.view = FILTERS[0]
        self.text = ""

    def filterAcceptsRow(self, row: int, parent: Any) -> bool:
        model = self.sourceModel()

        def cell(column: int) -> str:
            return str(model.index(row, column, parent).data() or "")

        if self.text and self.text.lower() not in cell(0).lower() + " " + cell(9).lower():
            return False
        status, reviewed, flagged = cell(1), cell(8) == "yes", cell(5)
        if self.view == "Not reviewed":
            return status == "done" and not reviewed
        if self.view == "Reviewed":
            return reviewed
        if self.view == "Failed":
            return status == "failed"
        if self.view == "With flagged beads":
            return flagged not in ("", "0")
        return True


class _CorpusTask(QObject):
    """Runs :func:`sialign.corpus.align_corpus` in a worker thread."""

    progressed = Signal(int, int, str, str)
    finished = Signal(object, str)  # report or None, error message

    def __init__(self, manifest: str, folder: str, jobs: int = 1, filters: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.manifest, self.folder = manifest, folder
        self.jobs, self.filters = jobs, filters
        self._stop = threading.Event()

    def cancel(self) -> None:
        self._stop.set()

    @Slot()
    def run(self) -> None:
        from sialign.core.errors import SialignError
        from sialign.corpus import align_corpus

        try:
            report = align_corpus(
                self.manifest, self.folder, filters=self.filters, jobs=self.jobs,
                progress=lambda done, total, talk, line: self.progressed.emit(done, total, talk, line),
                should_stop=self._stop.is_set,
            )
        except SialignError as exc:
            self.finished.emit(None, error_text(exc))
        except Exception as exc:
            self.finished.emit(None, f"the corpus alignment failed unexpectedly: {type(exc).__name__}: {exc}")
        else:
            self.finished.emit(report, "")


class CorpusWindow(QMainWindow):
    """The talks of one corpus folder.

    Args:
        folder: a corpus folder (holding ``corpus.json``).
        open_talk: called with a project path to review it in the main window.
        settings: where the export dialog remembers its choices (the application's settings by default).

    Signals:
        talk_opened(str): a talk's project path, to review it.
        export_finished(str): an export ended; the line the window shows ("" when it was cancelled).
    """

    talk_opened = Signal(str)
    export_finished = Signal(str)

    def __init__(self, folder: str | Path, open_talk: Callable[[str], Any] | None = None, parent: QWidget | None = None,
                 settings: QSettings | None = None) -> None:
        super().__init__(parent)
        from sialign.corpus.runner import CorpusState

        self.folder = Path(folder)
        self.settings = settings
        self.state = CorpusState(self.folder)  # raises InputError on a damaged state file
        self.open_talk = open_talk
        self.setWindowTitle(f"Corpus {self.folder.name} — SI Aligner")
        self.model = QStandardItemModel(0, len(COLUMNS))
        self.model.setHorizontalHeaderLabels(list(COLUMNS))
        self.rows = _Rows()
        self.rows.setSourceModel(self.model)
        self.table = QTableView()
        self.table.setModel(self.rows)
        self.table.setSortingEnabled(True)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.verticalHeader().setVisible(False)
        self.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self.table.doubleClicked.connect(lambda _: self.review_selected())
        self.view_box = QComboBox()
        self.view_box.addItems(list(FILTERS))
        self.view_box.currentTextChanged.connect(self._set_view)
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search talks and notes")
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self._set_text)
        self.review_button = QPushButton("Review talk")
        self.review_button.clicked.connect(self.review_selected)
        self.align_button = QPushButton("Align pending talks")
        self.align_button.clicked.connect(self.align_pending)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        self.refresh_button = QPushButton("Refresh")
        self.refresh_button.clicked.connect(self.refresh)
        self.export_action = QAction("Export…", self)
        self.export_action.setShortcut(QKeySequence("Ctrl+E"))
        self.export_action.setToolTip("Every aligned talk in one file: TSV, two-column TSV, JSONL or TMX (sialign corpus export)")
        self.export_action.triggered.connect(self.export_dialog)
        self.addAction(self.export_action)
        self.export_button = QPushButton("Export…")
        self.export_button.setToolTip(self.export_action.toolTip())
        self.export_button.clicked.connect(self.export_action.trigger)
        self.progress = QProgressBar()
        self.progress.setVisible(False)
        self.summary = QLabel()
        # What the last export did, or in one line why it wrote nothing.
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setVisible(False)
        for label in (self.summary, self.message):
            # A long file name must not widen the window past the screen: it is cut at the edge, whole in the tooltip.
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        bar = QHBoxLayout()
        for widget in (self.view_box, self.search, self.review_button, self.align_button, self.export_button, self.cancel_button,
                       self.refresh_button):
            bar.addWidget(widget)
        layout = QVBoxLayout()
        layout.addLayout(bar)
        layout.addWidget(self.table)
        layout.addWidget(self.progress)
        layout.addWidget(self.message)
        layout.addWidget(self.summary)
        central = QWidget()
        central.setLayout(layout)
        self.setCentralWidget(central)
        self._thread: QThread | None = None
        self._task: _CorpusTask | None = None
        self.exports = WorkerRunner(self)
        self.exports.finished.connect(self._export_done)
        self._export_options: CorpusExportOptions | None = None
        # The options of the last run (the CLI's --jobs, --filters, --learned), used again by Align pending talks.
        self.jobs: int = 1
        self.filters: tuple[str, ...] = ()
        self.resize(1000, 560)
        self.refresh()

    # -- data ----------------------------------------------------------------
    def refresh(self) -> None:
        """Re-read corpus.json and the figures of talks edited since they were aligned."""
        from sialign.corpus.runner import CorpusState, summary_figures
        from sialign.workflows.talks import load_project

        selected = self.selected_talk()
        self.state = CorpusState(self.folder)
        self.model.removeRows(0, self.model.rowCount())
        reviewed_count = 0
        for talk, record in sorted(self.state.records.items()):
            figures = dict(record.summary)
            reviewed = self.state.reviewed(talk)
            if reviewed:
                reviewed_count += 1
                try:  # the reviewer's counts, not the aligner's
                    figures.update(summary_figures(load_project(self.state.project_path(talk))))
                except Exception:
                    pass
            self.model.appendRow([
                _item(talk), _item(record.status), _item(figures.get("beads")), _item(figures.get("confirmed")),
                _item(figures.get("dropped")), _item(figures.get("flagged")), _item(figures.get("omissions")),
                _item(figures.get("median_evs")), _item("yes" if reviewed else ""), _item(record.message),
            ])
        done = sum(1 for r in self.state.records.values() if r.status == "done")
        failed = sum(1 for r in self.state.records.values() if r.status == "failed")
        self.summary.setText(
            f"{len(self.state.records)} talks · {done} aligned · {failed} failed · {reviewed_count} reviewed"
            + (f" · manifest {Path(self.state.manifest).name}" if self.state.manifest else "")
        )
        self._enable_actions()
        if selected:
            self.select(selected)

    def talks(self) -> list[str]:
        """The talks shown, in their current order."""
        return [str(self.rows.index(r, 0).data()) for r in range(self.rows.rowCount())]

    def select(self, talk: str) -> bool:
        for r in range(self.rows.rowCount()):
            if self.rows.index(r, 0).data() == talk:
                self.table.selectRow(r)
                return True
        return False

    def selected_talk(self) -> str | None:
        rows = self.table.selectionModel().selectedRows() if self.table.selectionModel() else []
        return str(rows[0].data()) if rows else None

    def _set_view(self, view: str) -> None:
        self.rows.view = view
        self.rows.invalidate()

    def _set_text(self, text: str) -> None:
        self.rows.text = text.strip()
        self.rows.invalidate()

    # -- actions -------------------------------------------------------------
    def review_selected(self) -> None:
        talk = self.selected_talk()
        if talk is None:
            return
        path = self.state.project_path(talk)
        if not path.exists():
            QMessageBox.information(self, "Not aligned", f"{talk} has no project yet: {self.state.records[talk].message or 'align it first'}.")
            return
        self.talk_opened.emit(str(path))
        if self.open_talk is not None:
            self.open_talk(str(path))

    @property
    def busy(self) -> bool:
        """Whether talks are being aligned or exported (one at a time: an export reads what an alignment writes)."""
        return self._thread is not None or self.exports.busy

    def _enable_actions(self) -> None:
        self.align_button.setEnabled(bool(self.state.manifest) and not self.busy)
        self.export_action.setEnabled(not self.busy)
        self.export_button.setEnabled(not self.busy)
        self.cancel_button.setEnabled(self.busy)

    def align_pending(self) -> None:
        if self.busy or not self.state.manifest:
            return
        self.align_manifest(self.state.manifest, self.jobs, self.filters)

    def align_manifest(self, manifest: str, jobs: int = 1, filters: tuple[str, ...] = ()) -> None:
        """Align the talks of ``manifest`` into this folder in the background (the CLI's ``--jobs``, ``--filters``, ``--learned``)."""
        if self.busy:
            return
        # Align pending talks again later with the same options.
        self.jobs, self.filters = jobs, tuple(filters)
        self._task = _CorpusTask(manifest, str(self.folder), jobs, self.filters)
        self._thread = QThread(self)
        self._task.moveToThread(self._thread)
        self._thread.started.connect(self._task.run)
        self._task.progressed.connect(self._progressed)
        self._task.finished.connect(self._finished)
        self._show_message("")
        self.progress.setVisible(True)
        self.progress.setRange(0, 0)
        self.summary.setText("Aligning pending talks…")
        self._thread.start()
        self._enable_actions()

    def cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self.summary.setText("Stopping after the talk in progress…")
        if self.exports.busy:
            self.exports.cancel()
            self.summary.setText("Stopping the export…")

    # -- export ----------------------------------------------------------------
    def export_dialog(self) -> bool:
        """Ask for the export's options, then write it in the background; False when nothing was started."""
        if self.busy:
            return False
        dialog = CorpusExportDialog(self.folder, self, self.settings)
        if dialog.exec() != CorpusExportDialog.DialogCode.Accepted:
            return False
        return self.export(dialog.options())

    def export(self, options: CorpusExportOptions) -> bool:
        """Write the corpus export of ``options`` in the background (:func:`sialign.corpus.outputs.export_corpus`)."""
        from sialign.corpus.outputs import export_corpus

        if self.busy:
            return False

        def task(progress: Callable[[float, str], None], should_stop: Callable[[], bool]) -> tuple[int, int]:
            return export_corpus(self.folder, options.path, options.format, split=options.split,
                                 only_confirmed=options.only_confirmed, progress=progress, should_stop=should_stop,
                                 option="The export")

        worker = TaskWorker(task, "The corpus export")
        # Queued: the handlers touch widgets, which only the GUI thread may do.
        queued = Qt.ConnectionType.QueuedConnection
        worker.progressed.connect(self._export_progressed, queued)
        worker.succeeded.connect(self._exported, queued)
        worker.failed.connect(self._export_failed, queued)
        worker.cancelled.connect(self._export_cancelled, queued)
        self._export_options = options
        self._show_message("")
        self.progress.setRange(0, 1000)
        self.progress.setValue(0)
        self.progress.setVisible(True)
        self.summary.setText(f"Exporting the corpus to {options.path}…")
        self.summary.setToolTip(options.path)
        self.exports.start(worker)
        self._enable_actions()
        return True

    def _export_progressed(self, fraction: float, message: str) -> None:
        self.progress.setValue(int(fraction * 1000))
        self.summary.setText(f"Exporting {message}")

    def _exported(self, result: tuple[int, int]) -> None:
        talks, rows = result
        path = self._export_options.path if self._export_options else ""
        self._export_ended(f"{count_noun(talks, 'talk')}, {count_noun(rows, 'row')} written to {path}", error=False)

    def _export_failed(self, message: str, details: str) -> None:
        if details:  # an unexpected failure: its traceback goes to the error log, never on screen
            from sialign.gui.common.error_log import log_error

            log_error(details)
        self._export_ended(f"Nothing exported: {message}", error=True)

    def _export_cancelled(self) -> None:
        path = self._export_options.path if self._export_options else "the file"
        self._export_ended(f"Export cancelled; {path} was not changed.", error=False)

    def _export_ended(self, line: str, *, error: bool) -> None:
        self._show_message(line, error=error)
        self.export_finished.emit(line)

    def _export_done(self) -> None:
        self.progress.setVisible(False)
        self.refresh()

    def _show_message(self, text: str, *, error: bool = False) -> None:
        """One line above the summary: the export's outcome, in the error colour when it failed."""
        line = " ".join(text.split())
        self.message.setText(line)
        self.message.setToolTip(line)
        self.message.setStyleSheet(f"color: {ERROR_COLOUR};" if error else "")
        self.message.setVisible(bool(line))

    def _progressed(self, done: int, total: int, talk: str, line: str) -> None:
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)
        self.summary.setText(f"{done}/{total} · {talk}: {line}")

    def _finished(self, report: Any, error: str) -> None:
        if self._thread is not None:
            self._thread.quit()
            self._thread.wait()
        self._thread = None
        self._task = None
        self.progress.setVisible(False)
        self.refresh()
        if error:
            QMessageBox.warning(self, "Corpus alignment failed", error)
        elif report is not None:
            unchanged = sum(1 for _, why in report.skipped if why == "unchanged")
            self.summary.setText(
                f"{len(report.done)} talks aligned, {unchanged} unchanged, {len(report.failed)} failed"
                + (" — stopped; align again to resume" if report.interrupted else "")
            )

    def changeEvent(self, event: QEvent) -> None:
        # Coming back from reviewing a talk shows its new figures.
        if event.type() == QEvent.Type.ActivationChange and self.isActiveWindow() and not self.busy:
            self.refresh()
        super().changeEvent(event)

    def closeEvent(self, event: QCloseEvent) -> None:
        if self._task is not None:
            self._task.cancel()
        if self.exports.busy:
            self.exports.cancel()  # the file is replaced only when every talk is in: it stays as it was
            self.exports.wait(30_000)
        if self._thread is not None:
            self._thread.quit()
            self._thread.wait(30_000)
        super().closeEvent(event)
