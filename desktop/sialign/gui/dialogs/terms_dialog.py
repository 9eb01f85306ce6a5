"""Review → Check terms…: how each glossary term was rendered (``sialign terms`` in the app).

The controller asks for a glossary, checks it in a worker (GiNZA and the
word aligner take a few seconds) and shows :class:`TermsDialog`: one row per
occurrence with its bead, verdict and what the interpreter said. Clicking a
row selects the bead in every view. Nothing here changes the project.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QSettings, Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from sialign.core.progress import ProgressFn, StopFn
from sialign.gui.common.error_words import error_text
from sialign.gui.common.session import ProjectSession

if TYPE_CHECKING:
    from sialign.core.model import Project
    from sialign.gui.common.workers import TaskWorker
    from sialign.review.terms import TermCheck

COLUMNS = ("Bead", "Time", "Term", "Verdict", "What was said", "Accepted")
# The report's colours: green as expected, orange otherwise, grey not rendered.
VERDICT_COLOURS = {"rendered as expected": "#e8f5e9", "rendered otherwise": "#fff3e0", "not rendered": "#eeeeee"}
SHOW_ALL, SHOW_PROBLEMS = "All occurrences", "Not as expected"
GLOSSARY_FILTER = "Glossaries (*.tsv *.txt);;All files (*)"


class TermsDialog(QDialog):
    """The glossary check's table; a click on a row asks for its bead.

    Signals:
        bead_chosen(int): the reviewer clicked an occurrence of bead ``index`` (0-based).
        glossary_wanted(): the reviewer asked to check another glossary.
    """

    bead_chosen = Signal(int)
    glossary_wanted = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Check terms")
        self.check: TermCheck | None = None
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.method = QLabel()
        self.method.setWordWrap(True)
        self.method.setStyleSheet("color: #555")
        self.show_box = QComboBox()
        self.show_box.addItems([SHOW_ALL, SHOW_PROBLEMS])
        self.show_box.setToolTip("Show every occurrence, or only those rendered otherwise or not at all")
        self.show_box.currentIndexChanged.connect(lambda _i: self._fill())
        self.other_button = QPushButton("Other glossary…")
        self.other_button.clicked.connect(self.glossary_wanted.emit)
        top = QHBoxLayout()
        top.addWidget(QLabel("Show:"))
        top.addWidget(self.show_box)
        top.addStretch(1)
        top.addWidget(self.other_button)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(list(COLUMNS))
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().setVisible(False)
        self.table.setWordWrap(True)
        header = self.table.horizontalHeader()
        for column in range(len(COLUMNS)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(4, QHeaderView.ResizeMode.Stretch)
        self.table.currentCellChanged.connect(lambda row, _c, _pr, _pc: self._chosen(row))
        self.table.cellClicked.connect(lambda row, _c: self._chosen(row))
        self.missing = QLabel()
        self.missing.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.method)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.missing)
        layout.addWidget(buttons)
        self.resize(860, 540)

    def show_check(self, check: TermCheck) -> None:
        """Show a :class:`~sialign.review.terms.TermCheck`."""
        self.check = check
        self.setWindowTitle(f"Check terms — {Path(check.glossary).name}")
        self.summary.setText(check.summary()[:1].upper() + check.summary()[1:] + ".")
        self.method.setText(f"Source terms matched by {check.matching}; what was said comes from the word links ({check.aligner}).")
        self.missing.setText(f"Never in the source: {', '.join(check.missing)}." if check.missing else "")
        self.missing.setVisible(bool(check.missing))
        self._fill()

    def shown_hits(self) -> list[Any]:
        """The occurrences the table shows, in order."""
        if self.check is None:
            return []
        if self.show_box.currentText() == SHOW_PROBLEMS:
            return [h for h in self.check.hits if h.verdict != "rendered as expected"]
        return list(self.check.hits)

    def _fill(self) -> None:
        from sialign.review.figures import format_clock

        hits = self.shown_hits()
        self.table.blockSignals(True)
        self.table.setRowCount(len(hits))
        for row, h in enumerate(hits):
            said = (h.said or "—") + (f" ({h.note})" if h.note else "")
            cells = (str(h.bead + 1), format_clock(h.time) if h.time is not None else "—", h.found, h.verdict, said, " / ".join(h.accepted))
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if column in (0, 1):
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if column == 2 and h.found.lower() != h.term.lower():
                    item.setToolTip(f"glossary term: {h.term}")
                if column == 4:
                    item.setToolTip(text)
                if column == 3:
                    item.setBackground(QBrush(QColor(VERDICT_COLOURS.get(h.verdict, "#ffffff"))))
                    item.setForeground(QBrush(QColor("#222222")))
                self.table.setItem(row, column, item)
        self.table.blockSignals(False)

    def _chosen(self, row: int) -> None:
        hits = self.shown_hits()
        if 0 <= row < len(hits):
            self.bead_chosen.emit(hits[row].bead)


class TermsController:
    """Asks for a glossary, checks it in a worker and shows the result; a row's click selects its bead.

    Args:
        session: the open project and its selection.
        run_task: the window's ``run_task(worker, on_success)`` (one worker at a time).
        show_error: ``show_error(title, message)``.
        parent: the dialogs' parent.
        settings: where the glossary's folder is remembered.
    """

    def __init__(self, session: ProjectSession, run_task: Callable[[TaskWorker, Callable[[Any], None]], bool],
                 show_error: Callable[[str, str], None], parent: QWidget, settings: QSettings | None = None) -> None:
        self.session = session
        self._run_task = run_task
        self._show_error = show_error
        self._parent = parent
        self._settings = settings
        self.dialog: TermsDialog | None = None
        self.glossary_path = ""
        # The last check and the state of the project it was made on (the project object and its undo index).
        self._last: tuple[TermCheck, Project, int] | None = None
        # Replaced by tests: asks for the glossary file ("" when cancelled).
        self.ask_glossary: Callable[[], str] = self._ask_glossary

    def _ask_glossary(self) -> str:
        from sialign.gui.common.file_dialogs import open_file_name

        return open_file_name(self._parent, "Check terms — choose a glossary", GLOSSARY_FILTER, kind="glossary",
                              current=self.glossary_path or None, settings=self._settings)

    def check_terms(self) -> bool:
        """Review → Check terms…: ask for a glossary and check it; True when the check started."""
        alignment = self.session.project.alignment
        if alignment is None or not alignment.beads:
            self._show_error("Check terms", "Align the talk first: terms are checked bead by bead.")
            return False
        path = self.ask_glossary()
        return bool(path) and self.check_glossary(path)

    def check_glossary(self, path: str) -> bool:
        """Check the glossary at ``path`` against the open project in a worker; True when the check started."""
        from sialign.core.errors import SialignError
        from sialign.gui.common.workers import TaskWorker, snapshot
        from sialign.review.terms import check_terms, read_glossary

        try:
            glossary = read_glossary(path)  # a malformed line is said at once, with its number
        except SialignError as exc:
            self._show_error("Check terms", error_text(exc))
            return False
        self.glossary_path = path
        self.session.commit_pending()
        project = snapshot(self.session.project)
        stamp = (self.session.project, self.session.undo_stack.index())

        def task(progress: ProgressFn, should_stop: StopFn) -> TermCheck:
            return check_terms(project, glossary, progress=progress, should_stop=should_stop)

        def show(check: TermCheck) -> None:
            self._last = (check, *stamp)
            self._show(check)

        return self._run_task(TaskWorker(task, "Checking terms"), show)

    def current_check(self) -> TermCheck | None:
        """The last :class:`~sialign.review.terms.TermCheck` if the project has not changed since; else None."""
        if self._last is None:
            return None
        check, project, index = self._last
        return check if project is self.session.project and index == self.session.undo_stack.index() else None

    def _show(self, check: TermCheck) -> None:
        if self.dialog is None:
            self.dialog = TermsDialog(self._parent)
            self.dialog.bead_chosen.connect(self._select)
            self.dialog.glossary_wanted.connect(self.check_terms)
        self.dialog.show_check(check)
        self.dialog.show()
        self.dialog.raise_()

    def _select(self, index: int) -> None:
        alignment = self.session.project.alignment
        if alignment is not None and index < len(alignment.beads):
            self.session.select_bead(index)
