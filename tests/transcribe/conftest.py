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
