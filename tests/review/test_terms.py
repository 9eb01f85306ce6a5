"""The glossary check (sialign.review.terms): the glossary's format, the verdicts, the outputs and the report section."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tiny_links import PairLinker, tiny_project

from sialign.core.errors import InputError, SialignError
from sialign.core.model import BeadStatus
from sialign.review.report import build_report, report_html
from sialign.review.terms import (
    EXPECTED,
    NOT_RENDERED,
    OTHERWISE,
    check_terms,
    parse_glossary,
    read_glossary,
    terms_json,
    terms_tsv,
)


def test_terms_glossary_comments_blank_lines_and_several_renderings(tmp_path: Path) -> None:
    path = tmp_path / "g.tsv"
    path.write_text("\ufeff# en → es\n\nsourdough starter\tmasa madre\tfermento \t\nloaf\tpan\r\n", encoding="utf-8")
    glossary = read_glossary(path)
    assert [(e.term, e.renderings, e.line) for e in glossary.entries] == [
        ("sourdough starter", ("masa madre", "fermento"), 3), ("loaf", ("pan",), 4),
    ]


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("loaf\tpan\nbread pan\n", 2, "no tab"),
        ("# c\n\tpan\n", 2, "source term"),
        ("loaf\t\t\n", 1, "no accepted rendering"),
        ("loaf\tpan\nLoaf\thogaza\n", 2, "already on line 1"),
        ("# only comments\n\n", None, "holds no term"),
    ],
)
def test_terms_malformed_glossary_lines_are_named(text: str, line: int | None, words: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_glossary(text, "g.tsv")
    message = str(caught.value)
    assert words in message and message.startswith("g.tsv" + (f", line {line}:" if line else ":"))
    assert "\n" not in message


def _bakery():  # type: ignore[no-untyped-def]
    project = tiny_project(
        ["My first loaf was flat.", "I bought a thermometer and flour.", "The dough rose.", "Bread and bread.", "A loaf."],
        ["Mi primer pan era plano.", "Compré un termómetro y harina.", "Del pan, pan.", "Un pan."],
        [((0,), (0,)), ((1,), (1,)), ((2,), ()), ((3,), (2,)), ((4,), (3,))],
    )
    linker = PairLinker({("loaf", "pan"), ("thermometer", "termómetro"), ("flour", "harina"), ("bread", "pan")})
    glossary = parse_glossary("loaf\tpan\nthermometer\ttermómetro\nflour\tharina de trigo\ndough\tmasa\nbread\tpan\nnotebook\tcuaderno\n", "g.tsv")
    return project, linker, glossary


def test_terms_verdicts_on_a_tiny_project() -> None:
    project, linker, glossary = _bakery()
    check = check_terms(project, glossary, linker=linker)
    rows = [(h.bead, h.term, h.found, h.verdict, h.said) for h in check.hits]
    assert rows == [
        (0, "loaf", "loaf", EXPECTED, "pan"),
        (1, "thermometer", "thermometer", EXPECTED, "termómetro"),
        (1, "flour", "flour", OTHERWISE, "harina"),  # linked, but not the accepted "harina de trigo"
        (2, "dough", "dough", NOT_RENDERED, ""),  # a 1-0 bead
        (3, "bread", "Bread", EXPECTED, "pan"),
        (3, "bread", "bread", EXPECTED, "pan"),  # the second "pan" of the chunk
        (4, "loaf", "loaf", EXPECTED, "pan"),
    ]
    assert check.hits[3].note == "no interpretation in this bead"
    assert check.missing == ["notebook"] and check.aligner == "stand-in"
    assert check.counts() == {EXPECTED: 5, OTHERWISE: 1, NOT_RENDERED: 1}
    # Links are drawn only for the beads holding a term, in one call.
    assert linker.calls == [5]


def test_terms_one_rendering_is_not_counted_for_two_occurrences() -> None:
    project = tiny_project(["Bread and more bread."], ["Pan."], [((0,), (0,))])
    check = check_terms(project, parse_glossary("bread\tpan\n", "g"), linker=PairLinker({("bread", "pan")}))
    assert [(h.verdict, h.said, h.note) for h in check.hits] == [
        (EXPECTED, "Pan", ""), (NOT_RENDERED, "", "its linked words (Pan) render an earlier occurrence"),
    ]


def test_terms_a_rendering_away_from_the_links_still_counts_and_says_so() -> None:
    project = tiny_project(["The loaf was good."], ["Estaba bueno el pan."], [((0,), (0,))])
    check = check_terms(project, parse_glossary("loaf\tpan\n", "g"), linker=PairLinker({("loaf", "bueno")}))
    (hit,) = check.hits
    assert (hit.verdict, hit.said, hit.via_links) == (EXPECTED, "pan", False)


def test_terms_dropped_bead_has_no_rendering_and_inflected_terms_match() -> None:
    project, linker, glossary = _bakery()
    project.alignment.beads[0].status = BeadStatus.DROPPED
    project.source.segments[4].text = "Two loaves."
    check = check_terms(project, glossary, linker=linker)
    first, last = check.hits[0], check.hits[-1]
    assert (first.verdict, first.note) == (NOT_RENDERED, "the bead is dropped")
    assert (last.found, last.verdict) == ("loaves", EXPECTED)


def test_terms_outputs_and_report_section() -> None:
    project, linker, glossary = _bakery()
    check = check_terms(project, glossary, linker=linker)
    tsv = terms_tsv(check).splitlines()
    assert tsv[3].split("\t") == ["bead", "time", "term", "found", "verdict", "said", "accepted", "note"]
    assert tsv[4].split("\t")[:6] == ["1", "0:00", "loaf", "loaf", EXPECTED, "pan"]
    assert tsv[-1] == "# never in the source: notebook" and tsv[1].startswith("# matching: rule-based English lemmas")
    data = json.loads(terms_json(check))
    assert data["counts"][OTHERWISE] == 1 and data["hits"][2]["bead"] == 2 and data["hits"][2]["tgt_spans"] == [[23, 29]]
    html = report_html(build_report(project, terms=check))
    assert "<h2>Terms (g.tsv)</h2>" in html and "Never in the source: notebook" in html
    assert '<tr class="flagged"><td class="num">2</td>' in html
    assert "<h2>Terms" not in report_html(build_report(project))


def test_terms_need_an_alignment() -> None:
    project, linker, glossary = _bakery()
    project.alignment = None
    with pytest.raises(SialignError, match="no alignment yet"):
        check_terms(project, glossary, linker=linker)


def test_an_empty_glossary_is_called_a_glossary(tmp_path: Path) -> None:
    path = tmp_path / "empty.tsv"
    path.write_bytes(b"")
    with pytest.raises(InputError, match="empty.tsv: the glossary is empty — write one source term per line"):
        read_glossary(path)
