"""A similarity matrix with the segment ids of its rows and columns: what the matrix view draws.

The aligner makes it (:func:`sialign.align.pipeline.similarity_grid`); the
desktop app keeps it with the open project and redraws it after splits and
merges. A plain value type, so front ends hold it without importing the aligner.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass
class SimilarityGrid:
    """A similarity matrix together with the segment ids of its rows and columns.

    Attributes:
        values: float32 array of shape (len(src_ids), len(tgt_ids)).
        src_ids: source segment id of each row.
        tgt_ids: target segment id of each column.
    """

    values: np.ndarray
    src_ids: list[int]
    tgt_ids: list[int]

    @property
    def computed(self) -> bool:
        """False for the placeholder of documents too large for a dense matrix (all NaN, no memory)."""
        return not (self.values.size > 1 and self.values.strides == (0, 0))

    def remapped(self, src_ids: Sequence[int], tgt_ids: Sequence[int]) -> np.ndarray:
        """The matrix for the current segments: float32 (len(src_ids), len(tgt_ids)).

        Segments made by a split since the run have no similarity; their rows
        or columns are NaN (drawn transparent) until the next alignment run.
        """
        if list(src_ids) == self.src_ids and list(tgt_ids) == self.tgt_ids:
            return self.values
        row_of = {s: i for i, s in enumerate(self.src_ids)}
        col_of = {t: j for j, t in enumerate(self.tgt_ids)}
        rows = np.array([row_of.get(s, -1) for s in src_ids], dtype=np.int64)
        cols = np.array([col_of.get(t, -1) for t in tgt_ids], dtype=np.int64)
        if not (len(rows) and len(cols) and self.values.size):
            return np.full((len(rows), len(cols)), np.nan, dtype=np.float32)
        # A split or merge changes one side only: gather along that axis alone
        # (whole rows are contiguous copies; a 2-D gather is several times slower).
        out = self.values
        if list(src_ids) != self.src_ids:
            out = _gather(out, rows, axis=0)
        if list(tgt_ids) != self.tgt_ids:
            out = _gather(out, cols, axis=1)
        return out


def _gather(values: np.ndarray, index: np.ndarray, axis: int) -> np.ndarray:
    """``values`` taken at ``index`` along ``axis``; -1 gives NaN. Same as ``np.take``, faster for an edit.

    A split or merge keeps the order: the index is a few runs of consecutive
    positions, copied as slices (a column gather of a 5,000 × 5,000 matrix
    takes a fancy-indexed copy several times slower than the slice copies).
    """
    n = len(index)
    breaks = np.flatnonzero((np.diff(index) != 1) | (index[1:] < 0) | (index[:-1] < 0)) + 1
    if len(breaks) > 64:
        out = np.take(values, np.maximum(index, 0), axis=axis)
        (out if axis == 0 else out.T)[index < 0] = np.nan
        return out
    shape = (n, values.shape[1]) if axis == 0 else (values.shape[0], n)
    out = np.empty(shape, dtype=values.dtype)
    starts = np.concatenate(([0], breaks))
    ends = np.concatenate((breaks, [n]))
    for start, end in zip(starts.tolist(), ends.tolist()):
        first = int(index[start])
        dest = slice(start, end)
        if first < 0:
            if axis == 0:
                out[dest, :] = np.nan
            else:
                out[:, dest] = np.nan
            continue
        source = slice(first, first + (end - start))
        if axis == 0:
            out[dest, :] = values[source, :]
        else:
            out[:, dest] = values[:, source]
    return out


__all__ = ["SimilarityGrid"]
