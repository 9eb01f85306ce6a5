"""The filter panel: scores in a worker, a live count of flips, apply as one undoable step."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QMessageBox

from sialign.core.model import Alignment, Bead, BeadStatus, Document, Project

# Qt warnings fail these tests (as in pyqtgraph's suite): a warning about threads or
# timers is a bug. The offscreen platform's note about size hints is not.
pytestmark = [pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints")]

SOURCE = ["The river floods every spring.", "Farmers plant rice in May.", "The harvest comes in autumn.", "Then they celebrate."]
# German interpretation and reference (no Japanese, so no GiNZA is needed here).
TARGET = ["Der Fluss tritt jeden Frühling über die Ufer.", "Bauern pflanzen im Mai Reis.", "Ernte.", "Dann feiern sie."]
REFERENCE = ["Der Fluss tritt jedes Frühjahr über die Ufer.", "Die Bauern pflanzen im Mai Reis.",
             "Die Ernte kommt im Herbst, wenn die Felder golden sind.", "Dann feiern sie."]  # fmt: skip


def _project() -> Project:
    beads = [Bead(src=(i,), tgt=(i,), cost=0.2) for i in range(4)]
    return Project(
        talk_id="river",
        source=Document.from_texts(SOURCE, language="en"),
        target=Document.from_texts(TARGET, language="de"),
        reference=Document.from_texts(REFERENCE, language="de"),
        alignment=Alignment(beads=beads),
        filter_params={"gamma_min": 0.2, "gamma_max": 3.0},
    )


@pytest.fixture
def window(qtbot, monkeypatch):  # noqa: ANN001
    from sialign.gui.main_window import MainWindow
    from sialign.gui.session import ProjectSession

    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Discard)
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text, *a: pytest.fail(f"{title}: {text}"))
    session = ProjectSession()
    session.set_project(_project())
    w = MainWindow(session)
    qtbot.addWidget(w)
    w.show()
    return w


def _score(qtbot, window) -> None:  # noqa: ANN001
    panel = window.filter_panel
    with qtbot.waitSignal(window.runner.finished, timeout=60_000):
        panel.score_button.click()
    assert panel.scores is not None


def test_filter_panel_live_count_and_apply_undo(qtbot, window) -> None:  # noqa: ANN001
    panel = window.filter_panel
    window.act_filters.trigger()
    assert window.filter_dock.isVisible()
    _score(qtbot, window)
    # "Ernte." is far shorter than its reference: below γ = 0.2 it would be dropped.
    assert panel.flips == [2]
    assert "1</b> beads would change: 1 dropped" in panel.count_label.text()
    panel.show_flips.setChecked(True)  # the table shows just the bead that would change
    assert [window.proxy.bead_of(window.proxy.index(r, 0)) for r in range(window.proxy.rowCount())] == [2]
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
    assert window.session.project.filter_params["gamma_min"] == pytest.approx(0.2)
    # After applying, the same thresholds change nothing more.
    assert panel.flips == []
    assert "dropped" in window.table_model.data(window.table_model.index(2, 3))

    window.act_undo.trigger()
    assert window.session.project.alignment.beads[2].status is BeadStatus.AUTO
    assert panel.flips == [2]


def test_filter_panel_scores_dropped_after_structural_edit(qtbot, window) -> None:  # noqa: ANN001
    from sialign.core.edits import MergeBeads

    _score(qtbot, window)
    window.filter_panel.show_flips.setChecked(True)
    window.session.apply(MergeBeads(0))
    assert window.filter_panel.scores is None
    assert window.proxy.rowCount() == 3  # every bead again, not an empty table
    assert "Score the beads" in window.filter_panel.count_label.text()
