"""Peak envelopes: every level equals a brute-force min/max, the cache is keyed by the file."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf
from hypothesis import given, settings
from hypothesis import strategies as st

from sialign.audio import envelope as envelope_mod
from sialign.audio.decode import load_audio
from sialign.audio.envelope import EnvelopePyramid, cache_key, compute_envelopes, load_envelopes
from sialign.core.errors import AlignmentCancelled


def _brute_force(mono: np.ndarray, block: int) -> tuple[np.ndarray, np.ndarray]:
    starts = range(0, mono.shape[0], block)
    return (np.array([mono[s : s + block].min() for s in starts], dtype=np.float32),
            np.array([mono[s : s + block].max() for s in starts], dtype=np.float32))


def _noise_file(path: Path, frames: int, channels: int, rate: int = 8000, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    data = (rng.standard_normal((frames, channels)) * 0.3).clip(-1, 1).astype(np.float32)
    sf.write(path, data, rate, subtype="FLOAT")
    return data


@pytest.mark.parametrize("channels", [1, 2, 3])
@pytest.mark.parametrize("frames", [1, 255, 256, 257, 100_003])
def test_envelope_levels_match_brute_force(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, channels: int, frames: int) -> None:
    # Small reads so the file is streamed in many chunks, including a partial last one.
    monkeypatch.setattr(envelope_mod, "READ_FRAMES", 4096)
    monkeypatch.setattr(envelope_mod, "COARSEST_BLOCKS", 4)
    data = _noise_file(tmp_path / "n.wav", frames, channels)
    mono = data.mean(axis=1, dtype=np.float32)
    pyramid = compute_envelopes(load_audio(tmp_path / "n.wav"), base_block=64, factor=4)
    assert pyramid.frames == frames
    assert [lv.block for lv in pyramid.levels] == [64 * 4**k for k in range(len(pyramid.levels))]
    assert len(pyramid.levels[-1]) <= 4
    for level in pyramid.levels:
        mins, maxs = _brute_force(mono, level.block)
        np.testing.assert_allclose(level.mins, mins, atol=1e-6)
        np.testing.assert_allclose(level.maxs, maxs, atol=1e-6)


@settings(max_examples=25, deadline=None)
@given(frames=st.integers(1, 5000), base=st.sampled_from([1, 7, 64]), factor=st.sampled_from([2, 3, 4]),
       read=st.sampled_from([64, 448, 1000]))
def test_envelope_property_any_block_layout(tmp_path_factory: pytest.TempPathFactory, frames: int, base: int,
                                            factor: int, read: int) -> None:
    path = tmp_path_factory.mktemp("env") / "p.wav"
    data = _noise_file(path, frames, 2, seed=frames)
    mono = data.mean(axis=1, dtype=np.float32)
    old = envelope_mod.READ_FRAMES, envelope_mod.COARSEST_BLOCKS
    envelope_mod.READ_FRAMES, envelope_mod.COARSEST_BLOCKS = read, 8
    try:
        pyramid = compute_envelopes(load_audio(path), base_block=base, factor=factor)
    finally:
        envelope_mod.READ_FRAMES, envelope_mod.COARSEST_BLOCKS = old
    for level in pyramid.levels:
        mins, maxs = _brute_force(mono, level.block)
        np.testing.assert_allclose(level.mins, mins, atol=1e-6)
        np.testing.assert_allclose(level.maxs, maxs, atol=1e-6)


def test_envelope_level_for_zoom(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(envelope_mod, "COARSEST_BLOCKS", 4)
    _noise_file(tmp_path / "n.wav", 8000 * 60, 1)
    pyramid = compute_envelopes(load_audio(tmp_path / "n.wav"))
    blocks = [lv.block for lv in pyramid.levels]
    assert blocks[0] == 256 and len(pyramid.levels[-1]) <= envelope_mod.COARSEST_BLOCKS
    # Whole minute in 1,000 points: 480 frames per point → the 256-frame level.
    assert pyramid.level_for(60 / 1000).block == 256
    # 10 frames per point (deep zoom) → still the finest.
    assert pyramid.level_for(10 / 8000).block == 256
    # 5,000 frames per point → the 4,096-frame level.
    assert pyramid.level_for(5000 / 8000).block == 4096


def test_envelope_visible_interleaves_min_max_inside_view(tmp_path: Path) -> None:
    data = _noise_file(tmp_path / "n.wav", 8000 * 20, 1)
    pyramid = compute_envelopes(load_audio(tmp_path / "n.wav"))
    x, y = pyramid.visible(5.0, 7.0, 200)
    level = pyramid.level_for(2.0 / 200)
    assert x.shape == y.shape and x.shape[0] % 2 == 0
    assert x[0] <= 5.0 + level.block / 8000 and x[-1] >= 7.0 - level.block / 8000
    # Drawn points never exceed ~2 per block of the chosen level plus margins.
    assert x.shape[0] <= 2 * (2.0 * 8000 / level.block + 4)
    assert np.all(y[0::2] <= y[1::2])
    lo, hi = data[5 * 8000 : 7 * 8000, 0].min(), data[5 * 8000 : 7 * 8000, 0].max()
    assert y.min() <= lo and y.max() >= hi
    assert pyramid.visible(30.0, 40.0, 100)[0].shape == (0,)


def test_envelope_cache_hit_and_invalidation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "a.wav"
    _noise_file(path, 20_000, 2)
    track = load_audio(path)
    cache = tmp_path / "cache"
    first = load_envelopes(track, cache_dir=cache)
    assert (cache / cache_key(track)).exists()

    def refuse(*args: object, **kwargs: object) -> EnvelopePyramid:
        raise AssertionError("recomputed although cached")

    monkeypatch.setattr(envelope_mod, "compute_envelopes", refuse)
    again = load_envelopes(track, cache_dir=cache)
    for a, b in zip(first.levels, again.levels):
        np.testing.assert_array_equal(a.mins, b.mins)
        np.testing.assert_array_equal(a.maxs, b.maxs)
    monkeypatch.undo()

    # A changed file (new size and mtime) gets a new key: no stale waveform.
    _noise_file(path, 30_000, 2, seed=5)
    os.utime(path, ns=(track.mtime_ns + 10**9, track.mtime_ns + 10**9))
    changed = load_audio(path)
    assert cache_key(changed) != cache_key(track)
    assert load_envelopes(changed, cache_dir=cache).frames == 30_000


def test_envelope_corrupt_cache_is_recomputed(tmp_path: Path) -> None:
    path = tmp_path / "a.wav"
    _noise_file(path, 5000, 1)
    track = load_audio(path)
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / cache_key(track)).write_bytes(b"truncated")
    assert load_envelopes(track, cache_dir=cache).frames == 5000


def test_envelope_cancel_and_progress(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(envelope_mod, "READ_FRAMES", 1024)
    _noise_file(tmp_path / "a.wav", 10_000, 1)
    track = load_audio(tmp_path / "a.wav")
    seen: list[float] = []
    compute_envelopes(track, progress=lambda f, m: seen.append(f))
    assert seen == sorted(seen) and seen[-1] == pytest.approx(1.0) and len(seen) >= 9
    calls = iter(range(100))
    with pytest.raises(AlignmentCancelled):
        compute_envelopes(track, should_stop=lambda: next(calls) >= 3)


@pytest.mark.parametrize("ext,subtype", [("flac", "PCM_16"), ("ogg", "VORBIS"), ("mp3", "MPEG_LAYER_III"), ("wav", "PCM_24")])
def test_envelope_compressed_formats_match_full_decode(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ext: str,
                                                       subtype: str) -> None:
    # Streaming a lossy file block by block must see exactly the samples a full decode sees.
    monkeypatch.setattr(envelope_mod, "READ_FRAMES", 8192)
    rng = np.random.default_rng(3)
    data = (rng.standard_normal((44100 * 3, 2)) * 0.2).clip(-1, 1).astype(np.float32)
    path = tmp_path / f"n.{ext}"
    sf.write(path, data, 44100, subtype=subtype)
    full, _ = sf.read(path, dtype="float32", always_2d=True)
    mono = full.mean(axis=1, dtype=np.float32)
    pyramid = compute_envelopes(load_audio(path), base_block=256)
    assert pyramid.frames == full.shape[0]
    for level in pyramid.levels:
        mins, maxs = _brute_force(mono, level.block)
        np.testing.assert_allclose(level.mins, mins, atol=1e-6)
        np.testing.assert_allclose(level.maxs, maxs, atol=1e-6)
