from __future__ import annotations

import pytest

from sialign.text.english import latin_content_words
from sialign.text.numbers import extract_numbers, kanji_number


@pytest.mark.parametrize(
    "text, expected",
    [
        ("千九百五十年代のマジック", ["1950"]),
        ("二千五十年には七十パーセント", ["2050", "70"]),
        ("六億二千万人", ["620000000"]),
        ("一点五兆ドル", ["1500000000000"]),
        ("二〇一七年", ["2017"]),
        ("300万人と１，０００人", ["3000000", "1000"]),
        ("It grew 3.5 percent to 1,000 people", ["3.5", "1000"]),
        ("1.5 trillion dollars in the 1950s", ["1500000000000", "1950"]),
        ("twenty-two cats and three hundred dogs", ["22", "300"]),
        ("one of the things", []),
        ("no numbers here", []),
    ],
)
def test_numbers_extract_canonical_values(text: str, expected: list[str]) -> None:
    assert extract_numbers(text) == expected


@pytest.mark.parametrize("run, value", [("十", 10), ("百二十", 120), ("千", 1000), ("一万", 10000), ("三十万五千", 305000), ("点", None)])
def test_numbers_kanji(run: str, value: float | None) -> None:
    assert kanji_number(run) == value


def test_numbers_english_content_words_heuristic() -> None:
    words = latin_content_words("The placebo effect was studied by Obama in 1950, and it is what we want.")
    found = {(w.text, w.kind) for w in words}
    assert ("1950", "number") in found
    assert ("Obama", "name") in found
    assert ("placebo", "word") in found and ("effect", "word") in found
    assert not any(w.text.lower() in {"the", "was", "it", "is", "what", "we", "want", "and"} for w in words)
    # A capital at the start of a sentence is not a name.
    assert ("The", "name") not in found and ("Trust", "name") not in {(w.text, w.kind) for w in latin_content_words("Trust matters.")}
