"""Settings → Speech models: add a Whisper folder (checked first), see its languages, choose the default."""

from __future__ import annotations

from pathlib import Path

import pytest

from sialign.embed import models_registry as mr

pytestmark = pytest.mark.gui


@pytest.fixture
def registry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> mr.ModelRegistry:
    monkeypatch.setenv(mr.ENV_MODEL_DIR, str(tmp_path / "models"))
    monkeypatch.setattr(mr, "bundled_model_dir", lambda: tmp_path / "bundled")
    return mr.ModelRegistry()


def test_the_settings_menu_opens_speech_models(window, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from sialign.gui.dialogs import speech_models

    opened: list[object] = []
    monkeypatch.setattr(speech_models, "open_speech_models", lambda parent: opened.append(parent))
    settings = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Settings")
    assert window.act.speech_models in settings.actions()
    window.act.speech_models.trigger()
    assert opened == [window]


def test_add_a_folder_see_its_languages_and_choose_the_default(qtbot, registry: mr.ModelRegistry, whisper_model: Path,
                                                               whisper_multilingual: Path, tmp_path: Path) -> None:
    from sialign.gui.dialogs.speech_models import SpeechModelsDialog

    dialog = SpeechModelsDialog(registry=registry)
    qtbot.addWidget(dialog)
    assert dialog.entries() == [] and "No speech model yet" in dialog.default_label.text()
    # Not a Whisper model: refused at once, with what it is; nothing added.
    (tmp_path / "notes").mkdir()
    dialog.add_folder(tmp_path / "notes")
    assert "not a Whisper model folder" in dialog.message_label.text() and dialog.entries() == []
    # The first model added is checked (loaded once) and becomes the default.
    with qtbot.waitSignal(dialog.default_changed, timeout=60_000) as changed:
        dialog.add_folder(whisper_model, name="tiny-en")
    qtbot.waitUntil(lambda: not dialog.busy, timeout=10_000)
    assert changed.args == ["tiny-en"] and registry.default_whisper == "tiny-en"
    assert dialog.tree.topLevelItem(0).text(1) == "English only"
    assert "recognises English only" in dialog.languages_label.text()
    dialog.add_folder(whisper_multilingual, name="base")
    qtbot.waitUntil(lambda: not dialog.busy, timeout=60_000)
    assert "Added 'base'" in dialog.message_label.text(), dialog.message_label.text()
    assert dialog.selected_entry().name == "base"
    assert "99 languages" in dialog.languages_label.text() and ", ja," in dialog.languages_label.text()
    assert mr.ModelRegistry().default_whisper == "tiny-en"  # the default stays until the user chooses
    dialog.make_selected_default()
    from sialign.transcribe.models import default_whisper_model

    assert default_whisper_model().name == "base" and "(default)" in dialog.tree.currentItem().text(0)
    dialog.remove_selected(confirm=False)
    assert [e.name for e in dialog.entries()] == ["tiny-en"] and whisper_multilingual.is_dir()  # a link: the folder stays
    assert default_whisper_model().name == "tiny-en"  # the only one left
