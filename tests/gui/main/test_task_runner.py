"""The alignment task's questions to the user (gui/main/task_runner.py)."""

from __future__ import annotations

from sialign.core.carry import CarryReport, LostReview
from sialign.gui.main.task_runner import lost_review_question


def test_task_runner_lost_review_question_counts_in_words() -> None:
    one = CarryReport(beads_changed=2, carried=3, lost=[LostReview(4, (4,), (5, 6), ("confirmed",))])
    text = lost_review_question(one)
    assert "of 1 reviewed bead differently, so its review data" in text and "1 reviewed beads" not in text
    assert "bead 5 (1-2): confirmed" in text
    two = CarryReport(beads_changed=2, carried=3, lost=[LostReview(k, (k,), (k,), ("note",)) for k in range(8)])
    text = lost_review_question(two)
    assert "of 8 reviewed beads differently, so their review data" in text and "… and 2 more" in text
