"""An adverb that carries meaning is a content word: the intra filter never trims it as a filler.

On the example, だんだん ("gradually") was trimmed as a filler, and the bead's *Rendered* share fell from 83% to 50%.
"""

from __future__ import annotations

import pytest

from sialign.core.params import FilterParams
from sialign.text.japanese import analyze_japanese

CONTENT = FilterParams().content_pos


@pytest.mark.parametrize("chunk, content", [
    ("だんだん、", True), ("すぐに、", True), ("まだ、", True),
    ("まあ、", False), ("ちょっと、", False), ("えー、", False), ("あの、", False),
])
def test_an_adverb_of_meaning_is_content_a_hesitation_is_not(chunk: str, content: bool) -> None:
    (analysis,) = analyze_japanese([chunk])
    assert analysis.has_pos(CONTENT) is content


def test_other_tag_sets_are_read_as_given() -> None:
    (analysis,) = analyze_japanese(["だんだん、"])
    assert not analysis.has_pos(("VERB",)) and analysis.has_pos(("ADV",))
