"""Cut an interpreter's Japanese transcript into chunks (docs/algorithms.md: Segmentation).

Interpreters speak in short clauses with little reliable sentence
punctuation. A chunk ends after a run of 、。？！ (and their ASCII and
full-width variants ``, . ? !``, plus any closing bracket or quote that
follows), at every line break, and — when a piece would still be longer than
``max_chars`` — at bunsetsu (phrase) boundaries found by GiNZA. Chunks never
cross the original segments (lines, captions), whose times are kept; a chunk
cut inside a timed line gets a time proportional to its character offset.
"""

from __future__ import annotations

import math

from sialign.core.model import Document
from sialign.core.plurals import count_noun
from sialign.core.progress import ProgressFn, StopFn, check_stop
from sialign.text.spans import as_document, content_spans, document_from_spans, segment_ranges

CHUNK_PUNCT = frozenset("、。？！?!,，.．｡､…‥")
CLOSERS = frozenset("」』）)］]】〉》〕｝}\"'’”")
DEFAULT_MAX_CHARS = 40


def punctuation_cuts(text: str) -> list[int]:
    """Offsets just after each run of chunk punctuation (and its closing brackets) or line break.

    ASCII ``.`` and ``,`` between two digits (``3.5``, ``1,000``) do not cut.
    """
    cuts = []
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "\n":
            cuts.append(i + 1)
            i += 1
            continue
        if ch in CHUNK_PUNCT and not _inside_number(text, i):
            j = i + 1
            while j < n and (text[j] in CHUNK_PUNCT or text[j] in CLOSERS):
                j += 1
            cuts.append(j)
            i = j
            continue
        i += 1
    return cuts


def _inside_number(text: str, i: int) -> bool:
    return text[i] in ".,，．" and 0 < i < len(text) - 1 and text[i - 1].isdigit() and text[i + 1].isdigit()


def pack_pieces(length: int, boundaries: list[int], max_chars: int) -> list[int]:
    """Choose cut offsets among ``boundaries`` so no piece of ``0..length`` exceeds ``max_chars``.

    Aims at pieces of equal length (``length / ceil(length / max_chars)``)
    rather than cutting greedily, which would leave a tiny last piece. Where
    no boundary falls within reach, cuts at exactly ``max_chars``.

    Args:
        length: length of the text to cut.
        boundaries: allowed cut offsets (bunsetsu starts), any order.
        max_chars: longest piece wanted (at least 1).

    Returns:
        Cut offsets in increasing order, each strictly between 0 and ``length``.
    """
    max_chars = max(1, max_chars)
    if length <= max_chars:
        return []
    allowed = sorted(b for b in set(boundaries) if 0 < b < length)
    target = length / math.ceil(length / max_chars)
    cuts: list[int] = []
    start = 0
    k = 0
    while length - start > max_chars:
        while k < len(allowed) and allowed[k] <= start:
            k += 1
        best = None
        best_score = math.inf
        j = k
        while j < len(allowed) and allowed[j] - start <= max_chars:
            score = abs(allowed[j] - start - target)
            if score < best_score:
                best, best_score = allowed[j], score
            j += 1
        cut = best if best is not None else start + max_chars
        cuts.append(cut)
        start = cut
    return cuts


def chunk_japanese(
    doc_or_text: Document | str,
    *,
    max_chars: int = DEFAULT_MAX_CHARS,
    language: str = "ja",
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
) -> Document:
    """Chunks of an interpreter transcript, losslessly.

    Args:
        doc_or_text: the transcript (its segments are lines or captions) or
            plain text.
        max_chars: longest chunk wanted; longer pieces are cut at bunsetsu
            boundaries (GiNZA is loaded only when some piece is this long).
        language: language of plain text (a Document keeps its own).
        progress / should_stop: see :mod:`sialign.core.progress`.

    Returns:
        A new document with fresh ids; ``full_text()`` is unchanged.

    Raises:
        LanguageToolUnavailable: a piece needs bunsetsu and GiNZA is missing.
        AlignmentCancelled: when ``should_stop()`` says so.
    """
    doc = as_document(doc_or_text, language)
    full = doc.full_text()
    pieces: list[tuple[int, int]] = []
    for r in segment_ranges(doc):
        text = full[r.start : r.end]
        pieces.extend(content_spans(text, punctuation_cuts(text), base=r.start))
    check_stop(should_stop)
    long_ones = [i for i, (a, b) in enumerate(pieces) if b - a > max_chars]
    cuts_inside: dict[int, list[int]] = {}
    if long_ones:
        from sialign.text.japanese import analyze_japanese

        analyses = analyze_japanese(
            [full[pieces[i][0] : pieces[i][1]] for i in long_ones], progress=progress, should_stop=should_stop
        )
        for i, analysis in zip(long_ones, analyses):
            a, b = pieces[i]
            cuts_inside[i] = pack_pieces(b - a, list(analysis.bunsetsu_starts), max_chars)
    spans: list[tuple[int, int]] = []
    for i, (a, b) in enumerate(pieces):
        cuts = cuts_inside.get(i)
        if cuts:
            spans.extend(content_spans(full[a:b], cuts, base=a))
        else:
            spans.append((a, b))
    if progress is not None:
        progress(1.0, f"Cut {count_noun(len(spans), 'chunk')}")
    return document_from_spans(doc, spans)
