"""Leave-one-document-out folds: a book cut into pieces at gold bead boundaries, documents held out whole."""

from __future__ import annotations

import pytest

from sialign.core.errors import SialignError
from sialign.evaluate.folds import beads_in, leave_one_out, split_gold


def _gold(count: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """1-1 beads, with a 2-1, a 1-0 and a 0-1 among them."""
    beads: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    i = j = 0
    for k in range(count):
        if k % 7 == 3:
            beads.append(((i, i + 1), (j,)))
            i, j = i + 2, j + 1
        elif k % 11 == 5:
            beads.append(((i,), ()))
            i += 1
        elif k % 13 == 8:
            beads.append(((), (j,)))
            j += 1
        else:
            beads.append(((i,), (j,)))
            i, j = i + 1, j + 1
    return beads


def test_split_gold_cuts_between_beads_into_about_equal_pieces() -> None:
    gold = _gold(60)
    pieces = split_gold(gold, 4)
    assert [p.index for p in pieces] == [0, 1, 2, 3]
    assert [b for p in pieces for b in p.gold] == gold  # every bead once, in order, none split
    n_src = max(x for s, _ in gold for x in s) + 1
    assert pieces[0].src.start == 0 and pieces[-1].src.stop == n_src
    for before, after in zip(pieces, pieces[1:]):
        assert before.src.stop == after.src.start and before.tgt.stop == after.tgt.start
    sizes = [len(p.src) for p in pieces]
    assert max(sizes) - min(sizes) <= 3
    for piece in pieces:
        assert all(piece.holds(b) for b in piece.gold)
        assert any(s and t for s, t in piece.gold)


def test_beads_of_a_hypothesis_are_scored_in_exactly_one_piece() -> None:
    gold = _gold(40)
    pieces = split_gold(gold, 3, n_src=50, n_tgt=50)
    assert pieces[-1].src.stop == 50 and pieces[-1].tgt.stop == 50
    # A hypothesis that merges across a cut and adds beads past the gold's end.
    cut = pieces[1].src.start
    hyp = [((i,), (i,)) for i in range(cut - 1)] + [((cut - 1, cut), (cut - 1, cut))] + [((i,), ()) for i in range(cut + 1, 50)]
    shares = [beads_in(p, hyp) for p in pieces]
    assert sum(len(s) for s in shares) == len(hyp)
    assert ((cut - 1, cut), (cut - 1, cut)) in shares[1]  # by its last source segment
    assert beads_in(pieces[0], [((), (0,))]) == [((), (0,))]  # a 0-1 bead by its target


def test_split_gold_keeps_a_crossing_gold_bead_with_its_neighbour() -> None:
    # Text+Berg's gold crosses itself: [250]:[291, 293, 294] then []:[292].
    gold = [((0,), (0,)), ((1,), (1, 3)), ((), (2,)), ((2,), (4,)), ((3,), (5,)), ((4,), (6,))]
    pieces = split_gold(gold, 3)
    for piece in pieces:
        assert (((1,), (1, 3)) in piece.gold) == (((), (2,)) in piece.gold)
        assert all(piece.holds(b) for b in piece.gold)


def test_split_gold_refuses_too_few_beads() -> None:
    with pytest.raises(SialignError, match="cannot cut"):
        split_gold([((0,), (0,)), ((1,), ())], 2)
    with pytest.raises(SialignError, match="cannot cut"):
        split_gold(_gold(5), 0)


def test_leave_one_out_holds_out_every_variant_of_a_document_together() -> None:
    docs = ["a", "a", "b", "c", "c"]  # e.g. a speech aligned text only and with timestamps
    folds = list(leave_one_out(docs))
    assert [name for name, _, _ in folds] == ["a", "b", "c"]
    for name, train, test in folds:
        assert {docs[k] for k in test} == {name}
        assert name not in {docs[k] for k in train}
        assert sorted(train + test) == list(range(len(docs)))
    with pytest.raises(SialignError, match="two documents"):
        list(leave_one_out(["a", "a"]))
