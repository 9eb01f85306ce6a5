"""Fixtures for the desktop application's tests: small hand-made talks and a session.

Projects are built here rather than read from files so that model and view
tests do not depend on the readers or the aligner; the end-to-end test uses
the real pipeline.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sialign.core.model import Alignment, Bead, BeadStatus, Document, Flag, Project

SOURCE_TEXTS = [
    "Good morning, everyone.",
    "Today I want to talk about water.",
    "Water is the most precious resource we have.",
    "But we waste it every single day.",
    "Let me show you some numbers.",
    "Thank you very much.",
]
# Interpreter chunks (Japanese), several per source sentence.
TARGET_TEXTS = [
    "皆さん、おはようございます。",
    "今日は、",
    "水についてお話しします。",
    "水は、",
    "私たちが持つ最も貴重な資源です。",
    "しかし、毎日無駄にしています。",
    "えー、",
    "数字をお見せします。",
    "ありがとうございました。",
]
# (src positions, tgt positions) of each bead of the hand-made alignment.
BEAD_LAYOUT = [
    ((0,), (0,)),
    ((1,), (1, 2)),
    ((2,), (3, 4)),
    ((3,), (5,)),
    ((4,), (6, 7)),
    ((5,), (8,)),
]


@pytest.fixture(autouse=True)
def _no_background_word_links(monkeypatch: pytest.MonkeyPatch) -> None:
    """Word links are drawn only where a test asks (else every window would load the encoder and GiNZA)."""
    from sialign.gui.bead.links_service import LinksService

    monkeypatch.setattr(LinksService, "auto", False)


def build_project(*, with_times: bool = True) -> Project:
    """A six-sentence English talk with a Japanese interpretation, already aligned."""
    src_times = [(float(2 * i), float(2 * i + 1.8)) for i in range(len(SOURCE_TEXTS))] if with_times else None
    tgt_times = [(float(1.2 * i + 1.0), float(1.2 * i + 2.1)) for i in range(len(TARGET_TEXTS))] if with_times else None
    source = Document.from_texts(SOURCE_TEXTS, language="en", times=src_times)
    target = Document.from_texts(TARGET_TEXTS, language="ja", times=tgt_times)
    beads = []
    for k, (src, tgt) in enumerate(BEAD_LAYOUT):
        beads.append(Bead(src=src, tgt=tgt, cost=0.2 + 0.1 * k))
    # Bead 5 carries a failed filter and a trimmed filler, like the filters leave them.
    beads[4].flags = [Flag(name="alpha", score=0.2, threshold=0.5, reason="covers 1 of 5 content words")]
    beads[4].trimmed = (6,)
    beads[3].status = BeadStatus.CONFIRMED
    return Project(
        talk_id="water",
        source=source,
        target=target,
        alignment=Alignment(beads=beads, embedder="lexical"),
        metadata={"interpreter": "A", "rank": "S"},
    )


def build_similarity(project: Project) -> np.ndarray:
    """A (n_src, n_tgt) similarity that is high inside the beads and low elsewhere."""
    rng = np.random.default_rng(0)
    values = rng.uniform(0.0, 0.3, size=(len(project.source), len(project.target))).astype(np.float32)
    assert project.alignment is not None
    src_pos = {s: i for i, s in enumerate(project.source.ids())}
    tgt_pos = {t: j for j, t in enumerate(project.target.ids())}
    for bead in project.alignment.beads:
        for s in bead.src:
            for t in bead.tgt:
                values[src_pos[s], tgt_pos[t]] = 0.8
    return values


@pytest.fixture
def project() -> Project:
    return build_project()


@pytest.fixture
def make_project():
    """:func:`build_project` itself, for tests that need several fresh talks.

    (Test modules cannot import this file by name: other test folders have a
    ``conftest`` module too.)
    """
    return build_project


@pytest.fixture
def session(qapp, project):
    from sialign.core.similarity import SimilarityGrid
    from sialign.gui.common.session import ProjectSession

    s = ProjectSession()
    s.set_project(
        project,
        similarity=SimilarityGrid(build_similarity(project), project.source.ids(), project.target.ids()),
    )
    return s


@pytest.fixture(autouse=True)
def _isolated_settings(tmp_path, monkeypatch):
    """QSettings and recovery files go to a temporary folder, never the user's."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    try:
        from PySide6.QtCore import QSettings, QStandardPaths

        QStandardPaths.setTestModeEnabled(True)
        QSettings.setDefaultFormat(QSettings.Format.IniFormat)
        QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "settings"))
    except ImportError:  # pragma: no cover - the gui extra is required for these tests
        pass
    yield


@pytest.fixture(autouse=True)
def _desktop_screen(monkeypatch):
    """Windows open as on a 1920 × 1080 desktop (the offscreen platform's screen is 800 pixels wide).

    ``tests/gui/main/test_window_size.py`` puts them on a laptop screen instead.
    """
    try:
        from PySide6.QtCore import QRect

        from sialign.gui.common import screen_fit
        from sialign.gui.main.window_layout import WindowLayout
    except ImportError:  # pragma: no cover
        return
    monkeypatch.setattr(WindowLayout, "free_area", lambda self: QRect(0, 0, 1920, 1050))
    monkeypatch.setattr(screen_fit, "available_area", lambda widget: QRect(0, 0, 1920, 1050))


@pytest.fixture
def window(qtbot, session, monkeypatch):
    """A main window on the ``session`` fixture; question dialogs answer Discard (no dialog blocks a test)."""
    from PySide6.QtWidgets import QMessageBox

    from sialign.gui.main.main_window import MainWindow

    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Discard)
    w = MainWindow(session)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    return w


@pytest.fixture
def open_window(qtbot, monkeypatch):
    """A function opening a main window on a project; question dialogs answer Discard, warnings fail the test."""
    from PySide6.QtWidgets import QMessageBox

    from sialign.gui.common.session import ProjectSession
    from sialign.gui.main.main_window import MainWindow

    def open_on(project: Project, *, warnings_fail: bool = True) -> MainWindow:
        monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Discard)
        if warnings_fail:
            monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text, *a: pytest.fail(f"{title}: {text}"))
        session = ProjectSession()
        session.set_project(project)
        window = MainWindow(session)
        qtbot.addWidget(window)
        window.show()
        return window

    return open_on


@pytest.fixture
def desktop_font(qapp):
    """The application font at a real desktop's size (offscreen Qt's is smaller), restored after the test."""
    from PySide6.QtWidgets import QApplication

    font = QApplication.font()
    bigger = QApplication.font()
    bigger.setPixelSize(13)
    QApplication.setFont(bigger)
    yield bigger
    QApplication.setFont(font)


EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


@pytest.fixture
def corpus_dir(tmp_path: Path) -> Path:
    """A corpus folder of two aligned talks cut from the example and one that failed (``bad``)."""
    import shutil

    from sialign.corpus import align_corpus

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
