"""Timing a transcript from recognised words: tokens, the word DP, interpolation."""

from __future__ import annotations

import pytest

from sialign.core.errors import SialignError
from sialign.core.model import Document
from sialign.transcribe import Word, lcs_pairs, retime_document, tokenize


def words_of(text: str, start: float = 0.0, step: float = 0.5) -> list[Word]:
    """One recognised word per space-separated word, ``step`` seconds each, with Whisper's leading spaces."""
    return [Word(" " + w, start + i * step, start + i * step + step * 0.8) for i, w in enumerate(text.split())]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Good morning, everyone!", ["good", "morning", "everyone"]),
        ("It's forty-three percent.", ["its", "43", "percent"]),
        ("It's 43 percent.", ["its", "43", "percent"]),
        ("1,000 people", ["1000", "people"]),
        ("今日は2020年", ["今", "日", "は", "2020", "年"]),
    ],
)
def test_tokenize_normalises_case_punctuation_and_numbers(text: str, expected: list[str]) -> None:
    assert [t.norm for t in tokenize(text)] == expected


def test_tokenize_offsets_point_into_the_text() -> None:
    text = "Well, forty-three loaves."
    assert [text[t.start : t.end] for t in tokenize(text)] == ["Well", "forty-three", "loaves"]


def test_lcs_pairs_finds_the_common_words_in_order() -> None:
    a = "the cat sat on the mat".split()
    b = "um the cat uh sat on mat".split()
    pairs = lcs_pairs(a, b)
    assert [a[i] for i, _ in pairs] == ["the", "cat", "sat", "on", "mat"]
    assert all(a[i] == b[j] for i, j in pairs)
    assert pairs == sorted(pairs) and len({j for _, j in pairs}) == len(pairs)
    assert lcs_pairs([], b) == []


def test_retime_takes_the_times_of_first_and_last_word() -> None:
    doc = Document.from_texts(["Good morning, everyone.", "Today we bake bread."], language="en")
    words = words_of("good morning everyone") + words_of("today we bake bread", start=3.0)
    timed, stats = retime_document(doc, words)
    assert [(s.start, s.end) for s in timed.segments] == [(0.0, 1.4), (3.0, 4.9)]
    assert stats.matched == stats.tokens == 7 and stats.timed_from_words == 2
    assert doc.segments[0].start is None  # the input is not changed
    assert timed.full_text() == doc.full_text()


def test_retime_matches_number_words_to_digits_and_skips_fillers() -> None:
    doc = Document.from_texts(["It costs 43 dollars."], language="en")
    words = words_of("um it costs forty-three dollars")
    timed, stats = retime_document(doc, words)
    assert stats.matched == 4
    assert timed.segments[0].start == pytest.approx(0.5) and timed.segments[0].end == pytest.approx(2.4)


def test_retime_interpolates_across_unrecognised_words() -> None:
    doc = Document.from_texts(["First sentence here.", "Completely misheard words.", "Last one now."], language="en")
    words = words_of("first sentence here") + words_of("xx yy zz", start=2.0) + words_of("last one now", start=4.0)
    timed, stats = retime_document(doc, words)
    middle = timed.segments[1]
    assert stats.timed_from_words == 2
    # Between the end of "here" (1.4 s) and the start of "last" (4.0 s), in order.
    assert timed.segments[0].end <= middle.start < middle.end <= timed.segments[2].start
    assert 1.4 <= middle.start and middle.end <= 4.0


def test_retime_of_an_unrelated_recording_is_an_error() -> None:
    doc = Document.from_texts(["Alpha beta gamma."], language="en")
    with pytest.raises(SialignError, match="no word of the transcript"):
        retime_document(doc, words_of("one two three"))
