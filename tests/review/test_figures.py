"""Figures of one rendition, against values computed by hand."""

from __future__ import annotations

import pytest
from example_renditions import example_rendition

from sialign.core.model import Alignment, Bead, BeadStatus, Document, Flag, Project
from sialign.review.figures import format_clock, rendition_figures


def _hand_project() -> Project:
    """4 source sentences, 5 chunks: bead 0 = 1-2 (a trimmed filler), bead 1 = 1-0, bead 2 = 2-2, bead 3 = 0-1."""
    source = Document.from_texts(["One two three.", "Four five.", "Six seven eight nine.", "Ten."], "en",
                                 [(0.0, 2.0), (3.0, 4.0), (5.0, 7.0), (8.0, 9.0)])
    target = Document.from_texts(["えー、", "一二三。", "六七八九十。", "ありがとう。", "はい。"], "ja",
                                 [(2.0, 2.5), (2.5, 4.0), (7.0, 9.0), (10.0, 11.0), (11.0, 12.0)])
    beads = [
        Bead((0,), (0, 1), cost=0.2, trimmed=(0,), status=BeadStatus.CONFIRMED),
        Bead((1,), (), cost=None, status=BeadStatus.DROPPED, reason="omission"),
        Bead((2, 3), (2, 3), cost=0.6, flags=[Flag("under_translation", None, None, "Possible under-translation: short")]),
        Bead((), (4,), cost=None),
    ]
    reference = Document.from_texts(["一、二、三。", "四五。", "六七八九。", "十。"], "ja")
    return Project(talk_id="hand", source=source, target=target, reference=reference, alignment=Alignment(beads),
                   metadata={"interpreter": "T1", "rank": "3"})


def test_figures_hand_project_counts() -> None:
    fig = rendition_figures(_hand_project())
    assert fig.rendered.tolist() == [True, False, True, True]
    assert fig.coverage == pytest.approx(0.75)
    assert fig.omissions == [1] and fig.omitted_sentences == 1 and fig.additions == [3]
    assert fig.under == [2] and fig.over == []
    assert [f.bead for f in fig.flagged] == [2]
    assert fig.omissions_per_100 == pytest.approx(25.0)
    assert (fig.interpreter, fig.rank) == ("T1", "3")


def test_figures_hand_project_lengths_and_rates() -> None:
    fig = rendition_figures(_hand_project())
    # Target characters without punctuation (ー counts): 2 + 3 + 5 + 5 + 2 = 17; reference 3 + 2 + 4 + 1 = 10.
    assert (fig.tgt_units, fig.ref_units, fig.src_units) == (17, 10, 10)
    assert fig.compression == pytest.approx(1.7) and fig.compression_basis == "reference"
    # Target speech 0.5 + 1.5 + 2 + 1 + 1 = 6 s -> 17 characters in 0.1 min = 170/min.
    assert fig.tgt_rate == pytest.approx(170.0)
    # Source speech 2 + 1 + 2 + 1 = 6 s, 10 words -> 100 words/min.
    assert fig.src_rate == pytest.approx(100.0)
    # One trimmed filler over the interpretation's span 2.0..12.0 s (10 s) -> 6 per minute.
    assert fig.fillers == 1 and fig.fillers_per_minute == pytest.approx(6.0)
    # Confidence over beads with both sides: (0.8 + 0.4) / 2.
    assert fig.confidence == pytest.approx(0.6)
    assert (fig.src_duration, fig.tgt_duration) == (9.0, 10.0)


def test_figures_hand_project_evs() -> None:
    fig = rendition_figures(_hand_project())
    # Non-dropped beads with both sides timed: bead 0 lag 2.0 - 0.0, bead 2 lag 7.0 - 5.0.
    assert fig.evs.bead.tolist() == [0, 2]
    assert fig.evs_median == pytest.approx(2.0) and fig.evs_iqr == pytest.approx(0.0)


def test_figures_without_reference_compare_with_the_source() -> None:
    project = _hand_project()
    project.reference = None
    fig = rendition_figures(project)
    assert fig.compression_basis == "source" and fig.compression == pytest.approx(1.7)
    assert "no reference translation" in {f.key: f for f in fig.summary()}["compression"].explanation


def test_figures_summary_has_an_explanation_for_every_figure() -> None:
    summary = rendition_figures(_hand_project()).summary()
    keys = [f.key for f in summary]
    assert keys == ["coverage", "omissions", "additions", "under", "over", "evs_median", "evs_iqr", "compression",
                    "tgt_rate", "fillers", "confidence"]
    assert all(f.explanation.endswith((".", ")")) and len(f.explanation) < 160 for f in summary)
    assert {f.key: f.text for f in summary}["coverage"] == "75% (3 of 4)"


def test_figures_a_dropped_bead_covers_nothing() -> None:
    """A dropped bead's target is no rendition of its source: its sentences are not covered (the 1-0 one neither)."""
    project = example_rendition(1)
    assert project.alignment is not None
    ten = next(k for k, b in enumerate(project.alignment.beads) if project.source.index_of(b.src[0]) == 9)
    project.alignment.beads[ten].status = BeadStatus.DROPPED
    project.alignment.beads[ten].reason = "no content word"
    fig = rendition_figures(project)
    assert fig.coverage == pytest.approx(32 / 35)
    assert not fig.rendered[9] and not fig.rendered[10] and fig.rendered[8]
    assert {f.key: f.text for f in fig.summary()}["coverage"] == "91% (32 of 35)"


def test_figures_coverage_curve_is_a_centred_window() -> None:
    xs, ys = rendition_figures(_hand_project()).coverage_curve(3)
    assert xs.tolist() == [1, 2, 3, 4]
    assert ys.tolist() == pytest.approx([1 / 2, 2 / 3, 2 / 3, 1.0])


def test_figures_of_the_example_talk() -> None:
    """The bundled example: sentences 11 and 29 left out; lags planned as 2 + ((7 i) mod 11) / 5 s."""
    project = example_rendition(1)
    fig = rendition_figures(project)
    assert (fig.n_sentences, fig.n_chunks, fig.n_beads) == (35, 95, 34)
    assert fig.coverage == pytest.approx(33 / 35)
    omitted = [project.source.index_of(project.alignment.beads[k].src[0]) + 1 for k in fig.omissions]
    assert omitted == [11, 29]
    # Sentence 25 is rendered together with 24 (one bead, the lag of 24); 11 and 29 have none.
    planned = sorted(2.0 + ((7 * i) % 11) / 5.0 for i in range(35) if i not in (10, 24, 28))
    assert sorted(fig.evs.start_lag.round(3).tolist()) == pytest.approx(planned, abs=0.002)
    assert fig.evs_median == pytest.approx(3.0, abs=0.002)
    # 32 lags: Q3 sits at position 0.75 * 31 = 23.25 of the sorted list, between 3.4 and 3.6 -> 3.45.
    assert (fig.evs_start.q1, fig.evs_start.q3) == (pytest.approx(2.4, abs=0.002), pytest.approx(3.45, abs=0.002))
    assert fig.compression_basis == "reference" and fig.tgt_unit == "characters" and fig.src_unit == "words"
    assert fig.confidence == pytest.approx(0.7)


def test_figures_example_fillers_from_trimmed_edge_chunks() -> None:
    project = example_rendition(1)
    fillers = {"えー、", "あの、", "じゃあ、"}
    for bead in project.alignment.beads:
        edge = [i for i in (bead.tgt[:1] + bead.tgt[-1:]) if project.target.get(i).text in fillers]
        bead.trimmed = tuple(dict.fromkeys(edge))
    fig = rendition_figures(project)
    # えー、 opens sentences 2 and 21, じゃあ、 opens 26; the others sit inside a rendition.
    assert fig.fillers == 3
    span = project.target.segments[-1].end - project.target.segments[0].start
    assert fig.fillers_per_minute == pytest.approx(3 * 60 / span)


@pytest.mark.parametrize(("seconds", "text"), [(None, "—"), (0.4, "0:00"), (61.6, "1:02"), (3725.0, "1:02:05")])
def test_format_clock(seconds: float | None, text: str) -> None:
    assert format_clock(seconds) == text


def test_figures_filter_drop_is_not_repeated_beside_its_flags() -> None:
    project = _hand_project()
    bead = project.alignment.beads[2]
    bead.status = BeadStatus.DROPPED
    bead.reason = "filter: Possible under-translation: short"
    # Dropped, so listed with the dropped pairings (never also as flagged: the status bar's definition), by its check.
    fig = rendition_figures(project)
    assert fig.flagged == [] and fig.dropped_pairs[0].reasons == ("under_translation: Possible under-translation: short",)
    bead.flags = []
    fig = rendition_figures(project)
    # No failed check left: the drop's own reason.
    assert fig.flagged == [] and fig.dropped_pairs[0].reasons == ("dropped: filter: Possible under-translation: short",)


def test_figures_flagged_is_the_status_bars_count() -> None:
    project = _hand_project()
    beads = project.alignment.beads
    # A bead the reviewer dropped is dropped, not flagged; an omission (1-0) is an omission, neither flagged nor
    # dropped, whatever checks failed on it; a kept bead with a failed check is flagged.
    beads[2].flags, beads[2].status, beads[2].reason = [], BeadStatus.DROPPED, "reviewer: wrong pairing"
    beads[1].flags = [Flag("omission", None, None, "Source not interpreted")]
    beads[0].flags = [Flag("intra", 0.9, 0.5, "mostly filler")]
    fig = rendition_figures(project)
    counts = project.alignment.counts()
    assert len(fig.flagged) == counts["flagged"] == 1 and fig.flagged[0].bead == 0
    assert [f.bead for f in fig.dropped_pairs] == [2] and counts["dropped"] == 1
    assert counts["omitted"] == len(fig.omissions) == 1


def test_figures_before_the_filters_ran_say_so() -> None:
    fig = rendition_figures(example_rendition(1))
    assert not fig.filtered and fig.fillers_per_minute is None
    texts = {f.key: f for f in fig.summary()}
    assert texts["fillers"].text == texts["under"].text == "— (filters not run)"
    assert "intra- and inter-sentence filters" in texts["over"].explanation
    assert rendition_figures(_hand_project()).filtered
