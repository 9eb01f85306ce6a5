"""Settings → Embedding model: listing, adding in a worker, default, removal."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest.importorskip("PySide6")

from sialign.embed import models_registry as mr
from sialign.gui.dialogs.model_settings import ModelSettingsDialog
from tiny_models import build_tiny_model

pytestmark = pytest.mark.gui


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_tiny_model(tmp_path_factory.mktemp("models") / "tiny-gui", dim=12)


@pytest.fixture
def registry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tiny_model: Path) -> mr.ModelRegistry:
    monkeypatch.setenv(mr.ENV_MODEL_DIR, str(tmp_path / "user-models"))
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hf-hub"))
    monkeypatch.setattr(mr, "packaged_models", lambda: [])  # the dev environment has one installed
    shutil.copytree(tiny_model, tmp_path / "bundled" / "shipped")
    monkeypatch.setattr(mr, "bundled_model_dir", lambda: tmp_path / "bundled")
    return mr.ModelRegistry()


@pytest.fixture
def dialog(qtbot, registry: mr.ModelRegistry) -> ModelSettingsDialog:
    dlg = ModelSettingsDialog(None, registry=registry)
    qtbot.addWidget(dlg)
    return dlg


def _row_texts(dlg: ModelSettingsDialog) -> list[str]:
    return [dlg.tree.topLevelItem(i).text(0) for i in range(dlg.tree.topLevelItemCount())]


def _wait_idle(qtbot, dlg: ModelSettingsDialog) -> None:
    qtbot.waitUntil(lambda: not dlg.busy, timeout=60000)


def test_model_settings_lists_builtin_and_bundled(dialog: ModelSettingsDialog) -> None:
    assert [(e.name, e.source) for e in dialog.entries()] == [
        ("use-multilingual", "built-in"),
        ("lexical", "built-in"),
        ("shipped", "bundled"),
    ]
    assert _row_texts(dialog)[0] == "use-multilingual  (automatic)"
    assert _row_texts(dialog)[1] == "lexical"
    assert dialog.selected_entry().name == "use-multilingual"
    assert "automatic" in dialog.active_label.text()
    # the built-in and bundled models are not the user's to remove
    assert not dialog.remove_button.isEnabled()
    dialog.select("shipped")
    assert not dialog.remove_button.isEnabled() and dialog.default_button.isEnabled()


def test_model_settings_add_folder_checks_in_worker(
    qtbot, dialog: ModelSettingsDialog, tiny_model: Path, registry: mr.ModelRegistry
) -> None:
    with qtbot.waitSignal(dialog.models_changed, timeout=60000):
        dialog.add_folder(tiny_model, name="mine")
        assert dialog.busy and not dialog.add_button.isEnabled()
    _wait_idle(qtbot, dialog)
    assert dialog.selected_entry().name == "mine"
    assert "Added 'mine' (12-dimensional vectors)" in dialog.message_label.text()
    assert (registry.model_dir / "mine" / "modules.json").is_file()
    assert dialog.remove_button.isEnabled() and dialog.add_button.isEnabled()


def test_model_settings_broken_folder_shows_reason(
    qtbot, dialog: ModelSettingsDialog, tiny_model: Path, tmp_path: Path, registry: mr.ModelRegistry
) -> None:
    broken = tmp_path / "broken"
    shutil.copytree(tiny_model, broken)
    (broken / "model.safetensors").write_bytes(b"x")
    dialog.add_folder(broken)
    _wait_idle(qtbot, dialog)
    assert dialog.message_label.property("error") is True
    assert "could not be loaded" in dialog.message_label.text()
    assert [e.name for e in dialog.entries()] == ["use-multilingual", "lexical", "shipped"]
    assert not (registry.model_dir / "broken").exists()


def test_model_settings_default_is_stored_and_signalled(qtbot, dialog: ModelSettingsDialog) -> None:
    dialog.select("shipped")
    with qtbot.waitSignal(dialog.default_changed) as blocker:
        dialog.default_button.click()
    assert blocker.args == ["shipped"]
    assert mr.default_model() == "shipped"
    assert "shipped  (default)" in _row_texts(dialog)
    assert "Default model: <b>shipped</b>" in dialog.active_label.text()


def test_model_settings_remove_user_model_clears_default(
    qtbot, dialog: ModelSettingsDialog, tiny_model: Path, registry: mr.ModelRegistry
) -> None:
    registry.add(tiny_model, name="gone-soon", make_default=True)
    dialog.refresh()
    assert "gone-soon  (default)" in _row_texts(dialog)
    assert dialog.select("gone-soon") and dialog.remove_button.isEnabled()
    with qtbot.waitSignal(dialog.default_changed) as blocker:
        dialog.remove_selected(confirm=False)
    assert blocker.args == [""]
    assert registry.default is None
    assert "gone-soon" not in [e.name for e in dialog.entries()]


def test_model_settings_check_reports_dimensions(qtbot, dialog: ModelSettingsDialog) -> None:
    dialog.select("shipped")
    dialog.check_button.click()
    _wait_idle(qtbot, dialog)
    qtbot.waitUntil(lambda: "works" in dialog.message_label.text(), timeout=5000)
    assert "12-dimensional" in dialog.message_label.text()


def test_model_settings_warns_when_active_model_vanished(qtbot, registry: mr.ModelRegistry) -> None:
    dlg = ModelSettingsDialog(None, registry=registry, active="deleted-model")
    qtbot.addWidget(dlg)
    assert dlg.message_label.property("error") is True
    assert "'deleted-model' is not available" in dlg.message_label.text()
    assert "uses <b>deleted-model</b>" in dlg.active_label.text()


def test_model_settings_says_the_multilingual_encoder_is_built_in(dialog: ModelSettingsDialog) -> None:
    from PySide6.QtWidgets import QLabel

    texts = " ".join(label.text() for label in dialog.findChildren(QLabel))
    assert "multilingual sentence encoder built in (use-multilingual" in texts and "ja" in texts
    assert "lexical embedder (lexical) is the fallback" in texts
