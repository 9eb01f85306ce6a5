"""Fine-grained filters: intra-sentence trimming, inter-sentence scores (alpha, gamma, eta), omission flags.

Scores are computed once (:func:`score_beads`, the slow part: GiNZA,
embeddings); thresholds then decide instantly (:func:`preview_flips` for a
slider, :func:`apply_filters` for new bead copies with flags, trims and
reasons).
"""

from __future__ import annotations

from sialign.filters.apply import FILTER_FLAG_NAMES, Decision, apply_filters, decide, preview_flips
from sialign.filters.scores import FILTER_REASON_PREFIX, AlphaDetail, BeadScores, intra_trims, score_beads

__all__ = [
    "FILTER_FLAG_NAMES",
    "FILTER_REASON_PREFIX",
    "AlphaDetail",
    "BeadScores",
    "Decision",
    "apply_filters",
    "decide",
    "intra_trims",
    "preview_flips",
    "score_beads",
]
