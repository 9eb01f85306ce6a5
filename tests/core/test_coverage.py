"""What was left out is counted once, in core, and every view says the same (the omissions issue, §3)."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from sialign.core.bead_summary import bead_summary
from sialign.core.coverage import DROPPED, NOT_REACHED, NOT_REACHED_REASON, OMITTED, RENDERED, coverage, live_coverage
from sialign.core.model import Alignment, Bead, BeadStatus, Document, Project

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "review"))
from example_renditions import example_rendition


def _project() -> Project:
    """5 sentences: rendered, left out, a pair a reviewer dropped, two rendered together; and an addition."""
    source = Document.from_texts(["One.", "Two.", "Three.", "Four.", "Five."], "en")
    target = Document.from_texts(["一。", "三。", "四五。", "はい。"], "ja")
    beads = [
        Bead((0,), (0,), cost=0.2),
        Bead((1,), (), status=BeadStatus.DROPPED, reason="no rendition found in the interpretation (1-0, omission)"),
        Bead((2,), (1,), cost=0.4, status=BeadStatus.DROPPED, reason="dropped by the reviewer"),
        Bead((3, 4), (2,), cost=0.3, status=BeadStatus.CONFIRMED),
        Bead((), (3,), status=BeadStatus.DROPPED),
    ]
    return Project(talk_id="five", source=source, target=target, alignment=Alignment(beads))


def test_coverage_states_and_counts() -> None:
    covered = coverage(_project())
    assert covered.states == (RENDERED, OMITTED, DROPPED, RENDERED, RENDERED)
    assert covered.omission_beads == (1,) and covered.omissions == 1 and covered.omitted == 1
    # A pair the reviewer dropped is not rendered, and not left out either.
    assert covered.share == pytest.approx(3 / 5) and covered.count(DROPPED) == 1


def test_a_sentence_the_session_never_reached_is_no_omission() -> None:
    project = _project()
    project.alignment.beads[1] = Bead((1,), (), status=BeadStatus.DROPPED, reason=NOT_REACHED_REASON)
    covered = coverage(project)
    assert covered.states[1] == NOT_REACHED and covered.omissions == 0


def test_every_view_counts_the_same_omissions_and_coverage() -> None:
    from sialign.review.compare import compare_renditions, interpreter_table
    from sialign.review.figures import rendition_figures
    from sialign.review.report import build_report

    for project in (_project(), example_rendition(1), example_rendition(2)):
        covered = coverage(project)
        fig = rendition_figures(project)
        summary = bead_summary(project)
        report = build_report(project)
        frame_states = [row for row in project.to_dataframe()["state"] if row]
        assert summary.omissions == covered.omissions == len(fig.omissions) == len(report.omissions)
        assert fig.omitted_sentences == covered.omitted
        assert fig.coverage == pytest.approx(covered.share)
        assert frame_states.count(OMITTED) == covered.omissions
        # The coverage chart marks the sentences left out, not the dropped pairs.
        chart = report.charts[-1]
        assert sorted(int(x) for x, _, label in chart.vlines if label == "omitted") == \
            [i + 1 for i, s in enumerate(covered.states) if s == OMITTED]
        row = interpreter_table([project])[0]
        assert row.omitted == covered.omitted and row.coverage == pytest.approx(covered.share)
    # Compare renditions: a sentence is "omitted" in a rendition exactly where its coverage says so.
    first, second = example_rendition(1), example_rendition(2)
    comparison = compare_renditions([first, second], ["first", "second"])
    for k, row in enumerate(comparison.rows):
        assert [cell.omitted for cell in row.cells] == [coverage(p).states[k] == OMITTED for p in (first, second)]


def test_the_live_view_counts_as_the_full_pass() -> None:
    from sialign.gui.booth.live_table import live_counts

    source = Document.from_texts(["One.", "Two.", "Three.", "Four."], "en")
    ids = source.ids()
    beads = [SimpleNamespace(src=(ids[0],), tgt=(0,), state="rendered"),
             SimpleNamespace(src=(ids[1],), tgt=(), state="unrendered"),
             SimpleNamespace(src=(), tgt=(1,), state="rendered"),
             SimpleNamespace(src=(ids[2],), tgt=(), state="pending")]
    covered = live_coverage(beads, ids)
    assert (covered.rendered, covered.omitted, covered.count(NOT_REACHED)) == (1, 1, 2)
    # The booth's live summary reads the same counts.
    assert live_counts(beads, source) == {"rendered": 1, "unrendered": 1, "pending": 2}
