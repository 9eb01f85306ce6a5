from __future__ import annotations

import pytest

from sialign.core.errors import InputError
from sialign.core.model import Document
from sialign.text import rebuild_captions

CAPTIONS = ["I'd like to invite you", "to close your eyes.", "Imagine yourself standing", "outside the front door of your home.", "I'd like you to notice the color of the door"]
TIMES = [(0.0, 2.0), (2.0, 4.0), (4.0, 6.0), (6.0, 9.0), (9.0, 12.0)]


def test_captions_rebuild_joins_until_strong_punctuation_with_times() -> None:
    doc = Document.from_texts(CAPTIONS, "en", TIMES)
    out = rebuild_captions(doc)
    assert [" ".join(s.text.split()) for s in out.segments] == [
        "I'd like to invite you to close your eyes.",
        "Imagine yourself standing outside the front door of your home.",
        "I'd like you to notice the color of the door",
    ]
    assert [(s.start, s.end) for s in out.segments] == [(0.0, 4.0), (4.0, 9.0), (9.0, 12.0)]
    assert [s.line for s in out.segments] == [1, 3, 5]
    assert out.full_text() == doc.full_text()
    assert out.ids() == [0, 1, 2]


def test_captions_rebuild_cuts_inside_a_caption_proportionally() -> None:
    doc = Document.from_texts(["close your eyes. Imagine", "yourself there."], "en", [(0.0, 2.4), (2.4, 4.0)])
    out = rebuild_captions(doc)
    assert [s.text for s in out.segments] == ["close your eyes.", "Imagine\nyourself there."]
    assert out.segments[0].end == pytest.approx(2.4 * 16 / 24, abs=1e-3)
    assert out.segments[1].start == pytest.approx(2.4 * 17 / 24, abs=1e-3)
    assert out.segments[1].end == 4.0


def test_captions_rebuild_with_pivot_of_same_length() -> None:
    # The Hebrew side of Figure 1 of Cettolo's Arabic-Hebrew TED corpus paper has no full stops; the English pivot has them.
    target = Document.from_texts(["un", "deux", "trois", "quatre", "cinq"], "xx", TIMES)
    pivot = Document.from_texts(CAPTIONS, "en", TIMES)
    assert len(rebuild_captions(target)) == 1
    out = rebuild_captions(target, pivot=pivot)
    assert [" ".join(s.text.split()) for s in out.segments] == ["un deux", "trois quatre", "cinq"]
    assert [(s.start, s.end) for s in out.segments] == [(0.0, 4.0), (4.0, 9.0), (9.0, 12.0)]


def test_captions_rebuild_with_pivot_matched_by_time() -> None:
    target = Document.from_texts(["a", "b", "c"], "xx", [(0.0, 3.9), (3.9, 9.2), (9.2, 12.0)])
    pivot = Document.from_texts(CAPTIONS, "en", TIMES)
    out = rebuild_captions(target, pivot=pivot)
    assert [" ".join(s.text.split()) for s in out.segments] == ["a", "b", "c"]
    far = Document.from_texts(["a", "b"], "xx", [(0.0, 6.0), (6.0, 12.0)])
    assert [" ".join(s.text.split()) for s in rebuild_captions(far, pivot=pivot).segments] == ["a b"]


def test_captions_rebuild_pivot_mismatch_without_times_is_a_clear_error() -> None:
    target = Document.from_texts(["a", "b"], "xx")
    pivot = Document.from_texts(["x.", "y.", "z."], "en")
    with pytest.raises(InputError, match="3 captions"):
        rebuild_captions(target, pivot=pivot)


def test_captions_rebuild_japanese_and_empty_captions() -> None:
    doc = Document.from_texts(["今日は", "晴れです。", "", "明日は雨"], "ja", [(0, 1), (1, 2), (2, 2), (2, 3)])
    out = rebuild_captions(doc)
    assert [s.text.replace("\n", "") for s in out.segments] == ["今日は晴れです。", "明日は雨"]
    assert out.full_text() == doc.full_text()
