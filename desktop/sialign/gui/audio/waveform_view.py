"""One audio track as a waveform with its transcript's segments on top.

The waveform comes from the track's envelope pyramid (``sialign.audio.envelope``):
on every zoom or scroll the view asks for the level that gives about one
block per pixel, clipped to what is visible, so a one-hour talk draws a few
thousand points at any zoom (the curve also has pyqtgraph's peak
downsampling and clip-to-view on, for the finest level). Every segment with
times is a shaded band, all of them drawn by one item that paints only the
bands in view; the segments of the selected bead are ``LinearRegionItem``s
whose edges can be dragged to correct the times, each drag becoming one
undoable core edit.

Edits update only what they change: a segment's new times are written into
the view's arrays in place, edits of beads, statuses, labels or text leave
the waveform alone, and only splits and merges of this side's segments
re-read the document — on the next pass of the event loop, once for any
number of edits.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPoint, QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QFontMetrics, QPainter, QResizeEvent
from PySide6.QtWidgets import QLabel, QWidget

from sialign.audio.envelope import EnvelopePyramid
from sialign.core.changes import ALL_SEGMENTS
from sialign.core.model import Document, Segment

if TYPE_CHECKING:
    from sialign.core.changes import Changes
    from sialign.core.edit_base import Edit
    from sialign.gui.common.session import ProjectSession

SIDE_NAMES = {"src": "source", "tgt": "interpretation"}
# Below this height (pixels) the interpretation view drops its "time (s)" title (it would be cut).
TIME_TITLE_MIN_HEIGHT = 80
# Axis labels when the view is too low for the full name.
SHORT_SIDE_NAMES = {"src": "src", "tgt": "interp."}
# In the lowest views: as short as the source's, so neither lane goes nameless.
TINY_SIDE_NAMES = {"src": "src", "tgt": "tgt"}
WAVE_COLORS = {"src": "#6fa8dc", "tgt": "#f6b26b"}
SELECTED_BRUSH = {"src": (111, 168, 220, 70), "tgt": (246, 178, 107, 70)}
BAND_BRUSHES = ((255, 255, 255, 14), (255, 255, 255, 30))
BACKGROUND = "#1e1f22"
MIN_HEIGHT = {"src": 36, "tgt": 62}
PLAYHEAD_COLOR = "#ff5c5c"
# Shortest segment a drag may leave (seconds), so a boundary never crosses its partner.
MIN_SEGMENT = 0.02
# Two boundaries this close (s) are the same boundary: dragging one moves both.
SHARED_BOUNDARY = 1e-3
def changed_segments(edit: Edit | Changes, side: str) -> set[int] | str:
    """Ids of ``side``'s segments whose times an edit (or its :class:`Changes` record) changed.

    :data:`ALL_SEGMENTS` when segments were added or removed there (splits,
    merges): the view reads the side again.
    """
    from sialign.gui.common.session import changes_of

    return changes_of(edit).segments_with_new_times(side)


def _covered_runs(starts: np.ndarray, ends: np.ndarray, t0: float, t1: float,
                  columns: int) -> tuple[np.ndarray, np.ndarray]:
    """Merge spans into runs of covered pixel columns.

    Args:
        starts, ends: span times in seconds, shape (n,).
        t0, t1: the visible time range, drawn over ``columns`` pixel columns.

    Returns:
        (run starts, run ends) in seconds, shape (m,) each, m <= columns / 2 + 1.
    """
    pixel = (t1 - t0) / columns
    first = np.clip(np.floor((starts - t0) / pixel), 0, columns - 1).astype(np.int64)
    last = np.clip(np.floor((ends - t0) / pixel), 0, columns - 1).astype(np.int64)
    cover = np.zeros(columns + 1, dtype=np.int64)
    np.add.at(cover, first, 1)
    np.add.at(cover, last + 1, -1)
    on = np.concatenate([[0], (np.cumsum(cover[:columns]) > 0).astype(np.int8), [0]])
    edges = np.diff(on)
    return t0 + np.flatnonzero(edges == 1) * pixel, t0 + np.flatnonzero(edges == -1) * pixel


class SegmentBands(pg.GraphicsObject):
    """Every timed segment as a shaded band, alternating two shades; one item for the whole talk.

    Only the bands overlapping the visible time range are painted, and bands
    narrower than a pixel are merged, so painting costs the same for 50 or
    5,000 segments.
    """

    def __init__(self) -> None:
        super().__init__()
        self._starts = np.zeros(0)
        self._ends = np.zeros(0)
        self._bounds = QRectF()
        self._brushes = (QBrush(QColor(*BAND_BRUSHES[0])), QBrush(QColor(*BAND_BRUSHES[1])))
        self.last_painted = 0  # bands drawn by the last paint (tests check it stays small)

    def set_spans(self, starts: np.ndarray, ends: np.ndarray) -> None:
        """Bands from ``starts[i]`` to ``ends[i]`` seconds, arrays of shape (n,) in document order."""
        self.prepareGeometryChange()
        self._starts, self._ends = starts, ends
        if starts.size:
            lo, hi = float(starts.min()), float(ends.max())
            self._bounds = QRectF(lo, -1.0, max(hi - lo, 1e-6), 2.0)
        else:
            self._bounds = QRectF()
        self.update()

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, painter: QPainter, option: Any, widget: Any = None) -> None:
        view = self.getViewBox()
        if view is None or not self._starts.size:
            self.last_painted = 0
            return
        (t0, t1), _ = view.viewRange()
        visible = np.flatnonzero((self._ends >= t0) & (self._starts <= t1))
        columns = max(1, int(view.width()))
        painter.setPen(Qt.PenStyle.NoPen)
        drawn = 0
        for parity, brush in enumerate(self._brushes):
            rows = visible[visible % 2 == parity]
            starts, ends = self._starts[rows], self._ends[rows]
            if rows.size > columns:
                # Zoomed far out, thousands of bands share a few hundred pixels:
                # the runs of covered pixel columns say the same thing.
                starts, ends = _covered_runs(starts, ends, t0, t1, columns)
            painter.setBrush(brush)
            painter.drawRects([QRectF(a, -1.0, b - a, 2.0) for a, b in zip(starts.tolist(), ends.tolist())])
            drawn += int(starts.size)
        self.last_painted = drawn


class WaveformView(pg.PlotWidget):
    """Waveform of one side (``"src"`` or ``"tgt"``) of the session's project.

    Signals:
        segment_clicked(int): a click landed on the segment with this id.
        segment_double_clicked(int): a double click landed on it (the panel plays it).
    """

    segment_clicked = Signal(int)
    segment_double_clicked = Signal(int)

    def __init__(self, session: ProjectSession, side: str, parent: QWidget | None = None) -> None:
        super().__init__(parent=parent, background=BACKGROUND)
        if side not in SIDE_NAMES:
            raise ValueError(f"side must be 'src' or 'tgt', not {side!r}")
        self.session = session
        self.side = side
        self._pyramid: EnvelopePyramid | None = None
        self._duration = 0.0
        self._starts = np.zeros(0)
        self._ends = np.zeros(0)
        self._ids: list[int] = []
        self._row_of: dict[int, int] = {}
        self._regions: list[tuple[int, pg.LinearRegionItem]] = []
        self._highlight_ids: tuple[int, ...] = ()
        self._highlight_key: tuple[Any, ...] | None = None
        self._segments_pending = False
        # Work counters: tests and benchmarks check that edits cost what they change.
        self.segment_reads = 0
        self.segment_patches = 0
        self.region_builds = 0

        item = self.getPlotItem()
        item.setMenuEnabled(False)
        item.hideButtons()
        item.showGrid(x=True, y=False, alpha=0.15)
        item.setMouseEnabled(x=True, y=False)
        item.setYRange(-1.0, 1.0, padding=0.02)
        # Same fixed axis width in both views, so one time lies at one x pixel in both.
        left = item.getAxis("left")
        left.setWidth(44)
        left.setTicks([[]])
        left.setLabel(SIDE_NAMES[side], color=WAVE_COLORS[side])
        self._axis_name = SIDE_NAMES[side]
        # One time axis for the pair: the lower (interpretation) view shows it.
        if side == "tgt":
            item.getAxis("bottom").setLabel("time", units="s")
        else:
            item.getAxis("bottom").setStyle(showValues=False)

        self.bands = SegmentBands()
        self.bands.setZValue(-10)
        self.addItem(self.bands)
        self.curve = pg.PlotDataItem(pen=pg.mkPen(WAVE_COLORS[side], width=1))
        self.curve.setDownsampling(auto=True, method="peak")
        self.curve.setClipToView(True)
        self.addItem(self.curve)
        self.playhead = pg.InfiniteLine(angle=90, movable=False, pen=pg.mkPen(PLAYHEAD_COLOR, width=2))
        self.playhead.setZValue(20)
        self.playhead.hide()
        self.addItem(self.playhead, ignoreBounds=True)

        # Low enough for a 768-pixel-high screen (the lower view also carries the time axis).
        self.setMinimumHeight(MIN_HEIGHT[side])

        self.message = QLabel(self)
        self.message.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.message.setWordWrap(True)
        self.message.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.message.setStyleSheet("color: #d8d8d8; background: rgba(30, 31, 34, 200); padding: 6px; border-radius: 4px;")
        self.message.hide()
        self._message_text = ""

        # Re-reading the segments after a split or merge waits for the event
        # loop, so a burst of edits reads them once.
        self._segments_timer = QTimer(self)
        self._segments_timer.setSingleShot(True)
        self._segments_timer.setInterval(0)
        self._segments_timer.timeout.connect(self.flush)

        item.getViewBox().sigXRangeChanged.connect(self._redraw_wave)
        self.scene().sigMouseClicked.connect(self._on_scene_clicked)
        self._ready = True

    # -- data --------------------------------------------------------------
    @property
    def document(self) -> Document:
        return self.session.project.document(self.side)

    @property
    def duration(self) -> float:
        """Length of what can be shown: the audio, else the last segment end."""
        return self._duration

    def set_envelope(self, pyramid: EnvelopePyramid | None) -> None:
        """Show this envelope (None: no waveform, only the segments)."""
        self._pyramid = pyramid
        self._update_duration()
        self._redraw_wave()
        self._place_message()

    def set_message(self, text: str) -> None:
        """Say something in plain words over the view (empty hides it)."""
        self._message_text = text
        self.message.setVisible(bool(text))
        self._place_message()

    def message_text(self) -> str:
        return self._message_text if not self.message.isHidden() else ""

    def refresh_segments(self) -> None:
        """Re-read every segment's times (a new project, segments split or merged)."""
        self._segments_timer.stop()
        self._segments_pending = False
        self.segment_reads += 1
        segs = [s for s in self.document.segments if s.has_time]
        self._ids = [s.id for s in segs]
        self._row_of = {seg_id: row for row, seg_id in enumerate(self._ids)}
        self._starts = np.array([s.start for s in segs], dtype=np.float64)
        self._ends = np.array([s.end for s in segs], dtype=np.float64)
        self.bands.set_spans(self._starts, self._ends)
        self._update_duration()
        self.highlight(self._highlight_ids)

    def apply_edit(self, edit: Edit | Changes) -> None:
        """Follow a core edit: patch the times it changed, or re-read the segments soon if it split or merged."""
        changed = changed_segments(edit, self.side)
        if not changed:
            return
        if changed != ALL_SEGMENTS and not self._segments_pending:
            doc = self.document
            rows = []
            assert isinstance(changed, set)
            for seg_id in changed:
                row = self._row_of.get(seg_id)
                seg = doc.get(seg_id)
                if row is None or not seg.has_time:  # a segment gained or lost its times
                    break
                rows.append((row, seg))
            else:
                self.segment_patches += 1
                for row, seg in rows:
                    self._starts[row], self._ends[row] = seg.start, seg.end
                self.bands.set_spans(self._starts, self._ends)
                self._update_duration()
                return
        self._segments_pending = True
        self._segments_timer.start()

    def flush(self) -> None:
        """Do a pending re-read of the segments now (also done by the next pass of the event loop)."""
        if self._segments_pending:
            self.refresh_segments()

    def _update_duration(self) -> None:
        audio = self._pyramid.duration if self._pyramid is not None else 0.0
        segs = float(self._ends.max()) if self._ends.size else 0.0
        self._duration = max(audio, segs)
        if self._duration > 0:
            self.getPlotItem().getViewBox().setLimits(xMin=-0.5, xMax=self._duration + 0.5, minXRange=0.05)

    # -- drawing -----------------------------------------------------------
    def _redraw_wave(self, *args: Any) -> None:
        if self._pyramid is None:
            self.curve.setData([], [])
            return
        (t0, t1), _ = self.getPlotItem().getViewBox().viewRange()
        width = max(200, int(self.getPlotItem().getViewBox().width()))
        x, y = self._pyramid.visible(t0, t1, width)
        self.curve.setData(x, y)

    def highlight(self, seg_ids: tuple[int, ...], *, force: bool = False) -> None:
        """Make these segments (the selected bead's side) editable regions.

        Nothing is rebuilt when the segments and their times (and their
        neighbours', which bound the drags) are what is already shown, unless
        ``force`` (a refused drag left a region where the document disagrees).
        """
        doc = self.document
        segs: list[Segment] = []
        for seg_id in seg_ids:
            try:
                seg = doc.get(seg_id)
            except KeyError:
                continue
            if seg.has_time:
                segs.append(seg)
        key = (tuple(seg_ids), self._duration, tuple((s, *self._neighbours(s.id)) for s in segs))
        if not force and key == self._highlight_key:
            return
        self._highlight_key = key
        self._highlight_ids = tuple(seg_ids)
        self.region_builds += 1
        for _, region in self._regions:
            self.removeItem(region)
        self._regions = []
        for seg in segs:
            seg_id = seg.id
            region = pg.LinearRegionItem(values=(seg.start, seg.end), brush=pg.mkBrush(*SELECTED_BRUSH[self.side]),
                                         pen=pg.mkPen(WAVE_COLORS[self.side], width=2), movable=False)
            # Only the edges move: dragging a whole segment in time is never what a reviewer means.
            for line in region.lines:
                line.setMovable(True)
                line.setHoverPen(pg.mkPen("#ffffff", width=3))
                line.setCursor(Qt.CursorShape.SizeHorCursor)
            self._set_bounds(region, seg)
            region.setZValue(5)
            region.sigRegionChangeFinished.connect(lambda r, sid=seg_id: self._on_region_finished(sid, r))
            self.addItem(region)
            self._regions.append((seg_id, region))

    def region_of(self, seg_id: int) -> pg.LinearRegionItem | None:
        for sid, region in self._regions:
            if sid == seg_id:
                return region
        return None

    def _neighbours(self, seg_id: int) -> tuple[Segment | None, Segment | None]:
        doc = self.document
        pos = doc.index_of(seg_id)
        prev = doc.segments[pos - 1] if pos > 0 else None
        nxt = doc.segments[pos + 1] if pos + 1 < len(doc.segments) else None
        return (prev if prev is not None and prev.has_time else None, nxt if nxt is not None and nxt.has_time else None)

    def _set_bounds(self, region: pg.LinearRegionItem, seg: Segment) -> None:
        assert seg.start is not None and seg.end is not None
        prev, nxt = self._neighbours(seg.id)
        lo = (prev.start + MIN_SEGMENT) if prev is not None and prev.start is not None else 0.0
        hi = (nxt.end - MIN_SEGMENT) if nxt is not None and nxt.end is not None else max(self._duration, seg.end) + 60.0
        region.lines[0].setBounds((lo, seg.end - MIN_SEGMENT))
        region.lines[1].setBounds((seg.start + MIN_SEGMENT, hi))

    def x_to_widget(self, seconds: float) -> float:
        """Horizontal pixel of ``seconds`` in this widget's coordinates."""
        scene_point = self.getPlotItem().getViewBox().mapViewToScene(QPointF(seconds, 0.0))
        return float(self.mapFromScene(scene_point).x())

    def set_playhead(self, seconds: float | None) -> None:
        if seconds is None:
            self.playhead.hide()
            return
        self.playhead.setValue(seconds)
        self.playhead.show()
        (t0, t1), _ = self.getPlotItem().getViewBox().viewRange()
        if not t0 <= seconds <= t1:
            # Page along with playback, like a DAW, keeping the zoom.
            span = t1 - t0
            self.setXRange(seconds - 0.1 * span, seconds + 0.9 * span, padding=0)

    def show_span(self, start: float, end: float) -> None:
        """Scroll (keeping the zoom unless the span is wider) so ``start..end`` is visible."""
        (t0, t1), _ = self.getPlotItem().getViewBox().viewRange()
        width = t1 - t0
        if end - start > 0.9 * width:
            pad = 0.1 * (end - start)
            self.setXRange(start - pad, end + pad, padding=0)
        elif start < t0 or end > t1:
            middle = 0.5 * (start + end)
            self.setXRange(middle - width / 2, middle + width / 2, padding=0)

    def segment_at(self, seconds: float) -> int | None:
        """Id of the segment covering ``seconds`` (the later one where two overlap), else None."""
        self.flush()
        hits = np.flatnonzero((self._starts <= seconds) & (seconds <= self._ends))
        return self._ids[int(hits[-1])] if hits.size else None

    # -- events ------------------------------------------------------------
    def _on_scene_clicked(self, event: Any) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return
        vb = self.getPlotItem().getViewBox()
        if not vb.sceneBoundingRect().contains(event.scenePos()):
            return
        seconds = vb.mapSceneToView(event.scenePos()).x()
        seg_id = self.segment_at(seconds)
        if seg_id is None:
            return
        if event.double():
            self.segment_double_clicked.emit(seg_id)
        else:
            self.segment_clicked.emit(seg_id)

    def _on_region_finished(self, seg_id: int, region: pg.LinearRegionItem) -> None:
        from sialign.core.edits import Batch, SetSegmentTimes

        seg = self.document.get(seg_id)
        if seg.start is None or seg.end is None:
            return
        new_start, new_end = (float(v) for v in region.getRegion())
        if abs(new_start - seg.start) < 1e-4 and abs(new_end - seg.end) < 1e-4:
            return
        prev, nxt = self._neighbours(seg_id)
        edits = [SetSegmentTimes(self.side, seg_id, round(new_start, 3), round(new_end, 3))]
        moved = []
        if abs(new_start - seg.start) >= 1e-4:
            moved.append(f"start to {new_start:.2f} s")
            # A boundary shared with the previous segment moves for both; an
            # overlap the drag would create is resolved the same way.
            if prev is not None and prev.end is not None and (abs(prev.end - seg.start) < SHARED_BOUNDARY or prev.end > new_start):
                edits.append(SetSegmentTimes(self.side, prev.id, prev.start, round(new_start, 3)))
        if abs(new_end - seg.end) >= 1e-4:
            moved.append(f"end to {new_end:.2f} s")
            if nxt is not None and nxt.start is not None and (abs(nxt.start - seg.end) < SHARED_BOUNDARY or nxt.start < new_end):
                edits.append(SetSegmentTimes(self.side, nxt.id, round(new_end, 3), nxt.end))
        label = f"Move the {' and '.join(moved)} of {SIDE_NAMES[self.side]} segment {seg_id}"
        edit = edits[0] if len(edits) == 1 else Batch(tuple(edits), label)
        if not self.session.apply(edit):
            # Refused: put the region back where the document says it is.
            self.highlight(self._highlight_ids, force=True)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if not getattr(self, "_ready", False):  # PlotWidget resizes itself inside its __init__
            return
        self._place_message()
        self._redraw_wave()
        self._fit_axis_label()

    def _fit_axis_label(self) -> None:
        """The full side name when it fits along the axis, else the short one, else none (rotated labels get cut).

        The time axis's title goes first in a low view: its numbers say enough, and
        the room it frees lets the side name show.
        """
        if self.side == "tgt":
            bottom = self.getPlotItem().getAxis("bottom")
            wanted = self.height() >= TIME_TITLE_MIN_HEIGHT
            if bottom.label.isVisible() != wanted:
                self.getPlotItem().showLabel("bottom", wanted)
                QTimer.singleShot(0, self, self._fit_axis_label)  # the plot's height changes with it
        height = self.getPlotItem().getViewBox().height()
        axis = self.getPlotItem().getAxis("left")
        # The label is a text item with its own font and a document margin on each end.
        metrics = QFontMetrics(axis.label.font())
        margin = 2 * axis.label.document().documentMargin() + 4
        name = ""
        for candidate in (SIDE_NAMES[self.side], SHORT_SIDE_NAMES[self.side], TINY_SIDE_NAMES[self.side]):
            if metrics.horizontalAdvance(candidate) + margin <= height:
                name = candidate
                break
        if name != self._axis_name:
            self._axis_name = name
            # The colour and the order (source above) still say which side a nameless view is.
            self.getPlotItem().getAxis("left").setLabel(name, color=WAVE_COLORS[self.side])

    def axis_label(self) -> str:
        """The side name the axis shows now ("" when the view is too low for any)."""
        return self._axis_name

    def _place_message(self) -> None:
        """Inside the plot, above the time axis: cut to one line (whole in the tooltip) when the view is low."""
        width = max(120, min(self.width() - 40, 560))
        self.message.setWordWrap(True)
        self.message.setFixedWidth(width)
        text = self._message_text
        self.message.setText(text)
        self.message.adjustSize()
        axis = self.getPlotItem().getAxis("bottom")
        room = self.height() - (int(axis.height()) if axis.isVisible() else 0)
        if self.message.height() > room - 4:
            # One line over the whole width, cut only if even that is too short.
            line = " ".join(text.split())
            metrics = self.message.fontMetrics()
            width = max(120, min(self.width() - 40, metrics.horizontalAdvance(line) + 30))
            self.message.setWordWrap(False)
            self.message.setFixedWidth(width)
            self.message.setText(metrics.elidedText(line, Qt.TextElideMode.ElideRight, width - 20))  # less the padding
            self.message.adjustSize()
        self.setToolTip(text if self.message.text() != text else "")
        # Over a drawn waveform the note sits at the top; over an empty view, in the middle of the plot.
        y = 6 if self._pyramid is not None else max(0, (room - self.message.height()) // 2)
        self.message.move(QPoint((self.width() - self.message.width()) // 2, y))
