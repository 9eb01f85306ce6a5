"""Review commands with qtbot: merge status rule, confirm-and-advance, confirm up to here, text and time edits,
shifting times, the post-edit prefill and find/replace in post-edits."""

from __future__ import annotations

import pytest

from sialign.core.edits import SetStatus
from sialign.core.model import BeadStatus

pytestmark = [pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints")]


def _statuses(window) -> list[BeadStatus]:
    return [b.status for b in window.session.project.alignment.beads]


def test_merging_a_confirmed_with_an_auto_bead_says_it_becomes_auto_and_undo_restores(window) -> None:
    # Bead 4 (index 3) is confirmed, bead 5 auto.
    before = [b.to_dict() for b in window.session.project.alignment.beads]
    window.session.select_bead(3)
    window.act.merge_beads.trigger()
    assert _statuses(window)[3] is BeadStatus.AUTO and len(_statuses(window)) == 5
    message = window.statusBar().currentMessage()
    assert "bead 4 was confirmed" in message.lower() and "auto" in message
    window.session.undo_stack.undo()
    assert [b.to_dict() for b in window.session.project.alignment.beads] == before


def test_merging_two_confirmed_beads_keeps_confirmed_without_notice(window) -> None:
    window.session.apply(SetStatus((2,), BeadStatus.CONFIRMED))
    window.statusBar().clearMessage()
    window.session.select_bead(2)
    window.act.merge_beads.trigger()
    assert _statuses(window)[2] is BeadStatus.CONFIRMED
    assert window.statusBar().currentMessage() == ""
    window.session.undo_stack.undo()
    assert _statuses(window)[2:4] == [BeadStatus.CONFIRMED, BeadStatus.CONFIRMED]


def test_confirm_moves_to_next_unconfirmed_when_the_option_is_on_and_remembered(qtbot, window) -> None:
    from sialign.gui.common.session import ProjectSession
    from sialign.gui.main.main_window import MainWindow

    window.session.select_bead(2)
    window.act.confirm.trigger()
    assert window.session.selected_bead == 2  # off by default: stays
    window.act.confirm_advance.trigger()  # on
    assert window.act.confirm_advance.isChecked()
    window.act.confirm.trigger()  # bead 3 is confirmed already; confirming again moves past bead 4 (confirmed)
    assert window.session.selected_bead == 4
    window.act.confirm.trigger()
    assert _statuses(window)[4] is BeadStatus.CONFIRMED and window.session.selected_bead == 5
    window.settings.sync()
    other = MainWindow(ProjectSession())
    qtbot.addWidget(other)
    assert other.act.confirm_advance.isChecked() and other.review.confirm_advances


def test_confirm_all_up_to_here_is_one_step_and_skips_dropped(window) -> None:
    window.session.apply(SetStatus((1,), BeadStatus.DROPPED, "noise"))
    window.session.select_bead(4)
    window.act.confirm_up_to.trigger()
    assert _statuses(window) == [BeadStatus.CONFIRMED, BeadStatus.DROPPED, BeadStatus.CONFIRMED,
                                 BeadStatus.CONFIRMED, BeadStatus.CONFIRMED, BeadStatus.AUTO]
    assert window.session.undo_stack.undoText() == "Confirm all beads up to bead 5"
    window.session.undo_stack.undo()
    assert _statuses(window) == [BeadStatus.AUTO, BeadStatus.DROPPED, BeadStatus.AUTO, BeadStatus.CONFIRMED,
                                 BeadStatus.AUTO, BeadStatus.AUTO]
    assert window.session.project.alignment.beads[1].reason == "noise"


def _cursor_in(window, side: str, seg_index: int) -> None:
    window.inspector.focus_side(side)
    window.inspector.view_for(side).place_cursor(seg_index, 0)


def test_edit_segment_text_in_place_undoes(window, monkeypatch) -> None:
    window.session.select_bead(1)
    _cursor_in(window, "tgt", 1)  # 水についてお話しします。 (target row 3)
    asked = []
    monkeypatch.setattr(window.review.questions, "segment_text", lambda title, text: asked.append((title, text)) or "水の話をします。")
    window.act.edit_text.trigger()
    assert asked == [("Edit the text of target segment 3", "水についてお話しします。")]
    assert window.session.project.target.get(2).text == "水の話をします。"
    assert window.table_model.data(window.table_model.index(1, 1)).endswith("水の話をします。")
    assert window.session.undo_stack.undoText() == "Edit the text of target segment 3"
    window.session.undo_stack.undo()
    assert window.session.project.target.get(2).text == "水についてお話しします。"
    assert window.inspector.target_view.toPlainText().endswith("水についてお話しします。")


@pytest.mark.parametrize(
    ("answer", "refusal"),
    [((3.5, 3.0), "must start before it ends"), ((2.0, 2.0), "must start before it ends"), ((-1.0, 2.0), "negative")],
)
def test_edit_segment_times_validates(window, monkeypatch, answer, refusal) -> None:
    window.session.select_bead(1)
    _cursor_in(window, "src", 0)
    monkeypatch.setattr(window.review.questions, "segment_times", lambda title, start, end: answer)
    window.act.edit_times.trigger()
    assert window.session.undo_stack.count() == 0
    assert refusal in window.statusBar().currentMessage()


def test_edit_segment_times_applies_and_undoes(window, monkeypatch) -> None:
    from sialign.gui.dialogs.review_questions import TimesDialog

    window.session.select_bead(1)
    _cursor_in(window, "src", 0)  # source segment 2: 2.0–3.8 s
    monkeypatch.setattr(window.review.questions, "segment_times", lambda title, start, end: (2.25, 3.5))
    window.act.edit_times.trigger()
    seg = window.session.project.source.get(1)
    assert (seg.start, seg.end) == (2.25, 3.5)
    assert window.session.undo_stack.undoText() == "Set the times of source segment 2"
    window.session.undo_stack.undo()
    seg = window.session.project.source.get(1)
    assert (seg.start, seg.end) == (2.0, 3.8)
    # The dialog itself refuses OK for impossible times.
    dialog = TimesDialog("t", 2.0, 3.8, window)
    dialog.end.setValue(1.0)
    assert "before it ends" in dialog.message.text()
    assert not dialog.buttons.button(dialog.buttons.StandardButton.Ok).isEnabled()


def test_shift_times_clamps_with_a_message_and_undoes_in_one_step(window, monkeypatch) -> None:
    before = [(s.start, s.end) for s in window.session.project.target.segments]
    monkeypatch.setattr(window.review.questions, "shift", lambda: ("tgt", -1.5))
    window.act.shift_times.trigger()
    after = [(s.start, s.end) for s in window.session.project.target.segments]
    assert after[0] == (0.0, pytest.approx(0.6)) and after[1][0] == pytest.approx(0.7)  # 1.0 - 1.5 clamps at 0
    assert after[-1] == (pytest.approx(before[-1][0] - 1.5), pytest.approx(before[-1][1] - 1.5))
    assert "1 segment would have started before 0 s" in window.statusBar().currentMessage()
    assert window.session.undo_stack.count() == 1
    assert window.session.undo_stack.undoText() == "Shift the target times by -1.500 s"
    window.session.undo_stack.undo()
    assert [(s.start, s.end) for s in window.session.project.target.segments] == before


def test_post_edit_is_prefilled_with_the_interpretation_and_saved_only_when_changed(window) -> None:
    inspector = window.inspector
    window.session.select_bead(1)
    assert inspector.post_edit.text() == "今日は、水についてお話しします。"
    inspector.apply_post_edit()
    assert window.session.project.alignment.beads[1].post_edit is None
    assert window.session.undo_stack.count() == 0
    inspector.post_edit.setText("今日は水についてお話しします。")
    inspector.apply_post_edit()
    assert window.session.project.alignment.beads[1].post_edit == "今日は水についてお話しします。"
    # A bead with a trimmed filler starts from the text without it.
    window.session.select_bead(4)
    assert inspector.post_edit.text() == "数字をお見せします。"


def test_find_and_replace_in_post_edits_previews_and_is_one_step(window, monkeypatch) -> None:
    from sialign.core.edits import SetPostEdit
    from sialign.gui.dialogs.review_questions import FindReplaceDialog

    for i, text in ((0, "皆さん、おはよう。"), (2, "水は、貴重な資源です。"), (3, "しかし無駄にしています。")):
        window.session.apply(SetPostEdit(i, text))
    previews = []

    def answer(count):
        dialog = FindReplaceDialog(count, window)
        dialog.find_edit.setText("、")
        previews.append(dialog.preview.text())
        dialog.regex.setChecked(True)
        dialog.find_edit.setText("[")
        previews.append(dialog.preview.text())
        return "、", "", False

    monkeypatch.setattr(window.review.questions, "find_replace", answer)
    window.act.find_replace.trigger()
    assert previews[0] == "2 post-edits would change" and previews[1].startswith("Not a valid regular expression")
    beads = window.session.project.alignment.beads
    assert [b.post_edit for b in beads[:4]] == ["皆さんおはよう。", None, "水は貴重な資源です。", "しかし無駄にしています。"]
    assert window.session.undo_stack.undoText() == "Replace “、” in 2 post-edits"
    window.session.undo_stack.undo()
    assert [b.post_edit for b in beads[:4]] == ["皆さん、おはよう。", None, "水は、貴重な資源です。", "しかし無駄にしています。"]


def test_compact_rows_shows_one_line_per_row_and_is_remembered(qtbot, window) -> None:
    from sialign.gui.common.session import ProjectSession
    from sialign.gui.main.main_window import MainWindow

    line = window.table.fontMetrics().lineSpacing()
    normal = window.table.rowHeight(0)
    assert normal >= 2 * line
    window.act.compact_rows.trigger()
    compact = window.table.rowHeight(0)
    assert compact < 2 * line and compact < normal and not window.table.wordWrap()
    window.settings.sync()
    other = MainWindow(ProjectSession())
    qtbot.addWidget(other)
    assert other.act.compact_rows.isChecked()
    assert other.table.verticalHeader().defaultSectionSize() == window.table.verticalHeader().defaultSectionSize()
    window.act.compact_rows.trigger()
    assert window.table.rowHeight(0) == normal


def test_double_clicking_a_table_text_cell_edits_that_segment(qtbot, window, monkeypatch) -> None:
    from PySide6.QtCore import Qt

    from sialign.gui.table.table_model import Column

    monkeypatch.setattr(window.review.questions, "segment_text", lambda title, text: text.replace("water", "rivers"))
    rect = window.table.visualRect(window.proxy.index(1, Column.SOURCE))
    qtbot.mouseClick(window.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseDClick(window.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.session.project.source.get(1).text == "Today I want to talk about rivers."
    assert window.session.undo_stack.undoText() == "Edit the text of source segment 2"
    # Bead 2 holds two target chunks: the cursor in the bead panel must say which.
    rect = window.table.visualRect(window.proxy.index(1, Column.TARGET))
    qtbot.mouseClick(window.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseDClick(window.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert "holds 2 target segments" in window.statusBar().currentMessage()
    assert window.session.undo_stack.count() == 1
    window.session.undo_stack.undo()
    assert window.session.project.source.get(1).text == "Today I want to talk about water."


def test_edit_text_dialog_wraps_a_long_sentence_and_shows_its_title_whole(qtbot) -> None:
    from PySide6.QtWidgets import QLabel, QPlainTextEdit

    from sialign.gui.dialogs.review_questions import TextDialog, TimesDialog

    title = "Edit the text of target segment 123 (interpretation)"
    dialog = TextDialog(title, "これは長い文です。" * 12)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert dialog.width() >= 560 and dialog.edit.lineWrapMode() is QPlainTextEdit.LineWrapMode.WidgetWidth
    qtbot.wait(50)
    assert dialog.edit.horizontalScrollBar().maximum() == 0  # wrapped, not scrolled sideways
    assert title in [label.text() for label in dialog.findChildren(QLabel)]  # inside: the window manager may cut the title
    times = TimesDialog("Times of interpretation segment 123", 1.0, 2.0)
    qtbot.addWidget(times)
    assert times.minimumWidth() >= times.fontMetrics().horizontalAdvance("Times of interpretation segment 123") + 140
