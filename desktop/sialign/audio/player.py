"""Playback of spans through a sounddevice ``OutputStream``.

Everything costly happens before the stream starts: the spans are read by
seeking, converted to the device's channel count, resampled to the device's
rate (and playback speed) with :func:`sialign.audio.resample.resample_poly` and laid out in
one preallocated buffer. The audio callback then only copies the next frames
into ``outdata`` — no allocation, no logging, no locks, no Qt — and raises
``CallbackStop`` at the end (the pattern of sounddevice's ``play_file``
example). The play position is a plain integer the callback updates, so any
thread can read it.

The device is reached through an :class:`AudioOutput`, so tests drive the
same callback with a fake stream; :class:`SoundDeviceOutput` is the real one
and raises :class:`AudioUnavailable` when there is no output device.
"""

from __future__ import annotations

import bisect
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

import numpy as np

from sialign.audio.decode import AudioTrack, mixdown, read_span
from sialign.core.errors import AudioUnavailable
from sialign.core.model import Project, bead_times

# Silence between the source and its interpretation when both are played.
SEQUENCE_GAP_SECONDS = 0.35
SPEEDS = (0.5, 0.75, 1.0, 1.25, 1.5, 2.0)


class AudioStream(Protocol):
    """What the player needs of a stream (a subset of ``sounddevice.OutputStream``)."""

    active: bool

    def start(self) -> None: ...

    def stop(self) -> None: ...

    def close(self) -> None: ...


class AudioOutput(Protocol):
    """An output device: its format and a way to open a callback stream on it.

    Attributes:
        samplerate: the rate the stream runs at (spans are resampled to it).
        channels: output channels (1 or 2).
        callback_stop: the exception a callback raises to end the stream.
        name: shown in the GUI.
    """

    samplerate: int
    channels: int
    callback_stop: type[BaseException]
    name: str

    def open_stream(self, callback: Callable[..., None], finished_callback: Callable[[], None]) -> AudioStream: ...


class SoundDeviceOutput:
    """The default (or a named) PortAudio output device through sounddevice."""

    def __init__(self, device: int | str | None = None) -> None:
        """Probe the device; raise :class:`AudioUnavailable` when there is none."""
        try:
            import sounddevice as sd
        except OSError as exc:  # PortAudio itself is missing
            raise AudioUnavailable(
                "Audio playback is not available: the PortAudio library was not found "
                "(on Debian/Ubuntu install the package libportaudio2). Everything else works without sound."
            ) from exc
        try:
            info = sd.query_devices(device, kind="output")
        except (sd.PortAudioError, ValueError) as exc:
            raise AudioUnavailable(
                "No audio output device was found, so nothing can be played. Connect speakers or headphones "
                "(or check the system's sound settings) and reopen the project; everything else works without sound."
            ) from exc
        if int(info.get("max_output_channels", 0)) < 1:
            raise AudioUnavailable(f"The audio device {info.get('name')!r} has no output channels; choose another one.")
        self._sd = sd
        self.device = device
        self.name = str(info.get("name", "default"))
        self.samplerate = int(round(float(info.get("default_samplerate") or 48000)))
        self.channels = min(2, int(info["max_output_channels"]))
        self.callback_stop: type[BaseException] = sd.CallbackStop

    def open_stream(self, callback: Callable[..., None], finished_callback: Callable[[], None]) -> AudioStream:
        try:
            return self._sd.OutputStream(
                samplerate=self.samplerate,
                channels=self.channels,
                dtype="float32",
                device=self.device,
                callback=callback,
                finished_callback=finished_callback,
            )
        except self._sd.PortAudioError as exc:
            raise AudioUnavailable(f"The audio device {self.name!r} refused to open ({exc}); close other programs using it and retry.") from exc


@dataclass(frozen=True)
class PlayItem:
    """One span of one track to play.

    Attributes:
        track: the audio file.
        start: seconds.
        end: seconds.
        label: who is speaking (``"src"`` or ``"tgt"``), reported with the position.
    """

    track: AudioTrack
    start: float
    end: float
    label: str = ""


@dataclass(frozen=True)
class PlayPosition:
    """Where playback is, for the playhead.

    Attributes:
        label: the playing item's label (``"src"``/``"tgt"``).
        track_path: the playing file.
        seconds: time in that file.
        paused: True while paused.
    """

    label: str
    track_path: str
    seconds: float
    paused: bool


def resample_ratio(src_rate: int, dst_rate: int, speed: float = 1.0) -> tuple[int, int]:
    """(up, down) so that ``len(out) ≈ len(in) * up / down`` plays ``speed`` times faster at ``dst_rate``.

    Speed changes come from resampling, so pitch follows speed (like a tape);
    the denominator is bounded to keep the polyphase filter small.
    """
    ratio = Fraction(dst_rate, src_rate) / Fraction(speed).limit_denominator(100)
    ratio = ratio.limit_denominator(2000)
    return ratio.numerator, ratio.denominator


def prepare_frames(frames: np.ndarray, src_rate: int, dst_rate: int, channels: int, speed: float = 1.0) -> np.ndarray:
    """Convert decoded frames to what the device plays.

    Args:
        frames: float32 array of shape (n, file_channels).
        src_rate: the file's sample rate.
        dst_rate: the device's sample rate.
        channels: the device's channel count.
        speed: playback speed (1.0 = normal).

    Returns:
        C-contiguous float32 array of shape (m, channels), with
        ``m = ceil(n * up / down)`` for ``(up, down) = resample_ratio(...)``.
    """
    from sialign.audio.resample import resample_poly

    if frames.shape[1] != channels:
        mono = mixdown(frames)
        frames = np.repeat(mono[:, None], channels, axis=1)
    up, down = resample_ratio(src_rate, dst_rate, speed)
    if (up, down) != (1, 1) and frames.shape[0] > 0:
        frames = resample_poly(frames, up, down, axis=0)
    return np.ascontiguousarray(np.clip(frames, -1.0, 1.0), dtype=np.float32)


class PlaybackEngine:
    """The frame logic of one playback: a prepared buffer and a read position.

    ``fill`` is the body of the audio callback. It writes exactly ``frames``
    frames into ``outdata`` (silence while paused or after the end) and
    returns True when the stream should stop. It touches only integers and
    preallocated arrays, so it is safe on PortAudio's thread.

    Attributes:
        buffer: float32 array of shape (n_frames, channels), the whole program.
        position: next frame to play (read from any thread).
        loop: start again from frame 0 at the end instead of stopping.
        paused: output silence without advancing.
        loops_done: how many times the end was wrapped (for tests and the UI).
    """

    def __init__(self, buffer: np.ndarray, *, loop: bool = False) -> None:
        self.buffer = buffer
        self.n_frames = int(buffer.shape[0])
        self.position = 0
        self.loop = loop
        self.paused = False
        self.stop_requested = False
        self.finished = False
        self.loops_done = 0

    def fill(self, outdata: np.ndarray, frames: int) -> bool:
        if self.stop_requested or self.finished:
            outdata.fill(0)
            self.finished = True
            return True
        if self.paused:
            outdata.fill(0)
            return False
        written = 0
        buffer = self.buffer
        end = self.n_frames
        while written < frames:
            pos = self.position
            take = min(frames - written, end - pos)
            if take > 0:
                outdata[written : written + take] = buffer[pos : pos + take]
                written += take
                self.position = pos + take
            if self.position >= end:
                if self.loop and end > 0:
                    self.position = 0
                    self.loops_done += 1
                    continue
                outdata[written:].fill(0)
                self.finished = True
                return True
        return False


class Player:
    """Plays spans of audio tracks; one playback at a time.

    Args:
        output: the device; ``None`` opens the default sounddevice output on
            first use (raising :class:`AudioUnavailable` when there is none).
        output_factory: builds the output when ``output`` is None (tests
            inject one that fails, to simulate a machine without sound).
    """

    def __init__(self, output: AudioOutput | None = None, *, output_factory: Callable[[], AudioOutput] | None = None) -> None:
        self._output = output
        self._output_factory = output_factory or SoundDeviceOutput
        self._stream: AudioStream | None = None
        self._engine: PlaybackEngine | None = None
        # (buffer offset, frames, item) of each item, ascending offsets.
        self._pieces: list[tuple[int, int, PlayItem]] = []
        self._offsets: list[int] = []
        self._speed = 1.0
        self._done = threading.Event()
        self._done.set()

    # -- device ------------------------------------------------------------
    def open(self) -> AudioOutput:
        """Open the output device now (raises :class:`AudioUnavailable`)."""
        if self._output is None:
            self._output = self._output_factory()
        return self._output

    @property
    def output(self) -> AudioOutput | None:
        return self._output

    # -- playing -----------------------------------------------------------
    def play(self, items: Sequence[PlayItem], *, loop: bool = False, speed: float = 1.0,
             gap: float = SEQUENCE_GAP_SECONDS) -> None:
        """Play ``items`` one after the other (with ``gap`` seconds of silence between them).

        Raises:
            AudioUnavailable: no output device.
            ValueError: nothing to play (every span empty).
        """
        output = self.open()
        self.stop()
        parts: list[np.ndarray] = []
        pieces: list[tuple[int, int, PlayItem]] = []
        offset = 0
        gap_frames = int(round(gap * output.samplerate))
        for item in items:
            frames = prepare_frames(read_span(item.track, item.start, item.end), item.track.samplerate,
                                    output.samplerate, output.channels, speed)
            if frames.shape[0] == 0:
                continue
            if parts and gap_frames:
                parts.append(np.zeros((gap_frames, output.channels), dtype=np.float32))
                offset += gap_frames
            pieces.append((offset, frames.shape[0], item))
            parts.append(frames)
            offset += frames.shape[0]
        if not parts:
            raise ValueError("nothing to play: every span is empty or outside its audio file")
        buffer = np.ascontiguousarray(np.concatenate(parts), dtype=np.float32)
        engine = PlaybackEngine(buffer, loop=loop)
        stop_exc = output.callback_stop

        def callback(outdata: Any, frames: int, time: Any, status: Any) -> None:
            if engine.fill(outdata, frames):
                raise stop_exc

        done = threading.Event()
        self._engine = engine
        self._pieces = pieces
        self._offsets = [p[0] for p in pieces]
        self._speed = speed
        self._done = done
        self._stream = output.open_stream(callback, done.set)
        self._stream.start()

    def play_span(self, track: AudioTrack, start: float, end: float, *, label: str = "", loop: bool = False,
                  speed: float = 1.0) -> None:
        self.play([PlayItem(track, start, end, label)], loop=loop, speed=speed)

    def stop(self) -> None:
        """Stop and release the stream (no-op when idle)."""
        engine, stream = self._engine, self._stream
        if engine is not None:
            engine.stop_requested = True
        if stream is not None:
            self._stream = None
            try:
                stream.stop()
            finally:
                stream.close()
        self._done.set()

    def pause(self) -> None:
        if self._engine is not None:
            self._engine.paused = True

    def resume(self) -> None:
        if self._engine is not None:
            self._engine.paused = False

    def toggle_pause(self) -> None:
        if self._engine is not None:
            self._engine.paused = not self._engine.paused

    def set_loop(self, loop: bool) -> None:
        if self._engine is not None:
            self._engine.loop = loop

    # -- state -------------------------------------------------------------
    @property
    def is_playing(self) -> bool:
        """True from ``play`` until the end, ``stop`` or the stream's own finish (paused counts as playing)."""
        return self._engine is not None and not self._done.is_set() and not self._engine.finished

    @property
    def is_paused(self) -> bool:
        return self.is_playing and self._engine is not None and self._engine.paused

    def wait(self, timeout: float | None = None) -> bool:
        """Block until playback has finished; False on timeout."""
        return self._done.wait(timeout)

    def position(self) -> PlayPosition | None:
        """The playing item and the time in its file; None when nothing plays."""
        engine = self._engine
        if engine is None or not self._pieces or not self.is_playing:
            return None
        pos = engine.position
        i = max(0, bisect.bisect_right(self._offsets, pos) - 1)
        offset, n, item = self._pieces[i]
        rate = self._output.samplerate if self._output is not None else item.track.samplerate
        # In the gap after an item the position stays at that item's end.
        seconds = item.start + min(pos - offset, n) * self._speed / rate
        return PlayPosition(item.label, item.track.path, min(seconds, item.end), engine.paused)


def bead_play_items(project: Project, index: int, tracks: dict[str, AudioTrack | None],
                    sides: Sequence[str] = ("src", "tgt")) -> list[PlayItem]:
    """The spans of bead ``index`` to play, source first: one item per side that has times and audio.

    Args:
        tracks: ``{"src": AudioTrack | None, "tgt": AudioTrack | None}``.
        sides: which sides to play, in order.
    """
    if project.alignment is None or not 0 <= index < len(project.alignment):
        return []
    bead = project.alignment.beads[index]
    items = []
    for side in sides:
        track = tracks.get(side)
        if track is None:
            continue
        start, end = bead_times(bead, project.document(side), side)
        if start is None or end is None or end <= start:
            continue
        items.append(PlayItem(track, start, end, side))
    return items


def segment_play_item(project: Project, side: str, seg_id: int, track: AudioTrack | None) -> PlayItem | None:
    """The span of one segment, or None without times or audio."""
    if track is None:
        return None
    seg = project.document(side).get(seg_id)
    if seg.start is None or seg.end is None or seg.end <= seg.start:
        return None
    return PlayItem(track, seg.start, seg.end, side)
