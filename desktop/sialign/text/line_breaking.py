"""Line breaking with the Japanese rules (kinsoku shori) for writers that wrap text themselves.

JIS X 4051 forbids a line to start with closing punctuation (、。」』）
and the like, small kana, the prolonged sound mark) and to end with an
opening bracket (「『（). A line that would break there is broken one
character earlier instead (*oidashi*: the character before the mark moves
down with it), which never widens a line, so the writer never re-wraps it.
Text without CJK characters is wrapped at spaces only.
"""

from __future__ import annotations

import re
from collections.abc import Callable

# Characters that may not start a line.
NO_LINE_START = frozenset(
    "、。，．・：；？！゛゜ヽヾゝゞ々〻ー―‐〜～…‥"
    "」』）］｝〕〉》】〙〗’”»"
    "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ"
    ",.:;?!)]}%"
)
# Characters that may not end a line.
NO_LINE_END = frozenset("「『（［｛〔〈《【〘〖‘“«([{")

# One unit of wrapping: a CJK character (a break may fall before any), a run
# of spaces (a break opportunity), or a run of other characters (a word).
_UNITS = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f]|\s+|[^\s\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f]+")


def wrap_lines(text: str, width: float, measure: Callable[[str], float]) -> list[str]:
    """``text`` broken into lines no wider than ``width`` (a word wider than a line stays whole).

    Args:
        text: any text; its own line breaks are kept.
        width: the widest a line may be, in the unit of ``measure``.
        measure: the width of a string (e.g. ``FPDF.get_string_width``).
    """
    lines: list[str] = []
    for paragraph in text.split("\n"):
        lines.extend(_wrap_paragraph(paragraph, width, measure))
    return lines


def _wrap_paragraph(text: str, width: float, measure: Callable[[str], float]) -> list[str]:
    lines: list[str] = []
    current: list[str] = []  # the units of the line being filled
    for unit in _UNITS.findall(text):
        if not current:
            if not unit.isspace():
                current = [unit]
            continue
        if measure("".join(current) + unit.rstrip()) <= width:
            current.append(unit)
            continue
        if unit.isspace():
            lines.append("".join(current).rstrip())
            current = []
            continue
        # Break before ``unit``, or earlier until the break is allowed on both
        # sides; with no allowed break in the line, break where it is full.
        k = len(current)
        while k > 0 and not _allowed("".join(current[:k]), "".join(current[k:]) + unit):
            k -= 1
        if k == 0 or not "".join(current[:k]).strip():
            k = len(current)
        lines.append("".join(current[:k]).rstrip())
        current = [u for u in current[k:] if not (u.isspace() and u is current[k])] + [unit]
        while current and current[0].isspace():
            current.pop(0)
    if current or not lines:
        lines.append("".join(current).rstrip())
    return lines


def _allowed(before: str, after: str) -> bool:
    """Whether a line may end with ``before`` and the next start with ``after`` (spaces at the break dropped)."""
    before, after = before.rstrip(), after.lstrip()
    if not before or not after:
        return True
    return after[0] not in NO_LINE_START and before[-1] not in NO_LINE_END


def wrap_text(text: str, width: float, measure: Callable[[str], float]) -> str:
    """:func:`wrap_lines` joined with line breaks: text a writer that breaks only at ``\\n`` and spaces shows as wrapped here."""
    return "\n".join(wrap_lines(text, width, measure))


__all__ = ["NO_LINE_END", "NO_LINE_START", "wrap_lines", "wrap_text"]
