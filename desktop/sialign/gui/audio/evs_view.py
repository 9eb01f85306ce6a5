"""The ear-voice span of every bead over the talk, with its statistics in numbers.

Each point is a bead: x = when the source material starts, y = how long
after it the interpretation starts. The median is a line, the quartile range
a band; outliers (Tukey's 1.5 IQR fences) are red, and they are usually the
first beads worth checking — either a misalignment or a real lapse. Clicking a
point selects its bead everywhere.

The key sits in a line of text above the plot rather than inside it, so it
never covers points, and the view sheds its title, the key and the long
axis label as it gets small (a docked panel can be a few rows high). Lags are
recomputed with array operations (``sialign.evaluate.evs.evs_table``), only
for edits that can change them, and at most once per pass of the event
loop: a burst of edits (an undo macro, a filter run) costs one redraw,
a moment after the edit itself has been shown. While the view is hidden (a
tab behind the matrix) the work waits until it is shown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QFontMetrics, QResizeEvent, QShowEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QVBoxLayout, QWidget

from sialign.evaluate.evs import EvsRecord, EvsStats, EvsTable
from sialign.review.figures import lag_summary

if TYPE_CHECKING:
    from sialign.core.changes import Changes
    from sialign.core.edit_base import Edit
    from sialign.gui.common.session import ProjectSession

POINT_BRUSH = (246, 178, 107, 200)
CONFIRMED_BRUSH = (120, 200, 120, 220)
OUTLIER_BRUSH = (240, 80, 80, 230)
END_PEN = (111, 168, 220, 170)
BACKGROUND = "#1e1f22"
# Below these plot sizes (pixels) the view drops, in turn, its title, the key
# line and the long axis label; the numbers stay readable in the summary line.
TITLE_MIN_HEIGHT = 260
KEY_MIN_HEIGHT = 150
KEY_MIN_WIDTH = 300
FULL_LABELS_MIN_HEIGHT = 200
LONG_Y_LABEL, SHORT_Y_LABEL = "ear-voice span", "EVS"
# The redraw waits this long (ms) after an edit: the edit's own updates (table,
# matrix) paint first, in their own pass of the event loop, and a key held
# down (N, C, Alt+Down) costs one redraw per pause rather than one per step.
REDRAW_DELAY_MS = 25


def evs_affected(edit: Edit | Changes) -> bool:
    """Whether an edit (or its :class:`~sialign.core.changes.Changes` record) can change the ear-voice span.

    Labels, notes, post-edits, trimming and text edits leave times, beads and
    statuses alone; everything else can.
    """
    from sialign.gui.common.session import changes_of

    return changes_of(edit).ear_voice_span


def stats_text(start: EvsStats | None, end: EvsStats | None) -> str:
    """The numbers under the plot, in one or two short lines."""
    if start is None:
        return ("No ear-voice span yet: it needs an alignment and times on both sides "
                "(SRT, VTT, TextGrid, EAF or timed TSV transcripts).")
    text = (f"Start lag: median {start.median:+.2f} s, IQR {start.q1:+.2f} … {start.q3:+.2f} s "
            f"({start.iqr:.2f} s), range {start.minimum:+.2f} … {start.maximum:+.2f} s; "
            f"{start.n} beads, {len(start.outliers)} outlier{'s' if len(start.outliers) != 1 else ''}")
    if end is not None:
        text += f"\nEnd lag: median {end.median:+.2f} s, IQR {end.iqr:.2f} s"
    return text


def short_stats_text(start: EvsStats | None) -> str:
    """One line for a small view (the full text goes to the tooltip)."""
    if start is None:
        return "No ear-voice span yet (needs an alignment and times on both sides)."
    return (f"median {start.median:+.2f} s · IQR {start.iqr:.2f} s · {start.n} beads · "
            f"{len(start.outliers)} outlier{'s' if len(start.outliers) != 1 else ''}")


def _rgba(color: tuple[int, ...]) -> str:
    return f"rgba({color[0]},{color[1]},{color[2]},{color[3] / 255:.2f})"


def key_html(start: EvsStats | None) -> str:
    """The plot's key as one line of rich text (marks in the plot's colours)."""
    items = [
        (f"<span style='color:{_rgba(POINT_BRUSH)}'>●</span> start lag"),
        (f"<span style='color:{_rgba(END_PEN)}'>▽</span> end lag"),
        (f"<span style='color:{_rgba(CONFIRMED_BRUSH)}'>●</span> confirmed"),
        (f"<span style='color:{_rgba(OUTLIER_BRUSH)}'>●</span> outlier"),
    ]
    if start is not None:
        items.append(f"<span style='color:#dddddd'>╌</span> median {start.median:+.2f} s")
        items.append("<span style='color:#8a8b8e'>▇</span> IQR")
    return "&nbsp;&nbsp;&nbsp;".join(items)


class OneStyleScatter(pg.ScatterPlotItem):
    """A scatter whose points all share the item's symbol, size, pen and brush.

    pyqtgraph looks each new point's style up in its symbol atlas one point
    at a time (a Python loop, the larger part of redrawing 5,000 points);
    here all new points take the one atlas entry at once. Hovered points
    (drawn larger) are left to pyqtgraph.
    """

    def updateSpots(self, dataSet: Any = None) -> None:
        data = self.data if dataSet is None else dataSet
        if self.opts["pxMode"] and self.opts["useCache"] and len(data):
            plain = data["sourceRect"]["w"] == 0
            if self.opts["hoverable"]:
                plain &= ~data["hovered"]
            if plain.any():
                style = (self.opts["symbol"], self.opts["size"], self.opts["pen"], self.opts["brush"])
                data["sourceRect"][plain] = self.fragmentAtlas[[style]][0]
                self.invalidate()
        super().updateSpots(dataSet)


class EvsView(QWidget):
    """Lag of every bead over talk time; click a point to select the bead.

    Args:
        session: the open project.
        show_title: draw "Interpreter lag per bead" over the plot when there
            is room (a dock titled so already does not need it).

    Signals:
        stats_changed(object): the start-lag :class:`EvsStats` (or None) after
            each recomputation, e.g. for a "median EVS" in the status bar.

    Attributes:
        recomputations: how many times the lags were recomputed and redrawn
            (tests and benchmarks check that edits which cannot change a lag
            cost nothing, and that bursts of edits are coalesced).
    """

    stats_changed = Signal(object)

    def __init__(self, session: ProjectSession, parent: QWidget | None = None, *, show_title: bool = True) -> None:
        super().__init__(parent)
        self.session = session
        self.show_title = show_title
        self.recomputations = 0
        self._table = EvsTable.empty()
        self._start_stats: EvsStats | None = None
        self._end_stats: EvsStats | None = None
        self._pending = False
        self._on_screen = True
        self._reset_range = True
        self._compact: tuple[bool, bool, bool] | None = None

        self.plot = pg.PlotWidget(background=BACKGROUND)
        self.plot.setMinimumSize(120, 60)
        item = self.plot.getPlotItem()
        item.setMenuEnabled(False)
        item.hideButtons()
        item.showGrid(x=True, y=True, alpha=0.15)
        item.setLabel("left", LONG_Y_LABEL, units="s")
        item.setLabel("bottom", "source time", units="s")

        self.iqr_band = pg.LinearRegionItem(orientation="horizontal", movable=False, brush=pg.mkBrush(255, 255, 255, 22),
                                            pen=pg.mkPen(None))
        self.iqr_band.setZValue(-10)
        self.median_line = pg.InfiniteLine(angle=0, movable=False,
                                           pen=pg.mkPen("#dddddd", width=1, style=Qt.PenStyle.DashLine))
        # End lags are context, start lags the measure: small hollow marks behind the dots.
        self.end_points = OneStyleScatter(size=5, symbol="t", pen=pg.mkPen(END_PEN), brush=pg.mkBrush(None))
        # One item per colour: a single brush per item is half the cost of a
        # brush per point when 5,000 points are redrawn.
        self.points, self.confirmed_points, self.outlier_points = (
            OneStyleScatter(size=7, pen=pg.mkPen(None), brush=pg.mkBrush(*rgba), hoverable=True, hoverSize=11,
                               tip=self._tip)
            for rgba in (POINT_BRUSH, CONFIRMED_BRUSH, OUTLIER_BRUSH)
        )
        self.selected = pg.ScatterPlotItem(size=15, pen=pg.mkPen("#ffffff", width=2), brush=pg.mkBrush(None))
        for it in (self.iqr_band, self.median_line, self.end_points, self.points, self.confirmed_points,
                   self.outlier_points, self.selected):
            self.plot.addItem(it)
        for it in (self.points, self.confirmed_points, self.outlier_points):
            it.sigClicked.connect(self._on_points_clicked)

        self.title_label = QLabel("Interpreter lag per bead")
        self.title_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.title_label.setStyleSheet(f"color: #d8d8d8; background: {BACKGROUND}; font-weight: 600; padding: 3px;")
        self.key_label = QLabel()
        self.key_label.setTextFormat(Qt.TextFormat.RichText)
        self.key_label.setStyleSheet(f"color: #d8d8d8; background: {BACKGROUND}; padding: 1px 6px;")
        self.stats_label = QLabel()
        self.stats_label.setWordWrap(True)
        self.stats_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.stats_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.title_label)
        layout.addWidget(self.key_label)
        layout.addWidget(self.plot, 1)
        layout.addWidget(self.stats_label)

        # One single-shot timer coalesces every request made until it fires.
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(REDRAW_DELAY_MS)
        self._timer.timeout.connect(self._on_timer)

        session.project_replaced.connect(self.schedule_refresh)
        session.alignment_replaced.connect(self.schedule_refresh)
        session.edited.connect(self._on_edited)
        session.selection_changed.connect(self._show_selection)
        self.refresh()

    # -- what is drawn, always current ----------------------------------------
    @property
    def table(self) -> EvsTable:
        """The lags as drawn (pending work done first)."""
        self.flush()
        return self._table

    @property
    def records(self) -> list[EvsRecord]:
        """The lags as records, in bead order (built on request; the view keeps arrays)."""
        return self.table.records()

    @property
    def start_stats(self) -> EvsStats | None:
        self.flush()
        return self._start_stats

    def point_of(self, bead: int) -> tuple[float, float] | None:
        """Where bead ``bead`` is drawn (for tests and the panel)."""
        table = self.table
        row = table.row_of(bead)
        if row is None:
            return None
        return (float(table.src_start[row]), float(table.start_lag[row]))

    def lags(self) -> np.ndarray:
        """Start lags as drawn, shape (n_records,)."""
        return self.table.start_lag

    # -- updating -------------------------------------------------------------
    def schedule_refresh(self, *, reset_range: bool = True) -> None:
        """Recompute in :data:`REDRAW_DELAY_MS` (requests until then are merged)."""
        self._pending = True
        self._reset_range = self._reset_range or reset_range
        if not self._timer.isActive():  # a steady stream of edits must not postpone it forever
            self._timer.start()

    def _on_edited(self, edit: Changes) -> None:
        if evs_affected(edit):
            # Keep the user's zoom: an edit changes a few points, not the talk.
            self.schedule_refresh(reset_range=False)

    def flush(self) -> None:
        """Do the pending recomputation now, if any."""
        if self._pending:
            self.refresh()

    def set_on_screen(self, shown: bool) -> None:
        """Say whether the view can be seen (a dock's ``visibilityChanged``: a tab behind
        another is "visible" to Qt but off screen); redraws wait while it cannot."""
        self._on_screen = shown
        if shown and self._pending and not self._timer.isActive():
            self._timer.start()

    def _on_timer(self) -> None:
        if self._on_screen and self.isVisible():
            self.flush()
        # else: set_on_screen or showEvent does it, once, when the view is shown.

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._pending and not self._timer.isActive():
            self._timer.start()

    def refresh(self) -> None:
        """Recompute lags and statistics from the project and redraw (array work, a few ms for 5,000 beads)."""
        self._timer.stop()
        self._pending = False
        self.recomputations += 1
        lags = lag_summary(self.session.project)
        table = self._table = lags.table
        start = self._start_stats = lags.start
        self._end_stats = lags.end
        x, start_lag, end_lag = table.src_start, table.start_lag, table.end_lag
        outlier = np.isin(table.bead, np.asarray(start.outliers if start is not None else (), dtype=np.int64))
        confirmed = table.confirmed & ~outlier
        plain = ~(outlier | confirmed)
        for item, rows in ((self.points, plain), (self.confirmed_points, confirmed), (self.outlier_points, outlier)):
            item.setData(x=x[rows], y=start_lag[rows], data=table.bead[rows])
        self.end_points.setData(x=x, y=end_lag)
        if start is not None:
            self.iqr_band.setRegion((start.q1, start.q3))
            self.median_line.setValue(start.median)
        self.iqr_band.setVisible(start is not None)
        self.median_line.setVisible(start is not None)
        self.key_label.setText(key_html(start))
        self._update_stats_label()
        if len(table) and self._reset_range:
            every = np.concatenate([start_lag, end_lag])
            low, high = float(every.min()), float(every.max())
            pad = 0.08 * max(high - low, 1.0)
            self.plot.setYRange(low - pad, high + pad, padding=0)
            self.plot.setXRange(float(x.min()), float(x.max()), padding=0.03)
        self._reset_range = False
        self._show_selection(self.session.selected_bead)
        self.stats_changed.emit(start)

    def _update_stats_label(self) -> None:
        full = stats_text(self._start_stats, self._end_stats)
        compact = self._compact is not None and self._compact[0]
        self.stats_label.setText(short_stats_text(self._start_stats) if compact else full)
        self.stats_label.setToolTip(full if compact else "")

    # -- layout for the room there is ---------------------------------------------
    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_to_size()

    def _fit_to_size(self) -> None:
        height, width = self.height(), self.width()
        small = height < FULL_LABELS_MIN_HEIGHT
        show_key = height >= KEY_MIN_HEIGHT and width >= KEY_MIN_WIDTH
        show_title = self.show_title and height >= TITLE_MIN_HEIGHT
        state = (small, show_key, show_title)
        if state != self._compact:
            self._compact = state
            self.title_label.setVisible(show_title)
            self.key_label.setVisible(show_key)
            self.plot.getPlotItem().showLabel("bottom", not small)
            self._update_stats_label()
        # The y label once the layout gave the plot its height.
        QTimer.singleShot(0, self.plot, self._fit_y_label)

    def _fit_y_label(self) -> None:
        """A rotated axis label longer than the axis is cut off: the short one when the long one does not fit."""
        item = self.plot.getPlotItem()
        axis = item.getAxis("left")
        room = item.getViewBox().height() - 8
        metrics = QFontMetrics(axis.label.font())
        small = self._compact is None or self._compact[0]
        name = next((n for n in (LONG_Y_LABEL, SHORT_Y_LABEL) if metrics.horizontalAdvance(f"{n} (s)") <= room and not (small and n == LONG_Y_LABEL)), "")
        if axis.labelText != name or axis.label.isVisible() != bool(name):
            item.setLabel("left", name or SHORT_Y_LABEL, units="s")
            item.showLabel("left", bool(name))  # none rather than a cut one

    def compact_state(self) -> dict[str, bool]:
        """What the view shows at its current size (for tests)."""
        self._fit_to_size()
        self._fit_y_label()
        return {"title": self.title_label.isVisibleTo(self), "key": self.key_label.isVisibleTo(self),
                "short_stats": bool(self._compact and self._compact[0]),
                "long_y_label": LONG_Y_LABEL in self.plot.getPlotItem().getAxis("left").labelText,
                "y_label": self.plot.getPlotItem().getAxis("left").label.isVisible()}

    # -- interaction --------------------------------------------------------------
    def _tip(self, x: float, y: float, data: Any) -> str:
        return f"bead {int(data) + 1}\nsource at {x:.1f} s\nlag {y:+.2f} s"

    def _on_points_clicked(self, item: Any, points: Any, *args: Any) -> None:
        if len(points):
            self.session.select_bead(int(points[0].data()))

    def _show_selection(self, index: int) -> None:
        if self._pending:  # the refresh will show it
            return
        row = self._table.row_of(index) if index >= 0 else None
        if row is None:
            self.selected.setData([], [])
        else:
            self.selected.setData([float(self._table.src_start[row])], [float(self._table.start_lag[row])])
