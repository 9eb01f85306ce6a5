"""Alignment quality: bead precision/recall/F1, LCS accuracy and the ear-voice span."""

from sialign.evaluate.beads import BeadPositions, alignment_positions, bead_f1, bead_f1_many, format_bead, read_beads
from sialign.evaluate.datasets import (
    AhcsiTalk,
    TextbergDoc,
    automatic_targets,
    chunk_after_punctuation,
    load_ahcsi,
    load_mac,
    load_textberg,
)
from sialign.evaluate.evs import (
    EvsRecord,
    EvsStats,
    InterpreterEvs,
    bead_lags,
    compare_interpreters,
    compute_evs,
    evs_stats,
)
from sialign.evaluate.lcs import lcs_accuracy, lcs_score, lcs_scores, longest_common_substring

__all__ = [
    "AhcsiTalk",
    "EvsRecord",
    "EvsStats",
    "InterpreterEvs",
    "bead_lags",
    "compare_interpreters",
    "compute_evs",
    "evs_stats",
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
    "load_mac",
    "load_textberg",
    "longest_common_substring",
    "read_beads",
]
