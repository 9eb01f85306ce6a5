"""The user models folder: add (checked by loading), list, remove, default."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from sialign.core.errors import InputError, ModelLoadError, ModelNotFoundError, SialignError
from sialign.embed import models_registry as mr
from tiny_models import build_tiny_model


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_tiny_model(tmp_path_factory.mktemp("models") / "tiny-static", dim=16)


@pytest.fixture
def registry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> mr.ModelRegistry:
    monkeypatch.setenv(mr.ENV_MODEL_DIR, str(tmp_path / "user-models"))
    monkeypatch.setattr(mr, "bundled_model_dir", lambda: tmp_path / "bundled")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hf-hub"))
    monkeypatch.setattr(mr, "packaged_models", lambda: [])  # the dev environment has one installed
    return mr.ModelRegistry()


def test_models_registry_user_model_dir_follows_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(mr.ENV_MODEL_DIR, str(tmp_path / "elsewhere"))
    assert mr.user_model_dir() == tmp_path / "elsewhere"
    monkeypatch.delenv(mr.ENV_MODEL_DIR)
    monkeypatch.delenv("SIALIGN_DATA_DIR", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    if sys.platform.startswith("linux"):
        assert mr.user_model_dir() == tmp_path / "xdg" / "sialign" / "models"
    assert mr.user_model_dir().name == "models"


@pytest.mark.parametrize(
    ("platform", "env", "expected_tail"),
    [
        ("linux", {"XDG_DATA_HOME": ""}, (".local", "share", "sialign")),
        ("darwin", {}, ("Library", "Application Support", "sialign")),
        ("win32", {"LOCALAPPDATA": ""}, ("AppData", "Local", "sialign")),
    ],
)
def test_models_registry_user_data_dir_per_platform(
    monkeypatch: pytest.MonkeyPatch, platform: str, env: dict[str, str], expected_tail: tuple[str, ...]
) -> None:
    import platformdirs.windows

    monkeypatch.setattr(sys, "platform", platform)
    monkeypatch.delenv("SIALIGN_DATA_DIR", raising=False)
    # Windows asks the shell for its folders; off Windows, answer as a default profile would.
    monkeypatch.setattr(
        platformdirs.windows, "get_win_folder", lambda csidl: str(Path.home() / "AppData" / "Local"), raising=False
    )
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    assert mr.user_data_dir().parts[-len(expected_tail):] == expected_tail


def test_models_registry_starts_empty_with_lexical(registry: mr.ModelRegistry) -> None:
    entries = registry.list_models()
    assert [(e.name, e.source) for e in entries] == [("use-multilingual", "built-in"), ("lexical", "built-in")]
    assert registry.default is None
    assert mr.default_model() is None
    assert not registry.registry_path.exists()  # reading never creates files


def test_models_registry_add_copies_checks_and_records(registry: mr.ModelRegistry, tiny_model: Path) -> None:
    entry = registry.add(tiny_model, name="tiny", make_default=True)
    assert entry.name == "tiny" and entry.source == "user" and entry.usable and not entry.linked
    assert entry.dim == 16
    copied = registry.model_dir / "tiny"
    assert (copied / "modules.json").is_file() and not copied.is_symlink()
    assert mr.default_model() == "tiny"
    data = json.loads(registry.registry_path.read_text(encoding="utf-8"))
    assert data["default"] == "tiny"
    assert data["models"]["tiny"]["origin"] == str(tiny_model.resolve())
    # a fresh registry object reads the same state back
    again = mr.ModelRegistry(registry.model_dir)
    assert [e.name for e in again.user_models()] == ["tiny"]
    assert mr.check_model_folder(copied).dim == 16


def test_models_registry_add_derives_name_from_folder(registry: mr.ModelRegistry, tiny_model: Path, tmp_path: Path) -> None:
    odd = tmp_path / "My Model (v2)"
    shutil.copytree(tiny_model, odd)
    entry = registry.add(odd)
    assert entry.name == "My-Model-v2"


def test_models_registry_link_removal_keeps_original(registry: mr.ModelRegistry, tiny_model: Path) -> None:
    entry = registry.add(tiny_model, name="linked", link=True)
    assert entry.linked and (registry.model_dir / "linked").is_symlink()
    registry.remove("linked")
    assert not (registry.model_dir / "linked").exists()
    assert (tiny_model / "modules.json").is_file()


def test_models_registry_remove_clears_default(registry: mr.ModelRegistry, tiny_model: Path) -> None:
    registry.add(tiny_model, name="tiny")
    registry.set_default("tiny")
    registry.remove("tiny")
    assert registry.default is None
    assert not (registry.model_dir / "tiny").exists()
    assert [e.name for e in registry.list_models()] == ["use-multilingual", "lexical"]


def test_models_registry_broken_folder_is_refused_and_nothing_copied(
    registry: mr.ModelRegistry, tiny_model: Path, tmp_path: Path
) -> None:
    broken = tmp_path / "broken"
    shutil.copytree(tiny_model, broken)
    (broken / "model.safetensors").write_bytes(b"truncated")
    with pytest.raises(ModelLoadError, match="could not be loaded.*copy the whole folder again"):
        registry.add(broken)
    assert not (registry.model_dir / "broken").exists()
    assert not list(registry.model_dir.glob(".*partial"))


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda root: root / "absent", "no such folder"),
        (lambda root: _touch(root / "weights.bin"), "is a file, not a folder"),
        (lambda root: _mkdir(root / "empty"), "not a sentence-transformers model folder"),
    ],
    ids=["missing", "file", "empty-folder"],
)
def test_models_registry_check_explains_what_is_wrong(tmp_path: Path, make, message: str) -> None:
    with pytest.raises(ModelLoadError, match=message):
        mr.check_model_folder(make(tmp_path))


def _touch(path: Path) -> Path:
    path.write_bytes(b"\0")
    return path


def _mkdir(path: Path) -> Path:
    path.mkdir()
    return path


@pytest.mark.parametrize("name", ["lexical", "use-multilingual", "", "has space", "-dash-first", "a/b", "x" * 81])
def test_models_registry_rejects_bad_names(registry: mr.ModelRegistry, tiny_model: Path, name: str) -> None:
    with pytest.raises(SialignError):
        registry.add(tiny_model, name=name, check=False)
    assert not registry.model_dir.exists() or not any(registry.model_dir.iterdir())


def test_models_registry_refuses_taken_name(registry: mr.ModelRegistry, tiny_model: Path) -> None:
    registry.add(tiny_model, name="tiny", check=False)
    with pytest.raises(SialignError, match="already"):
        registry.add(tiny_model, name="tiny", check=False)


def test_models_registry_lists_hand_copied_and_missing_folders(registry: mr.ModelRegistry, tiny_model: Path) -> None:
    registry.add(tiny_model, name="gone", check=False)
    shutil.rmtree(registry.model_dir / "gone")
    shutil.copytree(tiny_model, registry.model_dir / "dropped-in")
    (registry.model_dir / "junk").mkdir()
    status = {e.name: e.status for e in registry.user_models()}
    assert status == {"dropped-in": "ok", "gone": "folder missing", "junk": "not a model folder"}
    with pytest.raises(ModelLoadError, match="folder missing"):
        registry.set_default("gone")


def test_models_registry_set_default_accepts_lexical_and_rejects_unknown(registry: mr.ModelRegistry) -> None:
    registry.set_default("lexical")
    assert mr.default_model() == "lexical"
    with pytest.raises(ModelNotFoundError, match="no model named 'nope'.*Available: use-multilingual, lexical"):
        registry.set_default("nope")
    registry.set_default(None)
    assert mr.default_model() is None


def test_models_registry_bundled_and_hf_cache_are_listed_not_removable(
    registry: mr.ModelRegistry, tiny_model: Path, tmp_path: Path
) -> None:
    shutil.copytree(tiny_model, tmp_path / "bundled" / "shipped")
    snapshot = tmp_path / "hf-hub" / "models--org--encoder" / "snapshots" / "abc123"
    shutil.copytree(tiny_model, snapshot)
    (snapshot.parents[1] / "refs").mkdir()
    (snapshot.parents[1] / "refs" / "main").write_text("abc123")
    # a plain transformers checkpoint in the cache is not a sentence encoder: not listed
    plain = tmp_path / "hf-hub" / "models--org--bert" / "snapshots" / "def"
    plain.mkdir(parents=True)
    (plain / "config.json").write_text("{}")
    listed = [(e.name, e.source, e.path) for e in registry.list_models()]
    assert listed == [
        ("use-multilingual", "built-in", None),
        ("lexical", "built-in", None),
        ("shipped", "bundled", tmp_path / "bundled" / "shipped"),
        ("org/encoder", "hf-cache", snapshot),
    ]
    with pytest.raises(ModelNotFoundError, match="bundled model"):
        registry.remove("shipped")
    registry.set_default("org/encoder")
    assert registry.default == "org/encoder"


def test_models_registry_lists_models_of_pip_packages(
    tiny_model: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "pkgs").mkdir()
    (tmp_path / "pkgs" / "carries_tiny_model.py").write_text(
        f"def get_model_path():\n    return {str(tiny_model)!r}\n", encoding="utf-8"
    )
    (tmp_path / "pkgs" / "carries_nothing.py").write_text(
        "def get_model_path():\n    raise RuntimeError('damaged')\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(tmp_path / "pkgs"))
    monkeypatch.setattr(
        mr,
        "PACKAGED_MODELS",
        {
            "carries_tiny_model": (("tiny-packaged",), "get_model_path"),
            "carries_nothing": (("broken-packaged",), "get_model_path"),
            "not_installed_anywhere": (("absent",), "get_model_path"),
        },
    )
    listed = [(e.name, e.source, e.path, e.status) for e in mr.packaged_models()]
    assert listed == [
        ("tiny-packaged", "pip-package", tiny_model, "ok"),
        ("broken-packaged", "pip-package", None, "package broken"),
    ]


@pytest.mark.parametrize("content", ["{not json", "[1, 2]", '{"format": 99, "models": {}}'])
def test_models_registry_unreadable_file_names_itself(
    registry: mr.ModelRegistry, content: str
) -> None:
    registry.model_dir.mkdir(parents=True)
    registry.registry_path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError) as info:
        mr.ModelRegistry(registry.model_dir)
    assert str(registry.registry_path) in str(info.value)


def test_models_registry_folder_size_counts_files(tiny_model: Path) -> None:
    expected = sum(p.stat().st_size for p in tiny_model.rglob("*") if p.is_file())
    assert mr.folder_size(tiny_model) == expected > 0
