"""Review → Check terms…: a glossary checked in a worker, its table, and a row's click selecting the bead."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

pytestmark = [pytest.mark.slow, pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints", r"does not support raise")]

GLOSSARY = "# water talk\nwater\t水\nresource\t資源\nwaste\t浪費\nnumber\t数字\t数値\nsingle day\t一日\nriver\t川\n"


class StandInLinker:
    """Links the listed (source, target) word pairs; the built-in encoder is not loaded."""

    name = "stand-in"
    pairs = {("water", "水"), ("Water", "水"), ("resource", "資源"), ("waste", "無駄"), ("numbers", "数字")}

    def link(self, pairs, src_lang, tgt_lang, **_):
        return [[(i, j) for i, s in enumerate(src) for j, t in enumerate(tgt) if (s, t) in self.pairs] for src, tgt in pairs]


@pytest.fixture
def glossary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    from tests.word_link_fakes import use_as_default_linker

    use_as_default_linker(monkeypatch, StandInLinker)
    path = tmp_path / "water.glossary.tsv"
    path.write_text(GLOSSARY, encoding="utf-8")
    return path


def _checked(qtbot, window, path: Path):
    window.terms.ask_glossary = lambda: str(path)
    assert window.act.check_terms.isEnabled()
    with qtbot.waitSignal(window.runner.finished, timeout=120_000):
        window.act.check_terms.trigger()
    qtbot.waitUntil(lambda: window.terms.dialog is not None and window.terms.dialog.isVisible(), timeout=10_000)
    dialog = window.terms.dialog
    qtbot.addWidget(dialog)
    return dialog


def test_terms_dialog_lists_each_occurrence_and_selects_its_bead(qtbot, window, glossary: Path) -> None:
    dialog = _checked(qtbot, window, glossary)
    table = dialog.table
    rows = [[table.item(r, c).text() for c in range(table.columnCount())] for r in range(table.rowCount())]
    assert [(r[0], r[2], r[3], r[4]) for r in rows] == [
        ("2", "water", "rendered as expected", "水"),
        ("3", "Water", "rendered as expected", "水"),
        ("3", "resource", "rendered as expected", "資源"),
        ("4", "waste", "rendered otherwise", "無駄"),
        ("4", "single day", "not rendered", "—"),
        ("5", "numbers", "rendered as expected", "数字"),
    ]
    assert dialog.windowTitle() == "Check terms — water.glossary.tsv"
    assert "6 term occurrences in 4 beads" in dialog.summary.text() and "Never in the source: river." == dialog.missing.text()
    window.session.select_bead(0)
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=table.visualItemRect(table.item(3, 2)).center())
    assert window.session.selected_bead == 3
    dialog.show_box.setCurrentIndex(1)  # only what was not rendered as expected
    assert [table.item(r, 2).text() for r in range(table.rowCount())] == ["waste", "single day"]
    table.setCurrentCell(1, 0)
    assert window.session.selected_bead == 3
    assert not window.session.undo_stack.canUndo()  # checking terms changes nothing in the project


def test_terms_dialog_a_malformed_glossary_is_said_at_once(qtbot, window, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text, *a: shown.append(text))
    bad = tmp_path / "bad.tsv"
    bad.write_text("water 水\n", encoding="utf-8")
    window.terms.ask_glossary = lambda: str(bad)
    assert not window.terms.check_terms()
    assert shown == [f"{bad}, line 1: expected 'source term<TAB>accepted rendering', found no tab in 'water 水' — "
                     "separate the term and each accepted rendering with a tab (not spaces); start a comment with #"]
    window.terms.ask_glossary = lambda: ""  # cancelled
    assert not window.terms.check_terms() and len(shown) == 1


def test_terms_dialog_needs_an_alignment(qtbot, window, monkeypatch: pytest.MonkeyPatch) -> None:
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text, *a: shown.append(text))
    window.session.project.alignment = None
    assert not window.terms.check_terms() and shown == ["Align the talk first: terms are checked bead by bead."]


def test_terms_dialog_result_goes_into_the_report_until_the_project_changes(qtbot, window, glossary: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from sialign.core.edits import SetStatus
    from sialign.core.model import BeadStatus
    from sialign.gui.dialogs import report_dialog

    _checked(qtbot, window, glossary)
    check = window.terms.current_check()
    assert check is not None and len(check.hits) == 6
    shown: list = []  # type: ignore[type-arg]
    monkeypatch.setattr(report_dialog.ReportDialog, "exec", lambda self: shown.append(self) or 0)
    window.act.report.trigger()
    dialog = shown[0]
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.report is not None and not dialog.runner.busy, timeout=10_000)
    assert "Terms (water.glossary.tsv)" in dialog.preview.toPlainText() and dialog.report.terms is check
    window.session.apply(SetStatus((0,), BeadStatus.CONFIRMED))
    assert window.terms.current_check() is None  # the check was made on the project as it was
