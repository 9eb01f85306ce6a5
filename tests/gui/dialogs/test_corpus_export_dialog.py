"""The corpus export dialog: the CLI's formats and options, proposed names, remembered choices, one-line refusals."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox

from sialign.corpus.outputs import split_corpus
from sialign.gui.dialogs.corpus_export_dialog import ALL_TALKS, CorpusExportDialog, CorpusExportOptions
from sialign.io.export_formats import POOLED_FORMATS, export_format

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints")]


def _dialog(qtbot, folder: Path) -> CorpusExportDialog:
    dialog = CorpusExportDialog(folder, None, QSettings())
    qtbot.addWidget(dialog)
    return dialog


def _ok(dialog: CorpusExportDialog) -> bool:
    return dialog.buttons.button(dialog.buttons.StandardButton.Ok).isEnabled()


def test_corpus_export_dialog_defaults_are_the_clis(qtbot, corpus_dir: Path) -> None:
    """The formats of 'sialign corpus export -f', tsv first; every talk; all beads; a file beside the corpus folder."""
    dialog = _dialog(qtbot, corpus_dir)
    assert [dialog.format_box.itemText(i) for i in range(dialog.format_box.count())] == [export_format(k).label for k in POOLED_FORMATS]
    assert dialog.format.key == "tsv" and dialog.split is None and dialog.split_box.currentText() == ALL_TALKS
    assert not dialog.only_confirmed.isChecked()
    assert dialog.path_edit.text() == str(corpus_dir.parent / "corpus.tsv")
    assert dialog.talks_label.text() == "2 aligned talks will be written, one after the other." and _ok(dialog)
    assert dialog.options() == CorpusExportOptions(str(corpus_dir.parent / "corpus.tsv"), "tsv", None, False)
    # The proposed name follows the format: the two TSVs never take one name.
    dialog.format_box.setCurrentIndex(POOLED_FORMATS.index("tsv2"))
    assert dialog.path_edit.text() == str(corpus_dir.parent / "corpus.pairs.tsv")
    dialog.format_box.setCurrentIndex(POOLED_FORMATS.index("tmx"))
    assert dialog.path_edit.text() == str(corpus_dir.parent / "corpus.tmx")


def test_corpus_export_dialog_offers_the_splits_and_names_the_file_after_one(qtbot, corpus_dir: Path) -> None:
    split_corpus(corpus_dir, dev=1, test=0, seed=0)
    dialog = _dialog(qtbot, corpus_dir)
    assert [dialog.split_box.itemText(i) for i in range(dialog.split_box.count())] == [ALL_TALKS, "dev", "train"]
    dialog.split_box.setCurrentText("dev")
    assert dialog.split == "dev" and dialog.path_edit.text() == str(corpus_dir.parent / "corpus.dev.tsv")
    assert dialog.talks_label.text().startswith("1 aligned talk will be written")
    # A name the user typed keeps its stem: only the format's suffix follows.
    dialog.path_edit.setText(str(corpus_dir.parent / "mine.tsv"))
    dialog.split_box.setCurrentText("train")
    dialog.format_box.setCurrentIndex(POOLED_FORMATS.index("jsonl"))
    assert dialog.path_edit.text() == str(corpus_dir.parent / "mine.jsonl")


def test_corpus_export_dialog_remembers_the_last_choices(qtbot, corpus_dir: Path, tmp_path: Path) -> None:
    split_corpus(corpus_dir, dev=1, test=0, seed=0)
    out = tmp_path / "exports"
    out.mkdir()
    dialog = _dialog(qtbot, corpus_dir)
    dialog.format_box.setCurrentIndex(POOLED_FORMATS.index("jsonl"))
    dialog.split_box.setCurrentText("train")
    dialog.only_confirmed.setChecked(True)
    dialog.path_edit.setText(str(out / "train.jsonl"))
    dialog.accept()
    assert dialog.result() == 1
    assert dialog.options() == CorpusExportOptions(str(out / "train.jsonl"), "jsonl", "train", True)
    again = _dialog(qtbot, corpus_dir)
    assert (again.format.key, again.split, again.only_confirmed.isChecked()) == ("jsonl", "train", True)
    assert again.path_edit.text() == str(out / "corpus.train.jsonl")  # the folder last exported to
    # A corpus without that split starts with every talk.
    (corpus_dir / "splits.json").unlink()
    assert _dialog(qtbot, corpus_dir).split is None


def test_corpus_export_dialog_without_aligned_talks_says_so_in_one_line(qtbot, corpus_dir: Path) -> None:
    for talk in ("example", "first"):
        (corpus_dir / f"{talk}.sialign").unlink()
    dialog = _dialog(qtbot, corpus_dir)
    assert dialog.talks_label.text() == f"{corpus_dir}: no aligned talk to export" and not _ok(dialog)
    dialog.accept()
    assert dialog.result() == 0
    assert dialog.error_label.text() == f"{corpus_dir}: no aligned talk to export" and "\n" not in dialog.error_label.text()


@pytest.mark.parametrize(("where", "says"), [
    (lambda corpus: corpus / "corpus.json", "is the corpus state file of this corpus: writing it would destroy what is read"),
    (lambda corpus: corpus / "first.sialign", "is talk first's project in this corpus"),
    (lambda corpus: corpus / "corpus.json" / "x.tsv", "corpus.json is a file, not a folder; choose another folder."),
    (lambda corpus: corpus.parent / "missing" / "x.tsv", "missing does not exist — create it first or give the export a path in an existing folder"),
    (lambda corpus: corpus, "is a folder; add a file name."),
])
def test_corpus_export_dialog_refuses_a_bad_file_in_one_line_and_stays_open(qtbot, corpus_dir: Path, where, says: str) -> None:
    dialog = _dialog(qtbot, corpus_dir)
    dialog.only_confirmed.setChecked(True)
    target = where(corpus_dir)
    dialog.path_edit.setText(str(target))
    dialog.accept()
    assert dialog.result() == 0
    text = dialog.error_label.text()
    assert says in text and "\n" not in text and not dialog.error_label.isHidden()
    assert dialog.only_confirmed.isChecked() and dialog.path_edit.text() == str(target)


def test_corpus_export_dialog_asks_before_replacing_a_file(qtbot, corpus_dir: Path, monkeypatch) -> None:
    asked: list[str] = []
    answer = [QMessageBox.StandardButton.No]
    monkeypatch.setattr(QMessageBox, "question", lambda parent, title, *a, **k: asked.append(title) or answer[0])
    existing = corpus_dir.parent / "corpus.tsv"
    existing.write_text("keep me", encoding="utf-8")
    dialog = _dialog(qtbot, corpus_dir)
    dialog.accept()
    assert asked == ["Replace the file?"] and dialog.result() == 0
    answer[0] = QMessageBox.StandardButton.Yes
    dialog.accept()
    assert dialog.result() == 1 and existing.read_text(encoding="utf-8") == "keep me"  # the window writes it


def test_corpus_export_dialog_a_name_too_long_is_one_line_not_a_crash(qtbot, corpus_dir: Path) -> None:
    dialog = _dialog(qtbot, corpus_dir)
    dialog.path_edit.setText(str(corpus_dir.parent / ("x" * 300 + ".tsv")))
    dialog.accept()
    assert dialog.result() == 0 and "File name too long — choose another file." in dialog.error_label.text()
