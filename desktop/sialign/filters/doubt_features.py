"""Features of the doubt model: a talk's context (vectors, times, costs) and what each bead looks like in it."""

from __future__ import annotations

import dataclasses
import math
import re
import time
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sialign.core.model import Bead, Project
from sialign.core.progress import ProgressFn, StopFn, check_stop, stage

# (i0, a, j0, b): source positions i0 .. i0+a-1 with target positions j0 .. j0+b-1.
Span = tuple[int, int, int, int]


FEATURE_NAMES: tuple[str, ...] = (
    "cost",
    "cost_direct",
    "cost_pivot",
    "cost_pivot_semantic",
    "shift_margin_semantic",
    "margin_start",
    "margin_end",
    "shift_margin",
    "sim_mean",
    "tgt_agree",
    "src_agree",
    "edge_gap",
    "outer_claim",
    "sim_mean_semantic",
    "tgt_agree_semantic",
    "src_agree_semantic",
    "edge_gap_semantic",
    "outer_claim_semantic",
    "omission",
    "addition",
    "src_count",
    "tgt_count_log",
    "length_dev",
    "length_dev_signed",
    "gamma_log",
    "eta_chrf",
    "evs_dev_abs",
    "evs_dev",
    "position",
    "position_edge",
)


N_FEATURES = len(FEATURE_NAMES)


# Features of an alignment's bead among its neighbours (:func:`context_features`).
CONTEXT_FEATURE_NAMES: tuple[str, ...] = ("boundary_margin", "boundary_margin_direct", "cost_over_neighbours", "cost_over_talk")


# Costs and margins are clipped here: unrelated text costs about 1.
COST_CLIP = 3.0


# ---------------------------------------------------------------- the talk
@dataclass
class TalkContext:
    """What the features of one talk need, computed once per state of its segments.

    Attributes:
        n_src, n_tgt: segments per side.
        combined: the aligner's cost model (its signals and settings).
        direct: a cost model of the source ↔ target signal alone, or None.
        pivot: a cost model of the reference ↔ target signal alone, or None.
        semantic_pivot: reference ↔ target through the talk's sentence
            encoder when the pivot itself is lexical, else None.
        sim: (n_src, n_tgt) float32 similarity of the combined signals.
        src_chars, tgt_chars: (n_src,), (n_tgt,) character lengths (the
            reference's for the source side in pivot mode).
        log_ratio: log of the talk's overall target/source length ratio.
        src_start, tgt_start: (n_src,), (n_tgt,) start times, NaN when unknown.
        evs_median: the talk's typical lag (s): median over source segments of
            the start of their most similar chunk minus their own start; NaN
            without times. Taken from the similarities, not from the beads,
            so real and synthetic beads are measured against the same value.
        ref_texts: reference line per source position, or None.
        tgt_texts: target texts per position.
        tgt_unspaced: whether the target language is written without spaces.
        seconds: time spent building the context.
    """

    n_src: int
    n_tgt: int
    combined: Any
    direct: Any
    pivot: Any
    semantic_pivot: Any
    sim: np.ndarray
    src_chars: np.ndarray
    tgt_chars: np.ndarray
    log_ratio: float
    src_start: np.ndarray
    tgt_start: np.ndarray
    evs_median: float
    ref_texts: list[str] | None
    tgt_texts: list[str]
    tgt_unspaced: bool
    seconds: float = 0.0
    _cache: dict[Span, np.ndarray] = field(default_factory=dict, repr=False)


def talk_context(
    project: Project,
    params: Any = None,
    *,
    embedder: Any = None,
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
) -> TalkContext:
    """Embed the talk (memoised: free when the aligner just did it) and build its cost models.

    Args:
        project: the talk; only its documents are read.
        params: :class:`~sialign.core.params.AlignParams`; defaults to the project's.
        embedder: use this embedder for the direct signal instead of the one
            ``params.embedder`` names.

    Raises:
        AlignmentCancelled: when ``should_stop()`` says so.
    """
    from sialign.align.costs import BeadCostModel, Signal, cost_settings, resolve_target_units
    from sialign.core.model import joiner_for
    from sialign.core.params import AlignParams
    from sialign.embed.lexical import LexicalEmbedder
    from sialign.embed.pairs import encode_pair

    started = time.perf_counter()
    params = params or project.params or AlignParams()
    src_doc, tgt_doc, ref_doc = project.source, project.target, project.reference
    n, m = len(src_doc), len(tgt_doc)
    # The features read the whole single-segment similarity matrix (each
    # segment's best partner, agreement around a bead): dense, several copies.
    from sialign.align.cost_tables import DENSE_SIMILARITY_CELLS
    from sialign.core.errors import AlignmentTooLargeError

    if n * m > DENSE_SIMILARITY_CELLS:
        raise AlignmentTooLargeError(
            f"the doubt filter compares each of {n} source segments with each of {m} target segments: "
            f"{n * m:,} pairs is more than it handles ({DENSE_SIMILARITY_CELLS:,}) — run it on the talk in parts"
        )
    # The units the talk was aligned with, as the alignment recorded them (else worked out as the aligner does).
    recorded = project.alignment.info.get("target_units") if project.alignment is not None else None
    units = recorded if recorded in ("chunks", "sentences") else resolve_target_units(params, n, tgt_doc)
    settings = cost_settings(params, units)

    def private(e: Any) -> Any:
        # The lexical embedder is fitted per talk: a private instance (same
        # settings, same memo key) keeps this thread from refitting the one
        # an alignment worker may be using.
        return LexicalEmbedder(e.settings) if isinstance(e, LexicalEmbedder) else e

    if embedder is None:
        # The embedder the talk was aligned with ("auto" resolved for its language pair).
        from sialign.embed.choice import talk_embedder_spec
        from sialign.embed.models import load_embedder

        embedder = load_embedder(talk_embedder_spec(project, params.embedder))
    main = private(embedder)
    src_texts, tgt_texts = src_doc.normalised_texts(), tgt_doc.normalised_texts()
    use_pivot = bool(params.pivot and ref_doc is not None and len(ref_doc) == n and n > 0)
    pivot_weight = min(max(float(params.pivot_weight), 0.0), 1.0) if use_pivot else 0.0
    options = dict(candidates="fast", max_side=params.max_src, max_other=params.max_tgt, should_stop=should_stop)
    x, y, _, _ = encode_pair(main, src_texts, tgt_texts, side_joiner=src_doc.joiner, other_joiner=tgt_doc.joiner,
                             progress=stage(progress, 0.0, 0.5), **options)
    direct_signal = Signal(x, y, 1.0, name="source")
    pivot_signal = None
    semantic_signal = None
    ref_texts = None
    if ref_doc is not None and len(ref_doc) == n and n > 0:
        ref_texts = ref_doc.normalised_texts()
        pivot_embedder = LexicalEmbedder() if params.pivot_embedder != "main" else main
        rx, ry, _, _ = encode_pair(pivot_embedder, ref_texts, tgt_texts, side_joiner=ref_doc.joiner,
                                   other_joiner=tgt_doc.joiner, same_language=True,
                                   progress=stage(progress, 0.5, 1.0), **options)
        pivot_signal = Signal(rx, ry, 1.0, name="pivot")
        if not isinstance(main, LexicalEmbedder) and pivot_embedder is not main:
            # The talk's sentence encoder compares reference and interpretation
            # too: a semantic same-language signal beside the lexical pivot.
            sx, sy, _, _ = encode_pair(main, ref_texts, tgt_texts, side_joiner=ref_doc.joiner,
                                       other_joiner=tgt_doc.joiner, same_language=True, **options)
            semantic_signal = Signal(sx, sy, 1.0, name="pivot (sentence encoder)")
    check_stop(should_stop)
    lengths_from = ref_texts if use_pivot and ref_texts is not None else src_texts
    src_chars = np.array([len(t) for t in lengths_from], dtype=np.float64)
    tgt_chars = np.array([len(t) for t in tgt_texts], dtype=np.float64)
    timed = params.time_prior and src_doc.has_times and tgt_doc.has_times

    def starts(doc: Any) -> np.ndarray:
        return np.array([np.nan if s.start is None else s.start for s in doc.segments], dtype=np.float64)

    def model(signals: list[Any], with_time: bool) -> Any:
        return BeadCostModel(
            signals, params.max_src, params.max_tgt, settings,
            starts(src_doc) if with_time else None, starts(tgt_doc) if with_time else None,
            src_chars, tgt_chars,
        )

    combined_signals = []
    if pivot_weight < 1.0:
        combined_signals.append(dataclasses.replace(direct_signal, weight=1.0 - pivot_weight))
    if pivot_weight > 0 and pivot_signal is not None:
        combined_signals.append(dataclasses.replace(pivot_signal, weight=pivot_weight))
    combined = model(combined_signals, bool(timed)) if n and m else None
    direct = model([direct_signal], False) if n and m else None
    pivot = model([pivot_signal], False) if n and m and pivot_signal is not None else None
    semantic = model([semantic_signal], False) if n and m and semantic_signal is not None else None
    sim = combined.similarity() if combined is not None else np.zeros((n, m), dtype=np.float32)
    src_start, tgt_start = starts(src_doc), starts(tgt_doc)
    evs_median = float("nan")
    if n and m and np.isfinite(src_start).any() and np.isfinite(tgt_start).any():
        lags = tgt_start[np.asarray(sim).argmax(axis=1)] - src_start
        if np.isfinite(lags).any():
            evs_median = float(np.nanmedian(lags))
    return TalkContext(
        n_src=n,
        n_tgt=m,
        combined=combined,
        direct=direct,
        pivot=pivot,
        semantic_pivot=semantic,
        sim=np.asarray(sim, dtype=np.float32),
        src_chars=src_chars,
        tgt_chars=tgt_chars,
        log_ratio=float(np.log((tgt_chars.sum() + 1.0) / (src_chars.sum() + 1.0))),
        src_start=src_start,
        tgt_start=tgt_start,
        evs_median=evs_median,
        ref_texts=ref_texts,
        tgt_texts=tgt_texts,
        tgt_unspaced=joiner_for(tgt_doc.language) == "",
        seconds=time.perf_counter() - started,
    )


def bead_spans(project: Project, beads: Sequence[Bead] | None = None) -> list[Span]:
    """(i0, a, j0, b) positions of ``beads`` (default: the project's), in the current documents."""
    beads = project.alignment.beads if beads is None and project.alignment is not None else (beads or [])
    spans: list[Span] = []
    i = j = 0
    for bead in beads:
        a, b = len(bead.src), len(bead.tgt)
        i0 = project.source.index_of(bead.src[0]) if a else i
        j0 = project.target.index_of(bead.tgt[0]) if b else j
        spans.append((i0, a, j0, b))
        i, j = i0 + a, j0 + b
    return spans


# ---------------------------------------------------------------- features
def _reported_costs(model: Any, a: np.ndarray, b: np.ndarray, i_end: np.ndarray, j_end: np.ndarray) -> np.ndarray:
    """Calibrated costs (as stored on beads) of many beads of mixed shapes.

    Args:
        model: a :class:`~sialign.align.costs.BeadCostModel`.
        a, b: (k,) int bead sides.
        i_end, j_end: (k,) int lattice ends (i0 + a, j0 + b).

    Returns:
        (k,) float64; skip beads get the DP's skip cost, impossible beads ``inf``.
    """
    out = np.full(a.shape, np.inf)
    shapes = set(zip(a.tolist(), b.tolist()))
    for sa, sb in shapes:
        sel = (a == sa) & (b == sb)
        ii, jj = i_end[sel], j_end[sel]
        if sa == 0 or sb == 0:
            out[sel] = model.skip_cost(sa) if sa <= 1 else model.skip_cost(1) * sa
            continue
        if sa > min(model.n_src, model.max_src) or sb > min(model.n_tgt, model.max_tgt):
            continue  # the aligner never makes this bead (and has no tables for it)
        terms = model.calibrated_terms(sa, sb, ii, jj) / model.random_bead_cost(sa, sb)
        out[sel] = terms + np.asarray(model.time_cost(sa, sb, ii, jj), dtype=np.float64)
    return out


def _dp_costs(model: Any, a: np.ndarray, b: np.ndarray, i_end: np.ndarray, j_end: np.ndarray) -> np.ndarray:
    """What the DP minimised for many beads of mixed shapes (size multiplier included).

    Args and returns as :func:`_reported_costs`.
    """
    out = np.full(a.shape, np.inf)
    for sa, sb in set(zip(a.tolist(), b.tolist())):
        if sa > min(model.n_src, model.max_src) or sb > min(model.n_tgt, model.max_tgt):
            continue  # the aligner never makes this bead (and has no tables for it)
        sel = (a == sa) & (b == sb)
        out[sel] = model.bead_cost(sa, sb, i_end[sel], j_end[sel])
    return out


def _shift_margin(model: Any, spans: np.ndarray) -> np.ndarray:
    """How much the DP's cost rises when either target boundary moves by one chunk (the least rise).

    The aligner picked each bead's boundaries as the cheapest; a boundary
    that one chunk more or less barely changes is a coin toss, and most
    wrong beads are one chunk off.

    Args:
        spans: (k, 4) int (i0, a, j0, b).

    Returns:
        (k,) clipped to ±COST_CLIP; COST_CLIP for beads without a source side.
    """
    i0, a, j0, b = spans.T
    own = _dp_costs(model, a, b, i0 + a, j0 + b)
    best = np.full(len(spans), np.inf)
    # (change of the end, change of the start) in chunks: take or give one chunk at either end.
    for d_end, d_start in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        nb = b + d_end + d_start
        nj0 = j0 - d_start
        ok = (a > 0) & (nb >= 1) & (nj0 >= 0) & (nj0 + nb <= model.n_tgt)
        cost = _dp_costs(model, a, np.where(ok, nb, 1), i0 + a, np.where(ok, nj0 + nb, 1))
        best = np.minimum(best, np.where(ok, cost, np.inf))
    with np.errstate(invalid="ignore"):
        return _clip_margin(best - own)


def boundary_margins(model: Any, spans: Sequence[Span]) -> np.ndarray:
    """How much the DP's cost of two neighbouring beads rises when the boundary between them moves by one segment.

    For each boundary between consecutive beads, the cheapest of four moves
    (the first bead's last chunk, or the second bead's first chunk, changes
    side; the same with a sentence) is compared with the two beads as they
    are: the cost of both together, as the DP sums it. Negative where a
    move is cheaper (the path is not the cost model's optimum there: the
    learned second pass chose it, or a reviewer's edit), near zero where
    the boundary is a coin toss. Unlike :func:`_shift_margin`, the
    neighbour's cost changes with the move.

    Args:
        model: a :class:`~sialign.align.costs.BeadCostModel`.
        spans: (i0, a, j0, b) of consecutive beads (an alignment's, in order).

    Returns:
        (len(spans) - 1,) clipped to ±COST_CLIP; COST_CLIP where no move fits,
        -COST_CLIP where a bead is beyond the cost model (larger than it makes)
        and a move makes both affordable.
    """
    sp = np.asarray(spans, dtype=np.int64).reshape(-1, 4)
    if len(sp) < 2:
        return np.zeros(0)
    i0, a, j0, b = sp.T
    k = len(sp) - 1
    moves = ((0, 1), (0, -1), (1, 0), (-1, 0))
    # Every bead to price, in one call (one cost table per bead shape): the beads
    # as they are, then for each move the left and the right bead after it.
    parts: list[tuple[np.ndarray, ...]] = [(a, b, i0 + a, j0 + b)]
    fits = []
    for d_src, d_tgt in moves:
        la, lb = a[:-1] + d_src, b[:-1] + d_tgt
        ra, rb = a[1:] - d_src, b[1:] - d_tgt
        ok = ((np.minimum.reduce([la, lb, ra, rb]) >= 0) & ((la > 0) | (lb > 0)) & ((ra > 0) | (rb > 0))
              & (np.maximum(la, ra) <= model.max_src) & (np.maximum(lb, rb) <= model.max_tgt))
        # Beads that do not fit are priced as a 1-1 bead at the start and ignored.
        la, lb, ra, rb = (np.where(ok, x, 1) for x in (la, lb, ra, rb))
        li, lj = np.where(ok, i0[:-1] + la, 1), np.where(ok, j0[:-1] + lb, 1)
        parts += [(la, lb, li, lj), (ra, rb, np.where(ok, li + ra, 1), np.where(ok, lj + rb, 1))]
        fits.append(ok)
    costs = _dp_costs(model, *(np.concatenate(column) for column in zip(*parts)))
    own = costs[: k + 1]
    base = own[:-1] + own[1:]
    best = np.full(k, np.inf)
    for m, ok in enumerate(fits):
        left = costs[k + 1 + 2 * m * k : k + 1 + (2 * m + 1) * k]
        right = costs[k + 1 + (2 * m + 1) * k : k + 1 + (2 * m + 2) * k]
        with np.errstate(invalid="ignore"):
            moved = left + right - base
        best = np.fmin(best, np.where(ok, moved, np.inf))  # a move priced inf - inf (NaN) does not count
    return _clip_margin(best)


def _clip_margin(x: np.ndarray) -> np.ndarray:
    """Margins to ±COST_CLIP; none (no alternative fits) counts as the largest."""
    return np.clip(np.nan_to_num(x, nan=COST_CLIP, posinf=COST_CLIP, neginf=-COST_CLIP), -COST_CLIP, COST_CLIP)


def _margins(model: Any, spans: np.ndarray, own: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Cheapest other bead shape sharing each span's start, and its end, minus the span's own cost.

    Args:
        spans: (k, 4) int (i0, a, j0, b).
        own: (k,) the spans' own costs.

    Returns:
        ``(margin_start, margin_end)``, each (k,), clipped to ±COST_CLIP;
        negative when an alternative is cheaper.
    """
    i0, a, j0, b = spans.T
    best_start = np.full(len(spans), np.inf)
    best_end = np.full(len(spans), np.inf)
    max_a = min(model.max_src, 3)
    for sa in range(1, max_a + 1):
        for sb in range(1, model.max_tgt + 1):
            shape = np.full(len(spans), sa), np.full(len(spans), sb)
            same = (a == sa) & (b == sb)
            start_cost = _reported_costs(model, *shape, i0 + sa, j0 + sb)
            end_cost = _reported_costs(model, *shape, i0 + a, j0 + b)
            best_start = np.minimum(best_start, np.where(same, np.inf, start_cost))
            best_end = np.minimum(best_end, np.where(same, np.inf, end_cost))
    return _clip_margin(best_start - own), _clip_margin(best_end - own)


def _char_ngrams(text: str, n: int) -> Counter[str]:
    text = "".join(text.split())
    return Counter(text[k : k + n] for k in range(len(text) - n + 1))


def char_f_score(hypothesis: str, reference: str, max_n: int = 4, beta: float = 2.0) -> float:
    """chrF-style character n-gram F-score (n = 1..max_n averaged, recall weighted by ``beta``), 0..1.

    A light stand-in for sacrebleu's chrF: the features score thousands of
    synthetic beads per retraining.
    """
    precisions, recalls = [], []
    for n in range(1, max_n + 1):
        h, r = _char_ngrams(hypothesis, n), _char_ngrams(reference, n)
        if not h or not r:
            continue
        overlap = sum((h & r).values())
        precisions.append(overlap / sum(h.values()))
        recalls.append(overlap / sum(r.values()))
    if not precisions:
        return 0.0
    precision, recall = float(np.mean(precisions)), float(np.mean(recalls))
    if precision + recall == 0:
        return 0.0
    return (1 + beta**2) * precision * recall / (beta**2 * precision + recall)


def _length_units(text: str, unspaced: bool) -> int:
    if unspaced:
        return sum(1 for ch in text if not ch.isspace() and not unicodedata.category(ch).startswith("P"))
    return len(re.findall(r"\w+", text))


def span_features(ctx: TalkContext, spans: Sequence[Span], should_stop: StopFn | None = None) -> np.ndarray:
    """Features of beads given by position (real or synthetic), cached in ``ctx``.

    Args:
        ctx: the talk.
        spans: (i0, a, j0, b) per bead.
        should_stop: checked every few hundred beads.

    Returns:
        (len(spans), N_FEATURES) float64, columns as :data:`FEATURE_NAMES`.
    """
    todo = [s for s in dict.fromkeys(spans) if s not in ctx._cache]
    if todo:
        rows = _compute_features(ctx, np.array(todo, dtype=np.int64).reshape(-1, 4), should_stop)
        ctx._cache.update(zip(todo, rows))
    if not spans:
        return np.zeros((0, N_FEATURES))
    return np.stack([ctx._cache[s] for s in spans])


def context_features(ctx: TalkContext, spans: Sequence[Span]) -> np.ndarray:
    """Features of each bead of an alignment among its neighbours, relative to the talk's own distribution.

    For the aligner's combined cost model and for the direct source ↔ target
    signal: the smaller of the bead's two :func:`boundary_margins` (a talk's
    first and last bead have one), divided by the talk's median positive
    boundary margin, clipped to ±COST_CLIP. Costs are on different scales
    from talk to talk (chunks of a talk through its reference, sentences of
    a speech), so an absolute margin would not carry over; the ratio to the
    talk's typical margin does. Then the bead's calibrated cost under the
    combined model (as stored on beads, clipped to COST_CLIP) minus the mean
    of its neighbours' and minus the talk's median: a bead dearer than the
    beads around it, or than the talk's own beads, is more often wrong.

    Args:
        ctx: the talk.
        spans: (i0, a, j0, b) of the alignment's beads, in order (not
            synthetic beads: a bead's neighbours are part of it).

    Returns:
        (len(spans), len(CONTEXT_FEATURE_NAMES)) float64.
    """
    out = np.zeros((len(spans), len(CONTEXT_FEATURE_NAMES)))
    for col, model in enumerate((ctx.combined, ctx.direct)):
        if model is None or not len(spans):
            continue
        margins = boundary_margins(model, spans)
        positive = margins[margins > 0]
        scale = float(np.median(positive)) if len(positive) else 1.0
        edge = np.array([COST_CLIP])
        nearest = np.minimum(np.concatenate([edge, margins]), np.concatenate([margins, edge]))
        out[:, col] = np.clip(nearest / scale, -COST_CLIP, COST_CLIP)
    if ctx.combined is not None and len(spans) >= 2:
        # The clipped cost :func:`span_features` holds (cached on the talk: the doubt reads them first).
        cost = span_features(ctx, spans)[:, FEATURE_NAMES.index("cost")]
        around = np.nanmean(np.vstack([np.r_[np.nan, cost[:-1]], np.r_[cost[1:], np.nan]]), axis=0)
        out[:, 2] = cost - around
        out[:, 3] = cost - np.median(cost)
    return out


def _similarity_features(sim: np.ndarray, spans: np.ndarray, should_stop: StopFn | None = None) -> np.ndarray:
    """Local agreement of beads with a similarity matrix.

    Args:
        sim: (n_src, n_tgt) similarities.
        spans: (k, 4) int (i0, a, j0, b).

    Returns:
        (k, 5): mean similarity inside the bead; share of its chunks that
        prefer its sentences to the neighbouring ones; share of its sentences
        that prefer its chunks to those a few chunks around; the similarity
        gap at its first and last chunk (inside minus the neighbouring
        sentence, the smaller); how much the chunk just outside the bead
        prefers the bead's sentence to its own neighbour (the larger side).
        Zero for beads with an empty side.
    """
    n_src, n_tgt = sim.shape
    out = np.zeros((len(spans), 5))
    for r, (p, sa, q, sb) in enumerate(spans.tolist()):
        if r % 256 == 0:
            check_stop(should_stop)
        if not (sa and sb):
            continue
        block = sim[p : p + sa, q : q + sb]
        out[r, 0] = float(block.mean())
        lo, hi = max(p - 1, 0), min(p + sa + 1, n_src)
        best = sim[lo:hi, q : q + sb].argmax(axis=0) + lo
        out[r, 1] = float(np.mean((best >= p) & (best < p + sa)))
        lo_t, hi_t = max(q - 3, 0), min(q + sb + 3, n_tgt)
        best_t = sim[p : p + sa, lo_t:hi_t].argmax(axis=1) + lo_t
        out[r, 2] = float(np.mean((best_t >= q) & (best_t < q + sb)))
        outside_first = float(sim[p - 1, q]) if p > 0 else 0.0
        outside_last = float(sim[p + sa, q + sb - 1]) if p + sa < n_src else 0.0
        out[r, 3] = min(float(block[:, 0].max()) - outside_first, float(block[:, -1].max()) - outside_last)
        # A chunk just outside that prefers the bead's sentence: the boundary is probably one chunk off.
        claims = []
        if q > 0:
            claims.append(float(sim[p, q - 1] - (sim[p - 1, q - 1] if p > 0 else 0.0)))
        if q + sb < n_tgt:
            claims.append(float(sim[p + sa - 1, q + sb] - (sim[p + sa, q + sb] if p + sa < n_src else 0.0)))
        out[r, 4] = max(claims, default=0.0)
    return out


def _compute_features(ctx: TalkContext, spans: np.ndarray, should_stop: StopFn | None = None) -> np.ndarray:
    k = len(spans)
    out = np.zeros((k, N_FEATURES))
    if k == 0 or ctx.combined is None:
        return out
    i0, a, j0, b = spans.T
    cost = np.minimum(_reported_costs(ctx.combined, a, b, i0 + a, j0 + b), COST_CLIP)
    direct = np.minimum(_reported_costs(ctx.direct, a, b, i0 + a, j0 + b), COST_CLIP)
    pivot = np.minimum(_reported_costs(ctx.pivot, a, b, i0 + a, j0 + b), COST_CLIP) if ctx.pivot is not None else cost
    check_stop(should_stop)
    margin_start, margin_end = _margins(ctx.combined, spans, cost)
    check_stop(should_stop)
    col = {name: n for n, name in enumerate(FEATURE_NAMES)}
    out[:, col["cost"]] = cost
    out[:, col["cost_direct"]] = direct
    out[:, col["cost_pivot"]] = pivot
    out[:, col["margin_start"]] = margin_start
    out[:, col["margin_end"]] = margin_end
    out[:, col["shift_margin"]] = _shift_margin(ctx.combined, spans)
    # Without a sentence encoder the semantic columns repeat the lexical ones,
    # so talks with and without one can share a model (--learned-from).
    if ctx.semantic_pivot is not None:
        out[:, col["cost_pivot_semantic"]] = np.minimum(_reported_costs(ctx.semantic_pivot, a, b, i0 + a, j0 + b), COST_CLIP)
        out[:, col["shift_margin_semantic"]] = _shift_margin(ctx.semantic_pivot, spans)
    else:
        out[:, col["cost_pivot_semantic"]] = out[:, col["cost_pivot"]]
        out[:, col["shift_margin_semantic"]] = out[:, col["shift_margin"]]
    out[:, col["omission"]] = (a > 0) & (b == 0)
    out[:, col["addition"]] = (a == 0) & (b > 0)
    out[:, col["src_count"]] = a
    out[:, col["tgt_count_log"]] = np.log1p(b)
    src_cums = np.concatenate(([0.0], np.cumsum(ctx.src_chars)))
    tgt_cums = np.concatenate(([0.0], np.cumsum(ctx.tgt_chars)))
    ls = src_cums[i0 + a] - src_cums[i0]
    lt = tgt_cums[j0 + b] - tgt_cums[j0]
    signed = np.log((lt + 10.0) / (ls + 10.0)) - ctx.log_ratio
    out[:, col["length_dev"]] = np.abs(signed)
    out[:, col["length_dev_signed"]] = signed
    centre = (i0 + a / 2.0) / max(ctx.n_src, 1)
    out[:, col["position"]] = centre
    out[:, col["position_edge"]] = np.minimum(centre, 1.0 - centre)

    # Ear-voice span relative to the talk's typical lag.
    s_first = np.clip(i0, 0, max(ctx.n_src - 1, 0))
    t_first = np.clip(j0, 0, max(ctx.n_tgt - 1, 0))
    lag = np.where((a > 0) & (b > 0), ctx.tgt_start[t_first] - ctx.src_start[s_first], np.nan)
    finite = np.isfinite(lag)
    if finite.any() and np.isfinite(ctx.evs_median):
        dev = np.where(finite, np.clip(lag - ctx.evs_median, -30.0, 30.0), 0.0)
        out[:, col["evs_dev"]] = dev
        out[:, col["evs_dev_abs"]] = np.abs(dev)

    names = ("sim_mean", "tgt_agree", "src_agree", "edge_gap", "outer_claim")
    out[:, [col[n] for n in names]] = _similarity_features(ctx.sim, spans, should_stop)
    if ctx.semantic_pivot is not None:
        semantic = np.asarray(ctx.semantic_pivot.similarity(), dtype=np.float32)
        out[:, [col[n + "_semantic"] for n in names]] = _similarity_features(semantic, spans, should_stop)
    else:
        out[:, [col[n + "_semantic"] for n in names]] = out[:, [col[n] for n in names]]
    for r, (p, sa, q, sb) in enumerate(spans.tolist()):
        if ctx.ref_texts is not None and sa and sb:
            ref = " ".join(ctx.ref_texts[p : p + sa])
            joiner = "" if ctx.tgt_unspaced else " "
            tgt = joiner.join(ctx.tgt_texts[q : q + sb])
            out[r, col["eta_chrf"]] = char_f_score(tgt, ref)
            r_units = _length_units(ref, ctx.tgt_unspaced)
            t_units = _length_units(tgt, ctx.tgt_unspaced)
            out[r, col["gamma_log"]] = math.log((t_units + 1.0) / (r_units + 1.0))
    return out
