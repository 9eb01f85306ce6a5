"""*File → Compare renditions…*: several renditions of one source, sentence by sentence.

Projects are read and lined up in a worker thread
(:func:`sialign.review.compare.compare_renditions`); the window shows each
rendition's figures, the per-interpreter table, and one row per source
sentence with every rendition's text, lag and flags. Rows where renditions
disagree are tinted (red: one omits what another renders; amber: flags or
an unusual lag differ); *Only disagreements* hides the others and
*Next disagreement* (F) walks through them. Selecting a rendition's cell and
pressing *Play rendition* (Space) plays that interpreter's audio for the
sentence; *Play source* (S) the speaker's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSettings,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QAction, QBrush, QCloseEvent, QColor, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QSplitter,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from sialign.core.errors import AudioUnavailable, SialignError
from sialign.core.model import Project
from sialign.core.progress import ProgressFn, StopFn
from sialign.gui.common.error_words import error_text
from sialign.gui.common.workers import TaskWorker, WorkerRunner, snapshot

if TYPE_CHECKING:
    from sialign.audio.decode import AudioTrack
    from sialign.audio.player import Player
    from sialign.review.compare import Comparison, SentenceRow
    from sialign.review.figures import RenditionFigures

DISAGREEMENT_COLOURS = {2: QColor("#ffe0e0"), 1: QColor("#fff3d6")}
FIXED_COLUMNS = 3  # number, time, source
# Rows are made as tall as their wrapped text only when they come into view
# (about 0.3 ms a row: resizing all 3,000 rows of a long talk at once stalls the window for a second).
ROW_BATCH = 40


class ComparisonModel(QAbstractTableModel):
    """Rows of a :class:`sialign.review.compare.Comparison`, optionally only the disagreements.

    Columns: ``#``, time, source, one per rendition (text; lag and flags in
    the tooltip and on a second line), then *Disagreement*.
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.comparison: Comparison | None = None
        self._rows: list[int] = []
        self.only_disagreements = False

    def set_comparison(self, comparison: Comparison) -> None:
        self.beginResetModel()
        self.comparison = comparison
        self._refilter()
        self.endResetModel()

    def set_only_disagreements(self, only: bool) -> None:
        self.beginResetModel()
        self.only_disagreements = only
        self._refilter()
        self.endResetModel()

    def _refilter(self) -> None:
        rows = self.comparison.rows if self.comparison is not None else []
        self._rows = [i for i, r in enumerate(rows) if r.disagreement or not self.only_disagreements]

    def sentence_row(self, row: int) -> SentenceRow:
        """The :class:`SentenceRow` shown at view row ``row``."""
        assert self.comparison is not None  # a row is shown only with a comparison
        return self.comparison.rows[self._rows[row]]

    def view_row_of(self, number: int) -> int | None:
        """View row of the 1-based sentence ``number`` (None when filtered out)."""
        try:
            return self._rows.index(number - 1)
        except ValueError:
            return None

    def rendition_of_column(self, column: int) -> int | None:
        n = len(self.comparison.names) if self.comparison is not None else 0
        return column - FIXED_COLUMNS if FIXED_COLUMNS <= column < FIXED_COLUMNS + n else None

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        if parent.isValid() or self.comparison is None:
            return 0
        return FIXED_COLUMNS + len(self.comparison.names) + 1

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole or self.comparison is None:
            return None
        names = self.comparison.names
        fixed = ["#", "Time", "Source"]
        if section < FIXED_COLUMNS:
            return fixed[section]
        if section < FIXED_COLUMNS + len(names):
            return names[section - FIXED_COLUMNS]
        return "Disagreement"

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        from sialign.review.figures import format_clock

        row = self.sentence_row(index.row())
        col = index.column()
        which = self.rendition_of_column(col)
        if role == Qt.ItemDataRole.BackgroundRole:
            colour = DISAGREEMENT_COLOURS.get(row.disagreement)
            return QBrush(colour) if colour is not None else None
        if role == Qt.ItemDataRole.ForegroundRole and which is not None:
            cell = row.cells[which]
            if cell.omitted:
                return QBrush(QColor("#c01c28"))
            if cell.joined_to:
                return QBrush(QColor("#777777"))
            return None
        if role not in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return None
        if col == 0:
            return str(row.number)
        if col == 1:
            return format_clock(row.src_start)
        if col == 2:
            return row.source
        if which is not None:
            cell = row.cells[which]
            if cell.omitted:
                text = "— omitted —"
            elif cell.joined_to:
                text = f"(rendered with sentence {cell.joined_to})"
            else:
                text = cell.text
            meta = []
            if cell.lag is not None and not cell.omitted and not cell.joined_to:
                meta.append(f"lag {cell.lag:.1f} s")
            if cell.flags and not cell.omitted:
                meta.append(", ".join(cell.flags))
            # One paragraph: the lag and flags lead, so they line up down the column.
            return (f"[{' · '.join(meta)}] " if meta else "") + text
        return row.why


def compression_cells(figures: Sequence[RenditionFigures]) -> list[tuple[str, str]]:
    """(cell, tooltip) of each rendition's compression, in one unit for the whole column.

    Renditions with and without a reference translation measure compression
    against different lengths (the reference's, as a percentage; the
    source's, in target units per source unit): when they are mixed, every
    cell uses the source, which all have, and the tooltip gives the other.
    """
    from sialign.review.figures import format_compression

    if len({(f.compression_basis, f.tgt_unit, f.src_unit) for f in figures}) <= 1:
        return [(f.compression_text, "") for f in figures]
    cells = []
    for f in figures:
        text = format_compression(f.tgt_units / f.src_units if f.src_units else None, "source", f.tgt_unit, f.src_unit)
        cells.append((text, f"Against the {f.compression_basis}: {f.compression_text}"))
    return cells


class CompareWindow(QMainWindow):
    """A window comparing renditions of one source.

    Args:
        projects: renditions already open (the main window's project, when
            aligned); more are added with *Add renditions…*.
        paths: their files ("" for an unsaved project).
        parent: the main window.
        open_project: gives the project open in the main window now and its
            file ("" when unsaved), for *Add the open project* (another talk
            opened there since, or this one with newer edits).
        player: the audio player (tests inject one with a fake device).

    Signals:
        comparison_ready(): a comparison was computed and shown.
    """

    comparison_ready = Signal()

    def __init__(self, projects: Sequence[Project] = (), paths: Sequence[str] = (), parent: QWidget | None = None,
                 *, player: Player | None = None, open_project: Callable[[], tuple[Project, str]] | None = None) -> None:
        super().__init__(parent)
        self._open_project = open_project
        self.setWindowTitle("Compare renditions — SI Aligner")
        self.resize(1300, 820)
        self._projects: list[Project] = [snapshot(p) for p in projects]
        self._paths: list[str] = list(paths) + [""] * (len(projects) - len(paths))
        self._tracks: dict[str, AudioTrack | None] = {}
        self._player = player
        self.runner = WorkerRunner(self)
        self.runner.finished.connect(self._update_buttons)
        self.comparison: Comparison | None = None

        self.model = ComparisonModel(self)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setWordWrap(True)
        self.table.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.table.verticalHeader().setVisible(False)
        self.table.doubleClicked.connect(lambda _i: self.play_rendition())
        self._sized_rows: set[int] = set()
        self.table.verticalScrollBar().valueChanged.connect(lambda _v: self._resize_visible_rows())

        self.figures = QTableWidget(self)
        self.interpreters = QTableWidget(self)
        for table in (self.figures, self.interpreters):
            table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
            table.verticalHeader().setVisible(False)
            table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        tabs = QTabWidget(self)
        tabs.addTab(self.figures, "Renditions")
        tabs.addTab(self.interpreters, "Per interpreter")

        self.add_button = QPushButton("&Add renditions…", self)
        self.add_button.clicked.connect(self.add_dialog)
        self.add_open_button = QPushButton("Add the &open project", self)
        self.add_open_button.setToolTip("Add the project open in the main window as it is now, unsaved edits included")
        self.add_open_button.clicked.connect(self.add_open_project)
        self.add_open_button.setVisible(open_project is not None)
        self.only_box = QCheckBox("&Only disagreements", self)
        self.only_box.toggled.connect(self._only_toggled)
        self.next_button = QPushButton("&Next disagreement (F)", self)
        self.next_button.clicked.connect(self.next_disagreement)
        self.play_button = QPushButton("Play &rendition (Space)", self)
        self.play_button.clicked.connect(self.play_rendition)
        self.source_button = QPushButton("Play &source (S)", self)
        self.source_button.clicked.connect(self.play_source)
        self.save_button = QPushButton("Sa&ve as HTML/TSV…", self)
        self.save_button.clicked.connect(self.save_dialog)
        for key, slot in (("F", self.next_disagreement), ("Space", self.play_rendition), ("S", self.play_source),
                          ("Esc", self.stop_audio)):
            action = QAction(self)
            action.setShortcut(QKeySequence(key))
            action.triggered.connect(lambda _c=False, s=slot: s())
            self.addAction(action)

        buttons = QHBoxLayout()
        for widget in (self.add_button, self.add_open_button, self.only_box, self.next_button, self.play_button, self.source_button):
            buttons.addWidget(widget)
        buttons.addStretch(1)
        buttons.addWidget(self.save_button)
        self.status = QLabel(self._waiting_text(), self)
        self.status.setWordWrap(True)

        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.addWidget(tabs)
        splitter.addWidget(self.table)
        splitter.setSizes([170, 650])
        central = QWidget(self)
        layout = QVBoxLayout(central)
        layout.addLayout(buttons)
        layout.addWidget(splitter, 1)
        layout.addWidget(self.status)
        self.setCentralWidget(central)
        self._update_buttons()
        if len(self._projects) >= 2:
            self.recompute()

    # ---- renditions -----------------------------------------------------
    def _label(self, k: int) -> str:
        return self._paths[k] or f"{self._projects[k].talk_id} (open in the main window)"

    def _waiting_text(self) -> str:
        """What the status says before there are two renditions: which are in already."""
        if not self._projects:
            return "Add two or more renditions of the same source (.sialign projects, or the open project)."
        names = ", ".join(Path(self._label(k)).name if self._paths[k] else self._label(k) for k in range(len(self._projects)))
        return f"In the comparison: {names}. Add one or more renditions of the same source (.sialign projects)."

    def add_open_project(self) -> None:
        """Add the main window's project as it is now (a new rendition, or the newer state of one already in)."""
        if self._open_project is None or self.runner.busy:
            return
        project, path = self._open_project()
        if project is None or project.alignment is None or not project.alignment.beads:
            self._show_error("The project open in the main window is not aligned yet: align it first.")
            return
        # The same file (or the same unsaved talk) again: its newer state replaces the old one.
        for k, (old, old_path) in enumerate(zip(self._projects, self._paths)):
            if (path and old_path == path) or (not path and not old_path and old.talk_id == project.talk_id):
                del self._projects[k], self._paths[k]
                break
        self._projects.append(snapshot(project))
        self._paths.append(path)
        self.recompute()

    def add_dialog(self) -> None:
        from sialign.gui.common.file_dialogs import last_folder

        settings = QSettings()
        # The open project's folder first (its renditions usually lie beside it), then the last one used.
        known = next((Path(p).parent for p in self._paths if p and Path(p).parent.is_dir()), None)
        remembered = str(settings.value("compare_dir", "") or "")
        folder = str(known) if known else remembered if remembered and Path(remembered).is_dir() else last_folder("project", settings)
        title = "Add renditions of the same source"
        if self._projects:
            title += f" (compared with {Path(self._label(0)).name if self._paths[0] else self._label(0)})"
        paths, _ = QFileDialog.getOpenFileNames(self, title, folder, "SI Aligner projects (*.sialign)")
        if paths:
            settings.setValue("compare_dir", str(Path(paths[0]).parent))
            self.add_paths(paths)

    def add_paths(self, paths: Sequence[str]) -> None:
        """Read the projects at ``paths`` (in a worker) and compare all renditions again."""
        known = set(self._paths)
        self.recompute([p for p in paths if p not in known])

    def recompute(self, new_paths: Sequence[str] = ()) -> None:
        """Load ``new_paths`` and line up every rendition, off the GUI thread."""
        if self.runner.busy:
            return
        projects, paths = list(self._projects), list(self._paths)

        def task(_progress: ProgressFn, _stop: StopFn) -> tuple[list[Project], list[str], Comparison | None]:
            from sialign.review.compare import compare_renditions
            from sialign.workflows.talks import load_project

            for path in new_paths:
                projects.append(load_project(path))
                paths.append(path)
            if len(projects) < 2:
                return projects, paths, None
            labels = [p or f"{proj.talk_id} (open in the main window)" for p, proj in zip(paths, projects)]
            return projects, paths, compare_renditions(projects, labels)

        worker = TaskWorker(task, "Comparing renditions")
        worker.succeeded.connect(self._compared)
        # Bound methods, not lambdas: Qt then queues the calls to the GUI thread.
        worker.failed.connect(self._failed)
        self.status.setText("Reading and lining up the renditions…")
        self.runner.start(worker)
        self._update_buttons()

    def _failed(self, message: str, _details: str) -> None:
        self._show_error(message)

    def _show_error(self, message: str) -> None:
        self.status.setText(message)
        QMessageBox.warning(self, "Compare renditions", message)

    def _compared(self, result: tuple[list[Project], list[str], Comparison | None]) -> None:
        self._projects, self._paths, comparison = result
        if comparison is None:
            self.status.setText(self._waiting_text())
            return
        self.comparison = comparison
        self.model.set_comparison(comparison)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.setColumnWidth(0, 40)
        self.table.setColumnWidth(1, 52)
        # Source and renditions share the width left by the number, time and disagreement columns.
        width = max(200, (self.table.viewport().width() - 92 - 200) // (len(comparison.names) + 1))
        for col in range(2, self.model.columnCount() - 1):
            self.table.setColumnWidth(col, width)
        header.setStretchLastSection(True)
        self._resize_rows()
        self._fill_tables(comparison)
        dis = comparison.disagreements()
        strong = sum(1 for r in dis if r.disagreement == 2)
        self.status.setText(f"{comparison.talk}: {len(comparison.rows)} source sentences, {len(comparison.names)} renditions; "
                            f"{strong} sentences omitted by some and rendered by others (red), "
                            f"{len(dis) - strong} with other differences (amber).")
        self.comparison_ready.emit()

    def _fill_tables(self, c: Comparison) -> None:
        from sialign.review.compare import format_figure

        heads = ["Rendition", "Interpreter", "Rank", "Coverage", "Omissions", "Additions", "EVS median", "Compression", "Fillers/min"]
        self.figures.setColumnCount(len(heads))
        self.figures.setHorizontalHeaderLabels(heads)
        self.figures.setRowCount(len(c.names))
        compression = compression_cells(c.figures)
        for i, (name, fig) in enumerate(zip(c.names, c.figures)):
            values = [name, fig.interpreter, fig.rank or "—",
                      format_figure(None if fig.coverage is None else 100 * fig.coverage, ".0f", "%"), str(len(fig.omissions)),
                      str(len(fig.additions)), format_figure(fig.evs_median, ".1f", " s"),
                      compression[i][0], format_figure(fig.fillers_per_minute, ".1f")]
            for j, value in enumerate(values):
                item = QTableWidgetItem(value)
                if heads[j] == "Compression":
                    item.setToolTip(compression[i][1])
                self.figures.setItem(i, j, item)
        heads = ["Interpreter", "Rank", "Talks", "Sentences", "Coverage", "Omissions per 100", "EVS median", "Compression", "Fillers/min"]
        self.interpreters.setColumnCount(len(heads))
        self.interpreters.setHorizontalHeaderLabels(heads)
        self.interpreters.setRowCount(len(c.interpreters))
        for i, r in enumerate(c.interpreters):
            values = [r.interpreter, r.rank or "—", str(len(r.talks)), str(r.sentences),
                      format_figure(None if r.coverage is None else 100 * r.coverage, ".0f", "%"), format_figure(r.omissions_per_100, ".1f"),
                      format_figure(r.evs_median, ".1f", " s"), r.compression_text, format_figure(r.fillers_per_minute, ".1f")]
            for j, value in enumerate(values):
                self.interpreters.setItem(i, j, QTableWidgetItem(value))

    def _only_toggled(self, only: bool) -> None:
        self.model.set_only_disagreements(only)
        self._resize_rows()

    def _resize_rows(self) -> None:
        """Forget the row heights (rows or widths changed); size the visible ones once laid out."""
        self._sized_rows = set()
        QTimer.singleShot(0, self._resize_visible_rows)

    def _resize_visible_rows(self) -> None:
        """Make the rows in view (and a few beyond) as tall as their wrapped text, each once."""
        n = self.model.rowCount()
        if n == 0:
            return
        first = max(self.table.rowAt(0), 0)
        for row in range(first, min(n, first + ROW_BATCH)):
            if row not in self._sized_rows:
                self._sized_rows.add(row)
                self.table.resizeRowToContents(row)

    def _update_buttons(self) -> None:
        ready = self.comparison is not None and not self.runner.busy
        for widget in (self.next_button, self.play_button, self.source_button, self.save_button, self.only_box):
            widget.setEnabled(ready)
        self.add_button.setEnabled(not self.runner.busy)
        self.add_open_button.setEnabled(not self.runner.busy)

    # ---- navigation -------------------------------------------------------
    def next_disagreement(self) -> None:
        """Select the next sentence (after the current one, wrapping) where the renditions disagree."""
        if self.comparison is None or self.model.rowCount() == 0:
            return
        current = self.table.currentIndex()
        start = current.row() if current.isValid() else -1
        n = self.model.rowCount()
        for step in range(1, n + 1):
            row = (start + step) % n
            if self.model.sentence_row(row).disagreement:
                column = current.column() if current.isValid() else FIXED_COLUMNS
                self.table.setCurrentIndex(self.model.index(row, column))
                self.table.scrollTo(self.model.index(row, column), QAbstractItemView.ScrollHint.PositionAtCenter)
                return
        self.status.setText("The renditions agree everywhere.")

    # ---- audio --------------------------------------------------------------
    def _track(self, path: str | None) -> AudioTrack | None:
        if not path:
            return None
        if path not in self._tracks:
            from sialign.audio.decode import load_audio

            try:
                self._tracks[path] = load_audio(path)
            except SialignError as exc:
                self.status.setText(error_text(exc))
                self._tracks[path] = None
        return self._tracks[path]

    def _play(self, path: str | None, start: float | None, end: float | None, what: str) -> None:
        if start is None or end is None:
            self.status.setText(f"{what}: no times to play.")
            return
        track = self._track(path)
        if track is None:
            self.status.setText(f"{what}: no audio file in this project (or it cannot be read).")
            return
        from sialign.audio.player import Player, PlayItem

        if self._player is None:
            self._player = Player()
        try:
            self._player.play([PlayItem(track, start, end, what)])
        except AudioUnavailable as exc:
            self.status.setText(f"Playback is off: {exc}")
            return
        except ValueError as exc:
            self.status.setText(f"{what}: {exc}")
            return
        self.status.setText(f"Playing {what} ({start:.1f}–{end:.1f} s)")

    def play_rendition(self) -> None:
        """Play the selected rendition's audio for the selected sentence (the whole bead it lies in)."""
        index = self.table.currentIndex()
        if self.comparison is None or not index.isValid():
            return
        which = self.model.rendition_of_column(index.column())
        if which is None:
            self.status.setText("Select a rendition's cell to play it (or S for the source).")
            return
        row = self.model.sentence_row(index.row())
        cell = row.cells[which]
        name = self.comparison.names[which]
        if cell.omitted:
            self.status.setText(f"{name} left sentence {row.number} out: nothing to play.")
            return
        if cell.joined_to:
            first = self.comparison.rows[cell.joined_to - 1].cells[which]
            cell = first
        self._play(self._projects[which].target.audio_path, cell.tgt_start, cell.tgt_end, f"{name}, sentence {row.number}")

    def play_source(self) -> None:
        """Play the speaker's audio for the selected sentence."""
        index = self.table.currentIndex()
        if self.comparison is None or not index.isValid():
            return
        row = self.model.sentence_row(index.row())
        path = next((p.source.audio_path for p in self._projects if p.source.audio_path), None)
        self._play(path, row.src_start, row.src_end, f"source sentence {row.number}")

    def stop_audio(self) -> None:
        if self._player is not None:
            self._player.stop()

    # ---- saving -------------------------------------------------------------
    def save_dialog(self) -> None:
        if self.comparison is None:
            return
        from sialign.gui.common.file_dialogs import last_folder

        settings = QSettings()
        # The open project's folder first (its renditions usually lie beside it), then the last one used.
        known = next((Path(p).parent for p in self._paths if p and Path(p).parent.is_dir()), None)
        remembered = str(settings.value("compare_dir", "") or "")
        folder = str(known) if known else remembered if remembered and Path(remembered).is_dir() else last_folder("project", settings)
        path, _ = QFileDialog.getSaveFileName(self, "Save the comparison", str(Path(folder) / f"{self.comparison.talk}.compare.html"),
                                              "HTML (*.html);;TSV (*.tsv)")
        if path:
            self.save(path)

    def save(self, path: str) -> None:
        """Write the comparison as HTML or TSV (from the extension)."""
        from sialign.core.atomic import atomic_write_text
        from sialign.review.compare import COMPARE_FILES, comparison_html, comparison_tsv

        comparison = self.comparison
        if comparison is None:
            self._show_error("Add a second rendition to compare first: there is nothing to save yet.")
            return
        try:
            fmt = COMPARE_FILES.format_of(path)
            atomic_write_text(path, comparison_html(comparison) if fmt == "html" else comparison_tsv(comparison))
        except (SialignError, OSError) as exc:
            self._show_error(error_text(exc))
            return
        self.status.setText(f"Saved the comparison to {path}")

    def closeEvent(self, event: QCloseEvent) -> None:
        self.stop_audio()
        self.runner.wait(10000)
        super().closeEvent(event)
