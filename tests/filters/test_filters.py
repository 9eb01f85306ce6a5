from __future__ import annotations

import dataclasses
import time
from typing import Any

import numpy as np
import pytest

from sialign.core.model import Alignment, Bead, BeadStatus, Document, Project
from sialign.core.params import FilterParams
from sialign.filters import apply_filters, decide, intra_trims, preview_flips, score_beads
from sialign.filters.scores import FILTER_REASON_PREFIX, length_units
from sialign.text import chunk_japanese

PAPER_EXAMPLE = "じゃあ、今日はですね、政府の話をします。えー、それで"


def _project(with_reference: bool = True) -> Project:
    src = Document.from_texts(
        [
            "Today I will talk about the government.",
            "They haven't given up on government.",
            "In 1950 there were 3 million people in Tokyo.",
            "(Laughter)",
            "Trust is the key to music.",
        ],
        "en",
    )
    tgt = Document.from_texts(
        ["じゃあ、", "今日はですね、", "政府の話をします。", "えー、", "それで", "政府は、", "諦めていないのです。",
         "千九百五十年には東京に三百万人がいました。", "えー、", "そして、", "では、"],
        "ja",
    )
    ref = Document.from_texts(
        ["今日は政府についてお話しします。", "彼らは政府を諦めていないのです。", "1950年には東京に300万人がいました。", "（笑）", "信頼こそが音楽の鍵なのです。"],
        "ja",
    )
    beads = [
        Bead((0,), (0, 1, 2, 3, 4)),
        Bead((1,), (5, 6)),
        Bead((2,), (7,)),
        Bead((3,), ()),
        Bead((), (8,)),
        Bead((4,), (9, 10)),
    ]
    return Project(source=src, target=tgt, reference=ref if with_reference else None, alignment=Alignment(beads))


@pytest.fixture(scope="module")
def scored(ginza: Any) -> tuple[Project, Any]:
    project = _project()
    return project, score_beads(project)


@pytest.mark.parametrize(
    "has_content, expected",
    [
        ([False, True, True], ((0,), False)),
        ([True, True, False], ((2,), False)),
        ([False, True, False], ((0, 2), False)),
        ([False, False, True, False], ((0, 3), False)),
        ([False], ((), True)),
        ([False, False], ((), True)),
        ([True], ((), False)),
        ([True, False], ((1,), False)),
        ([], ((), False)),
    ],
)
def test_filters_intra_trims_rule(has_content: list[bool], expected: tuple[tuple[int, ...], bool]) -> None:
    assert intra_trims(tuple(range(len(has_content))), has_content) == expected


@pytest.mark.slow
@pytest.mark.parametrize(
    "content_pos, expected_trimmed",
    [
        (("NOUN", "PROPN", "PRON", "VERB", "NUM"), ("じゃあ、",)),  # それ is PRON: the paper keeps それで
        (("NOUN", "PROPN", "VERB", "NUM"), ("じゃあ、", "それで")),
    ],
)
def test_filters_intra_on_paper_example(ginza: Any, content_pos: tuple[str, ...], expected_trimmed: tuple[str, ...]) -> None:
    tgt = chunk_japanese(PAPER_EXAMPLE)
    src = Document.from_texts(["Today I will talk about the government."], "en")
    project = Project(source=src, target=tgt, alignment=Alignment([Bead((0,), tuple(tgt.ids()))]))
    params = FilterParams(content_pos=content_pos)
    (bead,) = apply_filters(project, params)
    assert tuple(tgt.get(i).text for i in bead.trimmed) == expected_trimmed
    assert bead.status == BeadStatus.AUTO
    intra = [f for f in bead.flags if f.name == "intra"]
    assert intra and not intra[0].failed and "じゃあ" in intra[0].reason
    # Trimmed chunks stay on the bead: nothing is deleted.
    assert bead.tgt == tuple(tgt.ids())
    (untouched,) = apply_filters(project, dataclasses.replace(params, intra=False))
    assert untouched.trimmed == ()


@pytest.mark.slow
def test_filters_scores_alpha_gamma_eta(scored: tuple[Project, Any]) -> None:
    project, scores = scored
    assert scores.trims[0] == (0,)  # じゃあ、
    assert scores.trims[5] == () and bool(scores.contentless[5])  # そして、では、: nothing to keep
    # α by the reference: 政府 rendered; 1950 and 300万 compared by value, 東京 found.
    assert scores.alpha[1, 1] == 1.0
    assert scores.alpha[0, 2] == 1.0
    assert scores.alpha_details[0][2].method == "reference"
    assert np.isnan(scores.alpha[0, 3]) and np.isnan(scores.alpha[0, 4])  # 1-0, 0-1: not measured
    # γ in characters without punctuation: 政府は諦めていないのです (12) / 彼らは政府を諦めていないのです (15)
    assert scores.gamma[0, 1] == pytest.approx(12 / 15)
    assert scores.length_unit == "characters"
    assert 0.0 < scores.eta_chrf[0, 1] <= 1.0
    assert np.isnan(scores.eta_cos).all()  # no embedder given
    # Row 1 (after trims) is shorter for bead 0.
    assert scores.gamma[1, 0] < scores.gamma[0, 0]


@pytest.mark.slow
def test_filters_apply_flags_omission_addition_and_contentless(scored: tuple[Project, Any]) -> None:
    project, scores = scored
    beads = apply_filters(project, FilterParams(), scores)
    omission = [f for f in beads[3].flags if f.name == "omission"]
    assert omission and omission[0].failed and "(Laughter)" in omission[0].reason and "line 4" in omission[0].reason
    addition = [f for f in beads[4].flags if f.name == "addition"]
    assert addition and "えー" in addition[0].reason
    assert beads[3].status == BeadStatus.AUTO and beads[4].status == BeadStatus.AUTO  # the aligner's call
    assert beads[5].status == BeadStatus.DROPPED and beads[5].reason.startswith(FILTER_REASON_PREFIX)
    assert "content word" in beads[5].reason
    assert beads[5].trimmed == ()
    # The project itself is untouched.
    assert all(b.status == BeadStatus.AUTO and not b.flags for b in project.alignment.beads)


@pytest.mark.slow
def test_filters_under_translation_reason_is_readable(scored: tuple[Project, Any]) -> None:
    project, scores = scored
    params = FilterParams(gamma_min=0.9, drop_failed=False)
    beads = apply_filters(project, params, scores)
    bead = beads[1]
    assert bead.status == BeadStatus.AUTO  # flag only
    gamma = next(f for f in bead.flags if f.name == "gamma")
    assert gamma.failed and gamma.score == pytest.approx(0.8) and gamma.threshold == 0.9
    assert "80% as long as the reference translation (12 vs 15 characters)" in gamma.reason
    under = next(f for f in bead.flags if f.name == "under_translation")
    assert under.failed and "80%" in under.reason


@pytest.mark.slow
def test_filters_confirmed_beads_are_never_dropped(ginza: Any) -> None:
    project = _project()
    project.alignment.beads[1].status = BeadStatus.CONFIRMED
    project.alignment.beads[0].status = BeadStatus.CONFIRMED
    project.alignment.beads[0].trimmed = ()
    params = FilterParams(alpha_min=1.0, gamma_min=5.0, gamma_max=10.0)
    beads = apply_filters(project, params)
    assert beads[1].status == BeadStatus.CONFIRMED
    assert any(f.failed for f in beads[1].flags)
    assert beads[0].trimmed == ()  # the reviewer's choice stands
    assert beads[2].status == BeadStatus.DROPPED


@pytest.mark.slow
def test_filters_filter_drops_come_back_but_aligner_drops_stay(scored: tuple[Project, Any]) -> None:
    project, _ = scored
    project = Project.from_dict(project.to_dict())
    strict = FilterParams(gamma_min=0.9)
    project.alignment.beads = apply_filters(project, strict)
    assert project.alignment.beads[1].status == BeadStatus.DROPPED
    project.alignment.beads[2].status = BeadStatus.DROPPED
    project.alignment.beads[2].reason = "cost 1.3 above threshold 1.0"
    relaxed = FilterParams(gamma_min=0.1)
    scores = score_beads(project)
    flips = preview_flips(scores, relaxed)
    beads = apply_filters(project, relaxed, scores)
    assert beads[1].status == BeadStatus.AUTO and beads[1].reason == ""
    assert beads[2].status == BeadStatus.DROPPED and beads[2].reason.startswith("cost")
    assert 1 in flips and 2 not in flips


@pytest.mark.slow
@pytest.mark.parametrize(
    "params",
    [
        FilterParams(),
        FilterParams(intra=False),
        FilterParams(alpha_min=0.9),
        FilterParams(gamma_min=0.85, gamma_max=1.2),
        FilterParams(eta_min=0.3),
        FilterParams(eta_min=0.3, drop_failed=False),
        FilterParams(drop_contentless=False),
    ],
)
def test_filters_preview_agrees_with_apply(scored: tuple[Project, Any], params: FilterParams) -> None:
    project, scores = scored
    before = [b.status for b in project.alignment.beads]
    after = [b.status for b in apply_filters(project, params, scores)]
    changed = [k for k, (a, b) in enumerate(zip(before, after)) if (a == BeadStatus.DROPPED) != (b == BeadStatus.DROPPED)]
    assert preview_flips(scores, params) == changed


def test_filters_preview_is_fast_and_matches_decide_on_1000_beads() -> None:
    from sialign.filters.scores import BeadScores

    rng = np.random.default_rng(0)
    n = 1000
    scores = BeadScores(
        signature=[((k,), (k,)) for k in range(n)],
        content_pos=FilterParams().content_pos,
        trims=[(k,) if k % 7 == 0 else () for k in range(n)],
        contentless=rng.random(n) < 0.02,
        alpha=rng.random((2, n)),
        gamma=rng.random((2, n)) * 3,
        eta_cos=rng.random((2, n)),
        eta_chrf=rng.random((2, n)),
        alpha_details=[[None] * n, [None] * n],
        target_units=np.ones((2, n)),
        reference_units=np.ones((2, n)),
        length_unit="characters",
        status=[BeadStatus.DROPPED if k % 10 == 0 else BeadStatus.AUTO for k in range(n)],
        filter_dropped=np.array([k % 20 == 0 for k in range(n)]),
        confirmed=np.array([k % 13 == 0 for k in range(n)]),
        src_count=np.ones(n, dtype=np.int32),
        tgt_count=np.ones(n, dtype=np.int32),
    )
    params = FilterParams(alpha_min=0.3, gamma_min=0.5, gamma_max=2.5, eta_min=0.2)
    preview_flips(scores, params)
    began = time.perf_counter()
    for step in range(20):
        flips = preview_flips(scores, dataclasses.replace(params, eta_min=step / 20))
    per_call = (time.perf_counter() - began) / 20
    assert per_call < 0.05, f"{per_call * 1000:.1f} ms per preview"
    d = decide(scores, dataclasses.replace(params, eta_min=19 / 20))
    assert flips == np.flatnonzero(d.dropped_after != d.dropped_before).tolist()
    assert not d.dropped_after[scores.confirmed].any()
    # Beads dropped by someone else than the filters stay dropped whatever the thresholds.
    other = np.array([s == BeadStatus.DROPPED for s in scores.status]) & ~scores.filter_dropped
    assert d.dropped_after[other & ~scores.confirmed].all()


def test_filters_decide_refuses_scores_for_other_content_pos() -> None:
    from sialign.filters.scores import BeadScores

    scores = BeadScores([], ("NOUN",), [], np.zeros(0, bool), *(np.zeros((2, 0)),) * 4, [[], []], np.zeros((2, 0)),
                        np.zeros((2, 0)), "words", [], np.zeros(0, bool), np.zeros(0, bool), np.zeros(0, np.int32),
                        np.zeros(0, np.int32))
    with pytest.raises(ValueError, match="compute them again"):
        preview_flips(scores, FilterParams())


def test_filters_without_reference_use_numbers_and_names() -> None:
    src = Document.from_texts(["In 1950 Obama met 3 people.", "Nothing to count here."], "en")
    tgt = Document.from_texts(["In 1950 somebody met three people.", "Rien."], "fr")
    project = Project(source=src, target=tgt, alignment=Alignment([Bead((0,), (0,)), Bead((1,), (1,))]))
    scores = score_beads(project)
    detail = scores.alpha_details[0][0]
    assert detail.method == "numbers and names" and detail.total == 3 and detail.missing == ("Obama",)
    assert scores.alpha[0, 0] == pytest.approx(2 / 3)
    assert np.isnan(scores.alpha[0, 1])  # nothing to look for: not measured, never failed
    assert np.isnan(scores.gamma).all() and np.isnan(scores.eta_chrf).all()
    beads = apply_filters(project, FilterParams(alpha_min=0.9), scores)
    assert beads[0].status == BeadStatus.DROPPED and "method: numbers and names" in beads[0].reason
    assert "Obama" in beads[0].reason
    assert beads[1].status == BeadStatus.AUTO
    # English target: the intra filter's content test is the stopword heuristic.
    assert scores.trims == [(), ()] and not scores.contentless.any()


def test_filters_eta_cosine_with_an_embedder() -> None:
    class CharEmbedder:
        name = "test-chars"
        dim = 64

        def encode(self, texts: list[str], *, progress: Any = None, should_stop: Any = None) -> np.ndarray:
            out = np.zeros((len(texts), self.dim), np.float32)
            for i, t in enumerate(texts):
                for ch in t:
                    out[i, ord(ch) % self.dim] += 1
            norms = np.linalg.norm(out, axis=1, keepdims=True)
            return out / np.where(norms > 0, norms, 1)

    src = Document.from_texts(["Good.", "Bad."], "en")
    tgt = Document.from_texts(["a good day", "zzz qqq"], "en")
    ref = Document.from_texts(["a good day", "a bad day"], "en")
    project = Project(source=src, target=tgt, reference=ref, alignment=Alignment([Bead((0,), (0,)), Bead((1,), (1,))]))
    scores = score_beads(project, embedder=CharEmbedder())
    assert scores.eta_cos[0, 0] == pytest.approx(1.0, abs=1e-5)
    assert scores.eta_cos[0, 1] < 0.5
    beads = apply_filters(project, FilterParams(eta_min=0.5), scores)
    assert beads[0].status == BeadStatus.AUTO
    assert beads[1].status == BeadStatus.DROPPED and "embedding cosine" in beads[1].reason
    assert scores.length_unit == "words" and scores.gamma[0, 1] == pytest.approx(2 / 3)


@pytest.mark.parametrize("text, lang, units", [("今日は、晴れ。", "ja", 5), ("It is, fine.", "en", 3), ("", "ja", 0)])
def test_filters_length_units(text: str, lang: str, units: int) -> None:
    assert length_units(text, lang) == units


def test_filters_empty_alignment_and_missing_alignment() -> None:
    project = Project(source=Document.from_texts(["a"], "en"), target=Document.from_texts(["b"], "en"))
    with pytest.raises(ValueError, match="align it first"):
        score_beads(project)
    project.alignment = Alignment([])
    assert apply_filters(project, FilterParams()) == []


@pytest.mark.slow
def test_filters_scores_with_statuses_follow_review(scored: tuple[Project, Any]) -> None:
    project, scores = scored
    beads = [b.copy() for b in project.alignment.beads]
    beads[1].status = BeadStatus.CONFIRMED
    beads[2].status = BeadStatus.DROPPED
    beads[2].reason = FILTER_REASON_PREFIX + "γ"
    refreshed = scores.with_statuses(beads)
    assert bool(refreshed.confirmed[1]) and bool(refreshed.filter_dropped[2])
    assert not scores.confirmed[1]  # the original is untouched
    assert 2 in preview_flips(refreshed, FilterParams())  # a filter drop that now passes comes back
    assert 1 not in preview_flips(refreshed, FilterParams(gamma_min=5.0, gamma_max=10.0))  # confirmed: never dropped
    with pytest.raises(ValueError, match="scored"):
        scores.with_statuses(beads[:-1])


@pytest.mark.slow
def test_filters_apply_honours_statuses_changed_after_scoring(scored: tuple[Project, Any]) -> None:
    project, scores = scored
    project = Project.from_dict(project.to_dict())
    project.alignment.beads[1].status = BeadStatus.CONFIRMED  # confirmed after the scores were computed
    beads = apply_filters(project, FilterParams(gamma_min=0.9), scores)
    assert beads[1].status == BeadStatus.CONFIRMED
    assert any(f.name == "gamma" and f.failed for f in beads[1].flags)


def test_newly_dropped_and_restored_are_counted_once() -> None:
    """One count of what a filter run changed, read by both of sialign filter's summary lines."""
    from sialign.core.model import Bead, BeadStatus
    from sialign.filters.apply import drop_changes

    before = [BeadStatus.AUTO, BeadStatus.DROPPED, BeadStatus.DROPPED, BeadStatus.CONFIRMED]
    beads = [Bead(src=(0,), tgt=(0,), status=BeadStatus.DROPPED), Bead(src=(1,), tgt=(1,), status=BeadStatus.AUTO),
             Bead(src=(2,), tgt=(2,), status=BeadStatus.DROPPED), Bead(src=(3,), tgt=(3,), status=BeadStatus.CONFIRMED)]
    assert drop_changes(before, beads) == (1, 1)
