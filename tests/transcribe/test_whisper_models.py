"""Speech models: a folder's languages read from its files, the default the front ends and the booth ask for."""

from __future__ import annotations

from pathlib import Path

import pytest

from sialign.core.errors import ModelLoadError, ModelNotFoundError
from sialign.embed import models_registry as mr
from sialign.transcribe.models import default_whisper_info, default_whisper_model, whisper_model_info


@pytest.fixture
def registry_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SIALIGN_MODEL_DIR", str(tmp_path / "models"))
    monkeypatch.setattr(mr, "bundled_model_dir", lambda: tmp_path / "bundled")
    return tmp_path / "models"


def test_english_only_and_multilingual_models_are_told_apart(whisper_model: Path, whisper_multilingual: Path) -> None:
    english = whisper_model_info(whisper_model)
    assert not english.multilingual and english.languages == ("en",) and english.describe() == "English only"
    assert english.knows("en-US") and not english.knows("ja")
    base = whisper_model_info(whisper_multilingual, name="base")
    assert base.multilingual and len(base.languages) == 99 and base.languages[0] == "en"
    assert {"ja", "zh", "de", "pl"} <= set(base.languages) and base.knows("ja") and base.knows(None)
    assert base.describe() == "multilingual (99 languages)" and base.name == "base" and base.size_bytes > 100_000_000


def test_a_folder_that_is_no_whisper_model_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ModelLoadError, match="no such folder"):
        whisper_model_info(tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ModelLoadError, match="not a Whisper model folder"):
        whisper_model_info(tmp_path / "empty")


def test_default_speech_model_is_set_once_and_found_by_every_front_end(registry_dir: Path, whisper_model: Path,
                                                                        whisper_multilingual: Path) -> None:
    with pytest.raises(ModelNotFoundError, match="no speech model is set — add a Whisper model folder as the default") as caught:
        default_whisper_model()
    assert caught.value.settings == ("speech_model",)  # each front end says where (Settings → Speech models…, sialign models add)
    registry = mr.ModelRegistry()
    registry.add(whisper_model, name="tiny-en", link=True, check=False)
    assert default_whisper_model().name == "tiny-en"  # the only one
    registry.add(whisper_multilingual, name="base", link=True, check=False)
    with pytest.raises(ModelNotFoundError, match="no default speech model among base, tiny-en"):
        default_whisper_model()
    registry.set_default("base")
    assert default_whisper_model() == registry_dir / "base"
    info = default_whisper_info()
    assert info.name == "base" and info.multilingual
