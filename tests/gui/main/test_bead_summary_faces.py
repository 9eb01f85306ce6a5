"""The status bar, ``sialign align``'s summary, corpus mode's figures and the report agree: one bead summary."""

from __future__ import annotations

import pytest

from sialign.core.bead_summary import bead_summary
from sialign.core.model import BeadStatus, Flag, Project

pytestmark = [pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints")]


def _mixed(make_project) -> Project:
    """Six timed beads: one dropped with a failed check (dropped, not flagged), one confirmed, one flagged, two of low
    confidence."""
    project = make_project()
    beads = project.alignment.beads
    beads[0].status = BeadStatus.DROPPED
    beads[0].reason = "dropped by the reviewer"
    beads[0].flags = [Flag(name="intra", score=0.9, threshold=0.5, reason="mostly filler")]
    beads[1].cost = 0.9  # unscored and costly: low confidence
    beads[2].confidence = 0.3  # the learned score doubts it: low confidence
    beads[4].cost = 0.5  # flagged, not low confidence
    beads[5].cost, beads[5].confidence = 0.7, 0.9  # costly but scored sure: not low confidence
    return project


def test_status_bar_cli_summary_and_corpus_figures_agree(open_window, make_project) -> None:
    from sialign.corpus.runner import summary_figures
    from sialign.review.report import build_report
    from sialign.workflows.outputs import summary_lines

    project = _mixed(make_project)
    summary = bead_summary(project)
    # Start lags of the kept beads: 0.2, 0.6, 1.0, 0.2, 0.6 s (the dropped bead's 1.0 s is left out).
    assert (summary.beads, summary.auto, summary.confirmed, summary.dropped) == (6, 4, 1, 1)
    assert (summary.flagged, summary.low_confidence, summary.omissions, summary.unreviewed) == (1, 2, 0, 4)
    assert summary.median_evs == pytest.approx(0.6) and summary.evs is not None and summary.evs.n == 5

    lines = summary_lines(project, {"embedding": 0.0, "aligning": 0.0, "total": 0.0})
    assert any(line.startswith("beads: 6 (4 auto, 1 confirmed, 1 dropped, 1 flagged, 2 low confidence)") for line in lines)
    assert any(line.startswith("ear-voice span: median 0.60 s") and "5 beads" in line for line in lines)

    report = build_report(project)
    assert len(report.flagged) == summary.flagged and report.figures.evs_median == summary.median_evs

    figures = summary_figures(project)
    assert {k: figures[k] for k in ("beads", "confirmed", "dropped", "flagged", "low_confidence", "omissions")} == {
        "beads": 6, "confirmed": 1, "dropped": 1, "flagged": 1, "low_confidence": 2, "omissions": 0,
    }
    assert figures["median_evs"] == pytest.approx(0.6)

    window = open_window(project)
    assert window.counts_label.text() == "6 beads · 0 omissions · 1 confirmed · 1 flagged · 1 dropped · median EVS 0.6 s"
    assert window.counts_label.toolTip().startswith("4 unreviewed, 2 low confidence; 0 omissions")
    # *Next flagged* visits exactly the beads the status bar counts.
    from sialign.gui.table.table_model import find_next, is_flagged

    assert find_next(project.alignment.beads, -1, is_flagged) == 4 and find_next(project.alignment.beads, 4, is_flagged) == 4


def test_the_status_bar_counts_low_confidence_with_the_preferences_threshold(open_window, make_project) -> None:
    project = _mixed(make_project)
    window = open_window(project)
    window.prefs.low_confidence = 0.95  # no unscored bead costs more
    window._update_counts()
    assert window.counts_label.toolTip().startswith("4 unreviewed, 1 low confidence")
    assert bead_summary(project, 0.95).low_confidence == 1


def test_the_summary_follows_an_edit(open_window, make_project) -> None:
    from sialign.core.bead_edits import SetStatus

    project = _mixed(make_project)
    window = open_window(project)
    window.session.apply(SetStatus(indices=(1,), status=BeadStatus.CONFIRMED))
    assert window.counts_label.text().startswith("6 beads · 0 omissions · 2 confirmed · 1 flagged · 1 dropped")
