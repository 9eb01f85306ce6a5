"""`sialign models` for speech models: list them with their languages, set the default that transcribe and retime use."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sialign.cli.main import EXIT_USAGE, main
from sialign.embed import models_registry as mr


@pytest.fixture
def model_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(mr.ENV_MODEL_DIR, str(tmp_path / "models"))
    monkeypatch.setattr(mr, "bundled_model_dir", lambda: tmp_path / "bundled")
    return tmp_path / "models"


def test_speech_models_listed_with_languages_and_defaulted(model_dir: Path, whisper_model: Path, whisper_multilingual: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["models", "list", "--speech"]) == 0
    assert "No speech model" in capsys.readouterr().out
    assert main(["models", "add", str(whisper_model), "--name", "tiny-en", "--link"]) == 0
    assert main(["models", "add", str(whisper_multilingual), "--name", "base", "--link"]) == 0
    capsys.readouterr()
    assert main(["models", "list", "--speech"]) == 0
    out = capsys.readouterr().out
    assert "multilingual (99 languages)" in out and "English only" in out and "base recognises: en, zh" in out
    assert "No default speech model" in out
    assert main(["models", "default", "--speech", "base"]) == 0
    assert capsys.readouterr().out.strip() == "Default speech model: base"
    assert main(["models", "list", "--speech", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert listed["default_whisper"] == "base"
    base = next(m for m in listed["models"] if m["name"] == "base")
    assert base["default"] and base["multilingual"] and "ja" in base["languages"]
    from sialign.transcribe.models import default_whisper_model

    assert default_whisper_model() == model_dir / "base"


def test_a_sentence_model_is_no_default_speech_model(model_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["models", "default", "--speech", "lexical"]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert "not a Whisper speech model" in err and "Traceback" not in err
