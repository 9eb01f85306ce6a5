"""The lag window fitted to a talk on one clock (``lag_window="fit"``), dated from noisy text."""

from __future__ import annotations

import numpy as np
import pytest

from sialign.align.costs import BeadCostModel, CostSettings, Signal
from sialign.align.signals import LAG_ANCHOR_COST, estimate_lag


def unit(x: np.ndarray) -> np.ndarray:
    return (x / np.linalg.norm(x, axis=-1, keepdims=True)).astype(np.float32)


def noisy_talk(seed: int = 0, lag: float = 4.0) -> tuple[BeadCostModel, np.ndarray, np.ndarray]:
    """20 sentences, 5 s apart, each rendered by two chunks ``lag`` s later; the text matches only faintly (recognised speech)."""
    rng = np.random.default_rng(seed)
    x = unit(rng.normal(size=(20, 64)))
    y = unit(np.repeat(x, 2, axis=0) + 5.0 * unit(rng.normal(size=(40, 64))))
    src_starts = np.arange(20) * 5.0
    tgt_starts = np.repeat(src_starts, 2) + lag + np.tile([0.0, 1.5], 20) + rng.uniform(-0.5, 0.5, size=40)
    text_only = BeadCostModel([Signal(x, y)], 2, 4, CostSettings())
    return text_only, src_starts, tgt_starts


def test_noisy_text_leaves_too_few_confident_beads_to_date_the_lag() -> None:
    model, src, tgt = noisy_talk()
    # The true 1-2 beads cost about as much as chance: hardly any is a confident anchor.
    costs = [model.reported_cost(1, 2, i + 1, 2 * i + 2) for i in range(20)]
    assert np.median(costs) > LAG_ANCHOR_COST
    widened = estimate_lag(model, src, tgt, CostSettings(evs_min=-1.0, evs_max=10.0))
    assert not widened.used and "too few" in widened.note


@pytest.mark.parametrize("lag", [2.5, 4.0, 6.0])
def test_fit_dates_the_lag_from_the_better_half_and_fits_the_window_to_it(lag: float) -> None:
    model, src, tgt = noisy_talk(lag=lag)
    fitted = estimate_lag(model, src, tgt, CostSettings(evs_min=-1.0, evs_max=10.0), fit=True)
    assert fitted.used and fitted.median == pytest.approx(lag, abs=0.6)
    # The interpreter's own range, not the generic -1..10 s: a neighbour's chunks (5 s away) fall outside.
    assert lag - 2.5 < fitted.evs_min < lag and lag < fitted.evs_max < lag + 3.0
    assert "window fitted" in fitted.note
