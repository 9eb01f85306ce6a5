"""Alignment quality: bead precision/recall/F1 and LCS accuracy."""

from sialign.evaluate.beads import (
    BeadPositions,
    alignment_positions,
    bead_f1,
    bead_f1_many,
    format_bead,
    read_beads,
)
from sialign.evaluate.datasets import (
    AhcsiTalk,
    TextbergDoc,
    automatic_targets,
    chunk_after_punctuation,
    load_ahcsi,
    load_textberg,
)
from sialign.evaluate.lcs import lcs_accuracy, lcs_score, lcs_scores, longest_common_substring

__all__ = [
    "AhcsiTalk",
    "BeadPositions",
    "TextbergDoc",
    "alignment_positions",
    "automatic_targets",
    "bead_f1",
    "bead_f1_many",
    "chunk_after_punctuation",
    "format_bead",
    "lcs_accuracy",
    "lcs_score",
    "lcs_scores",
    "load_ahcsi",
    "load_textberg",
    "longest_common_substring",
    "read_beads",
]
