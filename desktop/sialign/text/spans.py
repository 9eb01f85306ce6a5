"""Build segmented documents from character spans of an original document.

Every segmenter in :mod:`sialign.text` works the same way: it reads the
lossless running text of a :class:`~sialign.core.model.Document`
(``full_text()``), decides where units begin and end as character offsets,
and hands the spans to :func:`document_from_spans`. That one function gives
the new segments their exact text, the whitespace between them as ``gap``,
their file line and their times, so the invariant
``new.full_text() == old.full_text()`` holds by construction and is checked.

Times: a span that starts or ends inside an original segment with a start and
end time gets a time interpolated in proportion to the character offset
(only line times are known for most transcripts); a span that coincides with
original segments gets exactly their times.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass

from sialign.core.errors import InvariantError
from sialign.core.model import Document, Segment


def as_document(doc_or_text: Document | str, language: str) -> Document:
    """Wrap plain text as a one-segment document; return documents unchanged."""
    if isinstance(doc_or_text, Document):
        return doc_or_text
    if not isinstance(doc_or_text, str):
        raise TypeError(f"expected a Document or a str, not {type(doc_or_text).__name__}")
    return Document(language=language, segments=[Segment(id=0, text=doc_or_text, line=1)])


@dataclass(frozen=True)
class SegmentRange:
    """Where one original segment's text lies in the document's running text.

    Attributes:
        index: position of the segment in the original document.
        start: offset of the segment's first text character (after its gap).
        end: offset just after its last character.
    """

    index: int
    start: int
    end: int


def segment_ranges(doc: Document) -> list[SegmentRange]:
    """Character ranges of each segment's text within ``doc.full_text()``."""
    ranges = []
    offset = 0
    for i, seg in enumerate(doc.segments):
        offset += len(seg.gap)
        ranges.append(SegmentRange(i, offset, offset + len(seg.text)))
        offset += len(seg.text)
    return ranges


def content_spans(text: str, cuts: Sequence[int], base: int = 0) -> list[tuple[int, int]]:
    """Cut ``text`` at offsets ``cuts`` and strip whitespace off each piece.

    Args:
        text: the string to cut.
        cuts: offsets into ``text`` (any order, duplicates allowed) after
            which a new piece begins.
        base: added to every returned offset (``text``'s position in a larger string).

    Returns:
        ``(start, end)`` of every piece that holds a visible character, in
        order, offsets shifted by ``base``.
    """
    bounds = sorted({0, len(text), *[c for c in cuts if 0 < c < len(text)]})
    spans = []
    for a, b in zip(bounds, bounds[1:]):
        piece = text[a:b]
        stripped = piece.strip()
        if not stripped:
            continue
        lead = len(piece) - len(piece.lstrip())
        spans.append((base + a + lead, base + a + lead + len(stripped)))
    return spans


def document_from_spans(original: Document, spans: Sequence[tuple[int, int]], *, fmt: str | None = None) -> Document:
    """A new document whose segments are the given spans of ``original``'s running text.

    Args:
        original: the document the offsets refer to (its ``full_text()``).
        spans: ``(start, end)`` offsets, in order, not overlapping, together
            holding every non-whitespace character of the running text.
        fmt: value for the new document's ``format`` (defaults to the original's).

    Returns:
        A document with fresh ids 0..n-1, ``gap`` holding the whitespace
        before each span, interpolated times and file lines. Whitespace
        after the last span stays at the end of the last segment's text.
        A text without any visible character gives a document without segments.

    Raises:
        InvariantError: when the spans overlap, go backwards, or leave a
            visible character outside every span (a bug in the segmenter).
    """
    full = original.full_text()
    ranges = segment_ranges(original)
    starts = [r.start for r in ranges]
    segments: list[Segment] = []
    previous_end = 0
    for start, end in spans:
        if start < previous_end or end <= start or end > len(full):
            raise InvariantError(f"segment span ({start}, {end}) overlaps or is out of order (previous end {previous_end})")
        gap = full[previous_end:start]
        if gap.strip():
            raise InvariantError(f"text {gap.strip()[:20]!r} at offset {previous_end} would be lost between segments")
        segments.append(
            Segment(
                id=len(segments),
                text=full[start:end],
                start=_time_at(original, ranges, starts, start, is_end=False),
                end=_time_at(original, ranges, starts, end, is_end=True),
                line=_line_at(original, ranges, starts, start),
                gap=gap,
            )
        )
        previous_end = end
    tail = full[previous_end:]
    if tail.strip():
        raise InvariantError(f"text {tail.strip()[:20]!r} at offset {previous_end} is outside every segment")
    if segments:
        segments[-1].text += tail
    result = Document(
        language=original.language,
        segments=segments,
        path=original.path,
        audio_path=original.audio_path,
        format=fmt if fmt is not None else original.format,
        encoding=original.encoding,
    )
    if segments and result.full_text() != full:
        raise InvariantError("re-segmentation changed the text of the document")
    return result


def _containing(ranges: list[SegmentRange], starts: list[int], offset: int, is_end: bool) -> SegmentRange | None:
    """The original segment holding character ``offset`` (or ending at it, for span ends)."""
    probe = offset - 1 if is_end else offset
    k = bisect.bisect_right(starts, probe) - 1
    if k < 0:
        return None
    r = ranges[k]
    if r.start <= probe < r.end:
        return r
    return None


def _time_at(original: Document, ranges: list[SegmentRange], starts: list[int], offset: int, *, is_end: bool) -> float | None:
    r = _containing(ranges, starts, offset, is_end)
    if r is None:
        return None
    seg = original.segments[r.index]
    if seg.start is None or seg.end is None:
        return None
    length = r.end - r.start
    if length <= 0:
        return seg.start
    # Characters stand in for speaking time: the only time marks are the
    # segment's own start and end.
    fraction = (offset - r.start) / length
    return round(seg.start + (seg.end - seg.start) * fraction, 3)


def _line_at(original: Document, ranges: list[SegmentRange], starts: list[int], offset: int) -> int | None:
    r = _containing(ranges, starts, offset, is_end=False)
    if r is None:
        return None
    seg = original.segments[r.index]
    if seg.line is None:
        return None
    return seg.line + seg.text.count("\n", 0, offset - r.start)
