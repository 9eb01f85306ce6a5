"""A fake audio output for playback tests: no sound device, the test drives the stream's callback.

Used by ``tests/audio/test_player.py`` and ``tests/gui/audio/test_audio_panel.py``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np


class FakeStop(Exception):
    """Stands in for sounddevice.CallbackStop."""


class FakeStream:
    """Drives the player's callback like PortAudio would, block by block, on the test's thread."""

    def __init__(self, callback: Callable[..., None], finished: Callable[[], None], channels: int) -> None:
        self.callback = callback
        self.finished = finished
        self.channels = channels
        self.active = False
        self.closed = False
        self.played: list[np.ndarray] = []

    def start(self) -> None:
        self.active = True

    def stop(self) -> None:
        if self.active:
            self.active = False
            self.finished()

    def close(self) -> None:
        self.closed = True

    def pump(self, frames: int) -> bool:
        """One callback of ``frames`` frames; False once the stream has stopped."""
        if not self.active:
            return False
        out = np.full((frames, self.channels), 9.0, dtype=np.float32)  # garbage the callback must overwrite
        try:
            self.callback(out, frames, None, None)
        except FakeStop:
            self.active = False
            self.played.append(out)
            self.finished()
            return False
        self.played.append(out)
        return True

    def run(self, frames: int = 256, limit: int = 10_000) -> np.ndarray:
        for _ in range(limit):
            if not self.pump(frames):
                break
        return np.concatenate(self.played) if self.played else np.zeros((0, self.channels), np.float32)


class FakeOutput:
    """An audio output for :class:`sialign.audio.player.Player` whose streams the test pumps by hand."""

    callback_stop: type[BaseException] = FakeStop
    name = "fake output"

    def __init__(self, samplerate: int = 8000, channels: int = 2) -> None:
        self.samplerate = samplerate
        self.channels = channels
        self.streams: list[FakeStream] = []

    def open_stream(self, callback: Callable[..., None], finished_callback: Callable[[], None]) -> FakeStream:
        self.streams.append(FakeStream(callback, finished_callback, self.channels))
        return self.streams[-1]


class FakeDuplexStream:
    """A full-duplex stream for :class:`sialign.booth.recorder.BoothRecorder`: the test (or a thread) drives the callback.

    Made by :class:`FakeDuplexFactory` with sounddevice's ``Stream`` keyword arguments. The microphone is
    ``microphone(first_frame, frames)`` (default: a 440 Hz tone at -10 dBFS, so every sample's stream frame can be
    checked in the file); what the callback writes to the output is kept in ``played``.
    """

    def __init__(self, factory: FakeDuplexFactory, **kwargs: object) -> None:
        self.kwargs = kwargs
        self.samplerate = float(kwargs["samplerate"])  # type: ignore[arg-type]
        self.channels = kwargs["channels"]
        self.callback = kwargs["callback"]
        self.latency = factory.latency
        self.microphone = factory.microphone
        self.active = False
        self.closed = False
        self.frames_done = 0
        self.played: list[np.ndarray] = []
        self._thread: object = None

    def start(self) -> None:
        self.active = True

    def stop(self) -> None:
        self.active = False
        thread = self._thread
        if thread is not None:
            thread.join()  # type: ignore[attr-defined]

    def close(self) -> None:
        self.closed = True

    def pump(self, frames: int = 480, status: object = None) -> None:
        """One callback of ``frames`` frames."""
        out_channels = self.channels[1]  # type: ignore[index]
        indata = self.microphone(self.frames_done, frames).reshape(frames, 1).astype(np.float32)
        outdata = np.full((frames, out_channels), 9.0, dtype=np.float32)  # garbage the callback must overwrite
        self.callback(indata, outdata, frames, None, status)  # type: ignore[operator]
        self.frames_done += frames
        self.played.append(outdata)

    def run_in_thread(self, frames: int = 480, speed: float = 1.0) -> None:
        """Call back from a thread of its own at ``speed`` × real time, as PortAudio does, until ``stop``."""
        import threading
        import time

        def loop() -> None:
            began = time.monotonic()
            while self.active:
                self.pump(frames)
                wait = began + self.frames_done / self.samplerate / speed - time.monotonic()
                if wait > 0:
                    time.sleep(wait)

        thread = threading.Thread(target=loop, name="fake-portaudio", daemon=True)
        self._thread = thread
        thread.start()

    def output(self) -> np.ndarray:
        return np.concatenate(self.played) if self.played else np.zeros((0, self.channels[1]), np.float32)  # type: ignore[index]


def tone(first: int, frames: int, rate: float = 48000.0) -> np.ndarray:
    """The fake microphone's default: 440 Hz at amplitude 0.3, continuous across blocks."""
    t = (np.arange(first, first + frames) / rate).astype(np.float64)
    return (0.3 * np.sin(2 * np.pi * 440.0 * t)).astype(np.float32)


class FakeDuplexFactory:
    """The ``stream_factory`` of a :class:`BoothRecorder` under test; keeps the streams it made."""

    def __init__(self, latency: tuple[float, float] = (0.01, 0.02),
                 microphone: Callable[[int, int], np.ndarray] | None = None) -> None:
        self.latency = latency
        self.microphone = microphone or tone
        self.streams: list[FakeDuplexStream] = []

    def __call__(self, **kwargs: object) -> FakeDuplexStream:
        self.streams.append(FakeDuplexStream(self, **kwargs))
        return self.streams[-1]


class FakeLoopbackStream(FakeDuplexStream):
    """A headset with an ear cup held to its microphone: the microphone hears the output ``delay`` frames later.

    Made by :class:`FakeLoopbackFactory`; starting it calls back from a thread of its own, as PortAudio does.
    """

    def __init__(self, factory: FakeLoopbackFactory, **kwargs: object) -> None:
        super().__init__(factory, **kwargs)  # type: ignore[arg-type]
        self.loop = factory

    def start(self) -> None:
        self.active = True
        if self.loop.speed > 0:  # 0: the test pumps by hand
            self.run_in_thread(frames=self.loop.block, speed=self.loop.speed)

    def pump(self, frames: int = 480, status: object = None) -> None:
        out_channels = self.channels[1]  # type: ignore[index]
        played = self.output()[:, 0] if self.played else np.zeros(0, np.float32)
        first = self.frames_done - self.loop.delay
        heard = np.zeros(frames, dtype=np.float32)  # the output as the microphone hears it, delay frames later
        lo, hi = max(0, first), min(played.size, first + frames)
        if hi > lo:
            heard[lo - first : hi - first] = played[lo:hi]
        rng = np.random.default_rng(self.frames_done)
        indata = (self.loop.gain * heard + self.loop.noise * rng.standard_normal(frames)).astype(np.float32).reshape(frames, 1)
        outdata = np.full((frames, out_channels), 9.0, dtype=np.float32)
        self.callback(indata, outdata, frames, None, status)  # type: ignore[operator]
        self.frames_done += frames
        self.played.append(outdata)


class FakeLoopbackFactory(FakeDuplexFactory):
    """Streams whose microphone hears their own output after ``delay`` frames (at least one block), scaled by ``gain``,
    with white noise of standard deviation ``noise``; the reported latency is ``latency``."""

    def __init__(self, delay: int, *, gain: float = 0.3, noise: float = 0.001, latency: tuple[float, float] = (0.01, 0.02),
                 block: int = 256, speed: float = 20.0) -> None:
        super().__init__(latency=latency)
        assert delay >= block, "the microphone cannot hear a block before it is played"
        self.delay, self.gain, self.noise, self.block, self.speed = delay, gain, noise, block, speed

    def __call__(self, **kwargs: object) -> FakeDuplexStream:
        self.streams.append(FakeLoopbackStream(self, **kwargs))
        return self.streams[-1]
