"""A headset's round trip measured with clicks, kept per pair of devices, and used by the recorder.

Without a sound card the headset is simulated: a fake full-duplex stream (tests/audio_fakes.py) whose
microphone hears its own output a known number of frames later, with noise; one test runs the real
sounddevice stream on ALSA's null device, which hears nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from audio_fakes import FakeDuplexFactory, FakeLoopbackFactory
from sialign.booth import calibration, headset_latency
from sialign.booth.calibration import click_track, find_clicks, measure, round_trip
from sialign.booth.headset_latency import Calibration
from sialign.booth.recorder import BoothRecorder, sidecar_path
from sialign.core.errors import AudioUnavailable

RATE = 48000


@pytest.mark.parametrize("delay_ms", [12.5, 142.0, 310.0])
def test_the_measured_round_trip_is_the_loopback_delay_to_the_frame(delay_ms: float) -> None:
    delay = int(round(delay_ms / 1000 * RATE))
    factory = FakeLoopbackFactory(delay, gain=0.2, noise=0.01, latency=(0.005, 0.010), block=256 if delay >= 256 else 128)
    cal = measure(stream_factory=factory, samplerate=RATE, output_channels=2, input_name="Headset mic",
                  output_name="Headset phones")
    assert cal.round_trip_s == pytest.approx(delay / RATE, abs=0.5 / RATE)
    assert cal.reported_s == pytest.approx(0.015)
    assert cal.heard == cal.clicks == calibration.CLICKS and cal.spread_s == 0.0
    assert (cal.input_device, cal.output_device, cal.samplerate) == ("Headset mic", "Headset phones", RATE)
    stream = factory.streams[0]
    assert stream.closed and not stream.active
    assert stream.kwargs["latency"] == "low" and stream.kwargs["channels"] == (1, 2)  # the booth's own kind of stream
    played = stream.output()
    assert np.array_equal(played[:, 0], played[:, 1]) and np.abs(played).max() <= 0.5


def test_a_microphone_that_hears_nothing_is_an_error_that_says_what_to_do() -> None:
    factory = FakeDuplexFactory(latency=(0.01, 0.02), microphone=lambda first, frames: np.zeros(frames, np.float32))
    factory_streams = factory.streams

    def start_running(**kwargs: object) -> object:
        stream = factory(**kwargs)
        stream.start = lambda: (setattr(stream, "active", True), stream.run_in_thread(256, speed=50.0))  # type: ignore[method-assign]
        return stream

    with pytest.raises(AudioUnavailable, match=r"did not hear the clicks \(0 of 6\).*ear cup"):
        measure(stream_factory=start_running, samplerate=RATE, output_channels=2)
    assert factory_streams[0].closed


def test_devices_that_refuse_to_start_are_one_line() -> None:
    factory = FakeLoopbackFactory(4800)

    def refusing(**kwargs: object) -> object:
        stream = factory(**kwargs)

        def start() -> None:
            raise RuntimeError("Device unavailable [PaErrorCode -9985]")

        stream.start = start  # type: ignore[method-assign]
        return stream

    with pytest.raises(AudioUnavailable, match=r"refused to start \(Device unavailable \[PaErrorCode -9985\]\)"):
        measure(stream_factory=refusing, samplerate=RATE, output_channels=2)
    assert factory.streams[0].closed


def test_noise_louder_than_the_clicks_is_not_a_measurement() -> None:
    factory = FakeLoopbackFactory(4800, gain=0.002, noise=0.2)
    with pytest.raises(AudioUnavailable, match="did not hear the clicks"):
        measure(stream_factory=factory, samplerate=RATE, output_channels=1)


def test_clicks_heard_at_different_delays_are_refused() -> None:
    track, starts = click_track(RATE)
    recorded = np.zeros(track.size, np.float32)
    pulse = calibration.click(RATE)
    for k, start in enumerate(starts):  # the audio system slipped by 20 ms at every click
        at = start + int(0.05 * RATE) + k * int(0.020 * RATE)
        recorded[at : at + pulse.size] += 0.3 * pulse
    with pytest.raises(AudioUnavailable, match=r"changed during the measurement \(50, 70, 90, 110, 130, 150 ms\)"):
        round_trip(find_clicks(recorded, starts, RATE), RATE)


def test_a_buffer_dropped_once_moves_the_median_not_the_verdict() -> None:
    """As through PulseAudio: two clicks at 6 ms, then an underrun, four at 17 ms."""
    track, starts = click_track(RATE)
    recorded = np.zeros(track.size, np.float32)
    pulse = calibration.click(RATE)
    for k, start in enumerate(starts):
        at = start + int(round((0.006 if k < 2 else 0.017) * RATE))
        recorded[at : at + pulse.size] += 0.3 * pulse
    delay, spread, heard = round_trip(find_clicks(recorded, starts, RATE), RATE)
    assert (delay, heard) == (int(round(0.017 * RATE)), 6) and spread == pytest.approx(0.011)
    cal = Calibration("m", "h", RATE, delay / RATE, 0.017, heard, 6, spread, "2026-12-07T19:18:00")
    assert cal.summary().startswith("round trip 17 ± 11 ms (the devices report 17 ms)")


def test_one_click_drowned_out_still_measures() -> None:
    track, starts = click_track(RATE)
    rng = np.random.default_rng(1)
    recorded = (0.001 * rng.standard_normal(track.size)).astype(np.float32)
    pulse = calibration.click(RATE)
    for k, start in enumerate(starts):
        if k != 2:
            at = start + 3000
            recorded[at : at + pulse.size] += 0.3 * pulse
    delay, spread, heard = round_trip(find_clicks(recorded, starts, RATE), RATE)
    assert (delay, spread, heard) == (3000, 0.0, 5)


def _cal(input_name: str = "USB mic", output_name: str = "USB phones", rt: float = 0.142) -> Calibration:
    return Calibration(input_name, output_name, RATE, rt, 0.02, 6, 6, 0.0, "2026-12-07T19:40:00")


def test_calibrations_are_kept_per_pair_of_devices_and_replaced() -> None:
    assert headset_latency.stored() == [] and headset_latency.stored_for("USB mic", "USB phones") is None
    path = headset_latency.keep(_cal())
    headset_latency.keep(_cal("Built-in mic", "USB phones", 0.08))
    headset_latency.keep(_cal(rt=0.150))  # measured again: replaces
    assert path == headset_latency.calibrations_file() and path.is_file()
    assert headset_latency.stored_for("USB mic", "USB phones").round_trip_s == 0.150  # type: ignore[union-attr]
    assert headset_latency.stored_for("Built-in mic", "USB phones").round_trip_s == 0.08  # type: ignore[union-attr]
    assert headset_latency.stored_for("USB mic", "Built-in speakers") is None
    assert len(headset_latency.stored()) == 2
    assert headset_latency.forget("USB mic", "USB phones") and not headset_latency.forget("USB mic", "USB phones")
    assert [c.input_device for c in headset_latency.stored()] == ["Built-in mic"]
    assert "round trip 80 ms (the devices report 20 ms), 6 of 6 clicks heard, measured 2026-12-07 19:40" == \
        headset_latency.stored()[0].summary()


@pytest.mark.parametrize("text", ["{not json", '{"headsets": 3}', '{"headsets": [{"input_device": "x"}]}',
                                  '{"headsets": [{"input_device": "a", "output_device": "b", "samplerate": 48000, '
                                  '"round_trip_s": 9.0, "reported_s": 0, "heard": 6, "clicks": 6, "spread_s": 0, '
                                  '"measured": ""}]}'])
def test_a_damaged_file_counts_as_no_calibration(text: str) -> None:
    path = headset_latency.calibrations_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    assert headset_latency.stored() == []
    headset_latency.keep(_cal())  # and keeping one mends it
    assert [c.round_trip_s for c in headset_latency.stored()] == [0.142]


def test_the_recorder_leaves_out_the_calibrated_round_trip(tmp_path: Path) -> None:
    """Source time t, sent out at stream frame t, reaches the microphone round_trip later: the file starts there."""
    delay = int(round(0.142 * RATE))
    source = tmp_path / "source.wav"
    sf.write(str(source), np.linspace(-0.5, 0.5, RATE, dtype=np.float32), RATE, subtype="FLOAT")
    for round_trip_s, expected_skip, kind in ((0.142, delay, "calibrated"), (None, int(round(0.03 * RATE)), "reported")):
        factory = FakeLoopbackFactory(delay, gain=1.0, noise=0.0, latency=(0.01, 0.02), speed=0)
        factory.streams.clear()
        rec = BoothRecorder(source, tmp_path / f"{kind}.wav", stream_factory=factory, samplerate=RATE, output_channels=1,
                            round_trip_s=round_trip_s)
        rec.start()
        stream = factory.streams[0]
        for _ in range(int(1.5 * RATE / 256)):
            stream.pump(256)
        result = rec.stop()
        data, _rate = sf.read(str(result.path), dtype="float32")
        mic = np.concatenate([np.zeros(delay, np.float32), stream.output()[:, 0]])[: stream.frames_done]
        assert np.allclose(data, mic[expected_skip:], atol=1e-4)
        assert result.latency_s == pytest.approx(expected_skip / RATE, abs=1e-6) and result.latency_source == kind
        sidecar = json.loads(sidecar_path(result.path).read_text(encoding="utf-8"))
        assert sidecar["latency_source"] == kind and sidecar["latency_s"] == pytest.approx(result.latency_s)
        if kind == "calibrated":  # the talk's first sample is the recording's first: on one clock to the frame
            assert np.allclose(data[:RATE], np.linspace(-0.5, 0.5, RATE, dtype=np.float32), atol=1e-4)


def test_the_real_stream_on_this_machine_gives_a_measurement_or_one_line() -> None:
    """sounddevice itself: on ALSA's null device (no sound card) nothing is heard, a one-line error and nothing kept;
    where the default device loops back (a sound server's null sink and its monitor), a round trip within bounds."""
    sd = pytest.importorskip("sounddevice")
    if not any(d["max_input_channels"] > 0 for d in sd.query_devices()):
        pytest.skip("no ALSA null device here (tests/conftest.py sets it up when alsa.conf exists)")
    try:
        found = measure()
    except AudioUnavailable as exc:
        assert "\n" not in str(exc) and ("did not hear the clicks" in str(exc) or "refused to open" in str(exc)
                                         or "changed during the measurement" in str(exc) or "stopped during" in str(exc))
        assert headset_latency.stored() == []
        return
    assert 0 <= found.round_trip_s <= headset_latency.MAX_ROUND_TRIP_S and found.heard >= calibration.MIN_HEARD
    assert found.input_device and found.output_device and found.reported_s > 0
