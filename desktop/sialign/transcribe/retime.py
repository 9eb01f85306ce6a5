"""Timing a transcript from its recording: align its words to the recognised words.

A transcript typed by hand (or a TED transcript) has no times. The recording
is recognised (:func:`~sialign.transcribe.recognise.recognise`), both texts
are reduced to normalised tokens (lower case, no punctuation, numbers as
digits — "forty-three" and "43" both become ``43``; Japanese and Chinese one
token per character), and a longest-common-subsequence DP pairs equal tokens
in order. Each transcript token then has the times of the recognised words it
matched; tokens between two matches (misrecognitions, fillers the transcript
leaves out, words the recogniser missed) get times interpolated by character
position. A segment takes the start of its first token and the end of its last.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from sialign.core.errors import SialignError
from sialign.core.model import Document
from sialign.text.numbers import number_spans
from sialign.transcribe.recognise import Word

# One token per ideograph or kana: these scripts put no spaces between words.
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f"
_TOKEN = re.compile(rf"[{_CJK}]|[^\W_{_CJK}]+(?:['’][^\W_{_CJK}]+)*")
# The DP keeps a (n+1) x (m+1) table of 16-bit scores: at most this many cells.
MAX_CELLS = 400_000_000


@dataclass(frozen=True)
class Token:
    """A normalised word of a text and where it lies: ``text[start:end]``."""

    norm: str
    start: int
    end: int


def tokenize(text: str) -> list[Token]:
    """Normalised tokens of ``text``: numbers as canonical digits, other words lower case without apostrophes."""
    tokens = [Token(value, a, b) for a, b, value in number_spans(text)]
    taken = [(t.start, t.end) for t in tokens]
    for m in _TOKEN.finditer(text):
        if any(a <= m.start() < b for a, b in taken):
            continue
        norm = unicodedata.normalize("NFKC", m.group(0)).lower().replace("'", "").replace("’", "")
        tokens.append(Token(norm, m.start(), m.end()))
    return sorted(tokens, key=lambda t: t.start)


def lcs_pairs(a: Sequence[str], b: Sequence[str]) -> list[tuple[int, int]]:
    """Index pairs ``(i, j)`` of a longest common subsequence of ``a`` and ``b``, in order.

    Row by row with numpy: ``L[i, j] = max(L[i-1, j], L[i-1, j-1] + [a_i = b_j], L[i, j-1])``;
    the last term is a running maximum along the row. Time O(len(a)·len(b))
    in vectorised steps, memory len(a)·len(b) 16-bit cells.

    Raises:
        SialignError: the texts are too long for one table (beyond about 20,000 words each).
    """
    n, m = len(a), len(b)
    if n == 0 or m == 0:
        return []
    if (n + 1) * (m + 1) > MAX_CELLS or min(n, m) >= 65_535:
        raise SialignError(
            f"the transcript ({n} words) and the recognition ({m} words) are too long to align in one "
            "piece — cut the recording and the transcript into parts of an hour or less."
        )
    vocab: dict[str, int] = {}
    ids_a = np.array([vocab.setdefault(t, len(vocab)) for t in a], dtype=np.int64)
    ids_b = np.array([vocab.setdefault(t, len(vocab)) for t in b], dtype=np.int64)
    table = np.zeros((n + 1, m + 1), dtype=np.uint16)
    for i in range(1, n + 1):
        prev = table[i - 1]
        row = np.maximum(prev[1:], prev[:-1] + (ids_b == ids_a[i - 1]))
        table[i, 1:] = np.maximum.accumulate(row)
    pairs = []
    i, j = n, m
    while i > 0 and j > 0:
        if table[i, j] == table[i - 1, j]:
            i -= 1
        elif table[i, j] == table[i, j - 1]:
            j -= 1
        else:
            pairs.append((i - 1, j - 1))
            i -= 1
            j -= 1
    pairs.reverse()
    return pairs


@dataclass(frozen=True)
class RetimeStats:
    """How a retiming went.

    Attributes:
        tokens: normalised tokens in the transcript.
        matched: of those, paired with a recognised word.
        segments: segments in the transcript.
        timed_from_words: segments whose first and last token both matched.
    """

    tokens: int
    matched: int
    segments: int
    timed_from_words: int

    @property
    def match_rate(self) -> float:
        return self.matched / self.tokens if self.tokens else 0.0


def retime_document(doc: Document, words: Sequence[Word]) -> tuple[Document, RetimeStats]:
    """A copy of ``doc`` whose segments have times from the recognised ``words``.

    Args:
        doc: the transcript (its own times, if any, are replaced).
        words: recognised words in time order.

    Returns:
        The timed document and what matched.

    Raises:
        SialignError: no word of the transcript was found in the recording
            (another recording, another language).
    """
    heard = "".join(w.text for w in words)
    heard_tokens = tokenize(heard)
    word_of_char = np.zeros(len(heard) + 1, dtype=np.int64)
    pos = 0
    for k, w in enumerate(words):
        word_of_char[pos : pos + len(w.text)] = k
        pos += len(w.text)
    full = doc.full_text()
    tokens = tokenize(full)
    pairs = lcs_pairs([t.norm for t in tokens], [t.norm for t in heard_tokens])
    if not pairs:
        raise SialignError(
            "no word of the transcript was recognised in the recording — check that they belong "
            "together and that the language is right."
        )
    starts = np.full(len(tokens), np.nan)
    ends = np.full(len(tokens), np.nan)
    for i, j in pairs:
        h = heard_tokens[j]
        first, last = int(word_of_char[h.start]), int(word_of_char[max(h.start, h.end - 1)])
        starts[i], ends[i] = words[first].start, words[last].end
    _interpolate(tokens, starts, ends, lo=words[0].start, hi=max(w.end for w in words))
    result = replace(doc, segments=[replace(s) for s in doc.segments])
    offset = 0
    k = 0
    from_words = 0
    matched_flags = np.zeros(len(tokens), dtype=bool)
    matched_flags[[i for i, _ in pairs]] = True
    previous_end = words[0].start
    for seg in result.segments:
        offset += len(seg.gap)
        a, b = offset, offset + len(seg.text)
        offset += len(seg.text)
        while k < len(tokens) and tokens[k].start < a:
            k += 1
        j = k
        while j < len(tokens) and tokens[j].start < b:
            j += 1
        if j > k:
            seg.start, seg.end = float(starts[k]), float(max(ends[j - 1], starts[k]))
            from_words += bool(matched_flags[k] and matched_flags[j - 1])
        else:  # only punctuation: a point at the end of the previous segment
            seg.start = seg.end = previous_end
        previous_end = seg.end
    stats = RetimeStats(tokens=len(tokens), matched=len(pairs), segments=len(result.segments), timed_from_words=from_words)
    return result, stats


def _interpolate(tokens: Sequence[Token], starts: np.ndarray, ends: np.ndarray, *, lo: float, hi: float) -> None:
    """Fill the times of unmatched tokens in place, linearly by character position between the matched ones.

    Before the first match the stretch runs from ``lo`` (the first recognised
    word), after the last one to ``hi`` (the last recognised word's end).
    """
    n = len(tokens)
    known = [i for i in range(n) if not np.isnan(starts[i])]
    anchors = [(-1, lo)] + [(i, 0.0) for i in known] + [(n, hi)]
    for (i0, _), (i1, _) in zip(anchors, anchors[1:]):
        if i1 - i0 <= 1:
            continue
        t0 = ends[i0] if i0 >= 0 else lo
        t1 = starts[i1] if i1 < n else hi
        if t1 < t0:
            t1 = t0
        c0 = tokens[i0].end if i0 >= 0 else tokens[0].start
        c1 = tokens[i1].start if i1 < n else tokens[-1].end
        span = max(1, c1 - c0)
        for i in range(i0 + 1, i1):
            starts[i] = t0 + (t1 - t0) * (tokens[i].start - c0) / span
            ends[i] = t0 + (t1 - t0) * (tokens[i].end - c0) / span
