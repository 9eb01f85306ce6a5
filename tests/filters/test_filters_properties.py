from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sialign.core.model import Alignment, Bead, BeadStatus, Document, Project
from sialign.core.params import FilterParams
from sialign.filters import FILTER_REASON_PREFIX, apply_filters, preview_flips, score_beads

WORDS = ["well,", "so", "the", "government", "music", "trust", "1950", "Obama", "and", "um,", "three", "people", ""]


@st.composite
def projects(draw: Any) -> Project:
    n_src = draw(st.integers(1, 6))
    n_tgt = draw(st.integers(1, 8))
    src = [" ".join(draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=6))) + "." for _ in range(n_src)]
    tgt = [" ".join(draw(st.lists(st.sampled_from(WORDS), max_size=4))) for _ in range(n_tgt)]
    ref = [" ".join(draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=6))) for _ in range(n_src)]
    # Random monotonic beads covering both sides (1-0 and 0-1 allowed).
    beads: list[Bead] = []
    i = j = 0
    while i < n_src or j < n_tgt:
        a = draw(st.integers(0 if j < n_tgt else 1, min(2, n_src - i))) if i < n_src else 0
        b = draw(st.integers(0 if a else 1, min(3, n_tgt - j))) if j < n_tgt else 0
        if a == 0 and b == 0:
            b = 1 if j < n_tgt else 0
            a = 1 if b == 0 else 0
        status = draw(st.sampled_from(list(BeadStatus)))
        reason = draw(st.sampled_from(["", FILTER_REASON_PREFIX + "old", "cost 1.2"])) if status == BeadStatus.DROPPED else ""
        beads.append(Bead(tuple(range(i, i + a)), tuple(range(j, j + b)), status=status, reason=reason))
        i, j = i + a, j + b
    with_ref = draw(st.booleans())
    return Project(
        source=Document.from_texts(src, "en"),
        target=Document.from_texts(tgt, "en"),
        reference=Document.from_texts(ref, "en") if with_ref else None,
        alignment=Alignment(beads),
    )


# FilterParams refuses gamma_min above gamma_max: draw the pair in order.
gammas = st.tuples(st.floats(0, 1.5), st.floats(1.0, 4.0)).filter(lambda pair: pair[0] <= pair[1])
thresholds = gammas.flatmap(
    lambda pair: st.builds(
        FilterParams,
        intra=st.booleans(),
        drop_contentless=st.booleans(),
        alpha_min=st.floats(0, 1),
        gamma_min=st.just(pair[0]),
        gamma_max=st.just(pair[1]),
        eta_min=st.floats(0, 1),
        drop_failed=st.booleans(),
    )
)


@settings(max_examples=80, deadline=None)
@given(projects(), thresholds)
def test_filters_properties_preview_matches_apply_and_rules_hold(project: Project, params: FilterParams) -> None:
    project.validate()
    scores = score_beads(project, content_pos=params.content_pos)
    flips = preview_flips(scores, params)
    old = project.alignment.beads
    new = apply_filters(project, params, scores)
    changed = [k for k, (a, b) in enumerate(zip(old, new)) if (a.status == BeadStatus.DROPPED) != (b.status == BeadStatus.DROPPED)]
    assert flips == changed
    Alignment(new).validate(project.source, project.target)
    for a, b in zip(old, new):
        assert (a.src, a.tgt) == (b.src, b.tgt)
        assert set(b.trimmed) < set(b.tgt) or not b.trimmed  # never every chunk
        if a.status == BeadStatus.CONFIRMED:
            assert b.status == BeadStatus.CONFIRMED and b.trimmed == a.trimmed
        if a.status == BeadStatus.DROPPED and not a.reason.startswith(FILTER_REASON_PREFIX):
            assert b.status == BeadStatus.DROPPED and b.reason == a.reason
        if b.status == BeadStatus.DROPPED and a.status != BeadStatus.DROPPED:
            assert b.reason.startswith(FILTER_REASON_PREFIX) and len(b.reason) > len(FILTER_REASON_PREFIX)
        if not a.tgt:
            assert any(f.name == "omission" for f in b.flags)
        if not a.src:
            assert any(f.name == "addition" for f in b.flags)
        if a.is_skip:  # 1-0 / 0-1 beads: the aligner's call, the filters only flag them
            assert b.status == a.status or a.reason.startswith(FILTER_REASON_PREFIX)


@pytest.mark.slow
def test_filters_properties_empty_chunks_and_unexpected_script(ginza: Any) -> None:
    src = Document.from_texts(["Hello world.", "Second sentence here."], "en")
    tgt = Document.from_texts(["", "Привет мир", "政府の話", "   ", "مرحبا"], "ja")
    ref = Document.from_texts(["こんにちは世界。", "二番目の文です。"], "ja")
    project = Project(source=src, target=tgt, reference=ref, alignment=Alignment([Bead((0,), (0, 1, 2)), Bead((1,), (3, 4))]))
    beads = apply_filters(project, FilterParams())
    assert beads[0].trimmed == (0,)  # the empty chunk goes; Cyrillic and Japanese have content
    assert beads[1].trimmed in {(3,), ()}
    assert all(len(b.trimmed) < len(b.tgt) or not b.trimmed for b in beads)
