"""Constrained segmentation DP (Zhao et al. 2021, Algorithm 1) against brute force."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sialign.align.constrained import SegmentationInfeasible, constrained_segmentation
from sialign.align.costs import Signal


def unit(x: np.ndarray) -> np.ndarray:
    return (x / np.linalg.norm(x, axis=-1, keepdims=True)).astype(np.float32)


def span_cosine(x: np.ndarray, y: np.ndarray) -> float:
    if len(y) == 0:
        return 0.0
    s = y.sum(axis=0)
    return float(x @ s / np.linalg.norm(s))


def brute_force(src: np.ndarray, tgt: np.ndarray, max_span: int, allow_empty: bool) -> float:
    """Best total over every way to cut len(tgt) units into len(src) spans."""
    K, N = len(src), len(tgt)
    least = 0 if allow_empty else 1
    best = -np.inf
    for sizes in itertools.product(range(least, max_span + 1), repeat=K):
        if sum(sizes) != N:
            continue
        stops = np.cumsum(sizes)
        starts = stops - np.array(sizes)
        best = max(best, sum(span_cosine(src[k], tgt[a:b]) for k, (a, b) in enumerate(zip(starts, stops))))
    return best


@settings(max_examples=30, deadline=None)
@given(K=st.integers(1, 4), N=st.integers(1, 8), L=st.integers(1, 4), allow_empty=st.booleans(), seed=st.integers(0, 9999))
def test_constrained_matches_brute_force(K: int, N: int, L: int, allow_empty: bool, seed: int) -> None:
    rng = np.random.default_rng(seed)
    src, tgt = unit(rng.normal(size=(K, 6))), unit(rng.normal(size=(N, 6)))
    feasible = N <= K * L and (allow_empty or N >= K)
    if not feasible:
        with pytest.raises(SegmentationInfeasible):
            constrained_segmentation([Signal(src, tgt)], L, allow_empty=allow_empty)
        return
    spans, total = constrained_segmentation([Signal(src, tgt)], L, allow_empty=allow_empty)
    assert total == pytest.approx(brute_force(src, tgt, L, allow_empty), abs=1e-5)
    # spans are consecutive, cover the stream, respect the bounds, and add up to the total
    assert spans[0][0] == 0 and spans[-1][1] == N
    assert all(spans[k][1] == spans[k + 1][0] for k in range(K - 1))
    assert all((0 if allow_empty else 1) <= b - a <= L for a, b in spans)
    assert sum(span_cosine(src[k], tgt[a:b]) for k, (a, b) in enumerate(spans)) == pytest.approx(total, abs=1e-5)


def test_constrained_recovers_chunk_spans() -> None:
    rng = np.random.default_rng(5)
    src = unit(rng.normal(size=(12, 32)))
    sizes = rng.integers(1, 5, size=12)
    tgt = unit(np.concatenate([src[k] + 0.1 * rng.normal(size=(s, 32)) for k, s in enumerate(sizes)]))
    spans, _ = constrained_segmentation([Signal(src, tgt)], 6)
    assert [b - a for a, b in spans] == sizes.tolist()


def test_constrained_single_source_takes_everything() -> None:
    x = unit(np.ones((1, 3)))
    y = unit(np.random.default_rng(0).normal(size=(4, 3)))
    spans, _ = constrained_segmentation([Signal(x, y)], 4)
    assert spans == [(0, 4)]


def test_constrained_rejects_too_long_stream() -> None:
    x = unit(np.ones((2, 3)))
    with pytest.raises(SegmentationInfeasible, match="raise the maximum span"):
        constrained_segmentation([Signal(x, unit(np.ones((9, 3))))], 4)
