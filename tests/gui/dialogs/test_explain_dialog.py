"""Review → Why this bead?: the learned score's features of the selected bead, computed in a worker."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QMessageBox

pytestmark = [pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints")]


def test_explain_dialog_shows_the_selected_beads_features(qtbot, window) -> None:
    window.session.select_bead(1)
    assert window.act.explain.isEnabled()
    with qtbot.waitSignal(window.runner.finished, timeout=120_000):
        window.act.explain.trigger()
    qtbot.waitUntil(lambda: window.explainer.dialog is not None, timeout=10_000)
    dialog = window.explainer.dialog
    qtbot.addWidget(dialog)
    text = dialog.text.toPlainText()
    assert text.startswith("bead 2 (")
    assert "P(right) = " in text and "similarity of the two sides" in text
    assert dialog.windowTitle() == "Why bead 2?"


def test_explain_dialog_needs_a_selected_bead(qtbot, window, monkeypatch) -> None:
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text, *a: shown.append(title))
    window.session.select_bead(-1)
    assert not window.act.explain.isEnabled()
    assert not window.explainer.explain_selected()


def test_explain_dialog_shows_every_line_without_scrolling_at_its_opening_size(qtbot) -> None:
    from sialign.gui.dialogs.explain_dialog import ExplainDialog

    lines = ["bead 12 (1-2): P(right) = 0.84 (calibrated from the score +1.62, the sum of the lines below)"]
    lines += [f"  +0.{k}1  similarity of the two sides, exact concatenation with its neighbours ({k}.25)" for k in range(10)]
    dialog = ExplainDialog("Why bead 12?", lines)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    qtbot.wait(50)  # the scroll bars follow the box's final size
    assert dialog.text.horizontalScrollBar().maximum() == 0 and dialog.text.verticalScrollBar().maximum() == 0
