"""The intra filter and the reviewer: nouns of time are content, restored chunks stay restored."""

from __future__ import annotations

from typing import Any

import pytest

from sialign.core.edits import ReplaceBeads, RestoreTrimmedChunk, apply_edit
from sialign.core.model import Alignment, Bead, Document, Project
from sialign.core.params import FilterParams
from sialign.filters import apply_filters
from sialign.text.japanese import analyze_japanese


@pytest.mark.slow
@pytest.mark.parametrize("chunk", ["週末、", "来年、", "先週、"])
def test_intra_noun_of_time_standing_alone_is_content(ginza: Any, chunk: str) -> None:
    # GiNZA tags a lone 週末 ADV; SudachiPy says 名詞-普通名詞-副詞可能.
    (analysis,) = analyze_japanese([chunk])
    assert analysis.tokens[0].ud_pos == "ADV" and analysis.tokens[0].tag.startswith("名詞-普通名詞-副詞可能")
    assert analysis.has_pos(FilterParams().content_pos)
    src = Document.from_texts(["At the weekend I went to the mountains."], "en")
    tgt = Document.from_texts([chunk, "山に行きました。"], "ja")
    project = Project(source=src, target=tgt, alignment=Alignment([Bead((0,), (0, 1))]))
    (bead,) = apply_filters(project, FilterParams())
    assert bead.trimmed == ()


@pytest.mark.slow
def test_intra_true_adverbs_and_fillers_are_still_trimmed(ginza: Any) -> None:
    src = Document.from_texts(["Well, I went to the mountains."], "en")
    tgt = Document.from_texts(["まあ、", "山に行きました。", "えー、"], "ja")
    project = Project(source=src, target=tgt, alignment=Alignment([Bead((0,), (0, 1, 2))]))
    (bead,) = apply_filters(project, FilterParams())
    assert bead.trimmed == (0, 2)


@pytest.mark.slow
def test_intra_rerun_keeps_a_restored_chunk(ginza: Any) -> None:
    src = Document.from_texts(["Well, I went to the mountains."], "en")
    tgt = Document.from_texts(["えー、", "山に行きました。", "あの、"], "ja")
    project = Project(source=src, target=tgt, alignment=Alignment([Bead((0,), (0, 1, 2))]))
    params = FilterParams()
    apply_edit(project, ReplaceBeads(0, 1, tuple(apply_filters(project, params))))
    assert project.alignment.beads[0].trimmed == (0, 2)  # type: ignore[union-attr]
    apply_edit(project, RestoreTrimmedChunk(0, 2))
    (again,) = apply_filters(project, params)
    assert again.trimmed == (0,)
    assert again.restored == (2,)
