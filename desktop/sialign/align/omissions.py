"""What was left out: a sentence whose assigned target renders none of it becomes a 1-0 bead.

An interpreter who leaves a sentence out leaves no gap in the transcript: the
chunks go on with the next sentence's rendition. The bead aligner, paying a
1-0 cost for the sentence, prefers to give it a chunk or two of a neighbour's
rendition (the neighbours barely miss them), so the omission is absorbed and
at best dropped "for its cost". This pass reads each such bead again:

- its own cost (1 ≈ unrelated text), against the talk's typical bead;
- how much better its neighbours explain its target: the target is split
  between the bead before and the bead after at the best point, and the
  neighbours' costs with and without it are compared;
- the sentence's length, and how long its target is against the talk's
  ratio of target to source characters (an omission is given a scrap of a
  neighbour's rendition: a chunk or two, shorter than a rendition would be).

A logistic model of these (:data:`OMISSION_MODELS`, fitted on dev
interpretations whose renditions of chosen sentences were cut out:
``tests/benchmarks/cv_cut_omissions.py``) gives the probability that the
sentence was left out. Above the model's threshold the sentence becomes a
1-0 bead and its target goes to the neighbours it renders, the most likely
omission first, the neighbours read again after each.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from sialign.align.costs import BeadCostModel

Shape = tuple[int, int, int, int]  # (src_start, n_src, tgt_start, n_tgt)

# The features, in the order of a model's weights.
FEATURES = ("own_cost", "own_vs_typical", "neighbour_gain", "log_words", "length_ratio")
# A model that also reads the edge sentences of many-sentence beads (``OmissionModel.peel``) has one more:
# 1 for such a sentence, 0 for a one-sentence bead. For an edge sentence the others read: its cost against
# the bead's whole target, the same against the talk's median bead, how much better the target is explained
# by the bead's other sentences alone, its length, and the bead's target length against the talk's ratio.
PEEL_FEATURES = (*FEATURES, "peeled")


@dataclass(frozen=True)
class OmissionModel:
    """Logistic weights over :data:`FEATURES` (plus an intercept) and the probability above which a sentence is left out.

    ``pivot_threshold``: the threshold where the talk is aligned through a reference translation (its costs
    read the reference too); None: ``threshold``.
    """

    weights: tuple[float, ...]
    intercept: float
    threshold: float
    pivot_threshold: float | None = None
    peel: bool = False

    def for_pivot(self, pivot: bool) -> OmissionModel:
        """The model with the threshold of a talk aligned through its reference (``pivot``) or not."""
        if not pivot or self.pivot_threshold is None:
            return self
        return OmissionModel(self.weights, self.intercept, self.pivot_threshold, peel=self.peel)

    def probability(self, features: Sequence[float]) -> float:
        if len(features) != len(self.weights):
            raise ValueError(f"the omission model has {len(self.weights)} weights for {len(features)} features")
        z = self.intercept + sum(w * x for w, x in zip(self.weights, features))
        return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))


# By weight set (``learned_pass.WEIGHT_SETS``), fitted by tests/benchmarks/cv_cut_omissions.py on every dev
# document with cut renditions; the figures, cross-validated leave one document out, are in
# tests/benchmarks/RESULTS.md (Omissions). Interpreted speeches in sentences (EPTIC) also read the edge
# sentences of many-sentence beads (``peel``), at a threshold that costs their real interpretations no strict
# F1. A written translation (the ``sentences`` set: books) has no decision: its alignment stays the second pass's.
OMISSION_MODELS: dict[str, OmissionModel] = {
    "chunks": OmissionModel(weights=(5.8547, 3.2044, 12.5472, -1.8144, -3.3944), intercept=-2.0909, threshold=0.55,
                            pivot_threshold=0.7),
    "interpretation": OmissionModel(weights=(5.9477, 0.0765, 7.6947, 0.8095, -2.2636, 1.1936), intercept=-9.854,
                                    threshold=0.75, peel=True),
}


@dataclass(frozen=True)
class Candidate:
    """A sentence that may be an omission: a one-sentence bead, or the edge sentence of a many-sentence one.

    Attributes:
        index: the bead's position in the shapes.
        features: the values of :data:`FEATURES` (:data:`PEEL_FEATURES` for a model that peels).
        split: how many of a one-sentence bead's target segments go to the bead before (the rest to the bead after).
        sentence: the source position of the sentence.
        peel: ``"first"`` or ``"last"``: the sentence is that edge of a many-sentence bead, whose other
            sentences keep the whole target; "" for a one-sentence bead.
    """

    index: int
    features: tuple[float, ...]
    split: int
    sentence: int = -1
    peel: str = ""


class _Costs:
    """The cost model's text cost of single beads, memoised (a bead is read again after each change).

    Times are not read: the decision holds on timelines it was not fitted on (a recording's offset, a
    transcript timed by a speech model), and on the dev talks they found no omission the text missed.
    """

    def __init__(self, model: BeadCostModel) -> None:
        self.model = model
        self._memo: dict[tuple[int, int, int, int], float] = {}
        # Characters per segment, and the talk's log ratio of target to source characters.
        self.src_chars = np.asarray(model.src_lengths if model.src_lengths is not None else np.zeros(model.n_src), dtype=np.float64)
        self.tgt_chars = np.asarray(model.tgt_lengths if model.tgt_lengths is not None else np.zeros(model.n_tgt), dtype=np.float64)
        self.log_ratio = math.log((self.tgt_chars.sum() + 1.0) / (self.src_chars.sum() + 1.0))

    def length_ratio(self, shape: Shape) -> float:
        """log((target characters + 10) / (source characters + 10)) of ``shape`` against the talk's ratio (0: typical)."""
        i0, a, j0, b = shape
        src = float(self.src_chars[i0:i0 + a].sum())
        tgt = float(self.tgt_chars[j0:j0 + b].sum())
        return math.log((tgt + 10.0) / (src + 10.0)) - self.log_ratio

    def of(self, shape: Shape) -> float:
        """The normalised text cost of ``shape`` (1 ≈ unrelated); inf where the model cannot judge it (longer than its runs)."""
        i0, a, j0, b = shape
        if a < 1 or b < 1 or a > self.model.max_src or b > self.model.max_tgt:
            return math.inf
        if shape not in self._memo:
            self._memo[shape] = float(self.model.text_cost(a, b, np.array([i0 + a]), np.array([j0 + b]))[0])
        return self._memo[shape]


def _neighbour(shapes: Sequence[Shape], k: int, step: int) -> int | None:
    """The nearest bead before (step -1) or after (+1) bead ``k`` that has both sides, with no target between."""
    q = k + step
    while 0 <= q < len(shapes):
        if shapes[q][1] and shapes[q][3]:
            return q
        if shapes[q][3]:  # an addition stands between: the target would not stay in order
            return None
        q += step
    return None


def candidate(costs: _Costs, shapes: Sequence[Shape], k: int, typical: float, words: Sequence[int]) -> Candidate | None:
    """The features of bead ``k`` as an omission, or None when it is no one-sentence bead with a target.

    ``typical``: the talk's median cost of one-sentence beads; ``words``: each source sentence's word count.
    """
    i0, a, j0, b = shapes[k]
    if a != 1 or b < 1:
        return None
    own = costs.of(shapes[k])
    if not math.isfinite(own):
        return None
    before, after = _neighbour(shapes, k, -1), _neighbour(shapes, k, +1)
    best_gain = -math.inf
    for split in range(b + 1):
        gain = 0.0
        if split:
            if before is None:
                continue
            p = shapes[before]
            old = costs.of(p)
            new = costs.of((p[0], p[1], p[2], p[3] + split))
            gain += old - new
        if split < b:
            if after is None:
                continue
            q = shapes[after]
            old = costs.of(q)
            new = costs.of((q[0], q[1], j0 + split, q[3] + b - split))
            gain += old - new
        if math.isfinite(gain) and gain > best_gain:
            best_gain = gain
    if not math.isfinite(best_gain):
        return None
    features = (own, own - typical, best_gain, math.log1p(words[i0]), costs.length_ratio(shapes[k]))
    return Candidate(k, features, _chunk_split(costs, shapes, k, before, after), i0)


def peel_candidates(costs: _Costs, shapes: Sequence[Shape], k: int, typical: float, words: Sequence[int]) -> list[Candidate]:
    """The first and the last sentence of bead ``k`` as omissions, when it has several sentences and a target.

    An interpreter who leaves a sentence out of sentence-long renditions leaves its neighbour's rendition
    to cover two source sentences: the aligner makes a 2-1 bead. Its features are :data:`PEEL_FEATURES`.
    """
    i0, a, j0, b = shapes[k]
    if a < 2 or b < 1:
        return []
    whole = costs.of(shapes[k])
    if not math.isfinite(whole):
        return []
    found = []
    for edge, i, rest in (("first", i0, (i0 + 1, a - 1, j0, b)), ("last", i0 + a - 1, (i0, a - 1, j0, b))):
        own, kept = costs.of((i, 1, j0, b)), costs.of(rest)
        if not (math.isfinite(own) and math.isfinite(kept)):
            continue
        features = (own, own - typical, whole - kept, math.log1p(words[i]), costs.length_ratio(shapes[k]), 1.0)
        found.append(Candidate(k, features, 0, i, edge))
    return found


def _all_candidates(costs: _Costs, shapes: Sequence[Shape], typical: float, words: Sequence[int], peel: bool) -> list[Candidate]:
    found: list[Candidate] = []
    for k in range(len(shapes)):
        single = candidate(costs, shapes, k, typical, words)
        if single is not None:
            found.append(Candidate(single.index, (*single.features, 0.0), single.split, single.sentence) if peel else single)
        if peel:
            found.extend(peel_candidates(costs, shapes, k, typical, words))
    return found


def _chunk_split(costs: _Costs, shapes: Sequence[Shape], k: int, before: int | None, after: int | None) -> int:
    """Where bead ``k``'s target is cut between its neighbours: each segment goes to the sentence it renders.

    Of the cuts that keep the target in order (a head to the sentence before, the tail to the one after),
    the one whose segments cost least, each against the neighbouring sentence it goes to (1-1). A segment
    of a neighbour's rendition (だんだん、 before "Slowly I learned…") reads as that sentence's.
    """
    i0, _a, j0, b = shapes[k]
    lo = 0 if after is not None else b
    hi = b if before is not None else 0
    if lo >= hi:
        return lo
    prev_i = shapes[before][0] + shapes[before][1] - 1 if before is not None else None
    next_i = shapes[after][0] if after is not None else None

    def cost(i: int | None, j: int) -> float:
        value = costs.of((i, 1, j, 1)) if i is not None else math.inf
        return value if math.isfinite(value) else 2.0

    to_prev = [cost(prev_i, j0 + c) for c in range(b)]
    to_next = [cost(next_i, j0 + c) for c in range(b)]
    totals = {s: sum(to_prev[:s]) + sum(to_next[s:]) for s in range(lo, hi + 1)}
    return min(totals, key=lambda s: (totals[s], s))


def omit(shapes: Sequence[Shape], found: Candidate) -> list[Shape]:
    """``shapes`` with the candidate's sentence a 1-0 bead: a one-sentence bead's target given to its neighbours,
    an edge sentence taken out of its bead (the others keep the target)."""
    out = list(shapes)
    k = found.index
    i0, a, j0, b = out[k]
    if found.peel == "first":
        out[k:k + 1] = [(i0, 1, j0, 0), (i0 + 1, a - 1, j0, b)]
        return out
    if found.peel == "last":
        out[k:k + 1] = [(i0, a - 1, j0, b), (i0 + a - 1, 1, j0 + b, 0)]
        return out
    before, after = _neighbour(out, k, -1), _neighbour(out, k, +1)
    if found.split and before is not None:
        p = out[before]
        out[before] = (p[0], p[1], p[2], p[3] + found.split)
    if found.split < b and after is not None:
        q = out[after]
        out[after] = (q[0], q[1], j0 + found.split, q[3] + b - found.split)
    out[k] = (i0, a, j0 + found.split, 0)
    return out


def typical_cost(costs: _Costs, shapes: Sequence[Shape]) -> float:
    """The median text cost of the one-sentence beads with a target (the talk's and the encoder's typical bead)."""
    values = [c for c in (costs.of(s) for s in shapes if s[1] == 1 and s[3]) if math.isfinite(c)]
    return float(np.median(values)) if values else 0.5


def candidates(model: BeadCostModel, shapes: Sequence[Shape], words: Sequence[int], peel: bool = False) -> list[Candidate]:
    """Every one-sentence bead of ``shapes`` with its features, and with ``peel`` the edge sentences of the
    many-sentence beads (what the benchmark fits the models on)."""
    costs = _Costs(model)
    return _all_candidates(costs, shapes, typical_cost(costs, shapes), words, peel)


def reassign_unrendered(model: BeadCostModel, shapes: Sequence[Shape], words: Sequence[int],
                        decision: OmissionModel) -> tuple[list[Shape], dict[int, float]]:
    """Make a 1-0 bead of every sentence ``decision`` finds left out; its target goes to the neighbours.

    The most likely omission first; its neighbours are then read again (their
    targets changed), so two sentences left out in a row are found one after
    the other.

    Args:
        model: the cost model the shapes came from.
        shapes: (src_start, n_src, tgt_start, n_tgt) beads in order.
        words: word count of each source sentence, shape (n_src,).
        decision: the omission model and its threshold.

    Returns:
        The new shapes and, for each source sentence made a 1-0 bead, the probability that it was left out.
    """
    costs = _Costs(model)
    out = list(shapes)
    typical = typical_cost(costs, out)
    found: dict[int, float] = {}
    while True:
        best: tuple[float, Candidate] | None = None
        for c in _all_candidates(costs, out, typical, words, decision.peel):
            p = decision.probability(c.features)
            if p >= decision.threshold and (best is None or p > best[0]):
                best = (p, c)
        if best is None:
            return out, found
        out = omit(out, best[1])
        found[best[1].sentence] = best[0]
