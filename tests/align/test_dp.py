"""Coarse DP: exact against brute force, banded against exact, hand-checkable beads."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sialign.align.costs import BeadCostModel, CostSettings, Signal
from sialign.align.dp import Band, align_signals, band_around_path, band_from_times, banded_dp, bead_types, downsample
from sialign.core.errors import AlignmentCancelled


def unit(x: np.ndarray) -> np.ndarray:
    return (x / np.linalg.norm(x, axis=-1, keepdims=True)).astype(np.float32)


def brute_force_total(model: BeadCostModel) -> float:
    """Cheapest path cost by a plain double loop over every bead type (0-1 included)."""
    n, m = model.n_src, model.n_tgt
    table = np.full((n + 1, m + 1), np.inf)
    table[0, 0] = 0.0
    shapes = bead_types(model.max_src, model.max_tgt) + [(0, 1)]
    for i in range(n + 1):
        for j in range(m + 1):
            for a, b in shapes:
                if (i, j) != (0, 0) and i >= a and j >= b:
                    c = float(model.bead_cost(a, b, np.array([i]), np.array([j]))[0])
                    table[i, j] = min(table[i, j], table[i - a, j - b] + c)
    return float(table[n, m])


def path_total(model: BeadCostModel, beads: list[tuple[int, int, int, int]]) -> float:
    return sum(float(model.bead_cost(a, b, np.array([i0 + a]), np.array([j0 + b]))[0]) for i0, a, j0, b in beads)


def chunked_pair(n: int, rng: np.random.Generator, dim: int = 48, noise: float = 0.3) -> tuple[np.ndarray, np.ndarray, list]:
    """Source vectors and a target that renders each source in 1-3 noisy chunks; the gold beads."""
    src = unit(rng.normal(size=(n, dim)))
    tgt, gold = [], []
    for i in range(n):
        k = int(rng.integers(1, 4))
        gold.append((i, 1, len(tgt), k))
        for _ in range(k):
            tgt.append(src[i] + noise * rng.normal(size=dim))
    return src, unit(np.array(tgt)), gold


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 7), m=st.integers(1, 9), seed=st.integers(0, 10_000))
def test_dp_exact_matches_brute_force(n: int, m: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    model = BeadCostModel(
        [Signal(unit(rng.normal(size=(n, 8))), unit(rng.normal(size=(m, 8))))],
        3,
        4,
        CostSettings(skip=0.6, length_weight=0.3),
        src_lengths=rng.integers(1, 50, n).astype(float),
        tgt_lengths=rng.integers(1, 50, m).astype(float),
    )
    result = banded_dp(model, Band.full(n, m))
    assert result.total == pytest.approx(brute_force_total(model))
    assert path_total(model, result.beads) == pytest.approx(result.total)
    # the beads tile both documents in order
    assert [i0 for i0, a, _, _ in result.beads] == list(itertools.accumulate([0] + [a for _, a, _, _ in result.beads]))[:-1]
    assert sum(a for _, a, _, _ in result.beads) == n
    assert sum(b for _, _, _, b in result.beads) == m


def test_dp_recovers_one_to_many_beads() -> None:
    rng = np.random.default_rng(3)
    src, tgt, gold = chunked_pair(40, rng, noise=0.05)
    chunk_costs = CostSettings(skip=2.0, src_size_penalty=2.0, tgt_size_penalty=0.3)
    result, _ = align_signals([Signal(src, tgt)], max_src=2, max_tgt=4, settings=chunk_costs)
    assert result.beads == gold


def test_dp_identical_vectors_align_one_to_one() -> None:
    x = unit(np.random.default_rng(0).normal(size=(25, 16)))
    result, _ = align_signals([Signal(x, x)], max_src=4, max_tgt=4)
    assert result.beads == [(i, 1, i, 1) for i in range(25)]


def test_dp_two_to_one_bead_hand_checked() -> None:
    # target 1 is the sum of sources 1 and 2: the 2-1 bead is exact, 1-1 + 1-0 is not
    e = np.eye(4, dtype=np.float32)
    src = e[[0, 1, 2, 3]]
    tgt = unit(np.stack([e[0], e[1] + e[2], e[3]]))
    result, _ = align_signals([Signal(src, tgt)], max_src=2, max_tgt=2, settings=CostSettings(skip=0.5, src_size_penalty=0.2))
    assert result.beads == [(0, 1, 0, 1), (1, 2, 1, 1), (3, 1, 2, 1)]


def test_dp_skip_beads_for_unmatched_segments() -> None:
    e = np.eye(6, dtype=np.float32)
    src = e[[0, 1, 2]]
    tgt = e[[0, 5, 1, 2]]  # target 1 renders nothing of the source: a 0-1 bead
    result, _ = align_signals([Signal(src, tgt)], max_src=2, max_tgt=2, settings=CostSettings(skip=0.4))
    assert result.beads == [(0, 1, 0, 1), (1, 0, 1, 1), (1, 1, 2, 1), (2, 1, 3, 1)]
    src2 = e[[0, 4, 1]]  # source 1 has no rendition: a 1-0 bead
    result2, _ = align_signals([Signal(src2, e[[0, 1]])], max_src=2, max_tgt=2, settings=CostSettings(skip=0.4))
    assert result2.beads == [(0, 1, 0, 1), (1, 1, 1, 0), (2, 1, 1, 1)]


def test_dp_single_segments() -> None:
    x = unit(np.ones((1, 4)))
    result, model = align_signals([Signal(x, x)], max_src=4, max_tgt=8)
    assert result.beads == [(0, 1, 0, 1)]
    assert model.reported_cost(1, 1, 1, 1) == pytest.approx(0.0, abs=1e-6)


@pytest.mark.parametrize("limit", [2_000, 20_000])
def test_dp_banded_equals_exact_on_moderate_inputs(limit: int) -> None:
    rng = np.random.default_rng(11)
    src, tgt, gold = chunked_pair(150, rng, noise=0.35)
    exact, model = align_signals([Signal(src, tgt)], max_src=3, max_tgt=4, settings=CostSettings(skip=1.0, tgt_size_penalty=0.1))
    banded, _ = align_signals(
        [Signal(src, tgt)], max_src=3, max_tgt=4, settings=CostSettings(skip=1.0, tgt_size_penalty=0.1), exact_cell_limit=limit
    )
    assert len(banded.levels) >= 2, "the large input must have gone through downsampling"
    assert banded.cells < exact.cells / 3
    assert banded.beads == exact.beads
    assert banded.total == pytest.approx(exact.total)


def test_dp_cancellation_stops_between_row_blocks() -> None:
    rng = np.random.default_rng(1)
    src, tgt, _ = chunked_pair(300, rng)
    calls = []

    def should_stop() -> bool:
        calls.append(1)
        return len(calls) > 2

    with pytest.raises(AlignmentCancelled):
        align_signals([Signal(src, tgt)], max_src=2, max_tgt=4, should_stop=should_stop)
    assert len(calls) == 3


def test_dp_progress_reaches_one() -> None:
    rng = np.random.default_rng(2)
    src, tgt, _ = chunked_pair(100, rng)
    seen: list[float] = []
    align_signals([Signal(src, tgt)], max_src=2, max_tgt=4, progress=lambda f, m: seen.append(f))
    assert seen == sorted(seen) and seen[-1] == pytest.approx(1.0)


def test_band_from_ranges_keeps_a_connected_corridor() -> None:
    band = Band.from_ranges(np.array([0, 5, 2, 9]), np.array([1, 6, 3, 9]), n_tgt=9)
    hi = band.lo + band.width - 1
    assert band.lo[0] == 0 and hi[-1] >= 9
    assert np.all(np.diff(band.lo) >= 0)
    assert np.all(band.lo[1:] <= hi[:-1])


def test_band_around_path_contains_path_with_margin() -> None:
    pts = np.array([(0, 0), (2, 4), (4, 8), (6, 12)])
    band = band_around_path(pts, 6, 12, margin=1)
    for i, j in pts:
        assert band.lo[i] <= j <= band.lo[i] + band.width - 1
    assert band.width < 13


def test_band_from_times_follows_the_lag() -> None:
    src = np.arange(10) * 10.0
    tgt = np.arange(30) * (100.0 / 30) + 3.0
    band = band_from_times(src, tgt, -1.0, 10.0, slack=5.0, max_tgt=2)
    assert band.width < 31
    # at row 5 (source starts at 50 s) the chunks starting 47-65 s are inside
    inside = np.arange(band.lo[5], band.lo[5] + band.width)
    assert {int(np.searchsorted(tgt, 50.0)), int(np.searchsorted(tgt, 60.0))} <= set(inside.tolist())


def test_downsample_averages_runs() -> None:
    x = np.eye(4, dtype=np.float32)
    d = downsample(x, 2)
    assert d.shape == (2, 4)
    assert np.allclose(d[0], unit(np.array([1, 1, 0, 0.0])))
    assert downsample(x[:3], 2).shape == (2, 4)


def test_dp_time_corridor_replaces_downsampling_on_long_timed_input() -> None:
    rng = np.random.default_rng(21)
    src, tgt, gold = chunked_pair(300, rng, noise=0.05)
    # each source sentence lasts 4 s; its chunks start 2 s later, 1 s apart
    src_starts = np.arange(300) * 4.0
    tgt_starts = np.concatenate([src_starts[i] + 2.0 + np.arange(k) for i, _, _, k in gold])
    settings = CostSettings(skip=2.0, src_size_penalty=2.0, tgt_size_penalty=0.3, time_weight=0.1)
    common = dict(max_src=2, max_tgt=4, settings=settings, src_starts=src_starts, tgt_starts=tgt_starts)
    exact, _ = align_signals([Signal(src, tgt)], exact_cell_limit=10**9, **common)
    timed, _ = align_signals([Signal(src, tgt)], exact_cell_limit=5_000, **common)
    assert len(timed.levels) == 1, "the corridor needs no coarse pass"
    assert timed.cells < exact.cells / 4
    assert timed.beads == exact.beads == gold


def test_dp_refuses_tables_beyond_the_memory_limit_before_allocating() -> None:
    """--max-tgt 10^9 once asked numpy for 715 GiB: the sizes are checked first."""
    from sialign.align.dp import DP_MEMORY_LIMIT, check_dp_memory
    from sialign.core.errors import AlignmentTooLargeError

    check_dp_memory(5001, 600, 1 + 4 * 12, 64)  # a long talk with the default beads fits
    with pytest.raises(AlignmentTooLargeError, match="GiB"):
        check_dp_memory(200_001, 200_001, 1 + 4 * 12, 64)
    with pytest.raises(AlignmentTooLargeError, match="max_tgt") as caught:
        check_dp_memory(3, 1000, 1 + 64 * 10**6, 3)
    assert caught.value.settings == ("max_src", "max_tgt")
    assert DP_MEMORY_LIMIT <= 16 * 2**30
