"""How many source sentences one bead of the second pass may join (``BeadScoreWeights.max_src``, issue 34)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from run_vectors import run_spans, unit
from sialign.align import learned_pass
from sialign.align.cost_tables import Signal
from sialign.align.costs import BeadCostModel, CostSettings
from sialign.align.dp import WindowCosts
from sialign.align.learned_pass import BeadScoreWeights, second_pass, shipped_weights

N_SRC, PER, DIM = 6, 2, 32
N_TGT = N_SRC * PER


def _align(weights: BeadScoreWeights, monkeypatch: pytest.MonkeyPatch) -> tuple[list[tuple[int, int, int, int]], list[int]]:
    """Sentences 0 and 1 say one thing, rendered in chunks 0-3; the first path joins them. Returns the
    second pass's beads and the most source segments a bead could join in its DP."""
    rng = np.random.default_rng(3)
    meaning = unit(rng.normal(size=(N_SRC, DIM)))
    meaning[1] = meaning[0]
    src = unit(meaning + 0.3 * rng.normal(size=(N_SRC, DIM)))
    tgt = unit(np.repeat(meaning, PER, axis=0) + 0.3 * rng.normal(size=(N_TGT, DIM)))
    chars = np.full(N_SRC, 60.0), np.full(N_TGT, 20.0)
    model = BeadCostModel([Signal(src, tgt, 1.0, name="source")], 2, 10,
                          CostSettings(skip=2.0, omission_skip=1.0, tgt_size_penalty=0.3), None, None, *chars)
    path = [(0, 2, 0, 4)] + [(i, 1, PER * i, PER) for i in range(2, N_SRC)]
    seen: list[int] = []
    dp = learned_pass.banded_dp

    def spy(costs, band, **kw):  # type: ignore[no-untyped-def]
        seen.append(costs.max_src)
        return dp(costs, band, **kw)

    monkeypatch.setattr(learned_pass, "banded_dp", spy)
    beads = second_pass(WindowCosts(model, 0, N_SRC, 0, N_TGT), run_spans(src, 2), run_spans(tgt, 10), *chars, path, weights, 2, 10)
    return beads, seen


def test_beads_join_one_source_sentence_when_the_weights_say_so(monkeypatch: pytest.MonkeyPatch) -> None:
    weights = shipped_weights("chunks")
    assert weights is not None
    beads, seen = _align(dataclasses.replace(weights, max_src=1), monkeypatch)
    assert seen == [1]
    assert all(a <= 1 for _, a, _, _ in beads)
    assert sum(a for _, a, _, _ in beads) == N_SRC and sum(b for *_, b in beads) == N_TGT
    _, seen = _align(dataclasses.replace(weights, max_src=0), monkeypatch)
    assert seen == [2]  # 0: as many as the runs hold


def test_max_src_is_read_from_and_written_to_the_weights_file() -> None:
    weights = shipped_weights("chunks")
    assert weights is not None
    raw = dataclasses.replace(weights, max_src=1).to_dict()
    assert raw["max_src"] == 1
    assert BeadScoreWeights.from_dict(raw, "chunks").max_src == 1
    del raw["max_src"]
    assert BeadScoreWeights.from_dict(raw, "chunks").max_src == 0


def test_the_shipped_chunk_score() -> None:
    # Leave one talk out on AHC-SI dev (tests/benchmarks/cv_interp.py --max-src 2,1): Bertalign's
    # base + 0.2 x the learned log-odds, one source sentence a bead: acc@0.8 0.958 without and with
    # the reference, against 0.924 / 0.950 for the learned score joining up to two.
    weights = shipped_weights("chunks")
    assert weights is not None
    assert (weights.base, weights.learned_weight, weights.max_src) == ("bertalign", 0.2, 1)
    sentences = shipped_weights("sentences")
    assert sentences is not None and (sentences.base, sentences.max_src) == ("learned", 0)
