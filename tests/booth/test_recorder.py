"""The booth's recorder: one clock for the talk and the microphone, a file that survives a crash, live blocks.

A fake full-duplex stream (tests/audio_fakes.py) drives the recorder's callback; one test opens a real
sounddevice stream on ALSA's null device (tests/conftest.py), one kills a recording child process with SIGKILL.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from audio_fakes import FakeDuplexFactory, tone
from sialign.booth.recorder import (
    LIVE_RATE,
    NO_INPUT_MESSAGE,
    BoothRecorder,
    StreamResampler,
    feed_file,
    list_devices,
    read_mono,
    sidecar_path,
)
from sialign.core.errors import InputError

RATE = 48000
BLOCK = 480  # 10 ms callbacks
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def source_wav(tmp_path: Path) -> Path:
    """One second of a rising ramp at 16 kHz: every output frame says which source time it plays."""
    path = tmp_path / "source.wav"
    sf.write(str(path), np.linspace(-0.5, 0.5, 16000, dtype=np.float32), 16000, subtype="FLOAT")
    return path


def _recorder(tmp_path: Path, source: Path | None, factory: FakeDuplexFactory, name: str = "rendition.wav", **kw: object) -> BoothRecorder:
    return BoothRecorder(source, tmp_path / name, stream_factory=factory, samplerate=RATE, output_channels=2, **kw)  # type: ignore[arg-type]


def test_recorder_writes_the_microphone_on_the_source_timeline(tmp_path: Path, source_wav: Path) -> None:
    factory = FakeDuplexFactory(latency=(0.01, 0.02))
    rec = _recorder(tmp_path, source_wav, factory)
    rec.start()
    stream = factory.streams[0]
    assert stream.kwargs["channels"] == (1, 2) and stream.kwargs["samplerate"] == RATE
    for _ in range(150):  # 1.5 s: past the end of the 1 s source
        stream.pump(BLOCK)
    result = rec.stop()
    assert stream.closed and not stream.active

    skip = int(round(0.03 * RATE))
    data, rate = sf.read(str(result.path), dtype="float32")
    assert rate == RATE
    assert data.shape[0] == 150 * BLOCK - skip
    # The file starts where source time 0 reached the student's ear: the first 30 ms of the microphone are out.
    assert np.allclose(data, tone(skip, 150 * BLOCK - skip), atol=1e-4)
    assert result.latency_s == pytest.approx(0.03)
    assert result.duration_s == pytest.approx((150 * BLOCK - skip) / RATE)
    assert result.dropped_blocks == 0 and result.samplerate == RATE

    played = stream.output()
    source_at_rate = read_mono(source_wav, RATE)
    assert np.allclose(played[: source_at_rate.size, 0], source_at_rate)
    assert np.allclose(played[: source_at_rate.size, 1], source_at_rate)
    assert not played[source_at_rate.size :].any()  # silence after the talk, not the garbage the stream held
    assert rec.source_finished

    sidecar = json.loads(sidecar_path(result.path).read_text(encoding="utf-8"))
    assert sidecar["latency_s"] == pytest.approx(0.03) and sidecar["complete"] is True
    assert sidecar["input_latency_s"] == pytest.approx(0.01) and sidecar["output_latency_s"] == pytest.approx(0.02)


def test_pause_stops_the_talk_and_the_recording_together(tmp_path: Path, source_wav: Path) -> None:
    factory = FakeDuplexFactory(latency=(0.0, 0.0))
    rec = _recorder(tmp_path, source_wav, factory)
    rec.start()
    stream = factory.streams[0]
    for _ in range(20):
        stream.pump(BLOCK)
    assert rec.elapsed_s == pytest.approx(20 * BLOCK / RATE)
    rec.pause()
    assert rec.paused
    for _ in range(7):
        stream.pump(BLOCK)
    assert rec.elapsed_s == pytest.approx(20 * BLOCK / RATE)  # the clock stands still
    rec.resume()
    for _ in range(10):
        stream.pump(BLOCK)
    result = rec.stop()

    played = stream.output()[:, 0]
    source_at_rate = read_mono(source_wav, RATE)
    assert not played[20 * BLOCK : 27 * BLOCK].any()  # silence while paused
    # After Resume the talk goes on from where it stopped, not from where the wall clock is.
    kept = np.concatenate([played[: 20 * BLOCK], played[27 * BLOCK :]])
    assert np.allclose(kept, source_at_rate[: 30 * BLOCK])
    data, _ = sf.read(str(result.path), dtype="float32")
    assert data.shape[0] == 30 * BLOCK
    # The microphone's pause is cut out: the file holds the tone of the blocks before and after it.
    expected = np.concatenate([tone(0, 20 * BLOCK), tone(27 * BLOCK, 10 * BLOCK)])
    assert np.allclose(data, expected, atol=1e-4)
    assert result.pauses == [pytest.approx(20 * BLOCK / RATE)]


def test_live_blocks_are_16_khz_mono_on_the_source_clock(tmp_path: Path) -> None:
    blocks: list[tuple[np.ndarray, float]] = []
    factory = FakeDuplexFactory(latency=(0.005, 0.015))
    rec = _recorder(tmp_path, None, factory, on_block=lambda b, t: blocks.append((b, t)))
    rec.start()
    stream = factory.streams[0]
    for _ in range(100):
        stream.pump(BLOCK)
    result = rec.stop()

    assert blocks and all(b.dtype == np.float32 and b.ndim == 1 for b, _ in blocks)
    starts = [t for _, t in blocks]
    sizes = np.cumsum([0] + [b.size for b, _ in blocks[:-1]])
    assert starts == pytest.approx(list(sizes / LIVE_RATE))  # each block starts where the last ended
    assert all(b.size >= 0.1 * LIVE_RATE for b, _ in blocks[:-1])
    live = np.concatenate([b for b, _ in blocks])
    recorded, _ = sf.read(str(result.path), dtype="float32")
    assert live.size == int(np.ceil(recorded.size * LIVE_RATE / RATE))
    from scipy.signal import resample_poly

    assert np.allclose(live[100:-100], resample_poly(recorded, 1, 3)[100:-100], atol=2e-3)


def test_a_writer_that_falls_behind_drops_blocks_counted_and_keeps_the_timeline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    import sialign.booth.recorder as recorder

    monkeypatch.setattr(recorder, "QUEUE_SECONDS", 0.0)  # the smallest queue: 64 blocks
    gate = threading.Event()
    factory = FakeDuplexFactory(latency=(0.0, 0.0))
    rec = _recorder(tmp_path, None, factory, on_block=lambda b, t: gate.wait(10))
    rec.start()
    stream = factory.streams[0]
    for _ in range(200):  # the writer is stuck in on_block: the queue fills
        stream.pump(BLOCK)
    assert rec.dropped_blocks > 0
    gate.set()
    result = rec.stop()
    assert result.dropped_blocks == rec.dropped_blocks > 0
    data, _ = sf.read(str(result.path), dtype="float32")
    assert data.shape[0] == 200 * BLOCK  # silence stands in for what was dropped
    assert (data == 0).sum() >= result.dropped_blocks * BLOCK


def test_a_flac_recording_is_encoded_at_stop(tmp_path: Path) -> None:
    factory = FakeDuplexFactory(latency=(0.0, 0.0))
    rec = _recorder(tmp_path, None, factory, name="rendition.flac")
    rec.start()
    assert rec.wav_path.exists()  # what a crash leaves: a WAV every program opens
    for _ in range(50):
        factory.streams[0].pump(BLOCK)
    result = rec.stop()
    assert result.path == tmp_path / "rendition.flac" and not rec.wav_path.exists()
    assert sf.info(str(result.path)).format == "FLAC" and sf.info(str(result.path)).frames == 50 * BLOCK


def test_bad_recording_names_are_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"rendition\.mp3.*\.wav or \.flac"):
        BoothRecorder(None, tmp_path / "rendition.mp3")
    with pytest.raises(InputError, match="no such folder"):
        BoothRecorder(None, tmp_path / "missing" / "rendition.wav")


def test_bad_source_recording_names_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "talk.wav"
    bad.write_text("not audio")
    rec = _recorder(tmp_path, bad, FakeDuplexFactory())
    with pytest.raises(InputError, match="talk.wav"):
        rec.start()


@pytest.mark.parametrize("src_rate,dst_rate", [(48000, 16000), (44100, 16000), (16000, 48000), (22050, 44100)])
def test_stream_resampler_matches_resampling_the_whole_signal(src_rate: int, dst_rate: int) -> None:
    from scipy.signal import resample_poly

    from sialign.audio.player import resample_ratio

    rng = np.random.default_rng(1)
    signal_ = rng.standard_normal(src_rate // 2).astype(np.float32)
    resampler = StreamResampler(src_rate, dst_rate)
    parts, i = [], 0
    while i < signal_.size:
        n = int(rng.integers(1, 2000))
        parts.append(resampler.push(signal_[i : i + n]))
        i += n
    parts.append(resampler.flush())
    streamed = np.concatenate(parts)
    up, down = resample_ratio(src_rate, dst_rate)
    whole = resample_poly(signal_, up, down).astype(np.float32)
    assert streamed.size == whole.size
    assert np.allclose(streamed, whole, atol=1e-4)


def test_feed_file_delivers_a_recording_as_the_microphone_would(tmp_path: Path) -> None:
    path = tmp_path / "rendition.wav"
    sf.write(str(path), tone(0, RATE * 2), RATE)  # 2 s at 48 kHz
    blocks: list[tuple[int, float]] = []
    seconds = feed_file(path, lambda b, t: blocks.append((b.size, t)), speed=0)
    assert seconds == pytest.approx(2.0)
    assert [t for _, t in blocks] == pytest.approx([i * 0.1 for i in range(20)])
    assert all(n == 1600 for n, _ in blocks)

    # At real time each block comes once its last sample would have been spoken.
    now = [0.0]
    waits: list[float] = []

    def sleep(s: float) -> None:
        waits.append(s)
        now[0] += s

    feed_file(path, lambda b, t: None, speed=2.0, block_s=0.5, sleep=sleep, clock=lambda: now[0])
    assert waits == pytest.approx([0.25] * 4)

    stopped: list[float] = []
    feed_file(path, lambda b, t: stopped.append(t), speed=0, should_stop=lambda: len(stopped) >= 3)
    assert len(stopped) == 3


def test_device_list_says_when_there_is_no_microphone() -> None:
    apis = [{"name": "ALSA"}]
    out_only = [{"name": "Speakers", "hostapi": 0, "max_input_channels": 0, "max_output_channels": 2,
                 "default_samplerate": 44100.0, "default_low_output_latency": 0.0087, "default_high_output_latency": 0.034}]
    devices = list_devices(lambda: (out_only, apis, (-1, 0)))
    assert devices.problem == NO_INPUT_MESSAGE and not devices.inputs
    assert devices.outputs[0].label() == "Speakers (ALSA, default) · 9 ms"

    headset = out_only + [{"name": "Headset mic", "hostapi": 0, "max_input_channels": 1, "max_output_channels": 0,
                           "default_samplerate": 48000.0, "default_low_input_latency": 0.005, "default_high_input_latency": 0.02}]
    devices = list_devices(lambda: (headset, apis, (1, 0)))
    assert devices.problem == "" and devices.inputs[0].name == "Headset mic" and devices.inputs[0].low_latency_s == 0.005

    def broken() -> tuple:  # type: ignore[type-arg]
        raise RuntimeError("PortAudio not initialized")

    assert "could not be listed" in list_devices(broken).problem


def test_a_real_duplex_stream_on_alsas_null_device(tmp_path: Path, source_wav: Path) -> None:
    """sounddevice itself (no fake): the null device takes the talk and hands back silence, faster than real time."""
    sd = pytest.importorskip("sounddevice")
    if not any(d["max_input_channels"] > 0 for d in sd.query_devices()):
        pytest.skip("no ALSA null device here (tests/conftest.py sets it up when alsa.conf exists)")
    blocks: list[float] = []
    rec = BoothRecorder(source_wav, tmp_path / "null.wav", on_block=lambda b, t: blocks.append(t))
    rec.start()
    deadline = time.monotonic() + 5
    while rec.elapsed_s < 1.5 and time.monotonic() < deadline:
        time.sleep(0.01)
    result = rec.stop()
    assert result.latency_s > 0  # what the stream reported
    assert result.input_device and result.output_device
    info = sf.info(str(result.path))
    assert info.frames > 0 and info.samplerate == rec.samplerate
    assert result.duration_s == pytest.approx(info.frames / info.samplerate)
    assert blocks and blocks[0] == 0.0


CHILD = """
import sys, time
sys.path[:0] = [{tests!r}, {desktop!r}]
from pathlib import Path
from audio_fakes import FakeDuplexFactory
from sialign.booth.recorder import BoothRecorder
factory = FakeDuplexFactory(latency=(0.0, 0.0))
rec = BoothRecorder(None, Path({out!r}), stream_factory=factory, samplerate=16000, output_channels=1)
rec.start()
factory.streams[0].run_in_thread(frames=160)
began = time.monotonic()
print("recording", flush=True)
while True:
    time.sleep(0.05)
    print(f"elapsed {{rec.elapsed_s:.3f}}", flush=True)
"""


def test_a_killed_session_keeps_all_but_the_last_second(tmp_path: Path) -> None:
    out = tmp_path / "killed.wav"
    script = CHILD.format(tests=str(REPO / "tests"), desktop=str(REPO / "desktop"), out=str(out))
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "recording"
    elapsed = 0.0
    while elapsed < 2.6:
        line = child.stdout.readline()
        assert line, "the recording child died"
        elapsed = float(line.split()[1])
    os.kill(child.pid, signal.SIGKILL)
    child.wait(10)
    assert child.returncode == -signal.SIGKILL

    data, rate = sf.read(str(out), dtype="float32")  # the header is valid: the file opens as it is
    assert rate == 16000
    seconds = data.shape[0] / rate
    assert elapsed - 1.0 <= seconds <= elapsed + 0.2
    assert np.allclose(data, tone(0, data.shape[0]), atol=1e-4)  # and it holds what was spoken
    assert json.loads(sidecar_path(out).read_text(encoding="utf-8"))["complete"] is False


def test_the_sidecar_keeps_the_start_time_and_is_replaced_whole(tmp_path: Path, source_wav: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """``started`` is when the session began, not when the sidecar was last written; no temporary file is left."""
    import sialign.booth.recorder as recorder_module

    clock = iter(["2026-12-07T10:00:00", "2026-12-07T10:05:00", "2026-12-07T10:09:00"])
    monkeypatch.setattr(recorder_module.time, "strftime", lambda fmt, *a: next(clock))
    factory = FakeDuplexFactory(latency=(0.0, 0.0))
    rec = _recorder(tmp_path, source_wav, factory)
    rec.start()
    first = json.loads(sidecar_path(rec.out_path).read_text(encoding="utf-8"))
    for _ in range(20):
        factory.streams[0].pump(BLOCK)
    result = rec.stop()
    final = json.loads(sidecar_path(result.path).read_text(encoding="utf-8"))
    assert first["started"] == final["started"] == "2026-12-07T10:00:00" and final["complete"] is True
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["source.wav", result.path.name, sidecar_path(result.path).name])
