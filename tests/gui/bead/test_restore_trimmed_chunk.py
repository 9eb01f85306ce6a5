"""The bead inspector's Restore buttons bring back one trimmed chunk as one undoable edit."""

from __future__ import annotations

import pytest

from sialign.core.model import Alignment, Bead, Document, Project
from sialign.gui.bead.bead_inspector import BeadInspector
from sialign.gui.common.session import ProjectSession

pytestmark = [pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints")]


def test_bead_inspector_restore_button_per_trimmed_chunk(qtbot) -> None:
    src = Document.from_texts(["Well, rivers carry water."], "en")
    tgt = Document.from_texts(["えー、", "川は水を運びます。", "あの、"], "ja")
    project = Project(source=src, target=tgt, alignment=Alignment([Bead((0,), (0, 1, 2), trimmed=(0, 2))]))
    session = ProjectSession()
    session.set_project(project)
    inspector = BeadInspector(session)
    qtbot.addWidget(inspector)
    session.select_bead(0)
    assert [b.text() for b in inspector.restore_buttons] == ["Restore “えー、”", "Restore “あの、”"]
    inspector.restore_buttons[1].click()
    bead = session.project.alignment.beads[0]
    assert (bead.trimmed, bead.restored) == ((0,), (2,))
    assert [b.text() for b in inspector.restore_buttons] == ["Restore “えー、”"]
    assert session.undo_stack.undoText() == "Restore trimmed target segment 2 of bead 1"
    session.undo_stack.undo()
    bead = session.project.alignment.beads[0]
    assert (bead.trimmed, bead.restored) == ((0, 2), ())
    assert len(inspector.restore_buttons) == 2
