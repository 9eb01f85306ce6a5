"""The review table with its search and filter bar: one row per bead, the selection shared with the session.

:class:`TablePanel` receives the session and a narrow interface — the
low-confidence threshold and the learned filter's doubt per bead, as
callables — not the window. It owns the table model, the filter proxy and
the view, keeps the table's current row and the session's selected bead in
step, and moves to the next bead of a kind. What it wants shown in the status
bar it emits as ``message``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import (
    QEvent,
    QItemSelectionModel,
    QModelIndex,
    QPersistentModelIndex,
    QRect,
    QSettings,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QAction, QBrush, QKeyEvent, QKeySequence, QPainter
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from sialign.core.changes import Changes
from sialign.core.model import BeadStatus
from sialign.core.plurals import count_noun
from sialign.gui.common.session import ProjectSession
from sialign.gui.table.table_model import COLUMNS, Column, SegmentFilterProxy, SegmentTableModel, find_next

# The status filter's choices, in menu order.
STATUS_CHOICES: list[tuple[str, set[BeadStatus] | None]] = [
    ("All statuses", None),
    ("Auto", {BeadStatus.AUTO}),
    ("Confirmed", {BeadStatus.CONFIRMED}),
    ("Dropped", {BeadStatus.DROPPED}),
    ("Not dropped", {BeadStatus.AUTO, BeadStatus.CONFIRMED}),
]


# Keys that move the current row; with Ctrl, Qt would move it without selecting.
_CTRL_MOVES = (Qt.Key.Key_Home, Qt.Key.Key_End, Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_PageUp, Qt.Key.Key_PageDown)



def set_compact_rows(table: QTableView, compact: bool) -> None:
    """One text line per table row (many more rows on screen) or the usual two."""
    lines = 1 if compact else 2
    table.setWordWrap(not compact)
    table.verticalHeader().setDefaultSectionSize(table.fontMetrics().lineSpacing() * lines + (4 if compact else 8))

class WholeLinesDelegate(QStyledItemDelegate):
    """Draws a cell's wrapped text as whole lines only: no sliver of a third line under an elided second one."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> None:
        rect = option.rect
        spacing = option.fontMetrics.lineSpacing()
        lines = max(1, (rect.height() - 2) // spacing)
        shown = min(rect.height(), lines * spacing + 3)
        if shown >= rect.height():
            super().paint(painter, option, index)
            return
        # The strip under the last whole line gets the cell's background, not text.
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        background = index.data(Qt.ItemDataRole.BackgroundRole)
        strip = QRect(rect.left(), rect.top() + shown, rect.width(), rect.height() - shown)
        if selected:
            painter.fillRect(strip, option.palette.highlight())
        elif isinstance(background, QBrush):
            painter.fillRect(strip, background)
        else:
            painter.fillRect(strip, option.palette.base())
        painter.save()
        painter.setClipRect(QRect(rect.left(), rect.top(), rect.width(), shown))
        super().paint(painter, option, index)
        painter.restore()


# Where the table remembers the columns the reviewer hid (column numbers, comma-separated).
HIDDEN_COLUMNS_KEY = "table/hidden_columns"
# Screens narrower than this start with the cost column hidden.
NARROW_SCREEN = 1500


class SegmentTableView(QTableView):
    """The review table: one row per bead, two text lines per row, keyboard-driven."""

    context_requested = Signal(object)  # global QPoint
    # A single key nothing took (a command's key while the command is disabled, say).
    unused_key = Signal(object)  # QKeySequence

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setWordWrap(True)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.setItemDelegate(WholeLinesDelegate(self))
        self.setAlternatingRowColors(False)
        self.setSortingEnabled(True)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.customContextMenuRequested.connect(lambda pos: self.context_requested.emit(self.viewport().mapToGlobal(pos)))
        vertical = self.verticalHeader()
        # Fixed two-line rows: resizing 5,000 rows to their contents would
        # stall the GUI; the inspector shows a bead's full text.
        vertical.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vertical.setDefaultSectionSize(self.fontMetrics().lineSpacing() * 2 + 8)
        vertical.setDefaultAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
        header = self.horizontalHeader()
        header.setHighlightSections(False)
        header.setStretchLastSection(False)
        # Right-click a column title: show or hide the figure columns.
        header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        header.customContextMenuRequested.connect(lambda pos: self.column_menu().exec(header.mapToGlobal(pos)))

    def selectionCommand(self, index: QModelIndex | QPersistentModelIndex,
                         event: QEvent | None = None) -> QItemSelectionModel.SelectionFlag:
        # Ctrl+Home, Ctrl+End and Ctrl+arrows move without selecting in Qt, which left
        # the old rows highlighted while the keys acted on the new bead: select it.
        if isinstance(event, QKeyEvent) and event.modifiers() & Qt.KeyboardModifier.ControlModifier and event.key() in _CTRL_MOVES:
            return QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        return super().selectionCommand(index, event)

    def keyboardSearch(self, search: str) -> None:
        # Typing a letter must not jump to a row whose text starts with it: the
        # letters are review keys, and a disabled one would silently move the selection.
        return

    def keyPressEvent(self, event: QKeyEvent) -> None:
        super().keyPressEvent(event)
        modifiers = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        if event.text() and event.text().isprintable() and modifiers in (Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.ShiftModifier):
            self.unused_key.emit(QKeySequence(event.keyCombination()))

    def column_menu(self) -> QMenu:
        """One checkable entry per column but the two texts; the choice is remembered."""
        menu = QMenu(self)
        model = self.model()
        header = self.horizontalHeader()
        for column in sorted(Column, key=header.visualIndex):  # as they stand in the table
            if column in (Column.SOURCE, Column.TARGET):
                continue
            action = menu.addAction(str(model.headerData(column, Qt.Orientation.Horizontal)) if model is not None else column.name)
            action.setCheckable(True)
            action.setChecked(not self.isColumnHidden(column))
            action.toggled.connect(lambda shown, c=column: self.show_column(c, shown))
        return menu

    def show_column(self, column: Column, shown: bool) -> None:
        self.setColumnHidden(column, not shown)
        QSettings().setValue(HIDDEN_COLUMNS_KEY, ",".join(str(int(c)) for c in Column if self.isColumnHidden(c)))

    def configure_columns(self) -> None:
        header = self.horizontalHeader()
        for spec in COLUMNS:
            if spec.width is None:
                header.setSectionResizeMode(spec.column, QHeaderView.ResizeMode.Stretch)
        # Widths in digits of the table font: the average character width of a
        # font with a CJK fallback is that of a full-width character.
        digit = self.fontMetrics().horizontalAdvance("0")
        for spec in COLUMNS:
            if spec.width is not None:
                header.setSectionResizeMode(spec.column, QHeaderView.ResizeMode.Interactive)
                self.setColumnWidth(spec.column, digit * spec.width + 12)
        # The aligner's confidence, the doubt and the rendered share read best beside the cost:
        # all say how much of the bead to trust.
        beside = sorted((spec for spec in COLUMNS if spec.beside_cost), key=lambda spec: spec.beside_cost)
        for offset, column in enumerate((spec.column for spec in beside), start=1):
            if header.visualIndex(column) != header.visualIndex(Column.COST) + offset:
                header.moveSection(header.visualIndex(column), header.visualIndex(Column.COST) + offset)
        # Which figure columns show: as the reviewer left them; at first, on a screen too
        # narrow for all of them, the cost gives way to the texts (Conf. says more, the
        # row's tooltip keeps the cost).
        saved = QSettings().value(HIDDEN_COLUMNS_KEY)
        if saved is None:
            screen = self.screen()
            hidden = {Column.COST} if screen is not None and screen.availableGeometry().width() < NARROW_SCREEN else set()
        else:
            hidden = {Column(int(x)) for x in str(saved).split(",") if x.strip().isdigit() and int(x) in set(Column)}
        for column in Column:
            self.setColumnHidden(column, column in hidden and column not in (Column.SOURCE, Column.TARGET))


class TablePanel(QWidget):
    """Search and filter bar, navigation buttons, the review table and the count of shown beads.

    Args:
        session: the open project, its selection and its edits.
        low_confidence: the cost above which an unreviewed bead counts as low-confidence.
        doubt: the learned filter's doubt per bead (keyed as :class:`~sialign.gui.filters.doubt.DoubtService` keys it),
            and whether it is still being computed.

    Signals:
        message(str, int): text for the status bar and how long to show it (ms).
    """

    message = Signal(str, int)

    def __init__(
        self,
        session: ProjectSession,
        low_confidence: Callable[[], float],
        doubt: Callable[[], tuple[dict[Any, float], bool]],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.session = session
        self._low_confidence = low_confidence
        self._doubt = doubt
        self._syncing = False
        self._shown_pending = False

        self.model = SegmentTableModel(lambda: self.session.project, self)
        self.proxy = SegmentFilterProxy(self)
        self.proxy.setSourceModel(self.model)
        self.table = SegmentTableView()
        self.table.setModel(self.proxy)
        self.table.configure_columns()

        self.search_edit = QLineEdit()
        self.search_edit.setPlaceholderText("Search source, target and notes…  (Ctrl+F)")
        self.search_edit.setClearButtonEnabled(True)
        self.regex_box = QCheckBox("Regex")
        self.status_filter = QComboBox()
        self.status_filter.addItems([name for name, _ in STATUS_CHOICES])
        self.flag_filter = QComboBox()
        self.flag_filter.addItem("All beads", None)
        self.flag_filter.addItem("Flagged", "any")
        self.cost_filter = QDoubleSpinBox()
        self.cost_filter.setRange(0.0, 2.0)
        self.cost_filter.setSingleStep(0.05)
        self.cost_filter.setPrefix("cost ≥ ")
        self.cost_filter.setSpecialValueText("any cost")
        self.cost_filter.setToolTip("Show only beads costing at least this much")
        self.search_message = QLabel("")
        self.search_message.setStyleSheet("color: #b00020;")
        self.shown_label = QLabel("")
        top = QHBoxLayout()
        top.addWidget(self.search_edit, 3)
        for widget in (self.regex_box, self.status_filter, self.flag_filter, self.cost_filter):
            top.addWidget(widget)
        self.nav = QHBoxLayout()
        self.nav.addWidget(self.search_message, 1)
        self.nav.addWidget(self.shown_label)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.setSpacing(2)
        layout.addLayout(top)
        layout.addLayout(self.nav)
        layout.addWidget(self.table, 1)

        self.search_edit.textChanged.connect(self._search_changed)
        self.regex_box.toggled.connect(self._search_changed)
        self.status_filter.currentIndexChanged.connect(self._status_filter_changed)
        self.flag_filter.currentIndexChanged.connect(self._flag_filter_changed)
        self.cost_filter.valueChanged.connect(self._cost_filter_changed)
        # The source's signals too: with a search active, a merge removes a hidden row the proxy never reports.
        for model in (self.proxy, self.model):
            for signal in (model.rowsInserted, model.rowsRemoved, model.modelReset, model.layoutChanged):
                signal.connect(self._update_shown_later)
        # A model reset resets the header's section modes; set them again.
        self.proxy.modelReset.connect(self.table.configure_columns)
        self.table.selectionModel().currentRowChanged.connect(self._current_row_changed)
        session.selection_changed.connect(self.show_selection)
        # After an edit, undo or redo the session has chosen the bead to follow
        # (once its views updated): the table selects that row alone.
        session.edited.connect(self._reselect_later)
        session.alignment_replaced.connect(self._reselect_later)

    def add_navigation(self, actions: list[QAction]) -> None:
        """Buttons for the "next bead of a kind" actions, left of the search message."""
        for position, action in enumerate(actions):
            button = QToolButton()
            button.setDefaultAction(action)
            self.nav.insertWidget(position, button)

    # -- which beads ------------------------------------------------------------
    def selected_beads(self) -> list[int]:
        """Bead indices of the table's selected rows, or the session's selected bead."""
        rows = self.table.selectionModel().selectedRows()
        indices = sorted({self.proxy.bead_of(r) for r in rows} - {-1})
        current = self.session.selected_bead
        if current >= 0 and current not in indices:
            # The reviewer moved on without selecting (Ctrl+End, the matrix): keys
            # act on the bead shown and highlighted, never on rows left behind.
            indices = [current]
        return indices

    def show_selection(self, index: int) -> None:
        """Make bead ``index`` the table's current row (none when -1 or hidden by the filters)."""
        if self._syncing:
            return
        self._syncing = True
        try:
            row = self.proxy.proxy_row_of(index) if index >= 0 else -1
            selection = self.table.selectionModel()
            if row < 0:
                # No bead, or one the table's filters hide: no row may look selected.
                selection.clearSelection()
                selection.setCurrentIndex(QModelIndex(), QItemSelectionModel.SelectionFlag.NoUpdate)
            else:
                proxy_index = self.proxy.index(row, 0)
                current = selection.currentIndex()
                selected = {index.row() for index in selection.selectedRows()}
                if not current.isValid() or current.row() != row or selected != {row}:
                    # The session chose this bead (undo, an edit, the matrix): the
                    # table selects exactly its row, so the next action acts on it alone.
                    flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
                    selection.setCurrentIndex(proxy_index, flags)
                self.table.scrollTo(proxy_index, QAbstractItemView.ScrollHint.EnsureVisible)
        finally:
            self._syncing = False

    def _reselect_later(self, changes: Changes | None = None) -> None:
        # Only when beads were merged, split or replaced: rows inserted inside a
        # selection widen it. A status or label change keeps a group selected.
        if changes is not None and not (changes.beads or changes.alignment):
            return
        QTimer.singleShot(0, self.table, lambda: self.show_selection(self.session.selected_bead))

    def _current_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if self._syncing:
            return
        self._syncing = True
        try:
            self.session.select_bead(self.proxy.bead_of(current))
        finally:
            self._syncing = False

    # -- search and filters ---------------------------------------------------------
    def _search_changed(self, *_: Any) -> None:
        message = self.proxy.set_search(self.search_edit.text(), regex=self.regex_box.isChecked())
        self.search_message.setText(message or "")
        self.update_shown()

    def _status_filter_changed(self, index: int) -> None:
        self.proxy.set_statuses(STATUS_CHOICES[index][1])
        self.update_shown()

    def _flag_filter_changed(self, _index: int) -> None:
        self.proxy.set_flag(self.flag_filter.currentData())
        self.update_shown()

    def _cost_filter_changed(self, value: float) -> None:
        self.proxy.set_cost_min(value if value > 0 else None)
        self.update_shown()

    def show_only(self, beads: list[int] | None) -> None:
        """Show only these beads (the filter panel's preview), or every bead again (None)."""
        self.proxy.set_only(beads)
        self.update_shown()

    def clear_filters(self) -> None:
        """Show every row again: no search, every status, flag and cost."""
        self.search_edit.clear()
        self.status_filter.setCurrentIndex(0)
        self.flag_filter.setCurrentIndex(0)
        self.cost_filter.setValue(0.0)
        self.show_only(None)

    def focus_search(self) -> None:
        self.search_edit.setFocus()
        self.search_edit.selectAll()

    def refresh_flag_filter(self) -> None:
        """Offer one "Flag: name" entry per flag the alignment's beads carry (and "trimmed")."""
        names: set[str] = set()
        alignment = self.session.project.alignment
        for bead in alignment.beads if alignment is not None else []:
            names.update(f.name for f in bead.failed_flags)
            if bead.trimmed:
                names.add("trimmed")
        current = self.flag_filter.currentData()
        self.flag_filter.blockSignals(True)
        while self.flag_filter.count() > 2:
            self.flag_filter.removeItem(2)
        for name in sorted(names):
            self.flag_filter.addItem(f"Flag: {name}", name)
        index = self.flag_filter.findData(current)
        self.flag_filter.setCurrentIndex(max(0, index))
        self.flag_filter.blockSignals(False)
        self.update_shown()

    def _update_shown_later(self, *_: Any) -> None:
        """From the models' row signals, while the source and the proxy may still disagree about a merge."""
        if not self._shown_pending:
            self._shown_pending = True
            QTimer.singleShot(0, self.update_shown)

    def update_shown(self, *_: Any) -> None:
        self._shown_pending = False
        total = self.model.rowCount()
        shown = self.proxy.rowCount()
        self.shown_label.setText(f"{shown} of {count_noun(total, 'bead')} shown" if shown != total else count_noun(total, "bead"))
        if shown:
            # The row numbers are bead numbers: rows hidden by a search may have moved them.
            self.proxy.headerDataChanged.emit(Qt.Orientation.Vertical, 0, shown - 1)

    # -- moving -----------------------------------------------------------------------
    def go_next(self, predicate: Callable[..., bool], backwards: bool = False) -> None:
        alignment = self.session.project.alignment
        if alignment is None:
            return
        index = find_next(alignment.beads, self.session.selected_bead, predicate, self._low_confidence(),
                          backwards=backwards)
        if index < 0:
            self.message.emit("No such bead left.", 5000)
            return
        self.go_to(index)

    def go_to(self, index: int) -> None:
        """Select bead ``index`` and focus the table (saying so when the table's filters hide it)."""
        if self.proxy.proxy_row_of(index) < 0:
            self.message.emit(f"Bead {index + 1} is hidden by the table's filters.", 5000)
        self.session.select_bead(index)
        self.table.setFocus()

    def go_most_doubtful(self) -> None:
        """Select the unreviewed bead still in the output with the highest doubt (the model retrains after each review).

        Of the unreviewed beads (:attr:`~sialign.core.model.Bead.unreviewed`, which
        :func:`most_doubtful` reads), the dropped ones are left out: the aligner's
        omissions have a doubt of 1 by construction and would always come first.
        """
        from sialign.core.model import BeadStatus
        from sialign.workflows.doubt import most_doubtful

        alignment = self.session.project.alignment
        if alignment is None:
            return
        by_bead, busy = self._doubt()
        dropped = {(b.src, b.tgt) for b in alignment.beads if b.status is BeadStatus.DROPPED}
        index = most_doubtful(alignment.beads, {key: v for key, v in by_bead.items() if key not in dropped})
        if index < 0:
            self.message.emit(
                "The doubt is still being computed." if busy or not by_bead else "No unreviewed bead left.", 5000
            )
            return
        self.go_to(index)
