"""The New talk dialog: files read on the spot, errors named with file and line, nothing typed lost."""

from __future__ import annotations

import pytest

from sialign.gui.new_talk_dialog import NewTalkDialog, talk_id_from_path

# Qt warnings fail these tests (as in pyqtgraph's suite): a warning about threads or
# timers is a bug. The offscreen platform's note about size hints is not.
pytestmark = [pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints")]

SOURCE_SRT = """1
00:00:01,000 --> 00:00:03,500
Good morning, everyone.

2
00:00:04,000 --> 00:00:07,000
Today I want to talk about water.
"""
TARGET_SRT = """1
00:00:02,000 --> 00:00:04,000
皆さん、おはようございます。

2
00:00:05,000 --> 00:00:08,500
今日は水についてお話しします。
"""
BAD_SRT = """1
00:00:01,000 --> 00:00:03,500
Good morning.

2
00:00:0x,000 --> 00:00:07,000
Broken timing.
"""


@pytest.fixture
def files(tmp_path):  # noqa: ANN001
    paths = {}
    for name, text in (("ted_42.en.srt", SOURCE_SRT), ("ted_42.ja.srt", TARGET_SRT), ("bad.srt", BAD_SRT)):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        paths[name] = path
    paths["ref"] = tmp_path / "ref.txt"
    paths["ref"].write_text("皆さん、おはようございます。\n", encoding="utf-8")
    return paths


@pytest.mark.parametrize(
    "name, expected",
    [("ted_42.en.srt", "ted_42"), ("/x/My Talk (final).txt", "My_Talk_final"), ("talk-ja.vtt", "talk"), ("___.txt", "talk")],
)
def test_new_talk_dialog_talk_id_from_path(name, expected) -> None:  # noqa: ANN001
    assert talk_id_from_path(name) == expected


def test_new_talk_dialog_reads_files_and_guesses_languages(qtbot, files) -> None:  # noqa: ANN001
    dialog = NewTalkDialog()
    qtbot.addWidget(dialog)
    dialog.source.set_path(str(files["ted_42.en.srt"]))
    dialog.target.set_path(str(files["ted_42.ja.srt"]))
    assert "2 segments" in dialog.source.status.text() and "with times" in dialog.source.status.text()
    assert dialog.source_language.currentText() == "en"
    assert dialog.target_language.currentText() == "ja"
    assert dialog.talk_id.text() == "ted_42"
    dialog.interpreter.setText("I-03")
    dialog.rank.setEditText("A")
    dialog.accept()
    assert dialog.result() == NewTalkDialog.DialogCode.Accepted
    project = dialog.project()
    assert project.talk_id == "ted_42"
    assert [s.text for s in project.target] == ["皆さん、おはようございます。", "今日は水についてお話しします。"]
    assert project.source.segments[1].start == pytest.approx(4.0)
    assert project.metadata == {"interpreter": "I-03", "rank": "A"}
    assert project.alignment is None


def test_new_talk_dialog_bad_file_names_file_and_line_and_keeps_input(qtbot, files) -> None:  # noqa: ANN001
    dialog = NewTalkDialog()
    qtbot.addWidget(dialog)
    dialog.talk_id.setText("my talk")
    dialog.target.set_path(str(files["ted_42.ja.srt"]))
    dialog.source.set_path(str(files["bad.srt"]))
    message = dialog.source.status.text()
    assert "bad.srt" in message and "line 6" in message
    dialog.accept()
    assert dialog.result() != NewTalkDialog.DialogCode.Accepted
    assert "could not be read" in dialog.message.text()
    # Nothing typed is lost; fixing the file is enough.
    assert dialog.talk_id.text() == "my talk"
    assert dialog.target.path.endswith("ted_42.ja.srt")
    dialog.source.set_path(str(files["ted_42.en.srt"]))
    dialog.accept()
    assert dialog.result() == NewTalkDialog.DialogCode.Accepted


def test_new_talk_dialog_reference_must_match_source(qtbot, files) -> None:  # noqa: ANN001
    dialog = NewTalkDialog()
    qtbot.addWidget(dialog)
    dialog.source.set_path(str(files["ted_42.en.srt"]))
    dialog.target.set_path(str(files["ted_42.ja.srt"]))
    dialog.reference.set_path(str(files["ref"]))
    dialog.accept()
    assert "1 lines but the source has 2" in dialog.message.text()


def test_new_talk_dialog_missing_files_and_audio(qtbot, files, tmp_path) -> None:  # noqa: ANN001
    dialog = NewTalkDialog()
    qtbot.addWidget(dialog)
    dialog.source_audio.set_path(str(tmp_path / "nope.wav"))
    assert "no such file" in dialog.source_audio.status.text()
    problems = dialog.problems()
    assert "Choose the source transcript." in problems
    assert "Choose the interpretation transcript." in problems
    assert any("nope.wav" in p for p in problems)


TEXTGRID = '''File type = "ooTextFile"
Object class = "TextGrid"

xmin = 0
xmax = 6
tiers? <exists>
size = 2
item []:
    item [1]:
        class = "IntervalTier"
        name = "words"
        xmin = 0
        xmax = 6
        intervals: size = 1
        intervals [1]:
            xmin = 0
            xmax = 6
            text = "one long word tier"
    item [2]:
        class = "IntervalTier"
        name = "sentences"
        xmin = 0
        xmax = 6
        intervals: size = 2
        intervals [1]:
            xmin = 0
            xmax = 3
            text = "Good morning."
        intervals [2]:
            xmin = 3
            xmax = 6
            text = "Thank you."
'''


def test_new_talk_dialog_offers_the_tiers_of_a_textgrid(qtbot, tmp_path) -> None:  # noqa: ANN001
    path = tmp_path / "talk.TextGrid"
    path.write_text(TEXTGRID, encoding="utf-8")
    dialog = NewTalkDialog()
    qtbot.addWidget(dialog)
    dialog.source.set_path(str(path))
    assert dialog.source.tier.count() == 2 and dialog.source.tier.isVisibleTo(dialog)
    assert "1 segments" in dialog.source.status.text()
    dialog.source.tier.setCurrentIndex(1)
    assert "2 segments" in dialog.source.status.text()
    assert [s.text for s in dialog._documents["src"]] == ["Good morning.", "Thank you."]


def test_new_talk_dialog_warns_about_a_doubtful_encoding(qtbot, tmp_path) -> None:  # noqa: ANN001
    # Issue 12: a mixed-encoding file is read, and the dialog says which line is doubtful.
    path = tmp_path / "mixed.ja.txt"
    path.write_bytes("皆さん、おはようございます。\n".encode() + "Café crème.\n".encode("latin-1") + "ありがとう。\n".encode())
    dialog = NewTalkDialog()
    qtbot.addWidget(dialog)
    dialog.target.set_path(str(path))
    text = dialog.target.status.text()
    assert "3 segments" in text and "Warning:" in text and "line 2" in text and "mixed encodings" in text
    assert dialog._documents["tgt"] is not None
