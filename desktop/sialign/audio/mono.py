"""A recording as one channel of float32 at a chosen rate, decoded and resampled block by block.

The one decoder to a mono rate: the booth plays the talk at the device's
rate and feeds the live recogniser 16 kHz (:class:`StreamResampler`), and
the recogniser reads a whole recording at 16 kHz (:func:`read_mono`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import numpy as np


class StreamResampler:
    """Resample a stream block by block, giving the samples ``resample_poly`` gives for the whole signal.

    Each step resamples a window that reaches ``pad`` input samples beyond the
    part it keeps on both sides (the polyphase filter's half-length and
    more), so block edges leave no trace; windows start on multiples of
    ``down`` so every block lands on the whole signal's output grid. A block
    comes out ``pad`` input samples after it went in (a few milliseconds).
    """

    def __init__(self, src_rate: int, dst_rate: int) -> None:
        from sialign.audio.player import resample_ratio

        self.up, self.down = resample_ratio(src_rate, dst_rate)
        half = 10 * max(self.up, self.down) / self.up  # resample_poly's default filter half-length, in input samples
        self.pad = self.down * math.ceil((half + 8) / self.down)
        self._buf = np.zeros(0, dtype=np.float32)
        self._cur = 0  # index in _buf of the first input sample not yet resampled
        self._in = 0
        self._out = 0

    def _resample(self, window: np.ndarray) -> np.ndarray:
        if (self.up, self.down) == (1, 1):
            return window.astype(np.float32, copy=True)
        from sialign.audio.resample import resample_poly

        return resample_poly(window, self.up, self.down).astype(np.float32)

    def push(self, samples: np.ndarray) -> np.ndarray:
        """Add mono samples; returns the resampled samples that are now final (maybe none)."""
        samples = np.asarray(samples, dtype=np.float32).reshape(-1)
        self._in += samples.size
        buf = np.concatenate((self._buf, samples)) if self._buf.size else samples.copy()
        ready = ((buf.size - self._cur - self.pad) // self.down) * self.down
        if ready <= 0:
            self._buf = buf
            return np.zeros(0, dtype=np.float32)
        y = self._resample(buf[: self._cur + ready + self.pad])
        first = self._cur * self.up // self.down
        out = y[first : first + ready * self.up // self.down]
        cursor = self._cur + ready
        keep = max(0, cursor - self.pad)
        self._buf = buf[keep:]
        self._cur = cursor - keep
        self._out += out.size
        return out

    def flush(self) -> np.ndarray:
        """The rest, at the end of the stream (the signal is taken to be silent after its end)."""
        total = math.ceil(self._in * self.up / self.down)
        tail = self.push(np.zeros(self.pad + self.down, dtype=np.float32))
        self._in -= self.pad + self.down
        keep = max(0, total - (self._out - tail.size))
        self._out = total
        return tail[:keep]


def read_mono(path: str | Path, rate: int, *, block_s: float = 10.0,
              should_stop: Callable[[], bool] | None = None) -> np.ndarray:
    """A recording as one channel of float32 at ``rate``, decoded and resampled block by block.

    Returns:
        float32 array of shape (n,), ``n = ceil(frames × rate / file rate)``.

    Raises:
        InputError: the file cannot be decoded (names it).
        AlignmentCancelled: ``should_stop()`` said so.
    """
    from sialign.audio.decode import load_audio, mixdown, read_span
    from sialign.core.progress import check_stop

    track = load_audio(path)
    resampler = StreamResampler(track.samplerate, rate)
    parts: list[np.ndarray] = []
    t = 0.0
    while t < track.duration:
        check_stop(should_stop)
        parts.append(resampler.push(mixdown(read_span(track, t, t + block_s))))
        t += block_s
    parts.append(resampler.flush())
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.float32)
