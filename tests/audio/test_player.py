"""Playback: the callback's frame accounting driven by a fake stream, and one real run on ALSA's null device."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
import soundfile as sf
from hypothesis import given, settings
from hypothesis import strategies as st

from audio_fakes import FakeOutput, FakeStream
from sialign.audio.decode import AudioTrack, load_audio
from sialign.audio.player import (
    PlaybackEngine,
    Player,
    PlayItem,
    SoundDeviceOutput,
    bead_play_items,
    prepare_frames,
    resample_ratio,
)
from sialign.core.errors import AudioUnavailable
from sialign.core.model import Alignment, Bead, Document, Project


def _ramp_track(path: Path, frames: int, rate: int = 8000, channels: int = 1) -> AudioTrack:
    """A file whose sample k is k / 2**16 (exact in FLOAT WAV), so played frames name their source frame."""
    ramp = (np.arange(frames, dtype=np.float64) / 2**16).astype(np.float32)
    sf.write(path, np.repeat(ramp[:, None], channels, axis=1), rate, subtype="FLOAT")
    return load_audio(path)


def _frame_ids(out: np.ndarray) -> np.ndarray:
    return np.round(out[:, 0].astype(np.float64) * 2**16).astype(int)


def _play_span(track: AudioTrack, start: float, end: float, *, samplerate: int = 8000, channels: int = 1, **options: Any) -> tuple[Player, FakeStream]:
    """A player on a fake output, playing ``track`` from ``start`` to ``end`` s; with the stream it opened."""
    output = FakeOutput(samplerate, channels)
    player = Player(output)
    player.play_span(track, start, end, **options)
    return player, output.streams[-1]


# -- the engine alone ----------------------------------------------------------
@pytest.mark.parametrize("n,block", [(1000, 256), (1024, 256), (10, 256), (1, 1), (777, 1000)])
def test_player_engine_plays_every_frame_once_then_silence(n: int, block: int) -> None:
    buffer = np.arange(1, n + 1, dtype=np.float32)[:, None]
    engine = PlaybackEngine(buffer)
    outs, stop = [], False
    while not stop:
        out = np.full((block, 1), -1.0, dtype=np.float32)
        stop = engine.fill(out, block)
        outs.append(out)
    played = np.concatenate(outs)[:, 0]
    np.testing.assert_array_equal(played[:n], np.arange(1, n + 1))
    assert np.all(played[n:] == 0)
    assert len(outs) == -(-n // block) and engine.finished and engine.position == n


def test_player_engine_loop_wraps_even_within_one_block() -> None:
    engine = PlaybackEngine(np.arange(5, dtype=np.float32)[:, None], loop=True)
    out = np.zeros((12, 1), dtype=np.float32)
    assert engine.fill(out, 12) is False
    np.testing.assert_array_equal(out[:, 0], [0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1])
    assert engine.loops_done == 2 and engine.position == 2
    engine.loop = False
    out = np.zeros((12, 1), dtype=np.float32)
    assert engine.fill(out, 12) is True
    np.testing.assert_array_equal(out[:, 0], [2, 3, 4] + [0] * 9)


def test_player_engine_pause_outputs_silence_without_advancing() -> None:
    engine = PlaybackEngine(np.ones((100, 2), dtype=np.float32))
    out = np.zeros((10, 2), dtype=np.float32)
    engine.fill(out, 10)
    engine.paused = True
    out[:] = 5
    assert engine.fill(out, 10) is False
    assert np.all(out == 0) and engine.position == 10
    engine.paused = False
    engine.fill(out, 10)
    assert np.all(out == 1) and engine.position == 20


def test_player_engine_stop_request_ends_with_silence() -> None:
    engine = PlaybackEngine(np.ones((100, 1), dtype=np.float32))
    engine.stop_requested = True
    out = np.full((10, 1), 3.0, dtype=np.float32)
    assert engine.fill(out, 10) is True and np.all(out == 0)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 400), ops=st.lists(st.tuples(st.sampled_from(["fill", "pause", "resume", "loop_on", "loop_off"]),
                                                    st.integers(1, 300)), max_size=40))
def test_player_engine_property_frames_in_order(n: int, ops: list[tuple[str, int]]) -> None:
    """Whatever the block sizes, pauses and loop toggles, the sound is the buffer in order, wrapping only when looping."""
    engine = PlaybackEngine(np.arange(1, n + 1, dtype=np.float32)[:, None])
    expected_next = 1
    for op, frames in ops:
        if engine.finished:
            break
        if op == "pause":
            engine.paused = True
        elif op == "resume":
            engine.paused = False
        elif op in ("loop_on", "loop_off"):
            engine.loop = op == "loop_on"
        else:
            out = np.full((frames, 1), -1.0, dtype=np.float32)
            stopped = engine.fill(out, frames)
            assert not np.any(out == -1.0), "every frame of the block must be written"
            values = out[:, 0].astype(int)
            if engine.paused:
                assert np.all(values == 0)
                continue
            for k, v in enumerate(values):
                if v == 0:
                    assert stopped and np.all(values[k:] == 0), "silence only after the end"
                    break
                assert v == expected_next
                expected_next = v % n + 1 if engine.loop or v < n else n + 1
            assert stopped == engine.finished


# -- the player through a fake stream -----------------------------------------
def test_player_span_frame_accounting(tmp_path: Path) -> None:
    track = _ramp_track(tmp_path / "r.wav", 8000)
    player, stream = _play_span(track, 0.25, 0.5, label="src")
    assert player.is_playing
    stream.pump(100)
    pos = player.position()
    assert pos is not None and pos.label == "src" and pos.seconds == pytest.approx(0.25 + 100 / 8000)
    out = stream.run(256)
    ids = _frame_ids(out)
    np.testing.assert_array_equal(ids[:2000], np.arange(2000, 4000))  # frames 0.25 s .. 0.5 s, each once
    assert np.all(out[2000:] == 0)
    assert not player.is_playing and player.position() is None and player.wait(0)


def test_player_end_of_file_stops_at_the_last_frame(tmp_path: Path) -> None:
    track = _ramp_track(tmp_path / "r.wav", 1000)
    _, stream = _play_span(track, 0.1, 5.0)  # asks for far past the end of the file
    out = stream.run(300)
    ids = _frame_ids(out)
    np.testing.assert_array_equal(ids[:200], np.arange(800, 1000))
    assert np.all(out[200:] == 0) and out.shape[0] == 300


def test_player_loop_repeats_until_stop(tmp_path: Path) -> None:
    track = _ramp_track(tmp_path / "r.wav", 8000)
    player, stream = _play_span(track, 0.0, 0.1, loop=True)  # 800 frames
    for _ in range(10):
        assert stream.pump(256)
    ids = _frame_ids(np.concatenate(stream.played))
    np.testing.assert_array_equal(ids, np.arange(2560) % 800)
    player.stop()
    assert not player.is_playing and stream.closed and not stream.pump(256)


def test_player_pause_resume_and_position_from_another_thread(tmp_path: Path) -> None:
    import threading

    track = _ramp_track(tmp_path / "r.wav", 8000)
    player, stream = _play_span(track, 0.0, 1.0)
    stream.pump(400)
    player.pause()
    assert player.is_paused
    stream.pump(400)
    seen: list[float] = []
    reader = threading.Thread(target=lambda: seen.append(player.position().seconds))  # type: ignore[union-attr]
    reader.start()
    reader.join()
    assert seen == [pytest.approx(400 / 8000)]
    player.resume()
    stream.pump(400)
    ids = _frame_ids(np.concatenate(stream.played))
    np.testing.assert_array_equal(ids[:400], np.arange(400))
    assert np.all(stream.played[1] == 0)
    np.testing.assert_array_equal(ids[800:], np.arange(400, 800))


def test_player_source_then_interpretation_with_gap(tmp_path: Path) -> None:
    src = _ramp_track(tmp_path / "s.wav", 8000)
    tgt = _ramp_track(tmp_path / "t.wav", 8000)
    output = FakeOutput(8000, 1)
    player = Player(output)
    player.play([PlayItem(src, 0.0, 0.1, "src"), PlayItem(tgt, 0.5, 0.6, "tgt")], gap=0.05)
    stream = output.streams[-1]
    labels = []
    while stream.pump(100):
        pos = player.position()
        if pos is not None:
            labels.append(pos.label)
    out = np.concatenate(stream.played)
    ids = _frame_ids(out)
    np.testing.assert_array_equal(ids[:800], np.arange(800))
    assert np.all(out[800:1200] == 0)  # 0.05 s gap
    np.testing.assert_array_equal(ids[1200:2000], np.arange(4000, 4800))
    assert labels[0] == "src" and labels[-1] == "tgt"


def test_player_new_play_stops_the_previous_stream(tmp_path: Path) -> None:
    track = _ramp_track(tmp_path / "r.wav", 8000)
    output = FakeOutput(8000, 1)
    player = Player(output)
    player.play_span(track, 0.0, 0.5)
    first = output.streams[-1]
    player.play_span(track, 0.5, 0.6)
    assert first.closed and not first.active and len(output.streams) == 2


@pytest.mark.parametrize("src_rate,dst_rate,speed", [
    (8000, 8000, 1.0), (16000, 48000, 1.0), (44100, 48000, 1.0), (48000, 44100, 1.0),
    (22050, 44100, 1.0), (16000, 16000, 2.0), (16000, 48000, 0.75), (44100, 48000, 1.25),
])
def test_player_resampling_lengths(src_rate: int, dst_rate: int, speed: float) -> None:
    n = src_rate // 2
    frames = np.zeros((n, 2), dtype=np.float32)
    up, down = resample_ratio(src_rate, dst_rate, speed)
    assert up / down == pytest.approx(dst_rate / src_rate / speed, rel=1e-3)
    out = prepare_frames(frames, src_rate, dst_rate, 2, speed)
    assert out.shape == (-(-n * up // down), 2) and out.dtype == np.float32 and out.flags.c_contiguous
    # Duration at the device rate is the span's duration divided by the speed.
    assert out.shape[0] / dst_rate == pytest.approx(0.5 / speed, abs=1 / dst_rate)


def test_player_resampled_tone_keeps_its_pitch() -> None:
    rate_in, rate_out = 16000, 44100
    t = np.arange(rate_in) / rate_in
    tone = (0.5 * np.sin(2 * np.pi * 440 * t)).astype(np.float32)[:, None]
    out = prepare_frames(tone, rate_in, rate_out, 1)
    spectrum = np.abs(np.fft.rfft(out[:, 0]))
    peak_hz = np.argmax(spectrum) * rate_out / out.shape[0]
    assert peak_hz == pytest.approx(440, abs=2)


@pytest.mark.parametrize("file_channels,device_channels", [(1, 2), (2, 1), (2, 2), (3, 2)])
def test_player_channel_conversion(file_channels: int, device_channels: int) -> None:
    frames = np.tile(np.linspace(-1, 1, file_channels, dtype=np.float32), (50, 1))
    out = prepare_frames(frames, 8000, 8000, device_channels)
    assert out.shape == (50, device_channels)
    if file_channels != device_channels:
        np.testing.assert_allclose(out, np.mean(frames[0]), atol=1e-6)


def test_player_resampled_span_position_maps_back_to_file_time(tmp_path: Path) -> None:
    track = _ramp_track(tmp_path / "r.wav", 16000, rate=16000)
    player, stream = _play_span(track, 0.2, 0.4, speed=1.0, samplerate=48000, channels=2)
    stream.pump(4800)  # 0.1 s at 48 kHz
    assert player.position().seconds == pytest.approx(0.3, abs=1e-3)  # type: ignore[union-attr]
    out = stream.run(4800)
    assert out.shape[1] == 2 and np.count_nonzero(np.any(out != 0, axis=1)) == pytest.approx(9600, abs=3)


# -- no device ----------------------------------------------------------------
def test_player_without_device_raises_audio_unavailable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sounddevice as sd

    def no_devices(*args: Any, **kwargs: Any) -> Any:
        raise sd.PortAudioError("Error querying device -1")

    monkeypatch.setattr(sd, "query_devices", no_devices)
    track = _ramp_track(tmp_path / "r.wav", 800)
    player = Player()
    with pytest.raises(AudioUnavailable, match="No audio output device"):
        player.open()
    with pytest.raises(AudioUnavailable):
        player.play_span(track, 0.0, 0.1)
    assert not player.is_playing and player.position() is None
    player.stop()  # harmless when nothing ever played


def test_player_without_portaudio_raises_audio_unavailable(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real_import = builtins.__import__

    def fail_sounddevice(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "sounddevice":
            raise OSError("PortAudio library not found")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fail_sounddevice)
    with pytest.raises(AudioUnavailable, match="libportaudio2"):
        SoundDeviceOutput()


def test_player_real_output_stream_on_alsa_null_device(tmp_path: Path) -> None:
    # conftest points ALSA at its null device: a real PortAudio stream that discards the samples.
    track = _ramp_track(tmp_path / "r.wav", 4000, rate=8000)
    try:
        output = SoundDeviceOutput()
    except AudioUnavailable as exc:  # pragma: no cover - depends on the machine's ALSA
        pytest.skip(f"no ALSA null device: {exc}")
    player = Player(output)
    player.play_span(track, 0.0, 0.5)
    assert player.wait(timeout=10), "the stream never finished"
    assert not player.is_playing
    engine = player._engine
    assert engine is not None and engine.finished
    assert engine.position == engine.n_frames == pytest.approx(0.5 * output.samplerate, abs=2)
    player.stop()


# -- what a bead plays --------------------------------------------------------
def test_player_bead_play_items_source_then_target(tmp_path: Path) -> None:
    src_track = _ramp_track(tmp_path / "s.wav", 8000)
    tgt_track = _ramp_track(tmp_path / "t.wav", 8000)
    project = Project(
        source=Document.from_texts(["a", "b"], "en", [(0.0, 1.0), (1.0, 2.0)]),
        target=Document.from_texts(["x", "y", "z"], "ja", [(0.5, 1.2), (1.2, 2.5), (None, None)]),  # type: ignore[list-item]
        alignment=Alignment([Bead((0,), (0, 1)), Bead((1,), (2,))]),
    )
    items = bead_play_items(project, 0, {"src": src_track, "tgt": tgt_track})
    assert [(i.label, i.start, i.end) for i in items] == [("src", 0.0, 1.0), ("tgt", 0.5, 2.5)]
    assert [i.label for i in bead_play_items(project, 1, {"src": src_track, "tgt": tgt_track})] == ["src"]
    assert bead_play_items(project, 0, {"src": None, "tgt": tgt_track})[0].label == "tgt"
    assert bead_play_items(project, 7, {"src": src_track}) == []
