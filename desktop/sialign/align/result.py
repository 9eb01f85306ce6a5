"""What an alignment run produces: the alignment with its timings (the similarity grid the matrix view draws
is :class:`sialign.core.similarity.SimilarityGrid`, kept here under its old name)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sialign.core.model import Alignment
from sialign.core.similarity import SimilarityGrid


@dataclass
class AlignResult:
    """What :func:`align_project` returns.

    Attributes:
        alignment: the new alignment (not yet applied to the project; the GUI
            applies it as one undoable edit).
        similarity: (n_src, n_tgt) float32 single-segment similarities for the
            matrix view (the weighted mix of the signals used).
        timings: seconds per stage: ``embedding``, ``aligning``, ``total``.
        scoring: what the learned bead score read (the first pass's cost model,
            the run vectors, the lengths, the target units), kept only when
            asked (``align_project(keep_scoring=True)``, for explaining beads),
            else None.
    """

    alignment: Alignment
    similarity: np.ndarray
    timings: dict[str, float] = field(default_factory=dict)
    scoring: Any = None


__all__ = ["AlignResult", "SimilarityGrid"]
