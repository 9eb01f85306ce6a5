"""SimilarityGrid.remapped: the matrix for the segments as they are after splits and merges."""

from __future__ import annotations

import numpy as np
import pytest

from sialign.core.similarity import SimilarityGrid, _gather


@pytest.mark.parametrize("seed", range(40))
def test_gather_equals_take_with_nan_for_missing(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n, m = (int(x) for x in rng.integers(1, 25, 2))
    values = rng.random((n, m)).astype(np.float32)
    axis = seed % 2
    size = values.shape[axis]
    index = rng.integers(-1, size, int(rng.integers(1, 30)))
    if seed % 4 < 2:  # the shape edits give: sorted, in runs
        index = np.sort(index)
    expected = np.take(values, np.maximum(index, 0), axis=axis)
    (expected if axis == 0 else expected.T)[index < 0] = np.nan
    got = _gather(values, index, axis)
    assert got.shape == expected.shape and got.dtype == np.float32
    np.testing.assert_array_equal(got, expected)  # NaN compare equal here


def test_remapped_after_a_split_and_a_merge() -> None:
    values = np.arange(12, dtype=np.float32).reshape(3, 4)
    grid = SimilarityGrid(values, [0, 1, 2], [0, 1, 2, 3])
    # Target segment 1 split into 1 and 9 (a new id); source segments 1 and 2 merged into 1.
    out = grid.remapped([0, 1], [0, 1, 9, 2, 3])
    np.testing.assert_array_equal(out, [[0, 1, np.nan, 2, 3], [4, 5, np.nan, 6, 7]])
    assert grid.remapped([0, 1, 2], [0, 1, 2, 3]) is values
