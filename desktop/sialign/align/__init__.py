"""Coarse DP (exact and banded), time prior, constrained segmentation DP and pivot alignment.

Entry point: :func:`sialign.align.pipeline.align_project`. The numeric parts
work on plain numpy vectors (:class:`~sialign.align.costs.Signal`) and know
nothing of embedders.
"""

from sialign.align.constrained import SegmentationInfeasible, constrained_segmentation
from sialign.align.costs import BeadCostModel, CostSettings, Signal
from sialign.align.dp import Band, DPResult, align_signals, align_window, banded_dp, bead_types
from sialign.align.pipeline import align_project
from sialign.align.result import AlignResult, SimilarityGrid

__all__ = [
    "AlignResult",
    "SimilarityGrid",
    "Band",
    "BeadCostModel",
    "CostSettings",
    "DPResult",
    "SegmentationInfeasible",
    "Signal",
    "align_project",
    "align_signals",
    "align_window",
    "banded_dp",
    "bead_types",
    "constrained_segmentation",
]
