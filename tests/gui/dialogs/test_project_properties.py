"""File → Project properties… and Locate… for a recording that moved; audio opened off the GUI thread."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import soundfile as sf
from PySide6.QtWidgets import QFileDialog, QMessageBox

from sialign.audio.player import Player
from sialign.core.model import Project
from sialign.gui.common.session import ProjectSession
from sialign.gui.dialogs.project_properties import ProjectPropertiesDialog
from sialign.gui.main.main_window import APP_NAME, MainWindow
from sialign.io.project_file import save_project

pytestmark = pytest.mark.gui


class SilentOutput:
    """An output device that never plays (no sound stack needed)."""

    name = "test output"
    samplerate = 48000
    channels = 2
    callback_stop = StopIteration

    def open_stream(self, callback: Any, finished: Any) -> Any:
        raise AssertionError("nothing is played in these tests")


def write_wav(path: Path, seconds: float = 2.0) -> Path:
    rate = 8000
    sf.write(path, (0.1 * np.sin(np.arange(int(seconds * rate)) / 5.0)).astype(np.float32), rate)
    return path


def saved_project(make_project: Any, folder: Path, *, source_audio: str | None, target_audio: str | None) -> Path:
    project: Project = make_project()
    project.source.audio_path = source_audio
    project.target.audio_path = target_audio
    path = folder / "water.sialign"
    project.path = str(path)  # the audio paths given are as the file stores them (relative ones from its folder)
    save_project(project, path)
    return path


def resolved(project: Project, raw: str | None) -> Path | None:
    from sialign.core.paths import resolve_project_path

    return resolve_project_path(raw, project.path)


@pytest.fixture
def bare_window(qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> MainWindow:
    """A main window with nothing open; questions answer Discard, warnings fail the test."""
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Discard)
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text, *a: pytest.fail(f"{title}: {text}"))
    window = MainWindow(ProjectSession())
    window.audio_panel.player = Player(output_factory=SilentOutput)
    qtbot.addWidget(window)
    window.show()
    return window


def answer_message_boxes(monkeypatch: pytest.MonkeyPatch, button_text: str) -> list[str]:
    """Every QMessageBox.exec clicks the button labelled ``button_text``; returns the texts shown."""
    shown: list[str] = []

    def fake_exec(box: QMessageBox) -> int:
        shown.append(box.text())
        for button in box.buttons():
            if button.text() == button_text:
                button.click()
                return 0
        raise AssertionError(f"no {button_text!r} button in {[b.text() for b in box.buttons()]}")

    monkeypatch.setattr(QMessageBox, "exec", fake_exec)
    return shown


def test_empty_window_is_titled_with_the_application_name(bare_window: MainWindow) -> None:
    assert bare_window.windowTitle() == APP_NAME
    assert "not saved" not in bare_window.windowTitle()


def test_missing_audio_on_open_offers_locate(bare_window: MainWindow, qtbot: Any, make_project: Any,
                                             tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "moved").mkdir()
    moved = write_wav(tmp_path / "moved" / "source.wav")
    path = saved_project(make_project, tmp_path, source_audio=str(tmp_path / "gone" / "source.wav"), target_audio=None)
    shown = answer_message_boxes(monkeypatch, "Locate…")
    starts: list[str] = []

    def choose(parent: Any, caption: str, start: str, file_filter: str) -> tuple[str, str]:
        starts.append(start)
        return str(moved), ""

    monkeypatch.setattr(QFileDialog, "getOpenFileName", choose)
    assert bare_window.files.open_path(str(path))
    assert len(shown) == 1 and "source audio" in shown[0] and "no such file" in shown[0]
    project = bare_window.session.project
    assert resolved(project, project.source.audio_path) == moved
    assert bare_window.session.is_modified and bare_window.isWindowModified()
    qtbot.waitUntil(lambda: bare_window.audio_panel.tracks["src"] is not None, timeout=5000)
    # One undoable step puts the old path back.
    bare_window.session.undo_stack.undo()
    assert resolved(project, project.source.audio_path) == tmp_path / "gone" / "source.wav"
    assert not bare_window.session.is_modified


def test_both_recordings_moved_together_are_found_with_one_locate(bare_window: MainWindow, qtbot: Any, make_project: Any,
                                                                 tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Relative paths stay relative, and the second recording is looked for beside the first one found."""
    (tmp_path / "moved").mkdir()
    source = write_wav(tmp_path / "moved" / "source.wav")
    write_wav(tmp_path / "moved" / "interp.wav")
    path = saved_project(make_project, tmp_path, source_audio="audio/source.wav", target_audio="audio/interp.wav")
    shown = answer_message_boxes(monkeypatch, "Locate…")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a: (str(source), ""))
    assert bare_window.files.open_path(str(path))
    assert len(shown) == 1 and "source audio" in shown[0]  # asked once, for both
    project = bare_window.session.project
    assert project.source.audio_path == os.path.join("moved", "source.wav")
    assert project.target.audio_path == os.path.join("moved", "interp.wav")
    assert "found beside" in bare_window.statusBar().currentMessage()
    qtbot.waitUntil(lambda: None not in (bare_window.audio_panel.tracks["src"], bare_window.audio_panel.tracks["tgt"]), timeout=5000)


def test_audio_path_to_store_keeps_the_style_of_the_path_it_replaces(tmp_path: Path) -> None:
    from sialign.audio.decode import audio_path_to_store

    project = tmp_path / "talks" / "water.sialign"
    chosen = tmp_path / "audio" / "a.wav"
    assert audio_path_to_store(chosen, "old/a.wav", project) == os.path.join("..", "audio", "a.wav")
    assert audio_path_to_store(chosen, "/old/a.wav", project) == str(chosen)
    assert audio_path_to_store(chosen, None, project) == str(chosen)
    assert audio_path_to_store(chosen, "old/a.wav", None) == str(chosen)


def test_missing_audio_can_be_left_for_later(bare_window: MainWindow, make_project: Any, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    path = saved_project(make_project, tmp_path, source_audio=None, target_audio=str(tmp_path / "nowhere.wav"))
    shown = answer_message_boxes(monkeypatch, "Not now")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a: pytest.fail("no file dialog expected"))
    assert bare_window.files.open_path(str(path))
    assert len(shown) == 1 and "interpreter audio" in shown[0]
    project = bare_window.session.project
    assert resolved(project, project.target.audio_path) == tmp_path / "nowhere.wav"
    assert not bare_window.session.is_modified


def test_fifo_audio_does_not_block_opening(bare_window: MainWindow, qtbot: Any, make_project: Any, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    fifo = tmp_path / "stream.wav"
    os.mkfifo(fifo)
    path = saved_project(make_project, tmp_path, source_audio=str(fifo), target_audio=None)
    shown = answer_message_boxes(monkeypatch, "Not now")
    started = time.monotonic()
    assert bare_window.files.open_path(str(path))
    assert time.monotonic() - started < 2.0
    assert len(shown) == 1 and "named pipe" in shown[0] and "stream.wav" in shown[0]
    view = bare_window.audio_panel.source_view
    qtbot.waitUntil(lambda: "cannot be read" in view.message_text(), timeout=3000)
    assert "named pipe" in view.message_text() and "\n" not in view.message_text()
    assert bare_window.audio_panel.tracks["src"] is None


def test_project_properties_change_the_project_undoably(bare_window: MainWindow, qtbot: Any, make_project: Any,
                                                         tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    wav = write_wav(tmp_path / "interp.wav")
    path = saved_project(make_project, tmp_path, source_audio=None, target_audio=None)
    assert bare_window.files.open_path(str(path))
    assert not bare_window.session.is_modified and bare_window.act.properties.isEnabled()

    def fill_in(dialog: ProjectPropertiesDialog) -> int:
        assert dialog.talk_id.text() == "water" and dialog.interpreter.text() == "A"
        dialog.talk_id.setText("water_2024")
        dialog.source_language.setEditText("de")
        dialog.target_language.setEditText("fr")
        dialog.interpreter.setText("I-07")
        dialog.rank.setEditText("B")
        monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a: (str(wav), ""))
        dialog.audio["tgt"].button.click()  # Locate…
        dialog.accept()
        return int(dialog.result())

    monkeypatch.setattr(ProjectPropertiesDialog, "exec", fill_in)
    bare_window.files.project_properties()
    project = bare_window.session.project
    assert project.talk_id == "water_2024"
    assert (project.source.language, project.target.language) == ("de", "fr")
    assert project.metadata["interpreter"] == "I-07" and project.metadata["rank"] == "B"
    assert project.target.audio_path == str(wav)
    assert bare_window.session.is_modified and bare_window.isWindowModified()
    qtbot.waitUntil(lambda: bare_window.audio_panel.tracks["tgt"] is not None, timeout=5000)
    bare_window.session.undo_stack.undo()
    assert project.talk_id == "water" and project.target.audio_path is None
    assert (project.source.language, project.target.language) == ("en", "ja")
    assert project.metadata["interpreter"] == "A"
    qtbot.waitUntil(lambda: bare_window.audio_panel.tracks["tgt"] is None, timeout=5000)
    bare_window.session.undo_stack.redo()
    assert project.talk_id == "water_2024"


def _rename_to_river(dialog: ProjectPropertiesDialog) -> int:
    """Stands in for the dialog's exec: the user types the talk name "river" and presses OK."""
    dialog.talk_id.setText("river")
    dialog.accept()
    return int(dialog.result())


def test_project_properties_title_follows_the_talk_id(bare_window: MainWindow, make_project: Any,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    bare_window.session.set_project(make_project(), modified=True)
    assert bare_window.windowTitle().startswith("water (not saved)")

    monkeypatch.setattr(ProjectPropertiesDialog, "exec", _rename_to_river)
    bare_window.files.project_properties()
    assert bare_window.windowTitle().startswith("river (not saved)")


def test_project_properties_dialog_checks_reference_and_talk_id(qtbot: Any, make_project: Any, tmp_path: Path) -> None:
    project = make_project()
    dialog = ProjectPropertiesDialog(project)
    qtbot.addWidget(dialog)
    short = tmp_path / "ref.txt"
    short.write_text("一行だけ。\n", encoding="utf-8")
    assert not dialog.set_reference(str(short))
    assert "1 lines but the source has 6" in dialog.reference.status.text()
    dialog.talk_id.setText("  ")
    dialog.accept()
    assert dialog.result() != ProjectPropertiesDialog.DialogCode.Accepted
    assert "Give the talk an id." in dialog.message.text()
    good = tmp_path / "ref6.txt"
    good.write_text("".join(f"参照訳{i}。\n" for i in range(6)), encoding="utf-8")
    assert dialog.set_reference(str(good))
    dialog.talk_id.setText("water")
    dialog.accept()
    assert dialog.result() == ProjectPropertiesDialog.DialogCode.Accepted
    properties = dialog.properties()
    assert properties.reference is not None and len(properties.reference) == 6
    # A missing recording says so under its row.
    dialog.set_audio("src", str(tmp_path / "gone.wav"))
    assert "no such file" in dialog.audio["src"].status.text() and "Locate" in dialog.audio["src"].status.text()


def test_a_properties_change_is_a_core_edit_and_keeps_the_undo_history(bare_window: MainWindow, make_project: Any,
                                                                        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Once a properties change was a Qt-only command: saving stopped the undo steps at it, losing those before."""
    from sialign.core.edits import SetStatus
    from sialign.core.model import BeadStatus

    path = saved_project(make_project, tmp_path, source_audio=None, target_audio=None)
    assert bare_window.files.open_path(str(path))
    session = bare_window.session
    assert session.apply(SetStatus((0,), BeadStatus.CONFIRMED))

    monkeypatch.setattr(ProjectPropertiesDialog, "exec", _rename_to_river)
    bare_window.files.project_properties()
    steps = session.undo_steps()
    assert [s["forward"]["type"] for s in steps] == ["SetStatus", "SetTalkInfo"]
    assert session.project.history[-1]["type"] == "SetTalkInfo"
    assert bare_window.files.save()
    assert bare_window.files.open_path(str(path))
    again = bare_window.session
    assert again.project.talk_id == "river" and again.undo_stack.count() == 2
    again.undo_stack.undo()
    assert again.project.talk_id == "water"
    again.undo_stack.undo()
    assert again.project.alignment is not None and again.project.alignment.beads[0].status is not BeadStatus.CONFIRMED


def test_locate_on_open_keeps_the_saved_selection(bare_window: MainWindow, qtbot: Any, make_project: Any,
                                                  tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from sialign.gui.main.project_files import _selected_key

    (tmp_path / "moved").mkdir()
    moved = write_wav(tmp_path / "moved" / "source.wav")
    path = saved_project(make_project, tmp_path, source_audio=str(tmp_path / "gone" / "source.wav"), target_audio=None)
    bare_window.files.settings.setValue(_selected_key(path), 3)
    answer_message_boxes(monkeypatch, "Locate…")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a: (str(moved), ""))
    assert bare_window.files.open_path(str(path))
    qtbot.waitUntil(lambda: bare_window.audio_panel.tracks["src"] is not None, timeout=5000)
    qtbot.wait(50)
    assert bare_window.session.selected_bead == 3
    assert bare_window.table_panel.proxy.bead_of(bare_window.table.currentIndex()) == 3


@pytest.mark.parametrize("answer", ["No", "Yes"])
def test_a_recording_outside_the_projects_folder_is_read_only_when_the_user_allows_it(
    bare_window: MainWindow, qtbot: Any, make_project: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, answer: str
) -> None:
    """A project from elsewhere naming a file outside its folder: the app asks before reading it."""
    from sialign.core.stored_files import allowed_folders

    (tmp_path / "project").mkdir()
    (tmp_path / "elsewhere").mkdir()
    outside = write_wav(tmp_path / "elsewhere" / "source.wav")
    path = saved_project(make_project, tmp_path / "project", source_audio=str(outside), target_audio=None)
    asked: list[str] = []

    def question(parent: Any, title: str, text: str, *args: Any) -> QMessageBox.StandardButton:
        asked.append(text)
        return QMessageBox.StandardButton.Yes if answer == "Yes" else QMessageBox.StandardButton.No

    monkeypatch.setattr(QMessageBox, "question", question)
    monkeypatch.setattr(QMessageBox, "exec", lambda box: pytest.fail(f"unexpected dialog: {box.text()}"))
    assert bare_window.files.open_path(str(path))
    assert len(asked) == 1 and "source.audio_path" in asked[0] and str(tmp_path / "elsewhere") in asked[0]
    panel = bare_window.audio_panel
    if answer == "No":
        assert allowed_folders() == []
        assert "outside the project's folder" in panel.audio_problems["src"] and panel.tracks["src"] is None
        assert "not read" in bare_window.statusBar().currentMessage()
    else:
        assert allowed_folders() == [(tmp_path / "elsewhere").resolve()]
        qtbot.waitUntil(lambda: panel.tracks["src"] is not None, timeout=5000)
        assert panel.audio_problems["src"] == ""
        # Opened again, the folder is allowed: no question.
        assert bare_window.files.open_path(str(path), ask_save=False)
        assert len(asked) == 1
