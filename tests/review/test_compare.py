"""Renditions of one source compared, interpreters pooled, ``sialign compare``."""

from __future__ import annotations

from pathlib import Path

import pytest
from example_renditions import example_rendition

from sialign.core.errors import SialignError
from sialign.review.compare import compare_renditions, comparison_html, comparison_tsv, interpreter_table


def test_compare_finds_where_one_omits_and_another_renders() -> None:
    a, b = example_rendition(1), example_rendition(2)
    comparison = compare_renditions([a, b], ["a.sialign", "b.sialign"])
    assert comparison.names == ["I1", "I2"]
    assert len(comparison.rows) == 35
    strong = [r.number for r in comparison.disagreements() if r.disagreement == 2]
    # The first interpreter leaves out 11 and 29, the second 7 and 19.
    assert strong == [7, 11, 19, 29]
    row = comparison.rows[10]
    assert row.cells[0].omitted and not row.cells[1].omitted and row.cells[1].text == "その次の週末も。"
    assert row.why == "omitted by I1; rendered by I2"
    # Sentence 25 is rendered with 24 by both.
    assert comparison.rows[24].cells[0].joined_to == 24
    # The second interpreter lags two seconds more (make_example.py: SECOND_EXTRA_LAG).
    assert comparison.rows[0].cells[1].lag - comparison.rows[0].cells[0].lag == pytest.approx(2.0, abs=0.01)


def test_compare_refuses_different_sources() -> None:
    a, b = example_rendition(1), example_rendition(2)
    b.source.segments[4].text = "Something else entirely."
    with pytest.raises(SialignError, match=r"b\.sialign: .*source sentence 5 differs"):
        compare_renditions([a, b], ["a.sialign", "b.sialign"])


def test_compare_ignores_whitespace_differences() -> None:
    a, b = example_rendition(1), example_rendition(2)
    b.source.segments[4].text = "  " + b.source.segments[4].text.replace(" ", "  ") + "\n"
    assert len(compare_renditions([a, b], ["a", "b"]).rows) == 35


def test_interpreter_table_pools_over_talks() -> None:
    a1, a2, b = example_rendition(1), example_rendition(1), example_rendition(2)
    a2.talk_id = "again"
    rows = interpreter_table([b, a1, a2])
    assert [r.interpreter for r in rows] == ["I1", "I2"] and [r.rank for r in rows] == ["1", "2"]
    i1 = rows[0]
    assert i1.talks == ["talk", "again"] and i1.sentences == 70 and i1.omitted == 4
    assert i1.omissions_per_100 == pytest.approx(400 / 70)
    assert i1.coverage == pytest.approx(66 / 70)
    assert i1.evs_median == pytest.approx(3.0, abs=0.002)


def test_comparison_outputs() -> None:
    comparison = compare_renditions([example_rendition(1), example_rendition(2)], ["a.sialign", "b.sialign"])
    tsv = comparison_tsv(comparison).splitlines()
    assert tsv[0].split("\t")[:5] == ["sentence", "src_start", "source", "disagreement", "why"]
    assert len(tsv) == 36 and tsv[11].split("\t")[5] == "(omitted)"
    html = comparison_html(comparison)
    assert 'id="s11" class="d2"' in html and "Where the renditions disagree (4)" in html and "http" not in html


def test_cmd_compare(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from sialign.cli.main import main
    from sialign.io.project_file import save_project

    a, b = example_rendition(1), example_rendition(2)
    save_project(a, tmp_path / "a.sialign")
    save_project(b, tmp_path / "b.sialign")
    assert main(["compare", str(tmp_path / "a.sialign"), str(tmp_path / "b.sialign"), "-o", str(tmp_path / "c.tsv")]) == 0
    out = capsys.readouterr().out
    assert "4 sentences where they disagree" in out and "sentence 7: omitted by I2" in out
    assert (tmp_path / "c.tsv").read_text(encoding="utf-8").count("\n") == 36
    assert main(["compare", str(tmp_path), "--pooled", "-o", str(tmp_path / "i.tsv")]) == 0
    assert (tmp_path / "i.tsv").read_text(encoding="utf-8").splitlines()[1].startswith("I1\t1\ttalk\t35")
    b.source.segments[0].text = "Hello."
    save_project(b, tmp_path / "b.sialign")
    capsys.readouterr()
    assert main(["compare", str(tmp_path / "a.sialign"), str(tmp_path / "b.sialign")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "b.sialign" in err and "same source" in err


def test_interpreter_table_orders_ids_as_numbers() -> None:
    from sialign.review.compare import natural_key

    projects = []
    for name in ("103", "23", "I10", "I2"):
        p = example_rendition(1)
        p.metadata.update({"interpreter": name, "rank": ""})
        projects.append(p)
    assert [r.interpreter for r in interpreter_table(projects)] == ["23", "103", "I2", "I10"]
    assert sorted(["10", "9", "b2", "B10"], key=natural_key) == ["9", "10", "b2", "B10"]


def test_negative_lags_beyond_a_few_seconds_say_the_timelines_are_offset() -> None:
    from sialign.review.compare import interpreter_lines, interpreters_html
    from sialign.review.figures import rendition_figures

    shifted = example_rendition(2)
    for seg in shifted.target.segments:
        assert seg.start is not None and seg.end is not None
        seg.start, seg.end = seg.start - 18.0, seg.end - 18.0
    fig = rendition_figures(shifted)
    assert fig.evs_median is not None and fig.evs_median < -10
    evs = {f.key: f for f in fig.summary()}["evs_median"]
    assert evs.text.endswith("s (timelines offset?)") and "timelines of the two recordings are offset" in evs.explanation
    rows = interpreter_table([example_rendition(1), shifted])
    lines = interpreter_lines(rows)
    assert lines[1].split()[0] == "I1" and " !" not in lines[1]
    assert " s !" in lines[2] and lines[-1].startswith("! I2: a median lag of -")
    assert "timelines of the two recordings are offset" in interpreters_html(rows)
    assert "offset" not in "\n".join(interpreter_lines(interpreter_table([example_rendition(1)])))
    html = comparison_html(compare_renditions([example_rendition(1), shifted], ["a", "b"]))
    assert html.count("timelines of the two recordings are offset") == 2  # the renditions' table and the interpreters'


@pytest.mark.slow
def test_compare_second_rendition_aligned_shows_its_omission() -> None:
    """Aligned (not read from gold), the second rendition leaves sentence 7 out: coverage is below 100%.

    (Before the learned bead score, sentence 7 was matched to the start of sentence 8's rendition.)
    """
    from sialign.align.pipeline import align_project
    from sialign.core.params import AlignParams

    project = example_rendition(2)
    project.alignment = align_project(project, AlignParams()).alignment
    omitted = [project.source.index_of(i) + 1 for bead in project.alignment.beads if bead.src and not bead.tgt
               for i in bead.src]
    assert 7 in omitted
    (row,) = interpreter_table([project])
    assert row.coverage is not None and row.coverage < 1.0
