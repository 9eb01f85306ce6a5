"""The corpus view: every talk of a corpus folder with its status and figures.

Opened with *File → Open corpus…* on a folder written by ``sialign corpus
align`` (it holds ``corpus.json``). One row per talk, sortable, with a filter
(not reviewed, failed, flagged) and a search field. Double-clicking a talk
(or *Review talk*) opens its project in the main window; coming back to this
window re-reads the figures, so a reviewed talk shows its new counts. *Align
pending talks* runs the corpus alignment of the manifest recorded in the
folder in the background (new and changed talks only; reviewed ones are
kept), with progress and Cancel, the window staying responsive.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QObject, QSortFilterProxyModel, Qt, QThread, Signal, Slot
from PySide6.QtGui import QCloseEvent, QStandardItem, QStandardItemModel
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
    QTableView,
    QVBoxLayout,
    QWidget,
)

from sialign.gui.common.error_words import error_text

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
    """

    talk_opened = Signal(str)

    def __init__(self, folder: str | Path, open_talk: Callable[[str], Any] | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        from sialign.corpus.runner import CorpusState

        self.folder = Path(folder)
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
        self.progress = QProgressBar()
        self.progress.setVisible(False)
        self.summary = QLabel()
        bar = QHBoxLayout()
        for widget in (self.view_box, self.search, self.review_button, self.align_button, self.cancel_button, self.refresh_button):
            bar.addWidget(widget)
        layout = QVBoxLayout()
        layout.addLayout(bar)
        layout.addWidget(self.table)
        layout.addWidget(self.progress)
        layout.addWidget(self.summary)
        central = QWidget()
        central.setLayout(layout)
        self.setCentralWidget(central)
        self._thread: QThread | None = None
        self._task: _CorpusTask | None = None
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
        self.align_button.setEnabled(bool(self.state.manifest) and self._thread is None)
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

    def align_pending(self) -> None:
        if self._thread is not None or not self.state.manifest:
            return
        self.align_manifest(self.state.manifest, self.jobs, self.filters)

    def align_manifest(self, manifest: str, jobs: int = 1, filters: tuple[str, ...] = ()) -> None:
        """Align the talks of ``manifest`` into this folder in the background (the CLI's ``--jobs``, ``--filters``, ``--learned``)."""
        if self._thread is not None:
            return
        # Align pending talks again later with the same options.
        self.jobs, self.filters = jobs, tuple(filters)
        self._task = _CorpusTask(manifest, str(self.folder), jobs, self.filters)
        self._thread = QThread(self)
        self._task.moveToThread(self._thread)
        self._thread.started.connect(self._task.run)
        self._task.progressed.connect(self._progressed)
        self._task.finished.connect(self._finished)
        self.align_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.progress.setVisible(True)
        self.progress.setRange(0, 0)
        self.summary.setText("Aligning pending talks…")
        self._thread.start()

    def cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self.summary.setText("Stopping after the talk in progress…")

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
        self.cancel_button.setEnabled(False)
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
        if event.type() == QEvent.Type.ActivationChange and self.isActiveWindow() and self._thread is None:
            self.refresh()
        super().changeEvent(event)

    def closeEvent(self, event: QCloseEvent) -> None:
        if self._task is not None:
            self._task.cancel()
        if self._thread is not None:
            self._thread.quit()
            self._thread.wait(30_000)
        super().closeEvent(event)
