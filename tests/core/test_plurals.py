"""Counts in words: one helper for every count the application shows."""

from __future__ import annotations

import pytest

from sialign.core.plurals import count_noun, plural, possessive


@pytest.mark.parametrize(
    ("n", "noun", "text"),
    [
        (1, "bead", "1 bead"),
        (0, "bead", "0 beads"),
        (2, "omission", "2 omissions"),
        (1, "omission", "1 omission"),
        (3, "source sentence", "3 source sentences"),
        (2, "match", "2 matches"),
        (2, "entry", "2 entries"),
        (2, "day", "2 days"),
        (2, "analysis", "2 analyses"),
        (1.0, "row", "1 row"),
        (2.5, "second", "2.5 seconds"),
    ],
)
def test_plurals_count_noun(n: float, noun: str, text: str) -> None:
    assert count_noun(n, noun) == text


def test_plurals_possessive_and_explicit_plural() -> None:
    assert possessive(1, "bead") == "1 bead's" and possessive(4, "bead") == "4 beads'"
    assert count_noun(2, "person") == "2 people" and count_noun(2, "datum", "data") == "2 data"
    assert plural("segment", 1) == "segment"


def test_plurals_where_a_count_of_one_was_wrong(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The messages that said '1 omissions', '1 beads' review data', '1 segments': one of each, now singular."""
    from sialign.core.carry import CarryReport, LostReview
    from sialign.core.model import Alignment, Bead, Document, Project
    from sialign.review.figures import rendition_figures
    from sialign.review.report import build_report

    source = Document.from_texts(["One.", "Two."], "en")
    target = Document.from_texts(["Un."], "fr")
    project = Project(talk_id="t", source=source, target=target, alignment=Alignment([Bead((0,), (0,), cost=0.1), Bead((1,), ())]))
    fig = rendition_figures(project)
    assert {f.key: f.text for f in fig.summary()}["omissions"] == "1 (1 sentence)"
    header = dict(build_report(project).header)
    assert header["Size"] == "2 source sentences, 1 interpretation chunk, 2 beads"
    report = CarryReport(beads_changed=1, carried=0, lost=[LostReview(0, (0,), (), ("note",))])
    text = report.summary()
    assert "1 bead changed" in text and "1 bead's review data could not be carried (its bead no longer exists)" in text
