"""Practice → New session…: the booth window with a fake duplex stream, a scripted live aligner and full pass."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf
from heartbeat import STALL_LIMIT_S
from PySide6.QtCore import Qt

from audio_fakes import FakeDuplexFactory
from booth_fakes import FakeLiveFactory, fake_practice, fake_whisper_folder, scripted_updates
from sialign.booth.recorder import NO_INPUT_MESSAGE, AudioDevice, BoothDevices, BoothRecorder, sidecar_path
from sialign.core.model import Document, Project, machine_transcript_note

pytestmark = pytest.mark.gui

CHUNKS = [("皆さん、おはようございます。", 2.0, 3.5), ("今日は、", 4.2, 4.8), ("水についてお話しします。", 4.8, 6.3),
          ("水は、", 6.9, 7.4), ("私たちが持つ最も貴重な資源です。", 7.4, 9.6), ("しかし、毎日無駄にしています。", 10.1, 12.0),
          ("えー、", 12.2, 12.5), ("数字をお見せします。", 12.5, 13.9), ("ありがとうございました。", 14.3, 15.6)]
LAYOUT = [((0,), (0,)), ((1,), (1, 2)), ((2,), (3, 4)), ((3,), (5,)), ((4,), (6, 7)), ((5,), (8,))]
FINAL = [(text + "（全）", a, b) for text, a, b in CHUNKS]
RATE = 16000
HEADSET = BoothDevices(
    inputs=[AudioDevice(3, "Headset mic", "ALSA", 1, 48000.0, 0.006, 0.03, True)],
    outputs=[AudioDevice(2, "Headphones", "ALSA", 2, 48000.0, 0.009, 0.04, True)],
)


@pytest.fixture
def talk(tmp_path: Path, make_project) -> Project:  # type: ignore[no-untyped-def]
    """The six-sentence test talk, saved beside a 12 s source recording."""
    audio = tmp_path / "water.en.wav"
    sf.write(str(audio), (0.1 * np.sin(np.arange(12 * 8000) / 8000 * 2 * np.pi * 220)).astype(np.float32), 8000)
    project = make_project()
    project.source.audio_path = str(audio)
    project.path = str(tmp_path / "water.sialign")
    return project


@pytest.fixture
def booth_parts(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):  # type: ignore[no-untyped-def]
    """Fakes for the booth: a stream factory, live aligners, the full pass, one Whisper model, a headset."""
    streams = FakeDuplexFactory(latency=(0.01, 0.02))
    live = FakeLiveFactory()
    model = fake_whisper_folder(tmp_path / "whisper-base")

    def recorder(source: Path | None, out: Path, **kwargs: object) -> BoothRecorder:
        return BoothRecorder(source, out, stream_factory=streams, samplerate=RATE, output_channels=2, **kwargs)  # type: ignore[arg-type]

    options = {"devices_fn": lambda: HEADSET, "recorder_factory": recorder, "live_factory": live,
               "practice_fn": fake_practice(FINAL, LAYOUT, seconds=0.5), "models_fn": lambda: ([("whisper-base", model)], "whisper-base")}
    return streams, live, options


def _open_booth(window, options):  # type: ignore[no-untyped-def]
    window.practice.booth_options = options
    return window.practice.new_session()


def _pump(stream, seconds: float) -> None:  # type: ignore[no-untyped-def]
    for _ in range(int(seconds * 100)):
        stream.pump(RATE // 100)


def test_booth_says_when_there_is_no_microphone(qtbot, open_window, talk, booth_parts) -> None:  # type: ignore[no-untyped-def]
    window = open_window(talk)
    _, _, options = booth_parts
    options["devices_fn"] = lambda: BoothDevices([], HEADSET.outputs, NO_INPUT_MESSAGE)
    booth = _open_booth(window, options)
    assert booth.device_message.isVisibleTo(booth) and "No microphone" in booth.device_message.text()
    assert not booth.start_button.isEnabled()
    assert booth.output_device.currentText() == "Headphones (ALSA, default) · 9 ms"
    assert booth.input_device.currentIndex() == -1 and booth.input_device.placeholderText() == "no microphone found: see below"


def test_the_clock_shows_the_talks_length_before_start(qtbot, open_window, talk, booth_parts, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """0:00 / 0:12 for the open project's 12 s recording; a source recording chosen by path gives its own length."""
    window = open_window(talk)
    _, _, options = booth_parts
    booth = _open_booth(window, options)
    assert booth.elapsed.text() == "0:00 / 0:12"
    other = tmp_path / "longer.wav"
    sf.write(str(other), np.zeros(65 * 8000, dtype=np.float32), 8000)
    booth.talk_kind.setCurrentIndex(2)  # a source recording
    booth.talk_path.setText(str(other))
    booth.talk_path.editingFinished.emit()
    assert booth.elapsed.text() == "0:00 / 1:05"
    booth.talk_path.setText(str(tmp_path / "missing.wav"))
    booth.talk_path.editingFinished.emit()
    assert booth.elapsed.text() == "0:00"  # said at Start, where the talk is read


def test_booth_says_when_there_are_no_headphones_either(qtbot, open_window, talk, booth_parts) -> None:  # type: ignore[no-untyped-def]
    """An empty Headphones list says so, and the message names both missing devices (it named only the microphone)."""
    from sialign.booth.recorder import NO_OUTPUT_MESSAGE, list_devices

    nothing = list_devices(lambda: ([], [{"name": "ALSA"}], (-1, -1)))
    assert NO_INPUT_MESSAGE in nothing.problem and NO_OUTPUT_MESSAGE in nothing.problem
    window = open_window(talk)
    _, _, options = booth_parts
    options["devices_fn"] = lambda: nothing
    booth = _open_booth(window, options)
    assert booth.output_device.count() == 0 and booth.output_device.placeholderText() == "no headphones or speakers found: see below"
    assert "No headphones or speakers were found" in booth.device_message.text() and not booth.start_button.isEnabled()


def test_a_rendition_recorded_elsewhere_is_reviewed_without_devices(qtbot, open_window, talk, booth_parts, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Practice → Review a recorded rendition…: a file, the full pass at Stop, a saved session; no microphone needed."""
    from PySide6.QtWidgets import QFileDialog

    import sialign

    rendition = tmp_path / "student.ja.wav"
    sf.write(str(rendition), np.zeros(16 * 8000, dtype=np.float32), 8000)
    window = open_window(talk)
    _, _, options = booth_parts
    options["devices_fn"] = lambda: BoothDevices([], [], NO_INPUT_MESSAGE)  # a trainer's laptop without a headset
    window.practice.booth_options = options
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(rendition), ""))
    window.act.review_rendition.trigger()
    booth = window.practice.booth
    assert not booth.start_button.isEnabled()
    qtbot.waitUntil(lambda: booth.state in ("done", "idle") and not booth.runner.busy, timeout=10_000)
    assert booth.state == "done", booth.status.text()
    project = window.session.project
    assert project.metadata["practice"]["recording"] == str(rendition)
    assert project.metadata["practice"]["from_file"] is True and project.metadata["practice"]["pass"] == "full"
    assert [(b.src, b.tgt) for b in project.alignment.beads][:2] == [((0,), (0,)), ((1,), (1, 2))]
    saved = Path(booth.finished_path)
    assert saved.is_file() and saved.name.startswith("water.practice-") and saved.suffix == ".sialign"
    assert len(sialign.load(saved).alignment.beads) == 6
    assert "6 rendered" in booth.live_summary.text() and booth.report_button.isVisible()
    assert "saved as " + saved.name in booth.status.text()
    # The booth's table shows this rendition, not what an earlier session left there, and nothing live.
    from sialign.gui.booth.live_table import COL_LATENCY, COL_TARGET

    model = booth.live_model
    assert model.rowCount() == 6 and model.reviewed
    assert model.headerData(COL_TARGET, Qt.Orientation.Horizontal) == "Interpretation (from the file)"
    assert model.data(model.index(1, COL_TARGET)) == "今日は、（全）水についてお話しします。（全）"  # the full pass's chunks
    assert all(model.data(model.index(r, COL_LATENCY)) == "" for r in range(6))
    assert booth.meter.format() == "reviewed student.ja.wav"


def test_booth_takes_back_no_speech_model_once_one_is_chosen(qtbot, open_window, talk, booth_parts) -> None:  # type: ignore[no-untyped-def]
    """It once said "No speech model" beside the whisper-base its own box had chosen since."""
    from sialign.gui.booth.booth_window import NO_SPEECH_MODEL

    window = open_window(talk)
    _, _, options = booth_parts
    models = {"found": []}
    options["models_fn"] = lambda: (models["found"], "whisper-base" if models["found"] else None)
    booth = _open_booth(window, options)
    assert booth.status.text() == NO_SPEECH_MODEL and not booth.start_button.isEnabled()
    models["found"] = [("whisper-base", Path("/models/whisper-base"))]
    booth.refresh_models()
    assert booth.model.currentText() == "whisper-base" and booth.start_button.isEnabled()
    assert booth.status.text() == ""


def test_booth_offers_the_open_project_and_the_talk_files(qtbot, open_window, talk, booth_parts, tmp_path) -> None:  # type: ignore[no-untyped-def]
    window = open_window(talk)
    booth = _open_booth(window, booth_parts[2])
    assert booth.talk_kind.currentText() == "The open project: water"
    assert booth.tgt_lang.currentText() == "ja"  # the project's interpretation language
    assert booth.model.currentText() == "whisper-base" and booth.start_button.isEnabled()
    # An English-only speech model cannot hear a Japanese rendition: said before anything is recorded.
    english = fake_whisper_folder(tmp_path / "tiny.en", ("en",), multilingual=False)
    booth.model.addItem("tiny.en", str(english))
    booth.model.setCurrentIndex(booth.model.count() - 1)
    booth.start()
    qtbot.waitUntil(lambda: booth.state == "idle" and not booth.runner.busy, timeout=60000)
    assert "tiny.en recognises English only, not 'ja'" in booth.status.text()
    assert "Settings → Speech models" in booth.status.text()
    booth.talk_kind.setCurrentIndex(2)
    assert booth.transcript_path.isVisibleTo(booth)
    booth.talk_kind.setCurrentIndex(1)
    assert not booth.transcript_path.isVisibleTo(booth)
    booth.start()
    assert "Choose the talk's project file" in booth.status.text() and booth.state == "idle"


def test_a_session_records_grows_live_and_stop_installs_the_full_pass_as_one_step(
    qtbot, open_window, talk, booth_parts, monkeypatch,
) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import QCoreApplication, QThread, QTimer

    from sialign.gui.booth.live_table import COL_STATE, COL_TARGET, STATE_COLOURS
    from sialign.gui.filters.doubt import DoubtService
    from sialign.gui.matrix.similarity_service import SimilarityService

    # The main window's own background models (doubt, matrix colours) load the sentence encoder in threads of
    # their own; their effect on the GUI thread is measured in their tests, this one measures the booth's.
    monkeypatch.setattr(DoubtService, "_start", lambda self: None)
    monkeypatch.setattr(SimilarityService, "schedule", lambda self: None)
    streams, live_factory, options = booth_parts
    window = open_window(talk)
    booth = _open_booth(window, options)
    booth.start()
    qtbot.waitUntil(lambda: booth.state != "preparing", timeout=60000)
    assert booth.state == "recording", booth.status.text()
    stream = streams.streams[0]
    live = live_factory.made[0]
    assert live.started and live.tgt_lang == "ja" and live.model.name == "whisper-base"
    assert stream.kwargs["device"] == (3, 2)  # the microphone and headphones chosen

    _pump(stream, 2.0)
    qtbot.waitUntil(lambda: booth.session.engine.recorder.level_dbfs > -60)  # the writer thread has seen the tone
    booth._tick()
    assert booth.elapsed.text() == "0:01 / 0:12"  # 2 s minus the 30 ms latency correction
    assert booth.meter.value() > 0 and "dB" in booth.meter.format()

    booth.pause_button.click()
    assert booth.state == "paused" and booth.pause_button.text() == "Resume"
    _pump(stream, 1.0)
    booth._tick()
    assert booth.elapsed.text() == "0:01 / 0:12" and booth.meter.format() == "paused"
    booth.pause_button.click()
    assert booth.state == "recording"

    # The live table grows as the updates come (from the live aligner's own thread).
    updates = scripted_updates(window.session.project.source, CHUNKS, LAYOUT, unrendered=(3,))
    for k, update in enumerate(updates):
        _pump(stream, 0.5)
        live.push(update)
        qtbot.waitUntil(lambda k=k: booth.live_model.rowCount() == 6 and booth.live_model.counts.get("pending", 0) == 5 - k)
    model = booth.live_model
    assert model.index(1, COL_TARGET).data() == "今日は、水についてお話しします。"
    assert model.index(3, COL_STATE).data() == "NOT RENDERED"
    assert model.index(3, 0).data(8).color() == STATE_COLOURS["unrendered"]  # Qt.BackgroundRole: amber
    assert "5 rendered · 1 not rendered" in booth.live_summary.text()
    fed = live.fed
    assert fed and fed[0][0] == 0.0 and all(b[0] < c[0] for b, c in zip(fed, fed[1:]))

    # Stop: the GUI thread's heartbeat goes on while the recording, the live pass and the full pass finish in
    # workers. Showing a project in the main window (like File → Open) is timed apart: it is not the booth's work.
    beats: list[float] = []
    installing: list[tuple[float, float]] = []
    practice = window.practice
    on_gui_thread: list[bool] = []

    def timed(real):  # type: ignore[no-untyped-def]
        def run(*args):  # type: ignore[no-untyped-def]
            on_gui_thread.append(QThread.currentThread() == QCoreApplication.instance().thread())
            began = time.perf_counter()
            try:
                return real(*args)
            finally:
                installing.append((began, time.perf_counter()))

        return run

    for name in ("install_live", "apply_full_pass"):
        monkeypatch.setattr(practice, name, timed(getattr(practice, name)))
    timer = QTimer()
    timer.timeout.connect(lambda: beats.append(time.perf_counter()))
    timer.start(10)
    booth.stop_button.click()
    qtbot.waitUntil(lambda: booth.state in ("done", "idle"), timeout=60000)
    assert booth.state == "done", booth.status.text()
    timer.stop()
    gaps = [b - a for a, b in zip(beats, beats[1:]) if not any(a <= end and b >= began for began, end in installing)]
    assert len(installing) == 2 and gaps and max(gaps) < STALL_LIMIT_S
    assert on_gui_thread == [True, True]  # the main window changes on its own thread, never on a worker's

    session = window.session
    project = session.project
    assert project.path == str(booth.session.project_path) and Path(project.path).exists()
    assert project.target.texts() == [text for text, _, _ in FINAL]
    assert machine_transcript_note(project.metadata, "tgt").startswith("machine transcript")
    assert project.metadata["speech_model"].endswith("whisper-base")
    practice = project.metadata["practice"]
    assert practice["booth"]["latency_s"] == pytest.approx(0.03) and practice["booth"]["input_device"] == "3"
    assert practice["pass"] == "full" and practice["live"] == {"beads": 6}
    recording = Path(project.path).parent / (project.target.audio_path or "")  # saved relative to the project
    assert recording.exists() and sf.info(str(recording)).duration == pytest.approx(2.0 + 3.0 - 0.03, abs=0.02)
    assert live.finished and not session.locked_reason
    assert booth.report_button.isVisible() and booth.compare_button.isVisible()

    # One click to the report, and to the comparison with the earlier sessions of the talk beside this one.
    reports: list[int] = []
    monkeypatch.setattr(window.files, "report_dialog", lambda: reports.append(1))
    booth.report_button.click()
    assert reports == [1]
    earlier = Path(project.path).with_name("water.practice-20200101-000000.sialign")
    from sialign.io.project_file import save_project

    save_project(Project.from_dict(project.to_dict()), earlier)
    booth.compare_button.click()
    compare = window.practice.compare_window
    qtbot.waitUntil(lambda: len(compare._paths) == 2 and not compare.runner.busy, timeout=60000)
    assert compare._paths == [project.path, str(earlier)]

    # One undoable step: Undo shows the live beads again, Redo the full pass.
    assert session.undo_stack.count() == 1 and session.undo_stack.undoText() == "Full pass over the recording"
    session.undo_stack.undo()
    assert project.target.texts() == [text for text, _, _ in CHUNKS]
    assert project.alignment is not None and project.alignment.embedder == "live"
    assert window.table_model.rowCount() == 6
    session.undo_stack.redo()
    assert project.target.texts()[0] == FINAL[0][0]


def test_closing_the_app_mid_session_asks_and_keeps_the_recording(qtbot, open_window, talk, booth_parts, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QMessageBox

    streams, live_factory, options = booth_parts
    window = open_window(talk)
    booth = _open_booth(window, options)
    booth.start()
    qtbot.waitUntil(lambda: booth.state == "recording", timeout=60000)
    _pump(streams.streams[0], 1.5)
    asked: list[str] = []

    def no(parent, title, text, *a):  # type: ignore[no-untyped-def]
        asked.append(title)
        return QMessageBox.StandardButton.No

    monkeypatch.setattr(QMessageBox, "question", no)
    assert not window.close()  # "No": nothing stops
    assert asked == ["A session is being recorded"] and booth.state == "recording"
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    assert window.practice.may_quit()
    recording = booth.session.recording_path
    info = sf.info(str(recording))
    assert info.duration == pytest.approx(1.5 - 0.03, abs=0.02)  # a valid file with everything recorded
    assert sidecar_path(recording).exists()
    qtbot.waitUntil(lambda: live_factory.made[0].finished)


def test_live_table_grows_and_shrinks_with_the_updates(qtbot) -> None:  # type: ignore[no-untyped-def]
    from sialign.gui.booth.live_table import COL_LATENCY, COL_SOURCE, COL_TIME, LiveTableModel

    source = Document.from_texts(["One.", "Two.", "Three."], "en", [(0.0, 1.0), (1.0, 2.0), (62.0, 63.5)])
    chunks = [("いち", 1.0, 1.5), ("に", 2.5, 3.0), ("さん", 64.0, 65.0)]
    model = LiveTableModel(source)
    inserted: list[tuple[int, int]] = []
    model.rowsInserted.connect(lambda _p, a, b: inserted.append((a, b)))
    updates = scripted_updates(source, chunks, [((0,), (0,)), ((1,), (1,)), ((2,), (2,))], lag_s=2.5)
    assert model.apply_update(updates[0]) == [0, 1, 2]
    assert inserted == [(0, 2)] and model.rowCount() == 3
    assert model.index(2, COL_SOURCE).data() == "Three." and model.index(2, COL_TIME).data() == "1:02.0"
    assert model.index(0, COL_LATENCY).data() == "2.5 s" and model.index(1, COL_LATENCY).data() == ""
    model.apply_update(updates[2])
    assert model.counts == {"rendered": 3, "unrendered": 0, "pending": 0} and model.latencies == [2.5, 2.5, 2.5]
    # A revision that merges beads: fewer rows, the view is reset rather than told wrong rows.
    merged = updates[2]
    merged.beads = merged.beads[:1] + [type(merged.beads[1])(1, (1, 2), (1, 2), 70.0, 5.0, "rendered")]
    resets: list[int] = []
    model.modelReset.connect(lambda: resets.append(1))
    model.apply_update(merged)
    assert model.rowCount() == 2 and resets == [1]


def test_after_stop_the_live_table_says_what_the_full_pass_found(qtbot) -> None:  # type: ignore[no-untyped-def]
    """The live view took sentence 2 as rendered; the full pass (what the session saves) finds it left out."""
    from sialign.core.model import Alignment, Bead, BeadStatus, Project
    from sialign.gui.booth.live_table import COL_STATE, LiveTableModel

    source = Document.from_texts(["One.", "Two.", "Three."], "en", [(0.0, 1.0), (1.0, 2.0), (3.0, 4.0)])
    chunks = [("いち", 1.0, 1.5), ("に", 2.5, 3.0), ("さん", 4.0, 5.0)]
    model = LiveTableModel(source)
    updates = scripted_updates(source, chunks, [((0,), (0,)), ((1,), (1,)), ((2,), (2,))], lag_s=2.5)
    model.apply_update(updates[-1])
    assert model.counts["rendered"] == 3
    ids = source.ids()
    target = Document.from_texts(["いち", "にさん"], "ja")
    final = Project(talk_id="t", source=source, target=target, alignment=Alignment([
        Bead((ids[0],), (target.ids()[0],)), Bead((ids[1],), (), status=BeadStatus.DROPPED, reason="left out"),
        Bead((ids[2],), (target.ids()[1],))]))
    assert model.revise_from(final) == 1
    assert model.index(1, COL_STATE).data() == "NOT RENDERED"
    assert model.counts == {"rendered": 2, "unrendered": 1, "pending": 0}
    # A row the live view had not reached when the student stopped, which the full pass found rendered.
    model.apply_update(updates[0])
    assert model.counts["pending"] == 2
    assert model.revise_from(final) == 2
    assert model.index(2, COL_STATE).data() == "rendered (full pass)"
    assert model.counts == {"rendered": 2, "unrendered": 1, "pending": 0}


def test_devices_that_refuse_to_open_are_said_and_nothing_stays_running(qtbot, open_window, talk, booth_parts) -> None:  # type: ignore[no-untyped-def]
    from sialign.core.errors import AudioUnavailable

    _, live_factory, options = booth_parts

    def refusing(**kwargs: object) -> object:
        raise AudioUnavailable("The audio devices refused to open for recording (Device unavailable).")

    options["recorder_factory"] = lambda source, out, **kw: BoothRecorder(source, out, stream_factory=refusing, samplerate=RATE, **kw)
    window = open_window(talk)
    booth = _open_booth(window, options)
    booth.start()
    qtbot.waitUntil(lambda: booth.state == "idle" and not booth.runner.busy, timeout=60000)
    assert booth.status.text() == "Not started: The audio devices refused to open for recording (Device unavailable)."
    qtbot.waitUntil(lambda: live_factory.made[0].finished)  # the live aligner is let go, off the GUI thread
    assert booth.start_button.isEnabled() and not booth.stop_button.isEnabled()


# -- the real engine, in the session's own process ---------------------------------------------
def _process_gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state in ("Z", "X")


@pytest.fixture
def real_booth(open_window, talk, monkeypatch, whisper_model: Path):  # type: ignore[no-untyped-def]
    """The booth over the real engine (Whisper tiny.en, in a worker process), its rendition fed from a file."""
    from sialign.gui.filters.doubt import DoubtService
    from sialign.gui.matrix.similarity_service import SimilarityService

    monkeypatch.setattr(DoubtService, "_start", lambda self: None)
    monkeypatch.setattr(SimilarityService, "schedule", lambda self: None)
    window = open_window(talk)
    booth = _open_booth(window, {"devices_fn": lambda: HEADSET, "models_fn": lambda: ([("tiny.en", whisper_model)], "tiny.en")})
    booth.tgt_lang.setEditText("en")  # the English-only model hears an English rendition
    return window, booth


def test_the_session_runs_in_its_own_process_which_ends_when_it_has_landed(qtbot, real_booth, talk_clip: Path,
                                                                           monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Start, live updates, Stop and the full pass come from the session's process while the window's thread stays
    free; closing the booth mid-session stops it, its result lands in the main window, and the process ends."""
    import os

    from heartbeat import heartbeat_gaps
    from PySide6.QtWidgets import QMessageBox

    from sialign.workflows.practice_process import PracticeProcess

    window, booth = real_booth
    booth.start(talk_clip, speed=1.0)
    session = booth.session
    assert isinstance(session, PracticeProcess) and session.pid not in (None, os.getpid())
    qtbot.waitUntil(lambda: booth.state != "preparing", timeout=60_000)
    assert booth.state == "recording", booth.status.text()
    assert "as if it came from the microphone" in booth.status.text()
    # While the rendition is fed at real time and recognised, the window's thread answers its timer.
    gaps = heartbeat_gaps(lambda: qtbot.waitUntil(lambda: booth.live_model.counts.get("rendered", 0) >= 1, timeout=60_000), [])
    assert gaps and max(gaps) < STALL_LIMIT_S, f"the window's thread stalled {max(gaps) * 1000:.0f} ms"
    assert booth.elapsed.text().startswith("0:0") and booth.elapsed.text() != "0:00"
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    booth.close()  # "Stop the session and close the booth?" Yes
    qtbot.waitUntil(lambda: booth.state in ("done", "idle"), timeout=120_000)
    assert booth.state == "done", booth.status.text()
    project = window.session.project
    assert project.target.has_times and project.metadata["practice"]["pass"] == "full"
    assert project.metadata["practice"]["from_file"] is True and Path(project.path).exists()
    assert window.session.undo_stack.undoText() == "Full pass over the recording"
    qtbot.waitUntil(lambda: _process_gone(session.pid), timeout=10_000)


def test_closing_the_booth_while_it_prepares_ends_the_sessions_process(qtbot, real_booth, talk_clip: Path) -> None:  # type: ignore[no-untyped-def]
    _, booth = real_booth
    booth.start(talk_clip)
    pid = booth.session.pid
    assert booth.state == "preparing" and not _process_gone(pid)
    booth.close()
    assert booth.state == "idle" and not booth.timer.isActive()
    qtbot.waitUntil(lambda: _process_gone(pid), timeout=10_000)


def test_a_session_process_that_dies_is_said_in_one_line(qtbot, real_booth, talk_clip: Path) -> None:  # type: ignore[no-untyped-def]
    import os
    import signal

    _, booth = real_booth
    booth.start(talk_clip)
    qtbot.waitUntil(lambda: booth.state == "recording", timeout=60_000)
    os.kill(booth.session.pid, signal.SIGKILL)
    qtbot.waitUntil(lambda: booth.state == "idle", timeout=5_000)
    text = booth.status.text()
    assert text.startswith("Not done: the practice session's process stopped unexpectedly (exit code -9)"), text
    assert "\n" not in text and booth.start_button.isEnabled() and not booth.timer.isActive()


def test_calibrate_measures_the_headset_keeps_it_and_shows_it(qtbot, open_window, talk, booth_parts) -> None:  # type: ignore[no-untyped-def]
    """Calibrate… on a simulated headset (its microphone hears the headphones 142 ms later): kept, shown, and refused
    in one line where nothing is heard."""
    from audio_fakes import FakeLoopbackFactory
    from sialign.booth import calibration, headset_latency

    window = open_window(talk)
    _, _, options = booth_parts
    asked: list[tuple[object, object]] = []
    hear = {"loop": True}

    def measure(inp, out, progress, should_stop):  # type: ignore[no-untyped-def]
        asked.append((inp, out))
        if not hear["loop"]:
            raise calibration.AudioUnavailable(calibration.NOT_HEARD.format(heard=0, clicks=6))
        found = calibration.measure(stream_factory=FakeLoopbackFactory(int(0.142 * 48000)), samplerate=48000,
                                    output_channels=2, input_name="Headset mic", output_name="Headphones")
        headset_latency.keep(found)
        return found

    options["calibrate_fn"] = measure
    booth = _open_booth(window, options)
    assert booth.latency_label.text().startswith("as the devices report it (not measured")
    assert booth.calibrate_button.isEnabled()
    booth.calibrate(ask=False)
    qtbot.waitUntil(lambda: booth.state == "idle" and booth.status.text().startswith("Calibrated"), timeout=15000)
    assert asked == [(3, 2)]  # the chosen devices' indices
    assert booth.latency_label.text().startswith("142 ms, measured ") and "(the devices report 30 ms)" in booth.latency_label.text()
    assert "round trip 142 ms" in booth.status.text()
    hear["loop"] = False
    booth.calibrate(ask=False)
    qtbot.waitUntil(lambda: booth.status.text().startswith("Not done"), timeout=15000)
    assert "did not hear the clicks (0 of 6)" in booth.status.text() and booth.state == "idle"
    assert booth.latency_label.text().startswith("142 ms")  # the earlier measurement stays
    assert booth.start_button.isEnabled()


def test_calibrate_runs_apart_and_says_in_one_line_what_the_real_stream_heard(qtbot, open_window, talk, booth_parts) -> None:  # type: ignore[no-untyped-def]
    """The real measurement in its worker process, on this machine's devices (ALSA's null device in the tests: nothing
    is heard): the error crosses back as one line, nothing is kept, and the booth stays usable."""
    sd = pytest.importorskip("sounddevice")
    if not any(d["max_input_channels"] > 0 for d in sd.query_devices()):
        pytest.skip("no ALSA null device here (tests/conftest.py sets it up when alsa.conf exists)")
    from sialign.booth import headset_latency
    from sialign.workflows.practice_session import list_devices

    window = open_window(talk)
    _, _, options = booth_parts
    options["devices_fn"] = list_devices
    booth = _open_booth(window, options)
    assert booth.calibrate_button.isEnabled()
    booth.calibrate(ask=False)
    assert booth.state == "calibrating" and not booth.start_button.isEnabled()
    qtbot.waitUntil(lambda: booth.state == "idle" and not booth.runner.busy, timeout=60_000)
    text = booth.status.text()
    assert text.startswith(("Not done: The microphone did not hear the clicks", "Calibrated: round trip")), text
    assert "\n" not in text and "Traceback" not in text
    if text.startswith("Not done"):
        assert headset_latency.stored() == [] and booth.latency_label.text().startswith("as the devices report it")
