"""The audio panel with a real session: clicks select, drags edit (undoably), messages when audio is missing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
import soundfile as sf

pytest.importorskip("pyqtgraph")

from PySide6.QtCore import QEvent, QPoint, QPointF, Qt  # noqa: E402
from PySide6.QtGui import QMouseEvent  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402

from sialign.audio.player import Player  # noqa: E402
from sialign.core.errors import AudioUnavailable  # noqa: E402
from sialign.core.model import Alignment, Bead, Document, Project  # noqa: E402
from sialign.gui.audio_panel import AudioPanel  # noqa: E402
from sialign.gui.session import ProjectSession  # noqa: E402

pytestmark = pytest.mark.gui

SRC_TIMES = [(0.5, 3.0), (3.2, 6.0), (6.3, 9.5), (9.8, 12.0)]
TGT_TIMES = [(2.8, 4.5), (4.5, 6.9), (7.0, 9.0), (9.0, 11.8), (12.5, 14.6)]
BEADS = [((0,), (0, 1)), ((1,), (2,)), ((2,), (3,)), ((3,), (4,))]


def speech_like(times: list[tuple[float, float]], duration: float, rate: int, channels: int, seed: int) -> np.ndarray:
    """Noise shaped like speech: loud inside each segment (syllable-rate wobble), quiet between."""
    rng = np.random.default_rng(seed)
    t = np.arange(int(duration * rate)) / rate
    gain = np.full_like(t, 0.02)
    for start, end in times:
        inside = (t >= start) & (t < end)
        gain[inside] = 0.35 * (0.55 + 0.45 * np.abs(np.sin(2 * np.pi * 2.7 * t[inside] + start)))
    mono = (rng.standard_normal(t.shape[0]) * gain).clip(-1, 1)
    return np.repeat(mono[:, None], channels, axis=1).astype(np.float32)


def make_project(folder: Path, *, with_audio: bool = True) -> Project:
    source = Document.from_texts([f"Source sentence {i + 1}." for i in range(len(SRC_TIMES))], "en", SRC_TIMES)
    target = Document.from_texts([f"通訳チャンク{i + 1}" for i in range(len(TGT_TIMES))], "ja", TGT_TIMES)
    if with_audio:
        sf.write(folder / "source.flac", speech_like(SRC_TIMES, 13.0, 16000, 1, 1), 16000)
        sf.write(folder / "interp.wav", speech_like(TGT_TIMES, 15.0, 22050, 2, 2), 22050)
        source.audio_path = str(folder / "source.flac")
        target.audio_path = "interp.wav"  # relative to the project file's folder
    project = Project(talk_id="demo", source=source, target=target,
                      alignment=Alignment([Bead(s, t) for s, t in BEADS]), metadata={"interpreter": "A"})
    project.path = str(folder / "demo.sialign")
    return project


class FakeStream:
    def __init__(self, callback: Any, finished: Any) -> None:
        self.callback, self.finished, self.active = callback, finished, False

    def start(self) -> None:
        self.active = True

    def stop(self) -> None:
        if self.active:
            self.active = False
            self.finished()

    def close(self) -> None:
        pass

    def pump(self, frames: int) -> None:
        out = np.zeros((frames, 2), dtype=np.float32)
        try:
            self.callback(out, frames, None, None)
        except FakeOutput.callback_stop:
            self.active = False
            self.finished()


class FakeOutput:
    class callback_stop(Exception):  # noqa: N801 - mirrors sounddevice.CallbackStop
        pass

    name = "test output"
    samplerate = 8000
    channels = 2

    def __init__(self) -> None:
        self.streams: list[FakeStream] = []

    def open_stream(self, callback: Any, finished: Any) -> FakeStream:
        self.streams.append(FakeStream(callback, finished))
        return self.streams[-1]


@pytest.fixture
def panel(qtbot: Any, tmp_path: Path) -> AudioPanel:
    session = ProjectSession(make_project(tmp_path))
    output = FakeOutput()
    panel = AudioPanel(session, player=Player(output), cache_dir=tmp_path / "cache")
    panel.fake_output = output  # type: ignore[attr-defined]
    qtbot.addWidget(panel)
    panel.resize(1200, 520)
    panel.show()
    qtbot.waitExposed(panel)
    panel.wait_for_envelopes()
    qtbot.waitUntil(lambda: all(panel.envelopes[s] is not None for s in ("src", "tgt")), timeout=5000)
    panel.source_view.setXRange(0, 15, padding=0)
    qtbot.wait(20)
    return panel


def _send(widget: Any, kind: QEvent.Type, point: QPoint, button: Qt.MouseButton, buttons: Qt.MouseButton) -> None:
    event = QMouseEvent(kind, QPointF(point), QPointF(widget.mapToGlobal(point)), button, buttons,
                        Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(widget, event)


def _click_at(view: Any, seconds: float, *, double: bool = False) -> None:
    vb = view.getPlotItem().getViewBox()
    scene = vb.mapViewToScene(QPointF(seconds, 0.0))
    point = view.mapFromScene(scene)
    if double:
        # What a real double click delivers (QTest.mouseDClick sends the double-click event alone).
        left, none = Qt.MouseButton.LeftButton, Qt.MouseButton.NoButton
        for kind, buttons in ((QEvent.Type.MouseButtonPress, left), (QEvent.Type.MouseButtonRelease, none),
                              (QEvent.Type.MouseButtonDblClick, left), (QEvent.Type.MouseButtonRelease, none)):
            _send(view.viewport(), kind, point, left, buttons)
    else:
        QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=point)


def test_audio_panel_loads_both_waveforms(panel: AudioPanel) -> None:
    assert panel.tracks["src"] is not None and panel.tracks["tgt"] is not None
    assert panel.tracks["tgt"].samplerate == 22050 and panel.tracks["tgt"].channels == 2
    x, y = panel.target_view.curve.getData()
    assert x is not None and len(x) > 100 and float(np.max(y)) > 0.2
    assert panel.source_view.message_text() == "" and panel.target_view.message_text() == ""
    # Linked time axis: zooming one view moves the other.
    panel.source_view.setXRange(4, 8, padding=0)
    (t0, t1), _ = panel.target_view.getPlotItem().getViewBox().viewRange()
    assert (t0, t1) == pytest.approx((4, 8), abs=1e-6)


@pytest.mark.parametrize("side,seconds,bead", [("src", 4.0, 1), ("src", 11.0, 3), ("tgt", 3.0, 0), ("tgt", 4.6, 0),
                                               ("tgt", 10.0, 2)])
def test_audio_panel_waveform_click_selects_bead(panel: AudioPanel, qtbot: Any, side: str, seconds: float, bead: int) -> None:
    with qtbot.waitSignal(panel.session.selection_changed, timeout=2000) as blocker:
        _click_at(panel.views[side], seconds)
    assert blocker.args == [bead] and panel.session.selected_bead == bead
    # The selected bead's segments become editable regions, and the link strip names the lag.
    src_ids = panel.session.project.alignment.beads[bead].src  # type: ignore[union-attr]
    assert panel.source_view.region_of(src_ids[0]) is not None
    src_start = SRC_TIMES[src_ids[0]][0]
    tgt_start = TGT_TIMES[panel.session.project.alignment.beads[bead].tgt[0]][0]  # type: ignore[union-attr]
    assert panel.link.label().startswith(f"EVS {tgt_start - src_start:+.2f} s")


def test_audio_panel_click_between_segments_selects_nothing_new(panel: AudioPanel, qtbot: Any) -> None:
    panel.session.select_bead(2)
    _click_at(panel.source_view, 3.1)  # the gap between source segments 0 and 1
    qtbot.wait(50)
    assert panel.session.selected_bead == 2


def _drag_line(view: Any, line: Any, to_seconds: float) -> None:
    """Drag a region edge with the mouse, as a reviewer would."""
    vb = view.getPlotItem().getViewBox()
    start = view.mapFromScene(vb.mapViewToScene(QPointF(line.value(), 0.3)))
    end = view.mapFromScene(vb.mapViewToScene(QPointF(to_seconds, 0.3)))
    viewport = view.viewport()

    def send(kind: QEvent.Type, point: QPoint, button: Qt.MouseButton, buttons: Qt.MouseButton) -> None:
        _send(viewport, kind, point, button, buttons)

    # pyqtgraph's scene drops move events that come faster than its rate limit: pace them.
    left, none = Qt.MouseButton.LeftButton, Qt.MouseButton.NoButton
    send(QEvent.Type.MouseMove, start, none, none)
    QTest.qWait(30)
    send(QEvent.Type.MouseButtonPress, start, left, left)
    steps = 6
    for k in range(1, steps + 1):
        QTest.qWait(30)
        send(QEvent.Type.MouseMove, QPoint(start.x() + (end.x() - start.x()) * k // steps, start.y()), none, left)
    QTest.qWait(30)
    send(QEvent.Type.MouseButtonRelease, end, left, none)


def test_audio_panel_boundary_drag_edits_and_undoes(panel: AudioPanel, qtbot: Any) -> None:
    session = panel.session
    session.select_bead(1)  # source segment 1 (3.2–6.0), target chunk 2 (7.0–9.0)
    region = panel.target_view.region_of(2)
    assert region is not None
    with qtbot.waitSignal(session.edited, timeout=2000):
        _drag_line(panel.target_view, region.lines[0], 7.6)
    seg = session.project.target.get(2)
    assert seg.start == pytest.approx(7.6, abs=0.05) and seg.end == 9.0
    assert session.undo_stack.count() == 1 and "segment 2" in session.undo_stack.undoText()
    # The view follows the document.
    assert panel.target_view.region_of(2).getRegion()[0] == pytest.approx(seg.start)  # type: ignore[union-attr]
    session.undo_stack.undo()
    assert session.project.target.get(2).start == 7.0
    assert panel.target_view.region_of(2).getRegion()[0] == pytest.approx(7.0)  # type: ignore[union-attr]
    session.undo_stack.redo()
    assert session.project.target.get(2).start == pytest.approx(7.6, abs=0.05)


def test_audio_panel_shared_boundary_moves_both_segments(panel: AudioPanel, qtbot: Any) -> None:
    session = panel.session
    session.select_bead(2)  # target chunk 3 (9.0–11.8) shares 9.0 with chunk 2 (7.0–9.0)
    region = panel.target_view.region_of(3)
    assert region is not None
    with qtbot.waitSignal(session.edited, timeout=2000):
        _drag_line(panel.target_view, region.lines[0], 8.5)
    new = session.project.target.get(3).start
    assert new == pytest.approx(8.5, abs=0.05)
    assert session.project.target.get(2).end == new  # still one boundary
    session.undo_stack.undo()  # one step undoes both
    assert (session.project.target.get(2).end, session.project.target.get(3).start) == (9.0, 9.0)


def test_audio_panel_play_both_sides_and_playhead(panel: AudioPanel, qtbot: Any) -> None:
    panel.session.select_bead(1)
    assert panel.play_both_action.isEnabled()
    panel.play_both_action.trigger()
    stream = panel.fake_output.streams[-1]  # type: ignore[attr-defined]
    stream.pump(8000)  # 1 s of the source span 3.2–6.0
    qtbot.waitUntil(lambda: panel.source_view.playhead.isVisible(), timeout=1000)
    assert panel.source_view.playhead.value() == pytest.approx(4.2, abs=0.01)
    assert not panel.target_view.playhead.isVisible()
    stream.pump(8000 * 3)  # past the source span and the gap, into the interpretation (7.0–9.0)
    qtbot.waitUntil(lambda: panel.target_view.playhead.isVisible(), timeout=1000)
    assert 7.0 < panel.target_view.playhead.value() < 9.0
    panel.play_both_action.trigger()  # Space while playing pauses
    assert panel.player.is_paused
    panel.stop_action.trigger()
    assert not panel.player.is_playing
    qtbot.waitUntil(lambda: not panel.target_view.playhead.isVisible(), timeout=1000)


def test_audio_panel_double_click_plays_segment(panel: AudioPanel, qtbot: Any) -> None:
    _click_at(panel.target_view, 10.0, double=True)
    qtbot.waitUntil(lambda: panel.player.is_playing, timeout=1000)
    position = panel.player.position()
    assert position is not None and position.label == "tgt" and position.seconds == pytest.approx(9.0)


def test_audio_panel_evs_click_selects_bead(panel: AudioPanel, qtbot: Any) -> None:
    evs = panel.evs_view
    assert len(evs.records) == 4 and evs.start_stats is not None
    assert "median" in evs.stats_label.text()
    x, y = evs.point_of(2)  # type: ignore[misc]
    plot = evs.plot
    plot.getPlotItem().getViewBox().autoRange()
    qtbot.wait(20)
    pos = plot.mapFromScene(plot.getPlotItem().getViewBox().mapViewToScene(QPointF(x, y)))
    with qtbot.waitSignal(panel.session.selection_changed, timeout=2000) as blocker:
        QTest.mouseClick(plot.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    assert blocker.args == [2]


def test_audio_panel_without_audio_says_so(qtbot: Any, tmp_path: Path) -> None:
    session = ProjectSession(make_project(tmp_path, with_audio=False))
    panel = AudioPanel(session, player=Player(FakeOutput()), cache_dir=tmp_path / "cache")
    qtbot.addWidget(panel)
    panel.show()
    assert "No source audio loaded" in panel.source_view.message_text()
    assert "No interpretation audio loaded" in panel.target_view.message_text()
    session.select_bead(0)
    assert not panel.play_source_action.isEnabled()
    assert panel.play_source() is False and "Nothing to play" in panel.status_label.text()
    # Segments and EVS still work from the transcript times.
    assert len(panel.evs_view.records) == 4
    assert panel.source_view.region_of(0) is not None


def test_audio_panel_without_device_says_so(qtbot: Any, tmp_path: Path) -> None:
    def no_device() -> Any:
        raise AudioUnavailable("No audio output device was found, so nothing can be played.")

    session = ProjectSession(make_project(tmp_path))
    panel = AudioPanel(session, player=Player(output_factory=no_device), cache_dir=tmp_path / "cache")
    qtbot.addWidget(panel)
    panel.show()
    panel.wait_for_envelopes()
    qtbot.waitUntil(lambda: panel.envelopes["src"] is not None, timeout=5000)
    assert "No audio output device" in panel.status_label.text()
    assert "No audio output device" in panel.source_view.message_text()
    session.select_bead(0)
    assert not panel.play_both_action.isEnabled()
    assert panel.play_both() is False
    # The waveform is still drawn.
    assert len(panel.source_view.curve.getData()[0]) > 0


def test_audio_panel_unreadable_audio_says_so(qtbot: Any, tmp_path: Path) -> None:
    project = make_project(tmp_path)
    Path(project.source.audio_path).write_text("not audio")  # type: ignore[arg-type]
    panel = AudioPanel(ProjectSession(project), player=Player(FakeOutput()), cache_dir=tmp_path / "cache")
    qtbot.addWidget(panel)
    assert "cannot be read" in panel.source_view.message_text() and "source.flac" in panel.source_view.message_text()


def test_audio_panel_follows_project_replaced(panel: AudioPanel, qtbot: Any, tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    panel.session.set_project(make_project(other, with_audio=False))
    assert panel.tracks["src"] is None and "No source audio" in panel.source_view.message_text()
    assert panel.source_view.curve.getData()[0] is None or len(panel.source_view.curve.getData()[0]) == 0


def test_audio_panel_empty_project_then_open(qtbot: Any, tmp_path: Path) -> None:
    session = ProjectSession()  # the window starts with nothing open
    panel = AudioPanel(session, player=Player(FakeOutput()), cache_dir=tmp_path / "cache")
    qtbot.addWidget(panel)
    assert "No source audio" in panel.source_view.message_text()
    assert panel.evs_view.records == [] and "No ear-voice span yet" in panel.evs_view.stats_label.text()
    session.set_project(make_project(tmp_path))
    panel.wait_for_envelopes()
    qtbot.waitUntil(lambda: panel.envelopes["tgt"] is not None, timeout=5000)
    assert len(panel.evs_view.records) == 4


def test_audio_panel_link_strip_maps_one_time_to_one_x(panel: AudioPanel) -> None:
    # Both views share the time axis and the axis width, so the strip's band is honest.
    for seconds in (1.0, 5.5, 12.0):
        assert panel.link._x(panel.source_view, seconds) == pytest.approx(panel.link._x(panel.target_view, seconds), abs=1.0)
    assert panel.link._x(panel.source_view, 2.0) < panel.link._x(panel.source_view, 9.0)


def test_audio_panel_evs_stats_follow_edits(panel: AudioPanel, qtbot: Any) -> None:
    from sialign.core.edits import SetSegmentTimes

    seen: list[Any] = []
    panel.evs_view.stats_changed.connect(seen.append)
    before = panel.evs_view.point_of(1)
    assert before is not None and before[1] == pytest.approx(7.0 - 3.2)
    assert panel.session.apply(SetSegmentTimes("tgt", 2, 8.0, 9.0))
    assert panel.evs_view.point_of(1)[1] == pytest.approx(8.0 - 3.2)  # type: ignore[index]
    assert seen and seen[-1].n == 4
    panel.session.undo_stack.undo()
    assert panel.evs_view.point_of(1)[1] == pytest.approx(7.0 - 3.2)  # type: ignore[index]


def test_audio_panel_device_probed_again_on_open(qtbot: Any, tmp_path: Path) -> None:
    attempts: list[int] = []
    output = FakeOutput()

    def flaky() -> Any:
        attempts.append(1)
        if len(attempts) == 1:
            raise AudioUnavailable("No audio output device was found.")
        return output

    session = ProjectSession(make_project(tmp_path))
    panel = AudioPanel(session, player=Player(output_factory=flaky), cache_dir=tmp_path / "cache")
    qtbot.addWidget(panel)
    assert panel.audio_error
    session.set_project(make_project(tmp_path))
    assert panel.audio_error == "" and len(attempts) == 2
    session.select_bead(0)
    assert panel.play_source_action.isEnabled()
