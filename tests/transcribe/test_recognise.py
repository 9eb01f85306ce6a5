"""Recognition with Whisper tiny.en: words and times, bad input as one-line errors, stopping keeps what is done."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sialign.core.errors import InputError, ModelLoadError, UnknownLanguageError
from sialign.transcribe import recognise, transcribe_file


def test_recognise_hears_the_words_with_times(whisper_model: Path, talk_clip: Path) -> None:
    seen: list[tuple[float, str]] = []
    heard = recognise(talk_clip, whisper_model, language="en", threads=2, progress=lambda f, m: seen.append((f, m)))
    text = "".join(w.text for w in heard.words).lower()
    assert "good morning" in text and "thank you for coming" in text and "bread" in text
    assert heard.language == "en" and not heard.interrupted
    assert heard.duration == pytest.approx(9.5, abs=0.05)
    starts = [w.start for w in heard.words]
    assert starts == sorted(starts) and 0.3 < starts[0] < 1.2  # the clip's speech starts at about 0.6 s
    assert all(w.end >= w.start for w in heard.words)
    assert seen and seen[-1][0] > 0.5 and "left" in seen[-1][1]
    fractions = [f for f, _ in seen]
    assert fractions == sorted(fractions)


def test_transcribe_file_gives_timed_sentences(whisper_model: Path, talk_clip: Path) -> None:
    result = transcribe_file(talk_clip, whisper_model, language="en", threads=2)
    doc = result.document
    assert len(doc) == 2 and doc.texts()[0].startswith("Good morning")
    assert doc.has_times and doc.format == "whisper" and doc.audio_path == str(talk_clip.resolve())
    assert doc.segments[0].end <= doc.segments[1].start


def test_should_stop_keeps_the_words_done(whisper_model: Path, talk_clip: Path) -> None:
    heard = recognise(talk_clip, whisper_model, language="en", threads=2, should_stop=lambda: True)
    assert heard.interrupted and heard.words and heard.done_until < heard.duration


def test_ctrl_c_keeps_the_words_done(whisper_model: Path, talk_clip: Path, whisper_interrupted_after_one_segment: None) -> None:
    heard = recognise(talk_clip, whisper_model, language="en", threads=2)
    assert heard.interrupted and heard.words


def _written(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda d: d / "missing.wav", "no such file"),
        (lambda d: _written(d / "empty.wav", b""), "empty \\(0 bytes\\)"),
        (lambda d: _written(d / "notes.wav", b"not audio at all\n" * 50), "not an audio or video file"),
        (lambda d: d, "a folder"),
    ],
    ids=["missing", "zero-bytes", "text-file", "folder"],
)
def test_bad_audio_is_a_one_line_error_naming_the_file(whisper_model: Path, tmp_path: Path, make, message: str) -> None:  # type: ignore[no-untyped-def]
    path = make(tmp_path)
    with pytest.raises(InputError, match=message) as info:
        recognise(path, whisper_model, language="en")
    assert str(path) in str(info.value) and "\n" not in str(info.value)


def test_silent_recording_is_an_error(whisper_model: Path, silent_wav: Path) -> None:
    with pytest.raises(InputError, match="silent"):
        recognise(silent_wav, whisper_model, language="en")


def test_noise_without_speech_is_an_error(whisper_model: Path, tmp_path: Path) -> None:
    import numpy as np
    import soundfile as sf

    path = tmp_path / "hum.wav"
    t = np.arange(16000 * 3) / 16000
    sf.write(str(path), (0.01 * np.sin(2 * np.pi * 50 * t)).astype("float32"), 16000)
    with pytest.raises(InputError, match="no speech was found"):
        recognise(path, whisper_model, language="en")


def test_unknown_language_and_english_only_model(whisper_model: Path, talk_clip: Path) -> None:
    with pytest.raises(UnknownLanguageError, match="'xx'"):
        recognise(talk_clip, whisper_model, language="xx")
    with pytest.raises(ModelLoadError, match="English-only"):
        recognise(talk_clip, whisper_model, language="ja")


def test_a_model_folder_of_the_wrong_kind_is_refused(tmp_path: Path, talk_clip: Path) -> None:
    sentence = tmp_path / "minilm"
    sentence.mkdir()
    (sentence / "modules.json").write_text("[]")
    (sentence / "config.json").write_text("{}")
    with pytest.raises(ModelLoadError, match="sentence-transformers model folder, not a Whisper"):
        recognise(talk_clip, sentence)
    translation = tmp_path / "opus-mt"
    translation.mkdir()
    (translation / "model.bin").write_bytes(b"\0")
    (translation / "config.json").write_text(json.dumps({"add_source_bos": False}))
    (translation / "shared_vocabulary.json").write_text("[]")
    with pytest.raises(ModelLoadError, match="CTranslate2 model, but not a Whisper one"):
        recognise(talk_clip, translation)
    with pytest.raises(ModelLoadError, match="not a Whisper model folder"):
        recognise(talk_clip, tmp_path)


@pytest.mark.parametrize("frozen", [False, True])
def test_without_a_speech_recogniser_transcribe_fails_in_one_line_first(monkeypatch, tmp_path, capsys, frozen) -> None:
    """No faster-whisper: pip's extra from a source install, a reinstall from an installer — before the model is looked for."""
    import sys

    from sialign.cli.main import main

    monkeypatch.setitem(sys.modules, "faster_whisper", None)
    if frozen:
        monkeypatch.setattr(sys, "frozen", True, raising=False)
    code = main(["transcribe", str(tmp_path / "talk.ogg"), "--model", str(tmp_path / "no-model"), "-o", str(tmp_path / "t.srt")])
    err = capsys.readouterr().err
    assert code != 0 and "Traceback" not in err and len(err.strip().splitlines()) == 1
    if frozen:
        assert "the speech recogniser of this installation does not load" in err and "reinstall SI Aligner" in err
    else:
        assert "faster-whisper is not installed" in err and "sialign[transcribe]" in err
    assert "no-model" not in err


def test_recordings_decode_with_soundfile_without_pyav(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """WAV, FLAC, OGG are read by libsndfile (every build has it): mixed to mono and brought to 16 kHz, PyAV never asked."""
    import faster_whisper
    import numpy as np
    import soundfile as sf

    from sialign.transcribe.recognise import SAMPLE_RATE, decode_audio_file

    def no_pyav(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise AssertionError("PyAV was used")

    monkeypatch.setattr(faster_whisper, "decode_audio", no_pyav)
    t = np.arange(44_100 * 2) / 44_100
    tone = 0.5 * np.sin(2 * np.pi * 440 * t)
    stereo = np.stack([tone, tone], axis=1).astype("float32")
    for name in ("tone.wav", "tone.flac", "tone.ogg"):
        sf.write(str(tmp_path / name), stereo, 44_100)
        _, samples = decode_audio_file(tmp_path / name)
        assert samples.dtype == np.float32 and samples.ndim == 1
        assert abs(samples.size - 2 * SAMPLE_RATE) <= 2 and 0.4 < float(np.max(np.abs(samples))) < 0.6


def test_the_recogniser_decodes_with_the_booths_decoder_as_the_whole_signal_would(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """One decoder to 16 kHz mono (sialign.audio.mono): block by block, sample for sample the whole-signal result."""
    import math

    import numpy as np
    import soundfile as sf

    from sialign.audio.resample import resample_poly
    from sialign.transcribe.recognise import decode_with_soundfile

    rate = 44100
    stereo = (np.random.default_rng(3).standard_normal((rate * 12 + 77, 2)) * 0.1).astype(np.float32)
    path = tmp_path / "two.wav"
    sf.write(str(path), stereo, rate, subtype="FLOAT")
    g = math.gcd(rate, 16000)
    whole = resample_poly(stereo.mean(axis=1), 16000 // g, rate // g).astype(np.float32)
    assert np.array_equal(decode_with_soundfile(path), whole)
    (tmp_path / "notes.txt").write_text("not audio")
    assert decode_with_soundfile(tmp_path / "notes.txt") is None  # PyAV is tried next
