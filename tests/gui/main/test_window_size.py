"""The main window fits the screen it opens on, and its default layout stays usable on a laptop screen."""

from __future__ import annotations

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QGuiApplication

pytestmark = [pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints")]


# A 1280 × 800 laptop screen less a 30-pixel panel (the offscreen test
# platform's own screen is 800 pixels wide, narrower than any laptop).
LAPTOP = QRect(0, 30, 1280, 770)


@pytest.fixture
def laptop(monkeypatch):
    from sialign.gui.main.window_layout import WindowLayout

    monkeypatch.setattr(WindowLayout, "free_area", lambda self: QRect(LAPTOP))
    return LAPTOP


def test_a_fresh_window_is_never_larger_than_the_screen(qtbot, session, laptop) -> None:
    from sialign.gui.main.main_window import MainWindow
    from sialign.gui.main.window_layout import DEFAULT_SIZE

    assert QGuiApplication.primaryScreen() is not None
    window = MainWindow(session)
    qtbot.addWidget(window)
    assert window.width() <= laptop.width() and window.height() <= laptop.height()
    # On a screen smaller than the default size the window opens maximised.
    assert window.windowState() & Qt.WindowState.WindowMaximized
    assert window.minimumSizeHint().width() <= laptop.width() and window.minimumSizeHint().height() <= laptop.height()
    assert DEFAULT_SIZE[1] > laptop.height()


def test_a_window_fits_a_big_screen_at_its_default_size(qtbot, session, monkeypatch) -> None:
    from sialign.gui.main.main_window import MainWindow
    from sialign.gui.main.window_layout import DEFAULT_SIZE, WindowLayout

    monkeypatch.setattr(WindowLayout, "free_area", lambda self: QRect(0, 0, 1920, 1050))
    window = MainWindow(session)
    qtbot.addWidget(window)
    assert (window.width(), window.height()) == DEFAULT_SIZE
    assert not window.windowState() & Qt.WindowState.WindowMaximized


def test_a_geometry_saved_on_a_bigger_screen_is_cut_to_this_one(qtbot, session, laptop) -> None:
    from sialign.gui.main.main_window import MainWindow

    first = MainWindow(session)
    qtbot.addWidget(first)
    first.setWindowState(Qt.WindowState.WindowNoState)
    first.resize(2400, 1500)  # as saved on a large monitor
    first.move(1500, 900)
    first.panels.save_layout()
    first.session.mark_saved()
    first.close()

    again = MainWindow(session)
    qtbot.addWidget(again)
    assert again.width() <= laptop.width() and again.height() <= laptop.height()
    assert laptop.contains(again.frameGeometry().topLeft())


def _window_at(qtbot, session, size):
    """A main window of ``size``, shown, with the layout a first start gives it."""
    from sialign.gui.main.main_window import MainWindow

    window = MainWindow(session)
    qtbot.addWidget(window)
    window.setWindowState(Qt.WindowState.WindowNoState)
    window.resize(*size)
    window.show()
    qtbot.waitExposed(window)
    window.panels.reset_layout()
    return window


@pytest.mark.parametrize("size", [(1280, 760), (1366, 730)])
def test_the_default_layout_is_usable_on_a_laptop_screen(qtbot, session, size, desktop_font) -> None:
    """1280 × 800 and 1366 × 768 screens (less the title bar): table, matrix and bead panel all get room."""
    from dataclasses import replace

    # A dropped bead with a long reason: the bead panel's title takes two lines.
    beads = session.project.alignment.beads
    beads[0] = replace(beads[0], reason="filter: No chunk of the interpretation holds a content word " * 4)
    window = _window_at(qtbot, session, size)
    window.session.select_bead(0)
    qtbot.wait(50)
    assert window.inspector.title.height() > 1.5 * window.inspector.title.fontMetrics().lineSpacing()
    assert window.minimumSizeHint().height() <= size[1] and window.minimumSizeHint().width() <= size[0]
    table = window.table.viewport().height()
    row = window.table.rowHeight(0)
    assert table >= 3 * row, f"the table shows {table / row:.1f} rows"
    assert window.matrix.graphics.height() >= 130
    assert window.inspector_dock.height() >= 150
    assert window.audio_dock.height() <= 0.3 * size[1]
    # The bead panel's last row (the post-edit) shows without scrolling.
    viewport = window.inspector.parentWidget()
    bottom = window.inspector.post_edit.mapTo(viewport, window.inspector.post_edit.rect().bottomLeft()).y()
    assert bottom <= viewport.height(), f"post-edit row ends at {bottom}, the panel at {viewport.height()}"
    # Status messages keep most of the bar: the permanent labels are short.
    permanent = sum(w.width() for w in (window.embedder_label, window.counts_label, window.saved_label) if w.isVisible())
    assert permanent <= 0.6 * window.statusBar().width()


@pytest.mark.parametrize("size", [(1280, 760), (1366, 730)])
def test_filters_open_with_the_matrix_height_and_apply_in_sight(qtbot, session, size, desktop_font) -> None:
    """On a laptop screen the Filters tab has the matrix's place, and Score and Apply show without scrolling."""
    window = _window_at(qtbot, session, size)
    qtbot.wait(50)
    matrix_height = window.matrix_dock.height()
    window.show_filters()
    qtbot.waitUntil(window.filter_panel.isVisible, timeout=2000)
    qtbot.wait(50)
    assert window.filter_dock.height() == matrix_height
    panel = window.filter_panel
    viewport = panel.parentWidget()
    for button in (panel.score_button, panel.apply_button):
        top_left = button.mapTo(viewport, button.rect().topLeft())
        assert viewport.rect().contains(top_left) and top_left.y() + button.height() <= viewport.height()
    window.session.mark_saved()
    window.close()


def test_a_low_matrix_shortens_its_titles_instead_of_cutting_them(qtbot, session) -> None:
    from sialign.gui.matrix.matrix_view import (
        FULL_TITLES,
        SHORT_TITLES,
        SHORT_TITLES_MIN_HEIGHT,
        TITLES_MIN_HEIGHT,
        MatrixView,
    )

    view = MatrixView()
    qtbot.addWidget(view)
    view.set_project(session.project, session.similarity)
    view.resize(400, TITLES_MIN_HEIGHT - 40)  # the matrix's height on a 1280 × 800 screen
    view.show()
    qtbot.waitExposed(view)
    qtbot.waitUntil(lambda: view.axis_titles() == SHORT_TITLES, timeout=2000)
    # The rotated source title fits along the matrix's height (it read "rce segment" when squeezed).
    left = view.plot.getAxis("left").label
    qtbot.waitUntil(lambda: left.boundingRect().width() <= view.plot.getViewBox().height(), timeout=2000)
    view.resize(400, SHORT_TITLES_MIN_HEIGHT - 20)
    qtbot.waitUntil(lambda: not view.titles_shown(), timeout=2000)
    view.resize(400, TITLES_MIN_HEIGHT + 200)
    qtbot.waitUntil(lambda: view.axis_titles() == FULL_TITLES, timeout=2000)
    # Back to full size, the full titles are in the axes' own font again.
    assert "font-size" not in view.plot.getAxis("left").labelStyle


def test_a_laptop_screen_starts_with_compact_rows_until_the_user_chooses(qtbot, session, laptop) -> None:
    from sialign.gui.main.main_window import MainWindow

    window = MainWindow(session)
    qtbot.addWidget(window)
    assert window.act.compact_rows.isChecked()
    compact = window.table.verticalHeader().defaultSectionSize()
    window.act.compact_rows.trigger()  # the user wants two-line rows: remembered
    assert window.table.verticalHeader().defaultSectionSize() > compact
    window.session.mark_saved()
    window.close()
    again = MainWindow(session)
    qtbot.addWidget(again)
    assert not again.act.compact_rows.isChecked()


def test_a_desktop_screen_starts_with_two_line_rows(qtbot, session) -> None:
    from sialign.gui.main.main_window import MainWindow

    window = MainWindow(session)
    qtbot.addWidget(window)
    assert not window.act.compact_rows.isChecked()


def test_a_long_embedder_name_is_cut_in_the_status_bar_and_whole_in_its_tooltip(qtbot, session, laptop) -> None:
    from sialign.gui.main.main_window import EMBEDDER_LABEL_WIDTH, MainWindow

    name = "use-multilingual + lexical (pivot through the reference translation)"
    session.project.alignment.embedder = name
    session.project.alignment.info["embedder_note"] = "chosen for en → ja — no model was named"
    window = MainWindow(session)
    qtbot.addWidget(window)
    label = window.embedder_label
    assert label.fontMetrics().horizontalAdvance(label.text()) <= EMBEDDER_LABEL_WIDTH
    assert label.text().endswith("…") and name in label.toolTip() and "no model was named" in label.toolTip()


def test_a_written_translation_is_not_called_an_interpretation(qtbot, session) -> None:
    """The matrix's axis and the bead panel said "interpretation" for a book's translation."""
    import dataclasses

    from sialign.core.model import target_role
    from sialign.gui.matrix.matrix_view import TITLES_MIN_HEIGHT, MatrixView

    project = session.project
    assert target_role(project) == "interpretation"
    project.alignment.info["text_kind"] = "translation"  # what the aligner decided (text_kind "auto")
    assert target_role(project) == "translation"
    view = MatrixView()
    qtbot.addWidget(view)
    view.resize(400, TITLES_MIN_HEIGHT + 100)
    view.show()
    view.set_project(project, session.similarity)
    assert view.plot.getAxis("top").labelText == "target segment (translation)"
    project.alignment.info.pop("text_kind")
    project.params = dataclasses.replace(project.params, text_kind="interpretation") if project.params else None
    view.set_project(project, session.similarity)
    assert view.plot.getAxis("top").labelText == "target segment (interpretation)"


def test_the_bead_panel_names_the_target_by_what_it_is(qtbot, window) -> None:
    inspector = window.inspector
    assert inspector.target_box.title() == "Target segments (interpretation)"
    window.session.project.alignment.info["text_kind"] = "translation"
    inspector.show_bead(0)
    assert inspector.target_box.title() == "Target segments (translation)"
