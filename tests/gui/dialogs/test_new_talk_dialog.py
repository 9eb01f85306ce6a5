"""The New talk dialog: files read on the spot, errors named with file and line, nothing typed lost."""

from __future__ import annotations

import pytest

from sialign.gui.dialogs.new_talk_dialog import NewTalkDialog, talk_id_from_path

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
def dialog(qtbot):
    dialog = NewTalkDialog()
    qtbot.addWidget(dialog)
    return dialog


def _choose_file(field, path, data: bytes) -> None:
    """Write ``data`` to ``path`` and choose it in ``field``, as the user would."""
    path.write_bytes(data)
    field.set_path(str(path))


@pytest.fixture
def files(tmp_path):
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
def test_new_talk_dialog_talk_id_from_path(name, expected) -> None:
    assert talk_id_from_path(name) == expected


def test_new_talk_dialog_reads_files_and_guesses_languages(dialog, files) -> None:
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


def test_new_talk_dialog_bad_file_names_file_and_line_and_keeps_input(dialog, files) -> None:
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


def test_new_talk_dialog_reference_must_match_source(dialog, files) -> None:
    dialog.source.set_path(str(files["ted_42.en.srt"]))
    dialog.target.set_path(str(files["ted_42.ja.srt"]))
    dialog.reference.set_path(str(files["ref"]))
    dialog.accept()
    assert "1 lines but the source has 2" in dialog.message.text()


def test_new_talk_dialog_missing_files_and_audio(dialog, files, tmp_path) -> None:
    dialog.source_audio.set_path(str(tmp_path / "nope.wav"))
    assert "no such file" in dialog.source_audio.status.text()
    problems = dialog.problems()
    assert "Choose the source transcript, or its recording (Create then transcribes it)." in problems
    assert "Choose the interpretation transcript, or its recording (Create then transcribes it)." in problems
    assert any("nope.wav" in p for p in problems)


def _textgrid(tiers: dict[str, list[tuple[float, float, str]]]) -> str:
    """A Praat TextGrid in the long text format: interval tiers by name, each a list of (xmin, xmax, text)."""
    xmax = max(end for intervals in tiers.values() for _start, end, _text in intervals)
    lines = ['File type = "ooTextFile"', 'Object class = "TextGrid"', "", "xmin = 0", f"xmax = {xmax:g}", "tiers? <exists>"]
    lines += [f"size = {len(tiers)}", "item []:"]
    for k, (name, intervals) in enumerate(tiers.items(), 1):
        lines += [f"    item [{k}]:", '        class = "IntervalTier"', f'        name = "{name}"', "        xmin = 0"]
        lines += [f"        xmax = {xmax:g}", f"        intervals: size = {len(intervals)}"]
        for i, (start, end, text) in enumerate(intervals, 1):
            lines += [f"        intervals [{i}]:", f"            xmin = {start:g}", f"            xmax = {end:g}", f'            text = "{text}"']
    return "\n".join(lines) + "\n"


TEXTGRID = _textgrid({"words": [(0, 6, "one long word tier")], "sentences": [(0, 3, "Good morning."), (3, 6, "Thank you.")]})


def test_new_talk_dialog_offers_the_tiers_of_a_textgrid(dialog, tmp_path) -> None:
    _choose_file(dialog.source, tmp_path / "talk.TextGrid", TEXTGRID.encode())
    assert dialog.source.tier.count() == 2 and dialog.source.tier.isVisibleTo(dialog)
    assert "1 segment ·" in dialog.source.status.text()
    dialog.source.tier.setCurrentIndex(1)
    assert "2 segments" in dialog.source.status.text()
    assert [s.text for s in dialog._documents["src"]] == ["Good morning.", "Thank you."]


def test_new_talk_dialog_warns_about_a_doubtful_encoding(dialog, tmp_path) -> None:
    # Issue 12: a mixed-encoding file is read, and the dialog says which line is doubtful.
    mixed = "皆さん、おはようございます。\n".encode() + "Café crème.\n".encode("latin-1") + "ありがとう。\n".encode()
    _choose_file(dialog.target, tmp_path / "mixed.ja.txt", mixed)
    text = dialog.target.status.text()
    assert "3 segments" in text and "Warning:" in text and "line 2" in text and "mixed encodings" in text
    assert dialog._documents["tgt"] is not None


# -- encodings: preview, choice, warning ---------------------------------------

def _choose(field, codec) -> None:
    index = field.encoding.findData(codec)
    assert index >= 0, codec
    field.encoding.setCurrentIndex(index)


def test_new_talk_dialog_gbk_file_decodes_when_chosen_and_warns_on_auto(dialog, tmp_path) -> None:
    # Short GBK Chinese also decodes as EUC-JP: Auto reads it garbled, and must say so.
    _choose_file(dialog.target, tmp_path / "talk.zh.txt", "你好世界。\n水资源\n".encode("gbk"))
    assert "Warning:" in dialog.target.status.text() and "encoding" in dialog.target.status.text()
    assert dialog.target.preview is not None and dialog.target.preview.isVisibleTo(dialog)
    assert "你好世界" not in dialog.target.preview.toPlainText()
    _choose(dialog.target, "gb18030")
    assert dialog.target.preview.toPlainText() == "你好世界。\n水资源"
    assert "Warning" not in dialog.target.status.text() and "(chosen)" in dialog.target.status.text()
    # The chosen encoding is the one the talk is built with.
    _choose_file(dialog.source, tmp_path / "talk.en.txt", b"Hello world.\nWater.\n")
    dialog.accept()
    assert dialog.result() == NewTalkDialog.DialogCode.Accepted
    project = dialog.project()
    assert [s.text for s in project.target] == ["你好世界。", "水资源"] and project.target.encoding == "gb18030"


def test_new_talk_dialog_iso2022jp_file_decodes_when_chosen(dialog, tmp_path) -> None:
    _choose_file(dialog.target, tmp_path / "interp.txt", "皆さん、おはようございます。\n今日は水についてお話しします。\n".encode("iso2022_jp"))
    _choose(dialog.target, "cp1252")  # wrong: the escape sequences show as control characters
    assert "control characters" in dialog.target.status.text()
    _choose(dialog.target, "iso2022_jp")
    assert dialog.target.preview.toPlainText().splitlines()[0] == "皆さん、おはようございます。"
    assert "Warning" not in dialog.target.status.text()
    assert dialog._documents["tgt"] is not None and dialog._documents["tgt"].texts()[1] == "今日は水についてお話しします。"


def test_new_talk_dialog_latin1_line_previewed_and_warned(dialog, tmp_path) -> None:
    mixed = "Grüße aus Köln.\n".encode() + "Café crème.\n".encode("latin-1") + "Danke schön.\n".encode()
    _choose_file(dialog.source, tmp_path / "mixed.de.txt", mixed)
    # Auto reads each line right and warns about line 2.
    assert dialog.source.preview.toPlainText().splitlines() == ["Grüße aus Köln.", "Café crème.", "Danke schön."]
    assert "Warning:" in dialog.source.status.text() and "line 2" in dialog.source.status.text()
    # UTF-8 chosen: line 2 cannot be read, and the message names it.
    _choose(dialog.source, "utf-8")
    assert "line 2" in dialog.source.status.text() and dialog._documents["src"] is None
    # A whole Latin-1 file reads right as Windows-1252.
    _choose(dialog.source, "cp1252")
    _choose_file(dialog.source, tmp_path / "latin.txt", "Café crème.\nÀ bientôt.\n".encode("latin-1"))
    assert dialog.source.preview.toPlainText() == "Café crème.\nÀ bientôt."
    assert dialog._documents["src"] is not None and dialog._documents["src"].texts() == ["Café crème.", "À bientôt."]


# -- other items -----------------------------------------------------------------

@pytest.mark.parametrize(
    "source, target, expected",
    [
        ("/d/ted_1234/src.txt", "/d/ted_1234/tgt.txt", "ted_1234"),
        ("/d/water/en.srt", "/d/water/ja.srt", "water"),
        ("/d/x/lecture_en.txt", "/d/x/lecture_interp_ja.txt", "lecture"),
        ("/d/x/ted_42.en.srt", "/d/x/ted_42.ja.srt", "ted_42"),
        ("/d/x/source.txt", "/d/x/target.txt", "talk"),  # a one-letter folder says nothing either
        ("/d/talks/bread_source.txt", "/d/talks/bread_target.txt", "bread"),
        ("/tmp/src.tsv", "/tmp/tgt.tsv", "talk"),  # a scratch folder names no talk
        ("/home/me/Downloads/en.srt", "/home/me/Downloads/ja.srt", "talk"),
        ("/home/me/Desktop/src.txt", "/home/me/Desktop/tgt.txt", "talk"),
    ],
)
def test_talk_id_from_both_file_names(source, target, expected) -> None:
    assert talk_id_from_path(source, target) == expected


def test_new_talk_dialog_talk_id_from_folder_when_names_are_generic(dialog, tmp_path) -> None:
    folder = tmp_path / "ted_1234"
    folder.mkdir()
    (folder / "src.srt").write_text(SOURCE_SRT, encoding="utf-8")
    (folder / "tgt.srt").write_text(TARGET_SRT, encoding="utf-8")
    dialog.source.set_path(str(folder / "src.srt"))
    dialog.target.set_path(str(folder / "tgt.srt"))
    assert dialog.talk_id.text() == "ted_1234"
    assert "folder ted_1234" in dialog.talk_id.toolTip()
    dialog.accept()
    assert dialog.project().talk_id == "ted_1234"


def test_new_talk_dialog_typed_talk_id_is_kept(qtbot, dialog, files) -> None:
    dialog.source.set_path(str(files["ted_42.en.srt"]))
    assert dialog.talk_id.text() == "ted_42"
    qtbot.keyClicks(dialog.talk_id, "_b")
    dialog.target.set_path(str(files["ted_42.ja.srt"]))
    assert dialog.talk_id.text() == "ted_42_b"


def test_new_talk_dialog_messages_wrap_and_carry_tooltips(qtbot, dialog, files, tmp_path) -> None:
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.source.set_path(str(files["bad.srt"]))
    long_path = tmp_path / ("a_folder_with_a_long_name_" * 4) / "the_recording_of_the_source_speech.wav"
    dialog.source_audio.set_path(str(long_path))
    for status in (dialog.source.status, dialog.source_audio.status):
        assert status.wordWrap() and status.toolTip() == status.text()
        # Every line of the message is shown: the label is as tall as its wrapped text needs.
        assert status.height() >= status.heightForWidth(status.width())
        assert status.geometry().right() <= status.parentWidget().width()
    status = dialog.source.status
    assert "bad.srt" in status.toolTip()
    dialog.accept()
    assert dialog.message.wordWrap() and dialog.message.toolTip() == dialog.message.text() != ""


def test_new_talk_dialog_stale_error_goes_when_file_is_fixed(dialog, files) -> None:
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QApplication

    bad = files["bad.srt"]
    dialog.source.set_path(str(bad))
    assert "line 6" in dialog.source.status.text()
    bad.write_text(SOURCE_SRT, encoding="utf-8")  # fixed in an editor meanwhile
    QApplication.sendEvent(dialog, QEvent(QEvent.Type.WindowActivate))  # the dialog comes back to the front
    assert "2 segments" in dialog.source.status.text() and "line 6" not in dialog.source.status.text()
    # Broken again: Create reads it again and refuses.
    bad.write_text(BAD_SRT, encoding="utf-8")
    dialog.target.set_path(str(files["ted_42.ja.srt"]))
    dialog.accept()
    assert dialog.result() != NewTalkDialog.DialogCode.Accepted and "line 6" in dialog.source.status.text()


def test_new_talk_dialog_file_dialogs_start_in_the_last_folder(qtbot, files, tmp_path, monkeypatch) -> None:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QFileDialog

    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    starts = []
    answers = iter([str(files["ted_42.en.srt"]), str(files["ted_42.ja.srt"])])

    def choose(parent, caption, start, file_filter):
        starts.append(start)
        return next(answers), ""

    monkeypatch.setattr(QFileDialog, "getOpenFileName", choose)
    dialog = NewTalkDialog(settings=settings)
    qtbot.addWidget(dialog)
    dialog.source.browse()
    dialog.target.browse()
    assert starts[0] != str(files["ted_42.en.srt"].parent)
    assert starts[1] == str(files["ted_42.en.srt"].parent)
    # A new dialog (another day) starts there too.
    again = NewTalkDialog(settings=settings)
    qtbot.addWidget(again)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda p, c, start, f: (starts.append(start), ("", ""))[1])
    again.reference.browse()
    assert starts[-1] == str(files["ted_42.en.srt"].parent)


def test_new_talk_dialog_a_failed_read_leaves_nothing_of_the_previous_file(dialog, files, tmp_path) -> None:
    """The preview and the talk id describe the file chosen now, never one read before it."""
    dialog.source.set_path(str(files["ted_42.en.srt"]))
    assert dialog.talk_id.text() == "ted_42"
    assert "Good morning" in dialog.source.preview.toPlainText()
    # An unreadable pick (a UTF-16 file chosen as UTF-8 fails to decode): no old preview, old name.
    _choose_file(dialog.source, tmp_path / "other_talk.txt", "Hello.\n".encode("utf-16"))
    _choose(dialog.source, "utf-8")
    assert "Good morning" not in dialog.source.preview.toPlainText()
    assert not dialog.source.preview.isVisibleTo(dialog) or dialog.source.preview.toPlainText() == ""
    assert dialog.talk_id.text() != "other_talk"
    # A file that decodes but does not parse still shows its own first lines.
    dialog.source.set_path(str(files["bad.srt"]))
    assert "Broken timing" in dialog.source.preview.toPlainText()
    assert dialog.talk_id.text() != "bad"


def test_new_talk_dialog_offers_the_columns_of_a_tsv(dialog, tmp_path) -> None:
    """A TSV headed ``id  en  ja`` names no text column: the reader picks one, nothing is guessed."""
    _choose_file(dialog.target, tmp_path / "pairs.tsv", "id\ten\tja\n1\tHello.\tこんにちは。\n2\tBye.\tさようなら。\n".encode())
    assert dialog.target.tier.isVisibleTo(dialog)
    assert [dialog.target.tier.itemText(i) for i in range(dialog.target.tier.count())] == ["choose the text column", "id", "en", "ja"]
    assert dialog._documents["tgt"] is None and "no text column" in dialog.target.status.text()
    dialog.target.tier.setCurrentText("ja")
    assert dialog._documents["tgt"] is not None and dialog._documents["tgt"].texts() == ["こんにちは。", "さようなら。"]
    assert dialog.target_language.currentText() == "ja"
    # A header with a text column reads it at once, and offers the others.
    _choose_file(dialog.source, tmp_path / "timed.tsv", b"start\tend\ttext\tspeaker\n1.0\t2.0\tHello.\tA\n")
    assert [dialog.source.tier.itemText(i) for i in range(dialog.source.tier.count())] == ["text", "speaker"]
    assert dialog._documents["src"].texts() == ["Hello."]


def test_new_talk_dialog_clearing_a_field_clears_its_preview_at_once(dialog, files) -> None:
    dialog.source.set_path(str(files["ted_42.en.srt"]))
    assert not dialog.source.preview.isHidden() and not dialog.source.status.isHidden()
    dialog.source.edit.clear()  # the ⊗ button, focus still in the field
    assert dialog.source.preview.isHidden() and dialog.source.status.isHidden()
    assert dialog._documents["src"] is None


def test_new_talk_dialog_warns_when_the_reference_language_differs(dialog, tmp_path) -> None:
    src = tmp_path / "t.en.txt"
    src.write_text("The bread is good.\nWe bake it every day.\n", encoding="utf-8")
    tgt = tmp_path / "t.zh.txt"
    tgt.write_text("面包很好吃。\n我们每天都烤面包。\n", encoding="utf-8")
    ref = tmp_path / "t.ref.txt"
    ref.write_text("パンはおいしいです。\n私たちは毎日パンを焼きます。\n", encoding="utf-8")
    for field, path in ((dialog.source, src), (dialog.target, tgt), (dialog.reference, ref)):
        field.set_path(str(path))
    assert dialog.target_language.currentText() == "zh"
    text = dialog.reference.status.text()
    assert "language ja" in text and "interpretation is zh" in text


def test_new_talk_dialog_gbk_read_as_windows_1252_names_gbk_and_keeps_the_language(dialog, tmp_path) -> None:
    text = "我们今天谈谈水资源的问题。\n水是最宝贵的资源。\n但是我们每天都在浪费它。\n"
    _choose_file(dialog.target, tmp_path / "talk.zh.txt", text.encode("gbk"))
    _choose(dialog.target, "gb18030")
    assert dialog.target_language.currentText() == "zh"
    _choose(dialog.target, "cp1252")
    status = dialog.target.status.text()
    assert "GB18030" in status and "UTF-8 read as" not in status, status
    assert dialog.target_language.currentText() == "zh"


def _rows(dialog) -> list:
    """The dialog's fields top to bottom, each as its rectangle in the dialog's coordinates."""
    from PySide6.QtCore import QRect

    widgets = [dialog.source, dialog.source_language, dialog.target, dialog.target_language, dialog.reference,
               dialog.source_audio, dialog.target_audio, dialog.talk_id, dialog.interpreter, dialog.rank]
    return [QRect(w.mapTo(dialog, w.rect().topLeft()), w.size()) for w in widgets]


def _assert_laid_out(dialog) -> None:
    """No field overlaps the next; in each file field the path row, the preview and the message follow each other."""
    rows = _rows(dialog)
    for upper, lower in zip(rows, rows[1:]):
        assert upper.bottom() < lower.top(), (upper, lower)
    for field in (dialog.source, dialog.target, dialog.reference, dialog.source_audio, dialog.target_audio):
        parts = [field.edit] + ([field.preview] if field.preview is not None else []) + [field.status]
        shown = [w.geometry() for w in parts if w.isVisibleTo(field)]
        for upper, lower in zip(shown, shown[1:]):
            assert upper.bottom() < lower.top(), (field.caption, upper, lower)
        assert shown[-1].bottom() <= field.height()
        # A message is as tall as its wrapped lines: nothing of it is drawn over the preview or cut.
        if field.status.isVisibleTo(field) and field.status.text():
            assert field.status.height() >= field.status.heightForWidth(field.status.width())


def test_new_talk_dialog_a_file_not_found_moves_no_field(qtbot, dialog, files, tmp_path) -> None:
    """Reading a file as the focus leaves for the next field (a click there) keeps every field where it was."""
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtTest import QTest

    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.source.set_path(str(files["ted_42.en.srt"]))
    dialog.target.edit.setFocus()
    qtbot.keyClicks(dialog.target.edit, str(tmp_path / "missing.ja.srt"))
    qtbot.wait(20)  # typing a path made room for its preview and message
    before = _rows(dialog)
    # The user clicks the reference's path: the interpretation is read as its field loses the focus.
    at = dialog.reference.edit.mapTo(dialog, QPoint(20, 8))
    QTest.mouseClick(dialog.windowHandle(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, at)
    qtbot.wait(20)
    assert "missing.ja.srt: file not found" in dialog.target.status.text()
    assert dialog.reference.edit.hasFocus()
    assert _rows(dialog) == before
    _assert_laid_out(dialog)
    # The file found: its preview and summary take the same room.
    dialog.target.set_path(str(files["ted_42.ja.srt"]))
    assert "2 segments" in dialog.target.status.text()
    assert _rows(dialog) == before
    _assert_laid_out(dialog)


def test_new_talk_dialog_a_long_message_grows_its_field_after_the_click(qtbot, dialog, files, tmp_path) -> None:
    """A message of several lines waits for the mouse button, then grows its field without covering the preview."""
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtTest import QTest

    dialog.show()
    qtbot.waitExposed(dialog)
    qtbot.wait(50)  # activated (which reads every changed path again) before the typing starts
    dialog.target.set_path(str(files["ted_42.ja.srt"]))
    missing = tmp_path / ("the_source_transcript_of_a_talk_with_a_very_long_file_name_" * 3 + ".srt")
    dialog.source.edit.setFocus()
    qtbot.keyClicks(dialog.source.edit, str(missing))
    qtbot.wait(20)
    before = _rows(dialog)
    target_edit = dialog.target.edit
    # Through the window, as the system delivers a click (the button is down while the focus moves).
    window, at = dialog.windowHandle(), target_edit.mapTo(dialog, QPoint(20, 8))
    QTest.mousePress(window, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, at)
    qtbot.wait(20)
    # Held down: nothing has moved under the pointer yet.
    assert _rows(dialog) == before and dialog.source.status.text() == ""
    QTest.mouseRelease(window, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, at)
    qtbot.waitUntil(lambda: "file not found" in dialog.source.status.text(), timeout=2000)
    assert target_edit.hasFocus()
    # Laid out as the message is set (no frame drawn with the message over the preview).
    assert dialog.source.status.height() > 1.5 * dialog.source.status.fontMetrics().lineSpacing()
    _assert_laid_out(dialog)
    # A two-line warning under the interpretation: its summary stays below its preview, the fields below follow.
    gbk = tmp_path / "talk.zh.txt"
    _choose_file(dialog.target, gbk, "你好世界。\n水资源\n".encode("gbk"))
    qtbot.wait(20)
    _assert_laid_out(dialog)


def test_new_talk_dialog_message_forgets_a_problem_once_fixed(dialog, files) -> None:
    dialog.source.set_path(str(files["ted_42.en.srt"]))
    dialog.accept()  # nothing chosen for the interpretation yet
    assert "Choose the interpretation transcript" in dialog.message.text()
    dialog.target.set_path(str(files["ted_42.ja.srt"]))
    assert "Choose the interpretation transcript" not in dialog.message.text()
    assert dialog.message.text() == ""


def test_new_talk_dialog_suggests_the_code_of_a_typed_language_name(qtbot, dialog, files) -> None:
    dialog.source.set_path(str(files["ted_42.en.srt"]))
    dialog.target.set_path(str(files["ted_42.ja.srt"]))
    dialog.source_language.setEditText("english")
    hint, use = dialog.language_hints["src"]
    assert not hint.isHidden() and "“english” is the code “en”" in hint.text() and use.text() == "Use en"
    use.click()
    assert dialog.source_language.currentText() == "en" and hint.isHidden() and use.isHidden()
    dialog.target_language.setEditText("klingon")
    hint, use = dialog.language_hints["tgt"]
    assert "is not a language code" in hint.text() and use.isHidden()
    assert any("interpretation language" in p for p in dialog.problems())


@pytest.mark.packaged_speech_models
def test_new_talk_dialog_hears_the_language_of_a_recording(qtbot, tmp_path) -> None:
    import shutil
    from pathlib import Path

    pytest.importorskip("faster_whisper")
    from whisper_models import missing_reason

    if missing_reason():
        pytest.skip(missing_reason())
    japanese = Path(__file__).resolve().parents[3] / "resources" / "examples" / "talk.ja.ogg"
    interpreter, speaker = tmp_path / "interpreter.ogg", tmp_path / "speaker.ogg"  # no language in the names
    shutil.copy(japanese, interpreter)
    shutil.copy(japanese, speaker)
    dialog = NewTalkDialog()
    qtbot.addWidget(dialog)
    dialog._set_language(dialog.target_language, "en")  # as the dialog would have it, not the user's choice
    dialog.target_audio.set_path(str(interpreter))
    qtbot.waitUntil(lambda: dialog.target_language.currentText() == "ja", timeout=120_000)
    assert "language ja, heard by the speech model" in dialog.target_audio.status.text()
    # A language the user chose stays; the speech model's disagreement is said under the recording.
    dialog.source_language.setEditText("fr")
    dialog.source_audio.set_path(str(speaker))
    qtbot.waitUntil(lambda: "sounds like ja" in dialog.source_audio.status.text(), timeout=120_000)
    assert dialog.source_language.currentText() == "fr" and "not fr" in dialog.source_audio.status.text()
