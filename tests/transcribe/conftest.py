"""Fixtures of the transcription tests (Whisper tiny.en and the talk clip are in ``tests/conftest.py``: the CLI tests use them too)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest


@pytest.fixture(scope="session")
def silent_wav(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import soundfile as sf

    path = tmp_path_factory.mktemp("clips") / "silence.wav"
    sf.write(str(path), np.zeros(16000 * 3, dtype="float32"), 16000)
    return path


@pytest.fixture(scope="session")
def ja_clip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The first 38 s of the example's Japanese interpretation (chunks 1–22, the rendering of sentences 1–7)."""
    from example_clips import example_excerpt

    return example_excerpt(tmp_path_factory.mktemp("clips"), "talk.ja.ogg", 38.0)


@pytest.fixture(scope="session")
def en_clip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The first 34.3 s of the example's English source (sentences 1–7)."""
    from example_clips import example_excerpt

    return example_excerpt(tmp_path_factory.mktemp("clips"), "talk.en.ogg", 34.3)


@pytest.fixture(scope="session")
def ja_transcription(whisper_multilingual: Path, ja_clip: Path):  # type: ignore[no-untyped-def]
    """The Japanese clip transcribed once per session with the multilingual base model, as interpreter chunks."""
    from sialign.transcribe import transcribe_file

    return transcribe_file(ja_clip, whisper_multilingual, language="ja", role="interpretation", threads=2)
