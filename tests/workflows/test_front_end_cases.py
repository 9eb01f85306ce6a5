"""The use cases the front ends call instead of reaching the filters and the word aligner themselves."""

from __future__ import annotations

from pathlib import Path

import pytest

from sialign.core.errors import InputError
from sialign.core.model import BeadStatus, Document, Project
from sialign.core.params import AlignParams, FilterParams
from sialign.io.project_file import save_project
from sialign.workflows.aligning import align_talk
from sialign.workflows.filtering import compute_filters, learning_projects, preview_filters, skipped_filters

TEXTS = [f"Sentence number {i} talks about the {w} of the city." for i, w in enumerate(
    ["river", "bridge", "market", "school", "harbour", "station", "museum", "garden"])]
# Every other interpretation is far longer than the reference: gamma fails there.
RENDERED = [t if i % 2 else t + " And so on and so forth, again and again, for a long while." for i, t in enumerate(TEXTS)]


def _aligned(name: str = "city") -> Project:
    project = Project(talk_id=name, source=Document.from_texts(TEXTS, "en"), target=Document.from_texts(RENDERED, "en"),
                      reference=Document.from_texts(TEXTS, "en"))
    align_talk(project, AlignParams(embedder="lexical"))
    return project


def test_preview_filters_lists_the_beads_applying_would_change() -> None:
    from sialign.filters import score_beads

    project = _aligned()
    params = FilterParams(gamma_max=1.3)
    scores = score_beads(project, content_pos=params.content_pos)
    preview = preview_filters(project, scores, params)
    beads, _ = compute_filters(project, params, scores)
    dropped = [k for k, b in enumerate(beads) if b.status is BeadStatus.DROPPED]
    assert dropped and sorted(preview.flips) == dropped
    assert set(dropped) <= set(preview.changed)
    assert preview.counts["drop"] == len(dropped)
    assert all("length ratio" in " ".join(c.reasons) for c in preview.changes if c.change == "drop")


def test_skipped_filters_names_the_reason_for_a_chinese_target() -> None:
    project = _aligned()
    assert skipped_filters(project) == {}
    project.target = Document.from_texts(["我们谈谈这座城市。"] * len(TEXTS), "zh")
    skipped = skipped_filters(project)
    assert set(skipped) == {"intra", "alpha"} and skipped["intra"].endswith("the target is zh")


def test_learning_projects_leaves_out_the_project_being_filtered(tmp_path: Path) -> None:
    for name in ("a", "b", "c"):
        save_project(_aligned(name), tmp_path / f"{name}.sialign")
    others = learning_projects([str(tmp_path)], besides=tmp_path / "b.sialign")
    assert sorted(p.talk_id for p in others) == ["a", "c"]
    with pytest.raises(InputError, match="no such file"):
        learning_projects([str(tmp_path / "missing.sialign")])


def test_link_pairs_reads_text_as_the_named_file_and_names_the_aligner() -> None:
    from sialign.workflows.word_links import link_pairs

    with pytest.raises(InputError, match="<standard input>"):
        link_pairs("<standard input>", "en", "en", text="no separator here\n", aligner="encoder")


@pytest.mark.parametrize(("given", "names"), [
    ("intra", ("intra",)), ("Inter, intra", ("intra", "inter")), (" learned ,intra,intra", ("intra", "learned")),
    (["inter", "LEARNED"], ("inter", "learned")), ({"intra"}, ("intra",)), ("", ()), ([], ()),
])
def test_filter_names_are_read_one_way(given: object, names: tuple[str, ...]) -> None:
    """The command line, corpus mode, the Python API and align_talk all read filter names with this one function."""
    from sialign.workflows.filtering import check_filter_names, parse_filter_names

    assert parse_filter_names(given) == names  # type: ignore[arg-type]
    assert check_filter_names(given) == frozenset(names)  # type: ignore[arg-type]


def test_an_unknown_filter_name_is_a_value_error_naming_it_and_the_choices() -> None:
    from sialign.core.errors import FilterNameError, SialignError
    from sialign.workflows.filtering import parse_filter_names

    with pytest.raises(FilterNameError) as err:
        parse_filter_names("intra,magic,Bogus")
    assert isinstance(err.value, ValueError) and isinstance(err.value, SialignError)
    assert str(err.value) == ("unknown filter(s) 'bogus', 'magic': choose from intra, inter, learned "
                              "or a comma-separated list such as intra,inter")
    with pytest.raises(TypeError, match="filters must be a name"):
        parse_filter_names(3)  # type: ignore[arg-type]
