"""*Export report…* and *Compare renditions…*: the dialog and the window on the example talk."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QFileDialog

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "review"))
from example_renditions import example_rendition

pytestmark = [pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints")]


def test_report_dialog_previews_and_saves(qtbot: Any, tmp_path: Path) -> None:
    from sialign.gui.dialogs.report_dialog import ReportDialog

    project = example_rendition(1)
    dialog = ReportDialog(project)
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.report is not None and not dialog.runner.busy, timeout=10000)
    text = dialog.preview.toPlainText()
    assert "Coverage" in text and "94% (33 of 35)" in text and "And the weekend after that." in text
    assert dialog.save_pdf.isEnabled() and "2 omissions" in dialog.status.text()
    dialog.save("html", str(tmp_path / "r"))
    qtbot.waitUntil(lambda: not dialog.runner.busy, timeout=10000)
    assert (tmp_path / "r.html").read_text(encoding="utf-8").count("<svg") == 2
    assert dialog.status.text().startswith("Saved the report to")


def test_compare_window_lines_up_renditions_and_plays(qtbot: Any, tmp_path: Path) -> None:
    from audio_fakes import FakeOutput
    from sialign.audio.player import Player
    from sialign.gui.windows.compare_window import FIXED_COLUMNS, CompareWindow
    from sialign.io.project_file import save_project

    save_project(example_rendition(2), tmp_path / "b.sialign")
    output = FakeOutput()
    window = CompareWindow([example_rendition(1)], [""], player=Player(output))
    qtbot.addWidget(window)
    window.show()
    window.add_paths([str(tmp_path / "b.sialign")])
    qtbot.waitUntil(lambda: window.comparison is not None and not window.runner.busy, timeout=10000)
    model = window.model
    assert model.rowCount() == 35 and model.headerData(FIXED_COLUMNS + 1, _horizontal()) == "I2"
    window.only_box.setChecked(True)
    assert [model.sentence_row(r).number for r in range(model.rowCount())] == [7, 11, 19, 29]
    window.only_box.setChecked(False)
    window.next_disagreement()
    assert model.sentence_row(window.table.currentIndex().row()).number == 7
    assert "omitted" in model.data(model.index(6, FIXED_COLUMNS + 1))
    # Play I1's rendition of sentence 7: its bead's target span from I1's own audio.
    window.table.setCurrentIndex(model.index(6, FIXED_COLUMNS))
    window.play_rendition()
    assert output.streams and "Playing I1, sentence 7" in window.status.text()
    window.table.setCurrentIndex(model.index(6, FIXED_COLUMNS + 1))
    window.play_rendition()
    assert "left sentence 7 out" in window.status.text()
    window.play_source()
    assert "Playing source sentence 7" in window.status.text()
    window.save(str(tmp_path / "c.tsv"))
    assert (tmp_path / "c.tsv").read_text(encoding="utf-8").count("\n") == 36
    assert window.interpreters.rowCount() == 2 and window.interpreters.item(1, 6).text() == "5.2 s"


def test_compare_window_reports_a_different_source(qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtWidgets import QMessageBox

    from sialign.gui.windows.compare_window import CompareWindow
    from sialign.io.project_file import save_project

    messages: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _p, _t, text, *a, **k: messages.append(text))
    other = example_rendition(2)
    other.source.segments[0].text = "Hello."
    save_project(other, tmp_path / "other.sialign")
    window = CompareWindow([example_rendition(1)], [""])
    qtbot.addWidget(window)
    window.add_paths([str(tmp_path / "other.sialign")])
    qtbot.waitUntil(lambda: not window.runner.busy and bool(messages), timeout=10000)
    assert "other.sialign" in messages[0] and "sentence 1 differs" in messages[0]
    assert window.comparison is None


def test_main_window_file_menu_opens_both(window: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from sialign.gui.dialogs import report_dialog

    shown: list[Any] = []
    monkeypatch.setattr(report_dialog.ReportDialog, "exec", lambda self: shown.append(self) or 0)
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: ([], ""))
    assert window.act.report.isEnabled()
    window.act.report.trigger()
    assert shown and shown[0].windowTitle().startswith("Review report")
    qtbot.waitUntil(lambda: not shown[0].runner.busy, timeout=10000)
    window.act.compare.trigger()


def _horizontal() -> Any:
    from PySide6.QtCore import Qt

    return Qt.Orientation.Horizontal


def test_compare_add_renditions_starts_in_the_open_projects_folder(qtbot: Any, tmp_path: Path, monkeypatch: Any) -> None:
    from sialign.gui.windows.compare_window import CompareWindow
    from sialign.io.project_file import save_project

    folder = tmp_path / "renditions"
    folder.mkdir()
    save_project(example_rendition(1), folder / "a.sialign")
    asked: list[str] = []
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda _parent, _caption, start, _filter: (asked.append(start), ([], ""))[1])
    window = CompareWindow([example_rendition(1)], [str(folder / "a.sialign")])
    qtbot.addWidget(window)
    window.add_dialog()
    assert asked == [str(folder)]


def test_compare_compression_uses_one_unit_per_column(qtbot: Any) -> None:
    """One rendition with a reference (a percentage of it), one without (per source word): the column uses the source for both."""
    from sialign.gui.windows.compare_window import CompareWindow

    second = example_rendition(2)
    second.reference = None
    window = CompareWindow([example_rendition(1), second], ["", ""])
    qtbot.addWidget(window)
    qtbot.waitUntil(lambda: window.comparison is not None and not window.runner.busy, timeout=20000)
    column = [window.figures.horizontalHeaderItem(j).text() for j in range(window.figures.columnCount())].index("Compression")
    cells = [window.figures.item(i, column) for i in range(2)]
    assert all("per source word" in c.text() for c in cells), [c.text() for c in cells]
    assert "%" in cells[0].toolTip() and "reference" in cells[0].toolTip()


def test_compare_window_offers_the_open_project_unsaved(qtbot: Any, tmp_path: Path) -> None:
    from sialign.gui.windows.compare_window import CompareWindow
    from sialign.io.project_file import save_project

    first = example_rendition(1)
    save_project(first, tmp_path / "first.sialign")
    first.path = str(tmp_path / "first.sialign")
    open_now = {"project": example_rendition(2)}  # the main window's talk, never saved
    window = CompareWindow([first], [first.path], open_project=lambda: (open_now["project"], ""))
    qtbot.addWidget(window)
    # Before a second rendition the status says what is in the comparison.
    assert "In the comparison: first.sialign" in window.status.text()
    assert window.add_open_button.isVisible() or not window.add_open_button.isHidden()
    with qtbot.waitSignal(window.comparison_ready, timeout=20000):
        window.add_open_project()
    assert window.comparison.names == ["I1", "I2"] and window.comparison.paths[1].endswith("(open in the main window)")
    # Its newer state replaces it rather than adding a third rendition.
    qtbot.waitUntil(lambda: window.add_open_button.isEnabled(), timeout=5000)
    with qtbot.waitSignal(window.comparison_ready, timeout=20000):
        window.add_open_project()
    assert len(window.comparison.names) == 2
