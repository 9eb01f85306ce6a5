"""Unit vectors and their runs as the second pass reads them, for tests that build a talk from random vectors."""

from __future__ import annotations

import numpy as np


def unit(x: np.ndarray) -> np.ndarray:
    """``x`` scaled to unit length along its last axis, as float32."""
    return (x / np.linalg.norm(x, axis=-1, keepdims=True)).astype(np.float32)


def run_spans(single: np.ndarray, runs: int) -> np.ndarray:
    """(runs, n, dim) unit vectors of the concatenations (normalised sums), as the encoder's exact runs stand in."""
    n = len(single)
    out = np.zeros((runs, n, single.shape[1]), dtype=np.float32)
    for r in range(runs):
        for p in range(n):
            out[r, p] = single[p : min(p + r + 1, n)].sum(axis=0)
    return unit(out)
