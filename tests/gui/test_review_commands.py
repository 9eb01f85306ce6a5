"""Review commands with qtbot: merge status rule, confirm-and-advance, confirm up to here, text and time edits,
shifting times, the post-edit prefill and find/replace in post-edits."""

from __future__ import annotations

import pytest

from sialign.core.edits import SetStatus
from sialign.core.model import BeadStatus

pytestmark = [pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints")]


def _statuses(window) -> list[BeadStatus]:  # noqa: ANN001
    return [b.status for b in window.session.project.alignment.beads]


def test_merging_a_confirmed_with_an_auto_bead_says_it_becomes_auto_and_undo_restores(window) -> None:  # noqa: ANN001
    # Bead 4 (index 3) is confirmed, bead 5 auto.
    before = [b.to_dict() for b in window.session.project.alignment.beads]
    window.session.select_bead(3)
    window.act_merge_beads.trigger()
    assert _statuses(window)[3] is BeadStatus.AUTO and len(_statuses(window)) == 5
    message = window.statusBar().currentMessage()
    assert "bead 4 was confirmed" in message.lower() and "auto" in message
    window.session.undo_stack.undo()
    assert [b.to_dict() for b in window.session.project.alignment.beads] == before


def test_merging_two_confirmed_beads_keeps_confirmed_without_notice(window) -> None:  # noqa: ANN001
    window.session.apply(SetStatus((2,), BeadStatus.CONFIRMED))
    window.statusBar().clearMessage()
    window.session.select_bead(2)
    window.act_merge_beads.trigger()
    assert _statuses(window)[2] is BeadStatus.CONFIRMED
    assert window.statusBar().currentMessage() == ""
    window.session.undo_stack.undo()
    assert _statuses(window)[2:4] == [BeadStatus.CONFIRMED, BeadStatus.CONFIRMED]
