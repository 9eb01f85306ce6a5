"""The Python API (``import sialign``): reprs, notebook table, DataFrame, bead iteration, namespace, CLI's rules."""

from __future__ import annotations

from pathlib import Path

import pytest

import sialign
from sialign.core.errors import EmptyInputError, OutputError
from sialign.core.model import Alignment, Bead, BeadStatus, Document, Flag, Project

SOURCE = ["Good morning, everyone.", "The river is long.", "Of course not!", "Thank you."]
TARGET = ["Bonjour à tous.", "Le fleuve est long.", "Non !", "Merci."]


def _project() -> Project:
    """A hand-made aligned project: four 1-1 beads, one dropped, one flagged, with times."""
    source = Document.from_texts(SOURCE, "en")
    target = Document.from_texts(TARGET, "fr")
    for n, (s, t) in enumerate(zip(source.segments, target.segments)):
        s.start, s.end = 2.0 * n, 2.0 * n + 1.5
        t.start, t.end = 2.0 * n + 0.5, 2.0 * n + 2.0
    beads = [Bead((i,), (i,), cost=0.1 * (i + 1)) for i in range(4)]
    beads[2].status, beads[2].reason = BeadStatus.DROPPED, "no content word"
    beads[1].flags = [Flag("alpha", 0.2, 0.5, "low similarity", True), Flag("eta", 0.9, 0.5, "fine", False)]
    beads[3].post_edit, beads[3].note = "Merci beaucoup.", "checked"
    return Project(talk_id="river", source=source, target=target,
                   alignment=Alignment(beads=beads, embedder="lexical"))


def test_api_reprs_are_short_and_say_what_the_project_is() -> None:
    project = _project()
    assert repr(project) == (
        "<Project 'river' en→fr: 4 source / 4 target segments; 4 beads (3 auto, 1 dropped; 1 flagged), embedder lexical>"
    )
    assert repr(project.alignment) == "<Alignment: 4 beads (3 auto, 1 dropped; 1 flagged), embedder lexical>"
    assert repr(project.alignment.beads[1]) == "Bead(src=(1,), tgt=(1,), cost=0.200, status='auto', flags=['alpha'])"
    assert repr(project.source) == "<Document en: 4 segments>"
    assert repr(Project(talk_id="t", source=Document.from_texts(["a"], "en"))).endswith("1 source / 0 target segments; not aligned yet>")
    big = Project(talk_id="big", source=Document.from_texts([f"s{i}" for i in range(500)], "en"),
                  target=Document.from_texts([f"t{i}" for i in range(500)], "fr"),
                  alignment=Alignment(beads=[Bead((i,), (i,), cost=0.5) for i in range(500)]))
    assert len(repr(big)) < 150 and len(repr(big.alignment)) < 100


def test_api_iterating_a_project_yields_beads_with_their_texts() -> None:
    rows = list(_project())
    assert [r.number for r in rows] == [1, 2, 3, 4]
    assert (rows[0].source, rows[0].target) == ("Good morning, everyone.", "Bonjour à tous.")
    assert rows[1].flags == ("alpha",) and rows[2].status == "dropped" and rows[2].reason == "no content word"
    assert rows[3].target == "Merci beaucoup." and rows[3].post_edited and rows[3].note == "checked"
    assert (rows[1].src_start, rows[1].tgt_end) == (2.0, 4.0)
    assert "'Of course not!' → 'Non !'" in repr(rows[2])
    assert list(Project()) == []


def test_api_to_dataframe_has_one_row_per_bead() -> None:
    pd = pytest.importorskip("pandas")
    frame = _project().to_dataframe()
    assert list(frame.index) == [1, 2, 3, 4] and frame.index.name == "number"
    assert frame.loc[3, "status"] == "dropped" and frame.loc[4, "target"] == "Merci beaucoup."
    assert frame.loc[2, "flags"] == ("alpha",)
    assert frame["cost"].tolist() == pytest.approx([0.1, 0.2, 0.3, 0.4])
    assert frame["tgt_start"].dtype == "float64" and pd.isna(frame.loc[1, "good_align"])
    for column in ("source", "target", "src_start", "src_end", "tgt_start", "tgt_end", "cost", "status", "flags", "kind"):
        assert column in frame.columns
    assert len(Project().to_dataframe()) == 0


def test_api_html_table_for_notebooks_escapes_and_elides() -> None:
    project = _project()
    project.source.segments[0].text = "<b>bold</b> & more"
    html = project._repr_html_()
    assert "&lt;b&gt;bold&lt;/b&gt; &amp; more" in html and "<table>" in html and html.count("<tr>") == 5
    long = Project(talk_id="long", source=Document.from_texts([f"s{i}" for i in range(100)], "en"),
                   target=Document.from_texts([f"t{i}" for i in range(100)], "fr"),
                   alignment=Alignment(beads=[Bead((i,), (i,)) for i in range(100)]))
    html = long._repr_html_()
    assert "… 80 more beads …" in html and ">s0<" in html and ">s99<" in html and ">s50<" not in html


def test_api_namespace_is_the_api() -> None:
    assert dir(sialign) == ["__version__", "align", "align_corpus", "export", "load"]
    for internal in ("Any", "Path", "sys", "types", "Sequence"):
        assert not hasattr(sialign, internal)


@pytest.mark.parametrize(
    ("filters", "error", "message"),
    [
        (["foo"], ValueError, "unknown filter(s) 'foo': choose from intra, inter, learned or a comma-separated list"),
        ("intra,bogus", ValueError, "'bogus'"),
        (3, TypeError, "filters must be"),
    ],
)
def test_api_align_refuses_unknown_filters(filters: object, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=None) as info:
        sialign.align(["a"], ["b"], filters=filters, model="lexical")  # type: ignore[arg-type]
    assert message in str(info.value)


def test_api_align_takes_a_filter_name_as_a_string(monkeypatch: pytest.MonkeyPatch) -> None:
    import sialign.workflows.filtering as filtering

    seen: list[list[str]] = []

    def record(project: object, names: object, **options: object) -> filtering.Filtered:
        seen.append(sorted(names, key=filtering.FILTER_NAMES.index))  # type: ignore[call-overload]
        return filtering.Filtered()

    monkeypatch.setattr(filtering, "apply_filters", record)
    sialign.align(SOURCE, TARGET, filters="intra", model="lexical", src_lang="en", tgt_lang="fr")
    sialign.align(SOURCE, TARGET, filters=["inter", "intra"], model="lexical", src_lang="en", tgt_lang="fr")
    assert seen == [["intra"], ["intra", "inter"]]


def test_api_align_refuses_an_empty_side_as_the_cli_does() -> None:
    with pytest.raises(EmptyInputError, match="the source list has no text"):
        sialign.align([], ["b"], model="lexical")
    with pytest.raises(EmptyInputError, match="the target list has no text"):
        sialign.align(["a"], ["  "], model="lexical")


def test_api_export_follows_the_cli_rules(tmp_path: Path) -> None:
    project = _project()
    with pytest.raises(OutputError, match="does not exist"):
        sialign.export(project, tmp_path / "nodir" / "x.tsv")
    assert not (tmp_path / "nodir").exists()
    with pytest.raises(TypeError, match=r"^export\(\) got an unexpected keyword argument 'bogus'"):
        sialign.export(project, tmp_path / "x.tsv", bogus=True)  # type: ignore[call-arg]
    assert sialign.export(project, tmp_path / "x.tsv") == f"3 beads to {tmp_path / 'x.tsv'}"
    assert sialign.export(project, tmp_path / "all.tsv", include_dropped=True).startswith("4 beads")
    with pytest.raises(ValueError, match="unknown filter"):
        sialign.align_corpus(tmp_path / "m.tsv", tmp_path / "out", filters="nope")
    with pytest.raises(TypeError, match="align_corpus"):
        sialign.align_corpus(tmp_path / "m.tsv", tmp_path / "out", bogus=1)


def test_api_to_dataframe_has_the_tables_confidence_doubt_and_rendered_columns() -> None:
    pytest.importorskip("pandas")
    from tests.word_link_fakes import SpellingLinker, en_fr_project

    from sialign.core.model import Flag
    from sialign.workflows.word_links import update_word_links

    project = en_fr_project()
    beads = project.alignment.beads
    beads[0].confidence = 0.84
    beads[1].flags = [Flag("doubt", 0.7, 0.5, "doubtful", True)]
    update_word_links(project, linker=SpellingLinker())
    frame = project.to_dataframe()
    assert frame.loc[1, "confidence"] == pytest.approx(0.84) and frame["confidence"].isna().tolist() == [False, True, True]
    assert frame.loc[2, "doubt"] == pytest.approx(0.7) and frame["doubt"].dtype == "float64"
    assert frame.loc[1, "rendered"] == pytest.approx(0.5)
    assert frame.sort_values("rendered").index.tolist() == [3, 2, 1]  # Thank: 0; Paris of 3: 1/3; 2 of 4
