"""The booth's live alignment: one row per source sentence, growing as the student renders the talk.

:class:`LiveTableModel` adapts the session's ``LiveUpdate`` objects
(:mod:`sialign.workflows.practice_session`):
each update holds the whole current live alignment, so the model keeps the
last one and tells the view precisely what changed — rows inserted at the
end, rows whose bead was revised — instead of resetting on every update.
Rows are tinted by state: rendered (plain), pending (grey: the student is
not past it yet) and unrendered (amber: clearly past it without a rendition).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

from sialign.core.model import Document, Project
from sialign.workflows.practice_session import LiveBead, LiveUpdate

COLUMNS = ("#", "Time", "Source", "Interpretation (live)", "State", "Shown after")
COL_NUMBER, COL_TIME, COL_SOURCE, COL_TARGET, COL_STATE, COL_LATENCY = range(len(COLUMNS))
STATE_COLOURS = {"unrendered": QColor("#ffd98a"), "pending": QColor("#eeeeee")}
# A row the live view had not reached, which the full pass at Stop found rendered (its chunks are in the main window).
FULL_PASS = "full pass"
STATE_WORDS = {"rendered": "rendered", "pending": "not reached yet", "unrendered": "NOT RENDERED",
               FULL_PASS: "rendered (full pass)"}

Index = QModelIndex | QPersistentModelIndex


def _clock(seconds: float | None) -> str:
    if seconds is None or not math.isfinite(seconds):
        return ""
    seconds = max(0.0, seconds)
    return f"{int(seconds // 60)}:{seconds % 60:04.1f}"


def live_counts(beads: Sequence[LiveBead], source: Document | None) -> dict[str, int]:
    """Sentences rendered, left out (``unrendered``) and not reached yet (``pending``), as the full pass counts them."""
    from sialign.core.coverage import NOT_REACHED, live_coverage

    if source is None:
        return {}
    covered = live_coverage(beads, source.ids())
    return {"rendered": covered.rendered, "unrendered": covered.omitted, "pending": covered.count(NOT_REACHED)}


class LiveTableModel(QAbstractTableModel):
    """Rows of the latest ``LiveUpdate`` against the talk's source ``Document``.

    Attributes:
        counts: source sentences per live state in the latest update (:func:`live_counts`).
    """

    def __init__(self, source: Document | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._source = source
        self._beads: list[LiveBead] = []
        self._target: Document | None = None
        self.counts: dict[str, int] = {}
        self.latencies: list[float] = []
        self.reviewed = False  # the rows are a rendition reviewed from a file, not a live session

    def set_source(self, source: Document | None) -> None:
        self.beginResetModel()
        self._source = source
        self._beads = []
        self._target = None
        self.counts = {}
        self.latencies = []
        self.reviewed = False
        self.endResetModel()
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, COL_TARGET, COL_TARGET)

    def show_reviewed(self, project: Project) -> None:
        """Show a rendition reviewed from a file: one row per sentence of its full pass, nothing live (no latency).

        Replaces whatever an earlier session left in the table: that was another rendition.
        """
        from sialign.core.coverage import OMITTED, coverage

        self.set_source(project.source)
        if project.alignment is None:
            return
        states = coverage(project).states
        place = {sid: i for i, sid in enumerate(project.source.ids())}
        self.beginResetModel()
        self._target = project.target
        self.reviewed = True
        for bead in project.alignment.beads:
            if not bead.src:
                continue  # an addition has no row: the rows are the talk's sentences
            left_out = all(states[place[sid]] == OMITTED for sid in bead.src if sid in place)
            self._beads.append(LiveBead(len(self._beads), tuple(bead.src), tuple(bead.tgt), math.nan, math.nan,
                                        "unrendered" if left_out or not bead.tgt else "rendered"))
        self.counts = live_counts(self._beads, self._source)
        self.endResetModel()
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, COL_TARGET, COL_TARGET)

    def apply_update(self, update: LiveUpdate) -> list[int]:
        """Show ``update``; returns the rows that are new or changed (to fit their height)."""
        old = len(self._beads)
        beads = list(update.beads)
        new = len(beads)
        self._target = update.target
        changed = sorted({i for i in update.changed if 0 <= i < new})
        if new < old:  # beads merged by a revision: rows cannot be matched one to one
            self.beginResetModel()
            self._beads = beads
            self.endResetModel()
        else:
            if new > old:
                self.beginInsertRows(QModelIndex(), old, new - 1)
                self._beads = beads
                self.endInsertRows()
            else:
                self._beads = beads
            if old:
                # Revised beads, and pending rows turning amber without being revised (the student moved on):
                # one signal for the old rows; the view repaints only what it shows.
                self.dataChanged.emit(self.index(0, 0), self.index(old - 1, len(COLUMNS) - 1))
        self.counts = live_counts(beads, self._source)
        self.latencies = [b.latency_s for b in beads if b.tgt and math.isfinite(b.latency_s)]
        return sorted(set(changed) | set(range(old, new)))

    # -- Qt model --------------------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self._beads)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return "Interpretation (from the file)" if section == COL_TARGET and self.reviewed else COLUMNS[section]
        if role == Qt.ItemDataRole.ToolTipRole and orientation == Qt.Orientation.Horizontal and section == COL_LATENCY:
            return "How long after the end of its last interpreted word the bead was shown (the live view's latency)"
        return None

    def bead(self, row: int) -> LiveBead:
        return self._beads[row]

    def revise_from(self, project: Project) -> int:
        """Revise the rows by the full pass's ``project``: a sentence it finds left out is shown so, and one it
        finds rendered is no longer amber (:mod:`sialign.core.coverage`); returns the rows revised.

        The live view decided from a few seconds of speech at a time; the full pass reads the whole recording,
        and it is what the session saves. After Stop the live table says what the saved session says.
        """
        import dataclasses

        from sialign.core.coverage import OMITTED, RENDERED, coverage

        if self._source is None or project.alignment is None:
            return 0
        states = coverage(project).states
        place = {sid: i for i, sid in enumerate(project.source.ids())}
        revised = 0
        for row, bead in enumerate(self._beads):
            found = {states[place[sid]] for sid in bead.src if sid in place}
            state = ("unrendered" if found == {OMITTED} else "rendered" if RENDERED in found and bead.tgt
                     else FULL_PASS if RENDERED in found else bead.state)
            if state != bead.state:
                self._beads[row] = dataclasses.replace(bead, state=state)
                revised += 1
        self.counts = live_counts(self._beads, self._source)
        if self._beads:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._beads) - 1, len(COLUMNS) - 1))
        return revised

    def current_row(self) -> int:
        """The last row the student has reached (rendered or left out); -1 before the first."""
        return max((i for i, b in enumerate(self._beads) if b.state != "pending"), default=-1)

    def _texts(self, doc: Document | None, ids: tuple[int, ...]) -> str:
        if doc is None or not ids:
            return ""
        parts = []
        for seg_id in ids:
            try:
                parts.append(doc.get(seg_id).text)
            except (KeyError, ValueError, IndexError):
                continue
        return doc.joiner.join(parts)

    def _start(self, ids: tuple[int, ...]) -> float | None:
        if self._source is None or not ids:
            return None
        try:
            return self._source.get(ids[0]).start
        except (KeyError, ValueError, IndexError):
            return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid():
            return None
        bead = self._beads[index.row()]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if col == COL_NUMBER:
                return str(index.row() + 1)
            if col == COL_TIME:
                return _clock(self._start(bead.src))
            if col == COL_SOURCE:
                return self._texts(self._source, bead.src)
            if col == COL_TARGET:
                return self._texts(self._target, bead.tgt)
            if col == COL_STATE:
                return STATE_WORDS.get(bead.state, bead.state)
            if col == COL_LATENCY:
                return f"{bead.latency_s:.1f} s" if bead.tgt and math.isfinite(bead.latency_s) else ""
        if role == Qt.ItemDataRole.BackgroundRole:
            colour = STATE_COLOURS.get(bead.state)
            return QBrush(colour) if colour is not None else None
        if role == Qt.ItemDataRole.ToolTipRole and col == COL_STATE and bead.state == "unrendered":
            return "The student went past this sentence without rendering it (an omission, unless the full pass finds it)"
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (COL_NUMBER, COL_TIME, COL_LATENCY):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None
