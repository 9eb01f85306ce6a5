"""Coarse DP (exact and banded), time prior, constrained segmentation DP and pivot alignment."""
