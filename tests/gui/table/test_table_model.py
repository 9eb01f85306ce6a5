"""The segment table model on its own (no view): rows, roles, precise signals on edits and undo."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest
from PySide6.QtCore import QModelIndex, Qt
from table_checks import assert_rows_match_alignment

from sialign.core import edits
from sialign.core.model import Alignment, Bead, BeadStatus, Document, Project
from sialign.gui.table.table_model import (
    BEAD_INDEX_ROLE,
    DEFAULT_LOW_CONFIDENCE,
    FLAGGED_COLOUR,
    LOW_CONFIDENCE_COLOUR,
    SORT_ROLE,
    Column,
    SegmentFilterProxy,
    SegmentTableModel,
    find_next,
    is_flagged,
    is_low_confidence,
    is_unreviewed,
)

# Qt warnings fail these tests (as in pyqtgraph's suite): a warning about threads or
# timers is a bug. The offscreen platform's note about size hints is not.
pytestmark = [pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints")]


class SignalLog:
    """Records the structural and data signals a model emits."""

    def __init__(self, model: SegmentTableModel) -> None:
        self.events: list[tuple] = []
        model.rowsInserted.connect(lambda p, a, b: self.events.append(("inserted", a, b)))
        model.rowsRemoved.connect(lambda p, a, b: self.events.append(("removed", a, b)))
        model.dataChanged.connect(lambda tl, br, roles=(): self.events.append(("changed", tl.row(), br.row())))
        model.modelReset.connect(lambda: self.events.append(("reset",)))


def test_table_model_rows_and_roles(session, qtmodeltester) -> None:
    model = SegmentTableModel(lambda: session.project)
    qtmodeltester.check(model)
    assert model.rowCount() == 6
    assert model.columnCount() == len(Column)
    assert model.headerData(Column.SOURCE, Qt.Orientation.Horizontal) == "Source"
    assert model.data(model.index(1, Column.SOURCE)) == "Today I want to talk about water."
    # Japanese chunks join without spaces.
    assert model.data(model.index(1, Column.TARGET)) == "今日は、水についてお話しします。"
    assert model.data(model.index(0, Column.COST)) == "0.20"
    assert model.data(model.index(0, Column.COST), SORT_ROLE) == pytest.approx(0.2)
    assert model.data(model.index(3, Column.SOURCE), BEAD_INDEX_ROLE) == 3
    assert model.headerData(3, Qt.Orientation.Vertical) == "4"
    # Bead 5: a failed filter and a trimmed filler are both shown, the filler left out of the text.
    flags = model.data(model.index(4, Column.FLAGS))
    assert "alpha: covers 1 of 5 content words" in flags
    assert "trimmed: えー、" in flags
    assert model.data(model.index(4, Column.TARGET)) == "数字をお見せします。"
    assert model.data(model.index(4, Column.SOURCE), Qt.ItemDataRole.BackgroundRole).color() == FLAGGED_COLOUR
    assert "EVS" in model.data(model.index(0, Column.TIMES))


def test_table_model_low_confidence_colour(session) -> None:
    model = SegmentTableModel(lambda: session.project)
    model.set_low_confidence(0.65)
    # Bead 6 costs 0.7 > 0.65 and is neither flagged nor reviewed.
    assert model.data(model.index(5, Column.COST), Qt.ItemDataRole.BackgroundRole).color() == LOW_CONFIDENCE_COLOUR
    assert model.data(model.index(0, Column.COST), Qt.ItemDataRole.BackgroundRole) is None
    assert "low confidence" in model.data(model.index(5, Column.COST), Qt.ItemDataRole.ToolTipRole)
    # The same beads over a machine transcript aligned without the learned score: no cost makes them doubtful,
    # and the tooltip says why there is no confidence.
    from sialign.core.model import MACHINE_FORMAT

    session.project.target.format = MACHINE_FORMAT
    session.project.alignment.info["params"] = {"learned_score": False}
    assert model.data(model.index(5, Column.COST), Qt.ItemDataRole.BackgroundRole) is None
    tip = model.data(model.index(5, Column.COST), Qt.ItemDataRole.ToolTipRole)
    assert "low confidence" not in tip and "No confidence: the talk was aligned over a machine transcript" in tip


# (edit, expected structural signals, rows whose data changed)
EDIT_CASES = [
    (lambda p: edits.SetStatus((2,), BeadStatus.DROPPED, "off topic"), [], {2}),
    (lambda p: edits.SetLabels(1, True, False, "fine"), [], {1}),
    (lambda p: edits.SetPostEdit(0, "皆さん、おはよう。"), [], {0}),
    (lambda p: edits.MergeBeads(1), [("removed", 2, 2)], {1}),
    (lambda p: edits.SplitBead(1, 1, 1), [("inserted", 2, 2)], {1}),
    (lambda p: edits.SplitSegment("src", 2, 5), [], {2}),
    (lambda p: edits.MoveSegment("tgt", 2, 1), [], {1, 2}),
    (lambda p: edits.EditText("tgt", 0, "みなさん、おはようございます。"), [], {0}),
]


@pytest.mark.parametrize("make_edit, structure, changed", EDIT_CASES)
def test_table_model_precise_signals_on_edit_and_undo(session, qtmodeltester, make_edit, structure, changed) -> None:
    from sialign.gui.common.session import touched_segments

    model = SegmentTableModel(lambda: session.project)
    qtmodeltester.check(model)
    session.edited.connect(lambda e: model.sync(touched_segments(e)))
    log = SignalLog(model)
    assert session.apply(make_edit(session.project))
    assert [e for e in log.events if e[0] in ("inserted", "removed", "reset")] == structure
    changed_rows = {r for e in log.events if e[0] == "changed" for r in range(e[1], e[2] + 1)}
    assert changed <= changed_rows and len(changed_rows) <= len(changed) + 1
    assert_rows_match_alignment(model, session)
    log.events.clear()
    session.undo_stack.undo()
    assert ("reset",) not in log.events
    assert_rows_match_alignment(model, session)
    session.undo_stack.redo()
    assert_rows_match_alignment(model, session)
    qtmodeltester.check(model)


def test_table_model_refused_edit_changes_nothing(session) -> None:
    model = SegmentTableModel(lambda: session.project)
    session.edited.connect(lambda e: model.sync())
    failures: list[str] = []
    session.edit_failed.connect(failures.append)
    log = SignalLog(model)
    assert not session.apply(edits.MergeBeads(5))  # the last bead has no next bead
    assert failures and "no next bead" in failures[0]
    assert log.events == []
    assert not session.is_modified


def _big_project(n: int) -> Project:
    source = Document.from_texts([f"Sentence number {i} about topic {i % 17}." for i in range(n)], language="en")
    target = Document.from_texts([f"文 {i} 番、話題 {i % 17}。" for i in range(n)], language="ja")
    beads = [Bead(src=(i,), tgt=(i,), cost=(i % 100) / 100) for i in range(n)]
    return Project(source=source, target=target, alignment=Alignment(beads=beads))


def test_table_model_fast_for_5000_beads(qapp) -> None:
    from sialign.gui.common.session import ProjectSession

    session = ProjectSession(_big_project(5000))
    t0 = time.perf_counter()
    model = SegmentTableModel(lambda: session.project)
    build = time.perf_counter() - t0
    session.edited.connect(lambda e: model.sync())
    t0 = time.perf_counter()
    session.apply(edits.MergeBeads(2500))
    edit_time = time.perf_counter() - t0
    assert model.rowCount() == 4999
    # Generous bounds for a busy 2-core machine; typical values are ~10x lower.
    # Only a guard against accidental quadratic work: the real targets are
    # measured by tests/benchmarks/bench_gui.py (a garbage collection on a
    # loaded machine can take 0.5 s by itself).
    assert build < 10.0
    assert edit_time < 5.0


def test_table_model_proxy_filters_and_sorts(session) -> None:
    model = SegmentTableModel(lambda: session.project)
    proxy = SegmentFilterProxy()
    proxy.setSourceModel(model)
    assert proxy.rowCount() == 6
    proxy.set_statuses({BeadStatus.CONFIRMED})
    assert [proxy.bead_of(proxy.index(r, 0)) for r in range(proxy.rowCount())] == [3]
    proxy.set_statuses(None)
    proxy.set_flag("alpha")
    assert [proxy.bead_of(proxy.index(r, 0)) for r in range(proxy.rowCount())] == [4]
    proxy.set_flag("any")
    assert proxy.rowCount() == 1
    # A dropped bead is counted as dropped, not flagged: "Flagged" hides it, its check's own entry shows it.
    beads = session.project.alignment.beads
    flagged_one = [proxy.bead_of(proxy.index(r, 0)) for r in range(proxy.rowCount())][0]
    beads[flagged_one] = replace(beads[flagged_one], status=BeadStatus.DROPPED)
    model.reset()
    assert proxy.rowCount() == 0 == session.project.alignment.counts()["flagged"]
    proxy.set_flag("alpha")
    assert proxy.rowCount() == 1
    beads[flagged_one] = replace(beads[flagged_one], status=BeadStatus.AUTO)
    model.reset()
    proxy.set_flag("any")
    # A trimmed bead is not "flagged" (the status bar's count); it has its own entry.
    beads = session.project.alignment.beads
    beads[0] = replace(beads[0], trimmed=beads[0].tgt[:1])
    model.reset()
    assert proxy.rowCount() == 1
    proxy.set_flag("trimmed")
    assert 0 in [proxy.bead_of(proxy.index(r, 0)) for r in range(proxy.rowCount())]
    proxy.set_flag(None)
    proxy.set_cost_min(0.55)
    assert [proxy.bead_of(proxy.index(r, 0)) for r in range(proxy.rowCount())] == [4, 5]
    proxy.set_cost_min(None)
    proxy.sort(Column.COST, Qt.SortOrder.DescendingOrder)
    assert [proxy.bead_of(proxy.index(r, 0)) for r in range(proxy.rowCount())] == [5, 4, 3, 2, 1, 0]
    assert proxy.proxy_row_of(5) == 0
    assert proxy.bead_of(QModelIndex()) == -1


@pytest.mark.parametrize(
    "text, regex, expected",
    [
        ("water", False, [1, 2]),
        ("WATER", False, [1, 2]),
        ("水", False, [1, 2]),
        (r"^(Good|Thank)", True, [0, 5]),
        (r"お(話し|見せ)します", True, [1, 4]),
        ("a.b", False, []),
        ("", False, [0, 1, 2, 3, 4, 5]),
    ],
)
def test_table_model_search_over_both_sides(session, text, regex, expected) -> None:
    model = SegmentTableModel(lambda: session.project)
    proxy = SegmentFilterProxy()
    proxy.setSourceModel(model)
    assert proxy.set_search(text, regex=regex) is None
    assert sorted(proxy.bead_of(proxy.index(r, 0)) for r in range(proxy.rowCount())) == expected


def test_table_model_bad_regex_is_reported_not_raised(session) -> None:
    model = SegmentTableModel(lambda: session.project)
    proxy = SegmentFilterProxy()
    proxy.setSourceModel(model)
    proxy.set_search("water")
    message = proxy.set_search("(unclosed", regex=True)
    assert message is not None and "regular expression" in message
    assert proxy.rowCount() == 2  # the previous search stays


@pytest.mark.parametrize(
    "predicate, current, backwards, expected",
    [
        (is_unreviewed, -1, False, 0),
        (is_unreviewed, 2, False, 4),  # bead 3 (index 3) is confirmed
        (is_unreviewed, 5, False, 0),  # wraps round
        (is_unreviewed, 4, True, 2),
        (is_flagged, 0, False, 4),
        (is_flagged, 4, False, 4),  # the only one: found again after a full turn
        (is_low_confidence, 0, False, 5),
    ],
)
def test_table_model_find_next(project, predicate, current, backwards, expected) -> None:
    assert find_next(project.alignment.beads, current, predicate, 0.65, backwards=backwards) == expected


def test_table_model_find_next_none(project) -> None:
    for bead in project.alignment.beads:
        bead.status = BeadStatus.CONFIRMED
    assert find_next(project.alignment.beads, 0, is_unreviewed) == -1
    assert find_next([], -1, is_unreviewed) == -1


def test_table_model_a_bead_without_a_cost_says_why(session) -> None:
    from sialign.core.edits import MergeBeads

    MergeBeads(1).apply(session.project)  # a reviewer's merge: no aligner cost
    model = SegmentTableModel(lambda: session.project)
    assert session.project.alignment.beads[1].cost is None
    assert model.data(model.index(1, Column.COST)) == "–"
    assert "no cost: the reviewer merged or split it" in model.data(model.index(1, Column.COST), Qt.ItemDataRole.ToolTipRole)


def test_a_note_shows_in_the_status_cell_and_tooltip_and_is_found_by_the_search(qapp, project) -> None:
    from sialign.gui.table.table_model import Column, SegmentFilterProxy, SegmentTableModel

    project.alignment.beads[2].note = "check the number: seven or eleven?"
    model = SegmentTableModel(lambda: project)
    model.reset()
    status = model.data(model.index(2, Column.STATUS))
    assert "note" in status and "note" not in model.data(model.index(1, Column.STATUS))
    assert "seven or eleven" in model.data(model.index(2, Column.SOURCE), Qt.ItemDataRole.ToolTipRole)
    proxy = SegmentFilterProxy()
    proxy.setSourceModel(model)
    proxy.set_search("eleven")
    assert proxy.rowCount() == 1 and proxy.bead_of(proxy.index(0, 0)) == 2


def test_table_model_shows_the_aligners_confidence(session) -> None:
    beads = session.project.alignment.beads
    beads[0] = replace(beads[0], confidence=0.8731)
    model = SegmentTableModel(lambda: session.project)
    assert model.headerData(Column.CONFIDENCE, Qt.Orientation.Horizontal) == "Conf."
    assert model.data(model.index(0, Column.CONFIDENCE)) == "0.87"
    assert model.data(model.index(0, Column.CONFIDENCE), SORT_ROLE) == pytest.approx(0.8731)
    assert "Confidence 0.87: probability that the bead is right" in model.data(model.index(0, Column.SOURCE), Qt.ItemDataRole.ToolTipRole)
    # Not scored (first pass only, or changed by the reviewer): empty, sorted first.
    assert model.data(model.index(1, Column.CONFIDENCE)) == ""
    assert model.data(model.index(1, Column.CONFIDENCE), SORT_ROLE) == -1.0
    assert "Confidence" not in model.data(model.index(1, Column.SOURCE), Qt.ItemDataRole.ToolTipRole)


def test_low_confidence_follows_the_aligners_confidence_where_it_has_one(session) -> None:
    beads = session.project.alignment.beads
    # Bead 6 is low-confidence by its cost (0.9 > 0.6) until the learned score says it is likely right.
    assert is_low_confidence(beads[5], DEFAULT_LOW_CONFIDENCE)
    beads[5] = replace(beads[5], confidence=0.9)
    assert not is_low_confidence(beads[5], DEFAULT_LOW_CONFIDENCE)
    # A cheap bead the score doubts is low-confidence.
    beads[0] = replace(beads[0], confidence=0.3)
    assert is_low_confidence(beads[0], DEFAULT_LOW_CONFIDENCE)
    model = SegmentTableModel(lambda: session.project)
    assert model.data(model.index(0, Column.COST), Qt.ItemDataRole.BackgroundRole).color() == LOW_CONFIDENCE_COLOUR
    assert model.data(model.index(5, Column.COST), Qt.ItemDataRole.BackgroundRole) is None
    assert "low confidence: Conf. below 0.5" in model.data(model.index(0, Column.SOURCE), Qt.ItemDataRole.ToolTipRole)
