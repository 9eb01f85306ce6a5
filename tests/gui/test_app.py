"""End to end: open a talk, align with the real pipeline, edit, undo, export; the smoke test; responsiveness."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from sialign.core.model import BeadStatus
from sialign.core.params import AlignParams
from sialign.gui.app import build_parser, load_example_project, preload_engine

# Qt warnings fail these tests (as in pyqtgraph's suite): a warning about threads or
# timers is a bug. The offscreen platform's note about size hints is not.
pytestmark = [pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints")]

REPO = Path(__file__).resolve().parents[2]

SOURCE_SRT = """1
00:00:01,000 --> 00:00:03,000
Good morning, everyone.

2
00:00:03,500 --> 00:00:06,000
Today I want to talk about water.

3
00:00:06,500 --> 00:00:09,000
Thank you very much.
"""
TARGET_SRT = """1
00:00:02,000 --> 00:00:04,000
皆さん、おはようございます。

2
00:00:04,500 --> 00:00:07,500
今日は水についてお話しします。

3
00:00:08,000 --> 00:00:10,000
ありがとうございました。
"""


def test_app_parser_options() -> None:
    args = build_parser().parse_args(["talk.sialign"])
    assert args.project == "talk.sialign" and not args.example and not args.smoke_test
    args = build_parser().parse_args(["--example", "--smoke-test"])
    assert args.example and args.smoke_test and args.project is None


def test_app_load_example_project_from_folder(tmp_path) -> None:
    (tmp_path / "talk.en.srt").write_text(SOURCE_SRT, encoding="utf-8")
    (tmp_path / "talk.ja.srt").write_text(TARGET_SRT, encoding="utf-8")
    (tmp_path / "talk.ja.wav").write_bytes(b"RIFF")  # only its name matters here
    (tmp_path / "README.txt").write_text("About this example.\n", encoding="utf-8")
    project = load_example_project(tmp_path)
    assert project.talk_id == "talk"
    assert project.source.language == "en" and len(project.source) == 3
    assert project.target.language == "ja" and len(project.target) == 3
    assert project.target.audio_path == str(tmp_path / "talk.ja.wav")
    assert project.source.audio_path is None
    assert project.alignment is None and project.path is None


def test_app_load_example_project_needs_both_sides(tmp_path) -> None:
    from sialign.core.errors import InputError

    (tmp_path / "talk.en.srt").write_text(SOURCE_SRT, encoding="utf-8")
    with pytest.raises(InputError, match="Japanese interpretation"):
        load_example_project(tmp_path)


@pytest.fixture
def window(qtbot, monkeypatch):
    from sialign.gui.main.main_window import MainWindow

    preload_engine()
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Discard)
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text, *a: pytest.fail(f"{title}: {text}"))
    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    return w


def _talk(make_project):
    project = make_project()
    project.alignment = None
    return project


def _align(qtbot, window) -> None:
    with qtbot.waitSignal(window.runner.finished, timeout=120_000):
        assert window.align()


def test_app_undoing_an_alignment_restores_its_parameters(qtbot, window, make_project) -> None:
    """Align with A, re-align with B, Undo: the talk's parameters are A again (and Redo brings B back)."""
    first = AlignParams(embedder="lexical")
    second = AlignParams(embedder="lexical", max_tgt=6, time_prior=False)
    session = window.session
    session.set_project(_talk(make_project), modified=True)
    with qtbot.waitSignal(window.runner.finished, timeout=120_000):
        assert window.aligner.align(params=first)
    assert session.project.params == first
    with qtbot.waitSignal(window.runner.finished, timeout=120_000):
        assert window.aligner.align(params=second, keep_confirmed=False)
    assert session.project.params == second and session.undo_stack.count() == 2
    window.act.undo.trigger()
    assert session.project.params == first
    window.act.undo.trigger()
    assert session.project.params is None and session.project.alignment is None
    window.act.redo.trigger()
    window.act.redo.trigger()
    assert session.project.params == second


def test_app_choosing_a_model_is_an_undoable_step(qtbot, window, make_project) -> None:
    session = window.session
    project = _talk(make_project)
    project.params = AlignParams(embedder="lexical")
    session.set_project(project)
    window._default_model_changed("some-model")
    assert session.project.params.embedder == "some-model" and session.is_modified
    window.act.undo.trigger()
    assert session.project.params.embedder == "lexical"


def test_app_end_to_end_align_edit_undo_export(qtbot, window, tmp_path, monkeypatch, make_project) -> None:
    from sialign.gui.dialogs import export_dialog
    from sialign.gui.dialogs.export_dialog import ExportDialog

    window.session.set_project(_talk(make_project), modified=True)
    _align(qtbot, window)
    session = window.session
    alignment = session.project.alignment
    assert alignment is not None and len(alignment.beads) >= 3
    assert window.table_model.rowCount() == len(alignment.beads)
    assert window.matrix.image_item.image.shape == (6, 9)
    assert session.undo_stack.count() == 1 and session.undo_stack.undoText() == "Align the talk"
    assert "beads" in window.counts_label.text()
    n_beads = len(alignment.beads)
    # An alignment is autosaved (the talk was never saved, so into the autosave folder).
    from sialign.io.project_file import autosave_path

    qtbot.waitUntil(lambda: autosave_path(None, "water").is_file(), timeout=10_000)

    # Split the first source sentence after "Good morning," (character 13).
    bead = alignment.bead_index_of_src(0)
    session.select_bead(bead)
    window.inspector.focus_side("src")
    window.inspector.source_view.place_cursor(0, 13)
    window.act.split_segment.trigger()
    assert [s.text for s in session.project.source.segments[:2]] == ["Good morning,", "everyone."]
    # Merge them back, then merge two beads, drop one.
    window.inspector.source_view.place_cursor(0, 0)
    window.act.merge_next_segment.trigger()
    assert session.project.source.segments[0].text == "Good morning, everyone."
    session.select_bead(0)
    window.act.merge_beads.trigger()
    assert len(session.project.alignment.beads) == n_beads - 1
    session.select_bead(1)
    window.act.drop.trigger()
    assert session.project.alignment.beads[1].status is BeadStatus.DROPPED
    window.act.undo.trigger()  # undo the drop
    assert session.project.alignment.beads[1].status is not BeadStatus.DROPPED
    window.act.undo.trigger()  # undo the bead merge
    assert len(session.project.alignment.beads) == n_beads
    window.act.redo.trigger()
    assert len(session.project.alignment.beads) == n_beads - 1
    session.select_bead(0)
    window.act.confirm.trigger()

    # Export through the dialog, as a user would.
    out = tmp_path / "water.tsv"

    def run_dialog(dialog: ExportDialog) -> bool:
        dialog.path_edit.setText(str(out))
        return True

    monkeypatch.setattr(
        export_dialog, "ExportDialog", lambda project, path, parent: _AutoExport(ExportDialog(project, path, parent), run_dialog)
    )
    window.act.export.trigger()
    lines = out.read_text(encoding="utf-8").splitlines()
    header = lines[0].split("\t")
    assert header == ["talk", "src_ids", "tgt_ids", "src_start", "src_end", "tgt_start", "tgt_end", "cost", "status", "source", "target", "trimmed_tgt_ids",
                      "target_original", "confidence", "good_align", "good_mt", "note"]
    beads = session.project.alignment.beads
    kept = [b for b in beads if b.status is not BeadStatus.DROPPED]
    assert len(lines) - 1 == len(kept)
    first = lines[1].split("\t")
    assert first[0] == "water" and first[8] == "confirmed"
    assert first[9].startswith("Good morning, everyone.")
    assert "Exported" in window.statusBar().currentMessage()


class _AutoExport:
    """Stands in for the modal export dialog: fills it in and accepts."""

    def __init__(self, dialog, fill) -> None:
        self.dialog = dialog
        self.fill = fill

    def exec(self) -> bool:
        """Fill the dialog in and press Export (the dialog writes the file and closes when that worked)."""
        if not self.fill(self.dialog):
            return False
        self.dialog.accept()
        return self.dialog.result() == 1

    def options(self):
        return self.dialog.options()

    @property
    def rows_written(self):
        return self.dialog.rows_written


def test_app_realign_keeps_confirmed_beads(qtbot, window, make_project) -> None:
    from sialign.core.edits import SetStatus

    window.session.set_project(_talk(make_project), modified=True)
    _align(qtbot, window)
    first = window.session.project.alignment.beads[0]
    window.session.apply(SetStatus((0,), BeadStatus.CONFIRMED))
    with qtbot.waitSignal(window.runner.finished, timeout=120_000):
        window.act.realign.trigger()
    beads = window.session.project.alignment.beads
    assert beads[0].status is BeadStatus.CONFIRMED
    assert (beads[0].src, beads[0].tgt) == (first.src, first.tgt)
    assert window.session.undo_stack.undoText() == "Re-align unconfirmed beads"


def test_app_gui_thread_never_stalls_during_align(qtbot, window, make_project) -> None:
    """Heartbeat every 10 ms on the GUI thread while a talk aligns in the worker."""
    from heartbeat import STALL_LIMIT_S, heartbeat_gaps

    from sialign.core.model import Document, Project

    # Warm up on a small talk (imports, first paints), as the app's start-up does.
    window.session.set_project(_talk(make_project), modified=True)
    _align(qtbot, window)
    # A talk big enough to keep the worker busy for a second or so; its vectors are not cached yet.
    n = 1200
    source = Document.from_texts([f"Sentence {i} speaks about topic {i % 23} and item {i % 7}." for i in range(n)],
                                 language="en", times=[(2.0 * i, 2.0 * i + 1.8) for i in range(n)])
    target = Document.from_texts([f"Satz {i} spricht über Thema {i % 23} und Ding {i % 7}." for i in range(n)],
                                 language="de", times=[(2.0 * i + 0.8, 2.0 * i + 2.5) for i in range(n)])
    window.session.set_project(Project(talk_id="big", source=source, target=target), modified=True)
    qtbot.wait(200)

    work_done: list[float] = []

    def run_align() -> None:
        with qtbot.waitSignal(window.runner.finished, timeout=120_000):
            window.align()
            # Runs in the worker thread the moment the work ends.
            window.runner.worker.done.connect(lambda: work_done.append(time.perf_counter()))

    # The same heartbeat with nothing running: on a shared machine the
    # scheduler alone delays beats, and that is not the application's doing.
    idle = heartbeat_gaps(lambda: qtbot.wait(800), work_done)
    busy = heartbeat_gaps(run_align, work_done)
    assert len(busy) > 20, "the alignment was too quick to measure anything"

    def p95(gaps: list[float]) -> float:
        return gaps[int(len(gaps) * 0.95)]

    # Goal: no stall over ~50 ms. Allowed: 50 ms, or twice what the machine
    # does when idle, for 95% of the beats, and 100 ms (or three times the
    # idle worst) for the longest gap. Measured here with 1,200 segments a
    # side: p95 13-15 ms, longest 15-29 ms, the machine idling at 10-12 ms.
    # Aligning on the GUI thread would miss both by seconds.
    allowed = max(0.05, 2 * p95(idle) + 0.01)
    assert p95(busy) < allowed, f"5% of heartbeats were {p95(busy) * 1000:.0f} ms apart (idle: {p95(idle) * 1000:.0f} ms)"
    assert busy[-1] < max(STALL_LIMIT_S, 3 * idle[-1]), f"the GUI thread stalled {busy[-1] * 1000:.0f} ms"


def test_app_cancel_real_alignment_within_a_second(qtbot, window) -> None:
    from sialign.core.model import Document, Project

    n = 1500
    source = Document.from_texts([f"Sentence {i} about topic {i % 31}." for i in range(n)], language="en")
    target = Document.from_texts([f"Satz {i} über Thema {i % 31}." for i in range(n)], language="de")
    window.session.set_project(Project(talk_id="big", source=source, target=target), modified=True)
    progressed: list[str] = []
    window.runner.started.connect(lambda title: progressed.append(title))
    assert window.align()
    qtbot.wait(300)
    t0 = time.monotonic()
    with qtbot.waitSignal(window.runner.finished, timeout=5000):
        window.act.cancel.trigger()
    elapsed = time.monotonic() - t0
    assert elapsed < 1.0, f"cancel took {elapsed:.2f} s"
    assert window.session.project.alignment is None
    assert window.session.undo_stack.count() == 0


def test_app_smoke_test_command_exits_zero(tmp_path) -> None:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", SIALIGN_AUTOSAVE_DIR=str(tmp_path / "autosave"),
               XDG_CONFIG_HOME=str(tmp_path / "config"))
    done = subprocess.run(
        [sys.executable, "-m", "sialign.gui.app", "--smoke-test"], capture_output=True, text=True, env=env, timeout=600
    )
    assert done.returncode == 0, done.stderr
    assert "smoke test: passed" in done.stdout
    assert "audio decoded (talk.en.ogg, talk.ja.ogg); project saved and reopened with its audio" in done.stdout


def test_smoke_check_reports_a_talk_without_audio(window) -> None:
    from sialign.core.model import Document, Project
    from sialign.gui.app import _smoke_audio_and_reopen

    window.session.set_project(Project(source=Document.from_texts(["Hello."], "en"),
                                       target=Document.from_texts(["Bonjour."], "fr")))
    problems = _smoke_audio_and_reopen(window)
    assert "the example's source has no audio" in problems
    assert "the example's interpretation has no audio" in problems


@pytest.mark.slow
def test_app_smoke_test_with_filters_scores_in_the_scoring_process(tmp_path) -> None:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", SIALIGN_AUTOSAVE_DIR=str(tmp_path / "autosave"),
               XDG_CONFIG_HOME=str(tmp_path / "config"))
    done = subprocess.run(
        [sys.executable, "-m", "sialign.gui.app", "--smoke-test", "--with-filters"],
        capture_output=True, text=True, env=env, timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert "beads in the scoring process" in done.stdout
    assert "smoke test: passed" in done.stdout


def test_app_open_example_aligns_the_bundled_talk(qtbot, window) -> None:
    with qtbot.waitSignal(window.runner.finished, timeout=120_000):
        window.act.example.trigger()
    project = window.session.project
    assert project.talk_id == "talk" and project.source.language == "en" and project.target.language == "ja"
    assert project.reference is not None and len(project.reference) == len(project.source)
    assert project.source.audio_path and project.source.audio_path.endswith("talk.en.ogg")
    assert project.alignment is not None and window.table_model.rowCount() == len(project.alignment.beads)
    assert project.path is None  # never saved over the bundled files


def test_app_unexpected_error_in_the_gui_becomes_a_dialog(qtbot, window, monkeypatch, tmp_path) -> None:
    from sialign.gui.app import install_error_dialog

    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text, *a: shown.append(text))
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)  # restored after the test
    install_error_dialog(window)
    try:
        raise ZeroDivisionError("division by zero")
    except ZeroDivisionError:
        sys.excepthook(*sys.exc_info())
    assert len(shown) == 1
    assert "ZeroDivisionError: division by zero" in shown[0] and "Traceback" not in shown[0]
    from sialign.gui.main.main_window import error_log_path

    assert "ZeroDivisionError" in error_log_path().read_text(encoding="utf-8")


def test_app_missing_model_is_a_readable_dialog(qtbot, window, monkeypatch, tmp_path, make_project) -> None:
    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text, *a: shown.append((title, text)))
    project = _talk(make_project)
    project.params = AlignParams(embedder=str(tmp_path / "no-such-model"))
    window.session.set_project(project, modified=True)
    _align(qtbot, window)
    assert len(shown) == 1
    title, text = shown[0]
    assert "no-such-model" in text and "Traceback" not in text
    assert "Settings → Embedding model" in text
    assert window.session.project.alignment is None
    assert window.act.align.isEnabled()


def test_app_realign_carries_notes_labels_and_drops(qtbot, window, make_project) -> None:
    from sialign.core.edits import SetLabels, SetStatus

    window.session.set_project(_talk(make_project), modified=True)
    _align(qtbot, window)
    window.session.apply(SetLabels(1, True, None, note="checked by hand"))
    window.session.apply(SetStatus((2,), BeadStatus.DROPPED, "dropped by the reviewer"))
    with qtbot.waitSignal(window.runner.finished, timeout=120_000):
        window.act.realign.trigger()
    beads = window.session.project.alignment.beads
    assert beads[1].note == "checked by hand" and beads[1].good_align is True
    assert beads[2].status is BeadStatus.DROPPED and beads[2].reason == "dropped by the reviewer"
    assert "review data carried over for 2" in window.statusBar().currentMessage()


def test_app_realign_asks_before_leaving_review_data_behind(qtbot, window, make_project, monkeypatch) -> None:
    import dataclasses

    from PySide6.QtWidgets import QMessageBox

    from sialign.core.edits import SetLabels

    window.session.set_project(_talk(make_project), modified=True)
    _align(qtbot, window)
    project = window.session.project
    window.session.apply(SetLabels(0, None, None, note="keep me"))
    # A bead grouping the segments differently from anything the aligner will propose.
    first, second = project.alignment.beads[0], project.alignment.beads[1]
    merged = dataclasses.replace(first, src=first.src + second.src, tgt=first.tgt + second.tgt)
    project.alignment.beads[0:2] = [merged]
    asked: list[str] = []

    def say_no(parent, title, text, *args, **kwargs):
        asked.append(text)
        return QMessageBox.StandardButton.No

    monkeypatch.setattr(QMessageBox, "question", say_no)
    before = list(project.alignment.beads)
    with qtbot.waitSignal(window.runner.finished, timeout=120_000):
        window.act.realign.trigger()
    assert asked and "keep me" not in asked[0] and "note" in asked[0]
    assert project.alignment.beads == before
    assert "not applied" in window.statusBar().currentMessage()


def test_main_window_open_corpus_refuses_a_plain_folder(qtbot, window, tmp_path: Path, monkeypatch) -> None:
    errors: list[str] = []
    monkeypatch.setattr(window, "show_error", lambda title, message: errors.append(message))
    assert window.files.open_corpus(str(tmp_path)) is None
    assert "corpus.json" in errors[0]


def test_a_file_handed_over_by_the_system_opens_in_the_window(qtbot, window, tmp_path) -> None:
    """macOS opens a double-clicked .sialign with a QFileOpenEvent, not a command-line path."""
    from PySide6.QtCore import QCoreApplication, QEvent
    from PySide6.QtGui import QFileOpenEvent
    from PySide6.QtWidgets import QApplication

    from sialign.core.model import Document, Project
    from sialign.gui.app import install_file_open_handler
    from sialign.io.project_file import save_project

    path = tmp_path / "handed.sialign"
    save_project(Project(talk_id="handed", source=Document.from_texts(["Hello."], "en"),
                         target=Document.from_texts(["Bonjour."], "fr")), path)
    handler = install_file_open_handler(QApplication.instance(), window)
    try:
        QCoreApplication.sendEvent(QApplication.instance(), QFileOpenEvent(str(path)))
        assert window.session.project.talk_id == "handed"
        assert window.session.project.path == str(path)
        # Not a file-open event: passed on untouched.
        assert not handler.eventFilter(window, QEvent(QEvent.Type.User))
    finally:
        QApplication.instance().removeEventFilter(handler)
