"""The booth's recorder: play the talk to the headphones and record the microphone on one clock.

One full-duplex ``sounddevice.Stream`` does both, so every microphone sample
has a known place on the source recording's timeline. The audio callback only
copies: the next source frames into ``outdata`` (prepared before the stream
starts, at the device's rate) and the microphone block onto a bounded queue
(``put_nowait``: a full queue counts a dropped block, it never waits). A
writer thread takes the blocks off the queue and

- writes them to a WAV file as they arrive, updating its header and flushing
  at least once a second, so a ``kill -9`` loses at most the last second and
  leaves a file every audio program reads (a ``.flac`` target is encoded from
  that WAV at :meth:`BoothRecorder.stop`: a FLAC cut off mid-write does not
  open);
- puts the recording on the source's timeline: the stream reports its input
  latency (microphone → callback) and output latency (callback → headphones);
  a sample the microphone takes while the student hears source time ``t``
  reaches the callback ``input + output`` latency after the callback that
  sent ``t`` out, so the first ``round((input + output) × rate)`` frames are
  left out and recording time equals source time. Where the headset's round
  trip was measured (:mod:`sialign.booth.calibration`), that measurement is
  left out instead of what the drivers report. The correction, and which of
  the two it is, is stored beside the recording (``RECORDING.booth.json``)
  and in the result;
- hands the microphone to ``on_block`` as mono float32 at 16 kHz with its
  start on the source clock (for live recognition), from the writer thread,
  never from the callback.

Pausing stops both the talk and the recording (the callback outputs silence
and discards the microphone), so the timeline stays one clock. Dropped blocks
are replaced by silence of the same length (the timeline does not shift) and
counted in :class:`RecordingResult`.

:func:`feed_file` delivers a recording in the same blocks, as if it came
from the microphone (``sialign practice --input-file``, benchmarks, tests).
"""

from __future__ import annotations

import json
import math
import queue
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from sialign.audio.mono import StreamResampler, read_mono
from sialign.core.errors import AudioUnavailable, InputError

# Rate of the blocks handed to on_block (what the speech recogniser reads).
LIVE_RATE = 16_000
# The recording file is flushed (header updated) at least this often: what a kill -9 can lose.
FLUSH_INTERVAL_S = 1.0
# The queue between the audio callback and the writer holds this much audio before blocks are dropped.
QUEUE_SECONDS = 30.0
# Blocks handed to on_block are gathered to at least this length (fewer, larger calls).
LIVE_BLOCK_S = 0.1
# Peak level shown for silence (the meter's floor).
SILENCE_DBFS = -120.0
RECORDING_SUFFIXES = (".wav", ".flac")

NO_INPUT_MESSAGE = (
    "No microphone was found (no audio input device). Connect a headset or a USB microphone, or check the "
    "system's sound settings, then press Refresh; without one the booth cannot record."
)
NO_OUTPUT_MESSAGE = (
    "No headphones or speakers were found (no audio output device). Connect headphones, or check the system's "
    "sound settings, then press Refresh; the talk cannot be played without one."
)
NO_PORTAUDIO_MESSAGE = (
    "Recording is not available: the PortAudio library was not found (on Debian/Ubuntu install the package "
    "libportaudio2)."
)

BlockFn = Callable[[np.ndarray, float], None]


# ---------------------------------------------------------------------------
# devices


@dataclass(frozen=True)
class AudioDevice:
    """One PortAudio device as the booth's dialog lists it.

    Attributes:
        index: PortAudio's device index (what ``input_device``/``output_device`` take).
        name: the device's name.
        hostapi: the host API (ALSA, PulseAudio, WASAPI, Core Audio...).
        channels: input channels for an input device, output channels for an output device.
        samplerate: the device's default sample rate.
        low_latency_s: its default low latency (what the booth asks for).
        high_latency_s: its default high latency.
        is_default: the system's default device of its kind.
    """

    index: int
    name: str
    hostapi: str
    channels: int
    samplerate: float
    low_latency_s: float
    high_latency_s: float
    is_default: bool = False

    def label(self) -> str:
        """``name (host API) · 12 ms`` for a drop-down list."""
        default = ", default" if self.is_default else ""
        return f"{self.name} ({self.hostapi}{default}) · {self.low_latency_s * 1000:.0f} ms"


@dataclass(frozen=True)
class BoothDevices:
    """The input and output devices, and what is missing in one sentence (empty when both kinds exist)."""

    inputs: list[AudioDevice]
    outputs: list[AudioDevice]
    problem: str = ""


def list_devices(query: Callable[[], tuple[Sequence[dict[str, Any]], Sequence[dict[str, Any]], tuple[int, int]]] | None = None) -> BoothDevices:
    """The audio devices the booth can use, with their default latencies.

    Args:
        query: returns ``(devices, hostapis, (default_input, default_output))``
            like sounddevice's ``query_devices()``, ``query_hostapis()`` and
            ``default.device``; tests inject one. By default sounddevice is asked.

    Never raises: without PortAudio or without a device, ``problem`` says what to do.
    """
    if query is None:
        try:
            import sounddevice as sd
        except OSError:
            return BoothDevices([], [], NO_PORTAUDIO_MESSAGE)

        def query() -> tuple[Sequence[dict[str, Any]], Sequence[dict[str, Any]], tuple[int, int]]:
            default = sd.default.device
            return list(sd.query_devices()), list(sd.query_hostapis()), (int(default[0]), int(default[1]))

    try:
        devices, hostapis, (default_in, default_out) = query()
    except Exception as exc:  # PortAudio fails in many ways on a machine without sound
        return BoothDevices([], [], f"The audio devices could not be listed ({exc}). {NO_INPUT_MESSAGE}")
    inputs: list[AudioDevice] = []
    outputs: list[AudioDevice] = []
    for index, dev in enumerate(devices):
        api_index = int(dev.get("hostapi", 0))
        api = str(hostapis[api_index].get("name", "?")) if 0 <= api_index < len(hostapis) else "?"
        rate = float(dev.get("default_samplerate") or 48000.0)
        if int(dev.get("max_input_channels", 0)) > 0:
            inputs.append(AudioDevice(index, str(dev.get("name", index)), api, int(dev["max_input_channels"]), rate,
                                      float(dev.get("default_low_input_latency", 0.0)),
                                      float(dev.get("default_high_input_latency", 0.0)), index == default_in))
        if int(dev.get("max_output_channels", 0)) > 0:
            outputs.append(AudioDevice(index, str(dev.get("name", index)), api, int(dev["max_output_channels"]), rate,
                                       float(dev.get("default_low_output_latency", 0.0)),
                                       float(dev.get("default_high_output_latency", 0.0)), index == default_out))
    problem = " ".join(message for message, missing in ((NO_INPUT_MESSAGE, not inputs), (NO_OUTPUT_MESSAGE, not outputs))
                       if missing)
    return BoothDevices(inputs, outputs, problem)


# ---------------------------------------------------------------------------
# the recorder


class DuplexStream(Protocol):
    """What the recorder needs of a stream (a subset of ``sounddevice.Stream``).

    Attributes:
        latency: (input, output) latency in seconds, as the stream reports it.
        samplerate: frames per second.
    """

    latency: Any
    samplerate: float

    def start(self) -> None: ...

    def stop(self) -> None: ...

    def close(self) -> None: ...


StreamFactory = Callable[..., DuplexStream]


def sounddevice_stream(**kwargs: Any) -> DuplexStream:
    """Open a ``sounddevice.Stream`` (the default stream factory); raise :class:`AudioUnavailable` when it cannot."""
    try:
        import sounddevice as sd
    except OSError as exc:
        raise AudioUnavailable(NO_PORTAUDIO_MESSAGE) from exc
    try:
        return sd.Stream(**kwargs)  # type: ignore[no-any-return]
    except (sd.PortAudioError, ValueError) as exc:
        raise AudioUnavailable(
            f"The audio devices refused to open for recording ({exc}). Check that a microphone and headphones are "
            "connected, close other programs using them, or choose other devices."
        ) from exc


def reported_latency(stream: DuplexStream) -> tuple[float, float]:
    """(input, output) latency in seconds as ``stream`` reports it (one number stands for both)."""
    latency = stream.latency
    if isinstance(latency, (tuple, list)):
        return float(latency[0]), float(latency[1])
    return float(latency), float(latency)


def _device_rate(output_device: int | str | None, input_device: int | str | None) -> tuple[int, str, str, int]:
    """(sample rate, input name, output name, output channels) of the devices the stream will use."""
    try:
        import sounddevice as sd
    except OSError as exc:
        raise AudioUnavailable(NO_PORTAUDIO_MESSAGE) from exc
    try:
        out = sd.query_devices(output_device, kind="output")
    except (sd.PortAudioError, ValueError) as exc:
        raise AudioUnavailable(NO_OUTPUT_MESSAGE) from exc
    try:
        inp = sd.query_devices(input_device, kind="input")
    except (sd.PortAudioError, ValueError) as exc:
        raise AudioUnavailable(NO_INPUT_MESSAGE) from exc
    rate = int(round(float(out.get("default_samplerate") or 48000)))
    return rate, str(inp.get("name", "default")), str(out.get("name", "default")), max(1, min(2, int(out["max_output_channels"])))


@dataclass(frozen=True)
class RecordingResult:
    """What :meth:`BoothRecorder.stop` hands back (also written to ``RECORDING.booth.json``).

    Attributes:
        path: the recording (WAV or FLAC); time 0 of the file is time 0 of the source.
        duration_s: seconds recorded (pauses excluded), on the source's clock.
        latency_s: the round trip left out at the start (the correction to the source's timeline).
        input_latency_s: the stream's reported input latency.
        output_latency_s: the stream's reported output latency.
        samplerate: the recording's rate (the devices').
        dropped_blocks: microphone blocks the writer could not keep up with (replaced by silence).
        overflows: callbacks in which the device reported an input overflow.
        input_device: name of the microphone.
        output_device: name of the headphones.
        source_audio: the recording that was played (None: nothing was played).
        pauses: source times (s) at which the session was paused.
        live_blocks_failed: blocks ``on_block`` raised on (the recording itself went on).
        latency_source: ``reported`` (input + output latency as the stream reported them) or ``calibrated``
            (the round trip measured for these devices, :mod:`sialign.booth.calibration`).
    """

    path: Path
    duration_s: float
    latency_s: float
    input_latency_s: float
    output_latency_s: float
    samplerate: int
    dropped_blocks: int
    overflows: int
    input_device: str
    output_device: str
    source_audio: Path | None = None
    pauses: list[float] = field(default_factory=list)
    live_blocks_failed: int = 0
    latency_source: str = "reported"

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["path"] = str(self.path)
        d["source_audio"] = str(self.source_audio) if self.source_audio else None
        return d


def sidecar_path(recording: str | Path) -> Path:
    """Where the booth writes what it knows of ``recording`` (latency correction, devices, pauses)."""
    recording = Path(recording)
    return recording.with_name(recording.name + ".booth.json")


_STOP = object()


class BoothRecorder:
    """Full-duplex: plays the source recording to the output device while recording the input device in one
    sounddevice stream (one clock); writes the microphone to ``out_path`` as blocks arrive, flushed so a
    ``kill -9`` loses at most the last second; positions are on the SOURCE's timeline, corrected by the
    stream's reported input + output latency.

    Args:
        source_audio: the talk's recording to play (None: record without playing anything).
        out_path: the recording to write, ``.wav`` or ``.flac`` (a FLAC is encoded from a WAV at Stop).
        input_device, output_device: PortAudio device index or name (None: the system's default).
        on_block: called with (mono float32 at 16 kHz, start in seconds on the source clock) from the
            writer thread; it must return quickly (``LiveAligner.feed`` queues).
        stream_factory: opens the stream with sounddevice's ``Stream`` keyword arguments (tests inject a
            fake); default :func:`sounddevice_stream`.
        samplerate: the stream's rate; default the output device's (asked only when the default factory is used,
            48 kHz otherwise).
        output_channels: channels of the output (default the output device's, at most 2).
        round_trip_s: the measured round trip to leave out in place of the reported latencies (None: the one kept
            for these devices, :func:`sialign.booth.headset_latency.stored_for`, when the default factory is used;
            else the reported latencies).

    Attributes:
        level_dbfs: peak of the last microphone block (dBFS), for a meter.
        elapsed_s: how far into the source the session is (pauses excluded).
        dropped_blocks: blocks the queue had no room for so far.
        error: what went wrong in the writer thread (disk full...), "" while all is well.
    """

    def __init__(self, source_audio: Path | None, out_path: Path, *, input_device: int | str | None = None,
                 output_device: int | str | None = None, on_block: BlockFn | None = None,
                 stream_factory: StreamFactory | None = None, samplerate: int | None = None,
                 output_channels: int | None = None, round_trip_s: float | None = None) -> None:
        out_path = Path(out_path).expanduser()
        if out_path.suffix.lower() not in RECORDING_SUFFIXES:
            raise InputError(out_path, "the booth records into a .wav or .flac file", hint="choose a name ending in .wav or .flac")
        if not out_path.parent.is_dir():
            raise InputError(out_path.parent, "no such folder for the recording", hint="choose an existing folder")
        self.source_audio = Path(source_audio).expanduser() if source_audio is not None else None
        self.out_path = out_path
        self.input_device = input_device
        self.output_device = output_device
        self.on_block = on_block
        self._factory = stream_factory
        self.samplerate = samplerate
        self.output_channels = output_channels
        self.round_trip_s = round_trip_s
        self.input_name = str(input_device) if input_device is not None else "default"
        self.output_name = str(output_device) if output_device is not None else "default"
        self.level_dbfs = SILENCE_DBFS
        self.error = ""
        self._source: np.ndarray | None = None
        self._prepared = False
        self._stream: DuplexStream | None = None
        self._writer: threading.Thread | None = None
        self._queue: queue.Queue[Any] = queue.Queue()
        self._frames = 0  # stream frames while not paused: the session's clock
        self._paused = False
        self._stopped = False
        self.dropped_blocks = 0
        self.overflows = 0
        self.live_blocks_failed = 0
        self._latency = (0.0, 0.0)
        self._skip = 0  # frames left out at the start: the latency correction
        self._written = 0  # frames in the file
        self._pauses: list[float] = []
        self._result: RecordingResult | None = None
        self._started_at = ""  # local time the session started, kept in the sidecar to the end

    # -- set-up -----------------------------------------------------------------------
    @property
    def wav_path(self) -> Path:
        """The file written while recording: ``out_path`` itself, or a WAV beside a ``.flac`` target."""
        if self.out_path.suffix.lower() == ".wav":
            return self.out_path
        return self.out_path.with_suffix(".wav")

    def prepare(self, should_stop: Callable[[], bool] | None = None) -> None:
        """Decide the rate and decode the source at it (seconds for a long talk: call it off the GUI thread).

        Raises:
            AudioUnavailable: no device to record or play with.
            InputError: the source recording cannot be decoded.
        """
        if self._prepared:
            return
        if self._factory is None:
            rate, self.input_name, self.output_name, channels = _device_rate(self.output_device, self.input_device)
            self.samplerate = self.samplerate or rate
            self.output_channels = self.output_channels or channels
            if self.round_trip_s is None:
                from sialign.booth.headset_latency import stored_for

                kept = stored_for(self.input_name, self.output_name)
                self.round_trip_s = kept.round_trip_s if kept is not None else None
        self.samplerate = int(self.samplerate or 48000)
        self.output_channels = int(self.output_channels or 2)
        if self.source_audio is not None:
            self._source = read_mono(self.source_audio, self.samplerate, should_stop=should_stop)
        self._prepared = True

    def start(self) -> None:
        """Open the stream and the file and start playing and recording (prepares first if needed).

        Raises:
            AudioUnavailable: the devices refused to open.
            OutputError / InputError: the recording cannot be created.
        """
        import soundfile as sf

        from sialign.core.errors import OutputError

        if self._stream is not None or self._stopped:
            raise RuntimeError("a booth recorder records once: make a new one for the next session")
        self.prepare()
        rate = int(self.samplerate or 48000)
        factory = self._factory or sounddevice_stream
        # The queue holds QUEUE_SECONDS of audio at any block size PortAudio picks (down to 64 frames).
        self._queue = queue.Queue(maxsize=max(64, int(QUEUE_SECONDS * rate / 64)))
        stream = factory(samplerate=rate, channels=(1, self.output_channels), dtype="float32", latency="low",
                         device=(self.input_device, self.output_device), callback=self._callback)
        in_lat, out_lat = reported_latency(stream)
        self._latency = (in_lat, out_lat)
        self._skip = int(round(self.correction_s * rate))
        try:
            self._file = sf.SoundFile(str(self.wav_path), "w", samplerate=rate, channels=1, format="WAV", subtype="PCM_16")
        except (RuntimeError, OSError) as exc:
            stream.close()
            raise OutputError(self.wav_path, f"the recording cannot be created ({exc})", hint="choose another folder") from exc
        self._live = StreamResampler(rate, LIVE_RATE) if self.on_block is not None else None
        self._live_parts: list[np.ndarray] = []
        self._live_pending = 0
        self._live_sent = 0
        self._stream = stream
        self._started_at = time.strftime("%Y-%m-%dT%H:%M:%S")
        self._write_sidecar(final=False)
        self._writer = threading.Thread(target=self._write_loop, name="booth-writer", daemon=True)
        self._writer.start()
        stream.start()

    # -- the audio callback (PortAudio's thread: copies only) ----------------------------
    def _callback(self, indata: np.ndarray, outdata: np.ndarray, frames: int, time_info: Any, status: Any) -> None:
        if status and getattr(status, "input_overflow", False):
            self.overflows += 1
        if self._paused or self._stopped:
            outdata.fill(0)
            return
        pos = self._frames
        source = self._source
        take = 0
        if source is not None:
            take = max(0, min(frames, source.shape[0] - pos))
            if take:
                outdata[:take] = source[pos : pos + take, None]
        if take < frames:
            outdata[take:].fill(0)
        try:
            self._queue.put_nowait((pos, indata[:, 0].copy()))
        except queue.Full:
            self.dropped_blocks += 1
        self._frames = pos + frames

    # -- the writer thread ------------------------------------------------------------
    def _write_loop(self) -> None:
        expected = 0
        last_flush = time.monotonic()
        while True:
            try:
                item = self._queue.get(timeout=0.25)
            except queue.Empty:
                item = None
            if item is _STOP:
                if self._frames > expected and not self.error:  # the last blocks were dropped: silence to the end
                    try:
                        self._write(np.zeros(self._frames - expected, dtype=np.float32), expected)
                    except (RuntimeError, OSError) as exc:
                        self.error = f"{self.wav_path}: writing the recording failed ({exc}); what was recorded before is kept"
                break
            if item is not None and not self.error:
                start, block = item
                try:
                    if start > expected:  # blocks were dropped: silence keeps the timeline
                        self._write(np.zeros(start - expected, dtype=np.float32), expected)
                    self._write(block, start)
                except (RuntimeError, OSError) as exc:
                    self.error = f"{self.wav_path}: writing the recording failed ({exc}); what was recorded before is kept"
                expected = start + block.shape[0]
                peak = float(np.max(np.abs(block))) if block.size else 0.0
                self.level_dbfs = max(SILENCE_DBFS, 20.0 * math.log10(peak)) if peak > 0 else SILENCE_DBFS
            if time.monotonic() - last_flush >= FLUSH_INTERVAL_S * 0.5:
                self._flush()
                last_flush = time.monotonic()
        self._flush()

    def _write(self, samples: np.ndarray, start: int) -> None:
        """Write the frames from stream frame ``start`` on, leaving out those before the latency correction."""
        skip = max(0, self._skip - start)
        if skip >= samples.shape[0]:
            return
        samples = samples[skip:]
        self._file.write(samples)
        self._written += samples.shape[0]
        if self._live is not None:
            self._deliver(self._live.push(samples), final=False)

    def _deliver(self, samples: np.ndarray, *, final: bool) -> None:
        if samples.size:
            self._live_parts.append(samples)
            self._live_pending += samples.size
        if not self._live_pending or (self._live_pending < LIVE_BLOCK_S * LIVE_RATE and not final):
            return
        block = np.concatenate(self._live_parts)
        self._live_parts, self._live_pending = [], 0
        t_start = self._live_sent / LIVE_RATE
        self._live_sent += block.size
        assert self.on_block is not None
        try:
            self.on_block(block, t_start)
        except Exception:  # the recording matters more than the live view: count, go on
            self.live_blocks_failed += 1

    def _flush(self) -> None:
        """Update the WAV header and push the data to the disk (a killed session keeps a readable file)."""
        if self.error:
            return
        try:
            from soundfile import _ffi, _snd  # the header update libsndfile offers (SFC_UPDATE_HEADER_NOW)

            _snd.sf_command(self._file._file, 0x1060, _ffi.NULL, 0)
            self._file.flush()
        except (RuntimeError, OSError, AttributeError, ImportError) as exc:
            self.error = f"{self.wav_path}: saving the recording failed ({exc})"

    @property
    def correction_s(self) -> float:
        """The round trip left out at the start: the calibrated one, else the reported input + output latency."""
        return self.round_trip_s if self.round_trip_s is not None else sum(self._latency)

    @property
    def latency_source(self) -> str:
        """``calibrated`` or ``reported`` (see :attr:`RecordingResult.latency_source`)."""
        return "calibrated" if self.round_trip_s is not None else "reported"

    def _write_sidecar(self, *, final: bool) -> None:
        in_lat, out_lat = self._latency
        data = {
            "recording": self.out_path.name if final else self.wav_path.name,
            "source_audio": str(self.source_audio) if self.source_audio else None,
            "samplerate": self.samplerate,
            "latency_s": self.correction_s,
            "latency_source": self.latency_source,
            "input_latency_s": in_lat,
            "output_latency_s": out_lat,
            "input_device": self.input_name,
            "output_device": self.output_name,
            "started": self._started_at,
            "complete": final,
            "note": "Time 0 of the recording is time 0 of the source: the first latency_s of the microphone was left out "
                    "(latency_source: measured for these devices, or as the devices reported it).",
        }
        if final and self._result is not None:
            data.update({k: v for k, v in self._result.to_dict().items() if k not in ("path", "source_audio")})
        from sialign.core.atomic import atomic_write_text

        try:  # replaced whole: a reader (or a crash) never sees half a sidecar
            atomic_write_text(sidecar_path(self.out_path), json.dumps(data, indent=1, ensure_ascii=False))
        except OSError as exc:  # OutputError is one
            self.error = self.error or f"{sidecar_path(self.out_path)}: cannot be written ({exc})"

    # -- controls (any thread but the callback's) -----------------------------------------
    def pause(self) -> None:
        """Stop the talk and the recording together; :meth:`resume` goes on from the same source time."""
        if self._stream is not None and not self._paused and not self._stopped:
            self._paused = True
            self._pauses.append(round(self.elapsed_s, 3))

    def resume(self) -> None:
        self._paused = False

    @property
    def paused(self) -> bool:
        return self._paused

    @property
    def recording(self) -> bool:
        """True from :meth:`start` to :meth:`stop` (paused included)."""
        return self._stream is not None and not self._stopped

    @property
    def elapsed_s(self) -> float:
        """Seconds into the source (the session's clock; pauses excluded)."""
        rate = self.samplerate or 48000
        return max(0.0, self._frames - self._skip) / rate

    @property
    def source_duration_s(self) -> float | None:
        """Length of the source being played (None when nothing is played)."""
        if self._source is None or not self.samplerate:
            return None
        return self._source.shape[0] / self.samplerate

    @property
    def source_finished(self) -> bool:
        """The talk has been played to its end (the microphone is still recorded until Stop)."""
        duration = self.source_duration_s
        return duration is not None and self.elapsed_s >= duration

    def stop(self) -> RecordingResult:
        """Stop playing and recording, finish the file and return what was recorded (idempotent)."""
        if self._result is not None:
            return self._result
        if self._stream is None:
            raise RuntimeError("the booth recorder was never started")
        self._stopped = True
        stream = self._stream
        try:
            stream.stop()
        finally:
            stream.close()
        self._queue.put(_STOP)
        if self._writer is not None:
            self._writer.join()
        if self._live is not None and not self.error:
            self._deliver(self._live.flush(), final=True)
        self._file.close()
        path = self.wav_path
        if self.out_path != self.wav_path and not self.error:
            path = self._encode_flac()
        rate = int(self.samplerate or 48000)
        in_lat, out_lat = self._latency
        self._result = RecordingResult(
            path=path, duration_s=self._written / rate, latency_s=self.correction_s, input_latency_s=in_lat,
            output_latency_s=out_lat, samplerate=rate, dropped_blocks=self.dropped_blocks, overflows=self.overflows,
            input_device=self.input_name, output_device=self.output_name, source_audio=self.source_audio,
            pauses=list(self._pauses), live_blocks_failed=self.live_blocks_failed, latency_source=self.latency_source,
        )
        self._write_sidecar(final=True)
        return self._result

    def _encode_flac(self) -> Path:
        """Encode the WAV as the FLAC asked for and remove the WAV; keep the WAV if that fails."""
        import soundfile as sf

        try:
            with sf.SoundFile(str(self.wav_path)) as src, sf.SoundFile(str(self.out_path), "w", samplerate=src.samplerate,
                                                                       channels=1, format="FLAC", subtype="PCM_16") as dst:
                for block in src.blocks(blocksize=65536, dtype="int16"):
                    dst.write(block)
        except (RuntimeError, OSError) as exc:
            self.error = f"{self.out_path}: encoding FLAC failed ({exc}); the recording is kept as {self.wav_path.name}"
            return self.wav_path
        self.wav_path.unlink()
        return self.out_path


# ---------------------------------------------------------------------------
# a recording as if it came from the microphone


def feed_file(path: str | Path, on_block: BlockFn, speed: float = 1.0, block_s: float = 0.1,
              should_stop: Callable[[], bool] | None = None, *, sleep: Callable[[float], None] = time.sleep,
              clock: Callable[[], float] = time.monotonic) -> float:
    """Deliver a recording to ``on_block`` in blocks, as :class:`BoothRecorder` delivers the microphone.

    Args:
        path: any recording SI Aligner reads (WAV, FLAC, OGG, MP3).
        on_block: called with (mono float32 at 16 kHz, start in seconds on the recording's clock).
        speed: how many times real time (1.0: as a student speaks; 0: as fast as possible).
        block_s: seconds per block.
        should_stop: checked before each block; True ends the feed early (no error).

    Returns:
        seconds of audio delivered.

    Raises:
        InputError: the file cannot be decoded (names it).
    """
    if speed < 0:
        raise ValueError("speed must be 0 (as fast as possible) or more")
    samples = read_mono(path, LIVE_RATE)
    step = max(1, int(round(block_s * LIVE_RATE)))
    began = clock()
    sent = 0
    for first in range(0, samples.shape[0], step):
        if should_stop is not None and should_stop():
            break
        block = samples[first : first + step]
        if speed > 0:  # a microphone block exists once its last sample has been spoken
            wait = began + (first + block.shape[0]) / LIVE_RATE / speed - clock()
            if wait > 0:
                sleep(wait)
        on_block(block, first / LIVE_RATE)
        sent = first + block.shape[0]
    return sent / LIVE_RATE
