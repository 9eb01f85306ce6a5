"""AHC-SI and Text+Berg loaders and the per-sentence automatic targets."""

from __future__ import annotations

import pytest

from sialign.core.errors import FormatError
from sialign.core.model import Alignment, Bead, BeadStatus
from sialign.evaluate import automatic_targets, chunk_after_punctuation, lcs_accuracy, load_ahcsi, load_textberg

HEADER = "id\tname\teng_src\toffline_tgt\tinterpreter\tmanual_si_tgt\n"


@pytest.mark.parametrize(
    ("text", "chunks"),
    [
        ("はい、そうです。では", ["はい、", "そうです。", "では"]),
        ("本当？はい！", ["本当？", "はい！"]),
        ("、。", ["、", "。"]),
        ("終わり。 ", ["終わり。"]),
        ("", []),
    ],
)
def test_datasets_chunk_after_punctuation(text: str, chunks: list[str]) -> None:
    assert chunk_after_punctuation(text) == chunks


def _write_talks(tmp_path, rows: list[str]):
    path = tmp_path / "mini.true.tsv"
    path.write_text(HEADER + "".join(r + "\n" for r in rows), encoding="utf-8")
    return path


def test_datasets_load_ahcsi_applies_the_protocol(tmp_path) -> None:
    path = _write_talks(
        tmp_path,
        [
            "1\tA\tYes, it is.\tはい、そうです。\tI1\tはい、そうです。",
            "2\tB\tHello.\tこんにちは。\tI2\tこんにちは",
            "3\tA\tThen.\tでは。\tI1\tでは。",
            "4\tB\tBye.\tさようなら。\tI2\tさようなら。",
        ],
    )
    a, b = load_ahcsi(path)
    assert (a.name, a.source, a.reference, a.manual) == (
        "A",
        ["Yes, it is.", "Then."],
        ["はい、そうです。", "では。"],
        ["はい、そうです。", "では。"],
    )
    assert a.target == ["はい、", "そうです。", "では。"]
    assert a.row_ids == ["1", "3"] and a.interpreter == "I1"
    # Without closing punctuation a rendering runs into the next one's chunk.
    assert b.target == ["こんにちはさようなら。"]
    project = a.project()
    assert (project.source.language, project.target.language, len(project.reference)) == ("en", "ja", 2)


def test_datasets_load_ahcsi_names_missing_columns(tmp_path) -> None:
    path = tmp_path / "bad.tsv"
    path.write_text("id\tname\teng_src\n1\tA\tHi\n", encoding="utf-8")
    with pytest.raises(FormatError, match="offline_tgt"):
        load_ahcsi(path)


def test_datasets_automatic_targets_per_sentence(tmp_path) -> None:
    path = _write_talks(
        tmp_path,
        [
            "1\tA\tYes, it is.\tはい。\tI1\tはい、そうです。",
            "2\tA\tThen.\tでは。\tI1\tでは。",
            "3\tA\tBye.\tさようなら。\tI1\tさようなら。",
        ],
    )
    (talk,) = load_ahcsi(path)
    project = talk.project()
    perfect = Alignment(beads=[Bead(src=(0,), tgt=(0, 1)), Bead(src=(1,), tgt=(2,)), Bead(src=(2,), tgt=(3,))])
    assert automatic_targets(project, perfect) == talk.manual
    assert lcs_accuracy(zip(automatic_targets(project, perfect), talk.manual))["acc@0.9"] == 1.0
    # An n:m bead credits each of its sentences with the whole rendering;
    # a dropped bead leaves its sentence without one unless asked.
    merged = Alignment(
        beads=[
            Bead(src=(0, 1), tgt=(0, 1, 2)),
            Bead(src=(2,), tgt=(3,), status=BeadStatus.DROPPED, reason="cost"),
        ]
    )
    assert automatic_targets(project, merged) == ["はい、そうです。では。", "はい、そうです。では。", ""]
    assert automatic_targets(project, merged, include_dropped=True)[2] == "さようなら。"
    project.alignment = perfect
    assert automatic_targets(project) == talk.manual


def test_datasets_load_ahcsi_shared_dev(shared_data) -> None:
    talks = load_ahcsi(shared_data / "ahcsi-dev" / "dev.true.tsv")
    assert [t.name for t in talks] == ["GaryFlake_2010", "CharlesHazlewood_2011G", "RobertMuggah_2017G", "AmarInamdar_2017G"]
    assert sum(len(t.source) for t in talks) == 238
    for talk in talks:
        assert len(talk.source) == len(talk.reference) == len(talk.manual)
        assert "".join(talk.target) == "".join(talk.manual)
        assert len(talk.target) > len(talk.source)  # chunks, not sentences
        assert all(c[-1] in "、。？！" for c in talk.target[:-1])


def test_datasets_load_textberg_shared_dev(shared_data) -> None:
    doc = load_textberg(shared_data / "textberg-dev")
    assert (len(doc.source), len(doc.target), len(doc.gold)) == (468, 554, 422)
    assert doc.gold[6] == ((6,), (6, 7, 8))
    assert doc.project().target.language == "fr"


def test_datasets_load_textberg_rejects_gold_beyond_documents(tmp_path) -> None:
    (tmp_path / "x.de").write_text("a\nb\n", encoding="utf-8")
    (tmp_path / "x.fr").write_text("c\n", encoding="utf-8")
    (tmp_path / "x.defr").write_text("[0]:[0]\n[1]:[1]\n", encoding="utf-8")
    with pytest.raises(FormatError, match="line 2"):
        load_textberg(tmp_path, name="x")


def test_datasets_paper_output_scores_as_published(shared_data) -> None:
    """The NAIST-SIC-Aligned automatic output (dev.intra.tsv) against the manual gold: 0.878 at ε = 0.8."""
    gold_talks = load_ahcsi(shared_data / "ahcsi-dev" / "dev.true.tsv")
    paper_talks = load_ahcsi(shared_data / "ahcsi-dev" / "dev.intra.tsv", manual_column="si_tgt")
    paper = {(rid, src): si for t in paper_talks for rid, src, si in zip(t.row_ids, t.source, t.manual)}
    pairs = [(paper[(rid, src)], gold) for t in gold_talks for rid, src, gold in zip(t.row_ids, t.source, t.manual)]
    result = lcs_accuracy(pairs)
    assert result["n"] == 238
    assert round(result["acc@0.8"], 3) == 0.878
