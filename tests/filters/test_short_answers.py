"""The intra filter keeps a short answer rendered whole: the content-word rule needs a source sentence with content."""

from __future__ import annotations

import pytest

from sialign.core.model import Alignment, Bead, BeadStatus, Document, Project
from sialign.core.params import FilterParams
from sialign.filters import apply_filters, score_beads
from sialign.text.short_answers import content_word_count, only_fillers, renders_short_answer


def _project(pairs: list[tuple[str, str]], src: str = "fr", tgt: str = "en") -> Project:
    source = Document.from_texts([s for s, _ in pairs], src)
    target = Document.from_texts([t for _, t in pairs], tgt)
    beads = [Bead((i,), (i,), cost=0.3) for i in range(len(pairs))]
    return Project(source=source, target=target, alignment=Alignment(beads))


def test_intra_filter_keeps_a_short_answer_and_drops_a_filler() -> None:
    project = _project([
        ("Le pain coûte deux dollars.", "Bread costs two dollars."),
        ("Bien sûr que non !", "No !"),                              # a whole short answer: a rendition
        ("Bien sûr que non !", "Um, uh…"),                           # hesitation only: nothing rendered
        ("Le boulanger a fermé sa boutique hier soir.", "Well, no."),  # a sentence with content: the rule applies
    ])
    scores = score_beads(project)
    assert scores.contentless.tolist() == [False, False, True, True]
    beads = apply_filters(project, FilterParams(drop_contentless=True), scores)
    assert [b.status for b in beads] == [BeadStatus.AUTO, BeadStatus.AUTO, BeadStatus.DROPPED, BeadStatus.DROPPED]
    assert not any(f.name == "intra" and f.failed for f in beads[1].flags)


@pytest.mark.parametrize(
    ("text", "language", "count"),
    [
        ("Bien sûr que non !", "fr", 0),
        ("Non, merci.", "fr", 0),
        ("Of course not!", "en", 1),
        ("Nein, danke.", "de", 0),
        ("¡Claro que no!", "es", 0),
        ("Le pain coûte deux dollars.", "fr", 4),
        ("The river is long.", "en", 2),
    ],
)
def test_short_answers_content_word_count(text: str, language: str, count: int) -> None:
    assert content_word_count(text, language) == count


def test_short_answers_fillers() -> None:
    assert only_fillers("えー、あの") and only_fillers("Euh…") and only_fillers("um, uh") and only_fillers("")
    assert not only_fillers("No !") and not only_fillers("いいえ。") and not only_fillers("えー、いいえ")
    assert renders_short_answer("Of course not!", "en", "いいえ。")
    assert not renders_short_answer("Of course not!", "en", "えー。")
    assert not renders_short_answer("The bread costs two dollars.", "en", "No.")
