"""Doubt: a bead-quality model that learns from the reviewer (Chaudhary et al., "The ARIEL-CMU Systems for LoReHLT18", §VII; docs/algorithms.md: Filters).

The ARIEL-CMU filter trained a classifier on clean sentence pairs against
copies corrupted by swapping in a neighbour, and scored noisy data with it.
Here the clean pairs are the beads the reviewer confirmed (while few are,
also the talk's unreviewed beads: the aligner is right about most of them,
and their corruptions are surely wrong) and the corruptions are made from them at
their place in the talk: one side swapped with a neighbour's, a segment moved
across a boundary, a chunk dropped or added. Beads the reviewer dropped, and
beads the aligner proposed where the reviewer has since confirmed something
else, are negatives too. A logistic regression over cheap per-bead features
then gives every bead its *doubt*: the probability that it is wrong.

Features are computed from positions only (never from ``Bead.cost``, which
may be stale after an edit), so a synthetic bead is described exactly like a
real one:

- the calibrated cost of the aligner's combined signal, of the direct
  source ↔ target signal and of the pivot reference ↔ target signal;
- the cost margin over the cheapest other bead shape sharing the bead's
  start, and sharing its end; how little the aligner's cost rises when a
  target boundary moves by one chunk (most wrong beads are one chunk off);
- local agreement in the similarity matrix: do the bead's chunks prefer its
  own sentences to the neighbouring ones, and the reverse; the similarity
  gap at its first and last chunk; whether the chunk just outside the bead
  prefers the bead's sentence to its own neighbour;
- shape (1-0, 0-1, source count, target count), the length ratio's
  deviation from the talk's, γ (length ratio to the reference) and a
  character n-gram F-score against the reference (η by chrF);
- ear-voice span and its deviation from the talk median, position in the talk;
- when the talk has a sentence encoder and a lexical pivot, the pivot's
  cost, boundary rise and local agreement once more through the encoder
  (reference and interpretation compared by meaning: short chunks the
  lexical pivot cannot place, the encoder often can).

The talk's own model's log-odds are then combined with four features of
each bead among its neighbours (:func:`~sialign.filters.doubt_features.context_features`:
how much the cost of the bead and its neighbour rises when the boundary
between them moves by one segment, relative to the talk's typical rise, for
the aligner's cost and for the direct signal; the bead's cost minus its
neighbours' mean and minus the talk's median) by a small logistic regression
fitted on the gold of the dev data and shipped in ``doubt_model.json``
(``tests/benchmarks/cv_doubt.py`` fits it and reports it leave-one-document-out).
A talk aligned with chunk targets (``alignment.info["target_units"]``) gets
the file's ``chunks`` combination instead (:func:`combiner_for`): the same
features, trained on chunks moved across a boundary in the chunk talks' own
alignments, its intercept set on their gold (``cv_doubt_perturbed.py``).
Most wrong beads are one chunk off at a boundary the learned second pass or
a coin toss placed: features of one bead alone, and absolute scores, did
not carry over to unseen talks.

α needs GiNZA for every synthetic bead and is left out; its cheap relatives
(η, γ) are in. Training takes a few milliseconds (Newton steps on a few
thousand rows); the features of a talk take well under a second once its
vectors are cached (the aligner's own, memoised in the process).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from sialign.core.file_kind import PROJECT_SUFFIX
from sialign.core.model import Bead, BeadStatus, Project
from sialign.core.progress import ProgressFn, StopFn, check_stop, stage
from sialign.filters.doubt_decisions import apply_doubt
from sialign.filters.doubt_features import (
    CONTEXT_FEATURE_NAMES,
    FEATURE_NAMES,
    N_FEATURES,
    Span,
    TalkContext,
    bead_spans,
    context_features,
    span_features,
    talk_context,
)

# Below this many confirmed beads the talk's unreviewed beads join the positives.
MIN_CONFIRMED = 20
# Share of the unreviewed two-sided beads (the cheapest first) taken as positives
# then. All of them: the aligner is right about most beads, and on the dev data
# (tests/benchmarks/RESULTS_learned.md) the cheapest 30% made a worse model —
# it learned "cheap is good", which the cost already says.
CONFIDENT_SHARE = 1.0
# Corruptions per positive bead (drawn from the feasible ones); 12 did better than 3 or 6.
NEGATIVES_PER_POSITIVE = 12
# At most this many positives get corruptions (a random sample, confirmed beads
# first), so a 5,000-bead talk retrains as fast as a 500-bead one.
MAX_CORRUPTED = 500


# ---------------------------------------------------------------- training data
def make_negatives(
    spans: Sequence[Span],
    positives: Iterable[int],
    n_src: int,
    n_tgt: int,
    *,
    max_src: int = 4,
    max_tgt: int = 12,
    per_positive: int = 6,
    rng: np.random.Generator | None = None,
) -> list[tuple[Span, str, int]]:
    """Corrupted copies of the positive beads, at their place in the talk (the ARIEL-CMU cleaning classifier, §VII).

    Kinds: ``swap_prev`` / ``swap_next`` (the source with a neighbour's
    target), ``tgt_add_prev`` / ``tgt_add_next`` (a chunk moved in across
    the boundary), ``tgt_drop_first`` / ``tgt_drop_last`` (a chunk moved
    out), and the same four on the source side (``src_...``).

    Args:
        spans: (i0, a, j0, b) of every bead of the talk, in order.
        positives: indices into ``spans`` of the clean beads.
        n_src, n_tgt: segments per side (corruptions stay inside the talk).
        max_src, max_tgt: largest bead sides the aligner makes.
        per_positive: at most this many corruptions per positive, drawn at random.
        rng: for the draw (seeded default).

    Returns:
        ``(span, kind, positive index)`` triples; never a span of the talk's
        own beads, never empty on both sides, no duplicates.
    """
    rng = rng or np.random.default_rng(0)
    existing = set(spans)
    seen: set[Span] = set()
    out: list[tuple[Span, str, int]] = []
    for k in positives:
        i0, a, j0, b = spans[k]
        cands: list[tuple[Span, str]] = []
        for d, kind in ((-1, "swap_prev"), (1, "swap_next")):
            if 0 <= k + d < len(spans):
                _, _, nj0, nb = spans[k + d]
                if nb and (a or b) and (nj0, nb) != (j0, b):
                    cands.append(((i0, a, nj0, nb), kind))
        if b + 1 <= max_tgt:
            if j0 > 0:
                cands.append(((i0, a, j0 - 1, b + 1), "tgt_add_prev"))
            if j0 + b < n_tgt:
                cands.append(((i0, a, j0, b + 1), "tgt_add_next"))
        if b >= 1 and (a or b > 1):
            cands.append(((i0, a, j0 + 1, b - 1), "tgt_drop_first"))
            cands.append(((i0, a, j0, b - 1), "tgt_drop_last"))
        if a + 1 <= max_src:
            if i0 > 0:
                cands.append(((i0 - 1, a + 1, j0, b), "src_add_prev"))
            if i0 + a < n_src:
                cands.append(((i0, a + 1, j0, b), "src_add_next"))
        if a >= 1 and (b or a > 1):
            cands.append(((i0 + 1, a - 1, j0, b), "src_drop_first"))
            cands.append(((i0, a - 1, j0, b), "src_drop_last"))
        cands = [(s, kind) for s, kind in cands if s not in existing and s not in seen and (s[1] or s[3])]
        if len(cands) > per_positive:
            pick = rng.choice(len(cands), size=per_positive, replace=False)
            cands = [cands[p] for p in sorted(pick)]
        for s, kind in cands:
            seen.add(s)
            out.append((s, kind, k))
    return out


def rejected_proposals(project: Project) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Beads the aligner proposed where the reviewer has since confirmed something else.

    Read from the edit history (every alignment run and filter pass records
    its beads): a proposed bead whose segments all lie in confirmed beads
    now, but which is not one of them, was corrected by the reviewer.

    Returns:
        (src ids, tgt ids) of each such bead, once.
    """
    alignment = project.alignment
    if alignment is None or not project.history:
        return []
    confirmed_src: set[int] = set()
    confirmed_tgt: set[int] = set()
    current: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
    for bead in alignment.beads:
        if bead.status is BeadStatus.CONFIRMED:
            confirmed_src.update(bead.src)
            confirmed_tgt.update(bead.tgt)
            current.add((bead.src, bead.tgt))
    if not current:
        return []
    found: dict[tuple[tuple[int, ...], tuple[int, ...]], None] = {}

    def visit(entry: Any) -> None:
        if not isinstance(entry, dict):
            return
        kind = entry.get("type")
        if kind == "Batch":
            for sub in entry.get("edits", []):
                visit(sub)
            return
        beads: list[Any] = []
        if kind == "ReplaceAlignment" and isinstance(entry.get("alignment"), dict):
            beads = entry["alignment"].get("beads", [])
        elif kind == "ReplaceBeads":
            beads = entry.get("beads", [])
        for d in beads:
            if not isinstance(d, dict):
                continue
            key = (tuple(d.get("src", ())), tuple(d.get("tgt", ())))
            if not key[0] and not key[1]:
                continue
            if key in current or not set(key[0]) <= confirmed_src or not set(key[1]) <= confirmed_tgt:
                continue
            found[key] = None

    for entry in project.history:
        visit(entry)
    return list(found)


def _span_of_ids(project: Project, src: tuple[int, ...], tgt: tuple[int, ...]) -> Span | None:
    """Position of a bead given by ids, or None when its ids are gone or no longer contiguous."""
    try:
        src_pos = [project.source.index_of(i) for i in src]
        tgt_pos = [project.target.index_of(i) for i in tgt]
    except KeyError:
        return None
    for pos in (src_pos, tgt_pos):
        if pos and pos != list(range(pos[0], pos[0] + len(pos))):
            return None
    if not src_pos or not tgt_pos:
        return None  # an empty side has no position of its own to describe
    return (src_pos[0], len(src_pos), tgt_pos[0], len(tgt_pos))


@dataclass
class TrainingSet:
    """Examples for the doubt model.

    Attributes:
        X: (k, N_FEATURES) features.
        y: (k,) 1 for a wrong bead, 0 for a good one.
        kinds: where each example came from (``confirmed``, ``unreviewed``,
            ``reviewer_drop``, ``rejected``, or a corruption kind).
    """

    X: np.ndarray
    y: np.ndarray
    kinds: list[str]

    @classmethod
    def empty(cls) -> TrainingSet:
        return cls(np.zeros((0, N_FEATURES)), np.zeros(0), [])

    def __add__(self, other: TrainingSet) -> TrainingSet:
        return TrainingSet(np.vstack([self.X, other.X]), np.concatenate([self.y, other.y]), self.kinds + other.kinds)

    @property
    def counts(self) -> tuple[int, int]:
        """(good, wrong) examples."""
        wrong = int(self.y.sum())
        return len(self.y) - wrong, wrong


def training_set(
    project: Project,
    ctx: TalkContext,
    spans: Sequence[Span] | None = None,
    *,
    with_unreviewed: bool = True,
    params: Any = None,
    rng: np.random.Generator | None = None,
    should_stop: StopFn | None = None,
) -> TrainingSet:
    """Positives (confirmed beads; while few are confirmed, the unreviewed ones too) and negatives.

    Args:
        project: the talk with its alignment and history.
        ctx: its :func:`talk_context`.
        spans: :func:`bead_spans` of the alignment (computed when None).
        with_unreviewed: while fewer than :data:`MIN_CONFIRMED` beads are confirmed,
            add the unreviewed two-sided beads as positives (the cheapest
            :data:`CONFIDENT_SHARE` of them): most of them are right, and
            their corruptions are surely wrong.
    """
    from sialign.core.params import AlignParams

    alignment = project.alignment
    if alignment is None or not alignment.beads:
        return TrainingSet.empty()
    params = params or project.params or AlignParams()
    spans = list(spans) if spans is not None else bead_spans(project)
    beads = alignment.beads
    positives = [k for k, b in enumerate(beads) if b.status is BeadStatus.CONFIRMED]
    kinds = ["confirmed"] * len(positives)
    if with_unreviewed and len(positives) < MIN_CONFIRMED:
        candidates = [k for k, b in enumerate(beads) if b.unreviewed and b.src and b.tgt]
        if candidates:
            costs = span_features(ctx, [spans[k] for k in candidates], should_stop)[:, 0]
            take = max(int(round(CONFIDENT_SHARE * len(candidates))), min(len(candidates), MIN_CONFIRMED - len(positives)))
            chosen = [candidates[p] for p in np.argsort(costs, kind="stable")[:take]]
            positives += chosen
            kinds += ["unreviewed"] * len(chosen)
    rng = rng or np.random.default_rng(0)
    corrupted = positives
    if len(positives) > MAX_CORRUPTED:
        confirmed = positives[: kinds.count("confirmed")][:MAX_CORRUPTED]
        rest = positives[len(confirmed) :]
        extra: list[int] = (rng.choice(len(rest), size=MAX_CORRUPTED - len(confirmed), replace=False).tolist()
                            if len(confirmed) < MAX_CORRUPTED else [])
        corrupted = confirmed + [rest[p] for p in sorted(extra)]
    negatives = make_negatives(spans, corrupted, ctx.n_src, ctx.n_tgt, max_src=params.max_src,
                               max_tgt=params.max_tgt, per_positive=NEGATIVES_PER_POSITIVE, rng=rng)
    neg_spans = [s for s, _, _ in negatives]
    neg_kinds = [kind for _, kind, _ in negatives]
    dropped = [k for k, b in enumerate(beads) if b.reviewer_dropped]
    neg_spans += [spans[k] for k in dropped]
    neg_kinds += ["reviewer_drop"] * len(dropped)
    for src, tgt in rejected_proposals(project):
        span = _span_of_ids(project, src, tgt)
        if span is not None:
            neg_spans.append(span)
            neg_kinds.append("rejected")
    X = span_features(ctx, [spans[k] for k in positives] + neg_spans, should_stop)
    y = np.concatenate([np.zeros(len(positives)), np.ones(len(neg_spans))])
    return TrainingSet(X, y, kinds + neg_kinds)


# ---------------------------------------------------------------- the model
@dataclass
class DoubtModel:
    """A logistic regression over standardised features.

    Attributes:
        mean, scale: (N_FEATURES,) standardisation.
        coef: (N_FEATURES,) weights; ``intercept``: bias.
        feature_names: the columns, for reports.
    """

    mean: np.ndarray
    scale: np.ndarray
    coef: np.ndarray
    intercept: float
    feature_names: tuple[str, ...] = FEATURE_NAMES

    def decision(self, X: np.ndarray) -> np.ndarray:
        """Log-odds of "wrong" for (k, N_FEATURES) features: (k,)."""
        return ((X - self.mean) / self.scale) @ self.coef + self.intercept

    def predict(self, X: np.ndarray) -> np.ndarray:
        """Probability that each bead is wrong: (k,) in 0..1."""
        z = np.clip(self.decision(X), -35.0, 35.0)
        return 1.0 / (1.0 + np.exp(-z))

    def weights(self) -> dict[str, float]:
        """Standardised weight per feature (positive: more doubt)."""
        return {name: round(float(w), 3) for name, w in zip(self.feature_names, self.coef)}


def fit_logistic(X: np.ndarray, y: np.ndarray, *, l2: float = 1.0, iterations: int = 30) -> DoubtModel:
    """L2-regularised logistic regression by Newton steps, classes weighted to balance.

    Args:
        X: (k, d) features.
        y: (k,) labels, 1 = wrong.
        l2: ridge on the standardised weights (not the intercept).

    Returns:
        The fitted :class:`DoubtModel`. With only one class it predicts that
        class's share (no weights).
    """
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    d = X.shape[1]
    mean = X.mean(axis=0) if len(X) else np.zeros(d)
    scale = X.std(axis=0) if len(X) else np.ones(d)
    scale = np.where(scale > 1e-9, scale, 1.0)
    pos = y.sum()
    neg = len(y) - pos
    if pos == 0 or neg == 0:
        share = 0.5 if not len(y) else float(np.clip(pos / len(y), 0.01, 0.99))
        return DoubtModel(mean, scale, np.zeros(d), float(np.log(share / (1 - share))))
    Z = np.hstack([(X - mean) / scale, np.ones((len(X), 1))])
    # Balanced weights: each class counts as half of the examples.
    w = np.where(y > 0, 0.5 * len(y) / pos, 0.5 * len(y) / neg)
    beta = np.zeros(d + 1)
    ridge = np.full(d + 1, l2)
    ridge[-1] = 0.0
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-np.clip(Z @ beta, -35.0, 35.0)))
        grad = Z.T @ (w * (p - y)) + ridge * beta
        hess = (Z * (w * p * (1 - p))[:, None]).T @ Z + np.diag(ridge + 1e-9)
        step = np.linalg.solve(hess, grad)
        beta -= step
        if np.max(np.abs(step)) < 1e-6:
            break
    return DoubtModel(mean, scale, beta[:-1], float(beta[-1]))


# ---------------------------------------------------------------- the shipped combination
# The talk's own model is combined with features of each bead among its
# neighbours by a logistic regression fitted on the gold of the dev data
# (tests/benchmarks/cv_doubt.py, which also reports it cross-validated).
COMBINER_FILE = Path(__file__).with_name("doubt_model.json")
COMBINED_FEATURES: tuple[str, ...] = ("self_log_odds",) + CONTEXT_FEATURE_NAMES
# The talk's own model's log-odds are clipped here (probabilities 1e-6 .. 1 - 1e-6).
SELF_LOG_ODDS_CLIP = 13.8


def combined_features(self_log_odds: np.ndarray, ctx: TalkContext, spans: Sequence[Span]) -> np.ndarray:
    """What the shipped combination reads for the beads of an alignment: (len(spans), len(COMBINED_FEATURES)).

    Args:
        self_log_odds: (len(spans),) the talk's own model's log-odds of each bead.
        ctx: the talk.
        spans: the alignment's beads, in order.
    """
    own = np.clip(np.asarray(self_log_odds, dtype=np.float64), -SELF_LOG_ODDS_CLIP, SELF_LOG_ODDS_CLIP)
    return np.column_stack([own, context_features(ctx, spans)])


def combiner_from_dict(d: dict[str, Any]) -> DoubtModel:
    """A combination model from its JSON form (``doubt_model.json``).

    Raises:
        ValueError: its features are not :data:`COMBINED_FEATURES` (the file
            and the code that computes the features disagree) or a field is
            missing or of the wrong length.
    """
    names = tuple(d["features"])
    if names != COMBINED_FEATURES:
        raise ValueError(f"its features are {list(names)}, the code computes {list(COMBINED_FEATURES)}")
    arrays = [np.asarray(d[key], dtype=np.float64) for key in ("mean", "scale", "coef")]
    if any(x.shape != (len(names),) for x in arrays):
        raise ValueError(f"mean, scale and coef must each hold {len(names)} numbers")
    return DoubtModel(arrays[0], arrays[1], arrays[2], float(d["intercept"]), names)


def combiner_to_dict(model: DoubtModel, **info: Any) -> dict[str, Any]:
    """The JSON form of a combination model (``info``: what it was fitted on, its figures)."""
    return {"features": list(model.feature_names), "mean": [round(float(x), 6) for x in model.mean],
            "scale": [round(float(x), 6) for x in model.scale], "coef": [round(float(x), 6) for x in model.coef],
            "intercept": round(float(model.intercept), 6), **info}


def fit_combiner(X: np.ndarray, y: np.ndarray, *, l2: float = 1.0) -> DoubtModel:
    """The combination fitted on (k, len(COMBINED_FEATURES)) :func:`combined_features` and gold labels (1 = wrong).

    Fitted with the classes balanced, then moved back to their real shares
    (the intercept plus the log of wrong over right beads): the doubt is a
    probability at the dev data's share of wrong beads, so that a threshold
    such as 0.8 means what it says.
    """
    import dataclasses

    model = fit_logistic(X, y, l2=l2)
    wrong = float(np.sum(y))
    if 0 < wrong < len(y):
        model.intercept += float(np.log(wrong / (len(y) - wrong)))
    return dataclasses.replace(model, feature_names=COMBINED_FEATURES)


# A talk aligned with chunk targets (an interpreter's chunks, ``Alignment.info["target_units"]``) gets the
# combination stored under this key of ``doubt_model.json``: trained on perturbed chunk boundaries of the chunk talks
# (tests/benchmarks/cv_doubt_perturbed.py --write-model). A sentence talk, and an alignment that does not record its
# units (a project from before they were recorded), get the file's main combination.
CHUNK_COMBINER_KEY = "chunks"


@lru_cache(maxsize=1)
def shipped_combiners() -> dict[str, DoubtModel]:
    """The combinations shipped with the package (``doubt_model.json`` beside this module), by target units.

    ``""`` is the main one (sentence talks, and talks whose units are not
    known); ``"chunks"`` the chunk talks' one, where the file has it.

    Raises:
        SialignError: the file is missing or does not match the code (a broken installation).
    """
    from sialign.core.errors import SialignError

    try:
        stored = json.loads(COMBINER_FILE.read_text(encoding="utf-8"))
        found = {"": combiner_from_dict(stored)}
        if CHUNK_COMBINER_KEY in stored:
            found[CHUNK_COMBINER_KEY] = combiner_from_dict(stored[CHUNK_COMBINER_KEY])
        return found
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise SialignError(f"the doubt model {COMBINER_FILE} cannot be used ({exc}); reinstall SI Aligner") from exc


def shipped_combiner() -> DoubtModel:
    """The main combination shipped with the package (sentence talks, and talks whose units are not known).

    Raises:
        SialignError: see :func:`shipped_combiners`.
    """
    return shipped_combiners()[""]


def combiner_for(project: Project) -> DoubtModel:
    """The shipped combination for the project's talk: the chunk talks' one when its alignment was made with chunk
    targets (``alignment.info["target_units"]``) and the file has one, else the main one.

    Raises:
        SialignError: see :func:`shipped_combiners`.
    """
    units = project.alignment.info.get("target_units") if project.alignment is not None else None
    combiners = shipped_combiners()
    return combiners.get(CHUNK_COMBINER_KEY, combiners[""]) if units == CHUNK_COMBINER_KEY else combiners[""]


@dataclass
class DoubtResult:
    """Doubt of every bead of one state of a project.

    Attributes:
        signature: (src, tgt) ids of each bead scored.
        doubt: (n,) probability each bead is wrong: the talk's own model
            combined with the beads' neighbours (:func:`combiner_for`).
        model: the talk's own model (trained on its beads and corruptions).
        counts: (good, wrong) training examples (own talk and others).
        source: what the positives were (``"confirmed"``, ``"unreviewed"``,
            ``"confirmed + unreviewed"``, plus ``" + other talks"``).
        seconds: ``features`` (context and features) and ``training``.
        own_doubt: (n,) the talk's own model's probabilities, before the combination.
    """

    signature: list[tuple[tuple[int, ...], tuple[int, ...]]]
    doubt: np.ndarray
    model: DoubtModel
    counts: tuple[int, int]
    source: str
    seconds: dict[str, float] = field(default_factory=dict)
    own_doubt: np.ndarray | None = None

    def matches(self, beads: Sequence[Bead]) -> bool:
        return [(b.src, b.tgt) for b in beads] == self.signature

    def by_bead(self) -> dict[tuple[tuple[int, ...], tuple[int, ...]], float]:
        """Doubt keyed by (src ids, tgt ids): survives edits elsewhere in the talk."""
        return {key: float(v) for key, v in zip(self.signature, self.doubt)}


def compute_doubt(
    project: Project,
    *,
    extra: TrainingSet | None = None,
    context: TalkContext | None = None,
    embedder: Any = None,
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
    seed: int = 0,
    combiner: DoubtModel | None = None,
) -> DoubtResult:
    """Train the doubt model on the talk (and ``extra`` examples from other talks) and score every bead.

    The talk's own model's log-odds and each bead's place among its
    neighbours (:func:`combined_features`) are then combined by ``combiner``.

    Args:
        project: a project with an alignment.
        extra: examples from other talks (:func:`training_examples_from`).
        context: a :func:`talk_context` of the project's current documents, to reuse.
        embedder: see :func:`talk_context`.
        seed: of the corruption draw (results are reproducible).
        combiner: the combination (default :func:`combiner_for` the project:
            by its target units; the benchmark passes one fitted without the talk).

    Raises:
        ValueError: the project has no alignment.
        AlignmentCancelled: when ``should_stop()`` says so.
    """
    if project.alignment is None:
        raise ValueError("the project has no alignment to score; align it first")
    progress = progress or (lambda f, m: None)
    started = time.perf_counter()
    ctx = context or talk_context(project, embedder=embedder, progress=stage(progress, 0.0, 0.6), should_stop=should_stop)
    check_stop(should_stop)
    progress(0.6, "Describing the beads")
    spans = bead_spans(project)
    features = span_features(ctx, spans, should_stop)
    check_stop(should_stop)
    feature_s = time.perf_counter() - started
    progress(0.8, "Training the doubt model")
    t0 = time.perf_counter()
    own = training_set(project, ctx, spans, with_unreviewed=extra is None or len(extra.y) == 0,
                       rng=np.random.default_rng(seed), should_stop=should_stop)
    data = own + extra if extra is not None else own
    model = fit_logistic(data.X, data.y)
    own_doubt = model.predict(features)
    combiner = combiner or combiner_for(project)
    doubt = combiner.predict(combined_features(model.decision(features), ctx, spans))
    train_s = time.perf_counter() - t0
    has = set(own.kinds)
    source = " + ".join(k for k in ("confirmed", "unreviewed") if k in has) or "nothing"
    if extra is not None and len(extra.y):
        source += " + other talks"
    progress(1.0, "Doubt ready")
    return DoubtResult(
        signature=[(b.src, b.tgt) for b in project.alignment.beads],
        doubt=doubt,
        model=model,
        counts=data.counts,
        source=source,
        seconds={"features": round(feature_s, 4), "training": round(train_s, 4)},
        own_doubt=own_doubt,
    )


def training_examples_from(
    projects: Iterable[Project],
    *,
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
) -> TrainingSet:
    """Examples from the confirmed beads of other talks (``--learned-from``).

    Talks without a confirmed bead contribute nothing: their "unreviewed"
    beads say nothing a model of the talk itself would not.
    """
    projects = [p for p in projects if p.alignment is not None and any(b.status is BeadStatus.CONFIRMED for b in p.alignment.beads)]
    data = TrainingSet.empty()
    for k, project in enumerate(projects):
        check_stop(should_stop)
        ctx = talk_context(project, progress=stage(progress, k / len(projects), (k + 1) / len(projects)), should_stop=should_stop)
        data = data + training_set(project, ctx, with_unreviewed=False, rng=np.random.default_rng(k), should_stop=should_stop)
    return data


# ---------------------------------------------------------------- use cases
def find_projects(paths: Iterable[str]) -> list[str]:
    """Project files named by ``paths``: ``.sialign`` files, and those found (recursively) in folders.

    Raises:
        InputError: a path does not exist, or names no project at all.
    """
    from pathlib import Path

    from sialign.core.errors import InputError

    found: list[str] = []
    for text in paths:
        path = Path(text)
        if path.is_dir():
            inside = sorted(str(p) for p in path.rglob(f"*{PROJECT_SUFFIX}"))
            if not inside:
                raise InputError(path, "the folder holds no .sialign project", hint="give a corpus folder or project files")
            found.extend(inside)
        elif path.is_file():
            found.append(str(path))
        else:
            raise InputError(path, "no such file or folder")
    return list(dict.fromkeys(found))


def learned_filter(
    project: Project,
    *,
    threshold: float,
    drop: bool = True,
    others: Sequence[Project] = (),
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
) -> tuple[list[Bead], DoubtResult]:
    """Train on the talk (and the confirmed beads of ``others``), score it and decide.

    Returns:
        ``(beads, result)``: new bead copies with their ``doubt`` flags and
        drops (apply them as one ``ReplaceBeads`` edit), and the doubt.
    """
    extra = training_examples_from(others, progress=stage(progress, 0.0, 0.5), should_stop=should_stop) if others else None
    result = compute_doubt(project, extra=extra, progress=stage(progress, 0.5 if others else 0.0, 1.0), should_stop=should_stop)
    return apply_doubt(project, result, threshold, drop=drop), result
