"""Tag projection (sialign.review.tags): tags placed in the project, projected through the links, written out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tiny_links import PairLinker, tiny_project

from sialign.core.errors import SialignError
from sialign.review.tags import (
    place_source_tags,
    project_tags,
    read_tagged_source,
    tagged_subtitles,
    write_projected_tags,
)

# The seed paper's example (Koehn's lecture): Mary did not slap the green witch.
SRC = ["Mary did not slap the green witch.", "She ran away."]
TGT = ["Maria no daba una bofetada a la bruja verde.", "Ella huyó."]
LINKS = {("mary", "maria"), ("not", "no"), ("slap", "daba"), ("slap", "una"), ("slap", "bofetada"),
         ("the", "la"), ("green", "verde"), ("witch", "bruja"), ("she", "ella"), ("ran", "huyó"), ("away", "huyó")}


def _srt(path: Path, captions: list[str]) -> Path:
    path.write_text("".join(f"{k + 1}\n00:00:0{k},000 --> 00:00:0{k},900\n{c}\n\n" for k, c in enumerate(captions)), encoding="utf-8")
    return path


def _projected(tmp_path: Path, captions: list[str]):  # type: ignore[no-untyped-def]
    project = tiny_project(SRC, TGT, [((0,), (0,)), ((1,), (1,))])
    result = project_tags(project, _srt(tmp_path / "tagged.srt", captions), linker=PairLinker(LINKS))
    return project, result


def _target_texts(result) -> list[tuple[str, str | None]]:  # type: ignore[no-untyped-def]
    out = []
    for p in result.tags:
        bw = result.beads[p.source.bead]
        out.append((bw.src_text[p.source.tag.start : p.source.tag.end], None if p.target is None else bw.tgt_text[p.target.start : p.target.end]))
    return out


def test_tags_one_word_to_several_linked_words_takes_the_whole_phrase(tmp_path: Path) -> None:
    _project, result = _projected(tmp_path, ["Mary did not <i>slap</i> the green witch.", "She ran away."])
    assert _target_texts(result) == [("slap", "daba una bofetada")]


def test_tags_minimal_surrounding_span_covers_unlinked_words_between(tmp_path: Path) -> None:
    # "not slap" links to "no" and "daba una bofetada"; "the green witch" to "la", "verde" and "bruja" in another order.
    _project, result = _projected(tmp_path, ["Mary did <b>not slap</b> <i>the green witch</i>.", "She ran away."])
    assert _target_texts(result) == [("not slap", "no daba una bofetada"), ("the green witch", "la bruja verde")]
    assert result.tags[1].linked == (6, 7, 8)


def test_tags_other_caption_layout_and_a_tag_across_two_beads(tmp_path: Path) -> None:
    # The tagged file cuts the text elsewhere than the project's sentences; a tag runs over the sentence boundary.
    captions = ["Mary did not slap the", "green <term>witch. She</term> ran", "away."]
    _project, result = _projected(tmp_path, captions)
    assert [(p.source.bead, text) for p, text in zip(result.tags, _target_texts(result))] == [
        (0, ("witch.", "bruja")), (1, ("She", "Ella")),
    ]


def test_tags_unlinked_words_and_edited_text(tmp_path: Path) -> None:
    _project, result = _projected(tmp_path, ["Mary <i>did</i> not slap the green witch.", "She ran <b>quickly</b> away."])
    assert _target_texts(result) == [("did", None)]
    assert result.tags[0].reason == "no interpretation word is linked to the tagged words"
    assert result.lost == [("b", "quickly")]
    assert result.summary() == "0 of 1 tag projected onto the interpretation (1 with no linked interpretation words); 1 tag of the tagged file not found in the project's source"


def test_tags_outputs_srt_vtt_and_jsonl(tmp_path: Path) -> None:
    project, result = _projected(tmp_path, ['Mary did not <font color="red">slap</font> the green <term>witch</term>.', "She <i>ran away</i>."])
    srt = tagged_subtitles(project, result, "srt")
    assert '1\n00:00:00,500 --> 00:00:01,400\nMaria no <font color="red">daba una bofetada</font> a la <term>bruja</term> verde.\n' in srt
    assert "Ella <i>huyó</i>." in srt
    project.target.segments[1].text = "Ella huyó & <ya>."
    assert "Ella <i>huyó</i> &amp; &lt;ya&gt;." in tagged_subtitles(project, result, "vtt")
    assert write_projected_tags(project, result, tmp_path / "out.jsonl") == 2
    first = json.loads((tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert first["target_tagged"] == 'Maria no <font color="red">daba una bofetada</font> a la <term>bruja</term> verde.'
    assert first["tags"][0] == {"tag": "font", "attrs": ' color="red"', "source_span": [13, 17], "source_text": "slap",
                                "target_span": [9, 26], "target_text": "daba una bofetada",
                                "linked_words": ["daba", "una", "bofetada"]}


def test_tags_elan_tiers_per_tag_name_timed_inside_their_segments(tmp_path: Path) -> None:
    from sialign.core.errors import ExportError
    from sialign.io.readers import list_tiers, read_transcript
    from sialign.review.tags import tag_tiers

    project, result = _projected(tmp_path, ["Mary did not <i>slap</i> the green <i>witch</i>.", "<i>She</i> ran away."])
    tiers = dict(tag_tiers(project, result))
    assert list(tiers) == ["source", "target", "source tag i", "target tag i"]
    # "slap" is characters 13–17 of a 34-character sentence timed 0.0–0.9 s.
    assert tiers["source tag i"][0] == pytest.approx((13 / 34 * 0.9, 17 / 34 * 0.9, "slap"))
    assert [text for _a, _b, text in tiers["target tag i"]] == ["daba una bofetada", "bruja", "Ella"]
    assert write_projected_tags(project, result, tmp_path / "t.eaf") == 6
    assert list_tiers(tmp_path / "t.eaf")[2:] == ["source tag i", "target tag i"]
    assert [s.text for s in read_transcript(tmp_path / "t.eaf", tier="target tag i", language="es").segments][-1] == "Ella"
    project.target.segments[1].start = None
    with pytest.raises(ExportError, match="segment 2 has no times"):
        tag_tiers(project, result)


def test_tags_refuse_an_untagged_source_and_a_wrong_extension(tmp_path: Path) -> None:
    project = tiny_project(SRC, TGT, [((0,), (0,)), ((1,), (1,))])
    with pytest.raises(SialignError, match="no inline tag"):
        project_tags(project, _srt(tmp_path / "plain.srt", SRC), linker=PairLinker(LINKS))
    project.source.path = None
    with pytest.raises(SialignError, match="name the tagged source transcript") as caught:
        project_tags(project, linker=PairLinker(LINKS))
    assert caught.value.settings == ("tagged",)
    _project, result = _projected(tmp_path, ["Mary <i>did</i> not slap the green witch.", "She ran away."])
    with pytest.raises(SialignError, match=r"\.srt, \.vtt, \.jsonl or \.eaf"):
        write_projected_tags(project, result, tmp_path / "out.txt")


def test_tags_webvtt_source_keeps_its_tags_and_references(tmp_path: Path) -> None:
    path = tmp_path / "t.vtt"
    path.write_text("WEBVTT\n\n00:00:00.000 --> 00:00:01.000\n<v Ann>Fish &amp; <c.yellow>chips</c>\n", encoding="utf-8")
    (plain, tags), = read_tagged_source(path, "en")
    assert plain == "Fish & chips" and [(t.name, t.attrs, plain[t.start : t.end]) for t in tags] == [("c", ".yellow", "chips")]


def test_tags_placed_by_words_when_the_project_reads_the_tagged_file_itself(tmp_path: Path) -> None:
    from sialign.io.readers import read_transcript

    path = _srt(tmp_path / "t.srt", ["A <term>loaf</term> of <i>bread</i>."])
    doc = read_transcript(path, language="en")
    assert doc.segments[0].text == "A loaf of bread."  # the reader leaves no tag in the aligned text
    project = tiny_project(["A loaf of bread."], ["Un pan."], [((0,), (0,))])
    placed, lost = place_source_tags(project, read_tagged_source(path, "en"))
    assert [(t.bead, t.tag.name, t.tag.start, t.tag.end) for t in placed] == [(0, "term", 2, 6), (0, "i", 10, 15)] and lost == []
