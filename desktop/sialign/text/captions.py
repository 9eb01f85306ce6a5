"""Rebuild sentences from subtitle captions (Cettolo 2016, "An Arabic-Hebrew parallel corpus of TED talks", §3.5; docs/algorithms.md: Segmentation).

Captions are cut for the screen, not for meaning: a sentence often runs over
several captions. Consecutive captions are joined until one ends with strong
punctuation; each rebuilt sentence starts when its first caption starts and
ends when its last caption ends.

Pivot variant: when one side's punctuation is unreliable (Cettolo 2016: the corpus's Hebrew
subtitles kept 3% of the English full stops), the sentence ends are read from
another, synchronised caption track — caption *i* of the document ends a
sentence when caption *i* of the pivot does. Tracks of different lengths are
matched by time: a pivot sentence end marks the document caption that ends
nearest to it. With a pivot, captions are never cut inside, so two tracks
rebuilt against the same pivot stay parallel sentence by sentence.
"""

from __future__ import annotations

from sialign.core.errors import InputError
from sialign.core.model import Document
from sialign.text.sentences import ends_with_strong_punctuation, sentence_cuts
from sialign.text.spans import content_spans, document_from_spans, segment_ranges

DEFAULT_TIME_TOLERANCE = 1.0


def caption_sentence_ends(
    doc: Document, *, pivot: Document | None = None, time_tolerance: float = DEFAULT_TIME_TOLERANCE
) -> list[bool]:
    """For each caption of ``doc``, whether a sentence ends with it.

    Args:
        doc: the caption track to rebuild.
        pivot: a synchronised track whose punctuation decides instead
            (same number of captions, or times on both tracks).
        time_tolerance: seconds within which a pivot sentence end and a
            document caption end are considered the same moment.

    Raises:
        InputError: the pivot has another number of captions and the two
            tracks lack the times to match them.
    """
    if pivot is None:
        return [ends_with_strong_punctuation(s.text, doc.language) for s in doc.segments]
    if len(pivot) == len(doc):
        return [ends_with_strong_punctuation(s.text, pivot.language) for s in pivot.segments]
    if not (doc.has_times and pivot.has_times):
        raise InputError(
            pivot.path,
            f"the pivot track has {len(pivot)} captions and the rebuilt track {len(doc)}, "
            "and without times on both they cannot be matched",
            hint="use a pivot with the same captions, or caption files with timestamps (SRT, VTT)",
        )
    ends = [False] * len(doc)
    doc_ends = [s.end for s in doc.segments]
    for p in pivot.segments:
        if not ends_with_strong_punctuation(p.text, pivot.language):
            continue
        assert p.end is not None
        nearest = min(range(len(doc)), key=lambda i: abs(doc_ends[i] - p.end))  # type: ignore[operator]
        if abs(doc_ends[nearest] - p.end) <= time_tolerance:  # type: ignore[operator]
            ends[nearest] = True
    return ends


def rebuild_captions(
    doc: Document,
    *,
    pivot: Document | None = None,
    split_inside: bool | None = None,
    time_tolerance: float = DEFAULT_TIME_TOLERANCE,
) -> Document:
    """Sentences rebuilt from captions, with their start and end times.

    Args:
        doc: captions (one segment each), usually from SRT/VTT.
        pivot: optional synchronised caption track in another language whose
            strong punctuation decides where sentences end.
        split_inside: also cut a caption that holds a sentence end followed
            by the start of the next sentence (``"...eyes. Imagine"``).
            Defaults to True without a pivot and False with one.
        time_tolerance: see :func:`caption_sentence_ends`.

    Returns:
        A new document with fresh ids, ``line`` of each sentence's first
        caption, and ``full_text()`` unchanged.
    """
    if split_inside is None:
        split_inside = pivot is None
    ends = caption_sentence_ends(doc, pivot=pivot, time_tolerance=time_tolerance)
    full = doc.full_text()
    cuts: list[int] = []
    for r, ends_here in zip(segment_ranges(doc), ends):
        if split_inside:
            cuts.extend(r.start + c for c in sentence_cuts(full[r.start : r.end], doc.language) if c < r.end - r.start)
        if ends_here:
            cuts.append(r.end)
    return document_from_spans(doc, content_spans(full, cuts))
