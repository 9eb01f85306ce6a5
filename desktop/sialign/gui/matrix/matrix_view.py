"""The alignment matrix: similarity as a heat map with the beads drawn on top.

Rows are source segments (top to bottom), columns are target segments (left
to right). A click on a cell selects the bead that contains it, or the
nearest bead when the cell lies outside every bead; the selected bead is
outlined. Everything is drawn with pyqtgraph (an ``ImageItem`` for the
similarity, ``PlotCurveItem`` overlays with NaN breaks for the beads), so
a 1,000 × 3,000 talk pans and zooms smoothly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QPen, QResizeEvent
from PySide6.QtWidgets import QGraphicsRectItem, QHBoxLayout, QLabel, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from sialign.core.model import Bead, BeadStatus, Project, target_role
from sialign.core.similarity import SimilarityGrid

# Outline colours of beads on the heat map (viridis runs dark blue → yellow,
# so the outlines use colours that stay visible on both ends).
BEAD_PENS = {
    "auto": (255, 255, 255, 200),  # over the colours; AUTO_PEN_BLANK over a blank matrix
    "confirmed": (60, 220, 90, 255),
    "dropped": (150, 150, 150, 220),
    "flagged": (255, 140, 0, 255),
}
AUTO_PEN_BLANK = (70, 70, 70, 220)
PATH_COLOUR = (255, 60, 60, 150)
# Below this height (pixels) the axis titles are short and small: squeezed,
# the full ones overlap the tick labels and read "rce segment".
TITLES_MIN_HEIGHT = 220
# Below this even the short titles are left out (the tick numbers stay).
SHORT_TITLES_MIN_HEIGHT = 120
# Axis titles (left, top) for each height.
FULL_TITLES = ("source segment", "target segment (interpretation)")
SHORT_TITLES = ("source", "interpretation")
SHORT_TITLE_STYLE = {"font-size": "8pt"}
COLOUR_LABEL_WIDTH = 22
SELECTION_COLOUR = QColor(255, 30, 200)
# Width given to the empty side of a 1-0 / 0-1 bead so it can be seen and clicked.
SKIP_HALF_WIDTH = 0.2


def bead_spans(beads: Sequence[Bead]) -> np.ndarray:
    """Row/column extent of every bead: int64 array (n_beads, 4) of src_lo, src_hi, tgt_lo, tgt_hi.

    Beads cover both documents in order, so a bead's first position is the
    number of segments in the beads before it; ``*_hi`` is exclusive and
    equals ``*_lo`` on an empty side.
    """
    n = len(beads)
    sizes = np.empty((n, 2), dtype=np.int64)
    for i, b in enumerate(beads):
        sizes[i, 0] = len(b.src)
        sizes[i, 1] = len(b.tgt)
    ends = np.cumsum(sizes, axis=0)
    spans = np.empty((n, 4), dtype=np.int64)
    spans[:, 1] = ends[:, 0]
    spans[:, 0] = ends[:, 0] - sizes[:, 0]
    spans[:, 3] = ends[:, 1]
    spans[:, 2] = ends[:, 1] - sizes[:, 1]
    return spans


def bead_at(spans: np.ndarray, row: int, col: int) -> int:
    """Index of the bead containing cell (row, col), else of the nearest bead; -1 with no beads.

    Args:
        spans: (n_beads, 4) from :func:`bead_spans`.
        row: source position; col: target position.
    """
    if len(spans) == 0:
        return -1
    inside = (spans[:, 0] <= row) & (row < spans[:, 1]) & (spans[:, 2] <= col) & (col < spans[:, 3])
    hits = np.flatnonzero(inside)
    if len(hits):
        return int(hits[0])
    # Distance from the cell centre to each bead's rectangle (0 inside).
    y = row + 0.5
    x = col + 0.5
    dy = np.maximum(np.maximum(spans[:, 0] - y, 0.0), y - spans[:, 1])
    dx = np.maximum(np.maximum(spans[:, 2] - x, 0.0), x - spans[:, 3])
    return int(np.argmin(dx * dx + dy * dy))


def _outline_points(spans: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """x, y arrays drawing each span's rectangle, separated by NaN breaks."""
    if len(spans) == 0:
        return np.empty(0), np.empty(0)
    y0 = spans[:, 0].astype(np.float64)
    y1 = spans[:, 1].astype(np.float64)
    x0 = spans[:, 2].astype(np.float64)
    x1 = spans[:, 3].astype(np.float64)
    flat_x = x0 == x1
    x0 = np.where(flat_x, x0 - SKIP_HALF_WIDTH, x0)
    x1 = np.where(flat_x, x1 + SKIP_HALF_WIDTH, x1)
    flat_y = y0 == y1
    y0 = np.where(flat_y, y0 - SKIP_HALF_WIDTH, y0)
    y1 = np.where(flat_y, y1 + SKIP_HALF_WIDTH, y1)
    nan = np.full_like(x0, np.nan)
    xs = np.stack([x0, x1, x1, x0, x0, nan], axis=1).ravel()
    ys = np.stack([y0, y0, y1, y1, y0, nan], axis=1).ravel()
    return xs, ys


def _clamped(lo: float, hi: float, size: float) -> tuple[float, float]:
    """Shift the range ``[lo, hi]`` inside ``[0, size]`` without changing its length (unless too long)."""
    length = hi - lo
    if length >= size:
        return 0.0, float(size)
    if lo < 0:
        return 0.0, length
    if hi > size:
        return size - length, float(size)
    return lo, hi


class SegmentAxis(pg.AxisItem):
    """Axis labelled with 1-based segment numbers (cell ``i`` spans ``[i, i+1)`` and is segment ``i + 1``)."""

    def tickStrings(self, values: list[float], scale: float, spacing: float) -> list[str]:
        return [str(int(round(v)) + 1) if abs(v - round(v)) < 1e-6 and v >= 0 else "" for v in values]


class ClickableImageItem(pg.ImageItem):
    """An ``ImageItem`` that reports which cell was clicked.

    Signals:
        cell_clicked(int, int): (row, col) of the clicked cell, i.e. (source
            position, target position).
    """

    cell_clicked = Signal(int, int)
    cell_context_requested = Signal(int, int, object)

    def mouseClickEvent(self, ev: Any) -> None:
        pos = ev.pos()
        row, col = int(np.floor(pos.y())), int(np.floor(pos.x()))
        if ev.button() == Qt.MouseButton.LeftButton:
            ev.accept()
            self.cell_clicked.emit(row, col)
        elif ev.button() == Qt.MouseButton.RightButton:
            ev.accept()
            self.cell_context_requested.emit(row, col, ev.screenPos().toPoint())
        else:
            ev.ignore()


class _InfoLine(QLabel):
    """A one-line label whose whole text is also its tooltip (the dock may cut the line)."""

    def setText(self, text: str) -> None:
        super().setText(text)
        self.setToolTip(text.strip())


class MatrixView(QWidget):
    """Heat map of source × target similarity with beads, path and selection.

    Signals:
        bead_clicked(int): the user clicked on or near a bead.
        context_requested(int, QPoint): right click on a bead (global position).
    """

    bead_clicked = Signal(int)
    context_requested = Signal(int, object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._project: Project | None = None
        self._grid: SimilarityGrid | None = None
        self._spans = np.empty((0, 4), dtype=np.int64)
        self._selected = -1
        self._shape = (0, 0)
        # What the matrix says while it has beads but no colours ("" for the default hint).
        self._note = ""
        # Segment ids the image was built for; edits that keep them only redraw the beads.
        self._image_key: tuple[list[int], list[int]] | None = None

        self.graphics = pg.GraphicsLayoutWidget()
        self.graphics.setBackground("w")
        self.plot: pg.PlotItem = self.graphics.addPlot(
            axisItems={"left": SegmentAxis("left"), "top": SegmentAxis("top"), "bottom": SegmentAxis("bottom")}
        )
        self.plot.invertY(True)
        self.plot.setMenuEnabled(False)
        self.plot.hideButtons()
        self.plot.showAxis("top")
        self.plot.hideAxis("bottom")
        # "1" sits at the left edge and reaches half a label past it: drawn, as
        # the left axis draws its "1", instead of hidden for overlapping.
        self.plot.getAxis("top").setStyle(hideOverlappingLabels=False)
        self.plot.setLabel("top", FULL_TITLES[1])
        self.plot.setLabel("left", FULL_TITLES[0])
        self.plot.getViewBox().setDefaultPadding(0.0)
        self.plot.showGrid(x=False, y=False)

        self.image_item = ClickableImageItem(axisOrder="row-major")
        self.image_item.setAutoDownsample(True)
        self.plot.addItem(self.image_item)
        self.colour_map = pg.colormap.get("viridis")
        self.image_item.setColorMap(self.colour_map)
        self.colour_bar = pg.ColorBarItem(
            values=(0.0, 1.0), colorMap=self.colour_map, label="similarity", interactive=False, width=14
        )
        self.colour_bar.setImageItem(self.image_item, insert_in=self.plot)
        # Similarities read as they are (0.2, 0.4), never rescaled to "200 (×0.001)".
        self.colour_bar.axis.enableAutoSIPrefix(False)

        self._titles: tuple[str, str] = FULL_TITLES
        self._role = "interpretation"  # what the target is called (core.model.target_role)

        self._bead_curves: dict[str, pg.PlotCurveItem] = {}
        for key, colour in BEAD_PENS.items():
            curve = pg.PlotCurveItem(pen=pg.mkPen(colour, width=1.5, cosmetic=True), connect="finite")
            curve.setZValue(10)
            self.plot.addItem(curve)
            self._bead_curves[key] = curve
        self.path_curve = pg.PlotCurveItem(pen=pg.mkPen(PATH_COLOUR, width=1, cosmetic=True), connect="finite")
        self.path_curve.setZValue(11)
        self.plot.addItem(self.path_curve)

        self.selection_item = QGraphicsRectItem()
        pen = QPen(SELECTION_COLOUR)
        pen.setWidthF(3.0)
        pen.setCosmetic(True)
        self.selection_item.setPen(pen)
        fill = QColor(SELECTION_COLOUR)
        fill.setAlpha(60)
        self.selection_item.setBrush(QBrush(fill))
        self.selection_item.setZValue(20)
        self.selection_item.setVisible(False)
        self.plot.addItem(self.selection_item)
        # Cross-hairs through the selected bead: on a 1,000 × 3,000 talk fitted
        # to the window the bead itself is smaller than a pixel.
        cross_pen = pg.mkPen(SELECTION_COLOUR, width=1, style=Qt.PenStyle.DashLine, cosmetic=True)
        self.cross_v = pg.InfiniteLine(angle=90, movable=False, pen=cross_pen)
        self.cross_h = pg.InfiniteLine(angle=0, movable=False, pen=cross_pen)
        for line in (self.cross_v, self.cross_h):
            line.setZValue(19)
            line.setVisible(False)
            self.plot.addItem(line, ignoreBounds=True)

        # Says what to do while there is nothing to draw.
        self.empty_label = QLabel(self.graphics)
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_label.setWordWrap(True)
        self.empty_label.setStyleSheet("color: #444; background: rgba(255, 255, 255, 225); padding: 8px;")
        # Clicks go through to the matrix below (the hint may cover beads).
        self.empty_label.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.empty_label.hide()
        # The note keeps to the matrix's corner as the axes and the colour scale take their room.
        self.plot.getViewBox().sigResized.connect(lambda _box: self._place_empty_label())

        self.hover_label = _InfoLine(" ")
        self.hover_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # A long line is cut at the dock's edge, never widens the dock (and pushes the table aside).
        self.hover_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.hover_label.setMinimumWidth(0)
        self.fit_button = fit_button = QPushButton("Fit")
        fit_button.setToolTip("Show the whole matrix (Ctrl+0)")
        fit_button.clicked.connect(self.fit_to_window)
        self.zoom_button = zoom_button = QPushButton("Zoom to bead")
        zoom_button.setToolTip("Zoom in around the selected bead")
        zoom_button.clicked.connect(lambda: self.zoom_to_bead(self._selected))
        bar = QHBoxLayout()
        bar.setContentsMargins(4, 0, 4, 0)
        bar.addWidget(self.hover_label, 1)
        bar.addWidget(zoom_button)
        bar.addWidget(fit_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.graphics, 1)
        layout.addLayout(bar)

        self.image_item.cell_clicked.connect(self._on_cell_clicked)
        self.image_item.cell_context_requested.connect(self._on_cell_context)
        self.graphics.scene().sigMouseMoved.connect(self._on_mouse_moved)

    # -- data -----------------------------------------------------------------
    def set_project(self, project: Project | None, grid: SimilarityGrid | None, *, fit: bool = True) -> None:
        """Show ``project``'s alignment over ``grid`` (either may be missing)."""
        self._project = project
        self._grid = grid
        role = target_role(project)
        if role != self._role:  # a written translation is not called an interpretation
            self._role = role
            self._show_titles(self._titles_for(self.height()), force=True)
        self._refresh_image()
        self.refresh_beads()
        self._update_empty_label()
        # Nothing to zoom in an empty window.
        has_segments = project is not None and bool(len(project.source) and len(project.target))
        self.fit_button.setEnabled(has_segments)
        self.zoom_button.setEnabled(has_segments and project is not None and project.alignment is not None)
        if fit:
            self.fit_to_window()

    def set_grid(self, grid: SimilarityGrid | None) -> None:
        """Colour the matrix with ``grid`` (computed after opening), keeping the zoom."""
        if grid is not None and not grid.computed:
            # A talk too large for a dense similarity matrix: beads only.
            grid = None
            self._note = "Too many segments to colour the matrix; the beads are drawn."
        self._grid = grid
        self._refresh_image()
        self.refresh_beads()
        self._update_empty_label()

    @property
    def has_colours(self) -> bool:
        """True when a similarity grid colours the matrix."""
        return self._grid is not None

    def set_note(self, note: str) -> None:
        """What to say while the beads have no colours (e.g. that they are being computed)."""
        self._note = note
        self._update_empty_label()

    def empty_message(self) -> str:
        """What the view tells the user when there is no alignment to draw ("" when there is one)."""
        project = self._project
        if project is None or (not len(project.source) and not len(project.target)):
            return "No talk open.\nFile → New talk… (Ctrl+N) or Open… (Ctrl+O)"
        if project.alignment is None:
            if self._grid is not None:  # an alignment undone: its colours stay
                return "Not aligned yet.\nAlign (Ctrl+R) draws the beads here."
            return "Not aligned yet.\nAlign (Ctrl+R) draws the similarity and the beads here."
        if self._grid is None:
            # Projects store beads, not the similarity matrix: it is computed
            # again in the background after opening (see set_note).
            return self._note or "No similarity yet.\nAlign (Ctrl+R) to colour the matrix."
        return ""

    def _update_empty_label(self) -> None:
        message = self.empty_message()
        self.empty_label.setText(message)
        self.empty_label.setVisible(bool(message))
        self._place_empty_label()

    def _place_empty_label(self) -> None:
        area = self.graphics.rect()
        has_beads = self._project is not None and self._project.alignment is not None
        if has_beads or self._grid is not None:
            # Over beads or colours the note is small and sits in the top-right
            # corner of the matrix, away from the path (which runs top-left to
            # bottom-right), from the last bead and from the colour scale.
            box = self.graphics.mapFromScene(self.plot.getViewBox().sceneBoundingRect()).boundingRect()
            if box.width() < 100 or box.height() < 40:  # not laid out yet
                box = area.adjusted(0, 28, -24, 0)
            self.empty_label.setFixedWidth(max(min(box.width() - 8, 240), 100))
            self.empty_label.adjustSize()
            self.empty_label.move(max(0, box.right() - self.empty_label.width() - 4), box.top() + 4)
            return
        self.empty_label.setFixedWidth(max(min(area.width() - 20, 360), 100))
        self.empty_label.adjustSize()
        x = (area.width() - self.empty_label.width()) // 2
        self.empty_label.move(x, max(0, (area.height() - self.empty_label.height()) // 2))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._show_titles(self._titles_for(self.height()))
        self._place_empty_label()

    def _full_titles(self) -> tuple[str, str]:
        return FULL_TITLES[0], f"target segment ({self._role})"

    def _titles_for(self, height: int) -> tuple[str, str]:
        """The full titles, the short ones on a low matrix, none on the lowest."""
        if height >= TITLES_MIN_HEIGHT:
            return self._full_titles()
        return (SHORT_TITLES[0], self._role) if height >= SHORT_TITLES_MIN_HEIGHT else ("", "")

    def _show_titles(self, titles: tuple[str, str], *, force: bool = False) -> None:
        """Title the axes (left, top) with ``titles``: the full ones, the short ones in a small font, or none."""
        # The colour bar keeps its label: toggling it while the bar is hidden
        # (no colours yet) leaves the axis too narrow and the label over the bar.
        changed = force or titles != self._titles
        self._titles = titles
        for axis, title in zip((self.plot.getAxis("left"), self.plot.getAxis("top")), titles):
            if changed and title:
                # setLabel without a style keeps the last one (and its colour): swap the font size only.
                axis.labelStyle = {k: v for k, v in axis.labelStyle.items() if k not in SHORT_TITLE_STYLE}
                if titles != self._full_titles():
                    axis.labelStyle.update(SHORT_TITLE_STYLE)
                axis.setLabel(title)
            axis.showLabel(bool(title))

    def titles_shown(self) -> bool:
        """Whether the axes have titles (short ones on a low matrix, none on the lowest)."""
        return any(self.axis_titles())

    def axis_titles(self) -> tuple[str, str]:
        """The titles (left, top) the axes show now; "" for one left out."""
        axes = (self.plot.getAxis("left"), self.plot.getAxis("top"))
        return tuple(title if axis.label.isVisible() else "" for axis, title in zip(axes, self._titles))  # type: ignore[return-value]

    def refresh_documents(self) -> None:
        """After an edit: rebuild the image if segments were split or merged, redraw the beads."""
        project = self._project
        key = (project.source.ids(), project.target.ids()) if project is not None else None
        if key != self._image_key:
            self._refresh_image()
        self.refresh_beads()
        # The info line describes the selected bead as it is now (merged, split…).
        self.hover_label.setText(self.describe_bead(self._selected) or " ")

    def _refresh_image(self) -> None:
        project = self._project
        self._image_key = (project.source.ids(), project.target.ids()) if project is not None else None
        if project is None:
            self.image_item.clear()
            self.colour_bar.setVisible(False)
            self._shape = (0, 0)
            return
        n_src, n_tgt = len(project.source), len(project.target)
        self._shape = (n_src, n_tgt)
        if self._grid is not None:
            values = self._grid.remapped(project.source.ids(), project.target.ids())
        else:
            # Nothing to colour: one transparent cell stretched over the matrix.
            # (A full NaN image of a 5,000-bead talk made every zoom step
            # downsample 30 million cells.)
            values = np.full((1, 1), np.nan, dtype=np.float32)
        # Colour levels from a sample: a percentile over 30 million cells would
        # take a second; a strided sample of ~1 million gives the same levels.
        step = max(1, values.size // 1_000_000)
        sample = values.ravel()[::step]
        finite = sample[np.isfinite(sample)]
        if finite.size:
            lo, hi = float(np.percentile(finite, 1)), float(np.nanmax(values))
            if hi <= lo:
                hi = lo + 1e-3
        else:
            lo, hi = 0.0, 1.0
        # An all-NaN image (no run yet) stays transparent over a light background.
        self.image_item.setImage(values, levels=(lo, hi), autoLevels=False)
        self.image_item.setRect(QRectF(0, 0, max(n_tgt, 1), max(n_src, 1)))
        # Panning and zooming stay on the matrix (a little margin for skip beads at the edges).
        self.plot.getViewBox().setLimits(
            xMin=-1, xMax=max(n_tgt, 1) + 1, yMin=-1, yMax=max(n_src, 1) + 1, minXRange=3, minYRange=3
        )
        self.colour_bar.setLevels((lo, hi))
        # No colours, no colour scale.
        self.colour_bar.setVisible(self._grid is not None)
        if self._grid is not None:
            # The bar's label sits on its left axis, which measured itself zero
            # wide while the bar was hidden and then drew the label over the
            # bar: measure it again now that it shows.
            self.colour_bar.getAxis("left").setWidth(COLOUR_LABEL_WIDTH)
        self._show_titles(self._titles)

    def refresh_beads(self) -> None:
        """Redraw bead outlines, the path and the selection from the current alignment."""
        project = self._project
        beads = project.alignment.beads if project is not None and project.alignment is not None else []
        self._spans = bead_spans(beads)
        groups: dict[str, list[int]] = {key: [] for key in BEAD_PENS}
        for i, b in enumerate(beads):
            if b.status is BeadStatus.CONFIRMED:
                groups["confirmed"].append(i)
            elif b.status is BeadStatus.DROPPED:
                groups["dropped"].append(i)
            elif b.failed_flags:
                groups["flagged"].append(i)
            else:
                groups["auto"].append(i)
        # White outlines disappear on a blank (uncoloured) matrix.
        auto = BEAD_PENS["auto"] if self._grid is not None else AUTO_PEN_BLANK
        self._bead_curves["auto"].setPen(pg.mkPen(auto, width=1.5, cosmetic=True))
        for key, curve in self._bead_curves.items():
            xs, ys = _outline_points(self._spans[groups[key]] if groups[key] else self._spans[:0])
            curve.setData(xs, ys, connect="finite")
        if len(self._spans):
            centre_x = (self._spans[:, 2] + self._spans[:, 3]) / 2.0
            centre_y = (self._spans[:, 0] + self._spans[:, 1]) / 2.0
            self.path_curve.setData(centre_x, centre_y)
        else:
            self.path_curve.setData([], [])
        self._draw_selection()

    # -- selection ------------------------------------------------------------
    @property
    def spans(self) -> np.ndarray:
        return self._spans

    @property
    def selected_bead(self) -> int:
        return self._selected

    def set_selected_bead(self, index: int, *, ensure_visible: bool = True) -> None:
        """Highlight bead ``index`` (-1: none), panning to it if it is off screen."""
        self._selected = index
        self._draw_selection()
        # The info line follows the selection (from the table too) until the mouse moves over the matrix.
        self.hover_label.setText(self.describe_bead(index) or " ")
        if ensure_visible and 0 <= index < len(self._spans):
            self._ensure_visible(index)

    def describe_bead(self, index: int) -> str:
        """One line about bead ``index``: its number, segments and mean similarity ("" for none)."""
        if not 0 <= index < len(self._spans):
            return ""
        s0, s1, t0, t1 = (int(v) for v in self._spans[index])

        def side(name: str, lo: int, hi: int) -> str:
            if hi == lo:
                return f"no {name}"
            return f"{name} {lo + 1}" if hi - lo == 1 else f"{name} {lo + 1}–{hi}"

        text = f"bead {index + 1}: {side('source', s0, s1)} × {side('target', t0, t1)}"
        image = self.image_item.image
        if self._grid is not None and image is not None and s1 > s0 and t1 > t0:
            cells = np.asarray(image[s0:s1, t0:t1], dtype=np.float64)
            if cells.size and np.isfinite(cells).any():
                text += f" · similarity {float(np.nanmean(cells)):.2f}"
        return text

    def selection_rect(self) -> QRectF | None:
        """The highlighted rectangle in matrix coordinates (x = target, y = source), or None."""
        if not self.selection_item.isVisible():
            return None
        return self.selection_item.rect()

    def _bead_rect(self, index: int) -> QRectF:
        y0, y1, x0, x1 = (float(v) for v in self._spans[index])
        if x0 == x1:
            x0, x1 = x0 - SKIP_HALF_WIDTH, x1 + SKIP_HALF_WIDTH
        if y0 == y1:
            y0, y1 = y0 - SKIP_HALF_WIDTH, y1 + SKIP_HALF_WIDTH
        return QRectF(QPointF(x0, y0), QPointF(x1, y1))

    def _draw_selection(self) -> None:
        index = self._selected
        visible = 0 <= index < len(self._spans)
        if visible:
            rect = self._bead_rect(index)
            self.selection_item.setRect(rect)
            self.cross_v.setValue(rect.center().x())
            self.cross_h.setValue(rect.center().y())
        for item in (self.selection_item, self.cross_v, self.cross_h):
            item.setVisible(visible)

    def _ensure_visible(self, index: int) -> None:
        rect = self._bead_rect(index)
        view = self.plot.getViewBox()
        (vx0, vx1), (vy0, vy1) = view.viewRange()
        if vx0 <= rect.left() and rect.right() <= vx1 and vy0 <= rect.top() and rect.bottom() <= vy1:
            return
        w, h = vx1 - vx0, vy1 - vy0
        cx, cy = rect.center().x(), rect.center().y()
        view.setRange(xRange=(cx - w / 2, cx + w / 2), yRange=(cy - h / 2, cy + h / 2), padding=0)

    # -- view -----------------------------------------------------------------
    def fit_to_window(self) -> None:
        n_src, n_tgt = self._shape
        self.plot.getViewBox().setRange(
            xRange=(0, max(n_tgt, 1)), yRange=(0, max(n_src, 1)), padding=0.0
        )

    def zoom_to_bead(self, index: int, *, context: int = 12) -> None:
        """Zoom so that bead ``index`` and about ``context`` segments around it fill the view."""
        if not 0 <= index < len(self._spans):
            return
        rect = self._bead_rect(index)
        n_src, n_tgt = self._shape
        x0, x1 = _clamped(rect.left() - context, rect.right() + context, max(n_tgt, 1))
        y0, y1 = _clamped(rect.top() - context / 2, rect.bottom() + context / 2, max(n_src, 1))
        self.plot.getViewBox().setRange(xRange=(x0, x1), yRange=(y0, y1), padding=0.0)

    # -- events ---------------------------------------------------------------
    def _on_cell_clicked(self, row: int, col: int) -> None:
        index = bead_at(self._spans, row, col)
        if index >= 0:
            self.bead_clicked.emit(index)

    def _on_cell_context(self, row: int, col: int, global_pos: Any) -> None:
        index = bead_at(self._spans, row, col)
        if index >= 0:
            self.bead_clicked.emit(index)
            self.context_requested.emit(index, global_pos)

    def _on_mouse_moved(self, scene_pos: QPointF) -> None:
        project = self._project
        if project is None or not self.plot.sceneBoundingRect().contains(scene_pos):
            return
        point = self.plot.getViewBox().mapSceneToView(scene_pos)
        row, col = int(np.floor(point.y())), int(np.floor(point.x()))
        n_src, n_tgt = self._shape
        if not (0 <= row < n_src and 0 <= col < n_tgt):
            self.hover_label.setText(" ")
            return
        image = self.image_item.image
        text = f"source {row + 1} × target {col + 1}"
        if image is not None and row < image.shape[0] and col < image.shape[1] and np.isfinite(image[row, col]):
            text += f" · similarity {float(image[row, col]):.2f}"
        index = bead_at(self._spans, row, col)
        if index >= 0:
            text += f" · bead {index + 1}"
        self.hover_label.setText(text)
