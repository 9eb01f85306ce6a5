"""*File → New corpus…*: a folder's transcripts proposed as a manifest, edited, saved and aligned in the corpus window."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from sialign.corpus.manifest import read_manifest

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints")]
EXAMPLES = Path(__file__).resolve().parents[3] / "resources" / "examples"


@pytest.fixture
def talks(tmp_path: Path) -> Path:
    folder = tmp_path / "talks"
    folder.mkdir()
    for name in ("talk.en.srt", "talk.ja.srt", "talk.en.ogg", "talk.ja.ogg"):
        shutil.copy(EXAMPLES / name, folder / name)
    en = (EXAMPLES / "talk.en.srt").read_text(encoding="utf-8").split("\n\n")
    ja = (EXAMPLES / "talk.ja.srt").read_text(encoding="utf-8").split("\n\n")
    (folder / "first.en.srt").write_text("\n\n".join(en[:12]) + "\n", encoding="utf-8")
    (folder / "first.ja.srt").write_text("\n\n".join(ja[:33]) + "\n", encoding="utf-8")
    return folder


def test_new_corpus_dialog_proposes_an_editable_manifest_and_saves_it(qtbot, talks: Path) -> None:
    from sialign.corpus.propose import COLUMNS
    from sialign.gui.dialogs.new_corpus_dialog import NewCorpusDialog

    dialog = NewCorpusDialog()
    qtbot.addWidget(dialog)
    dialog.set_folder(str(talks))
    assert [row[0] for row in dialog.rows()] == ["first", "talk"]
    assert dialog.rows()[1][COLUMNS.index("source_audio")] == "talk.en.ogg"
    assert "2 talks found" in dialog.found.text()
    dialog.table.item(1, COLUMNS.index("interpreter")).setText("I-03")  # edited in the table
    dialog.table.selectRow(0)
    dialog._remove_selected()
    dialog.jobs.setValue(1)
    dialog.inter.setChecked(True)
    dialog.learned.setChecked(True)
    dialog.accept()
    assert dialog.result() == NewCorpusDialog.DialogCode.Accepted
    run = dialog.run()
    assert run.manifest == talks / "manifest.tsv" and run.output == talks / "corpus"
    assert run.filters == ["inter", "learned"]
    (spec,) = read_manifest(run.manifest)
    assert spec.talk == "talk" and spec.interpreter == "I-03" and spec.target_audio == talks / "talk.ja.ogg"


def test_new_corpus_dialog_names_a_missing_file_and_keeps_the_table(qtbot, talks: Path) -> None:
    from sialign.corpus.propose import COLUMNS
    from sialign.gui.dialogs.new_corpus_dialog import NewCorpusDialog

    dialog = NewCorpusDialog()
    qtbot.addWidget(dialog)
    dialog.set_folder(str(talks))
    dialog.table.item(0, COLUMNS.index("target")).setText("first.de.srt")
    dialog.accept()
    assert dialog.result() != NewCorpusDialog.DialogCode.Accepted
    assert "first.de.srt" in dialog.message.text() and len(dialog.rows()) == 2


def test_new_corpus_dialog_explains_an_empty_folder(qtbot, tmp_path: Path) -> None:
    from PySide6.QtWidgets import QDialogButtonBox

    from sialign.gui.dialogs.new_corpus_dialog import NewCorpusDialog

    dialog = NewCorpusDialog()
    qtbot.addWidget(dialog)
    dialog.set_folder(str(tmp_path))
    assert "No talks found" in dialog.message.text() and "<talk>.<lang>.<ext>" in dialog.message.text()
    assert not dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()


def test_new_corpus_from_the_main_window_aligns_in_the_corpus_window(qtbot, window, talks: Path, monkeypatch) -> None:
    from sialign.gui.dialogs.new_corpus_dialog import NewCorpusDialog

    def fill_in(dialog: NewCorpusDialog) -> int:
        dialog.set_folder(str(talks))
        dialog.accept()
        return dialog.result()

    monkeypatch.setattr(NewCorpusDialog, "exec", fill_in)
    corpus = window.files.new_corpus()
    assert corpus is not None
    qtbot.addWidget(corpus)
    assert corpus.cancel_button.isEnabled()  # aligning, with Cancel
    qtbot.waitUntil(lambda: corpus._thread is None, timeout=60_000)
    assert sorted(corpus.talks()) == ["first", "talk"]
    assert (talks / "corpus" / "talk.sialign").exists() and (talks / "corpus" / "corpus.json").exists()
    # Aligned with the options chosen (no filters here); the figures show (the summary may have been refreshed).
    assert {r.status for r in corpus.state.records.values()} == {"done"}
    assert "2 aligned" in corpus.summary.text() or "2 talks aligned" in corpus.summary.text()


def test_new_corpus_enter_in_the_folder_field_scans_and_writes_nothing(qtbot, talks: Path) -> None:
    from PySide6.QtCore import Qt

    from sialign.gui.dialogs.new_corpus_dialog import NewCorpusDialog

    dialog = NewCorpusDialog()
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    # Before any folder: the source-language row is hidden whole, its label too.
    assert not dialog.form.isRowVisible(dialog.source_language)
    dialog.folder.setFocus()
    qtbot.keyClicks(dialog.folder, str(talks))
    qtbot.keyClick(dialog.folder, Qt.Key.Key_Return)
    assert dialog.isVisible() and dialog.result() != NewCorpusDialog.DialogCode.Accepted
    assert [row[0] for row in dialog.rows()] == ["first", "talk"]
    assert dialog.form.isRowVisible(dialog.source_language)
    assert not (talks / "manifest.tsv").exists() and not (talks / "corpus").exists()
    qtbot.keyClick(dialog.folder, Qt.Key.Key_Return)  # again: still only the table
    assert dialog.isVisible() and not (talks / "manifest.tsv").exists()


def test_new_corpus_of_a_read_only_folder_writes_outside_it(qtbot, talks: Path, tmp_path: Path, monkeypatch) -> None:
    import sialign.gui.dialogs.new_corpus_dialog as new_corpus
    from sialign.gui.dialogs.new_corpus_dialog import NewCorpusDialog

    monkeypatch.setattr(new_corpus, "CORPORA_HOME", tmp_path / "home" / "corpora")
    monkeypatch.setattr(new_corpus, "not_ours", lambda folder: "is read-only" if Path(folder) == talks else "")
    dialog = NewCorpusDialog()
    qtbot.addWidget(dialog)
    dialog.set_folder(str(talks))
    assert dialog.output.text() == str(tmp_path / "home" / "corpora" / "talks")
    assert "is read-only" in dialog.output_note.text() and not dialog.output_note.isHidden()
    dialog.accept()
    run = dialog.run()
    assert run.manifest == tmp_path / "home" / "corpora" / "talks" / "manifest.tsv"
    assert not (talks / "manifest.tsv").exists()
    specs = read_manifest(run.manifest)
    assert [s.talk for s in specs] == ["first", "talk"] and specs[1].source == talks / "talk.en.srt"
