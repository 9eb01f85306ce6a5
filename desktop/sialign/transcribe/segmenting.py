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
    max_chars: int = 40,
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
    return pieces


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
