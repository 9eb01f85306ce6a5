"""Why a bead is where it is: the learned bead score's features and what each adds (``sialign explain``).

The score is a sum of weights times features (log-odds that the bead is
right, docs/algorithms.md: Learned bead score), so each feature's share is
exact: ``weight × value``. A 1-0 bead (an omission) and a 0-1 bead (an
addition) are explained by their own models.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from sialign.core.errors import SialignError
from sialign.core.model import Bead, Project
from sialign.core.progress import StopFn, check_stop

if TYPE_CHECKING:
    from sialign.align.dp import WindowCosts
    from sialign.align.learned_pass import BeadFeatures, BeadScoreWeights, LearnedInputs

# What each feature means to a reader (the table and the command print these).
FEATURE_LABELS = {
    "bias": "baseline",
    "cos": "similarity of the two sides (whole runs encoded)",
    "margin": "similarity above the neighbouring segments'",
    "length": "lengths agree",
    "first_cost": "first pass's cost (encoder, character n-grams, pivot, time)",
    "typical_cos": "how similar this talk's pairs usually are",
    "lag_outside": "rendered outside the ear-voice-span window",
    "best_cos": "similarity to its best partner nearby",
    "best_margin": "best partner above the second best",
    "log_chars": "length (characters, log)",
    "merge_gain": "how much joining it to a neighbour raises that neighbour's similarity",
}


@dataclass(frozen=True)
class Contribution:
    """One feature's share in a bead's log-odds."""

    name: str
    value: float
    weight: float

    @property
    def amount(self) -> float:
        return self.value * self.weight

    @property
    def label(self) -> str:
        if self.name.startswith("shape_"):
            a, b = self.name.split("_")[1:]
            return f"shape {a}-{b}"
        return FEATURE_LABELS.get(self.name, self.name)


@dataclass(frozen=True)
class BeadExplanation:
    """The learned score of one bead.

    Attributes:
        index: the bead's 0-based position in the alignment.
        shape: ``"a-b"``.
        model: ``"bead"``, ``"omission"`` or ``"addition"``.
        log_odds: the summed contributions (plus the decision offset).
        contributions: every feature, largest share first.
        offset: the decision offset added to 1-0 / 0-1 costs.
        note: what could not be scored, or "".
        calibrated: the probability shown to a reader (see :attr:`probability`).
        flat: the shown probability is the same for every such bead (the share right on the
            training paths), whatever its score.
    """

    index: int
    shape: str
    model: str
    log_odds: float
    contributions: list[Contribution] = field(default_factory=list)
    offset: float = 0.0
    note: str = ""
    calibrated: float = math.nan
    flat: bool = False

    @property
    def probability(self) -> float:
        """P(the bead is right) by the model (an omission: that the sentence has no rendering).

        The calibrated probability (Platt scaling fitted on aligned training
        talks) where the weights carry one, else the logistic of the log-odds.
        """
        if math.isfinite(self.calibrated):
            return self.calibrated
        return 1.0 / (1.0 + math.exp(-max(min(self.log_odds, 50.0), -50.0)))

    def lines(self, top: int = 6) -> list[str]:
        if self.note:
            return [f"bead {self.index + 1} ({self.shape}): {self.note}"]
        what = {"bead": "right", "omission": "a sentence left unrendered", "addition": "a chunk that renders nothing"}
        # The shares below add up to the model's score; the probability shown is that score
        # calibrated on the aligned training talks, so a negative score can still read above 0.5.
        calibrated = math.isfinite(self.calibrated)
        source = "calibrated from the score" if calibrated and not self.flat else "score"
        out = [f"bead {self.index + 1} ({self.shape}): P({what[self.model]}) = {self.probability:.2f} "
               f"({source} {self.log_odds:+.2f}, the sum of the lines below)"]
        if calibrated and self.flat:
            # The training paths' beads of this kind were no more often right the higher they scored.
            out.append(f"  ({self.probability:.2f} is the share of such beads right on the training talks, whatever their score)")
        shown = [c for c in self.contributions if abs(c.amount) >= 0.005][:top]
        out += [f"  {c.amount:+.2f}  {c.label} ({c.value:.3g})" for c in shown]
        rest = sum(c.amount for c in self.contributions if c not in shown)
        if abs(rest) >= 0.005:
            out.append(f"  {rest:+.2f}  everything else")
        if self.offset:
            out.append(f"  {-self.offset:+.2f}  decision offset")
        return out


def bead_spans(project: Project, beads: list[Bead]) -> list[tuple[int, int, int, int]]:
    """The beads as (src_start, n_src, tgt_start, n_tgt) positions in the project's documents."""
    spans: list[tuple[int, int, int, int]] = []
    for bead in beads:
        src = [project.source.index_of(i) for i in bead.src]
        tgt = [project.target.index_of(j) for j in bead.tgt]
        i0 = src[0] if src else (spans[-1][0] + spans[-1][1] if spans else 0)
        j0 = tgt[0] if tgt else (spans[-1][2] + spans[-1][3] if spans else 0)
        spans.append((i0, len(src), j0, len(tgt)))
    return spans


def _scoring(inputs: LearnedInputs) -> tuple[BeadScoreWeights, WindowCosts, BeadFeatures]:
    """The shipped weights that scored the talk, its first-pass costs and the bead features over the whole talk."""
    from sialign.align.dp import WindowCosts
    from sialign.align.learned_pass import BeadFeatures, shipped_weights

    weights = shipped_weights(inputs.weight_set)
    if weights is None:
        raise SialignError(f"no learned bead score is installed for {inputs.weight_set}; nothing to explain")
    first = WindowCosts(inputs.model, 0, inputs.model.n_src, 0, inputs.model.n_tgt)
    return weights, first, BeadFeatures(inputs.src_spans, inputs.tgt_spans, inputs.src_chars, inputs.tgt_chars, first,
                                      inputs.typical)


def bead_confidences(
    inputs: LearnedInputs, spans: list[tuple[int, int, int, int]], should_stop: StopFn | None = None
) -> list[float | None]:
    """The probability shown for each bead of a talk's path (None where the score cannot judge it).

    The same numbers as :func:`explain_spans`' ``probability``, computed for
    all beads at once (one feature call per bead shape), so that a talk of
    thousands of beads takes a fraction of a second.
    """
    from sialign.align.learned_pass import log_odds, path_band

    weights, first, features = _scoring(inputs)
    n, m = first.n_src, first.n_tgt
    out: list[float | None] = [None] * len(spans)
    by_shape: dict[tuple[int, int], list[int]] = {}
    for k, (_i0, a, _j0, b) in enumerate(spans):
        by_shape.setdefault((a, b), []).append(k)
    band = None
    for (a, b), ks in by_shape.items():
        check_stop(should_stop)
        if a == 0 or b == 0:
            if b == 0 and weights.first_pass_omissions:
                continue
            band = band if band is not None else path_band(spans, n, m)
            side = "src" if b == 0 else "tgt"
            at = np.array([spans[k][0] if b == 0 else spans[k][2] for k in ks])
            values = features.skips(side, band)[:, at]
            w, offset = (weights.omission, weights.omission_offset) if b == 0 else (weights.addition, weights.addition_offset)
            scores = log_odds(w, values) - offset
        elif a > features.src.shape[0] or b > features.tgt.shape[0]:
            continue
        else:
            ii = np.array([spans[k][0] + a for k in ks])
            jj = np.array([spans[k][2] + b for k in ks])
            scores = log_odds(weights.match, features.match(a, b, ii, jj, first.bead_cost(a, b, ii, jj)))
        for k, score in zip(ks, scores.tolist()):
            if math.isfinite(score):
                out[k] = weights.calibrated(score, a == 0 or b == 0)
    return out


def explain_spans(inputs: LearnedInputs, spans: list[tuple[int, int, int, int]], indices: list[int] | range) -> list[BeadExplanation]:
    """Explain the beads ``spans[k]`` for ``k`` in ``indices``: a whole talk's path (src_start, n_src, tgt_start, n_tgt).

    :func:`sialign.workflows.explaining.explain_beads` calls this for the beads a reader asks about;
    :func:`bead_confidences` gives every bead's probability at once.
    """
    from sialign.align.learned_pass import BASE_MATCH_FEATURES, SKIP_FEATURES, match_features, path_band

    weights, first, features = _scoring(inputs)
    n, m = first.n_src, first.n_tgt
    band = path_band(spans, n, m)
    skips: dict[str, np.ndarray] = {}
    out = []
    for index in indices:
        i0, a, j0, b = spans[index]
        shape = f"{a}-{b}"
        if b == 0 or a == 0:
            side = "src" if b == 0 else "tgt"
            if side not in skips:
                skips[side] = features.skips(side, band)
            values = skips[side][:, i0 if b == 0 else j0]
            w = weights.omission if b == 0 else weights.addition
            offset = weights.omission_offset if b == 0 else weights.addition_offset
            parts = [Contribution(name, float(v), float(k)) for name, v, k in zip(SKIP_FEATURES, values, w)]
            model = "omission" if b == 0 else "addition"
            if b == 0 and weights.first_pass_omissions:
                out.append(BeadExplanation(index, shape, model, float("nan"), note=(
                    "an omission found by the first pass (chunked interpretations keep those; the learned "
                    "score makes no omission of its own there)")))
                continue
            parts.sort(key=lambda c: -abs(c.amount))
            log_odds = sum(c.amount for c in parts) - offset
            out.append(BeadExplanation(index, shape, model, log_odds, parts, offset, calibrated=weights.calibrated(log_odds, True),
                                       flat=not weights.shown_by_score(True)))
            continue
        if a > features.src.shape[0] or b > features.tgt.shape[0]:
            out.append(BeadExplanation(index, shape, "bead", float("nan"), note=(
                f"longer than the learned score's runs (up to {features.src.shape[0]} source and "
                f"{features.tgt.shape[0]} target segments): chosen by the first pass")))
            continue
        ii, jj = np.array([i0 + a]), np.array([j0 + b])
        first_cost = first.bead_cost(a, b, ii, jj)
        values = features.match(a, b, ii, jj, first_cost)[:, 0]
        names = match_features(inputs.units)
        parts = [Contribution(name, float(v), float(k)) for name, v, k in zip(names, values, weights.match)]
        # Shape indicators that are off say nothing about this bead.
        parts = [c for c in parts if c.name in BASE_MATCH_FEATURES or c.value]
        parts.sort(key=lambda c: -abs(c.amount))
        log_odds = sum(c.amount for c in parts)
        out.append(BeadExplanation(index, shape, "bead", log_odds, parts, calibrated=weights.calibrated(log_odds, False),
                                   flat=not weights.shown_by_score(False)))
    return out
