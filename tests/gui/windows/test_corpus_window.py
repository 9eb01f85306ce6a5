"""The corpus view: talks with status and figures, review from it, align pending talks in the background."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from sialign.core.model import BeadStatus
from sialign.io.project_file import load_project, save_project

pytestmark = pytest.mark.gui


def test_corpus_window_lists_talks_filters_and_sorts(qtbot, corpus_dir: Path) -> None:
    from sialign.gui.windows.corpus_window import CorpusWindow

    window = CorpusWindow(corpus_dir)
    qtbot.addWidget(window)
    assert sorted(window.talks()) == ["bad", "example", "first"]
    assert "3 talks · 2 aligned · 1 failed · 0 reviewed" in window.summary.text()
    window.view_box.setCurrentText("Failed")
    assert window.talks() == ["bad"]
    window.view_box.setCurrentText("All talks")
    window.search.setText("firs")
    assert window.talks() == ["first"]
    window.search.clear()
    window.table.sortByColumn(2, window.table.horizontalHeader().sortIndicatorOrder().DescendingOrder)
    assert window.talks()[0] == "example"  # most beads first


def test_corpus_window_review_opens_the_talk_and_shows_new_figures(qtbot, corpus_dir: Path) -> None:
    from sialign.gui.windows.corpus_window import CorpusWindow

    opened: list[str] = []
    window = CorpusWindow(corpus_dir, open_talk=opened.append)
    qtbot.addWidget(window)
    assert window.select("example")
    window.review_selected()
    assert opened == [str(corpus_dir / "example.sialign")]
    project = load_project(opened[0])
    assert project.alignment is not None
    project.alignment.beads[0] = dataclasses.replace(project.alignment.beads[0], status=BeadStatus.CONFIRMED)
    save_project(project, opened[0])
    window.refresh()
    window.view_box.setCurrentText("Reviewed")
    assert window.talks() == ["example"]
    row = [window.rows.index(0, c).data() for c in range(window.rows.columnCount())]
    assert row[3] == "1" and row[8] == "yes"


def test_corpus_window_aligns_pending_talks_in_the_background(qtbot, corpus_dir: Path) -> None:
    from heartbeat import heartbeat_gaps

    from sialign.gui.windows.corpus_window import CorpusWindow

    (corpus_dir / "first.sialign").unlink()  # pending again
    window = CorpusWindow(corpus_dir)
    qtbot.addWidget(window)
    import time

    finished: list[float] = []

    def run() -> None:
        window.align_pending()
        assert window.cancel_button.isEnabled() and not window.align_button.isEnabled()
        qtbot.waitUntil(lambda: window._thread is None, timeout=120_000)
        finished.append(time.perf_counter())

    gaps = heartbeat_gaps(run, [])
    assert (corpus_dir / "first.sialign").exists()
    assert "1 talks aligned" in window.summary.text() and "1 failed" in window.summary.text()
    assert gaps and gaps[-1] < 0.5  # the window stays responsive while talks align


def test_corpus_window_review_brings_the_main_window_to_the_front(qtbot, window, corpus_dir: Path, monkeypatch) -> None:
    raised: list[str] = []
    monkeypatch.setattr(window, "activateWindow", lambda: raised.append("active"))
    corpus = window.files.open_corpus(str(corpus_dir))
    qtbot.addWidget(corpus)
    assert corpus.select("example")
    corpus.review_selected()
    assert window.session.project.talk_id == "example" and raised == ["active"]


def _confirm_first_bead(project_path: Path) -> None:
    project = load_project(project_path)
    assert project.alignment is not None
    project.alignment.beads[0] = dataclasses.replace(project.alignment.beads[0], status=BeadStatus.CONFIRMED)
    save_project(project, project_path)


@pytest.mark.parametrize(("fmt", "split", "only_confirmed"), [
    ("tsv", None, False), ("tsv2", "train", False), ("jsonl", None, True), ("tmx", "dev", False),
])
def test_corpus_window_export_writes_the_file_the_cli_writes(qtbot, corpus_dir: Path, tmp_path: Path, monkeypatch, capsys,
                                                             fmt: str, split: str | None, only_confirmed: bool) -> None:
    """*Export…* with the CLI's options, answered as a user would, gives the same file and counts as 'sialign corpus export'."""
    import re

    from sialign.cli.main import main
    from sialign.corpus.outputs import split_corpus
    from sialign.gui.dialogs.corpus_export_dialog import CorpusExportDialog
    from sialign.gui.windows.corpus_window import CorpusWindow
    from sialign.io.export_formats import POOLED_FORMATS

    split_corpus(corpus_dir, dev=1, test=0, seed=0)
    _confirm_first_bead(corpus_dir / "example.sialign")
    app_file, cli_file = tmp_path / f"app.{fmt}", tmp_path / f"cli.{fmt}"

    def answer(dialog: CorpusExportDialog) -> int:
        dialog.format_box.setCurrentIndex(POOLED_FORMATS.index(fmt))
        if split:
            dialog.split_box.setCurrentText(split)
        dialog.only_confirmed.setChecked(only_confirmed)
        dialog.path_edit.setText(str(app_file))
        dialog.accept()
        return dialog.result()

    monkeypatch.setattr(CorpusExportDialog, "exec", answer)
    window = CorpusWindow(corpus_dir)
    qtbot.addWidget(window)
    assert window.export_dialog()
    assert window.busy and not window.export_button.isEnabled() and window.cancel_button.isEnabled()
    qtbot.waitUntil(lambda: not window.busy, timeout=60_000)

    capsys.readouterr()
    args = ["corpus", "export", str(corpus_dir), "-f", fmt, "-o", str(cli_file)]
    assert main(args + (["--split", split] if split else []) + (["--only-confirmed"] if only_confirmed else [])) == 0
    wrote = re.fullmatch(r"wrote (\d+) rows? of (\d+) talks? to .*\n", capsys.readouterr().err)
    assert wrote is not None

    def same(text: str) -> str:  # a TMX names the second it was written
        return re.sub(r'creationdate="[^"]*"', "", text)

    assert same(app_file.read_text(encoding="utf-8")) == same(cli_file.read_text(encoding="utf-8"))
    rows, talks = int(wrote.group(1)), int(wrote.group(2))
    assert talks == (1 if split else 2) and rows > 0
    line = f"{talks} talk{'s' if talks != 1 else ''}, {rows} row{'s' if rows != 1 else ''} written to {app_file}"
    assert window.message.text() == line and not window.message.isHidden()
    assert window.export_button.isEnabled() and not window.cancel_button.isEnabled()


@pytest.mark.parametrize(("output", "split", "says"), [
    (lambda tmp: tmp / ("x" * 300 + ".tsv"), None, "cannot write the file (File name too long)"),
    (lambda tmp: tmp / "test.tsv", "test", "no talk is assigned to a split yet"),
])
def test_corpus_window_export_failure_is_one_line_and_the_window_goes_on(qtbot, corpus_dir: Path, tmp_path: Path, output,
                                                                       split: str | None, says: str) -> None:
    from sialign.gui.dialogs.corpus_export_dialog import CorpusExportOptions
    from sialign.gui.windows.corpus_window import CorpusWindow

    window = CorpusWindow(corpus_dir)
    qtbot.addWidget(window)
    with qtbot.waitSignal(window.export_finished, timeout=60_000) as finished:
        assert window.export(CorpusExportOptions(str(output(tmp_path)), "tsv", split))
    qtbot.waitUntil(lambda: not window.busy, timeout=10_000)
    text = window.message.text()
    assert finished.args == [text] and text.startswith("Nothing exported: ") and says in text and "\n" not in text
    assert "color: #b00020" in window.message.styleSheet()
    assert window.export_button.isEnabled() and window.align_button.isEnabled()
    assert "3 talks · 2 aligned" in window.summary.text()
