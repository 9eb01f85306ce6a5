"""Bead precision/recall/F1 and the vecalign bead format."""

from __future__ import annotations

import pytest

from sialign.core.errors import FormatError
from sialign.core.model import Alignment, Bead, BeadStatus, Document
from sialign.evaluate import alignment_positions, bead_f1, bead_f1_many, format_bead, read_beads

GOLD = [((0,), (0,)), ((1, 2), (1,)), ((), (2,)), ((3,), (3, 4))]
HYP = [((0,), (0,)), ((1,), (1,)), ((2,), ()), ((), (2,)), ((3,), (3,)), ((), (4,))]


def test_beads_read_vecalign_format(tmp_path) -> None:
    path = tmp_path / "gold.align"
    path.write_text("[0]:[0]\n[1, 2]:[1]:0.3512\n\n[]:[2]\n[3]:[3,4]:1.0e-3\n", encoding="utf-8")
    assert read_beads(path) == GOLD[:2] + [((), (2,)), ((3,), (3, 4))]
    assert read_beads(["[0]:[]", "[]:[1]"]) == [((0,), ()), ((), (1,))]


@pytest.mark.parametrize("line", ["[0]-[1]", "[a]:[1]", "[0]:[1]:cheap", "0:1"])
def test_beads_read_rejects_malformed_line_naming_it(tmp_path, line: str) -> None:
    path = tmp_path / "bad.align"
    path.write_text(f"[0]:[0]\n{line}\n", encoding="utf-8")
    with pytest.raises(FormatError, match=r"bad\.align, line 2"):
        read_beads(path)


def test_beads_format_round_trips() -> None:
    lines = [format_bead(b, cost=0.25) for b in GOLD]
    assert lines[1] == "[1, 2]:[1]:0.250000"
    assert read_beads(lines) == GOLD


def test_beads_f1_hand_checked_case() -> None:
    # Precision over all 6 hypothesis beads: strict hits [0]:[0] and []:[2];
    # lax hits additionally [1]:[1] (gold maps 1 -> {1}) and [3]:[3].
    # Recall over the 3 gold beads with both sides non-empty, judged by the
    # 3 such hypothesis beads: strict [0]:[0]; lax all three.
    scores = bead_f1(HYP, GOLD)
    assert scores["precision_strict"] == pytest.approx(2 / 6)
    assert scores["precision_lax"] == pytest.approx(4 / 6)
    assert scores["recall_strict"] == pytest.approx(1 / 3)
    assert scores["recall_lax"] == pytest.approx(1.0)
    assert scores["f1_strict"] == pytest.approx(1 / 3)
    assert scores["f1_lax"] == pytest.approx(0.8)


@pytest.mark.parametrize(
    ("hyp", "gold", "expected"),
    [
        # Identical alignments.
        (GOLD, GOLD, (1.0, 1.0, 1.0, 1.0)),
        # Only deletions in the hypothesis: nothing to recall, nothing precise.
        ([((0,), ()), ((), (0,))], [((0,), (0,))], (0.0, 0.0, 0.0, 0.0)),
        # A 2-1 merge of two 1-1 gold beads: strictly wrong; the merge laxly
        # right for precision; for recall gold [1]:[1] finds no hypothesis
        # target 1 reachable from source 1 (lax overlap needs both sides).
        ([((0, 1), (0,)), ((), (1,))], [((0,), (0,)), ((1,), (1,))], (0.0, 0.0, 0.5, 0.5)),
        # Empty-on-both-sides beads and duplicates are ignored.
        ([((0,), (0,)), ((0,), (0,)), ((), ())], [((0,), (0,))], (1.0, 1.0, 1.0, 1.0)),
        # Nothing at all.
        ([], [], (0.0, 0.0, 0.0, 0.0)),
    ],
)
def test_beads_f1_cases(hyp, gold, expected) -> None:
    s = bead_f1(hyp, gold)
    got = (s["precision_strict"], s["recall_strict"], s["precision_lax"], s["recall_lax"])
    assert got == pytest.approx(expected)


def test_beads_f1_many_is_micro_averaged() -> None:
    one = bead_f1_many([(HYP, GOLD), (GOLD, GOLD)])
    # 2+4 strict hits of 6+4 hypothesis beads.
    assert one["precision_strict"] == pytest.approx(6 / 10)
    assert one["recall_strict"] == pytest.approx(4 / 6)


def test_beads_alignment_positions_use_positions_not_ids() -> None:
    src = Document.from_texts(["a", "b"])
    tgt = Document.from_texts(["x", "y", "z"])
    src.segments[1].id = 17  # ids survive edits; positions are what gold files hold
    alignment = Alignment(
        beads=[
            Bead(src=(0,), tgt=(0, 1)),
            Bead(src=(17,), tgt=(2,), status=BeadStatus.DROPPED, reason="cost 1.3"),
        ]
    )
    assert alignment_positions(alignment, src, tgt) == [((0,), (0, 1)), ((1,), (2,))]
    assert alignment_positions(alignment, src, tgt, include_dropped=False) == [
        ((0,), (0, 1)),
        ((1,), ()),
        ((), (2,)),
    ]


def test_beads_textberg_gold_scores_perfectly_against_itself(shared_data) -> None:
    gold = read_beads(shared_data / "textberg-dev" / "dev.defr")
    assert len(gold) == 422
    assert bead_f1(gold, gold)["f1_strict"] == 1.0
