"""The alignment matrix: bead geometry, clicks, selection highlight, large talks."""

from __future__ import annotations

import time

import numpy as np
import pytest
from PySide6.QtCore import QPointF, Qt

from sialign.core.model import Alignment, Bead, Document, Project
from sialign.core.similarity import SimilarityGrid
from sialign.gui.matrix.matrix_view import MatrixView, bead_at, bead_spans

# Qt warnings fail these tests (as in pyqtgraph's suite): a warning about threads or
# timers is a bug. The offscreen platform's note about size hints is not.
pytestmark = [pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints")]

# Beads of the hand-made talk (see conftest): rows = source, cols = target.
SPANS = [[0, 1, 0, 1], [1, 2, 1, 3], [2, 3, 3, 5], [3, 4, 5, 6], [4, 5, 6, 8], [5, 6, 8, 9]]


def test_matrix_view_bead_spans(project) -> None:
    assert bead_spans(project.alignment.beads).tolist() == SPANS


def test_matrix_view_bead_spans_with_skips() -> None:
    beads = [Bead(src=(0,), tgt=()), Bead(src=(), tgt=(0, 1)), Bead(src=(1, 2), tgt=(2,))]
    assert bead_spans(beads).tolist() == [[0, 1, 0, 0], [1, 1, 0, 2], [1, 3, 2, 3]]


@pytest.mark.parametrize(
    "row, col, expected",
    [
        (0, 0, 0),  # inside bead 1
        (1, 2, 1),  # inside bead 2 (second target chunk)
        (2, 4, 2),
        (5, 8, 5),
        (5, 2, 2),  # outside every bead: bead 3 (row 2, cols 3-4) is nearest
        (3, 0, 1),  # left of bead 4: bead 2 is nearest
        (-3, -3, 0),  # outside the matrix
    ],
)
def test_matrix_view_bead_at(row, col, expected) -> None:
    spans = np.array(SPANS)
    assert bead_at(spans, row, col) == expected


def test_matrix_view_bead_at_empty() -> None:
    assert bead_at(np.empty((0, 4), dtype=np.int64), 1, 1) == -1


def test_matrix_view_similarity_remap_after_split() -> None:
    values = np.arange(6, dtype=np.float32).reshape(2, 3)
    grid = SimilarityGrid(values, [0, 1], [10, 11, 12])
    out = grid.remapped([0, 7, 1], [10, 12])
    assert out.shape == (3, 2)
    assert out[0].tolist() == [0.0, 2.0]
    assert np.isnan(out[1]).all()  # the new segment from a split has no similarity yet
    assert out[2].tolist() == [3.0, 5.0]


def _cell_centre_in_viewport(view: MatrixView, row: int, col: int):
    scene_point = view.plot.getViewBox().mapViewToScene(QPointF(col + 0.5, row + 0.5))
    return view.graphics.mapFromScene(scene_point)


@pytest.fixture
def matrix(qtbot, session):
    view = MatrixView()
    qtbot.addWidget(view)
    view.resize(600, 500)
    view.set_project(session.project, session.similarity)
    view.show()
    qtbot.waitExposed(view)
    return view


@pytest.mark.parametrize("row, col, expected", [(0, 0, 0), (1, 2, 1), (2, 3, 2), (4, 7, 4), (5, 8, 5), (5, 2, 2)])
def test_matrix_view_click_selects_bead(qtbot, matrix, row, col, expected) -> None:
    with qtbot.waitSignal(matrix.bead_clicked, timeout=2000) as blocker:
        qtbot.mouseClick(matrix.graphics.viewport(), Qt.MouseButton.LeftButton, pos=_cell_centre_in_viewport(matrix, row, col))
    assert blocker.args == [expected]


def test_matrix_view_selection_rectangle(matrix) -> None:
    assert matrix.selection_rect() is None
    matrix.set_selected_bead(2)
    rect = matrix.selection_rect()
    # Bead 3: source row 2, target columns 3-4.
    assert (rect.left(), rect.top(), rect.right(), rect.bottom()) == (3.0, 2.0, 5.0, 3.0)
    matrix.set_selected_bead(-1)
    assert matrix.selection_rect() is None


def test_matrix_view_selection_scrolls_into_view(matrix) -> None:
    matrix.zoom_to_bead(0, context=1)
    (x0, x1), (y0, y1) = matrix.plot.getViewBox().viewRange()
    assert x1 < 5
    matrix.set_selected_bead(5)
    (x0, x1), (y0, y1) = matrix.plot.getViewBox().viewRange()
    assert x0 <= 8 and 9 <= x1 + 1e-6 and y0 <= 5 and 6 <= y1 + 1e-6


def test_matrix_view_fit_to_window(matrix) -> None:
    matrix.zoom_to_bead(2, context=1)
    matrix.fit_to_window()
    (x0, x1), (y0, y1) = matrix.plot.getViewBox().viewRange()
    assert x0 == pytest.approx(0, abs=0.05) and x1 == pytest.approx(9, abs=0.05)
    assert y0 == pytest.approx(0, abs=0.05) and y1 == pytest.approx(6, abs=0.05)


def test_matrix_view_large_talk_draws_quickly(qtbot) -> None:
    n_src, n_tgt = 1000, 3000
    source = Document.from_texts([f"s{i}" for i in range(n_src)], language="en")
    target = Document.from_texts([f"t{i}" for i in range(n_tgt)], language="ja")
    beads = [Bead(src=(i,), tgt=(3 * i, 3 * i + 1, 3 * i + 2), cost=0.3) for i in range(n_src)]
    project = Project(source=source, target=target, alignment=Alignment(beads=beads))
    values = np.random.default_rng(1).random((n_src, n_tgt), dtype=np.float32)
    view = MatrixView()
    qtbot.addWidget(view)
    view.resize(700, 600)
    view.show()
    qtbot.waitExposed(view)
    t0 = time.perf_counter()
    view.set_project(project, SimilarityGrid(values, source.ids(), target.ids()))
    view.grab()  # forces a paint of the whole 3-million-cell image
    first = time.perf_counter() - t0
    t0 = time.perf_counter()
    view.refresh_beads()
    view.set_selected_bead(500)
    redraw = time.perf_counter() - t0
    assert view.image_item.image.shape == (n_src, n_tgt)
    assert bead_at(view.spans, 500, 1501) == 500
    # Bounds for a loaded 2-core machine; typically ~10x faster.
    assert first < 5.0
    assert redraw < 1.0


def test_matrix_view_says_what_to_do_when_empty(qtbot, project, make_project) -> None:
    from sialign.core.model import Project

    view = MatrixView()
    qtbot.addWidget(view)
    view.set_project(Project(), None)
    assert "New talk" in view.empty_message() and view.empty_label.isVisibleTo(view)
    project.alignment = None
    view.set_project(project, None)
    assert "Align (Ctrl+R)" in view.empty_message()
    aligned = make_project()
    view.set_project(aligned, None)  # as opened from a file: beads but no similarity
    assert "Align (Ctrl+R)" in view.empty_message()
    view.set_note("Computing the similarity for the matrix…")
    assert "Computing" in view.empty_message() and view.empty_label.isVisibleTo(view)
    # The note keeps off the path: top-right corner, not over the last bead (bottom right).
    assert view.empty_label.y() < view.graphics.height() // 2
    view.set_project(aligned, SimilarityGrid(np.zeros((6, 9), dtype=np.float32), aligned.source.ids(), aligned.target.ids()))
    assert view.empty_message() == "" and not view.empty_label.isVisibleTo(view)


def test_the_not_aligned_note_keeps_off_the_colour_scale(qtbot, make_project) -> None:
    """An alignment undone leaves the colours: the note sits in the matrix's corner, not over the scale and its label."""
    aligned = make_project()
    values = np.random.default_rng(0).random((6, 9), dtype=np.float32)
    grid = SimilarityGrid(values, aligned.source.ids(), aligned.target.ids())
    aligned.alignment = None
    view = MatrixView()
    qtbot.addWidget(view)
    view.resize(455, 180)  # the matrix dock on a 1280 × 800 screen
    view.show()
    qtbot.waitExposed(view)
    view.set_project(aligned, grid)
    qtbot.wait(50)
    assert view.empty_message().startswith("Not aligned yet") and "draws the beads" in view.empty_message()
    assert view.empty_label.isVisibleTo(view)
    note = view.empty_label.geometry()
    scale = view.graphics.mapFromScene(view.colour_bar.sceneBoundingRect()).boundingRect()
    matrix = view.graphics.mapFromScene(view.plot.getViewBox().sceneBoundingRect()).boundingRect()
    assert not note.intersects(scale), (note, scale)
    assert matrix.adjusted(-1, -1, 1, 1).contains(note), (note, matrix)


def test_matrix_colour_bar_makes_room_for_its_label_after_being_hidden(qtbot, make_project) -> None:
    """Uncoloured, the bar is hidden; coloured again, its label must not be drawn over the bar."""
    aligned = make_project()
    view = MatrixView()
    qtbot.addWidget(view)
    view.resize(420, 320)
    view.show()
    view.set_project(aligned, None)
    assert not view.colour_bar.isVisible()
    view.resize(430, 330)  # a resize while hidden re-measures the axes (as zero wide)
    qtbot.wait(10)
    view.set_grid(SimilarityGrid(np.zeros((6, 9), dtype=np.float32), aligned.source.ids(), aligned.target.ids()))
    assert view.colour_bar.isVisible()
    qtbot.waitUntil(lambda: view.colour_bar.getAxis("left").width() >= 20, timeout=2000)


def test_matrix_view_zoom_buttons_need_a_talk(qtbot, project) -> None:
    from sialign.core.model import Project
    from sialign.gui.matrix.matrix_view import MatrixView

    view = MatrixView()
    qtbot.addWidget(view)
    view.set_project(Project(), None)
    assert not view.fit_button.isEnabled() and not view.zoom_button.isEnabled()
    view.set_project(project, None)
    assert view.fit_button.isEnabled() and view.zoom_button.isEnabled()


def test_a_long_hover_line_never_widens_the_matrix(qtbot, session) -> None:
    from PySide6.QtWidgets import QWidgetItem

    from sialign.gui.matrix.matrix_view import MatrixView

    view = MatrixView()
    qtbot.addWidget(view)
    view.set_project(session.project, session.similarity)
    view.hover_label.setText("bead 31 · 2 source, 3 target segments · cost 0.42 · " * 6)
    # What the layout asks of the line (a fresh item: no cached size).
    assert QWidgetItem(view.hover_label).minimumSize().width() < 50
    assert view.hover_label.toolTip().startswith("bead 31")
