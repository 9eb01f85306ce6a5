"""The ear-voice span of every bead over the talk, with its statistics in numbers.

Each point is a bead: x = when the source material starts, y = how long
after it the interpretation starts. The median is a line, the quartile range
a band; outliers (Tukey's 1.5 IQR fences) are red, and they are usually the
first beads worth checking — either a misalignment or a real lapse. Clicking a
point selects its bead everywhere.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from sialign.audio.evs import EvsRecord, EvsStats, compute_evs, evs_stats

if TYPE_CHECKING:
    from sialign.gui.session import ProjectSession

POINT_BRUSH = (246, 178, 107, 200)
CONFIRMED_BRUSH = (120, 200, 120, 220)
OUTLIER_BRUSH = (240, 80, 80, 230)
BACKGROUND = "#1e1f22"


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


class EvsView(QWidget):
    """Lag of every bead over talk time; click a point to select the bead.

    Signals:
        stats_changed(object): the start-lag :class:`EvsStats` (or None) after
            each recomputation, e.g. for a "median EVS" in the status bar.
    """

    stats_changed = Signal(object)

    def __init__(self, session: ProjectSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.records: list[EvsRecord] = []
        self.start_stats: EvsStats | None = None
        self.end_stats: EvsStats | None = None

        self.plot = pg.PlotWidget(background=BACKGROUND)
        item = self.plot.getPlotItem()
        item.setMenuEnabled(False)
        item.hideButtons()
        item.showGrid(x=True, y=True, alpha=0.15)
        item.setLabel("left", "ear-voice span", units="s")
        item.setLabel("bottom", "source time", units="s")
        item.setTitle("Interpreter lag per bead", color="#d8d8d8", size="10pt")

        self.iqr_band = pg.LinearRegionItem(orientation="horizontal", movable=False, brush=pg.mkBrush(255, 255, 255, 22),
                                            pen=pg.mkPen(None))
        self.iqr_band.setZValue(-10)
        self.median_line = pg.InfiniteLine(angle=0, movable=False, pen=pg.mkPen("#dddddd", width=1, style=Qt.PenStyle.DashLine),
                                           label="median {value:+.2f} s",
                                           labelOpts={"position": 0.9, "color": "#dddddd", "anchors": [(1, 1), (1, 1)]})
        # End lags are context, start lags the measure: small hollow marks behind the dots.
        self.end_points = pg.ScatterPlotItem(size=5, symbol="t", pen=pg.mkPen((111, 168, 220, 170)),
                                             brush=pg.mkBrush(None), name="end lag")
        self.points = pg.ScatterPlotItem(size=7, pen=pg.mkPen(None), brush=pg.mkBrush(*POINT_BRUSH), hoverable=True,
                                         hoverSize=11, tip=self._tip, name="start lag")
        self.selected = pg.ScatterPlotItem(size=15, pen=pg.mkPen("#ffffff", width=2), brush=pg.mkBrush(None))
        # One row across the top; refresh() leaves head-room above the points for it.
        legend = item.addLegend(offset=(4, 2), labelTextColor="#d8d8d8", brush=pg.mkBrush(30, 31, 34, 200), colCount=4)
        for it in (self.iqr_band, self.median_line, self.end_points, self.points, self.selected):
            self.plot.addItem(it)
        legend.addItem(pg.ScatterPlotItem(size=7, pen=pg.mkPen(None), brush=pg.mkBrush(*OUTLIER_BRUSH)), "outlier")
        legend.addItem(pg.ScatterPlotItem(size=7, pen=pg.mkPen(None), brush=pg.mkBrush(*CONFIRMED_BRUSH)), "confirmed")
        self.points.sigClicked.connect(self._on_points_clicked)

        self.stats_label = QLabel()
        self.stats_label.setWordWrap(True)
        self.stats_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.plot, 1)
        layout.addWidget(self.stats_label)

        session.project_replaced.connect(self.refresh)
        session.edited.connect(lambda *_: self.refresh())
        session.alignment_replaced.connect(self.refresh)
        session.selection_changed.connect(self._show_selection)
        self.refresh()

    def refresh(self) -> None:
        """Recompute lags and statistics from the project (cheap: one pass over the beads)."""
        self.records = compute_evs(self.session.project)
        self.start_stats = evs_stats(self.records, "start")
        self.end_stats = evs_stats(self.records, "end")
        outliers = set(self.start_stats.outliers) if self.start_stats else set()
        spots = []
        for r in self.records:
            brush = OUTLIER_BRUSH if r.bead in outliers else CONFIRMED_BRUSH if r.confirmed else POINT_BRUSH
            spots.append({"pos": (r.src_start, r.start_lag), "data": r.bead, "brush": pg.mkBrush(*brush)})
        self.points.setData(spots)
        self.end_points.setData([r.src_start for r in self.records], [r.end_lag for r in self.records])
        if self.start_stats is not None:
            self.iqr_band.setRegion((self.start_stats.q1, self.start_stats.q3))
            self.median_line.setValue(self.start_stats.median)
            self.iqr_band.show()
            self.median_line.show()
        else:
            self.iqr_band.hide()
            self.median_line.hide()
        self.stats_label.setText(stats_text(self.start_stats, self.end_stats))
        if self.records:
            lags = [r.start_lag for r in self.records] + [r.end_lag for r in self.records]
            low, high = min(lags), max(lags)
            span = max(high - low, 1.0)
            self.plot.setYRange(low - 0.08 * span, high + 0.25 * span, padding=0)
            times = [r.src_start for r in self.records]
            self.plot.setXRange(min(times), max(times), padding=0.03)
        self._show_selection(self.session.selected_bead)
        self.stats_changed.emit(self.start_stats)

    def _tip(self, x: float, y: float, data: Any) -> str:
        return f"bead {int(data) + 1}\nsource at {x:.1f} s\nlag {y:+.2f} s"

    def _on_points_clicked(self, item: Any, points: Any, *args: Any) -> None:
        if len(points):
            self.session.select_bead(int(points[0].data()))

    def _show_selection(self, index: int) -> None:
        for r in self.records:
            if r.bead == index:
                self.selected.setData([r.src_start], [r.start_lag])
                return
        self.selected.setData([], [])

    def point_of(self, bead: int) -> tuple[float, float] | None:
        """Where bead ``bead`` is drawn (for tests and the panel)."""
        for r in self.records:
            if r.bead == bead:
                return (r.src_start, r.start_lag)
        return None

    def lags(self) -> np.ndarray:
        """Start lags as drawn, shape (n_records,)."""
        return np.array([r.start_lag for r in self.records])
