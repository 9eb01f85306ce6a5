"""The cost tables' memory: similarities computed on demand for large documents, dense tables refused from their sizes."""

from __future__ import annotations

import numpy as np
import pytest

from sialign.align import cost_tables
from sialign.align.constrained import constrained_segmentation
from sialign.align.cost_tables import LazySimilarity, check_table_memory, similarities, similarity_matrix
from sialign.align.costs import BeadCostModel, CostSettings, Signal
from sialign.align.dp import align_signals, bead_types
from sialign.core.errors import AlignmentTooLargeError


def unit(x: np.ndarray) -> np.ndarray:
    return (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32)


def pair(n: int, m: int, dim: int = 16, seed: int = 0, noise: float = 0.3) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    src = unit(rng.normal(size=(n, dim)))
    # Each target is a noisy copy of the source at the same relative position: a diagonal path.
    at = np.minimum((np.arange(m) * n) // max(m, 1), n - 1)
    tgt = unit(src[at] + noise * rng.normal(size=(m, dim)))
    return src, tgt


def test_lazy_similarity_reads_what_the_dense_matrix_holds() -> None:
    src, tgt = pair(40, 70)
    dense = similarity_matrix(src, tgt)
    lazy = LazySimilarity(src, tgt)
    assert lazy.shape == dense.shape
    np.testing.assert_allclose(lazy[5:17, 20:61], dense[5:17, 20:61], atol=1e-6)
    cols = np.array([3, 9, 60])
    np.testing.assert_allclose(lazy[:, cols], dense[:, cols], atol=1e-6)
    rows = np.array([0, 39])
    np.testing.assert_allclose(lazy[rows, :], dense[rows, :], atol=1e-6)
    i = np.array([[1, 2, 3], [4, 5, 6]])
    j = np.array([[7, 8, 9], [10, 11, 69]])
    np.testing.assert_allclose(lazy[i, j], dense[i, j], atol=1e-6)
    np.testing.assert_allclose(lazy[3, 4:8], dense[3, 4:8], atol=1e-6)


def test_large_documents_get_on_demand_similarities(monkeypatch: pytest.MonkeyPatch) -> None:
    src, tgt = pair(30, 50)
    assert isinstance(similarities(src, tgt), np.ndarray)
    monkeypatch.setattr(cost_tables, "DENSE_SIMILARITY_CELLS", 30 * 50 - 1)
    assert isinstance(similarities(src, tgt), LazySimilarity)


@pytest.mark.parametrize("limit", [60_000, 500])  # exact DP; banded over a coarse path
def test_alignment_with_on_demand_similarities_equals_the_dense_one(monkeypatch: pytest.MonkeyPatch, limit: int) -> None:
    src, tgt = pair(120, 260, seed=3)
    settings = CostSettings(skip=0.3)
    dense, dense_model = align_signals([Signal(src, tgt)], max_src=2, max_tgt=4, settings=settings, exact_cell_limit=limit)
    rows = np.arange(1, 40)
    j_grid = np.broadcast_to(np.arange(0, 60), (len(rows), 60))
    types = bead_types(2, 4)
    dense_costs = dense_model.band_costs(types, rows, j_grid)
    monkeypatch.setattr(cost_tables, "DENSE_SIMILARITY_CELLS", 0)
    lazy, lazy_model = align_signals([Signal(src.copy(), tgt.copy())], max_src=2, max_tgt=4, settings=settings, exact_cell_limit=limit)
    assert any(isinstance(t.sim, LazySimilarity) for t in lazy_model._tables)
    assert lazy.beads == dense.beads
    assert lazy.total == pytest.approx(dense.total, rel=1e-6)
    np.testing.assert_allclose(lazy_model.band_costs(types, rows, j_grid), dense_costs, rtol=1e-5)
    assert lazy_model.reported_cost(1, 2, 10, 22) == pytest.approx(dense_model.reported_cost(1, 2, 10, 22), rel=1e-5)
    assert np.isnan(lazy_model.similarity()).all() and lazy_model.similarity().shape == (120, 260)


@pytest.mark.slow
def test_two_documents_of_150000_segments_align_without_a_dense_matrix() -> None:
    """A dense similarity matrix of 150,000 x 150,000 would take 84 GiB: the banded path reads only the band."""
    n = 150_000
    src, tgt = pair(n, n, dim=16, seed=5, noise=0.1)
    model = BeadCostModel([Signal(src, tgt)], 1, 2, CostSettings(skip=0.3))
    assert isinstance(model._tables[0].sim, LazySimilarity)
    result, _ = align_signals([Signal(src, tgt)], max_src=1, max_tgt=2, settings=CostSettings(skip=0.3))
    ones = sum(1 for i0, a, j0, b in result.beads if a == 1 and b == 1 and i0 == j0)
    assert ones > 0.99 * n
    assert len(result.levels) >= 3  # coarse levels, then the band at full size


def test_dense_tables_are_refused_from_their_sizes_with_what_to_do() -> None:
    with pytest.raises(AlignmentTooLargeError, match=r"^the table of 100000 x 100000 would need about 74\.5 GiB \(the limit is 8 GiB\) — do less$"):
        check_table_memory("the table of 100000 x 100000", 100_000 * 100_000, 8, "do less")
    check_table_memory("a small table", 1000, 8, "")


def test_segment_mode_refuses_a_table_beyond_the_limit_before_allocating() -> None:
    """Segment mode keeps dense (K, N) tables: 30,000 x 30,000 is refused at once, naming the sizes and the fix."""
    rng = np.random.default_rng(0)
    src = unit(rng.normal(size=(30_000, 4)))
    tgt = unit(rng.normal(size=(30_000, 4)))
    with pytest.raises(AlignmentTooLargeError, match=r"segment mode over 30000 source sentences and 30000 target units would need about 26.8 GiB .*\(method 'beads'\)") as caught:
        constrained_segmentation([Signal(src, tgt)], max_span=4)
    assert caught.value.settings == ("method",)
