"""The vote that ends the second pass on sentence targets: shared beads are kept, the first pass's path fills the rest."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sialign.align import learned_pass
from sialign.align.learned_pass import vote_paths

Path_ = list[tuple[int, int, int, int]]

# Three paths over a 6 x 6 window. The first pass joins 0-1 into a 2-2 bead and 4-5 into another;
# the other two split the first 2-2 alike (they agree) and the last one each their own way.
FIRST: Path_ = [(0, 2, 0, 2), (2, 1, 2, 1), (3, 1, 3, 1), (4, 2, 4, 2)]
LEARNED: Path_ = [(0, 1, 0, 1), (1, 1, 1, 1), (2, 1, 2, 1), (3, 1, 3, 1), (4, 1, 4, 2), (5, 1, 6, 0)]
BASE: Path_ = [(0, 1, 0, 1), (1, 1, 1, 1), (2, 1, 2, 1), (3, 1, 3, 1), (4, 2, 4, 1), (6, 0, 5, 1)]


def test_vote_keeps_what_two_paths_share_and_the_first_path_elsewhere() -> None:
    voted = vote_paths([FIRST, LEARNED, BASE])
    # The split two paths agree on wins over the first pass's 2-2; where all three differ, the first pass's bead.
    assert voted == [(0, 1, 0, 1), (1, 1, 1, 1), (2, 1, 2, 1), (3, 1, 3, 1), (4, 2, 4, 2)]


def test_vote_of_one_path_or_of_equal_paths_is_that_path() -> None:
    assert vote_paths([LEARNED]) == LEARNED
    assert vote_paths([LEARNED, LEARNED, BASE]) == LEARNED
    assert vote_paths([FIRST, FIRST, LEARNED]) == FIRST


def test_vote_follows_a_shared_bead_through_a_lone_bead_of_another_path() -> None:
    """A bead two paths share is worth more than a lone bead of a path other than the first costs:
    the shared 1-1 at the start is kept though only the learned path leads on from it."""
    first: Path_ = [(0, 2, 0, 2), (2, 1, 2, 1)]
    learned: Path_ = [(0, 1, 0, 1), (1, 2, 1, 2)]
    base: Path_ = [(0, 1, 0, 1), (1, 1, 1, 2), (2, 1, 3, 0)]
    assert vote_paths([first, learned, base]) == [(0, 1, 0, 1), (1, 2, 1, 2)]
    # A lone bead that costs more than a shared bead earns: the first pass's stretch stays.
    assert vote_paths([first, learned, base], minority=1.5) == first


def test_vote_keeps_the_kept_beads_of_a_path_against_the_majority() -> None:
    """An omission of the learned path (a 1-0 bead) survives two paths that join the sentence to its neighbour."""
    first: Path_ = [(0, 1, 0, 1), (1, 2, 1, 1), (3, 1, 2, 1)]
    learned: Path_ = [(0, 1, 0, 1), (1, 1, 1, 0), (2, 1, 1, 1), (3, 1, 2, 1)]
    base: Path_ = list(first)
    assert vote_paths([first, learned, base]) == first
    assert vote_paths([first, learned, base], kept=[(1, 1, 1, 0)]) == learned


def _random_path(draw, n: int, m: int) -> Path_:
    path: Path_ = []
    i = j = 0
    while (i, j) != (n, m):
        a = draw(st.integers(0, min(2, n - i)))
        b = draw(st.integers(0 if a else 1, min(2, m - j))) if j < m else 0
        if a == 0 and b == 0:
            a = 1 if i < n else 0
            b = 0 if a else 1
        path.append((i, a, j, b))
        i, j = i + a, j + b
    return path


@st.composite
def three_paths(draw):  # type: ignore[no-untyped-def]
    n, m = draw(st.integers(1, 8)), draw(st.integers(1, 8))
    return [_random_path(draw, n, m) for _ in range(3)], (n, m)


@settings(max_examples=200, deadline=None)
@given(three_paths())
def test_vote_always_returns_a_path_of_the_voters_beads(case) -> None:  # type: ignore[no-untyped-def]
    paths, (n, m) = case
    voted = vote_paths(paths)
    beads = {bead for path in paths for bead in path}
    assert set(voted) <= beads
    at = (0, 0)
    for i0, a, j0, b in voted:
        assert (i0, j0) == at and a + b > 0
        at = (i0 + a, j0 + b)
    assert at == (n, m)
    # Every bead all three paths share is on the voted path.
    shared = set(paths[0]) & set(paths[1]) & set(paths[2])
    assert shared <= set(voted)
    # Beads kept from one path are all on it, whatever the others say.
    kept = [bead for bead in paths[1] if not bead[3]]
    assert set(kept) <= set(vote_paths(paths, kept=kept))
    # And it is the best of all the paths through the union of the beads (brute force).
    assert _score(voted, paths, ()) == max(_score(p, paths, ()) for p in _all_paths(paths, (n, m)))
    assert _score(vote_paths(paths, kept=kept), paths, kept) == max(_score(p, paths, kept) for p in _all_paths(paths, (n, m)))


def _score(path: Path_, paths: list[Path_], kept) -> tuple[int, int, int]:  # type: ignore[no-untyped-def]
    """What the vote compares: kept beads held, earnings in tenths, first-path beads held."""
    earned = 0
    for bead in path:
        k = sum(bead in p for p in paths)
        earned += 10 * (k - 1) if k >= 2 else (0 if bead in paths[0] else -9)
    return (sum(bead in set(kept) for bead in path), earned, sum(bead in paths[0] for bead in path))


def _all_paths(paths: list[Path_], end: tuple[int, int]) -> list[Path_]:
    beads = sorted({bead for p in paths for bead in p})
    out: list[Path_] = []

    def walk(at: tuple[int, int], so_far: Path_) -> None:
        if at == end:
            out.append(list(so_far))
            return
        for bead in beads:
            if (bead[0], bead[2]) == at:
                walk((bead[0] + bead[1], bead[2] + bead[3]), [*so_far, bead])

    walk((0, 0), [])
    return out


def test_vote_breaks_ties_towards_the_first_path_and_refuses_an_empty_bead() -> None:
    """Of two ways on from a shared bead that earn the same, the one through more of the first path's
    beads is taken; a bead that holds no segment is refused."""
    first: Path_ = [(0, 1, 0, 2), (1, 1, 2, 0), (2, 0, 2, 1)]
    learned: Path_ = [(0, 0, 0, 2), (0, 1, 2, 0), (1, 1, 2, 1)]
    base: Path_ = [(0, 0, 0, 2), (0, 2, 2, 1)]
    # The shared 0-2 bead (+1), then one lone bead either way (-0.9): the learned path's 1-0 leads on
    # to the first path's last two beads, Bertalign's 2-1 does not.
    assert vote_paths([first, learned, base]) == [(0, 0, 0, 2), (0, 1, 2, 0), (1, 1, 2, 0), (2, 0, 2, 1)]
    assert vote_paths([[]]) == [] and vote_paths([]) == []
    with pytest.raises(ValueError, match="segment"):
        vote_paths([[(0, 0, 0, 0), (0, 1, 0, 1)]])


def _runs(x: np.ndarray, k: int) -> np.ndarray:
    """Unit vectors of the runs of 1..k rows of ``x`` starting at each row (as the encoder's run vectors)."""
    out = np.stack([np.stack([x[p : p + r + 1].sum(axis=0) for p in range(len(x))]) for r in range(k)])
    return (out / np.linalg.norm(out, axis=-1, keepdims=True)).astype(np.float32)


def _small_window(seed: int = 5, n: int = 30, m: int = 34):  # type: ignore[no-untyped-def]
    """A first pass over random vectors (the first 20 target rows render the first 20 source rows): its window
    costs, the source and target vectors, the character lengths and its path."""
    from sialign.align.costs import BeadCostModel, CostSettings, Signal
    from sialign.align.dp import WindowCosts, align_window

    rng = np.random.default_rng(seed)
    src = rng.normal(size=(n, 24)).astype(np.float32)
    tgt = np.concatenate([src[:20], rng.normal(size=(m - 20, 24)).astype(np.float32)]) + rng.normal(scale=0.6, size=(m, 24)).astype(np.float32)
    src /= np.linalg.norm(src, axis=1, keepdims=True)
    tgt /= np.linalg.norm(tgt, axis=1, keepdims=True)
    chars = np.full(n, 60.0), np.full(m, 55.0)
    model = BeadCostModel([Signal(src, tgt, 1.0)], 4, 4, CostSettings(), None, None, *chars)
    return WindowCosts(model, 0, n, 0, m), src, tgt, chars, align_window(model, 0, n, 0, m).beads


def test_second_pass_votes_on_sentence_targets_only(monkeypatch) -> None:
    """The second pass hands the vote the first pass's path, the learned path and Bertalign's unlearned path,
    on sentence targets; ``VOTE`` turns it off, and chunks are not put to it."""
    from sialign.align.learned_pass import second_pass, shipped_weights

    first, src, tgt, chars, path = _small_window(seed=3)
    n, m = first.n_src, first.n_tgt
    calls: list[list[Path_]] = []
    kepts: list[Path_] = []

    def spy(paths, minority=learned_pass.VOTE_MINORITY, kept=()):  # type: ignore[no-untyped-def]
        calls.append(paths)
        kepts.append(list(kept))
        return vote_paths(paths, minority, kept)

    assert learned_pass.VOTE.get("sentences") is True and not learned_pass.VOTE.get("chunks")
    monkeypatch.setattr(learned_pass, "vote_paths", spy)
    from dataclasses import replace

    shipped = shipped_weights("sentences")
    assert shipped is not None
    weights = replace(shipped, vote_follows="first", keep_learned_omissions=True)
    voted = second_pass(first, _runs(src, 4), _runs(tgt, 4), *chars, path, weights, 4, 4)
    assert len(calls) == 1 and calls[0][0] == path and voted == vote_paths(calls[0], kept=kepts[0])
    # The third voter is Bertalign's unlearned score over the same band.
    features = learned_pass.BeadFeatures(_runs(src, 4), _runs(tgt, 4), *chars, first)
    band = learned_pass.path_band(path, n, m)
    unlearned = replace(weights, base="bertalign", learned_weight=0.0)
    assert calls[0][2] == learned_pass._best_path(features, unlearned, band, path, 4, 4, None)
    assert calls[0][2] != calls[0][1] or calls[0][1] == path
    monkeypatch.setattr(learned_pass, "VOTE", {})
    alone = second_pass(first, _runs(src, 4), _runs(tgt, 4), *chars, path, weights, 4, 4)
    assert len(calls) == 1
    assert calls[0][1] == alone
    # The learned path's omissions are kept through the vote, and only they.
    assert kepts[0] == [bead for bead in alone if bead[1] and not bead[3]]
    assert set(kepts[0]) <= set(voted)
    # Chunks are not put to the vote.
    monkeypatch.setattr(learned_pass, "VOTE", {"sentences": True})
    chunk = shipped_weights("chunks")
    assert chunk is not None
    second_pass(first, _runs(src, 2), _runs(tgt, 10), *chars, path, chunk, 2, 4)
    assert len(calls) == 1


def test_shared_words_are_names_numbers_and_longer_words() -> None:
    from sialign.align.learned_pass import shared_words

    assert shared_words("- Heinrich Roiss : « Austria-Peak ( 7729 m ) » , 2. Juli") == {"heinrich", "roiss", "austria", "peak", "7729", "juli"}
    assert shared_words("Dziękuję .") == {"dziękuję"}
    assert shared_words(", . m 1") == frozenset()


def test_found_nearby_reads_the_target_segments_around_a_left_out_sentence() -> None:
    from sialign.align.learned_pass import FOUND_REACH, found_nearby, shared_words

    src = [shared_words(t) for t in ["Erstbesteigung durch", "- Heinrich Roiss :", "Dziękuję .", ", ."]]
    tgt = [shared_words(t) for t in ["Première ascension", "- H. Roiss , Austria Peak", "Thank you"]]
    assert found_nearby((1, 1, 1, 0), src, tgt)  # "roiss" of 2 words {heinrich, roiss}: half found
    assert not found_nearby((2, 1, 3, 0), src, tgt)  # nothing of "dziękuję" in the target
    assert not found_nearby((3, 1, 3, 0), src, tgt)  # no word to tell by: left to the learned path
    far = [frozenset()] * (FOUND_REACH + 1) + tgt
    assert found_nearby((1, 1, FOUND_REACH + 1, 0), src, far)
    assert not found_nearby((1, 1, 0, 0), src, far)  # the name stands beyond the reach


def test_the_weight_set_says_which_path_the_vote_follows_and_whether_learned_omissions_are_kept(monkeypatch) -> None:
    """``vote_follows`` puts Bertalign's score's path first among the voters (followed where all three differ);
    ``keep_learned_omissions`` False puts the learned path's 1-0 beads to the vote like the others."""
    from dataclasses import replace

    from sialign.align.learned_pass import BeadScoreWeights, second_pass, shipped_weights

    first, src, tgt, chars, path = _small_window(seed=10, m=26)  # the learned path leaves source rows 20 and 21 out
    calls: list[tuple[list[Path_], list[Path_]]] = []

    def spy(paths, minority=learned_pass.VOTE_MINORITY, kept=()):  # type: ignore[no-untyped-def]
        calls.append((paths, list(kept)))
        return vote_paths(paths, minority, kept)

    monkeypatch.setattr(learned_pass, "vote_paths", spy)
    shipped = shipped_weights("sentences")
    assert shipped is not None
    args = (first, _runs(src, 4), _runs(tgt, 4), *chars, path)
    keeping = replace(shipped, keep_learned_omissions=True)
    second_pass(*args, replace(keeping, vote_follows="first"), 4, 4)
    (path_first, learned, base), kept = calls[-1]
    assert path_first == path and kept
    voted = second_pass(*args, replace(keeping, vote_follows="bertalign"), 4, 4)
    assert calls[-1] == ([base, learned, path], kept) and voted == vote_paths([base, learned, path], kept=kept)
    second_pass(*args, replace(keeping, keep_learned_omissions=False), 4, 4)
    assert calls[-1][1] == []
    # The switches travel with the weight set's file and refuse what they do not know.
    raw = replace(shipped, vote_follows="bertalign", keep_learned_omissions=False).to_dict()
    again = BeadScoreWeights.from_dict(raw)
    assert (again.vote_follows, again.keep_learned_omissions) == ("bertalign", False)
    with pytest.raises(ValueError, match="vote_follows"):
        BeadScoreWeights.from_dict({**raw, "vote_follows": "learned"})


def test_the_shipped_sets_vote_as_chosen_on_the_dev_sets() -> None:
    """Written translations follow Bertalign's score's path where the three differ and put the learned path's
    omissions to the vote (tests/benchmarks/cv_books.py); interpretations follow the first pass's and keep them."""
    from sialign.align.learned_pass import shipped_weights

    translation, interpretation = shipped_weights("sentences"), shipped_weights("interpretation")
    assert translation is not None and interpretation is not None
    assert (translation.vote_follows, translation.keep_learned_omissions) == ("bertalign", False)
    assert (interpretation.vote_follows, interpretation.keep_learned_omissions) == ("first", True)


def test_the_vote_puts_a_left_out_sentence_whose_words_stand_beside_it_to_the_vote(monkeypatch) -> None:
    """A learned 1-0 bead stays out whatever the other paths say unless its sentence's words stand in the
    target segments around it; then the vote decides, as for any other bead."""
    from sialign.align.learned_pass import FOUND_REACH, second_pass, shipped_weights

    first, src, tgt, chars, path = _small_window(seed=10, m=26)  # the learned path leaves source rows 20 and 21 out
    kepts: list[Path_] = []

    def spy(paths, minority=learned_pass.VOTE_MINORITY, kept=()):  # type: ignore[no-untyped-def]
        kepts.append(list(kept))
        return vote_paths(paths, minority, kept)

    monkeypatch.setattr(learned_pass, "vote_paths", spy)
    from dataclasses import replace

    shipped = shipped_weights("sentences")
    assert shipped is not None
    weights = replace(shipped, keep_learned_omissions=True)  # as the interpretation set keeps them
    args = (first, _runs(src, 4), _runs(tgt, 4), *chars, path, weights, 4, 4)
    second_pass(*args)
    omissions = kepts[-1]
    assert len(omissions) >= 2
    named = omissions[0]
    src_words = [frozenset({f"word{i}"}) for i in range(first.n_src)]
    tgt_words = [frozenset() for _ in range(first.n_tgt)]
    # The first omission's word stands in the target next to where it would go.
    tgt_words[min(named[2], first.n_tgt - 1)] = src_words[named[0]]
    assert named[2] - FOUND_REACH <= min(named[2], first.n_tgt - 1) < named[2] + FOUND_REACH
    second_pass(*args, words=(src_words, tgt_words))
    assert kepts[-1] == omissions[1:]
    # With no words to tell by (or none given) every learned omission is kept.
    second_pass(*args, words=([frozenset()] * first.n_src, tgt_words))
    assert kepts[-1] == omissions


def test_shared_costs_are_the_costs_computed_alone_and_read_once() -> None:
    """The vote's two DPs read costs computed from one set of features: every block the second DP reads
    is the block its own weights give, and each is handed over once."""
    from dataclasses import replace

    from sialign.align.dp import banded_dp
    from sialign.align.learned_pass import BeadFeatures, LearnedCosts, path_band, shipped_weights

    first, src, tgt, chars, path = _small_window()
    src_runs, tgt_runs = _runs(src, 4), _runs(tgt, 4)
    weights = shipped_weights("sentences")
    assert weights is not None
    unlearned = replace(weights, base="bertalign", learned_weight=0.0)
    features = BeadFeatures(src_runs, tgt_runs, *chars, first)
    band = path_band(path, first.n_src, first.n_tgt)
    learned_costs, base_costs = LearnedCosts(features, weights, band, 4, 4), LearnedCosts(features, unlearned, band, 4, 4)
    learned_costs.share_with(base_costs)
    learned_path = banded_dp(learned_costs, band, block_rows=8).beads
    handed = dict(base_costs._ready)
    assert len(handed) == -(-first.n_src // 8)  # one block per 8 rows of the DP
    alone = LearnedCosts(BeadFeatures(src_runs, tgt_runs, *chars, first), unlearned, band, 4, 4)
    for key, block in handed.items():
        types, r0, r1, shape, j0, _j1 = key
        rows = np.arange(r0, r1 + 1)
        j_grid = band.lo[rows][:, None] + np.arange(shape[1])[None, :]
        assert j_grid[0, 0] == j0
        assert np.array_equal(block, alone.band_costs(list(types), rows, j_grid))
    base_path = banded_dp(base_costs, band, block_rows=8).beads
    assert not base_costs._ready  # every block read, none kept
    assert base_path == banded_dp(alone, band, block_rows=8).beads
    assert learned_path == banded_dp(LearnedCosts(features, weights, band, 4, 4), band, block_rows=8).beads
    with pytest.raises(ValueError, match="different features"):
        learned_costs.share_with(alone)


def test_the_vote_computes_the_features_once(monkeypatch) -> None:
    """With the vote the second pass computes each bead's features no more often than the learned DP alone does."""
    from sialign.align.learned_pass import BeadFeatures, second_pass, shipped_weights

    first, src, tgt, chars, path = _small_window()
    src_runs, tgt_runs = _runs(src, 4), _runs(tgt, 4)
    weights = shipped_weights("sentences")
    assert weights is not None
    calls = {"match": 0, "skips": 0}
    match, skips = BeadFeatures.match, BeadFeatures._skip_features

    def counted_match(self, *args):  # type: ignore[no-untyped-def]
        calls["match"] += 1
        return match(self, *args)

    def counted_skips(self, *args):  # type: ignore[no-untyped-def]
        calls["skips"] += 1
        return skips(self, *args)

    monkeypatch.setattr(BeadFeatures, "match", counted_match)
    monkeypatch.setattr(BeadFeatures, "_skip_features", counted_skips)
    voted = second_pass(first, src_runs, tgt_runs, *chars, path, weights, 4, 4)
    with_vote = dict(calls)
    calls.update(match=0, skips=0)
    monkeypatch.setattr(learned_pass, "VOTE", {})
    second_pass(first, src_runs, tgt_runs, *chars, path, weights, 4, 4)
    assert with_vote == calls and calls["match"] > 0 and calls["skips"] == 2
    assert voted  # a path came out of the vote


def test_shared_names_are_capitalised_words_and_numbers() -> None:
    from sialign.align.learned_pass import shared_names

    assert shared_names("- G.O.Dyhrenfurth : « Baltoro » ( ibidem 1939 ) .") == {"dyhrenfurth", "baltoro", "1939"}
    assert shared_names("il est certain que la Commission") == {"commission"}  # "certain" is not a name
    assert shared_names("Der Berg , 2. Juli") == {"berg", "juli"}  # 3 letters and a lone digit are not


def test_a_name_crosses_a_boundary_only_from_one_beads_source_to_the_others_target() -> None:
    from sialign.align.learned_pass import crossing, shared_names

    src = [shared_names(t) for t in ["- Günter Dyhrenfurth : Zum dritten Pol", "( Basel :", "Benno Schwabe 1935 ) ."]]
    tgt = [shared_names(t) for t in ["- G. Dyhrenfurth , Au troisième pôle", "Benno Schwabe , Basel 1935 ."]]
    # s0-s1 -> t0 and s2 -> t1: "basel" of the left source stands only in the right target.
    assert crossing((0, 2, 0, 1), (2, 1, 1, 1), src, tgt) == {"basel"}
    # Joined the other way round nothing crosses: every name stays on its own side.
    assert crossing((0, 1, 0, 1), (1, 2, 1, 1), src, tgt) == frozenset()
    # A name both sources hold, or both targets, tells nothing of the boundary.
    assert crossing((0, 2, 0, 1), (2, 1, 1, 1), [src[0], src[1], src[2] | {"basel"}], tgt) == frozenset()
    assert crossing((0, 2, 0, 1), (2, 1, 1, 1), src, [tgt[0] | {"basel"}, tgt[1]]) == frozenset()


def test_join_crossed_joins_neighbours_a_name_crosses_within_the_runs() -> None:
    from sialign.align.learned_pass import join_crossed

    def names(*words: str) -> list[frozenset[str]]:
        return [frozenset(w.split()) if w else frozenset() for w in words]

    src = names("abalakow", "", "plain", "evans", "", "", "reist", "")
    tgt = names("", "abalakow", "plain", "evans", "", "gunten reist")
    path = [(0, 1, 0, 1), (1, 1, 1, 1), (2, 1, 2, 1), (3, 1, 3, 1), (4, 1, 4, 0), (5, 1, 4, 1), (6, 1, 5, 0), (7, 1, 5, 1)]
    # s0's name stands in the next bead's target: the two are one bead; "plain" and "evans" stay where they are;
    # the left-out s6 "Reist ." joins the next bead, whose target names him; the other left-out sentence stays out.
    assert join_crossed(path, src, tgt, 4, 4) == [(0, 2, 0, 2), (2, 1, 2, 1), (3, 1, 3, 1), (4, 1, 4, 0), (5, 1, 4, 1), (6, 2, 5, 1)]
    # Not beyond the runs the second pass reads.
    assert join_crossed(path, src, tgt, 1, 4) == path
    # A chain joins while the names cross and the runs allow.
    chain = names("a", "b", "")
    assert join_crossed([(0, 1, 0, 1), (1, 1, 1, 1), (2, 1, 2, 1)], chain, names("", "a", "b"), 4, 4) == [(0, 3, 0, 3)]
    assert join_crossed([(0, 1, 0, 1), (1, 1, 1, 1), (2, 1, 2, 1)], chain, names("", "a", "b"), 2, 2) == [(0, 2, 0, 2), (2, 1, 2, 1)]


def test_the_second_pass_joins_crossed_beads_for_the_written_translation_set_only(monkeypatch) -> None:
    """``refine`` hands the names on where ``JOIN_CROSSED`` says so for the weight set, and ``second_pass``
    joins the voted path's beads a name crosses."""
    from sialign.align.learned_pass import refine, second_pass, shipped_weights

    first, src, tgt, chars, path = _small_window(seed=3)
    weights = shipped_weights("sentences")
    assert weights is not None
    args = (first, _runs(src, 4), _runs(tgt, 4), *chars, path, weights, 4, 4)
    plain = second_pass(*args)
    k = next(k for k in range(len(plain) - 1) if all(plain[k][1:4:2]) and all(plain[k + 1][1:4:2]) and plain[k][1] + plain[k + 1][1] <= 4
             and plain[k][3] + plain[k + 1][3] <= 4)
    left, right = plain[k], plain[k + 1]
    src_names = [frozenset() for _ in range(first.n_src)]
    tgt_names = [frozenset() for _ in range(first.n_tgt)]
    src_names[left[0]] = frozenset({"dyhrenfurth"})
    tgt_names[right[2]] = frozenset({"dyhrenfurth"})
    joined = second_pass(*args, names=(src_names, tgt_names))
    assert joined == plain[:k] + [(left[0], left[1] + right[1], left[2], left[3] + right[3])] + plain[k + 2:]
    seen: list[object] = []

    def spy(*a, **kw):  # type: ignore[no-untyped-def]
        seen.append(kw.get("names"))
        return path

    monkeypatch.setattr(learned_pass, "second_pass", spy)
    rest = (first, _runs(src, 4), _runs(tgt, 4), *chars, path, 4, 4)
    refine(*rest, "sentences", names=(src_names, tgt_names))
    refine(*rest, "interpretation", names=(src_names, tgt_names))
    assert seen == [(src_names, tgt_names), None]
