"""The doubt model: negative examples, training, scoring, decisions and the CLI."""

from __future__ import annotations

import dataclasses
import json
import time
from pathlib import Path

import numpy as np
import pytest

from lexical_talks import lexical_talk
from sialign.cli.main import main
from sialign.core.edits import MoveSegment, ReplaceAlignment, SetStatus, apply_edit
from sialign.core.errors import SialignError
from sialign.core.model import REVIEWER_DROP_REASON, Alignment, Bead, BeadStatus, Document, Project
from sialign.core.params import AlignParams
from sialign.filters import learned
from sialign.filters.doubt_decisions import (
    DOUBT_FLAG,
    DOUBT_REASON_PREFIX,
    apply_doubt,
    most_doubtful,
    preview_doubt_flips,
    roc_auc,
)
from sialign.filters.doubt_features import (
    COST_CLIP,
    FEATURE_NAMES,
    _reported_costs,
    bead_spans,
    boundary_margins,
    char_f_score,
    context_features,
    span_features,
    talk_context,
)
from sialign.filters.learned import (
    CHUNK_COMBINER_KEY,
    COMBINED_FEATURES,
    COMBINER_FILE,
    DoubtResult,
    combined_features,
    combiner_for,
    combiner_from_dict,
    combiner_to_dict,
    compute_doubt,
    fit_combiner,
    fit_logistic,
    make_negatives,
    rejected_proposals,
    shipped_combiner,
    shipped_combiners,
    training_examples_from,
    training_set,
)
from sialign.io.project_file import load_project, save_project

WORDS = """river mountain engine budget harbour violin station teacher garden protein satellite copper
festival ladder parliament orchard vaccine tunnel compass glacier pepper archive lantern meadow
theatre cable falcon quarry ribbon summit canvas thunder marble walnut beacon saddle""".split()


def make_talk(n: int = 40, seed: int = 0) -> Project:
    """A same-language talk: each source sentence rendered in one or two chunks (lexical aligns it well)."""
    return lexical_talk(WORDS, n, seed, size=8, talk_id=f"talk{seed}")


@pytest.fixture(scope="module")
def talk() -> Project:
    return make_talk()


# ---------------------------------------------------------------- negatives
def test_learned_make_negatives_are_corruptions_of_positives() -> None:
    spans = [(0, 1, 0, 2), (1, 1, 2, 1), (2, 2, 3, 3), (4, 1, 6, 0), (5, 0, 6, 1)]
    negatives = make_negatives(spans, [0, 1, 2], 6, 7, per_positive=100)
    kinds = {kind for _, kind, _ in negatives}
    assert {"swap_next", "swap_prev", "tgt_add_next", "tgt_add_prev", "tgt_drop_first", "tgt_drop_last",
            "src_add_next", "src_add_prev", "src_drop_first", "src_drop_last"} <= kinds
    seen = [s for s, _, _ in negatives]
    assert len(seen) == len(set(seen))  # no duplicates
    assert not set(seen) & set(spans)  # never one of the talk's own beads
    for (i0, a, j0, b), kind, k in negatives:
        assert a or b, kind
        assert 0 <= i0 and i0 + a <= 6 and 0 <= j0 and j0 + b <= 7, kind
        pi0, pa, pj0, pb = spans[k]
        if kind == "swap_next":
            assert (i0, a) == (pi0, pa) and (j0, b) == spans[k + 1][2:]
        if kind == "tgt_add_next":
            assert (i0, a, j0, b) == (pi0, pa, pj0, pb + 1)
        if kind == "src_drop_first":
            assert (i0, a) == (pi0 + 1, pa - 1)
    # The first bead has no previous target chunk to take in.
    assert not any(kind == "tgt_add_prev" and k == 0 for _, kind, k in negatives)


def test_learned_make_negatives_respects_limits_and_seed() -> None:
    spans = [(i, 1, 2 * i, 2) for i in range(10)]
    a = make_negatives(spans, range(10), 10, 20, per_positive=3, rng=np.random.default_rng(1))
    b = make_negatives(spans, range(10), 10, 20, per_positive=3, rng=np.random.default_rng(1))
    assert a == b
    counts = np.bincount([k for _, _, k in a], minlength=10)
    assert counts.max() <= 3
    # Largest bead sides: no corruption grows a side past them.
    wide = make_negatives([(0, 1, 0, 12), (1, 1, 12, 1)], [0], 2, 13, max_tgt=12, per_positive=100)
    assert all(s[3] <= 12 for s, _, _ in wide)


# ---------------------------------------------------------------- model
def test_learned_fit_logistic_separates_and_handles_one_class() -> None:
    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, 3))
    y = (X[:, 0] - 0.5 * X[:, 1] > 0).astype(float)
    model = fit_logistic(X, y)
    assert roc_auc(model.predict(X), y.astype(bool)) > 0.97
    assert model.coef[0] > 0 > model.coef[1]
    only_good = fit_logistic(X, np.zeros(400))
    assert np.all(only_good.predict(X) < 0.05)


def test_learned_roc_auc_counts_ties_half() -> None:
    assert roc_auc(np.array([0.1, 0.9]), np.array([False, True])) == 1.0
    assert roc_auc(np.array([0.5, 0.5]), np.array([False, True])) == 0.5
    assert np.isnan(roc_auc(np.array([0.5]), np.array([True])))


def test_learned_char_f_score() -> None:
    assert char_f_score("the same text", "the same text") == pytest.approx(1.0)
    assert char_f_score("abc", "xyz") == 0.0
    assert 0 < char_f_score("the same", "the same text") < 1


# ---------------------------------------------------------------- features and doubt
def test_learned_features_describe_real_and_synthetic_beads(talk: Project) -> None:
    ctx = talk_context(talk)
    spans = bead_spans(talk)
    X = span_features(ctx, spans)
    assert X.shape == (len(talk.alignment.beads), len(FEATURE_NAMES))
    assert np.all(np.isfinite(X))
    cost = X[:, FEATURE_NAMES.index("cost")]
    stored = np.array([b.cost for b in talk.alignment.beads], dtype=float)
    # Recomputed from positions, the cost is the one the aligner stored.
    assert np.allclose(cost, stored, atol=1e-3)
    # A bead with its neighbour's target costs more than the real one.
    swapped = span_features(ctx, [(spans[5][0], spans[5][1], spans[6][2], spans[6][3])])
    assert swapped[0, 0] > cost[5] + 0.3


def test_learned_compute_doubt_ranks_corrupted_beads_first(talk: Project) -> None:
    project = dataclasses.replace(talk, alignment=Alignment([b.copy() for b in talk.alignment.beads]), history=[])
    apply_edit(project, SetStatus(tuple(range(0, 30, 3)), BeadStatus.CONFIRMED))
    # Move chunks across two boundaries: four beads are now wrong.
    wrong_ids = []
    for k in (16, 25):
        bead = project.alignment.beads[k]
        apply_edit(project, MoveSegment("tgt", bead.tgt[-1], +1))
        wrong_ids += [k, k + 1]
    result = compute_doubt(project)
    assert result.matches(project.alignment.beads)
    assert result.doubt.shape == (len(project.alignment.beads),)
    assert np.all((result.doubt >= 0) & (result.doubt <= 1))
    assert result.source == "confirmed + unreviewed"
    wrong = np.zeros(len(result.doubt), dtype=bool)
    wrong[wrong_ids] = True
    unreviewed = np.array([b.unreviewed for b in project.alignment.beads])
    assert roc_auc(result.doubt[unreviewed], wrong[unreviewed]) > 0.85
    assert most_doubtful(project.alignment.beads, result.by_bead()) in wrong_ids


def _moved_boundaries(talk: Project, beads: tuple[int, ...]) -> Project:
    """A copy of the talk whose beads ``beads`` each hand their last chunk to the next bead."""
    project = dataclasses.replace(talk, alignment=Alignment([b.copy() for b in talk.alignment.beads]), history=[])
    for k in beads:
        apply_edit(project, MoveSegment("tgt", project.alignment.beads[k].tgt[-1], +1))
    return project


def test_learned_boundary_margins_price_both_beads_of_each_move(talk: Project) -> None:
    project = _moved_boundaries(talk, (16,))
    ctx = talk_context(project)
    spans = bead_spans(project)
    model = ctx.combined
    margins = boundary_margins(model, spans)
    assert margins.shape == (len(spans) - 1,)

    def cost(i0: int, a: int, j0: int, b: int) -> float:
        if a > model.max_src or b > model.max_tgt or a < 0 or b < 0 or not (a or b):
            return float("inf")
        return float(model.bead_cost(a, b, np.array([i0 + a]), np.array([j0 + b]))[0])

    # Brute force: every move of every boundary, both beads' DP costs summed.
    for k in range(len(spans) - 1):
        (i0, a, j0, b), (_, a1, _, b1) = spans[k], spans[k + 1]
        base = cost(i0, a, j0, b) + cost(i0 + a, a1, j0 + b, b1)
        moves = [cost(i0, a + ds, j0, b + dt) + cost(i0 + a + ds, a1 - ds, j0 + b + dt, b1 - dt) - base
                 for ds, dt in ((0, 1), (0, -1), (1, 0), (-1, 0))]
        expected = float(np.clip(np.nan_to_num(min(moves), posinf=COST_CLIP), -COST_CLIP, COST_CLIP))
        assert margins[k] == pytest.approx(expected, abs=1e-9), k
    # The moved chunk: giving it back is cheaper, so that boundary's margin is negative (the only one).
    assert margins[16] < 0
    assert np.sum(margins < 0) == 1
    assert boundary_margins(model, spans[:1]).shape == (0,)


def test_learned_context_features_are_relative_to_the_talk(talk: Project) -> None:
    project = _moved_boundaries(talk, (16,))
    ctx = talk_context(project)
    spans = bead_spans(project)
    X = context_features(ctx, spans)
    assert X.shape == (len(spans), 4)
    for col, model in enumerate((ctx.combined, ctx.direct)):
        margins = boundary_margins(model, spans)
        scale = float(np.median(margins[margins > 0]))
        # Each bead's smaller margin over the talk's typical one; the talk's ends have one boundary.
        assert X[0, col] == pytest.approx(min(margins[0], COST_CLIP) / scale)
        assert X[-1, col] == pytest.approx(min(margins[-1], COST_CLIP) / scale)
        assert X[17, col] == pytest.approx(min(margins[16], margins[17]) / scale)
        assert np.all(np.abs(X[:, col]) <= COST_CLIP)
    # The two beads around the moved chunk are the only ones below zero.
    assert set(np.flatnonzero(X[:, 0] < 0)) == {16, 17}
    # Halving every cost of the talk leaves the features as they were: they are relative.
    scaled = dataclasses.replace(ctx, combined=_Scaled(ctx.combined, 0.5), direct=_Scaled(ctx.direct, 0.5))
    assert np.allclose(context_features(scaled, spans), X)
    # The bead's cost (as stored on beads, clipped) over its neighbours' mean and over the talk's median.
    i0, a, j0, b = np.array(spans).T
    cost = np.minimum(_reported_costs(ctx.combined, a, b, i0 + a, j0 + b), COST_CLIP)
    assert X[0, 2] == pytest.approx(cost[0] - cost[1])
    assert X[17, 2] == pytest.approx(cost[17] - (cost[16] + cost[18]) / 2)
    assert X[-1, 2] == pytest.approx(cost[-1] - cost[-2])
    assert np.allclose(X[:, 3], cost - np.median(cost))
    # The beads around the moved chunk cost more than their neighbours and than the talk's beads.
    assert X[16, 3] > 0 and X[17, 3] > 0 and max(X[16, 2], X[17, 2]) > 0
    # A talk of one bead has no neighbours to compare with.
    assert np.all(context_features(ctx, spans[:1])[:, 2:] == 0)


class _Scaled:
    """A cost model whose costs are ``factor`` times another's."""

    def __init__(self, model: object, factor: float) -> None:
        self._model, self._factor = model, factor

    def __getattr__(self, name: str) -> object:
        return getattr(self._model, name)

    def bead_cost(self, *args: object) -> np.ndarray:
        return self._factor * self._model.bead_cost(*args)  # type: ignore[attr-defined, no-any-return]


def test_learned_shipped_combiner_matches_the_code_and_is_used(talk: Project) -> None:
    shipped = shipped_combiner()
    stored = json.loads(COMBINER_FILE.read_text(encoding="utf-8"))
    assert tuple(stored["features"]) == COMBINED_FEATURES == shipped.feature_names
    # The talk's own model counts for more doubt, a wide boundary margin for less, and a bead dearer
    # than the talk's beads for more.
    weights = shipped.weights()
    assert weights["self_log_odds"] > 0 and weights["boundary_margin_direct"] < 0 and weights["cost_over_talk"] > 0
    assert combiner_from_dict(combiner_to_dict(shipped, fitted_on="x")).weights() == weights
    with pytest.raises(ValueError, match="the code computes"):
        combiner_from_dict({**stored, "features": ["self_log_odds", "cost", "boundary_margin"]})
    with pytest.raises(ValueError, match=f"{len(COMBINED_FEATURES)} numbers"):
        combiner_from_dict({**stored, "coef": [1.0, 2.0]})
    project = _moved_boundaries(talk, (16, 25))
    ctx = talk_context(project)
    spans = bead_spans(project)
    result = compute_doubt(project, context=ctx)
    expected = shipped.predict(combined_features(result.model.decision(span_features(ctx, spans)), ctx, spans))
    assert np.allclose(result.doubt, expected)
    assert result.own_doubt is not None and not np.allclose(result.doubt, result.own_doubt)
    # Another combination changes the doubt: compute_doubt takes the one it is given.
    flat = fit_combiner(np.eye(2, len(COMBINED_FEATURES)), np.array([0.0, 1.0]))
    other = compute_doubt(project, context=ctx, combiner=flat)
    assert not np.allclose(other.doubt, result.doubt)
    # Without any review, the four beads around the moved chunks are the most doubtful.
    wrong = np.zeros(len(spans), dtype=bool)
    wrong[[16, 17, 25, 26]] = True
    assert roc_auc(result.doubt, wrong) > roc_auc(result.own_doubt, wrong) - 1e-9
    assert set(np.argsort(-result.doubt)[:4]) == {16, 17, 25, 26}


def _with_units(project: Project, units: str | None) -> Project:
    """A copy of the project whose alignment records ``units`` as its target units (``None``: records none)."""
    info = {k: v for k, v in project.alignment.info.items() if k != "target_units"}
    if units is not None:
        info["target_units"] = units
    return dataclasses.replace(project, alignment=dataclasses.replace(project.alignment, info=info))


def test_learned_chunk_talks_get_the_chunk_combination(talk: Project) -> None:
    combiners = shipped_combiners()
    chunks, main_one = combiners[CHUNK_COMBINER_KEY], shipped_combiner()
    assert main_one is combiners[""]
    # Trained on chunks moved across a boundary: a wide boundary margin counts for less doubt.
    assert chunks.weights()["boundary_margin"] < 0 and chunks.weights() != main_one.weights()
    base = _moved_boundaries(talk, (16, 25))
    ctx = talk_context(base)
    spans = bead_spans(base)
    doubts = {}
    for units in ("chunks", "sentences", None):
        project = _with_units(base, units)
        result = compute_doubt(project, context=ctx)
        combined = combined_features(result.model.decision(span_features(ctx, spans)), ctx, spans)
        expected = chunks if units == "chunks" else main_one
        assert combiner_for(project) is expected
        assert np.allclose(result.doubt, expected.predict(combined))
        doubts[units] = result.doubt
    # A sentence talk, and an alignment that does not record its units (an old project), as before.
    assert np.allclose(doubts["sentences"], doubts[None])
    assert not np.allclose(doubts["chunks"], doubts["sentences"])
    # The chunk talk's doubt still puts the four beads around the moved chunks first.
    assert set(np.argsort(-doubts["chunks"])[:4]) == {16, 17, 25, 26}
    # No alignment: the main one.
    assert combiner_for(dataclasses.replace(base, alignment=None)) is main_one


def test_learned_doubt_model_file_round_trips_with_its_chunk_combination(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    stored = json.loads(COMBINER_FILE.read_text(encoding="utf-8"))
    # The main combination's fields are where they were: a reader of the old form still reads them.
    assert combiner_from_dict(stored).weights() == shipped_combiner().weights()
    chunk = stored[CHUNK_COMBINER_KEY]
    assert tuple(chunk["features"]) == COMBINED_FEATURES and "fitted_on" in chunk
    model = combiner_from_dict(chunk)
    again = combiner_to_dict(model, fitted_on=chunk["fitted_on"], auc=chunk["auc"])
    assert again == chunk
    assert combiner_from_dict(again).weights() == shipped_combiners()[CHUNK_COMBINER_KEY].weights()
    # A file without a chunk combination (as before it was shipped): chunk talks get the main one.
    old = tmp_path / "doubt_model.json"
    old.write_text(json.dumps({k: v for k, v in stored.items() if k != CHUNK_COMBINER_KEY}), encoding="utf-8")
    monkeypatch.setattr(learned, "COMBINER_FILE", old)
    shipped_combiners.cache_clear()
    try:
        assert set(shipped_combiners()) == {""}
        project = Project(talk_id="t", source=Document.from_texts(["a."], "en"), target=Document.from_texts(["b"], "en"),
                          alignment=Alignment([Bead(src=(0,), tgt=(0,))], info={"target_units": "chunks"}))
        assert combiner_for(project).weights() == shipped_combiner().weights()
        # A broken chunk combination is a broken installation.
        old.write_text(json.dumps({**stored, CHUNK_COMBINER_KEY: {**chunk, "coef": [1.0]}}), encoding="utf-8")
        shipped_combiners.cache_clear()
        with pytest.raises(SialignError, match="cannot be used"):
            shipped_combiners()
    finally:
        shipped_combiners.cache_clear()


def test_learned_training_set_uses_reviewer_drops_and_corrections(talk: Project) -> None:
    project = dataclasses.replace(talk, alignment=Alignment([b.copy() for b in talk.alignment.beads]), history=[])
    ctx = talk_context(project)
    before = training_set(project, ctx)
    assert set(before.kinds) >= {"unreviewed"} and "confirmed" not in before.kinds
    # The aligner's proposal, recorded in the history as the app and the CLI record it.
    apply_edit(project, ReplaceAlignment(talk.alignment))
    apply_edit(project, SetStatus((3,), BeadStatus.DROPPED, REVIEWER_DROP_REASON))
    # The reviewer moves a chunk and confirms both beads: the aligner's proposals were wrong.
    old7, old8 = project.alignment.beads[7], project.alignment.beads[8]
    apply_edit(project, MoveSegment("tgt", old7.tgt[-1], +1))
    apply_edit(project, SetStatus((7, 8), BeadStatus.CONFIRMED))
    rejected = rejected_proposals(project)
    assert set(rejected) == {(old7.src, old7.tgt), (old8.src, old8.tgt)}
    data = training_set(project, ctx)
    assert data.kinds.count("reviewer_drop") == 1
    assert data.kinds.count("rejected") == 2
    good, wrong = data.counts
    assert good >= 2 and wrong > good


def test_learned_retraining_is_well_under_a_second(talk: Project) -> None:
    project = make_talk(200, seed=3)
    ctx = talk_context(project)
    started = time.perf_counter()
    result = compute_doubt(project, context=ctx)
    elapsed = time.perf_counter() - started
    assert len(result.doubt) == len(project.alignment.beads) >= 190
    assert elapsed < 1.0, result.seconds


def test_learned_examples_from_other_talks_only_use_confirmed_beads() -> None:
    other = make_talk(20, seed=5)
    assert len(training_examples_from([other]).y) == 0  # nothing confirmed: nothing learned
    apply_edit(other, SetStatus((1, 2, 3, 4), BeadStatus.CONFIRMED))
    data = training_examples_from([other])
    assert data.kinds.count("confirmed") == 4 and "unreviewed" not in data.kinds
    mine = make_talk(20, seed=6)
    result = compute_doubt(mine, extra=data)
    assert result.source.endswith("+ other talks")


# ---------------------------------------------------------------- decisions
def _result(beads: list[Bead], doubt: list[float]) -> DoubtResult:
    from sialign.filters.learned import DoubtModel

    model = DoubtModel(np.zeros(1), np.ones(1), np.zeros(1), 0.0)
    return DoubtResult([(b.src, b.tgt) for b in beads], np.array(doubt), model, (1, 1), "confirmed")


def test_learned_apply_doubt_flags_drops_and_restores() -> None:
    src = Document.from_texts(["a", "b", "c", "d", "e"], "en")
    tgt = Document.from_texts(["A", "B", "C", "D", "E"], "en")
    beads = [
        Bead((0,), (0,)),
        Bead((1,), (1,), status=BeadStatus.CONFIRMED),
        Bead((2,), (2,), status=BeadStatus.DROPPED, reason=DOUBT_REASON_PREFIX + "doubt 0.90 is above 0.50"),
        Bead((3,), (3,), status=BeadStatus.DROPPED, reason=REVIEWER_DROP_REASON),
        Bead((4,), (4,), status=BeadStatus.DROPPED, reason="filter: gamma"),
    ]
    project = Project(source=src, target=tgt, alignment=Alignment(beads))
    result = _result(beads, [0.9, 0.95, 0.2, 0.9, 0.1])
    assert preview_doubt_flips(result, beads, 0.5, True) == [0, 2]
    out = apply_doubt(project, result, 0.5)
    assert [b.status for b in out] == [BeadStatus.DROPPED, BeadStatus.CONFIRMED, BeadStatus.AUTO,
                                       BeadStatus.DROPPED, BeadStatus.DROPPED]
    assert out[0].reason.startswith(DOUBT_REASON_PREFIX)
    assert out[3].reason == REVIEWER_DROP_REASON and out[4].reason == "filter: gamma"
    flags = [next(f for f in b.flags if f.name == DOUBT_FLAG) for b in out]
    assert [f.score for f in flags] == [0.9, 0.95, 0.2, 0.9, 0.1]
    assert flags[0].failed and not flags[1].failed  # a confirmed bead is never flagged
    assert project.alignment.beads[0].status is BeadStatus.AUTO  # the project is not changed
    # Flag only: nothing dropped, the doubt filter's own drop comes back.
    assert preview_doubt_flips(result, beads, 0.5, False) == [2]
    with pytest.raises(ValueError):
        preview_doubt_flips(result, beads[:4], 0.5, True)


# ---------------------------------------------------------------- CLI
def test_cmd_filter_learned_writes_doubt_into_project_and_jsonl(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = make_talk(30, seed=7)
    apply_edit(project, SetStatus((0, 1, 2), BeadStatus.CONFIRMED), record=False)
    path = tmp_path / "talk.sialign"
    save_project(project, path)
    assert main(["filter", str(path), "--learned-only", "--doubt-max", "0.9", "--report"]) == 0
    text = capsys.readouterr().out
    assert "doubt: trained on confirmed + unreviewed" in text and "most doubtful beads" in text
    saved = load_project(path)
    assert all(any(f.name == DOUBT_FLAG for f in b.flags) for b in saved.alignment.beads)
    assert saved.filter_params.doubt_max == 0.9
    assert saved.history[-1]["label"] == "Apply the learned filter"
    out = tmp_path / "talk.jsonl"
    assert main(["export", str(path), "-f", "jsonl", "-o", str(out), "--include-dropped"]) == 0
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert all(0.0 <= r["doubt"] <= 1.0 for r in records)


def test_cmd_filter_learned_from_other_projects(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for seed in (8, 9):
        other = make_talk(20, seed=seed)
        apply_edit(other, SetStatus((0, 1, 2, 3), BeadStatus.CONFIRMED), record=False)
        save_project(other, corpus / f"{other.talk_id}.sialign")
    path = tmp_path / "mine.sialign"
    save_project(make_talk(20, seed=10), path)
    assert main(["filter", str(path), "--learned-only", "--learned-from", str(corpus), "--flag-only"]) == 0
    assert "+ other talks" in capsys.readouterr().out
    assert all(b.status is not BeadStatus.DROPPED or not b.reason.startswith(DOUBT_REASON_PREFIX)
               for b in load_project(path).alignment.beads)


@pytest.mark.parametrize(
    "args, message",
    [(["--doubt-max", "1.5"], "between 0 and 1"), (["--learned-from", "/nonexistent/corpus"], "no such file")],
)
def test_cmd_filter_learned_refuses_bad_arguments(tmp_path: Path, args: list[str], message: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "talk.sialign"
    save_project(make_talk(10, seed=11), path)
    assert main(["filter", str(path), "--learned-only", *args]) != 0
    assert message in capsys.readouterr().err


@pytest.mark.slow
def test_cmd_filter_learned_after_the_other_filters(tmp_path: Path, ginza: object, capsys: pytest.CaptureFixture[str]) -> None:
    src = Document.from_texts(["They haven't given up on government.", "In 1950 there were 3 million people.", "Thank you."], "en")
    tgt = Document.from_texts(["じゃあ、", "政府は、", "諦めていないのです。", "三百万人。", "ありがとう。"], "ja")
    ref = Document.from_texts(["彼らは政府を諦めていないのです。", "1950年には300万人がいました。", "ありがとう。"], "ja")
    project = Project(talk_id="t1", source=src, target=tgt, reference=ref,
                      alignment=Alignment([Bead((0,), (0, 1, 2)), Bead((1,), (3,)), Bead((2,), (4,))]))
    project.params = AlignParams(embedder="lexical")
    path = tmp_path / "talk.sialign"
    save_project(project, path)
    assert main(["filter", str(path), "--learned", "--flag-only"]) == 0
    text = capsys.readouterr().out
    assert "3 beads: 1 trimmed" in text and "doubt: trained on" in text
    saved = load_project(path)
    assert [h["label"] for h in saved.history[-2:]] == ["Apply filters", "Apply the learned filter"]
    beads = saved.alignment.beads
    assert beads[0].trimmed == (0,)  # the intra filter's trim survives the learned filter
    assert all(any(f.name == DOUBT_FLAG for f in b.flags) for b in beads)


class FakeEncoder:
    """A stand-in for a sentence encoder (anything that is not the lexical embedder)."""

    name = "fake encoder"
    cache_id = "fake-encoder"

    def __init__(self) -> None:
        from sialign.embed.lexical import LexicalEmbedder

        self._inner = LexicalEmbedder()
        self.dim = self._inner.dim

    def fit(self, texts: list[str], **kwargs: object) -> None:
        self._inner.fit(texts, **kwargs)

    def encode(self, texts: list[str], progress: object = None, should_stop: object = None) -> np.ndarray:
        return self._inner.encode(list(texts))


def test_learned_sentence_encoder_adds_semantic_pivot_features() -> None:
    project = make_talk(20, seed=12)
    project.reference = Document.from_texts([s.text.upper() for s in project.source.segments], "en")
    plain = talk_context(project)
    assert plain.semantic_pivot is None
    X = span_features(plain, bead_spans(project))
    # Without an encoder the semantic columns repeat the lexical ones.
    for name in ("cost_pivot", "shift_margin", "edge_gap", "outer_claim"):
        assert np.array_equal(X[:, FEATURE_NAMES.index(name + "_semantic")], X[:, FEATURE_NAMES.index(name)])
    encoded = talk_context(project, embedder=FakeEncoder())
    assert encoded.semantic_pivot is not None
    Y = span_features(encoded, bead_spans(project))
    assert np.all(np.isfinite(Y))
    assert not np.array_equal(Y[:, FEATURE_NAMES.index("sim_mean_semantic")], Y[:, FEATURE_NAMES.index("sim_mean")])


def test_learned_doubt_features_use_the_aligners_embedder_for_the_pair(monkeypatch) -> None:
    """With embedder "auto", the doubt reads the talk with the embedder the aligner chose for its languages.

    (It used to resolve "auto" as if the pair were en→en: use-multilingual for an en→fi talk the aligner
    reads with the lexical embedder, since the encoder does not cover Finnish.)
    """
    from sialign.core.model import Document, Project
    from sialign.core.params import AlignParams
    from sialign.embed import models
    from sialign.filters.doubt_features import talk_context

    asked: list[str] = []
    real = models.load_embedder

    def recording(spec: str):
        asked.append(spec)
        return real(spec)

    monkeypatch.setattr(models, "load_embedder", recording)
    project = Project(
        source=Document.from_texts(["The weather is nice today.", "I lost my keys."], "en"),
        target=Document.from_texts(["Sää on tänään kaunis.", "Kadotin avaimeni."], "fi"),
    )
    talk_context(project, AlignParams(embedder="auto"))
    assert asked == ["lexical"]
