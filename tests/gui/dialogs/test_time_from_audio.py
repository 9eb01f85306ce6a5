"""Align → Time from audio…: the dialog says what will happen and which speech model hears the recording; the times come back as one undoable step.

The recognition itself is tested in tests/transcribe.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sialign.core.segment_edits import SetTimes
from sialign.transcribe import RetimeStats

pytestmark = pytest.mark.gui


def fake_whisper(folder: Path, *, multilingual: bool = True) -> Path:
    """A folder with a Whisper model's files (not loadable): what the dialogs read without loading it."""
    folder.mkdir(parents=True)
    (folder / "model.bin").write_bytes(b"\0")
    tokens = ["x"] * 50258 + ["<|startoftranscript|>", "<|en|>", "<|zh|>", "<|de|>", "<|ja|>"]
    tokens += ["y"] * ((51865 if multilingual else 51864) - len(tokens))
    (folder / "vocabulary.txt").write_text("\n".join(tokens), encoding="utf-8")
    (folder / "config.json").write_text(json.dumps({"suppress_ids": [1], "lang_ids": [50259, 50260, 50261, 50262]}))
    return folder


@pytest.fixture
def speech_model(tmp_path: Path) -> Path:
    """A multilingual speech model made the default, as Settings → Speech models does."""
    from sialign.embed.models_registry import ModelRegistry

    folder = fake_whisper(tmp_path / "base")
    ModelRegistry().add(folder, name="base", link=True, check=False, make_default=True)
    return folder


def with_recordings(project, tmp_path: Path):  # type: ignore[no-untyped-def]
    for side in ("source", "target"):
        audio = tmp_path / f"{side}.wav"
        audio.write_bytes(b"RIFF")
        getattr(project, side).audio_path = str(audio)
    return project


def visible_text(dialog) -> str:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QAbstractButton, QLabel

    labels = [w.text() for w in dialog.findChildren(QLabel) if w.isVisibleTo(dialog)]
    return "\n".join(labels + [b.text() for b in dialog.findChildren(QAbstractButton)])


def test_time_from_audio_applies_one_undoable_edit(window, qtbot, monkeypatch, tmp_path: Path, speech_model: Path) -> None:  # type: ignore[no-untyped-def]
    from sialign.embed.models_registry import ModelRegistry
    from sialign.gui.dialogs.time_from_audio import TimeFromAudioDialog
    from sialign.workflows import retiming

    project = with_recordings(window.session.project, tmp_path)
    before = [(s.start, s.end) for s in project.source.segments]
    asked: list[tuple[str, Path]] = []

    def fake_retime(proj, side, model, **kwargs):  # type: ignore[no-untyped-def]
        asked.append((side, Path(model)))
        times = tuple((s.id, 10.0 + i, 10.5 + i) for i, s in enumerate(proj.document(side).segments))
        return retiming.RetimeResult(SetTimes(side, times, label="Time the source from its recording"),
                                     RetimeStats(tokens=10, matched=9, segments=len(times), timed_from_words=len(times)))

    def choose_source(dialog):  # type: ignore[no-untyped-def]
        dialog.buttons_by_side["src"].setChecked(True)
        return 1

    monkeypatch.setattr(TimeFromAudioDialog, "exec", choose_source)
    monkeypatch.setattr(retiming, "retime_side", fake_retime)
    window.act.time_from_audio.trigger()
    qtbot.waitUntil(lambda: project.source.segments[0].start == 10.0, timeout=10_000)
    assert asked == [("src", ModelRegistry().whisper_folder("base"))] and asked[0][1].resolve() == speech_model and project.source.segments[1].start == 11.0
    assert "9 of 10 words found" in window.statusBar().currentMessage()
    window.session.undo_stack.undo()
    assert [(s.start, s.end) for s in project.source.segments] == before


def test_a_transcript_with_times_is_said_to_be_replaced(qtbot, project, tmp_path: Path, speech_model: Path) -> None:  # type: ignore[no-untyped-def]
    from sialign.gui.dialogs.time_from_audio import TimeFromAudioDialog

    dialog = TimeFromAudioDialog(with_recordings(project, tmp_path))
    qtbot.addWidget(dialog)
    dialog.buttons_by_side["tgt"].setChecked(True)
    text = visible_text(dialog)
    assert "Speech model: <b>base</b> — multilingual (4 languages)" in text
    assert "already has times: they will be replaced" in text and dialog.ok_button.isEnabled()
    assert "--" not in text  # no command-line wording in the app


def test_without_a_speech_model_the_dialog_says_so_and_opens_speech_models(qtbot, project, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from sialign.embed.models_registry import ModelRegistry
    from sialign.gui.dialogs import speech_models
    from sialign.gui.dialogs.time_from_audio import TimeFromAudioDialog

    dialog = TimeFromAudioDialog(with_recordings(project, tmp_path))
    qtbot.addWidget(dialog)
    assert "No speech model" in dialog.model_label.text() and not dialog.ok_button.isEnabled()
    assert "--" not in visible_text(dialog)

    def user_adds_one(parent):  # type: ignore[no-untyped-def]
        ModelRegistry().add(fake_whisper(tmp_path / "small"), name="small", link=True, check=False, make_default=True)
        return "small"

    monkeypatch.setattr(speech_models, "open_speech_models", user_adds_one)
    dialog.models_button.click()
    assert "Speech model: <b>small</b>" in dialog.model_label.text() and dialog.ok_button.isEnabled()


def test_a_side_without_recording_or_an_english_only_model_cannot_start(qtbot, project, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from sialign.embed.models_registry import ModelRegistry
    from sialign.gui.dialogs.time_from_audio import TimeFromAudioDialog

    ModelRegistry().add(fake_whisper(tmp_path / "base.en", multilingual=False), name="base-en", link=True, check=False,
                        make_default=True)
    project.target.audio_path = None
    dialog = TimeFromAudioDialog(project)
    qtbot.addWidget(dialog)
    dialog.buttons_by_side["tgt"].setChecked(True)
    assert "no recording that can be played" in dialog.message.text() and not dialog.ok_button.isEnabled()
    audio = tmp_path / "ja.wav"
    audio.write_bytes(b"RIFF")
    project.target.audio_path = str(audio)
    dialog = TimeFromAudioDialog(project)
    qtbot.addWidget(dialog)
    dialog.buttons_by_side["tgt"].setChecked(True)
    assert "recognises English only" in dialog.message.text() and not dialog.ok_button.isEnabled()
