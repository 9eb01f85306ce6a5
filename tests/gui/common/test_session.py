"""The session and its undo commands: one stack, one selection, modified state, random edit sequences."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from table_checks import assert_rows_match_alignment

from sialign.core import edits
from sialign.core.model import BeadStatus
from sialign.gui.common.session import ProjectSession, touched_segments
from sialign.gui.table.table_model import SegmentTableModel

# Qt warnings fail these tests (as in pyqtgraph's suite): a warning about threads or
# timers is a bug. The offscreen platform's note about size hints is not.
pytestmark = [pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints")]


def test_session_apply_undo_redo_and_modified(session) -> None:
    seen: list[bool] = []
    session.modified_changed.connect(seen.append)
    assert session.apply(edits.SetStatus((0,), BeadStatus.CONFIRMED))
    assert session.is_modified and seen[-1] is True
    assert session.undo_stack.undoText() == edits.SetStatus((0,), BeadStatus.CONFIRMED).describe()
    session.undo_stack.undo()
    assert not session.is_modified and seen[-1] is False
    session.undo_stack.redo()
    assert session.project.alignment.beads[0].status is BeadStatus.CONFIRMED
    session.mark_saved()
    assert not session.is_modified


def test_session_history_records_every_step(session) -> None:
    session.apply(edits.MergeBeads(0))
    session.undo_stack.undo()
    types = [d["type"] for d in session.project.history]
    assert types == ["MergeBeads", "ReplaceBeads"]  # the undo is recorded as its inverse edit


def test_session_dirty_outside_the_stack(session) -> None:
    session.mark_dirty()
    assert session.is_modified
    session.apply(edits.SetStatus((0,), BeadStatus.CONFIRMED))
    session.undo_stack.undo()
    assert session.is_modified  # the filter thresholds still need saving
    session.mark_saved()
    assert not session.is_modified


def test_session_locked_refuses_edits(session) -> None:
    failures: list[str] = []
    session.edit_failed.connect(failures.append)
    session.locked_reason = "Alignment is running"
    assert not session.apply(edits.SetStatus((0,), BeadStatus.CONFIRMED))
    assert failures == ["Alignment is running"]
    assert session.undo_stack.count() == 0


def test_session_selection_clamped_when_beads_disappear(session) -> None:
    selected: list[int] = []
    session.selection_changed.connect(selected.append)
    session.select_bead(5)
    session.apply(edits.MergeBeads(4))
    assert session.selected_bead == 4
    session.select_bead(99)
    assert session.selected_bead == -1
    assert selected == [5, 4, -1]


def test_session_set_project_resets_everything(session, project) -> None:
    session.apply(edits.SetStatus((0,), BeadStatus.CONFIRMED))
    session.select_bead(2)
    replaced: list[bool] = []
    session.project_replaced.connect(lambda: replaced.append(True))
    session.set_project(project, modified=True)
    assert replaced == [True]
    assert session.undo_stack.count() == 0 and session.selected_bead == -1
    assert session.is_modified and session.similarity is None


def test_session_touched_segments() -> None:
    assert touched_segments(edits.EditText("tgt", 3, "x")) == [("tgt", 3)]
    assert touched_segments(edits.SetSegmentTimes("src", 1, 0.0, 1.0)) == [("src", 1)]
    batch = edits.Batch((edits.EditText("src", 0, "a"), edits.MergeBeads(0), edits.EditText("tgt", 2, "b")))
    assert touched_segments(batch) == [("src", 0), ("tgt", 2)]
    assert touched_segments(edits.MergeSegments("tgt", 4)) == [("tgt", 4)]
    assert touched_segments(edits.MergeBeads(1)) == []


def _edit_for(choice: int, a: int, b: int, project):
    beads = project.alignment.beads
    n = len(beads)
    i = a % n
    bead = beads[i]
    side = "src" if b % 2 == 0 else "tgt"
    ids = bead.src if side == "src" else bead.tgt
    if choice == 0:
        return edits.SetStatus((i,), list(BeadStatus)[b % 3], "")
    if choice == 1:
        return edits.MergeBeads(i)
    if choice == 2:
        return edits.SplitBead(i, min(1, len(bead.src)), min(1, len(bead.tgt)))
    if choice == 3 and ids:
        text = project.document(side).get(ids[0]).text
        return edits.SplitSegment(side, ids[0], 1 + b % max(1, len(text) - 1))
    if choice == 4 and ids:
        return edits.MergeSegments(side, ids[-1])
    if choice == 5 and ids:
        return edits.MoveSegment(side, ids[0] if b % 3 else ids[-1], -1 if b % 3 else 1)
    return edits.SetLabels(i, bool(b % 2), None, f"note {b}")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 50), st.integers(0, 50)), min_size=1, max_size=12))
def test_session_random_edit_sequences_keep_the_table_in_step(qapp, make_project, steps) -> None:
    session = ProjectSession()
    session.set_project(make_project())
    original = session.project.to_dict()
    model = SegmentTableModel(lambda: session.project)
    session.edited.connect(lambda e: model.sync(touched_segments(e)))
    # Render every row first, so stale cached rows would show up.
    assert_rows_match_alignment(model, session, statuses=False)
    for choice, a, b in steps:
        session.apply(_edit_for(choice, a, b, session.project))  # refusals are fine: nothing changes
        assert_rows_match_alignment(model, session, statuses=False)
    while session.undo_stack.canUndo():
        session.undo_stack.undo()
        assert_rows_match_alignment(model, session, statuses=False)
    restored = session.project.to_dict()
    for d in (original, restored):
        d.pop("history")
    assert restored == original
