"""Word links in the app: the bead panel's Word links tab (pointer, click, keys), the background
service that links only changed beads, and the Rendered column."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from tests.word_link_fakes import SpellingLinker, en_fr_project

import sialign.workflows.word_links as word_links_flow
from sialign.core.edits import SetPostEdit
from sialign.gui.bead.bead_inspector import BeadInspector
from sialign.gui.bead.links_service import LinksService
from sialign.gui.bead.word_links_view import (
    CHOSEN_COLOUR,
    LINKED_COLOUR,
    PARAPHRASE_COLOUR,
    UNRENDERED_COLOUR,
    WordLinksView,
    rendered_share_text,
)
from sialign.gui.common.session import ProjectSession
from sialign.gui.table.table_model import Column, SegmentTableModel
from sialign.workflows.word_links import update_word_links

pytestmark = [pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints")]


def _linked_project():
    project = en_fr_project()
    update_word_links(project, linker=SpellingLinker())
    return project


def _view(qtbot, project):
    from sialign.core.word_links import link_texts, links_of

    view = WordLinksView()
    qtbot.addWidget(view)
    view.resize(500, 200)
    bead = project.alignment.beads[0]
    view.set_links(links_of(project, bead), *link_texts(project, bead))
    view.show()
    qtbot.waitExposed(view)
    return view


def _box(view, side, index):
    return next(b for b in view._boxes if (b.side, b.index) == (side, index))


def _colour_at(view, side, index):
    box = _box(view, side, index)
    image = view.grab().toImage()
    ratio = view.devicePixelRatioF()
    return image.pixelColor(int((box.rect.left() + 1) * ratio), int((box.rect.top() + 1) * ratio)).name()


def test_word_links_view_hover_highlights_the_word_and_its_counterparts(qtbot) -> None:
    view = _view(qtbot, _linked_project())
    # Source: The budget is 300 million euros .  Target: Le budget est de 300 millions d'euros .
    assert _colour_at(view, "src", 4) == UNRENDERED_COLOUR.name()  # "million": a content word without a link
    assert _colour_at(view, "src", 0) != UNRENDERED_COLOUR.name()  # "The": a function word
    with qtbot.waitSignal(view.word_chosen) as chosen:
        qtbot.mouseMove(view, _box(view, "src", 1).rect.center())
    assert chosen.args == ["src", 1] and view.current() == ("src", 1)
    assert _colour_at(view, "src", 1) == CHOSEN_COLOUR.name()
    assert _colour_at(view, "tgt", 1) == LINKED_COLOUR.name()  # budget → budget
    assert _colour_at(view, "tgt", 4) != LINKED_COLOUR.name()


def test_word_links_view_click_keeps_a_word_and_arrow_keys_move_through_the_words(qtbot) -> None:
    view = _view(qtbot, _linked_project())
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=_box(view, "tgt", 4).rect.center())
    assert view.focusPolicy() == Qt.FocusPolicy.StrongFocus and view._chosen == ("tgt", 4)
    assert view.counterparts("tgt", 4) == [3]  # 300 → 300
    qtbot.mouseMove(view, QPoint(2, view.height() - 2))  # off the words: the click's choice stays
    view.leaveEvent(None)  # type: ignore[arg-type]
    assert view.current() == ("tgt", 4)
    assert _colour_at(view, "src", 3) == LINKED_COLOUR.name()
    qtbot.keyClick(view, Qt.Key.Key_Home)
    assert view.current() == ("src", 0)
    qtbot.keyClick(view, Qt.Key.Key_Right)
    qtbot.keyClick(view, Qt.Key.Key_Right)
    assert view.current() == ("src", 2)
    qtbot.keyClick(view, Qt.Key.Key_Left)
    assert view.current() == ("src", 1) and _colour_at(view, "tgt", 1) == LINKED_COLOUR.name()
    qtbot.keyClick(view, Qt.Key.Key_End)
    assert view.current() == ("tgt", 7)  # the last word of the interpretation
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    assert view.current() is None


def test_bead_inspector_word_links_tab_follows_the_selection(qtbot) -> None:
    session = ProjectSession()
    session.set_project(_linked_project())
    inspector = BeadInspector(session)
    qtbot.addWidget(inspector)
    session.select_bead(1)
    assert inspector.links_view.links is not None
    assert [t for t, _, _ in inspector.links_view.links.src_tokens][:3] == ["Paris", "and", "Berlin"]
    inspector.set_links_message("Drawing the word links of 1 bead…")
    session.apply(SetPostEdit(1, "Paris et Berlin sont d'accord."))
    assert inspector.links_view.links is None and "Drawing" in inspector.links_view.message


def test_links_service_links_only_the_edited_bead_and_updates_the_table(qtbot, monkeypatch) -> None:
    monkeypatch.setattr(LinksService, "auto", True)
    linker = SpellingLinker()
    calls: list[int] = []
    real = word_links_flow.compute_links

    def counting(project, pairs, **kwargs):
        calls.append(len(pairs))
        return real(project, pairs, **kwargs)

    monkeypatch.setattr(word_links_flow, "compute_links", counting)
    session = ProjectSession()
    service = LinksService(session, linker_factory=lambda: linker)
    model = SegmentTableModel(lambda: session.project)
    session.project_replaced.connect(model.reset)
    session.edited.connect(lambda _edit: model.sync())
    service.links_changed.connect(model.links_changed)
    with qtbot.waitSignal(service.links_changed, timeout=10000):
        session.set_project(en_fr_project())
    assert calls == [3]
    assert model.data(model.index(0, Column.RENDERED)) == "50%"
    assert "not found: million, euros" in model.data(model.index(0, 0), Qt.ItemDataRole.ToolTipRole)
    with qtbot.waitSignal(service.links_changed, timeout=10000):
        session.apply(SetPostEdit(0, "Le budget est de 300 million euros."))
    assert calls == [3, 1]
    assert model.data(model.index(0, Column.RENDERED)) == "100%"
    # Undo brings back a text whose links are gone from the store: linked again, alone.
    with qtbot.waitSignal(service.links_changed, timeout=10000):
        session.undo_stack.undo()
    assert calls == [3, 1, 1] and model.data(model.index(0, Column.RENDERED)) == "50%"
    assert not session.is_modified  # links are derived data: they do not ask to be saved
    qtbot.waitUntil(lambda: not service.busy)
    service.shutdown()


def test_word_links_view_explains_its_colours_and_share(qtbot) -> None:
    view = WordLinksView()
    qtbot.addWidget(view)
    # No tooltip over the words (it hid the words that light up): the help is the tab's "?" button.
    assert view.toolTip() == ""
    session = ProjectSession()
    inspector = BeadInspector(session)
    qtbot.addWidget(inspector)
    help_text = inspector.links_help.toolTip()
    assert inspector.links_help.text() == "?"
    assert "rendered by paraphrase" in help_text and "not found" in help_text and "Left/Right" in help_text


def test_word_links_view_shows_linked_paraphrased_and_not_found_words_apart(qtbot) -> None:
    import dataclasses

    from sialign.core.word_links import bead_link_key, link_texts

    project = _linked_project()
    bead = project.alignment.beads[0]
    key = bead_link_key(*link_texts(project, bead))
    # "million" (4) rendered by paraphrase; "euros" (5) not found; "budget" (1) linked.
    stored = project.word_links.beads[key]
    project.word_links.beads[key] = dataclasses.replace(stored, paraphrased=(4,))
    view = _view(qtbot, project)
    assert _colour_at(view, "src", 4) == PARAPHRASE_COLOUR.name()
    assert _colour_at(view, "src", 5) == UNRENDERED_COLOUR.name()
    assert _colour_at(view, "src", 1) not in (PARAPHRASE_COLOUR.name(), UNRENDERED_COLOUR.name())
    text = rendered_share_text(view.links)
    assert text == "75% of the source's content words rendered: 2 linked, 1 by paraphrase, 1 not found"
    session = ProjectSession()
    session.set_project(project)
    inspector = BeadInspector(session)
    qtbot.addWidget(inspector)
    session.select_bead(0)
    assert inspector.links_share.text() == text
