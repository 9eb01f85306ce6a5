"""The learned filter in the app: the Doubt column, *Next most doubtful*, the filter panel's doubt section,
and retraining that never blocks the GUI thread."""

from __future__ import annotations

import threading
import time

import pytest
from PySide6.QtCore import Qt

from lexical_talks import lexical_talk
from sialign.core.edits import SetStatus
from sialign.core.model import BeadStatus, Project

pytestmark = [pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints")]

WORDS = """river mountain engine budget harbour violin station teacher garden protein satellite copper
festival ladder parliament orchard vaccine tunnel compass glacier pepper archive lantern meadow""".split()


def aligned_talk(n: int = 30, seed: int = 0) -> Project:
    """A same-language talk the lexical embedder aligns well, aligned."""
    return lexical_talk(WORDS, n, seed, size=7, talk_id="doubt")


@pytest.fixture
def window(qtbot, open_window):
    w = open_window(aligned_talk())
    qtbot.waitExposed(w)
    qtbot.waitUntil(lambda: w.doubt.is_current(), timeout=20_000)
    return w


def test_doubt_table_column_follows_the_beads(qapp) -> None:
    from sialign.gui.table.table_model import Column, SegmentTableModel

    project = aligned_talk(6)
    model = SegmentTableModel(lambda: project)
    beads = project.alignment.beads
    assert model.headerData(Column.DOUBT, Qt.Orientation.Horizontal) == "Doubt"
    assert model.data(model.index(0, Column.DOUBT)) == ""
    model.set_doubt({(b.src, b.tgt): 0.1 * k for k, b in enumerate(beads)})
    assert model.data(model.index(2, Column.DOUBT)) == "0.20"
    assert "Doubt 0.20" in model.data(model.index(2, 0), Qt.ItemDataRole.ToolTipRole)
    from sialign.gui.table.table_model import SORT_ROLE

    assert model.data(model.index(3, Column.DOUBT), SORT_ROLE) == pytest.approx(0.3)
    # A bead an edit changed has no doubt until the model scores it again.
    from sialign.core.edits import MergeBeads, apply_edit

    apply_edit(project, MergeBeads(0))
    model.sync()
    assert model.data(model.index(0, Column.DOUBT)) == ""
    assert model.data(model.index(1, Column.DOUBT)) == "0.20"


def test_doubt_column_updates_as_the_reviewer_confirms(qtbot, window) -> None:
    from sialign.gui.table.table_model import Column

    model = window.table_model
    n = model.rowCount()
    assert all(model.data(model.index(r, Column.DOUBT)) != "" for r in range(n))
    runs = window.doubt.runs
    first = window.doubt.result
    assert first.source == "unreviewed"
    window.session.apply(SetStatus(tuple(range(0, n, 2)), BeadStatus.CONFIRMED))
    qtbot.waitUntil(lambda: window.doubt.runs > runs and window.doubt.is_current(), timeout=20_000)
    assert window.doubt.result.source.startswith("confirmed")
    # The column is placed beside the cost.
    header = window.table.horizontalHeader()
    assert header.visualIndex(Column.CONFIDENCE) == header.visualIndex(Column.COST) + 1
    assert header.visualIndex(Column.DOUBT) == header.visualIndex(Column.COST) + 2


def test_doubt_next_most_doubtful_key(qtbot, window) -> None:

    doubt = window.doubt.by_bead
    beads = window.session.project.alignment.beads
    window.table.setFocus()
    qtbot.keyClick(window.table, Qt.Key.Key_Q)
    first = window.session.selected_bead
    unreviewed = [k for k, b in enumerate(beads) if b.unreviewed]
    assert doubt[(beads[first].src, beads[first].tgt)] == max(doubt[(beads[k].src, beads[k].tgt)] for k in unreviewed)
    # Confirm it: the next press goes elsewhere, to an unreviewed bead.
    window.act.confirm.trigger()
    runs = window.doubt.runs
    qtbot.waitUntil(lambda: window.doubt.runs > runs and window.doubt.is_current(), timeout=20_000)
    window.act.next_doubtful.trigger()
    second = window.session.selected_bead
    assert second != first and window.session.project.alignment.beads[second].unreviewed


def test_doubt_next_most_doubtful_skips_dropped_beads(qtbot, window) -> None:
    """The aligner's omissions (doubt 1 by construction) are dropped already: Q goes to the kept beads."""

    beads = window.session.project.alignment.beads
    beads[1].status, beads[1].reason = BeadStatus.DROPPED, "omission: nothing in the interpretation"
    assert beads[1].unreviewed
    doubt = {key: 0.5 for key in window.doubt.by_bead}
    doubt[(beads[1].src, beads[1].tgt)] = 1.0
    window.doubt.by_bead = doubt
    window.act.next_doubtful.trigger()
    chosen = window.session.selected_bead
    assert chosen >= 0 and beads[chosen].status is not BeadStatus.DROPPED


def test_doubt_filter_section_counts_flips_and_applies_undoably(qtbot, window) -> None:
    from sialign.filters.doubt_decisions import DOUBT_FLAG

    box = window.filter_panel.doubt_box
    window.show_filters()
    box.threshold.set_value(0.0)  # every unconfirmed bead is above 0
    window.filter_panel.drop_failed.setChecked(True)
    assert len(box.flips) == len(window.session.project.alignment.beads) - sum(
        b.status is BeadStatus.DROPPED for b in window.session.project.alignment.beads
    )
    assert "would change" in box.count_label.text()
    window.filter_panel.drop_failed.setChecked(False)
    assert box.flips == []  # flag only: nothing dropped
    text = box.count_label.text()
    assert "<b>0</b> beads would change" in text
    above = int((box.service.result.doubt > box.threshold.value()).sum())
    assert f"{above} {'is' if above == 1 else 'are'} above" in text
    box.threshold.set_value(0.5)
    with qtbot.waitSignal(window.runner.finished, timeout=20_000):
        box.apply_button.click()
    beads = window.session.project.alignment.beads
    assert all(any(f.name == DOUBT_FLAG for f in b.flags) for b in beads)
    assert window.session.project.filter_params.doubt_max == 0.5
    window.session.undo_stack.undo()
    assert not any(f.name == DOUBT_FLAG for b in window.session.project.alignment.beads for f in b.flags)


def test_doubt_retraining_runs_off_the_gui_thread_and_never_blocks_it(qtbot, monkeypatch, open_window) -> None:
    from heartbeat import STALL_LIMIT_S, heartbeat_gaps

    from sialign.filters import learned

    threads: list[str] = []
    done: list[float] = []
    real = learned.compute_doubt

    def recording(*args, **kwargs):
        threads.append(threading.current_thread().name)
        result = real(*args, **kwargs)
        done.append(time.perf_counter())
        return result

    monkeypatch.setattr(learned, "compute_doubt", recording)
    window = open_window(aligned_talk(400, seed=1), warnings_fail=False)
    session = window.session
    qtbot.waitUntil(lambda: window.doubt.is_current(), timeout=60_000)
    idle = heartbeat_gaps(lambda: qtbot.wait(600), [])
    # A retraining from scratch (cost models and every bead's features rebuilt, as
    # after a split) while the heartbeat runs; edits stay allowed meanwhile.
    done.clear()
    runs = window.doubt.runs
    window.doubt._context_key = None

    def retrain() -> None:
        session.apply(SetStatus(tuple(range(0, 200, 5)), BeadStatus.CONFIRMED))
        assert session.locked_reason == ""
        qtbot.waitUntil(lambda: window.doubt.runs > runs, timeout=60_000)

    started = time.perf_counter()
    busy = heartbeat_gaps(retrain, done)
    print(f"\nretraining {done[-1] - started:.2f} s; heartbeat idle max {idle[-1] * 1000:.0f} ms, "
          f"busy max {busy[-1] * 1000:.0f} ms over {len(busy)} beats")
    assert threads and all(name == "doubt" for name in threads)
    assert threading.main_thread().name not in threads
    assert busy, "no heartbeat during the retraining"
    assert busy[-1] < max(STALL_LIMIT_S, 3 * idle[-1]), f"the GUI thread stalled {busy[-1] * 1000:.0f} ms (idle worst {idle[-1] * 1000:.0f} ms)"
