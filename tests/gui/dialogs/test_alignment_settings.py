"""Settings → Alignment…: target units and text kind, saved with the talk as one undoable step."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtWidgets import QDialog

from sialign.core.params import AlignParams
from sialign.gui.dialogs.alignment_settings import AlignmentSettingsDialog


def test_dialog_shows_the_talks_settings_and_what_auto_makes_of_it(qtbot, make_project) -> None:
    project = make_project()  # timestamps on both sides
    project.params = AlignParams(target_units="sentences")
    dialog = AlignmentSettingsDialog(project)
    qtbot.addWidget(dialog)
    assert dialog.choices() == ("sentences", "auto")
    assert "as an interpretation: both transcripts have timestamps" in dialog.note.text()
    dialog.text_kind.setCurrentIndex(dialog.text_kind.findData("translation"))
    assert dialog.choices() == ("sentences", "translation")
    assert "as a written translation, as chosen" in dialog.note.text()
    text_only = make_project(with_times=False)
    other = AlignmentSettingsDialog(text_only)
    qtbot.addWidget(other)
    assert "as a written translation: no timestamps" in other.note.text()


def test_settings_menu_saves_the_choice_with_the_talk_and_undo_brings_the_old_back(window, monkeypatch) -> None:
    before = window.align_params()

    def accept(dialog: AlignmentSettingsDialog) -> int:
        dialog.target_units.setCurrentIndex(dialog.target_units.findData("chunks"))
        dialog.text_kind.setCurrentIndex(dialog.text_kind.findData("interpretation"))
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(AlignmentSettingsDialog, "exec", accept)
    assert window.act.align_settings in window.menuBar().actions()[-2].menu().actions()
    window.act.align_settings.trigger()
    assert window.session.project.params == replace(before, target_units="chunks", text_kind="interpretation")
    assert window.session.is_modified and window.align_params().text_kind == "interpretation"
    window.session.undo_stack.undo()
    assert window.align_params() == before


def test_cancelling_changes_nothing(window, monkeypatch) -> None:
    monkeypatch.setattr(AlignmentSettingsDialog, "exec", lambda dialog: QDialog.DialogCode.Rejected)
    params = window.session.project.params
    window.act.align_settings.trigger()
    assert window.session.project.params == params and not window.session.is_modified


def test_the_status_bar_says_which_kind_scored_the_sentences(qtbot, window, make_project) -> None:
    project = make_project()  # timestamps on both sides: an interpretation under "auto"
    project.alignment = None
    project.params = AlignParams(embedder="use-multilingual", target_units="sentences")
    window.session.set_project(project, modified=True)
    with qtbot.waitSignal(window.runner.finished, timeout=120_000):
        assert window.align()
    assert "Sentences scored as an interpretation (Settings → Alignment…)" in window.statusBar().currentMessage()
    assert window.session.project.alignment.info["bead_score"] == "interpretation"
