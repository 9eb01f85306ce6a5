"""sialign.text.lemmas (rule-based English lemma keys) and sialign.text.inline_tags (tags out and back in)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sialign.text.inline_tags import InlineTag, insert_inline_tags, strip_inline_tags
from sialign.text.lemmas import english_lemma, lemma_key


@pytest.mark.parametrize(
    ("forms", "key"),
    [
        (("bake", "bakes", "baked", "baking", "Baking"), "bak"),
        (("loaf", "loaves"), "loaf"),
        (("experiment", "experiments", "Experiments"), "experiment"),
        (("study", "studies", "studied"), "study"),
        (("run", "runs", "running"), "run"),
        (("habit", "habits"), "habit"),
        (("friend", "friend's", "friend’s"), "friend"),
        (("coffee", "coffees"), "coffee"),
    ],
)
def test_lemmas_english_forms_share_one_key(forms: tuple[str, ...], key: str) -> None:
    assert {english_lemma(f) for f in forms} == {key}


@pytest.mark.parametrize("word", ["bus", "glass", "this", "thing", "sing", "need", "seed", "bread", "red"])
def test_lemmas_english_words_that_only_look_inflected_stay(word: str) -> None:
    assert english_lemma(word) == word


def test_lemmas_other_languages_use_the_given_lemma_or_lower_case() -> None:
    assert lemma_key("焼け", "ja", "焼ける") == "焼ける"
    assert lemma_key("Pain", "fr") == "pain"
    assert lemma_key("Loaves", "en-GB") == "loaf"


def test_inline_tags_nested_unclosed_and_stray_tags() -> None:
    tagged = strip_inline_tags('a <i>friend gave <term id="2">me</term></i> a {\\an8}jar</b> <b>x')
    assert tagged.plain == "a friend gave me a jar x"
    assert [(t.name, t.attrs, tagged.plain[t.start : t.end]) for t in tagged.tags] == [
        ("i", "", "friend gave me"), ("term", ' id="2"', "me"), ("b", "", "x"),
    ]
    assert insert_inline_tags(tagged.plain, tagged.tags) == 'a <i>friend gave <term id="2">me</term></i> a jar <b>x</b>'


def test_inline_tags_webvtt_voice_timestamps_and_references() -> None:
    tagged = strip_inline_tags("<v Ann>Fish &amp; <c.yellow>chips</c><00:00:08.500> &lt;3", unescape=lambda s: s.replace("&amp;", "&").replace("&lt;", "<"))
    assert tagged.plain == "Fish & chips <3"
    assert [(t.name, t.attrs, tagged.plain[t.start : t.end]) for t in tagged.tags] == [("c", ".yellow", "chips")]
    assert insert_inline_tags(tagged.plain, tagged.tags, escape=lambda s: s.replace("&", "&amp;").replace("<", "&lt;")) == (
        "Fish &amp; <c.yellow>chips</c> &lt;3"
    )


def test_inline_tags_crossing_spans_are_closed_and_reopened() -> None:
    out = insert_inline_tags("0123456789AB", [InlineTag("i", "", 0, 8), InlineTag("b", "", 5, 10)])
    assert out == "<i>01234<b>567</b></i><b>89</b>AB"
    assert insert_inline_tags("abc", [InlineTag("i", "", 2, 2), InlineTag("b", "", -3, 99)]) == "<b>abc</b>"


_WORDS = st.text(alphabet="ab cdé日本", min_size=0, max_size=6)


@given(st.lists(st.tuples(st.sampled_from(["i", "b", "term"]), _WORDS), max_size=6), _WORDS)
def test_inline_tags_round_trip(pieces: list[tuple[str, str]], tail: str) -> None:
    text = "".join(f"{w}<{name}>{w}</{name}>" for name, w in pieces) + tail
    tagged = strip_inline_tags(text)
    again = strip_inline_tags(insert_inline_tags(tagged.plain, tagged.tags))
    assert again == tagged
