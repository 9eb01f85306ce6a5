"""Alignment quality: bead precision/recall/F1 and LCS accuracy."""
