"""Peak envelopes: min/max per block at several zoom levels, computed once by streaming.

A one-hour 48 kHz stereo talk is 173 million frames (1.4 GB as float32); the
waveform view never needs them all. One pass over the file (``soundfile.blocks``,
a few MB in memory at a time) yields the min and max of the channel mixdown
per ``base_block`` frames; each coarser level merges ``factor`` blocks of the
level below, so a view at any zoom draws at most a few thousand points.
The pyramid is cached on disk keyed by the file's path, size and mtime, so
reopening a project does not decode the audio again.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sialign.audio.decode import AudioTrack, file_signature, mixdown
from sialign.core.progress import ProgressFn, StopFn, check_stop

CACHE_FORMAT_VERSION = 1
DEFAULT_BASE_BLOCK = 256
DEFAULT_FACTOR = 4
# Stop adding levels once the coarsest one is this small: a whole 1-hour talk
# then draws from ~1,000 blocks.
COARSEST_BLOCKS = 1024
# Frames decoded per read; a multiple of every base block we use, so block
# boundaries never straddle two reads. 2**20 stereo float32 frames = 8 MB.
READ_FRAMES = 1 << 20


@dataclass
class EnvelopeLevel:
    """Min/max of the mixdown per block of ``block`` frames.

    Attributes:
        block: frames per block at this level.
        mins: float32 array of shape (n_blocks,).
        maxs: float32 array of shape (n_blocks,).
    """

    block: int
    mins: np.ndarray
    maxs: np.ndarray

    def __len__(self) -> int:
        return int(self.mins.shape[0])


@dataclass
class EnvelopePyramid:
    """Envelope levels from fine (``levels[0]``) to coarse, for one track.

    Attributes:
        samplerate: of the track (frames per second).
        frames: of the track.
        levels: finest first; ``levels[k].block == base_block * factor**k``.
    """

    samplerate: int
    frames: int
    levels: list[EnvelopeLevel]

    @property
    def duration(self) -> float:
        return self.frames / self.samplerate

    def level_for(self, seconds_per_point: float) -> EnvelopeLevel:
        """The coarsest level whose blocks are no longer than ``seconds_per_point``.

        Choosing the coarsest level that still resolves one block per screen
        point keeps the drawn arrays small; when even the finest level is too
        coarse (deep zoom) the finest is returned.
        """
        frames_per_point = seconds_per_point * self.samplerate
        best = self.levels[0]
        for level in self.levels:
            if level.block <= frames_per_point:
                best = level
        return best

    def visible(self, t0: float, t1: float, points: int) -> tuple[np.ndarray, np.ndarray]:
        """Envelope between ``t0`` and ``t1`` seconds for a view ``points`` wide, ready to draw.

        Returns:
            ``(x, y)``: float64 times and float32 values of shape (2 * n_blocks,),
            min and max interleaved per block so that one connected line
            traces the filled envelope.
        """
        t0 = max(0.0, t0)
        t1 = min(self.duration, t1)
        if t1 <= t0 or points <= 0:
            return np.zeros(0), np.zeros(0, dtype=np.float32)
        level = self.level_for((t1 - t0) / points)
        first = max(0, int(t0 * self.samplerate // level.block) - 1)
        last = min(len(level), int(t1 * self.samplerate // level.block) + 2)
        centers = (np.arange(first, last, dtype=np.float64) + 0.5) * level.block / self.samplerate
        x = np.repeat(centers, 2)
        y = np.empty(2 * (last - first), dtype=np.float32)
        y[0::2] = level.mins[first:last]
        y[1::2] = level.maxs[first:last]
        return x, y


def _coarsen(level: EnvelopeLevel, factor: int) -> EnvelopeLevel:
    """Merge ``factor`` consecutive blocks; the last, shorter group keeps what it has."""
    n = len(level)
    groups = -(-n // factor)
    pad = groups * factor - n
    mins = np.concatenate([level.mins, np.full(pad, np.inf, dtype=np.float32)]).reshape(groups, factor).min(axis=1)
    maxs = np.concatenate([level.maxs, np.full(pad, -np.inf, dtype=np.float32)]).reshape(groups, factor).max(axis=1)
    return EnvelopeLevel(level.block * factor, mins, maxs)


def _block_minmax(mono: np.ndarray, block: int) -> tuple[np.ndarray, np.ndarray]:
    """Min and max per ``block`` frames of a mono signal of shape (n,); the last block may be short."""
    n = mono.shape[0]
    full = n // block
    mins = np.empty(-(-n // block), dtype=np.float32)
    maxs = np.empty_like(mins)
    if full:
        shaped = mono[: full * block].reshape(full, block)
        shaped.min(axis=1, out=mins[:full])
        shaped.max(axis=1, out=maxs[:full])
    if n > full * block:
        mins[full] = mono[full * block :].min()
        maxs[full] = mono[full * block :].max()
    return mins, maxs


def compute_envelopes(
    track: AudioTrack,
    *,
    base_block: int = DEFAULT_BASE_BLOCK,
    factor: int = DEFAULT_FACTOR,
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
) -> EnvelopePyramid:
    """Stream the file once and build its envelope pyramid.

    Memory stays at one read buffer (``READ_FRAMES`` frames) plus the finest
    level (8 bytes per ``base_block`` frames: 5.4 MB for an hour at 48 kHz).

    Raises:
        AlignmentCancelled: when ``should_stop()`` turns True between reads.
    """
    import soundfile as sf

    if base_block <= 0 or factor < 2:
        raise ValueError("base_block must be positive and factor at least 2")
    read_frames = max(base_block, READ_FRAMES // base_block * base_block)
    n_blocks = -(-track.frames // base_block)
    mins = np.empty(n_blocks, dtype=np.float32)
    maxs = np.empty(n_blocks, dtype=np.float32)
    filled = 0
    done_frames = 0
    # Frames left over after the last whole block of a read: a decoder may
    # return a short read before the end, and blocks must stay aligned to
    # the file (frame k * base_block), not to reads.
    carry = np.zeros(0, dtype=np.float32)
    with sf.SoundFile(track.path) as fh:
        while True:
            check_stop(should_stop)
            chunk = fh.read(read_frames, dtype="float32", always_2d=True)
            at_end = chunk.shape[0] == 0
            mono = mixdown(chunk) if carry.shape[0] == 0 else np.concatenate([carry, mixdown(chunk)])
            whole = mono.shape[0] if at_end else mono.shape[0] // base_block * base_block
            carry = mono[whole:].copy()
            if whole:
                cmins, cmaxs = _block_minmax(mono[:whole], base_block)
                # MP3 frame counts in the header can be off by the decoder
                # delay: grow rather than trust them.
                if filled + len(cmins) > mins.shape[0]:
                    grow = np.empty(len(cmins), dtype=np.float32)
                    mins = np.concatenate([mins[:filled], grow])
                    maxs = np.concatenate([maxs[:filled], grow])
                mins[filled : filled + len(cmins)] = cmins
                maxs[filled : filled + len(cmaxs)] = cmaxs
                filled += len(cmins)
            done_frames += chunk.shape[0]
            if at_end:
                break
            if progress is not None:
                progress(min(1.0, done_frames / max(1, track.frames)), f"Reading {track.name}")
    levels = [EnvelopeLevel(base_block, mins[:filled].copy(), maxs[:filled].copy())]
    while len(levels[-1]) > COARSEST_BLOCKS:
        levels.append(_coarsen(levels[-1], factor))
    return EnvelopePyramid(samplerate=track.samplerate, frames=done_frames, levels=levels)


def default_cache_dir() -> Path:
    """Where envelopes are cached: ``envelopes/`` in the user's cache folder (see :mod:`sialign.core.paths`)."""
    from sialign.core.paths import envelope_cache_dir

    return envelope_cache_dir()


def cache_key(track: AudioTrack, base_block: int = DEFAULT_BASE_BLOCK, factor: int = DEFAULT_FACTOR) -> str:
    """A file name that changes when the audio file (path, size, mtime) or the envelope layout does."""
    text = f"v{CACHE_FORMAT_VERSION}|{file_signature(track)}|{base_block}|{factor}"
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:24] + ".npz"


def save_envelopes(pyramid: EnvelopePyramid, path: Path) -> None:
    from sialign.core.atomic import atomic_write_bytes

    arrays: dict[str, np.ndarray] = {
        "meta": np.array([pyramid.samplerate, pyramid.frames, len(pyramid.levels)], dtype=np.int64),
    }
    for k, level in enumerate(pyramid.levels):
        arrays[f"block{k}"] = np.array([level.block], dtype=np.int64)
        arrays[f"mins{k}"] = level.mins
        arrays[f"maxs{k}"] = level.maxs
    buffer = io.BytesIO()
    np.savez(buffer, allow_pickle=False, **arrays)
    atomic_write_bytes(path, buffer.getvalue())


def read_envelopes(path: Path) -> EnvelopePyramid:
    with np.load(path) as data:
        samplerate, frames, n_levels = (int(v) for v in data["meta"])
        levels = [
            EnvelopeLevel(int(data[f"block{k}"][0]), data[f"mins{k}"].astype(np.float32), data[f"maxs{k}"].astype(np.float32))
            for k in range(n_levels)
        ]
    return EnvelopePyramid(samplerate=samplerate, frames=frames, levels=levels)


def load_envelopes(
    track: AudioTrack,
    *,
    cache_dir: str | Path | None = None,
    base_block: int = DEFAULT_BASE_BLOCK,
    factor: int = DEFAULT_FACTOR,
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
) -> EnvelopePyramid:
    """The track's envelope pyramid from the cache, or computed (and cached) on a miss.

    A cache file that cannot be read (truncated by a crash, older layout) is
    a miss: envelopes are a pure function of the audio, so recomputing them
    loses nothing. A cache folder that cannot be written only costs speed
    next time, so that failure is not raised either.
    """
    folder = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    path = folder / cache_key(track, base_block, factor)
    if path.exists():
        try:
            pyramid = read_envelopes(path)
            if pyramid.samplerate == track.samplerate and pyramid.levels and pyramid.levels[0].block == base_block:
                if progress is not None:
                    progress(1.0, f"Loaded the waveform of {track.name} from the cache")
                return pyramid
        except (OSError, ValueError, KeyError, EOFError):
            pass
    pyramid = compute_envelopes(track, base_block=base_block, factor=factor, progress=progress, should_stop=should_stop)
    try:
        save_envelopes(pyramid, path)
    except OSError:
        pass
    return pyramid
