"""The export dialog: every registry format, asks before replacing or creating, stays open on errors, remembers the folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox

from sialign.core.model import Alignment, Bead, Document, Project
from sialign.gui.dialogs.export_dialog import LAST_DIR_KEY, ExportDialog
from sialign.io.export_formats import EXPORT_FORMATS

pytestmark = [pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints")]


def _project(timed: bool = True) -> Project:
    src = Document.from_texts(["Hello there.", "Goodbye."], "en", [(0.0, 1.5), (2.0, 3.0)] if timed else None)
    tgt = Document.from_texts(["えー、", "こんにちは。", "さようなら。"], "ja", [(0.2, 0.5), (0.5, 1.8), (2.2, 3.4)] if timed else None)
    return Project(talk_id="hi", source=src, target=tgt, alignment=Alignment([Bead((0,), (0, 1), trimmed=(0,)), Bead((1,), (2,))]))


def _dialog(qtbot, project: Project, path: Path) -> ExportDialog:
    dialog = ExportDialog(project, str(path), None, QSettings())
    qtbot.addWidget(dialog)
    return dialog


def _choose(dialog: ExportDialog, key: str) -> None:
    dialog.format_box.setCurrentIndex([f.key for f in EXPORT_FORMATS].index(key))


def test_export_dialog_offers_every_registry_format_with_subtitles_per_side(qtbot, tmp_path) -> None:
    dialog = _dialog(qtbot, _project(), tmp_path / "hi.tsv")
    labels = [dialog.format_box.itemText(i) for i in range(dialog.format_box.count())]
    assert labels == [f.label for f in EXPORT_FORMATS]
    keys = {f.key for f in EXPORT_FORMATS}
    assert {"tsv", "tsv2", "jsonl", "tmx", "align", "textgrid", "eaf", "srt-source", "srt-target", "vtt-source", "vtt-target"} <= keys
    _choose(dialog, "srt-target")
    assert dialog.path_edit.text() == str(tmp_path / "hi.target.srt")
    _choose(dialog, "vtt-source")
    assert dialog.path_edit.text() == str(tmp_path / "hi.source.vtt")
    _choose(dialog, "tsv")
    assert dialog.path_edit.text() == str(tmp_path / "hi.tsv")
    # The two TSV formats share a suffix, not a name: one export never replaces the other by default.
    _choose(dialog, "tsv2")
    assert dialog.path_edit.text() == str(tmp_path / "hi.pairs.tsv")
    _choose(dialog, "tsv")
    assert dialog.path_edit.text() == str(tmp_path / "hi.tsv")


def test_export_dialog_asks_before_replacing_a_file(qtbot, tmp_path, monkeypatch) -> None:
    out = tmp_path / "hi.tsv"
    out.write_text("keep me", encoding="utf-8")
    asked: list[str] = []
    answer = [QMessageBox.StandardButton.No]

    def question(parent, title, text, *args, **kwargs):
        asked.append(title)
        return answer[0]

    monkeypatch.setattr(QMessageBox, "question", question)
    dialog = _dialog(qtbot, _project(), out)
    dialog.accept()
    assert asked == ["Replace the file?"]
    assert out.read_text(encoding="utf-8") == "keep me" and dialog.result() == 0 and dialog.rows_written is None
    answer[0] = QMessageBox.StandardButton.Yes
    dialog.accept()
    assert out.read_text(encoding="utf-8").startswith("talk\t") and dialog.rows_written == 2
    assert dialog.result() == 1


def test_export_dialog_asks_before_creating_folders_and_remembers_the_folder(qtbot, tmp_path, monkeypatch) -> None:
    asked: list[str] = []
    monkeypatch.setattr(QMessageBox, "question", lambda parent, title, *a, **k: asked.append(title) or QMessageBox.StandardButton.Yes)
    out = tmp_path / "new" / "deeper" / "hi.tsv"
    dialog = _dialog(qtbot, _project(), out)
    dialog.accept()
    assert asked == ["Create the folder?"] and out.is_file()
    assert QSettings().value(LAST_DIR_KEY) == str(out.parent)
    # The next dialog starts in that folder, whatever the caller proposed.
    again = _dialog(qtbot, _project(), tmp_path / "elsewhere" / "talk.tsv")
    assert again.path_edit.text() == str(out.parent / "talk.tsv")


def test_export_dialog_error_keeps_it_open_with_the_options(qtbot, tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    dialog = _dialog(qtbot, _project(), blocker / "sub" / "hi.jsonl")  # a file where a folder should be
    _choose(dialog, "jsonl")
    dialog.include_dropped.setChecked(True)
    dialog.accept()
    assert dialog.result() == 0 and dialog.rows_written is None
    assert not dialog.error_label.isHidden() and "\n" not in dialog.error_label.text()
    assert dialog.error_label.text().startswith(f"{blocker} is a file, not a folder")
    assert dialog.format.key == "jsonl" and dialog.include_dropped.isChecked()
    assert dialog.path_edit.text() == str(blocker / "sub" / "hi.jsonl")


def test_export_dialog_subtitles_without_times_cannot_be_exported(qtbot, tmp_path) -> None:
    dialog = _dialog(qtbot, _project(timed=False), tmp_path / "hi.tsv")
    _choose(dialog, "srt-source")
    assert "no source times" in dialog.count_label.text()
    assert not dialog.buttons.button(dialog.buttons.StandardButton.Ok).isEnabled()


def test_export_dialog_write_failure_is_one_line_and_keeps_it_open(qtbot, tmp_path, monkeypatch) -> None:
    from sialign.core.errors import ExportError
    from sialign.gui.dialogs import export_dialog

    dialog = _dialog(qtbot, _project(), tmp_path / "hi.tsv")
    _choose(dialog, "tmx")
    dialog.only_confirmed.setChecked(False)

    def fail(project, options):
        raise ExportError("the disk is full\nsecond line")

    monkeypatch.setattr(export_dialog, "export", fail)
    dialog.accept()
    assert dialog.result() == 0 and dialog.error_label.text() == "Export failed: the disk is full second line"
    assert dialog.format.key == "tmx" and dialog.path_edit.text() == str(tmp_path / "hi.tmx")
    monkeypatch.undo()
    dialog.accept()
    assert dialog.result() == 1 and (tmp_path / "hi.tmx").is_file() and dialog.error_label.isHidden()


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
def test_export_dialog_shows_a_long_error_whole(qtbot, tmp_path) -> None:
    """A folder that takes no files: the message says so, and the dialog grows until all of it shows."""
    dialog = _dialog(qtbot, _project(), tmp_path / "hi.tsv")
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.path_edit.setText("/proc/" + "a_rather_long_file_name_" * 4 + ".tsv")
    dialog.accept()
    assert dialog.isVisible() and "does not accept new files" in dialog.error_label.text()
    label = dialog.error_label
    qtbot.waitUntil(lambda: label.height() >= label.heightForWidth(label.width()), timeout=2000)
    assert label.geometry().bottom() <= dialog.height()


def test_export_dialog_a_file_in_the_path_is_named_not_offered_as_a_folder(qtbot, tmp_path, monkeypatch) -> None:
    from PySide6.QtWidgets import QMessageBox

    (tmp_path / "afile").write_text("x", encoding="utf-8")
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: pytest.fail("no question expected"))
    dialog = _dialog(qtbot, _project(), tmp_path / "hi.tsv")
    dialog.path_edit.setText(str(tmp_path / "afile" / "out.tsv"))
    dialog.accept()
    assert f"{tmp_path / 'afile'} is a file, not a folder" in dialog.error_label.text()


def test_export_dialog_writes_word_links_for_tsv_and_jsonl_only(qtbot, tmp_path) -> None:
    import json

    from tests.word_link_fakes import SpellingLinker, en_fr_project

    from sialign.workflows.word_links import update_word_links

    project = en_fr_project()
    update_word_links(project, linker=SpellingLinker())
    dialog = _dialog(qtbot, project, tmp_path / "budget.jsonl")
    _choose(dialog, "jsonl")
    dialog.links.setChecked(True)
    dialog.accept()
    record = json.loads((tmp_path / "budget.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert record["links"] == "1-1 3-4 6-7" and record["src_tokens"][1] == "budget"
    _choose(dialog, "tmx")
    assert not dialog.links.isEnabled()
    _choose(dialog, "tsv")
    assert dialog.links.isEnabled()

def test_export_dialog_refuses_the_projects_own_files_before_asking(qtbot, tmp_path, monkeypatch) -> None:
    """Choosing the project file or a transcript it was read from as the export's file would destroy it."""
    from sialign.io.project_file import save_project

    asked: list[str] = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append("asked") or QMessageBox.StandardButton.Yes)
    project = _project()
    transcript = tmp_path / "talk.ja.srt"
    transcript.write_text("1\n00:00:00,200 --> 00:00:00,500\nえー、\n", encoding="utf-8")
    project.target.path = str(transcript)
    saved = tmp_path / "hi.sialign"
    save_project(project, saved)
    for victim in (saved, transcript):
        before = victim.read_bytes()
        dialog = _dialog(qtbot, project, victim)
        _choose(dialog, "tsv")
        dialog.path_edit.setText(str(victim))
        dialog.accept()
        assert dialog.result() == 0 and dialog.rows_written is None and not asked
        assert "nothing was written" in dialog.error_label.text() and victim.read_bytes() == before


def test_export_dialog_says_which_text_goes_in_target(qtbot, tmp_path) -> None:
    project = _project()
    project.alignment.beads[1].post_edit = "さよなら。"
    dialog = _dialog(qtbot, project, tmp_path / "hi.tsv")
    _choose(dialog, "tsv")
    note = dialog.target_note.text()
    assert "post-edit where there is one" in note and "target_original" in note and "(1 post-edited bead, 1 with" in note
    _choose(dialog, "tmx")
    assert "only into TSV (all fields) and JSONL" in dialog.target_note.text()
    _choose(dialog, "align")
    assert dialog.target_note.isHidden()
