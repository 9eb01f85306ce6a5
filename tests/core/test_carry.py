"""Review data survives re-alignment (core.carry, and the workflow that installs every alignment)."""

from __future__ import annotations

import dataclasses

from sialign.core.carry import carry_review, review_items
from sialign.core.model import Alignment, Bead, BeadStatus, Document, Flag, Project
from sialign.core.params import AlignParams
from sialign.embed.pairs import clear_memo
from sialign.workflows.aligning import align_talk


def _alignment(*beads: Bead) -> Alignment:
    return Alignment(beads=list(beads))


def test_carry_copies_review_data_onto_beads_with_the_same_segments() -> None:
    flag = Flag(name="gamma", score=0.1, threshold=0.2, reason="short", failed=True)
    old = _alignment(
        Bead((0,), (0, 1), 0.2, BeadStatus.CONFIRMED, note="checked", good_align=True),
        Bead((1,), (2,), 0.5, BeadStatus.DROPPED, "dropped by the reviewer", good_mt=False),
        Bead((2,), (3, 4), 0.4, post_edit="fixed", trimmed=(4,), flags=[flag]),
        Bead((3,), (), None, BeadStatus.DROPPED, "no rendition found in the interpretation (1-0, omission)"),
        Bead((4,), (5,), 0.3, note="will be lost"),
    )
    new = _alignment(
        Bead((0,), (0, 1), 0.25),
        Bead((1,), (2,), 0.45),
        Bead((2,), (3, 4), 0.41),
        Bead((3,), (), None, BeadStatus.AUTO),  # the aligner decides its own drops afresh
        Bead((4,), (5, 6), 0.3),
    )
    report = carry_review(old, new)
    a, b, c, d, e = new.beads
    assert a.status is BeadStatus.CONFIRMED and a.note == "checked" and a.good_align is True and a.cost == 0.25
    assert b.status is BeadStatus.DROPPED and b.reason == "dropped by the reviewer" and b.good_mt is False
    assert c.post_edit == "fixed" and c.trimmed == (4,) and c.flags == [flag] and c.flags[0] is not flag
    assert d.status is BeadStatus.AUTO
    assert e.note == ""
    assert report.carried == 3 and report.beads_changed == 1
    assert [(x.index, x.items) for x in report.lost] == [(4, ("note",))]
    assert "could not be carried" in report.summary()


def test_carry_without_an_old_alignment_counts_every_bead_as_changed() -> None:
    new = _alignment(Bead((0,), (0,)), Bead((1,), (1,)))
    report = carry_review(None, new)
    assert report.beads_changed == 2 and report.carried == 0 and not report.lost


def test_carry_review_items_ignore_the_aligners_own_drops() -> None:
    assert review_items(Bead((0,), (), None, BeadStatus.DROPPED, "no rendition found in the interpretation")) == []
    assert review_items(Bead((0,), (1,), 1.2, BeadStatus.DROPPED, "cost 1.20 is above the drop threshold 1")) == []
    assert review_items(Bead((0,), (1,), 0.2, BeadStatus.DROPPED, "filter: gamma 0.10 < 0.2")) == ["dropped"]


def test_carry_realigning_a_reviewed_talk_keeps_notes_and_labels() -> None:
    clear_memo()
    texts = [f"Sentence number {i} talks about the {w} of the city." for i, w in enumerate(
        ["river", "bridge", "market", "school", "harbour", "station", "museum", "garden"])]
    project = Project(source=Document.from_texts(texts, "en"), target=Document.from_texts(texts, "en"))
    align_talk(project, AlignParams(embedder="lexical"))
    assert project.alignment is not None
    beads = project.alignment.beads
    beads[2] = dataclasses.replace(beads[2], note="good", good_align=True)
    beads[5] = dataclasses.replace(beads[5], status=BeadStatus.DROPPED, reason="dropped by the reviewer")
    again = align_talk(project, AlignParams(embedder="lexical", skip_penalty=0.9), keep_confirmed=False).result
    assert again.alignment.beads[2].note == "good" and again.alignment.beads[2].good_align is True
    assert again.alignment.beads[5].status is BeadStatus.DROPPED
    assert project.alignment.beads[2].note == "good"
    carry = again.alignment.info["review_carry"]
    assert carry["carried"] == 2 and carry["lost"] == []
