"""A headset's round trip, measured once with clicks and kept per pair of devices (docs/practice.md).

The booth puts the student's recording on the talk's timeline by leaving out
the first ``input + output`` latency of the microphone
(:mod:`sialign.booth.recorder`). Drivers report those latencies, but a USB or
Bluetooth headset, a docking station or a sound server can add tens to
hundreds of milliseconds they do not report. Calibrating measures the real
round trip instead:

1. the same full-duplex stream the booth records with plays a few short
   clicks (chirps of 10 ms) to the headphones while recording the microphone;
2. the student holds an ear cup against the microphone (or uses a loopback
   cable), so the microphone hears each click after the round trip;
3. each click is found in the recording by its matched filter; the round trip
   is the median delay, in stream frames, of the clicks heard clearly. Too few
   clicks heard, or clicks heard at different delays, is an error that says
   what to do, never a guessed number;
4. the result is kept in ``DATA_DIR/headset_latency.json`` under the two
   devices' names (indices change when devices are plugged in;
   :mod:`sialign.booth.headset_latency`). The recorder uses it in place of
   the reported latency for those devices, and the recording's sidecar says
   which it used.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from sialign.booth.headset_latency import MAX_ROUND_TRIP_S, Calibration
from sialign.core.errors import AudioUnavailable

# The clicks: a 10 ms chirp from 500 Hz to 4 kHz, one every CLICK_INTERVAL_S after LEAD_S of silence.
CLICK_S = 0.010
CLICKS = 6
CLICK_INTERVAL_S = 0.8
LEAD_S = 0.3
# A click counts as heard when its matched filter's peak stands this far above the filter's typical level.
HEARD_RATIO = 8.0
# At least this many clicks must be heard, all within SPREAD_S of their median delay. Moving the ear cup changes
# the delay by under a millisecond; what moves it more is the audio system dropping a buffer (an underrun), which
# shifts the microphone against the headphones by a period: 6 → 17 ms through PulseAudio in tests/benchmarks/
# RESULTS_practice.md. A few such steps still place the recording within tens of milliseconds, against an
# interpreter's lag of seconds; more is refused.
MIN_HEARD = 4
SPREAD_S = 0.025

NOT_HEARD = ("The microphone did not hear the clicks ({heard} of {clicks}). Hold one ear cup of the headphones against "
             "the microphone (or connect a loopback cable), turn the volume up, and calibrate again.")
INCONSISTENT = ("The round trip changed during the measurement ({delays} ms): the audio system dropped buffers. Close "
                "other programs using sound, hold the ear cup still against the microphone, and calibrate again.")


def click(rate: int) -> np.ndarray:
    """The click: a Hann-windowed linear chirp of :data:`CLICK_S` from 500 Hz to 4 kHz, peak 0.5."""
    n = max(16, int(round(CLICK_S * rate)))
    t = np.arange(n) / rate
    f0, f1 = 500.0, min(4000.0, rate / 2.5)
    phase = 2 * np.pi * (f0 * t + (f1 - f0) * t * t / (2 * CLICK_S))
    return (0.5 * np.hanning(n) * np.sin(phase)).astype(np.float32)


def click_track(rate: int, clicks: int = CLICKS) -> tuple[np.ndarray, list[int]]:
    """The signal played (mono) and the frame at which each click starts."""
    pulse = click(rate)
    starts = [int(round((LEAD_S + k * CLICK_INTERVAL_S) * rate)) for k in range(clicks)]
    total = starts[-1] + int(round((MAX_ROUND_TRIP_S + CLICK_INTERVAL_S) * rate))
    track = np.zeros(total, dtype=np.float32)
    for start in starts:
        track[start : start + pulse.size] = pulse
    return track, starts


def find_clicks(recorded: np.ndarray, starts: list[int], rate: int) -> list[tuple[int, float]]:
    """For each click played at ``starts``: (delay in frames, how clearly it was heard) in ``recorded``.

    ``recorded`` is the microphone on the stream's frame clock (frame 0 = the stream's first callback).
    Clearness is the matched filter's peak over its median magnitude in the search window.
    """
    pulse = click(rate)
    longest = int(round(MAX_ROUND_TRIP_S * rate))
    found: list[tuple[int, float]] = []
    for start in starts:
        window = recorded[start : start + longest + pulse.size].astype(np.float64)
        if window.size < pulse.size + 1:
            found.append((0, 0.0))
            continue
        score = np.abs(np.correlate(window, pulse.astype(np.float64), mode="valid"))
        peak = int(np.argmax(score))
        typical = float(np.median(score))
        clear = float(score[peak] / typical) if typical > 0 else (float("inf") if score[peak] > 0 else 0.0)
        found.append((peak, clear))
    return found


def round_trip(found: list[tuple[int, float]], rate: int) -> tuple[int, float, int]:
    """(delay in frames, spread in seconds, clicks heard) from :func:`find_clicks`.

    Raises:
        AudioUnavailable: too few clicks heard, or heard at different delays (the message says what to do).
    """
    heard = [delay for delay, clear in found if clear >= HEARD_RATIO]
    if len(heard) < min(MIN_HEARD, len(found)):
        raise AudioUnavailable(NOT_HEARD.format(heard=len(heard), clicks=len(found)))
    median = int(np.median(heard))
    spread = max(abs(d - median) for d in heard) / rate
    if spread > SPREAD_S:
        raise AudioUnavailable(INCONSISTENT.format(delays=", ".join(f"{d / rate * 1000:.0f}" for d in heard)))
    return median, spread, len(heard)


def measure(*, input_device: int | str | None = None, output_device: int | str | None = None,
            stream_factory: Callable[..., Any] | None = None, samplerate: int | None = None,
            output_channels: int | None = None, input_name: str | None = None, output_name: str | None = None,
            sleep: Callable[[float], None] = time.sleep, timeout_s: float = 15.0) -> Calibration:
    """Play the clicks and record them on the booth's own kind of stream; the measured round trip.

    Args:
        input_device / output_device: PortAudio index or name (None: the system's default).
        stream_factory: opens the stream (tests inject a loopback); default the recorder's, on sounddevice.
        samplerate / output_channels: default the output device's (asked only with the default factory).
        input_name / output_name: the devices' names (asked of sounddevice with the default factory).

    Raises:
        AudioUnavailable: no devices, they refused to open, or the clicks were not heard clearly.
    """
    from sialign.booth.recorder import _device_rate, reported_latency, sounddevice_stream

    if stream_factory is None:
        rate, in_name, out_name, channels = _device_rate(output_device, input_device)
        samplerate = samplerate or rate
        output_channels = output_channels or channels
        input_name = input_name or in_name
        output_name = output_name or out_name
    rate = int(samplerate or 48000)
    channels = int(output_channels or 2)
    track, starts = click_track(rate)
    heard = np.zeros(track.size, dtype=np.float32)
    state = {"frames": 0}

    def callback(indata: np.ndarray, outdata: np.ndarray, frames: int, time_info: Any, status: Any) -> None:
        pos = state["frames"]
        take = max(0, min(frames, track.size - pos))
        if take:
            outdata[:take] = track[pos : pos + take, None]
            heard[pos : pos + take] = indata[:take, 0]
        if take < frames:
            outdata[take:].fill(0)
        state["frames"] = pos + frames

    factory = stream_factory or sounddevice_stream
    stream = factory(samplerate=rate, channels=(1, channels), dtype="float32", latency="low",
                     device=(input_device, output_device), callback=callback)
    reported = sum(reported_latency(stream))
    began = time.monotonic()
    try:
        try:
            stream.start()
        except Exception as exc:  # PortAudio fails to start in many ways (a device taken by another program...)
            raise AudioUnavailable(f"The audio devices refused to start ({exc}): close other programs using them, "
                                   "or choose other devices, and calibrate again.") from exc
        while state["frames"] < track.size:
            if time.monotonic() - began > timeout_s + track.size / rate:
                raise AudioUnavailable("The audio devices stopped during the calibration: check that the headset is "
                                       "connected and not used by another program, and calibrate again.")
            sleep(0.05)
    finally:
        stream.stop()
        stream.close()
    delay, spread, count = round_trip(find_clicks(heard, starts, rate), rate)
    return Calibration(
        input_device=input_name or str(input_device if input_device is not None else "default"),
        output_device=output_name or str(output_device if output_device is not None else "default"),
        samplerate=rate, round_trip_s=round(delay / rate, 6), reported_s=round(reported, 6), heard=count,
        clicks=len(starts), spread_s=round(spread, 6), measured=time.strftime("%Y-%m-%dT%H:%M:%S"))


def device_names(input_device: int | str | None, output_device: int | str | None) -> tuple[str, str]:
    """The names sounddevice gives the two devices (what calibrations are kept under).

    Raises:
        AudioUnavailable: PortAudio or a device is missing.
    """
    from sialign.booth.recorder import _device_rate

    _rate, input_name, output_name, _channels = _device_rate(output_device, input_device)
    return input_name, output_name
