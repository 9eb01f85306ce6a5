"""The corpus view: talks with status and figures, review from it, align pending talks in the background."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from sialign.core.model import BeadStatus
from sialign.corpus import align_corpus
from sialign.io.project_file import load_project, save_project

pytestmark = pytest.mark.gui
EXAMPLES = Path(__file__).resolve().parents[3] / "resources" / "examples"


@pytest.fixture
def corpus_dir(tmp_path: Path) -> Path:
    talks = tmp_path / "talks"
    talks.mkdir()
    for name in ("talk.en.srt", "talk.ja.srt"):
        shutil.copy(EXAMPLES / name, talks / name)
    en = (EXAMPLES / "talk.en.srt").read_text(encoding="utf-8").split("\n\n")
    ja = (EXAMPLES / "talk.ja.srt").read_text(encoding="utf-8").split("\n\n")
    (talks / "first.en.srt").write_text("\n\n".join(en[:12]) + "\n", encoding="utf-8")
    (talks / "first.ja.srt").write_text("\n\n".join(ja[:33]) + "\n", encoding="utf-8")
    (talks / "bad.srt").write_bytes(b"\x00\x01 not captions")
    manifest = talks / "manifest.tsv"
    manifest.write_text(
        "talk\tsource\ttarget\nexample\ttalk.en.srt\ttalk.ja.srt\nfirst\tfirst.en.srt\tfirst.ja.srt\nbad\tbad.srt\ttalk.ja.srt\n",
        encoding="utf-8",
    )
    out = tmp_path / "corpus"
    align_corpus(manifest, out)
    return out


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
