"""The filter panel: scores in a worker, a live count of flips, apply as one undoable step."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from river_talk import river_project
from sialign.core.model import BeadStatus, Project
from sialign.core.params import FilterParams

# Qt warnings fail these tests (as in pyqtgraph's suite): a warning about threads or
# timers is a bug. The offscreen platform's note about size hints is not.
pytestmark = [pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints")]


def _project() -> Project:
    return river_project(filter_params=FilterParams(gamma_min=0.2, gamma_max=3.0))


@pytest.fixture
def window(open_window):
    return open_window(_project())


def _score(qtbot, window) -> None:
    panel = window.filter_panel
    with qtbot.waitSignal(window.runner.finished, timeout=60_000):
        panel.score_button.click()
    assert panel.scores is not None


def test_filter_panel_live_count_and_apply_undo(qtbot, window) -> None:
    panel = window.filter_panel
    window.act.filters.trigger()
    assert window.filter_dock.isVisible()
    _score(qtbot, window)
    # "Ernte." is far shorter than its reference: below γ = 0.2 it would be dropped.
    assert panel.flips == [2]
    n = len(panel.changed)
    assert f"{n}</b> bead{'s' if n != 1 else ''} would change: 1 dropped" in panel.count_label.text()
    panel.show_flips.setChecked(True)  # the table shows the beads the preview lists
    shown = [window.proxy.bead_of(window.proxy.index(r, 0)) for r in range(window.proxy.rowCount())]
    listed = [panel.preview_list.item(i).data(Qt.ItemDataRole.UserRole) for i in range(panel.preview_list.count())]
    assert 2 in shown and sorted(shown) == sorted(listed) == panel.changed
    panel.show_flips.setChecked(False)
    assert window.proxy.rowCount() == 4
    panel.rows["gamma_min"].set_value(0.0)
    assert panel.flips == []
    panel.rows["gamma_min"].slider.setValue(500)  # the slider drives the spin box (γ = 1.0)
    assert panel.rows["gamma_min"].value() == pytest.approx(1.0)
    assert len(panel.flips) >= 2
    panel.rows["gamma_min"].set_value(0.2)
    assert panel.flips == [2]

    with qtbot.waitSignal(window.runner.finished, timeout=60_000):
        panel.apply_button.click()
    beads = window.session.project.alignment.beads
    assert beads[2].status is BeadStatus.DROPPED and beads[2].reason.startswith("filter: ")
    assert window.session.undo_stack.count() == 1
    assert window.session.undo_stack.undoText() == "Apply filters"
    assert window.session.project.filter_params.gamma_min == pytest.approx(0.2)
    # After applying, the same thresholds change nothing more.
    assert panel.flips == []
    assert "dropped" in window.table_model.data(window.table_model.index(2, 3))

    window.act.undo.trigger()
    assert window.session.project.alignment.beads[2].status is BeadStatus.AUTO
    assert panel.flips == [2]


def test_filter_panel_scores_dropped_after_structural_edit(qtbot, window) -> None:
    from sialign.core.edits import MergeBeads

    _score(qtbot, window)
    window.filter_panel.show_flips.setChecked(True)
    window.session.apply(MergeBeads(0))
    assert window.filter_panel.scores is None
    assert window.proxy.rowCount() == 3  # every bead again, not an empty table
    assert "Score the beads" in window.filter_panel.count_label.text()


def test_filter_panel_apply_without_scoring_first_scores_and_keeps_the_scores(qtbot, window) -> None:
    panel = window.filter_panel
    assert panel.scores is None
    with qtbot.waitSignal(window.runner.finished, timeout=60_000):
        panel.apply_button.click()
    beads = window.session.project.alignment.beads
    assert beads[2].status is BeadStatus.DROPPED and beads[2].reason.startswith("filter: ")
    # The scores computed for the apply stay for the sliders: nothing more flips at these thresholds.
    assert panel.scores is not None and panel.scores.matches(beads)
    assert panel.flips == []
    panel.rows["gamma_min"].set_value(0.0)
    assert panel.flips == [2]  # bead 2 would be restored


@pytest.mark.slow
def test_filter_panel_gui_thread_never_stalls_while_ginza_loads(qtbot, monkeypatch, make_project, open_window) -> None:
    """Heartbeat every 10 ms on the GUI thread while the first scoring of a Japanese talk loads GiNZA.

    Importing spaCy and loading ``ja_ginza`` holds the interpreter lock for
    hundreds of milliseconds at a time; in a thread of the GUI process that
    froze the window several times over ~5 s. The scoring process keeps it
    out of the GUI process.
    """
    import time

    from heartbeat import STALL_LIMIT_S, heartbeat_gaps

    from sialign.filters import remote

    remote.shutdown()  # a cold scoring process: this scoring loads GiNZA
    window = open_window(make_project())
    qtbot.wait(300)

    work_done: list[float] = []

    def run_scoring() -> None:
        with qtbot.waitSignal(window.runner.finished, timeout=180_000):
            window.filter_panel.score_button.click()
            window.runner.worker.done.connect(lambda: work_done.append(time.perf_counter()))

    idle = heartbeat_gaps(lambda: qtbot.wait(800), work_done)
    busy = heartbeat_gaps(run_scoring, work_done)
    assert window.filter_panel.scores is not None
    assert len(busy) > 100, "the scoring was too quick to have loaded GiNZA"
    print(f"\nheartbeat: idle max {idle[-1] * 1000:.0f} ms, scoring max {busy[-1] * 1000:.0f} ms "
          f"over {len(busy)} beats")
    # Goal: no stall over ~50 ms; allowed on this shared machine: 100 ms or
    # three times the idle worst. With GiNZA loading in a thread of the GUI
    # process the longest gap was 0.3-0.9 s.
    assert busy[-1] < max(STALL_LIMIT_S, 3 * idle[-1]), f"the GUI thread stalled {busy[-1] * 1000:.0f} ms (idle worst {idle[-1] * 1000:.0f} ms)"


@pytest.fixture
def japanese_window(qtbot, monkeypatch, make_project, open_window):
    """The hand-made English → Japanese talk, aligned, with a cold scoring process."""
    from sialign.filters import remote
    from sialign.gui.filters import filter_panel

    remote.shutdown()
    monkeypatch.setattr(filter_panel, "WARM_UP_DELAY_MS", 100)
    return open_window(make_project())


@pytest.mark.slow
def test_filter_panel_warms_up_ginza_only_when_shown(qtbot, japanese_window) -> None:
    from sialign.filters import remote

    window = japanese_window
    qtbot.wait(400)
    assert not remote.scoring_process().running, "a hidden panel must not load GiNZA"
    window.act.filters.trigger()
    qtbot.waitUntil(lambda: remote.scoring_process().running, timeout=5000)
    # A scoring started during the load waits for it and then works.
    with qtbot.waitSignal(window.runner.finished, timeout=180_000):
        window.filter_panel.score_button.click()
    assert window.filter_panel.scores is not None
    assert window.filter_panel.scores.trims[4] == (6,)  # "えー、" before 数字をお見せします。


@pytest.mark.slow
def test_filter_panel_cancel_during_ginza_load_is_quick(qtbot, japanese_window) -> None:
    import time

    from sialign.filters import remote

    window = japanese_window
    window.filter_panel.score_button.click()
    qtbot.waitUntil(lambda: "GiNZA" in window.progress.format(), timeout=10_000)
    t0 = time.monotonic()
    with qtbot.waitSignal(window.runner.finished, timeout=5000):
        window.cancel_task()
    assert time.monotonic() - t0 < 1.0
    assert window.filter_panel.scores is None
    assert "Cancelled" in window.statusBar().currentMessage()
    # The load goes on for the next scoring instead of being thrown away.
    assert remote.scoring_process().running
    with qtbot.waitSignal(window.runner.finished, timeout=180_000):
        window.filter_panel.score_button.click()
    assert window.filter_panel.scores is not None


def test_closing_filters_brings_the_matrix_back(qtbot, window) -> None:
    from PySide6.QtWidgets import QTabBar

    window.show()
    qtbot.waitExposed(window)
    window.show_filters()
    qtbot.wait(20)
    assert not window.filter_dock.visibleRegion().isEmpty()
    window.filter_dock.close()
    qtbot.wait(20)
    bars = [bar for bar in window.findChildren(QTabBar) if "Alignment matrix" in [bar.tabText(i) for i in range(bar.count())]]
    assert bars and bars[0].tabText(bars[0].currentIndex()) == "Alignment matrix"
    assert not window.matrix_dock.visibleRegion().isEmpty()


def test_filter_panel_brings_the_result_of_scoring_into_view(qtbot, window) -> None:
    window.resize(1280, 800)
    window.act.filters.trigger()
    panel = window.filter_panel
    scroll = panel.parentWidget().parentWidget()
    # A low dock, as on a laptop: the count sits below the fold.
    window.filter_dock.setMinimumHeight(0)
    window.resizeDocks([window.filter_dock], [160], Qt.Orientation.Vertical)
    qtbot.wait(50)
    scroll.verticalScrollBar().setValue(0)
    _score(qtbot, window)
    qtbot.waitUntil(lambda: "would change" in panel.count_label.text(), timeout=5000)
    top = panel.count_label.mapTo(scroll.widget(), panel.count_label.rect().topLeft()).y()
    view = scroll.verticalScrollBar().value(), scroll.verticalScrollBar().value() + scroll.viewport().height()
    assert view[0] <= top and top + panel.count_label.height() <= view[1]


def test_filter_panel_says_when_gamma_at_least_is_above_gamma_at_most(qtbot, window) -> None:
    """FilterParams refuses the pair (as the command line does): the panel says why and offers no Apply, then recovers."""
    panel = window.filter_panel
    window.act.filters.trigger()
    _score(qtbot, window)
    panel.rows["gamma_max"].set_value(1.0)
    panel.rows["gamma_min"].set_value(1.5)
    assert "“γ — length ratio, at least” is above “γ — length ratio, at most”" in panel.count_label.text()
    assert panel.flips == [] and not panel.apply_button.isEnabled()
    panel.apply()  # refused, nothing starts
    assert not window.runner.busy and window.session.undo_stack.count() == 0
    panel.rows["gamma_min"].set_value(0.2)
    assert panel.apply_button.isEnabled() and panel.flips == [2]
