"""Inline tags of caption text: taken out with their spans, and put back well-formed.

A tagged source transcript (``<i>…</i>``, ``<b>``, ``<term>`` in SRT, WebVTT
or plain text) is aligned on its plain text; the tags are kept aside as
character spans (:func:`strip_inline_tags`) and written back, into the
source or a projected target, by :func:`insert_inline_tags`, which closes
and reopens tags where two spans cross so the result always nests.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

# An opening or closing tag: <i>, </i>, <term id="3">, <c.yellow>, <font color="red">.
_TAG = re.compile(r"<(/?)([A-Za-z][\w-]*)((?:\.[\w-]+)*)((?:\s[^<>\n]*)?)>")
# WebVTT word timestamps (<00:00:08.500>) and ASS positioning codes ({\an8}) carry no span.
_NOT_SPANS = re.compile(r"<\d[\d:.]*>|\{\\[^}\n]*\}")
# Tags that are not markup of the words: a WebVTT voice names the speaker, ruby text is a reading.
SKIPPED_TAGS = frozenset({"v", "rt", "rp", "ruby", "lang"})


@dataclass(frozen=True)
class InlineTag:
    """One tag around a stretch of plain text.

    Attributes:
        name: the element name, lower case (``"i"``, ``"term"``).
        attrs: everything after the name inside the opening tag, as written
            (``' id="3"'``, ``".yellow"``), so the tag is rebuilt unchanged.
        start / end: character span in the plain text.
    """

    name: str
    attrs: str
    start: int
    end: int

    def opening(self) -> str:
        return f"<{self.name}{self.attrs}>"

    def closing(self) -> str:
        return f"</{self.name}>"


@dataclass(frozen=True)
class TaggedText:
    """Plain text and the tags taken out of it."""

    plain: str
    tags: tuple[InlineTag, ...]


def strip_inline_tags(text: str, *, unescape: Callable[[str], str] | None = None) -> TaggedText:
    """Take the tags out of ``text``; their spans refer to the plain text.

    Nested tags are kept as nested spans; a tag left open is closed at the
    end of the text, a closing tag with no opening one is dropped. Tags of
    :data:`SKIPPED_TAGS`, word timestamps and ``{\\an8}`` codes are removed
    without a span. Empty spans (``<i></i>``) are dropped.

    Args:
        text: one caption or line.
        unescape: applied to each stretch of text between tags (WebVTT's
            character references, ``&amp;`` → ``&``, as its reader does).
    """
    text = _NOT_SPANS.sub("", text)
    plain: list[str] = []
    length = 0
    open_tags: list[tuple[str, str, int]] = []
    tags: list[InlineTag] = []
    pos = 0
    for m in _TAG.finditer(text):
        piece = text[pos : m.start()]
        piece = unescape(piece) if unescape else piece
        plain.append(piece)
        length += len(piece)
        pos = m.end()
        closing, name, classes, rest = m.group(1), m.group(2).lower(), m.group(3), m.group(4)
        if name in SKIPPED_TAGS:
            continue
        if not closing:
            open_tags.append((name, classes + rest, length))
            continue
        for k in range(len(open_tags) - 1, -1, -1):
            if open_tags[k][0] == name:
                _name, attrs, start = open_tags.pop(k)
                if start < length:
                    tags.append(InlineTag(name, attrs, start, length))
                break
    piece = text[pos:]
    piece = unescape(piece) if unescape else piece
    plain.append(piece)
    length += len(piece)
    tags.extend(InlineTag(name, attrs, start, length) for name, attrs, start in reversed(open_tags) if start < length)
    tags.sort(key=lambda t: (t.start, -t.end))
    return TaggedText("".join(plain), tuple(tags))


def insert_inline_tags(text: str, tags: Sequence[InlineTag], *, escape: Callable[[str], str] | None = None) -> str:
    """``text`` with ``tags`` written around their spans, always well-nested.

    Where two spans cross (``<i>`` over 0–8, ``<b>`` over 5–10), the inner
    one is closed and reopened at the boundary: ``<i>…<b>…</b></i><b>…</b>``.
    Spans are clipped to the text; empty ones are left out.

    Args:
        escape: applied to each stretch of text between tags (WebVTT's
            ``&`` → ``&amp;``), so the spans keep referring to ``text``.
    """
    escape = escape or (lambda piece: piece)
    n = len(text)
    spans = [(max(0, t.start), min(n, t.end), k, t) for k, t in enumerate(tags)]
    spans = [s for s in spans if s[0] < s[1]]
    if not spans:
        return escape(text)
    cuts = sorted({0, n} | {a for a, _, _, _ in spans} | {b for _, b, _, _ in spans})
    out: list[str] = []
    stack: list[tuple[int, int, int, InlineTag]] = []
    for left, right in zip(cuts, cuts[1:]):
        # Tags that cover this piece, outermost first: the longer (then earlier) span outside.
        wanted = sorted((s for s in spans if s[0] <= left and s[1] >= right), key=lambda s: (-(s[1] - s[0]), s[0], s[2]))
        keep = 0
        while keep < len(stack) and keep < len(wanted) and stack[keep] is wanted[keep]:
            keep += 1
        while len(stack) > keep:
            out.append(stack.pop()[3].closing())
        for s in wanted[keep:]:
            out.append(s[3].opening())
            stack.append(s)
        out.append(escape(text[left:right]))
    while stack:
        out.append(stack.pop()[3].closing())
    return "".join(out)
