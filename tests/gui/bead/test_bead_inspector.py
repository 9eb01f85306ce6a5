"""The bead inspector: the caret is the edit point, in Python characters, whatever the script."""

from __future__ import annotations

import pytest

from sialign.core.model import Alignment, Bead, Document, Project
from sialign.gui.bead.bead_inspector import BeadInspector, utf16_to_index
from sialign.gui.common.session import ProjectSession

# Qt warnings fail these tests (as in pyqtgraph's suite): a warning about threads or
# timers is a bug. The offscreen platform's note about size hints is not.
pytestmark = [pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints")]


@pytest.mark.parametrize(
    "text, utf16, expected",
    [
        ("abc", 2, 2),
        ("水は、資源", 3, 3),
        ("𠮷野家で食べた", 2, 1),  # 𠮷 lies outside the BMP: two UTF-16 units, one character
        ("😀 smile", 3, 2),
        ("", 0, 0),
    ],
)
def test_bead_inspector_utf16_to_index(text, utf16, expected) -> None:
    assert utf16_to_index(text, utf16) == expected


def test_bead_inspector_cursor_names_segment_and_offset(qtbot) -> None:
    source = Document.from_texts(["First sentence.", "Second one\nwith a line break."], language="en")
    target = Document.from_texts(["𠮷野家で、", "食べました。"], language="ja")
    project = Project(source=source, target=target,
                      alignment=Alignment(beads=[Bead(src=(0, 1), tgt=(0, 1))]))
    session = ProjectSession()
    session.set_project(project)
    inspector = BeadInspector(session)
    qtbot.addWidget(inspector)
    session.select_bead(0)
    # One paragraph per segment, even when a segment holds a line break.
    assert inspector.source_view.document().blockCount() == 2
    inspector.focus_side("src")
    inspector.source_view.place_cursor(1, 11)
    where = inspector.current_segment()
    assert (where.side, where.seg_id, where.offset) == ("src", 1, 11)
    assert source.segments[1].text[where.offset:] == "with a line break."
    inspector.focus_side("tgt")
    inspector.target_view.place_cursor(0, 3)
    where = inspector.current_segment()
    assert (where.side, where.seg_id, where.offset) == ("tgt", 0, 3)
    assert target.segments[0].text[:where.offset] == "𠮷野家"


def test_bead_inspector_split_in_a_rare_kanji_segment(qtbot) -> None:
    from sialign.core.edits import SplitSegment

    target = Document.from_texts(["𠮷野家で食べました。"], language="ja")
    project = Project(source=Document.from_texts(["I ate at Yoshinoya."], language="en"), target=target,
                      alignment=Alignment(beads=[Bead(src=(0,), tgt=(0,))]))
    session = ProjectSession()
    session.set_project(project)
    inspector = BeadInspector(session)
    qtbot.addWidget(inspector)
    session.select_bead(0)
    inspector.focus_side("tgt")
    inspector.target_view.place_cursor(0, 4)
    where = inspector.current_segment()
    assert session.apply(SplitSegment(where.side, where.seg_id, where.offset))
    assert [s.text for s in project.target] == ["𠮷野家で", "食べました。"]
    assert inspector.target_view.toPlainText() == "𠮷野家で\n食べました。"


def test_bead_inspector_labels_and_post_edit_are_edits(qtbot, session) -> None:
    from PySide6.QtCore import Qt

    inspector = BeadInspector(session)
    qtbot.addWidget(inspector)
    session.select_bead(1)
    inspector.good_align.setCheckState(Qt.CheckState.Checked)
    inspector.good_mt.setCheckState(Qt.CheckState.Unchecked)
    inspector.apply_labels()
    bead = session.project.alignment.beads[1]
    assert (bead.good_align, bead.good_mt) == (True, False)
    inspector.post_edit.setText("  今日は水の話です。 ")
    inspector.apply_post_edit()
    assert session.project.alignment.beads[1].post_edit == "今日は水の話です。"
    inspector.clear_post_edit()
    assert session.project.alignment.beads[1].post_edit is None
    assert session.undo_stack.count() == 3
    inspector.apply_labels()  # nothing changed: no empty step on the undo stack
    assert session.undo_stack.count() == 3


def test_bead_inspector_calls_a_written_translation_a_translation(qtbot) -> None:
    source = Document.from_texts(["It was a dark night."], language="en")
    target = Document.from_texts(["C'était une nuit sombre."], language="fr")
    alignment = Alignment(beads=[Bead(src=(0,), tgt=(0,))], info={"text_kind": "translation"})
    session = ProjectSession()
    session.set_project(Project(source=source, target=target, alignment=alignment))
    inspector = BeadInspector(session)
    qtbot.addWidget(inspector)
    session.select_bead(0)
    assert inspector.target_box.title() == "Target segments (translation)"
    assert "translation" in inspector.tabs.tabToolTip(1) and "interpretation" not in inspector.links_help.toolTip()
    assert inspector.links_view._labels()["tgt"] == "Translation"
    alignment.info["text_kind"] = "interpretation"
    session.select_bead(0)
    inspector.show_bead(0)
    assert inspector.target_box.title() == "Target segments (interpretation)"
    assert inspector.links_view._labels()["tgt"] == "Interpretation" and "interpreter" in inspector.links_help.toolTip()
