"""A fake audio output for playback tests: no sound device, the test drives the stream's callback.

Used by ``tests/audio/test_player.py`` and ``tests/gui/test_audio_panel.py``.
"""

from __future__ import annotations

from typing import Callable

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
