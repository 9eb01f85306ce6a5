"""The one bead summary, and the rows of a project without an import circle."""

from __future__ import annotations

import pytest

from sialign.core.bead_summary import BeadSummary, bead_summary, is_low_confidence
from sialign.core.model import Alignment, Bead, BeadStatus, Document, Flag, Project


def _project() -> Project:
    source = Document.from_texts(["One.", "Two.", "Three."], language="en", times=[(0.0, 1.0), (2.0, 3.0), (4.0, 5.0)])
    target = Document.from_texts(["Un.", "Deux."], language="fr", times=[(1.5, 2.0), (3.0, 4.0)])
    beads = [Bead(src=(0,), tgt=(0,), cost=0.9), Bead(src=(1,), tgt=(1,), cost=0.1), Bead(src=(2,), tgt=())]
    beads[1].flags = [Flag(name="alpha", score=0.1, threshold=0.5, reason="few content words")]
    return Project(source=source, target=target, alignment=Alignment(beads=beads))


def test_a_project_before_its_first_alignment_counts_nothing() -> None:
    assert bead_summary(Project()) == BeadSummary() and BeadSummary().median_evs is None


def test_counts_flags_omissions_and_the_median_lag() -> None:
    summary = bead_summary(_project())
    assert (summary.beads, summary.auto, summary.flagged, summary.low_confidence, summary.omissions) == (3, 3, 1, 1, 1)
    assert summary.flags == (("alpha", 1),)
    assert summary.median_evs == pytest.approx(1.25)  # lags 1.5 and 1.0; the omission has no target time


def test_low_confidence_is_for_unreviewed_beads_by_confidence_then_cost() -> None:
    bead = Bead(src=(0,), tgt=(0,), cost=0.9)
    assert is_low_confidence(bead) and not is_low_confidence(bead, 0.95)
    bead.confidence = 0.8
    assert not is_low_confidence(bead)
    bead.confidence, bead.status = 0.1, BeadStatus.CONFIRMED
    assert not is_low_confidence(bead)


def test_the_model_its_rows_and_its_word_links_import_no_circle() -> None:
    grimp = pytest.importorskip("grimp")
    graph = grimp.build_graph("sialign", cache_dir=None)  # type-checking imports count
    modules = ["sialign.core.model", "sialign.core.documents", "sialign.core.bead_rows", "sialign.core.word_links",
               "sialign.core.bead_summary", "sialign.core.lags"]
    for a in modules:
        for b in modules:
            if a < b:
                assert not (graph.chain_exists(a, b) and graph.chain_exists(b, a)), f"{a} and {b} import each other"


def test_a_machine_transcript_aligned_without_the_learned_score_is_not_all_low_confidence() -> None:
    """Over a speech model's transcript the text cost says nothing of right and wrong: no screen of red."""
    import math

    from sialign.core.bead_summary import cost_threshold_for, unscored_machine_beads
    from sialign.core.model import MACHINE_FORMAT, mark_machine_transcript

    typed = _project()
    typed.alignment.info["params"] = {"learned_score": False}
    assert bead_summary(typed).low_confidence == 1 and cost_threshold_for(typed, 0.6) == 0.6
    machine = _project()
    machine.target.format = MACHINE_FORMAT
    machine.alignment.info["params"] = {"learned_score": False}
    assert unscored_machine_beads(machine) and cost_threshold_for(machine, 0.6) == math.inf
    assert bead_summary(machine).low_confidence == 0
    # Scored by the learned pass (a corrected transcript, or another setting), the threshold is the user's again.
    machine.alignment.info["params"] = {"learned_score": True}
    assert bead_summary(machine).low_confidence == 1
    noted = _project()
    mark_machine_transcript(noted.metadata, "src", "base")
    noted.alignment.info["params"] = {"learned_score": False}
    assert bead_summary(noted).low_confidence == 0
