"""Recognised words → a transcript the aligner expects: sentences (source) or chunks (interpretation).

Whisper's own segments are cut where its 30-second windows fall, not where
sentences end; SI Aligner's segmenters (:mod:`sialign.text`) cut the
recognised text again, and each piece takes the start of its first word and
the end of its last.
"""

from __future__ import annotations

from collections.abc import Sequence

from sialign.core.model import Document, Segment
from sialign.transcribe.recognise import Word

ROLES = ("source", "interpretation")
# A silence this long ends a piece even without punctuation (Whisper leaves
# some out, and an interpreter's pauses are where chunks end).
DEFAULT_PAUSE = 1.5
# Longest chunk of a recognised interpretation in Japanese. Whisper writes Japanese mostly without 、 and 。,
# so the bunsetsu packer makes every chunk: 20 characters is the 90th percentile of typed interpreters'
# chunks (AHC-SI dev, cut at 、 and 。; median 11), where typed transcripts keep sialign segment's 40.
MACHINE_CHUNK_CHARS = 20
# A recognised source sentence longer than this (seconds) is cut again at its longest pauses of at least
# SENTENCE_PAUSE seconds, each piece MIN_PIECE_WORDS words or more (see _split_at_pauses). Both chosen on
# spoken dev talks (tests/benchmarks/RESULTS_spoken.md).
LONG_SENTENCE = 8.0
SENTENCE_PAUSE = 0.3
MIN_PIECE_WORDS = 3


def word_runs(words: Sequence[Word], pause: float = DEFAULT_PAUSE, language: str | None = None) -> list[list[Word]]:
    """Consecutive words grouped where the silence between two is shorter than ``pause`` seconds.

    With a ``language`` written with spaces, a run also ends after a word
    that ends a sentence when the next word begins in lower case
    (:func:`ends_sentence_before_lower_case`).
    """
    runs: list[list[Word]] = []
    for w in words:
        if not w.text.strip():
            continue
        if runs and w.start - runs[-1][-1].end < pause and not (
            language and ends_sentence_before_lower_case(runs[-1][-1].text, w.text, language)
        ):
            runs[-1].append(w)
        else:
            runs.append([w])
    return runs


def ends_sentence_before_lower_case(word: str, following: str, language: str) -> bool:
    """Whether recognised ``word`` ends a sentence although ``following`` starts in lower case.

    Whisper ends sentences with a full stop reliably but often writes the
    next one in lower case where two of its segments join ("...and that was
    fine. others, like..."). The sentence splitter rightly keeps a
    lower-case word in the sentence for typed text ("Really?" he asked); in
    a machine transcript the mark is the better evidence. Abbreviations that
    end a sentence only sometimes (``U.S.``, ``etc.``) still do not cut here.
    """
    from sialign.text.sentences import FINAL_CAPABLE_ABBREVIATIONS, ends_with_strong_punctuation, is_cjk

    first = following.strip()[:1]
    if is_cjk(language) or not first.islower() or not ends_with_strong_punctuation(word, language):
        return False
    core = word.strip().rstrip("\"'”’)]}»").rstrip(".?!").lower()
    return word.strip()[-1:] in "?!" or not (core in FINAL_CAPABLE_ABBREVIATIONS or "." in core)


def words_to_document(
    words: Sequence[Word], language: str, *, role: str = "source", pause: float = DEFAULT_PAUSE,
    max_chars: int = MACHINE_CHUNK_CHARS, long_sentence: float | None = LONG_SENTENCE,
) -> Document:
    """A timed transcript from recognised words.

    Args:
        words: in time order.
        language: ``en``, ``ja``...
        role: ``source`` → sentences (:func:`~sialign.text.split_sentences`);
            ``interpretation`` → chunks for Japanese
            (:func:`~sialign.text.chunk_japanese`, GiNZA for long pieces),
            sentences for other languages, as ``sialign segment`` does.
        pause: seconds of silence that always end a piece.
        max_chars: longest Japanese chunk.
        long_sentence: a source sentence longer than this many seconds is cut again at its longest
            pauses (Whisper leaves out full stops at short pauses); None keeps the sentences as split.

    Returns:
        A document whose segments carry the times of their first and last word.
    """
    if role not in ROLES:
        raise ValueError(f"role must be one of {ROLES}, not {role!r}")
    runs = word_runs(words, pause, language)
    segments = []
    spans: list[tuple[int, int, Word]] = []  # character span of each word in the running text
    offset = 0
    for i, run in enumerate(runs):
        gap = "" if i == 0 else "\n"
        offset += len(gap)
        raw = "".join(w.text for w in run)
        lead = len(raw) - len(raw.lstrip())
        text = raw.strip()
        pos = offset - lead
        for w in run:
            spans.append((pos, pos + len(w.text), w))
            pos += len(w.text)
        segments.append(Segment(id=i, text=text, start=run[0].start, end=run[-1].end, line=i + 1, gap=gap))
        offset += len(text)
    doc = Document(language=language, segments=segments)
    if role == "interpretation" and language.split("-")[0].lower() == "ja":
        from sialign.text import chunk_japanese

        pieces = chunk_japanese(doc, max_chars=max_chars, language=language)
    else:
        from sialign.text import split_sentences

        pieces = split_sentences(doc, language)
    pieces.language = language
    _times_from_words(pieces, spans)
    if role == "source" and long_sentence is not None:
        pieces = _split_at_pauses(pieces, spans, long_sentence)
    return pieces


def _split_at_pauses(doc: Document, spans: Sequence[tuple[int, int, Word]], longest: float) -> Document:
    """Sentences longer than ``longest`` seconds cut again at their longest silences between words.

    Whisper leaves out the full stop between sentences spoken with a short
    pause, and the sentence splitter then sees one long sentence. Such a
    piece is cut where the speaker paused longest (at least
    :data:`SENTENCE_PAUSE`), again until every piece is short enough or has
    no such pause; each piece keeps at least :data:`MIN_PIECE_WORDS` words.
    """
    import bisect
    from itertools import islice

    from sialign.text.spans import content_spans, document_from_spans, segment_ranges

    full = doc.full_text()
    ends = [b for _a, b, _w in spans]  # in order: the words' spans follow the running text
    pieces: list[tuple[int, int]] = []
    changed = False
    for r, seg in zip(segment_ranges(doc), doc.segments):
        cuts: list[int] = []
        if seg.start is not None and seg.end is not None and seg.end - seg.start > longest:
            inside = []
            for a, _b, w in islice(spans, bisect.bisect_right(ends, r.start), None):
                if a >= r.end:
                    break
                inside.append((a, w))
            cuts = _pause_cuts(inside, longest)
        changed = changed or bool(cuts)
        pieces.extend(content_spans(full[r.start : r.end], [c - r.start for c in cuts], base=r.start))
    if not changed:
        return doc
    result = document_from_spans(doc, pieces)
    result.language = doc.language
    _times_from_words(result, spans)
    return result


def _pause_cuts(words: Sequence[tuple[int, Word]], longest: float) -> list[int]:
    """Character offsets (of the words' starts) where a run of ``words`` longer than ``longest`` s is cut."""
    if len(words) < 2 * MIN_PIECE_WORDS or words[-1][1].end - words[0][1].start <= longest:
        return []
    best, gap = -1, SENTENCE_PAUSE
    for k in range(MIN_PIECE_WORDS, len(words) - MIN_PIECE_WORDS + 1):
        silence = words[k][1].start - words[k - 1][1].end
        if silence >= gap:
            best, gap = k, silence
    if best < 0:
        return []
    return [*_pause_cuts(words[:best], longest), words[best][0], *_pause_cuts(words[best:], longest)]


def _times_from_words(doc: Document, spans: Sequence[tuple[int, int, Word]]) -> None:
    """Give each segment the start of its first word and the end of its last (by character overlap)."""
    offset = 0
    k = 0
    for seg in doc.segments:
        offset += len(seg.gap)
        a, b = offset, offset + len(seg.text.rstrip())
        offset += len(seg.text)
        while k < len(spans) and spans[k][1] <= a:
            k += 1
        inside = []
        j = k
        while j < len(spans) and spans[j][0] < b:
            if spans[j][1] > a:
                inside.append(spans[j][2])
            j += 1
        if inside:
            seg.start = inside[0].start
            seg.end = max(w.end for w in inside)
