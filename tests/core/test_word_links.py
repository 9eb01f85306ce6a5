"""Word links stored in the project: keys, rendered share, updates of changed beads only, the project file."""

from __future__ import annotations

import json

import pytest
from tests.word_link_fakes import SpellingLinker, en_fr_project

from sialign.core.edits import EditText, SetPostEdit, apply_edit
from sialign.core.word_links import BeadLinks, WordLinks, bead_link_key, links_of, rendered_share
from sialign.io.project_file import load_project, save_project
from sialign.links import is_content_token, tokenize_texts
from sialign.workflows.word_links import stale_pairs, update_word_links


def test_word_links_content_words_leave_out_punctuation_and_function_words() -> None:
    (tokens, content), = tokenize_texts(["The budget is 300 million euros."], "en")
    assert [tokens[k][0] for k in content] == ["budget", "300", "million", "euros"]
    assert not is_content_token("de", "fr") and is_content_token("budget", "fr")
    assert is_content_token("水", "zh") and not is_content_token("的", "zh")
    assert is_content_token("資源", "ja", "NOUN") and not is_content_token("は", "ja", "ADP")


def test_word_links_rendered_share_counts_linked_content_words() -> None:
    project = en_fr_project()
    update_word_links(project, linker=SpellingLinker())
    beads = project.alignment.beads
    first = links_of(project, beads[0])
    # budget and 300 are linked; million and euros are spelt otherwise in French.
    assert first is not None and first.rendered_share == pytest.approx(0.5)
    assert first.unrendered() == ["million", "euros"]
    assert rendered_share(project, beads[1]) == pytest.approx(1 / 3)  # Paris yes; Berlin and agree no
    assert project.word_links.aligner == "spelling-test"


def test_word_links_a_paraphrase_counts_as_rendered_but_not_as_linked() -> None:
    links = BeadLinks(
        src_tokens=(("Slowly", 0, 6), ("I", 7, 8), ("learned", 9, 16), ("mostly", 17, 23)),
        tgt_tokens=(("だんだん", 0, 4), ("分かってきました", 4, 12)),
        links=(), content=(0, 2, 3), paraphrased=(0, 2),
    )
    assert links.rendered_share == pytest.approx(2 / 3) and links.linked_share == 0
    assert [links.content_state(i) for i in range(4)] == ["paraphrase", "", "paraphrase", "not found"]
    assert links.unrendered() == ["mostly"] and links.paraphrased_words() == ["Slowly", "learned"]
    assert BeadLinks.from_dict(json.loads(json.dumps(links.to_dict()))) == links
    # Links stored without paraphrases (older files) read as none.
    assert "paraphrased" not in BeadLinks(content=(0,)).to_dict()


def test_word_links_editing_one_bead_links_only_that_bead_again() -> None:
    project = en_fr_project()
    linker = SpellingLinker()
    assert update_word_links(project, linker=linker) == 3
    linker.pairs_linked.clear()
    assert update_word_links(project, linker=linker) == 0 and linker.pairs_linked == []
    apply_edit(project, SetPostEdit(1, "Paris et Berlin sont d'accord."))
    assert list(stale_pairs(project).values()) == [("Paris and Berlin agree.", "Paris et Berlin sont d'accord.")]
    assert update_word_links(project, linker=linker) == 1
    assert [src for src, _ in linker.pairs_linked] == [("Paris", "and", "Berlin", "agree", ".")]
    assert rendered_share(project, project.alignment.beads[1]) == pytest.approx(2 / 3)
    # The old text's entry is dropped; undoing the edit would link it again.
    assert len(project.word_links.beads) == 3
    inverse = apply_edit(project, EditText("src", 0, "The budget is 400 million euros."))
    assert len(stale_pairs(project)) == 1
    apply_edit(project, inverse)
    assert stale_pairs(project) == {}


def test_word_links_another_aligner_links_everything_again() -> None:
    project = en_fr_project()
    update_word_links(project, linker=SpellingLinker())
    other = SpellingLinker()
    other.name = "other"  # type: ignore[misc]
    assert update_word_links(project, linker=other) == 3 and project.word_links.aligner == "other"


def test_word_links_survive_the_project_file_and_old_files_load(tmp_path) -> None:
    project = en_fr_project()
    old = tmp_path / "old.sialign"
    save_project(project, old)
    assert "word_links" not in json.loads(old.read_text(encoding="utf-8"))["project"]
    assert load_project(old).word_links is None
    update_word_links(project, linker=SpellingLinker())
    path = tmp_path / "links.sialign"
    save_project(project, path)
    again = load_project(path)
    assert again.word_links == project.word_links
    assert stale_pairs(again) == {}


def test_word_links_a_damaged_links_field_is_named(tmp_path) -> None:
    from sialign.core.errors import FormatError

    project = en_fr_project()
    update_word_links(project, linker=SpellingLinker())
    path = tmp_path / "links.sialign"
    save_project(project, path)
    data = json.loads(path.read_text(encoding="utf-8"))
    key = next(iter(data["project"]["word_links"]["beads"]))
    data["project"]["word_links"]["beads"][key]["links"] = "0-x"
    del data["checksum"]
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(FormatError, match="word_links"):
        load_project(path)


def test_word_links_round_trip_of_one_bead() -> None:
    links = BeadLinks((("a", 0, 1), ("b", 2, 3)), (("x", 0, 1),), ((0, 0), (1, 0)), (0, 1))
    assert BeadLinks.from_dict(links.to_dict()) == links
    store = WordLinks("test", {bead_link_key("a b", "x"): links})
    assert WordLinks.from_dict(json.loads(json.dumps(store.to_dict()))) == store
    assert links.pharaoh() == "0-0 1-0"
