"""A talk from recordings: which sides are machine transcripts, the parameters they align with, the one-line errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from sialign.core.errors import ModelNotFoundError, SialignError
from sialign.core.model import Document, Segment
from sialign.core.params import AlignParams
from sialign.workflows.aligning import align_params
from sialign.workflows.recordings import (
    RECORDING_DROP_THRESHOLD,
    align_recorded_talk,
    is_recording,
    machine_sides,
    recording_params,
    talk_from_recordings,
)
from sialign.workflows.talks import talk_from_documents


def doc(texts: list[str], language: str, *, timed: bool = True, fmt: str | None = None) -> Document:
    segments = [Segment(id=i, text=t, start=2.0 * i if timed else None, end=2.0 * i + 1.5 if timed else None, line=i + 1,
                        gap="" if i == 0 else "\n") for i, t in enumerate(texts)]
    return Document(language=language, segments=segments, format=fmt)


def test_recordings_are_told_from_transcripts_by_extension() -> None:
    assert is_recording("talk.en.ogg") and is_recording("Talk.JA.WAV") and is_recording("x.m4a")
    assert not is_recording("talk.en.srt") and not is_recording("talk.txt") and not is_recording("-")


def test_a_machine_transcript_side_gets_the_recording_settings() -> None:
    typed = talk_from_documents(doc(["Hello."], "en"), doc(["こんにちは。"], "ja"))
    assert machine_sides(typed) == set() and align_params(typed).lag_window == "widen"
    heard = talk_from_documents(doc(["Hello."], "en"), doc(["こんにちは。"], "ja", fmt="whisper"))
    assert machine_sides(heard) == {"tgt"}
    params = align_params(heard)
    assert params.lag_window == "fit" and not params.learned_score and params.drop_threshold == RECORDING_DROP_THRESHOLD
    # Transcribed in New talk (an SRT written by the Transcribe dialog): the project's metadata says so.
    noted = talk_from_documents(doc(["Hello."], "en", fmt="srt"), doc(["こんにちは。"], "ja"),
                                metadata={"source_transcript": "machine transcript (Whisper base), not corrected"})
    assert machine_sides(noted) == {"src"}
    # A talk's own parameters are never replaced.
    heard.params = AlignParams(drop_threshold=0.8)
    assert align_params(heard).drop_threshold == 0.8


def test_recording_params_keep_the_other_choices() -> None:
    base = AlignParams(embedder="lexical", max_tgt=6)
    params = recording_params(base)
    assert params.embedder == "lexical" and params.max_tgt == 6 and params.time_prior


def test_documents_make_a_talk_without_any_speech_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SIALIGN_MODEL_DIR", str(tmp_path / "models"))
    talk = talk_from_recordings(doc(["Hello."], "en"), doc(["こんにちは。"], "ja"), src_lang="en", tgt_lang="ja")
    assert talk.transcriptions == {} and talk.model is None and talk.project.target.language == "ja"


def test_a_recording_without_a_speech_model_is_a_one_line_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("faster_whisper")
    monkeypatch.setenv("SIALIGN_MODEL_DIR", str(tmp_path / "models"))
    from sialign.embed import models_registry as mr

    monkeypatch.setattr(mr, "bundled_model_dir", lambda: tmp_path / "bundled")
    with pytest.raises(ModelNotFoundError, match="no speech model is set") as caught:
        talk_from_recordings(tmp_path / "talk.en.ogg", doc(["こんにちは。"], "ja"), src_lang="en", tgt_lang="ja")
    assert "\n" not in str(caught.value) and caught.value.settings == ("speech_model",)


def test_aligning_on_the_clock_needs_times_on_both_sides() -> None:
    project = talk_from_documents(doc(["Hello."], "en", timed=False), doc(["こんにちは。"], "ja", fmt="whisper"))
    with pytest.raises(SialignError, match="the source has no times"):
        align_recorded_talk(project)


def test_transcribing_in_a_worker_process_gives_what_this_process_gives(whisper_model: Path, talk_clip: Path,
                                                                        tmp_path: Path) -> None:
    """*Transcribe…*'s way (a worker process of its own) and this process's hear the same; a cancel keeps nothing."""
    import shutil
    import time

    from sialign.core.errors import AlignmentCancelled
    from sialign.workflows.recordings import ToTranscribe, transcribe_recordings, transcribe_recordings_apart

    second = tmp_path / "again.wav"
    shutil.copy(talk_clip, second)
    jobs = [ToTranscribe(str(talk_clip), "source", "en"), ToTranscribe(str(second), "source", "en")]
    messages: list[str] = []
    apart = transcribe_recordings_apart(jobs, model=whisper_model, progress=lambda f, m: messages.append(m))
    here = transcribe_recordings(jobs, model=whisper_model)
    assert [t.document.texts() for t in apart] == [t.document.texts() for t in here]
    assert apart[0].document.texts()[0].startswith("Good morning")
    assert any(m.startswith("clip.wav: ") for m in messages) and any(m.startswith("again.wav: ") for m in messages)
    began = time.monotonic()
    with pytest.raises(AlignmentCancelled):
        transcribe_recordings_apart(jobs, model=whisper_model, should_stop=lambda: time.monotonic() - began > 1.0)
    assert time.monotonic() - began < 10.0


def test_a_language_the_model_does_not_hear_is_questioned_in_one_line() -> None:
    from sialign.workflows.recordings import LANGUAGE_DOUBT, language_doubt

    line = language_doubt("talk.ja.ogg", "en", "ja", 0.99)
    assert "talk.ja.ogg sounds like 'ja'" in line and "not 'en' as given" in line
    assert language_doubt("talk.ja.ogg", "ja", "ja", 0.99) == ""  # agrees
    assert language_doubt("talk.ja.ogg", "ja-JP", "ja", 0.99) == ""  # a region tag is the same language
    assert language_doubt("talk.ja.ogg", "en", "ja", LANGUAGE_DOUBT - 0.01) == ""  # not sure enough
    assert language_doubt("talk.ja.ogg", None, "ja", 0.99) == ""  # nothing given: the model chose
    assert language_doubt("talk.ja.ogg", "en", "", 0.0) == ""  # an English-only model hears nothing


def test_the_speech_model_hears_each_recordings_language(whisper_multilingual: Path, whisper_model: Path) -> None:
    from sialign.workflows.speech import detect_recording_language

    examples = Path(__file__).resolve().parents[2] / "resources" / "examples"
    language, probability = detect_recording_language(examples / "talk.ja.ogg", whisper_multilingual)
    assert language == "ja" and probability > 0.5
    assert detect_recording_language(examples / "talk.en.ogg", whisper_multilingual)[0] == "en"
    assert detect_recording_language(examples / "talk.ja.ogg", whisper_model) == ("", 0.0)  # tiny.en hears English only
