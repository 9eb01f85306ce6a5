"""The learned second pass: shipped weights load, omissions become 1-0 beads, and it can be turned off."""

from __future__ import annotations

import json

import numpy as np
import pytest

from sialign.align import learned_pass
from sialign.align.learned_pass import SKIP_FEATURES, BeadScoreWeights, match_features, shipped_weights
from sialign.align.pipeline import align_project
from sialign.core.model import Document, Project
from sialign.core.params import AlignParams

SOURCE = [
    "The committee met in Brussels on Monday to discuss the budget.",
    "Farmers in the south have suffered from the drought for three years.",
    "We need a common policy on water that protects the rivers.",
    "My grandmother always said that patience is the key to every door.",
    "The Commission must present its proposal before the end of the year.",
    "I thank the rapporteur for her excellent work on this report.",
]
# The interpreter leaves the fourth sentence out.
TARGET = [
    "Le comité s'est réuni lundi à Bruxelles pour discuter du budget.",
    "Les agriculteurs du sud souffrent de la sécheresse depuis trois ans.",
    "Il nous faut une politique commune de l'eau qui protège les rivières.",
    "La Commission doit présenter sa proposition avant la fin de l'année.",
    "Je remercie la rapporteure pour son excellent travail sur ce rapport.",
]


@pytest.mark.parametrize("units", ["sentences", "chunks"])
def test_learned_pass_shipped_weights_load_with_every_feature(units) -> None:
    weights = shipped_weights(units)
    assert weights is not None
    assert weights.match.shape == (len(match_features(units)),)
    assert weights.omission.shape == weights.addition.shape == (len(SKIP_FEATURES),)
    # Better similarity means more likely right: the fitted signs say so.
    data = json.loads(learned_pass.WEIGHTS_FILE.read_text(encoding="utf-8"))[units]
    assert data["match"]["cos"] + data["match"]["margin"] > 0 and data["omission"]["best_cos"] < 0
    assert ("EPTIC" if units == "sentences" else "AHC-SI") in data["fitted_on"]
    assert BeadScoreWeights.from_dict(weights.to_dict(), units).to_dict() == weights.to_dict()


def test_learned_pass_finds_an_unrendered_sentence() -> None:
    project = Project(source=Document.from_texts(SOURCE, "en"), target=Document.from_texts(TARGET, "fr"))
    on = align_project(project, AlignParams(embedder="use-multilingual", target_units="sentences")).alignment
    shapes = [(bead.src, bead.tgt) for bead in on.beads]
    assert ((3,), ()) in shapes
    assert [(s, t) for s, t in shapes if s and t] == [((0,), (0,)), ((1,), (1,)), ((2,), (2,)), ((4,), (3,)), ((5,), (4,))]


def test_learned_pass_can_be_turned_off(monkeypatch) -> None:
    calls: list[int] = []
    original = learned_pass.refine

    def counting(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(learned_pass, "refine", counting)
    project = Project(source=Document.from_texts(SOURCE, "en"), target=Document.from_texts(TARGET, "fr"))
    align_project(project, AlignParams(embedder="use-multilingual", target_units="sentences", learned_score=False))
    assert not calls
    align_project(project, AlignParams(embedder="use-multilingual", target_units="sentences"))
    assert calls
    # Chunked interpretations have weights of their own.
    calls.clear()
    align_project(project, AlignParams(embedder="use-multilingual", target_units="chunks"))
    assert calls
    # The lexical embedder keeps the first pass.
    calls.clear()
    align_project(project, AlignParams(embedder="lexical", target_units="sentences"))
    assert not calls


def test_learned_pass_chunks_keep_the_first_pass_omissions(monkeypatch) -> None:
    """Chunked talks make no omission of their own (their dev gold has none to learn from) and keep the first pass's."""
    from sialign.align import pipeline

    seen: list[tuple[list, list]] = []
    original = learned_pass.second_pass

    def spy(first, src, tgt, sc, tc, path, *args, **kwargs):
        out = original(first, src, tgt, sc, tc, path, *args, **kwargs)
        seen.append((path, out))
        return out

    monkeypatch.setattr(learned_pass, "second_pass", spy)
    source = SOURCE[:3] + SOURCE[4:]
    target = [piece for text in TARGET for piece in text.replace(", ", ",|").split("|")]
    project = Project(source=Document.from_texts(SOURCE, "en"), target=Document.from_texts(target, "fr"))
    pipeline.align_project(project, AlignParams(embedder="use-multilingual", target_units="chunks"))
    assert seen and source
    first, second = seen[0]
    first_omitted = {i for i0, a, _, b in first if b == 0 for i in range(i0, i0 + a)}
    second_omitted = {i for i0, a, _, b in second if b == 0 for i in range(i0, i0 + a)}
    assert second_omitted == first_omitted


def test_learned_pass_never_changes_the_covered_segments() -> None:
    rng = np.random.default_rng(3)
    src = [SOURCE[k] for k in rng.integers(0, len(SOURCE), size=12)]
    tgt = [TARGET[k] for k in rng.integers(0, len(TARGET), size=9)]
    project = Project(source=Document.from_texts(src, "en"), target=Document.from_texts(tgt, "fr"))
    beads = align_project(project, AlignParams(embedder="use-multilingual", target_units="sentences")).alignment.beads
    assert [i for b in beads for i in b.src] == list(range(12))
    assert [j for b in beads for j in b.tgt] == list(range(9))


def test_learned_pass_stops_when_asked() -> None:
    """Cancelling an alignment stops the second pass too (its DP checks the stop flag)."""
    from sialign.core.errors import AlignmentCancelled

    project = Project(source=Document.from_texts(SOURCE * 20, "en"), target=Document.from_texts(TARGET * 20, "fr"))
    calls = {"n": 0}
    original = learned_pass.banded_dp

    def stop() -> bool:
        return calls["n"] > 0

    def counting(*args, **kwargs):
        calls["n"] += 1
        return original(*args, **kwargs)

    learned_pass.banded_dp = counting  # type: ignore[assignment]
    try:
        with pytest.raises(AlignmentCancelled):
            align_project(project, AlignParams(embedder="use-multilingual", target_units="sentences"), should_stop=stop)
    finally:
        learned_pass.banded_dp = original  # type: ignore[assignment]
    assert calls["n"] == 1


def test_every_bead_carries_the_learned_confidence_and_an_edit_clears_it(tmp_path) -> None:
    from sialign.core.bead_edits import MergeBeads
    from sialign.core.edits import apply_edit
    from sialign.io.project_file import load_project, save_project

    project = Project(source=Document.from_texts(SOURCE, "en"), target=Document.from_texts(TARGET, "fr"))
    alignment = align_project(project, AlignParams(embedder="use-multilingual", target_units="sentences")).alignment
    confidences = [bead.confidence for bead in alignment.beads]
    assert all(c is not None and 0.0 <= c <= 1.0 for c in confidences), confidences
    # The five clean 1-1 beads are likely right; an omission is never as sure (on EPTIC dev
    # about half the 1-0 beads of the paths are right, and the calibration says so).
    matched = [c for bead, c in zip(alignment.beads, confidences) if bead.src and bead.tgt]
    omitted = [c for bead, c in zip(alignment.beads, confidences) if not bead.tgt]
    assert len(matched) == 5 and min(matched) > 0.8
    assert len(omitted) == 1 and omitted[0] < min(matched)
    # The first pass alone has no learned score to give.
    first = align_project(project, AlignParams(embedder="use-multilingual", target_units="sentences", learned_score=False))
    assert all(bead.confidence is None for bead in first.alignment.beads)
    # Kept by the project file; cleared (like the cost) on the beads a reviewer merges.
    project.alignment = alignment
    save_project(project, tmp_path / "talk.sialign")
    again = load_project(tmp_path / "talk.sialign")
    assert [b.confidence for b in again.alignment.beads] == confidences
    apply_edit(again, MergeBeads(0))
    assert again.alignment.beads[0].confidence is None and again.alignment.beads[0].cost is None
    assert [b.confidence for b in again.alignment.beads[1:]] == confidences[2:]


def test_calibration_maps_log_odds_to_the_shown_probability() -> None:
    weights = shipped_weights("sentences")
    assert weights is not None and set(weights.calibration) == {"bead", "skip"}
    raw = BeadScoreWeights.from_dict({**weights.to_dict(), "calibration": {}}, "sentences")
    assert raw.calibrated(0.0, False) == pytest.approx(0.5)  # no calibration: the logistic itself
    a, b = weights.calibration["bead"]
    assert weights.calibrated(-2.0, False) == pytest.approx(1 / (1 + np.exp(-(a * -2.0 + b))))
    # Monotone: a higher score is never shown as less likely right.
    values = [weights.calibrated(x, False) for x in np.linspace(-10, 10, 21)]
    assert values == sorted(values)


def test_bertalign_base_with_no_learned_weight_ignores_the_learned_models(monkeypatch) -> None:
    """On Bertalign's base the learned part only adjusts: at weight 0 the path is Bertalign's score alone."""
    from dataclasses import replace

    seen: list[tuple] = []
    original = learned_pass.second_pass

    def spy(first, src, tgt, sc, tc, path, weights, *args, **kwargs):
        seen.append((first, src, tgt, sc, tc, path, args))
        return original(first, src, tgt, sc, tc, path, weights, *args, **kwargs)

    monkeypatch.setattr(learned_pass, "second_pass", spy)
    project = Project(source=Document.from_texts(SOURCE, "en"), target=Document.from_texts(TARGET, "fr"))
    align_project(project, AlignParams(embedder="use-multilingual", target_units="sentences"))
    first, src, tgt, sc, tc, path, args = seen[0]
    shipped = shipped_weights("sentences")
    assert shipped is not None
    base = replace(shipped, base="bertalign", learned_weight=0.0)
    scrambled = replace(base, match=-shipped.match, omission=-shipped.omission, addition=-shipped.addition)
    on_base = original(first, src, tgt, sc, tc, path, base, *args)
    assert original(first, src, tgt, sc, tc, path, scrambled, *args) == on_base
    # Bertalign's score: the clean 1-1 beads win, and the unrendered sentence costs the skip.
    assert [(i0, a, j0, b) for i0, a, j0, b in on_base if a and b] == [(0, 1, 0, 1), (1, 1, 1, 1), (2, 1, 2, 1), (4, 1, 3, 1), (5, 1, 4, 1)]
    # With the learned part on, the scrambled models change the path.
    assert original(first, src, tgt, sc, tc, path, replace(scrambled, learned_weight=1.0), *args) != on_base
    assert BeadScoreWeights.from_dict(base.to_dict(), "sentences").to_dict() == base.to_dict()

