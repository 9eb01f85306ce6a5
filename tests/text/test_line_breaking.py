"""Line breaking with the Japanese rules: no line starts with closing punctuation, none ends with an opening bracket."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sialign.text.line_breaking import NO_LINE_END, NO_LINE_START, wrap_lines


@pytest.mark.parametrize(
    ("text", "width", "lines"),
    [
        ("あいうえお。かきく", 5, ["あいうえ", "お。かきく"]),  # 。 never starts a line: お moves down with it
        ("あいうえ」。かきく", 4, ["あいう", "え」。か", "きく"]),
        ("あいう「えおかきく", 4, ["あいう", "「えおか", "きく"]),  # 「 never ends a line
        ("まちょっと", 2, ["ま", "ちょ", "っと"]),  # nor a small kana
        ("ab cd 、ef", 6, ["ab", "cd 、ef"]),  # a word moves down with the mark after it
        ("あいう", 1, ["あ", "い", "う"]),
        ("hello world again and again", 11, ["hello world", "again and", "again"]),
        ("a\n\nb", 4, ["a", "", "b"]),
        ("", 4, [""]),
        ("ab", 10, ["ab"]),
    ],
)
def test_line_breaking_cases(text: str, width: int, lines: list[str]) -> None:
    assert wrap_lines(text, width, len) == lines


@given(st.text(alphabet="あいうえおかきく、。「」っー", min_size=1, max_size=60), st.integers(min_value=1, max_value=12))
def test_line_breaking_rules_and_width_hold(text: str, width: int) -> None:
    """Japanese text: every line fits, nothing is lost, and a rule is broken only where no allowed break exists."""
    lines = wrap_lines(text, width, len)
    assert "".join(lines) == text
    assert all(len(line) <= width for line in lines)

    def allowed(before: str, after: str) -> bool:
        return after[0] not in NO_LINE_START and before[-1] not in NO_LINE_END

    for before, after in zip(lines, lines[1:]):
        if not allowed(before, after):
            assert not any(allowed(before[:j], before[j:] + after) for j in range(1, len(before)))
