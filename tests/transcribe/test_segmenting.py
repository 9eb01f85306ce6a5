"""Recognised words → sentences or chunks with the times of their words."""

from __future__ import annotations

import pytest

from sialign.transcribe import Word, words_to_document


def w(text: str, start: float, end: float) -> Word:
    return Word(text, start, end)


WORDS = [
    w(" Good", 0.6, 0.9), w(" morning,", 0.9, 1.3), w(" everyone.", 1.3, 2.0),
    w(" Today", 2.5, 2.8), w(" I", 2.8, 2.9), w(" talk", 2.9, 3.2), w(" about", 3.2, 3.5), w(" bread.", 3.5, 4.0),
]


def test_sentences_take_their_first_and_last_word_times() -> None:
    doc = words_to_document(WORDS, "en")
    assert doc.texts() == ["Good morning, everyone.", "Today I talk about bread."]
    assert [(s.start, s.end) for s in doc.segments] == [(0.6, 2.0), (2.5, 4.0)]
    assert doc.language == "en"


def test_a_long_pause_ends_a_piece_without_punctuation() -> None:
    words = [w(" so", 0.0, 0.3), w(" we", 0.3, 0.5), w(" start", 3.0, 3.4), w(" again", 3.4, 3.8)]
    doc = words_to_document(words, "en", pause=1.5)
    assert doc.texts() == ["so we", "start again"]
    assert [(s.start, s.end) for s in doc.segments] == [(0.0, 0.5), (3.0, 3.8)]


def test_japanese_interpretation_is_cut_into_chunks() -> None:
    words = [w("今日は", 0.0, 0.5), w("、", 0.5, 0.5), w("パンの", 0.5, 1.0), w("話を", 1.0, 1.4), w("します。", 1.4, 2.0),
             w("ありがとう。", 2.2, 3.0)]
    doc = words_to_document(words, "ja", role="interpretation")
    assert doc.texts() == ["今日は、", "パンの話をします。", "ありがとう。"]
    assert doc.segments[1].start == 0.5 and doc.segments[1].end == 2.0


def test_no_words_give_an_empty_document_and_a_bad_role_is_refused() -> None:
    assert len(words_to_document([], "en")) == 0
    with pytest.raises(ValueError, match="role"):
        words_to_document(WORDS, "en", role="target")


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        # Whisper joined two of its segments and wrote the second sentence in lower case.
        ([w(" that", 0, 0.2), w(" was", 0.2, 0.4), w(" fine.", 0.4, 0.8), w(" others", 0.8, 1.2), w(" stayed.", 1.2, 1.6)],
         ["that was fine.", "others stayed."]),
        ([w(" really?", 0, 0.4), w(" yes", 0.5, 0.8)], ["really?", "yes"]),
        # An abbreviation that may end a sentence or not, and one that never does, keep the sentence whole.
        ([w(" in", 0, 0.2), w(" the", 0.2, 0.3), w(" U.S.", 0.3, 0.7), w(" and", 0.7, 0.9), w(" Canada.", 0.9, 1.3)],
         ["in the U.S. and Canada."]),
        ([w(" ask", 0, 0.2), w(" Dr.", 0.2, 0.5), w(" smith", 0.5, 0.9)], ["ask Dr. smith"]),
    ],
    ids=["full-stop", "question", "u.s.", "dr."],
)
def test_a_recognised_sentence_end_cuts_before_a_lower_case_word(words: list[Word], expected: list[str]) -> None:
    doc = words_to_document(words, "en")
    assert doc.texts() == expected
    assert doc.segments[-1].end == words[-1].end


def _spoken(sentences: list[str], pause: float, word_seconds: float = 0.35) -> list[Word]:
    """Words of ``sentences`` spoken one after the other, ``pause`` seconds between sentences (no full stops)."""
    words, t = [], 0.0
    for sentence in sentences:
        for token in sentence.split():
            words.append(w(" " + token, t, t + word_seconds))
            t += word_seconds
        t += pause
    return words


def test_a_long_recognised_sentence_is_cut_at_its_longest_pauses() -> None:
    """Whisper leaves out the full stop at a short pause: the speaker's pauses cut the run of words again."""
    sentences = ["so what we are looking at right here is a typical mortality chart organised by age",
                 "this is because in the middle people are at their most active",
                 "and over here they are at their most frail and we can see it"]
    words = _spoken(sentences, pause=0.45)
    doc = words_to_document(words, "en")
    assert doc.texts() == sentences
    assert doc.segments[1].start == words[16].start and doc.segments[0].end == words[15].end
    assert len(words_to_document(words, "en", long_sentence=None)) == 1  # the sentence splitter alone
    # A sentence no longer than LONG_SENTENCE is not cut at its pauses; pieces keep three words at least.
    short = _spoken(["we start", "again now", "and then"], pause=0.5)
    assert len(words_to_document(short, "en")) == 1
    # The interpretation's chunks are not cut this way.
    assert len(words_to_document(words, "en", role="interpretation")) == 1


def test_a_recognised_japanese_interpretation_without_punctuation_is_cut_like_a_typed_one() -> None:
    """Whisper writes Japanese mostly without 、 and 。: the chunks are at most MACHINE_CHUNK_CHARS long."""
    pytest.importorskip("ja_ginza")
    from sialign.transcribe.segmenting import MACHINE_CHUNK_CHARS

    text = "消費するようなデータの全体というのは部分の合計よりも大きいと情報オーバーロードということを考えるよりも"
    words = [w(ch, 0.1 * i, 0.1 * (i + 1)) for i, ch in enumerate(text)]
    doc = words_to_document(words, "ja", role="interpretation")
    assert "".join(doc.texts()) == text
    assert len(doc) >= 3 and max(len(t) for t in doc.texts()) <= MACHINE_CHUNK_CHARS
