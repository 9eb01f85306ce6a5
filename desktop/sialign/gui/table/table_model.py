"""The segment table: one row per bead, adapting the session's alignment.

:class:`SegmentTableModel` does not own the alignment; it keeps a cache of
the beads' rows (:class:`sialign.core.bead_rows.BeadRow`, the row the exports
write too) so that painting 5,000 beads never re-joins segment texts; what a
cell shows (formatted text, sort key, colour) is derived from the row, and
each column is one entry of :data:`COLUMNS`. After each edit it diffs cheap per-bead fingerprints to
emit the precise ``rowsRemoved`` / ``rowsInserted`` / ``dataChanged`` signals
for the range that changed. :class:`SegmentFilterProxy` sorts and filters the
rows (status, flags, cost, plain or regex search over both sides).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, QSortFilterProxyModel, Qt
from PySide6.QtGui import QBrush, QColor

from sialign.core.bead_rows import BeadRow, bead_row
from sialign.core.bead_summary import (
    DEFAULT_LOW_CONFIDENCE,
    LOW_PROBABILITY,
    cost_threshold_for,
    low_confidence_of,
    unscored_machine_beads,
)

# The table's "next low-confidence" rule is the summary's (the status bar counts the same beads).
from sialign.core.bead_summary import is_low_confidence as is_low_confidence
from sialign.core.model import Alignment, Bead, BeadStatus, Project

SORT_ROLE = Qt.ItemDataRole.UserRole + 1
BEAD_INDEX_ROLE = Qt.ItemDataRole.UserRole + 2

_Index = QModelIndex | QPersistentModelIndex


class Column(IntEnum):
    """Columns of the segment table, in display order."""

    SOURCE = 0
    TARGET = 1
    COST = 2
    STATUS = 3
    FLAGS = 4
    TIMES = 5
    # Last in the model (older layouts keep their column numbers); the view shows them after the cost.
    DOUBT = 6
    CONFIDENCE = 7
    # Share of the source's content words with a word link (sialign.core.word_links).
    RENDERED = 8


STATUS_COLOURS = {
    BeadStatus.AUTO: None,
    BeadStatus.CONFIRMED: QColor(214, 240, 214),
    BeadStatus.DROPPED: QColor(236, 236, 236),
}
FLAGGED_COLOUR = QColor(255, 236, 200)
LOW_CONFIDENCE_COLOUR = QColor(250, 218, 218)
DROPPED_TEXT_COLOUR = QColor(130, 130, 130)


def _fmt_time(t: float | None, decimals: int = 2) -> str:
    if t is None:
        return "?"
    minutes, seconds = divmod(t, 60.0)
    width = 3 + decimals if decimals else 2
    return f"{int(minutes)}:{seconds:0{width}.{decimals}f}"


def bead_fingerprint(bead: Bead) -> tuple[Any, ...]:
    """Everything about a bead that changes what its row shows, as immutable values."""
    return (
        bead.src,
        bead.tgt,
        bead.cost,
        bead.confidence,
        bead.status,
        bead.reason,
        bead.good_align,
        bead.good_mt,
        bead.note,
        bead.post_edit,
        bead.trimmed,
        tuple((f.name, f.score, f.threshold, f.reason, f.failed) for f in bead.flags),
    )


def _labels(row: BeadRow) -> str:
    labels = []
    if row.good_align is not None:
        labels.append("align ✓" if row.good_align else "align ✗")
    if row.good_mt is not None:
        labels.append("MT ✓" if row.good_mt else "MT ✗")
    return ", ".join(labels)


@functools.lru_cache(maxsize=8192)
def flags_text(row: BeadRow) -> str:
    """The Flags / reasons cell: the drop reason, each failed check with its reason, the trimmed chunks."""
    reasons = [f"{name}: {reason}" if reason else name for name, reason in zip(row.flags, row.flag_reasons)]
    if row.trimmed_tgt_ids:
        reasons.append(f"trimmed: {row.trimmed_text}")
    if row.status == BeadStatus.DROPPED.value and row.reason:
        reasons.insert(0, row.reason)
    return "; ".join(reasons)


def flag_names(row: BeadRow) -> frozenset[str]:
    """The failed checks' names, and ``trimmed`` for a bead with trimmed chunks (the filter bar's choices)."""
    return frozenset(row.flags) | ({"trimmed"} if row.trimmed_tgt_ids else frozenset())


def times_text(row: BeadRow) -> str:
    """The Times · EVS cell: where each side starts and the lag."""
    if row.src_start is None and row.tgt_start is None:
        return ""
    text = f"{_fmt_time(row.src_start, 1)} → {_fmt_time(row.tgt_start, 1)}"
    return text if row.start_lag is None else text + f" · EVS {row.start_lag:+.1f} s"


def _spans(row: BeadRow) -> str:
    if row.src_start is None and row.tgt_start is None:
        return ""
    return (f"source {_fmt_time(row.src_start)}–{_fmt_time(row.src_end)}, "
            f"interpretation {_fmt_time(row.tgt_start)}–{_fmt_time(row.tgt_end)}")


def _status_text(row: BeadRow) -> str:
    # A note shows as a mark here and whole in the tooltip (the search finds it too).
    return " · ".join(part for part in (row.status, _labels(row), "✎ note" if row.note else "") if part)


def _number(value: float | None, empty: str = "") -> str:
    return empty if value is None else f"{value:.2f}"


def _or(value: float | None, missing: float) -> float:
    return missing if value is None else value


@dataclass(frozen=True)
class ColumnSpec:
    """One column of the table: its header, its cell text and its sort key, from the bead's row and its doubt.

    Attributes:
        column: which column.
        header: the header's text.
        text: the cell's text.
        sort: the sort key (None: the text).
        numeric: right-aligned.
        width: the column's starting width in digits of the table font (None: it stretches, as the texts do).
        beside_cost: where the view shows it after the cost (1: right after it; 0: where the model has it):
            the figures that say how much of the bead to trust stand together.
    """

    column: Column
    header: str
    text: Callable[[BeadRow, float | None], str]
    sort: Callable[[BeadRow, float | None], Any] | None = None
    numeric: bool = False
    width: int | None = None
    beside_cost: int = 0


# The table's columns, in model order (adding a column: a Column member and one entry here).
COLUMNS: tuple[ColumnSpec, ...] = (
    ColumnSpec(Column.SOURCE, "Source", lambda row, doubt: row.source),
    ColumnSpec(Column.TARGET, "Target", lambda row, doubt: row.target),
    ColumnSpec(Column.COST, "Cost", lambda row, doubt: _number(row.cost, "–"), lambda row, doubt: _or(row.cost, -1.0), numeric=True,
               width=5),
    ColumnSpec(Column.STATUS, "Status", lambda row, doubt: _status_text(row), width=10),
    ColumnSpec(Column.FLAGS, "Flags / reasons", lambda row, doubt: flags_text(row),
               lambda row, doubt: (len(flag_names(row)), flags_text(row)), width=13),
    ColumnSpec(Column.TIMES, "Times · EVS", lambda row, doubt: times_text(row), lambda row, doubt: _or(row.start_lag, float("inf")),
               width=16),
    ColumnSpec(Column.DOUBT, "Doubt", lambda row, doubt: _number(doubt), lambda row, doubt: _or(doubt, -1.0), numeric=True,
               width=5, beside_cost=2),
    ColumnSpec(Column.CONFIDENCE, "Conf.", lambda row, doubt: _number(row.confidence), lambda row, doubt: _or(row.confidence, -1.0),
               numeric=True, width=5, beside_cost=1),
    ColumnSpec(Column.RENDERED, "Rendered", lambda row, doubt: "" if row.rendered is None else f"{100 * row.rendered:.0f}%",
               lambda row, doubt: _or(row.rendered, 2.0), numeric=True, width=8, beside_cost=3),
)
HEADERS = {spec.column: spec.header for spec in COLUMNS}


def _common_range(old: Sequence[Any], new: Sequence[Any]) -> tuple[int, int, int]:
    """(start, old_stop, new_stop): the smallest slice outside which both lists agree."""
    n_old, n_new = len(old), len(new)
    start = 0
    limit = min(n_old, n_new)
    while start < limit and old[start] == new[start]:
        start += 1
    old_stop, new_stop = n_old, n_new
    while old_stop > start and new_stop > start and old[old_stop - 1] == new[new_stop - 1]:
        old_stop -= 1
        new_stop -= 1
    return start, old_stop, new_stop


class SegmentTableModel(QAbstractTableModel):
    """Rows = beads of the alignment of ``project_getter()``; read-only (edits go through the session).

    Args:
        project_getter: returns the current project (the session's), so the
            model follows project replacement without holding a stale one.
    """

    def __init__(self, project_getter: Callable[[], Project], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._project_getter = project_getter
        # Rendered lazily: a row is rendered when first painted, sorted or
        # filtered, so opening or re-aligning a 5,000-bead talk only
        # fingerprints the beads.
        self._rows: list[BeadRow | None] = []
        # The bead object behind each row, updated in step with the row
        # signals, so a row rendered while an edit's signals are being
        # emitted shows the bead the view believes is there.
        self._bead_refs: list[Bead] = []
        self._fingerprints: list[tuple[Any, ...]] = []
        self._documents_key: tuple[int, int] = (0, 0)
        self.low_confidence = DEFAULT_LOW_CONFIDENCE
        # Doubt of the learned filter keyed by (src ids, tgt ids): a bead an
        # edit changed shows none until the model has scored it again.
        self._doubt: dict[tuple[tuple[int, ...], tuple[int, ...]], float] = {}
        self.reset()

    # -- synchronisation ----------------------------------------------------
    @property
    def project(self) -> Project:
        return self._project_getter()

    def _beads(self) -> list[Bead]:
        alignment: Alignment | None = self.project.alignment
        return alignment.beads if alignment is not None else []

    def reset(self) -> None:
        """Re-render every row (a new project or a new alignment)."""
        self.beginResetModel()
        beads = self._beads()
        self._rows = [None] * len(beads)
        self._bead_refs = list(beads)
        self._fingerprints = [bead_fingerprint(b) for b in beads]
        self.endResetModel()

    def sync(self, touched_segments: Iterable[tuple[str, int]] = ()) -> None:
        """Bring the rows in line with the alignment after an edit, with precise signals.

        Beads whose fingerprint changed are found by a prefix/suffix diff;
        ``touched_segments`` ((side, seg_id) pairs) adds beads whose segment
        text or times changed without changing the bead itself.
        """
        beads = self._beads()
        new_prints = [bead_fingerprint(b) for b in beads]
        start, old_stop, new_stop = _common_range(self._fingerprints, new_prints)
        n_old = old_stop - start
        n_new = new_stop - start
        # Rows present on both sides of the diff change in place; the rest are
        # removed or inserted, so selections and sort order survive elsewhere.
        common = min(n_old, n_new)
        if common:
            self._rows[start : start + common] = [None] * common
            self._bead_refs[start : start + common] = beads[start : start + common]
            self._fingerprints[start : start + common] = new_prints[start : start + common]
            self.dataChanged.emit(self.index(start, 0), self.index(start + common - 1, len(Column) - 1))
        if n_old > common:
            first = start + common
            self.beginRemoveRows(QModelIndex(), first, start + n_old - 1)
            del self._rows[first : start + n_old]
            del self._bead_refs[first : start + n_old]
            del self._fingerprints[first : start + n_old]
            self.endRemoveRows()
        elif n_new > common:
            first = start + common
            last = start + n_new - 1
            self.beginInsertRows(QModelIndex(), first, last)
            self._rows[first:first] = [None] * (last + 1 - first)
            self._bead_refs[first:first] = beads[first : last + 1]
            self._fingerprints[first:first] = new_prints[first : last + 1]
            self.endInsertRows()
        extra: set[int] = set()
        touched = list(touched_segments)
        if len(touched) > 8:
            # Many segments (times shifted along a whole side): one pass over the beads.
            where = {(side, seg_id): i for i, b in enumerate(beads) for side in ("src", "tgt")
                     for seg_id in (b.src if side == "src" else b.tgt)}
            extra = {where[t] for t in touched if t in where}
            touched = []
        for side, seg_id in touched:
            row = self._bead_of_segment(beads, side, seg_id)
            if row is not None:
                extra.add(row)
        for row in sorted(extra):
            self._rows[row] = None
            self.dataChanged.emit(self.index(row, 0), self.index(row, len(Column) - 1))

    @staticmethod
    def _bead_of_segment(beads: list[Bead], side: str, seg_id: int) -> int | None:
        for i, b in enumerate(beads):
            if seg_id in (b.src if side == "src" else b.tgt):
                return i
        return None

    def set_doubt(self, doubt: dict[tuple[tuple[int, ...], tuple[int, ...]], float]) -> None:
        """Show the learned filter's doubt (keyed by (src ids, tgt ids)) in the Doubt column."""
        self._doubt = doubt
        if self._rows:
            self.dataChanged.emit(self.index(0, Column.DOUBT), self.index(len(self._rows) - 1, Column.DOUBT))

    def doubt(self, index: int) -> float | None:
        """The doubt of bead ``index``, or None while it has none."""
        bead = self._bead_refs[index]
        return self._doubt.get((bead.src, bead.tgt))

    def links_changed(self) -> None:
        """Show the word links drawn since (the Rendered column and its tooltip)."""
        if self._rows:
            self._rows = [None] * len(self._rows)
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._rows) - 1, len(Column) - 1))

    def set_low_confidence(self, threshold: float) -> None:
        self.low_confidence = threshold
        if self._rows:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._rows) - 1, len(Column) - 1))

    # -- row access ---------------------------------------------------------
    def row(self, index: int) -> BeadRow:
        """The row of bead ``index`` (made now if it never was)."""
        row = self._rows[index]
        if row is None:
            row = bead_row(self.project, index, self._bead_refs[index])
            self._rows[index] = row
        return row

    def cost_threshold(self) -> float:
        """The cost above which an unscored row is low confidence in this project (:func:`cost_threshold_for`)."""
        return cost_threshold_for(self.project, self.low_confidence)

    def is_low_confidence(self, row: BeadRow) -> bool:
        return low_confidence_of(row.cost, row.confidence, self.cost_threshold(), row.rendered)

    # -- QAbstractTableModel -----------------------------------------------
    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(Column)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal:
            return HEADERS[Column(section)]
        # Bead numbers live in the vertical header: they shift when beads are
        # merged or split, and a header renumbers itself without dataChanged.
        return str(section + 1)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        r = index.row()
        if r >= len(self._rows):
            return None
        row = self.row(r)
        col = Column(index.column())
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(r, row, col)
        if role == SORT_ROLE:
            return self._sort_key(r, row, col)
        if role == BEAD_INDEX_ROLE:
            return r
        if role == Qt.ItemDataRole.BackgroundRole:
            colour = self._background(row)
            return QBrush(colour) if colour is not None else None
        if role == Qt.ItemDataRole.ForegroundRole:
            if row.status == BeadStatus.DROPPED.value:
                return QBrush(DROPPED_TEXT_COLOUR)
            return None
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(r, row)
        if role == Qt.ItemDataRole.TextAlignmentRole and COLUMNS[col].numeric:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        return None

    def _display(self, r: int, row: BeadRow, col: Column) -> str:
        return COLUMNS[col].text(row, self.doubt(r) if col is Column.DOUBT else None)

    def _sort_key(self, r: int, row: BeadRow, col: Column) -> Any:
        spec = COLUMNS[col]
        doubt = self.doubt(r) if col is Column.DOUBT else None
        return (spec.sort or spec.text)(row, doubt)

    def _background(self, row: BeadRow) -> QColor | None:
        if row.status != BeadStatus.AUTO.value:
            return STATUS_COLOURS[BeadStatus(row.status)]
        if row.flagged:
            return FLAGGED_COLOUR
        if self.is_low_confidence(row):
            return LOW_CONFIDENCE_COLOUR
        return None

    def _tooltip(self, r: int, row: BeadRow) -> str:
        lines = [f"Bead {r + 1} ({row.kind}), {row.status}"]
        if row.cost is not None:
            lines[0] += f", cost {row.cost:.3f}"
        else:
            lines[0] += ", no cost: the reviewer merged or split it (Re-align unconfirmed scores it again)"
        if self.is_low_confidence(row):
            lines[0] += (" (low confidence: its words render none of the source)" if row.rendered is not None and row.rendered <= 0
                         else f" (low confidence: Conf. below {LOW_PROBABILITY:g})" if row.confidence is not None
                         else f" (low confidence: cost above {self.cost_threshold():g})")
        if row.confidence is None and row.cost is not None and unscored_machine_beads(self.project):
            lines.append("No confidence: the talk was aligned over a machine transcript, where the text cost does not "
                         "tell right beads from wrong ones; check the rows by ear (the audio) and by what they say")
        if row.confidence is not None:
            what = "the sentence has no rendition" if row.kind.endswith("-0") else (
                "the chunk renders nothing" if row.kind.startswith("0-") else "the bead is right")
            lines.append(f"Confidence {row.confidence:.2f}: probability that {what}, by the aligner's learned bead score")
        doubt = self.doubt(r)
        if doubt is not None:
            lines.append(f"Doubt {doubt:.2f}: probability the bead is wrong, learned from the reviewed beads")
        if row.rendered is not None:
            line = f"Rendered {100 * row.rendered:.0f}%: share of the source's content words linked or rendered by paraphrase"
            if row.paraphrased:
                line += "; by paraphrase: " + ", ".join(row.paraphrased[:12])
            lines.append(line + ("; not found: " + ", ".join(row.unrendered[:12]) if row.unrendered else ""))
        for line in (flags_text(row), _labels(row), _spans(row)):
            if line:
                lines.append(line)
        if row.note:
            lines.append(f"Note: {row.note}")
        return "\n".join(lines)


class SegmentFilterProxy(QSortFilterProxyModel):
    """Sort by any column and filter beads by status, flag, cost and text search."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setSortRole(SORT_ROLE)
        self.setDynamicSortFilter(True)
        self._statuses: frozenset[BeadStatus] | None = None
        self._flag: str | None = None
        self._flagged_only = False
        self._cost_min: float | None = None
        self._pattern: re.Pattern[str] | None = None
        self._only: frozenset[int] | None = None

    def _model(self) -> SegmentTableModel:
        model = self.sourceModel()
        assert isinstance(model, SegmentTableModel)
        return model

    def _change_filter(self, **values: Any) -> None:
        # Qt >= 6.10 wants begin/endFilterChange around the change; older
        # releases only have invalidateRowsFilter (deprecated since).
        if hasattr(self, "endFilterChange"):
            self.beginFilterChange()
            for name, value in values.items():
                setattr(self, name, value)
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:
            for name, value in values.items():
                setattr(self, name, value)
            self.invalidateRowsFilter()

    def set_statuses(self, statuses: Iterable[BeadStatus] | None) -> None:
        """Show only beads with one of ``statuses`` (None: all)."""
        self._change_filter(_statuses=frozenset(statuses) if statuses is not None else None)

    def set_flag(self, flag: str | None) -> None:
        """Show only beads failing filter ``flag`` ("any" for any failed filter, "trimmed" for trimmed beads, None: all)."""
        self._change_filter(_flag=flag)

    def set_cost_min(self, cost_min: float | None) -> None:
        """Show only beads costing at least ``cost_min`` (None: all)."""
        self._change_filter(_cost_min=cost_min)

    def set_only(self, beads: Iterable[int] | None) -> None:
        """Show only these bead indices (the filter panel's "would change" list; None: all)."""
        self._change_filter(_only=frozenset(beads) if beads is not None else None)

    def set_search(self, text: str, *, regex: bool = False, case_sensitive: bool = False) -> str | None:
        """Search both sides; returns an error message for a bad regex (filter unchanged) or None."""
        flags = 0 if case_sensitive else re.IGNORECASE
        pattern: re.Pattern[str] | None = None
        if text:
            try:
                pattern = re.compile(text if regex else re.escape(text), flags)
            except re.error as exc:
                return f"Not a valid regular expression: {exc}"
        self._change_filter(_pattern=pattern)
        return None

    def filterAcceptsRow(self, source_row: int, source_parent: _Index) -> bool:
        if self._only is not None and source_row not in self._only:
            return False
        if self._statuses is None and self._flag is None and self._cost_min is None and self._pattern is None:
            return True  # without a filter, rows need not even be rendered
        model = self._model()
        row = model.row(source_row)
        if self._statuses is not None and BeadStatus(row.status) not in self._statuses:
            return False
        # "Flagged" shows what the status bar counts (Bead.flagged: kept, a check failed); a check's own entry
        # shows every bead it failed on, dropped ones too; trimming is its own entry.
        if self._flag == "any" and not row.flagged:
            return False
        if self._flag not in (None, "any") and self._flag not in flag_names(row):
            return False
        if self._cost_min is not None and (row.cost is None or row.cost < self._cost_min):
            return False
        if self._pattern is not None and not (
            self._pattern.search(row.source) or self._pattern.search(row.target) or self._pattern.search(row.note)
        ):
            return False
        return True

    def bead_of(self, proxy_index: QModelIndex) -> int:
        """The bead index (source row) behind a proxy index, or -1."""
        if not proxy_index.isValid():
            return -1
        return self.mapToSource(proxy_index).row()

    def proxy_row_of(self, bead_index: int) -> int:
        """The visible row showing ``bead_index``, or -1 when filtered out."""
        model = self._model()
        if not 0 <= bead_index < model.rowCount():
            return -1
        return self.mapFromSource(model.index(bead_index, 0)).row()


def is_unreviewed(bead: Bead, low_confidence: float) -> bool:
    """Neither confirmed nor dropped by the reviewer (:attr:`~sialign.core.model.Bead.unreviewed`)."""
    return bead.unreviewed


def is_omission(bead: Bead, low_confidence: float) -> bool:
    """A bead of sentences left out (:mod:`sialign.core.coverage`), whatever its status."""
    from sialign.core.coverage import OMITTED, bead_state

    return bead_state(bead) == OMITTED


def is_flagged(bead: Bead, low_confidence: float) -> bool:
    """Kept, and a check failed on it (:attr:`~sialign.core.model.Bead.flagged`, what the status bar counts)."""
    return bead.flagged


def find_next(
    beads: Sequence[Bead],
    current: int,
    predicate: Callable[[Bead, float], bool],
    low_confidence: float = DEFAULT_LOW_CONFIDENCE,
    *,
    backwards: bool = False,
) -> int:
    """The next bead after ``current`` (wrapping round) satisfying ``predicate``; -1 if none.

    ``current`` may be -1 (nothing selected): the search then starts at the
    first bead (or the last, backwards).
    """
    n = len(beads)
    if n == 0:
        return -1
    step = -1 if backwards else 1
    start = current if current >= 0 else (n if backwards else -1)
    for k in range(1, n + 1):
        i = (start + step * k) % n
        if predicate(beads[i], low_confidence):
            return i
    return -1
