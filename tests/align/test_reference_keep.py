"""The second pass keeps the first pass's beads where the reference translation vouches for them (issue 34 §2)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from run_vectors import run_spans, unit
from sialign.align import learned_pass
from sialign.align.cost_tables import Signal
from sialign.align.costs import BeadCostModel, CostSettings
from sialign.align.dp import WindowCosts, bead_types
from sialign.align.learned_pass import (
    BeadFeatures,
    BeadScoreWeights,
    LearnedCosts,
    path_band,
    pivot_trust,
    second_pass,
    shipped_weights,
)

N_SRC, PER = 6, 2  # each source sentence rendered in two chunks
N_TGT = N_SRC * PER
DIM = 32


def _talk(trust: np.ndarray | None, *, pivot: bool = True) -> tuple[BeadCostModel, np.ndarray, np.ndarray, np.ndarray]:
    """Chunks near their sentence; the reference matches the chunks better than the (noisy) source does."""
    rng = np.random.default_rng(7)
    meaning = unit(rng.normal(size=(N_SRC, DIM)))
    tgt = unit(np.repeat(meaning, PER, axis=0) + 0.6 * rng.normal(size=(N_TGT, DIM)))
    src = unit(meaning + 2.0 * rng.normal(size=(N_SRC, DIM)))
    ref = unit(meaning + 0.2 * rng.normal(size=(N_SRC, DIM)))
    signals = [Signal(src, tgt, 0.5, name="source")]
    if pivot:
        signals.append(Signal(ref, tgt, 0.5, name="pivot", src_trust=trust))
    chars = np.full(N_SRC, 60.0), np.full(N_TGT, 20.0)
    model = BeadCostModel(signals, 2, 10, CostSettings(skip=2.0, omission_skip=1.0, tgt_size_penalty=0.3), None, None, *chars)
    return model, src, tgt, np.concatenate(chars)


def _costs(model: BeadCostModel, src: np.ndarray, tgt: np.ndarray, path: list[tuple[int, int, int, int]],
           weights: BeadScoreWeights | None = None) -> LearnedCosts:
    weights = weights or shipped_weights("chunks")
    assert weights is not None
    window = WindowCosts(model, 0, N_SRC, 0, N_TGT)
    features = BeadFeatures(run_spans(src, 2), run_spans(tgt, 10), np.full(N_SRC, 60.0), np.full(N_TGT, 20.0), window)
    return LearnedCosts(features, weights, path_band(path, N_SRC, N_TGT), 2, 10)


RIGHT = [(i, 1, PER * i, PER) for i in range(N_SRC)]


def _band_costs(costs: LearnedCosts) -> tuple[list[tuple[int, int]], np.ndarray, np.ndarray, np.ndarray]:
    types = [t for t in bead_types(2, 10) if t[1] > 0]
    rows = np.arange(1, N_SRC + 1)
    j_grid = np.clip(rows[:, None] * 0 + np.arange(N_TGT + 1)[None, :], 0, N_TGT)
    return types, rows, j_grid, costs.band_costs(types, rows, j_grid)


@pytest.mark.parametrize(("base", "learned_weight", "scale"), [("learned", 1.0, 1.0), ("learned", 0.3, 1.0),
                                                               ("bertalign", 0.05, 0.05), ("bertalign", 0.5, 0.5)])
def test_first_pass_beads_get_the_bonus_times_trust_and_agreement(base: str, learned_weight: float, scale: float) -> None:
    # The bonus is in log-odds of the learned score: on Bertalign's base, whose cost carries the
    # learned log-odds times learned_weight, it is scaled by learned_weight too.
    trust = np.array([1.0, 0.0, 1.0, 0.5, 1.0, 1.0])
    model, src, tgt, _ = _talk(trust)
    shipped = shipped_weights("chunks")
    assert shipped is not None
    weights = dataclasses.replace(shipped, base=base, learned_weight=learned_weight)
    costs = _costs(model, src, tgt, RIGHT, weights)
    types, rows, j_grid, before = _band_costs(costs)
    costs.keep_first(RIGHT, 2.0)
    _, _, _, after = _band_costs(costs)
    direct = BeadCostModel([model.signals[0]], 2, 10, model.settings)
    pivot = BeadCostModel([model.signals[1]], 2, 10, model.settings)
    k = types.index((1, PER))
    for i0, a, j0, b in RIGHT:
        i, j = np.array([i0 + a]), np.array([j0 + b])
        gap = float(direct.text_cost(a, b, i, j)[0] - pivot.text_cost(a, b, i, j)[0])
        agreement = float(np.clip(0.5 + gap / (2 * learned_pass.REFERENCE_AGREEMENT_SPAN), 0.0, 1.0))
        assert gap > 0  # the reference matches its chunks better than the noisy source
        expected = 2.0 * scale * trust[i0] * agreement
        assert abs((before[k, i0, j0 + b] - after[k, i0, j0 + b]) - expected) < 1e-9
    # Beads off the first path, and the untrusted line's bead, cost what they did.
    changed = ~np.isclose(before, after) & np.isfinite(before)
    assert changed.sum() == int((trust > 0).sum())


def test_no_bonus_without_a_reference_or_when_the_pivot_decides_alone() -> None:
    model, src, tgt, _ = _talk(None, pivot=False)
    assert pivot_trust(model) is None
    costs = _costs(model, src, tgt, RIGHT)
    *_, before = _band_costs(costs)
    costs.keep_first(RIGHT, 2.0)
    *_, after = _band_costs(costs)
    np.testing.assert_array_equal(before, after)
    alone, _, _, _ = _talk(np.ones(N_SRC))
    alone = dataclasses.replace(alone, signals=[dataclasses.replace(alone.signals[1])])
    assert pivot_trust(alone) is None


def test_a_trusted_reference_keeps_the_first_path_in_the_second_pass(monkeypatch) -> None:
    # A first path that pairs each sentence with one chunk too many on the left: the learned
    # score alone moves it; with a trusted reference that vouches for it and a large bonus it stays.
    shifted = [(0, 1, 0, 3)] + [(i, 1, PER * i + 1, PER) for i in range(1, N_SRC - 1)] + [(N_SRC - 1, 1, PER * (N_SRC - 1) + 1, 1)]
    assert sum(b for *_, b in shifted) == N_TGT
    weights = shipped_weights("chunks")
    assert weights is not None

    def run(trust: np.ndarray) -> list[tuple[int, int, int, int]]:
        model, src, tgt, _ = _talk(trust)
        window = WindowCosts(model, 0, N_SRC, 0, N_TGT)
        return second_pass(window, run_spans(src, 2), run_spans(tgt, 10), np.full(N_SRC, 60.0), np.full(N_TGT, 20.0),
                           shifted, weights, 2, 10)

    monkeypatch.setattr(learned_pass, "REFERENCE_KEEP_LOGODDS", {"chunks": 0.0})
    free = run(np.ones(N_SRC))
    assert free != shifted
    monkeypatch.setattr(learned_pass, "REFERENCE_KEEP_LOGODDS", {"chunks": 1000.0})
    assert run(np.ones(N_SRC)) == shifted
    # An untrusted reference (blank or shifted lines) vouches for nothing.
    assert run(np.zeros(N_SRC)) == free


def test_the_bonus_is_not_applied_to_sentence_targets() -> None:
    # For chunks it is chosen with the chunk score by leave-one-talk-out (tests/benchmarks/cv_interp.py):
    # 0 for the shipped score, so the reference acts through the first pass's path there.
    assert learned_pass.REFERENCE_KEEP_LOGODDS.get("sentences", 0.0) == 0.0
    assert learned_pass.REFERENCE_KEEP_LOGODDS.get("chunks", 0.0) >= 0.0

