from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sialign.core.model import Document
from sialign.text import ends_with_strong_punctuation, split_sentences

CASES = [
    ("Mr. Smith went to Washington. He arrived on Monday.", ["Mr. Smith went to Washington.", "He arrived on Monday."]),
    ("Dr. Jones and Prof. Lee met. They talked.", ["Dr. Jones and Prof. Lee met.", "They talked."]),
    ("Use tools, e.g. hammers. Or i.e. nails.", ["Use tools, e.g. hammers.", "Or i.e. nails."]),
    ("I moved to the U.S. The weather was fine.", ["I moved to the U.S.", "The weather was fine."]),
    ("The U.S. Army arrived.", ["The U.S. Army arrived."]),
    ("It grew 3.5 percent. That is 1,000 people.", ["It grew 3.5 percent.", "That is 1,000 people."]),
    ("\"Really?\" he asked. Yes!", ["\"Really?\" he asked.", "Yes!"]),
    ("He said, \"Stop.\" Then he left.", ["He said, \"Stop.\"", "Then he left."]),
    ("J. K. Rowling wrote it. Fans read it.", ["J. K. Rowling wrote it.", "Fans read it."]),
    ("I was... well, tired. So... Next.", ["I was... well, tired.", "So...", "Next."]),
    ("(Laughter) So we began. It worked. (Applause) Thanks.", ["(Laughter)", "So we began.", "It worked.", "(Applause)", "Thanks."]),
    ("See No. 5 for details. I said no. Then I left.", ["See No. 5 for details.", "I said no.", "Then I left."]),
    ("What? Why (he wondered) not? Fine.", ["What?", "Why (he wondered) not?", "Fine."]),
    ("It ended at 5 p.m. The next day it rained.", ["It ended at 5 p.m.", "The next day it rained."]),
    ("No punctuation at all here", ["No punctuation at all here"]),
    ("Ends with space.   ", ["Ends with space.   "]),
]


@pytest.mark.parametrize("text, expected", CASES)
def test_sentences_split_tricky_english(text: str, expected: list[str]) -> None:
    doc = split_sentences(text, "en")
    assert [s.text for s in doc.segments] == expected
    assert doc.full_text() == text


@pytest.mark.parametrize(
    "text, expected",
    [
        ("今日は晴れです。明日は？雨！", ["今日は晴れです。", "明日は？", "雨！"]),
        ("「そうです。」と言った。", ["「そうです。」", "と言った。"]),
        ("句読点なし", ["句読点なし"]),
    ],
)
def test_sentences_split_japanese(text: str, expected: list[str]) -> None:
    assert [s.text for s in split_sentences(text, "ja").segments] == expected


def test_sentences_split_german_ordinals_stay() -> None:
    doc = split_sentences("Am 3. Oktober kam er. Dann ging er.", "de")
    assert [s.text for s in doc.segments] == ["Am 3. Oktober kam er.", "Dann ging er."]


def test_sentences_split_keeps_proportional_times_and_lines() -> None:
    doc = Document.from_texts(["Aaaa. Bbbb.", "Cccc."], "en", [(0.0, 10.0), (10.0, 12.0)])
    out = split_sentences(doc)
    assert [s.text for s in out.segments] == ["Aaaa.", "Bbbb.", "Cccc."]
    assert [s.line for s in out.segments] == [1, 1, 2]
    assert out.segments[0].start == 0.0 and out.segments[0].end == pytest.approx(10 * 5 / 11, abs=1e-3)
    assert out.segments[1].start == pytest.approx(10 * 6 / 11, abs=1e-3) and out.segments[1].end == 10.0
    assert (out.segments[2].start, out.segments[2].end) == (10.0, 12.0)
    assert out.ids() == [0, 1, 2]
    assert out.full_text() == doc.full_text()


def test_sentences_split_other_script_and_empty_input() -> None:
    text = "Привет мир. Как дела? مرحبا بالعالم. 你好。"
    doc = split_sentences(text, "en")
    assert doc.full_text() == text
    assert [s.text for s in doc.segments][:2] == ["Привет мир.", "Как дела?"]
    assert len(split_sentences("", "en")) == 0
    assert len(split_sentences("   \n  ", "en")) == 0


def test_sentences_split_drops_empty_segments_keeps_text() -> None:
    doc = Document.from_texts(["One.", "", "   ", "Two."], "en")
    out = split_sentences(doc)
    assert [s.text for s in out.segments] == ["One.", "Two."]
    assert out.full_text() == doc.full_text()


@pytest.mark.parametrize(
    "text, expected",
    [("Hello.", True), ("Hello", False), ("so...", False), ("Mr.", False), ("Why?\"", True), ("終わり。", True), ("in the U.S.", True), ("J.", False)],
)
def test_sentences_strong_punctuation(text: str, expected: bool) -> None:
    lang = "ja" if "。" in text else "en"
    assert ends_with_strong_punctuation(text, lang) is expected


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["a", "B", "1", ".", "?", "!", "…", " ", "\n", "\"", "(", ")", "Mr", "U.S.", "e.g.", "3.5", "、", "。"]), max_size=60))
def test_sentences_split_lossless_on_random_punctuation(pieces: list[str]) -> None:
    text = "".join(pieces)
    for lang in ("en", "ja"):
        doc = split_sentences(text, lang)
        if text.strip():
            assert doc.full_text() == text
        assert all(s.text.strip() for s in doc.segments)
        assert doc.ids() == list(range(len(doc)))
