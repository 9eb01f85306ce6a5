"""Longest common substring and LCS accuracy."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sialign.evaluate import lcs_accuracy, lcs_score, longest_common_substring


def _brute_force(a: str, b: str) -> int:
    best = 0
    for i in range(len(a)):
        for j in range(i + 1, len(a) + 1):
            if j - i > best and a[i:j] in b:
                best = j - i
    return best


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("", "abc", 0),
        ("abc", "", 0),
        ("abc", "abc", 3),
        ("xabcy", "zabcw", 3),
        ("abcd", "dcba", 1),
        ("abab", "baba", 3),
        ("今日は政府の話", "政府の話をします", 4),
        ("𠮷野家で", "𠮷野家", 3),  # characters outside the BMP count once
    ],
)
def test_lcs_longest_common_substring_cases(a: str, b: str, expected: int) -> None:
    assert longest_common_substring(a, b) == expected
    assert longest_common_substring(b, a) == expected


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="abc", max_size=12), st.text(alphabet="abc", max_size=12))
def test_lcs_matches_brute_force(a: str, b: str) -> None:
    assert longest_common_substring(a, b) == _brute_force(a, b)


@pytest.mark.parametrize(
    ("automatic", "manual", "expected"),
    [
        ("政府の話をします。", "政府の話をします。", 1.0),
        ("それで政府の話", "政府の話をします。", 4 / 9),
        ("", "政府の話", 0.0),
        ("", "", 1.0),  # nothing to render and nothing rendered
        ("  ", " ", 1.0),
        ("何か", "", 0.0),
    ],
)
def test_lcs_score_cases(automatic: str, manual: str, expected: float) -> None:
    assert lcs_score(automatic, manual) == pytest.approx(expected)


def test_lcs_accuracy_thresholds_are_strict() -> None:
    pairs = [("abcde", "abcde"), ("ab", "abcd"), ("abcdefghi", "abcdefghij"), ("", "xyz")]
    # scores 1.0, 0.5, 0.9, 0.0
    result = lcs_accuracy(pairs)
    assert result["n"] == 4
    assert result["acc@0.5"] == pytest.approx(2 / 4)  # 0.5 is not > 0.5
    assert result["acc@0.8"] == pytest.approx(2 / 4)
    assert result["acc@0.9"] == pytest.approx(1 / 4)  # 0.9 is not > 0.9
    assert result["mean"] == pytest.approx((1.0 + 0.5 + 0.9) / 4)


def test_lcs_accuracy_of_nothing() -> None:
    assert lcs_accuracy([], eps=(0.8,)) == {"n": 0.0, "mean": 0.0, "acc@0.8": 0.0}


def test_lcs_is_fast_enough_for_a_dev_set() -> None:
    import time

    a = "今日は政府の話をします、" * 25
    b = "政府の話ではなく、天気の話をします。" * 17
    start = time.perf_counter()
    for _ in range(50):
        longest_common_substring(a, b)
    # 238 sentences of about this size must score in well under a second.
    assert (time.perf_counter() - start) / 50 < 0.02


def _lcs_by_dp(a: str, b: str) -> int:
    """The classic dynamic programme, as a reference for the implementation."""
    best = 0
    row = [0] * (len(b) + 1)
    for ca in a:
        new = [0] * (len(b) + 1)
        for j, cb in enumerate(b, 1):
            if ca == cb:
                new[j] = row[j - 1] + 1
                best = max(best, new[j])
        row = new
    return best


def test_lcs_matches_the_dynamic_programme_on_random_strings() -> None:
    import random

    from sialign.evaluate.lcs import longest_common_substring

    rng = random.Random(538)
    alphabets = ["ab", "abc", "あいう漢字", "abcdefghij ", "😀a\u0301b"]
    for k in range(600):
        letters = rng.choice(alphabets)
        a = "".join(rng.choice(letters) for _ in range(rng.randint(0, 40)))
        b = "".join(rng.choice(letters) for _ in range(rng.randint(0, 200 if k % 10 == 0 else 40)))
        assert longest_common_substring(a, b) == _lcs_by_dp(a, b), (a, b)
