"""LCS accuracy (NAIST-SIC-Aligned, eq. 1).

For a source sentence e with automatic target F^a and manual target F^m,
``s = LCS(F^a, F^m) / |F^m|`` where LCS is the length of the longest common
*substring* (contiguous, in characters); e counts as correct when ``s > ε``.

An empty manual target (the interpreter said nothing for e): s = 1 when the
automatic target is empty as well (nothing to render, nothing rendered) and
0 otherwise. Strings are compared exactly as given, apart from surrounding
whitespace.
"""

from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np


def longest_common_substring(a: str, b: str) -> int:
    """Length in characters of the longest contiguous string found in both ``a`` and ``b``.

    O(len(a)·len(b)) time and O(min) memory: the classic DP
    ``L[i, j] = L[i-1, j-1] + 1 if a[i] == b[j] else 0`` with one row held as a
    numpy vector, looping over the shorter string (about 1 ms for two
    300-character strings).
    """
    if not a or not b:
        return 0
    if len(a) > len(b):
        a, b = b, a
    codes_b = np.frombuffer(b.encode("utf-32-le"), dtype=np.uint32)
    row = np.zeros(len(b) + 1, dtype=np.int32)
    best = 0
    for char in a:
        equal = codes_b == ord(char)
        new = np.zeros_like(row)
        # A match extends the run ending one character earlier on both sides.
        new[1:] = np.where(equal, row[:-1] + 1, 0)
        row = new
        peak = int(row.max())
        if peak > best:
            best = peak
    return best


def lcs_score(automatic: str, manual: str) -> float:
    """s = LCS(F^a, F^m) / |F^m| (see the module docstring for an empty F^m)."""
    automatic = automatic.strip()
    manual = manual.strip()
    if not manual:
        return 1.0 if not automatic else 0.0
    return longest_common_substring(automatic, manual) / len(manual)


def lcs_scores(pairs: Iterable[tuple[str, str]]) -> np.ndarray:
    """Scores of (automatic, manual) pairs: float64 array of shape (n_pairs,)."""
    return np.asarray([lcs_score(a, m) for a, m in pairs], dtype=np.float64)


def lcs_accuracy(
    pairs: Iterable[tuple[str, str]], eps: Sequence[float] = (0.5, 0.8, 0.9)
) -> dict[str, float]:
    """Share of sentences whose score exceeds each ε.

    Args:
        pairs: (automatic target F^a, manual target F^m) per source sentence.
        eps: thresholds; a sentence is correct at ε when s > ε (strictly).

    Returns:
        ``{"n": count, "mean": mean s, "acc@0.5": ..., "acc@0.8": ..., ...}``
        (accuracies 0.0 when there is no pair).
    """
    scores = lcs_scores(pairs)
    result: dict[str, float] = {"n": float(len(scores)), "mean": float(scores.mean()) if len(scores) else 0.0}
    for e in eps:
        result[f"acc@{e:g}"] = float((scores > e).mean()) if len(scores) else 0.0
    return result
