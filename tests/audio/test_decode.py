"""Decoding: every supported container, any rate and channel count, spans read by seeking."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from sialign.audio.decode import load_audio, mixdown, read_span, supported_formats
from sialign.core.errors import InputError

# (extension, libsndfile subtype, lossy): lossy codecs are compared by energy, not sample by sample.
FORMATS = [
    ("wav", "PCM_16", False),
    ("wav", "FLOAT", False),
    ("flac", "PCM_24", False),
    ("ogg", "VORBIS", True),
    ("ogg", "OPUS", True),
    ("mp3", "MPEG_LAYER_III", True),
]


def _tone(samplerate: int, seconds: float, channels: int) -> np.ndarray:
    t = np.arange(int(samplerate * seconds)) / samplerate
    chans = [0.5 * np.sin(2 * np.pi * (220 * (c + 1)) * t) for c in range(channels)]
    return np.stack(chans, axis=1).astype(np.float32)


@pytest.mark.parametrize("ext,subtype,lossy", FORMATS)
@pytest.mark.parametrize("channels", [1, 2])
def test_decode_reads_each_format(tmp_path: Path, ext: str, subtype: str, lossy: bool, channels: int) -> None:
    # Opus only encodes at 48 kHz (and its relatives); the others take a speech-typical 16 kHz.
    rate = 48000 if subtype == "OPUS" else 16000
    data = _tone(rate, 2.0, channels)
    path = tmp_path / f"tone.{ext}"
    sf.write(path, data, rate, subtype=subtype)
    track = load_audio(path)
    assert track.samplerate == rate
    assert track.channels == channels
    assert track.format == ext.upper()
    # MP3 reports its decoder delay/padding in the frame count; the others are exact.
    assert abs(track.duration - 2.0) < (0.1 if lossy else 1e-9)
    span = read_span(track, 0.5, 1.0)
    assert span.dtype == np.float32 and span.shape == (int(0.5 * rate), channels)
    expected = data[int(0.5 * rate) : int(1.0 * rate)]
    if lossy:
        # A 0.5-amplitude sine has RMS 0.354 per channel.
        assert np.sqrt(np.mean(span**2)) == pytest.approx(np.sqrt(np.mean(expected**2)), rel=0.15)
    else:
        np.testing.assert_allclose(span, expected, atol=1e-4)


@pytest.mark.parametrize("rate", [8000, 22050, 44100, 48000, 96000])
def test_decode_any_sample_rate_seek(tmp_path: Path, rate: int) -> None:
    data = _tone(rate, 1.0, 2)
    path = tmp_path / "t.flac"
    sf.write(path, data, rate)
    track = load_audio(path)
    span = read_span(track, 0.25, 0.5)
    np.testing.assert_allclose(span, data[round(0.25 * rate) : round(0.5 * rate)], atol=1e-4)


def test_decode_span_clamped_to_file(tmp_path: Path) -> None:
    path = tmp_path / "t.wav"
    sf.write(path, _tone(8000, 1.0, 1), 8000)
    track = load_audio(path)
    assert read_span(track, 0.9, 5.0).shape == (800, 1)
    assert read_span(track, 3.0, 4.0).shape == (0, 1)
    assert read_span(track, -1.0, 0.1).shape == (800, 1)


def test_decode_not_audio_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "notes.wav"
    path.write_text("this is a transcript, not audio\n")
    with pytest.raises(InputError) as info:
        load_audio(path)
    assert "notes.wav" in str(info.value) and "MP3" in str(info.value)


def test_decode_missing_file_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="missing.flac"):
        load_audio(tmp_path / "missing.flac")


def test_decode_mixdown_averages_channels() -> None:
    frames = np.array([[1.0, 0.0], [0.5, -0.5], [0.25, 0.75]], dtype=np.float32)
    np.testing.assert_array_equal(mixdown(frames), [0.5, 0.0, 0.5])
    np.testing.assert_array_equal(mixdown(frames[:, :1]), [1.0, 0.5, 0.25])


def test_decode_supported_formats_include_mp3() -> None:
    formats = supported_formats()
    for name in ("WAV", "FLAC", "OGG", "MP3"):
        assert name in formats
    assert "VORBIS" in formats["OGG"] and "MPEG_LAYER_III" in formats["MP3"]


@pytest.mark.parametrize("rate", [16000, 22050, 48000])
def test_decode_mp3_seek_matches_full_decode(tmp_path: Path, rate: int) -> None:
    # A plain seek in libsndfile's MP3 decoder yields silence for a while; read_span must not.
    path = tmp_path / "t.mp3"
    sf.write(path, _tone(rate, 6.0, 1), rate)
    full, _ = sf.read(path, dtype="float32", always_2d=True)
    track = load_audio(path)
    for start in (2.1, 4.3):
        span = read_span(track, start, start + 0.5)
        first = round(start * rate)
        np.testing.assert_allclose(span, full[first : first + span.shape[0]], atol=1e-5)
