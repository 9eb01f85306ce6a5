"""A second pass with a bead score learned from gold alignments (docs/algorithms.md: Learned bead score).

The first pass (the hand-weighted :class:`~sialign.align.costs.BeadCostModel`
and the banded DP) finds a path. The second pass searches a narrow band around
it again, as Bertalign does, but scores every candidate bead by the log-odds
that it is right, from a small logistic model fitted on the dev gold of
several sets and language pairs (``bead_score.json`` beside this module; the
fitting script is ``tests/benchmarks/train_bead_score.py``). Its features are
what the aligner already computes:

- the cosine of **exact encodings of the concatenated segments** (up to
  ``RUNS`` a side), and the same minus the mean cosine to the bead's
  neighbouring segments (vecalign's and Bertalign's margin);
- Bertalign's length agreement ``log2(1 + min/max)`` of the two sides'
  character lengths (scaled by the document's length ratio);
- the first pass's own cost of the bead (encoder, in-script character
  n-grams, time prior, pivot);
- how similar the talk's segments and their best partners usually are (the
  encoder scores some language pairs higher than others);
- how far outside the ear-voice-span window the bead is rendered;
- the bead's shape (one indicator per shape).

Leaving a source sentence unrendered (1-0, an omission) and a target segment
unmatched (0-1, an addition) have models of their own: how well the segment
matches its best partner nearby, its margin over its second best, its
length, the talk's typical cosine, and how much joining it to a neighbour
raises that neighbour's similarity. Sentence targets and an interpreter's
chunks have weights of their own (``RUNS``), and sentence targets of an
interpretation a set fitted on interpreted speeches alone (``WEIGHT_SETS``,
chosen by ``AlignParams.text_kind``). The DP minimises the summed negative log-odds, so omissions are
decided jointly with the beads around them instead of being a fixed skip cost.
"""

from __future__ import annotations

import json
import logging
import math
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from sialign.align.dp import Band, WindowCosts, band_around_path, banded_dp
from sialign.core.progress import StopFn, check_stop
from sialign.embed.base import one_blas_thread

log = logging.getLogger(__name__)

MARGIN = 5  # rows/columns searched around the first path
FAR_LAG_LOGODDS = 1.0  # per second beyond the time prior's near zone (see LearnedCosts._far_lag)
KEPT_OMISSION_LOGODDS = 10.0  # with first_pass_omissions: keep the first pass's 1-0 beads, make no other
WEIGHTS_FILE = Path(__file__).with_name("bead_score.json")
BERTALIGN_SKIP = 0.1  # Bertalign's score of a 1-0 or 0-1 bead is -0.1
# With a reference translation, how much cheaper (log-odds of the learned score) the second pass
# makes each bead of the first pass's path, at full trust and agreement (LearnedCosts.keep_first),
# by kind of target unit; on Bertalign's base it is scaled by ``learned_weight`` as the learned
# part is. Chosen by leave-one-talk-out on AHC-SI dev with the chunk weights' score
# (tests/benchmarks/cv_interp.py): 0 for Bertalign's base + 0.2 learned with beads of one source
# sentence (acc@0.8 with the reference 0.958 at 0, 0.950 at 0.5 to 2); 2 was best for the learned
# score alone (cv_priors.py). Not measured on sentence targets, so not applied there.
REFERENCE_KEEP_LOGODDS = {"chunks": 0.0}
# By kind of target unit: whether the second pass ends with a vote of three paths over the same
# band (:func:`vote_paths`): the first pass's, the learned score's and Bertalign's unlearned score's
# (``learned_weight`` 0 on its base, with the same penalty for renderings far outside the
# ear-voice-span window). Beads two of them share are favoured, every sentence the learned path
# leaves out is kept out, and elsewhere the first pass's beads stay.
VOTE = {"sentences": True}
# In the vote, what a bead of one path other than the first pass's costs (a bead of two paths earns 1).
VOTE_MINORITY = 0.9
# The vote keeps a learned 1-0 bead unless at least this share of its sentence's words
# (:func:`shared_words`) stand in the FOUND_REACH target segments either side of where it
# would go: a list entry or a caption whose names the translation holds beside it was rendered
# there, not left out. Set before any run (tests/benchmarks/cv_anchors.py measures it).
FOUND_SHARE = 0.5
FOUND_REACH = 3
# By weight set (``WEIGHT_SETS``): whether the second pass joins two neighbouring beads of its
# result when a name or a number crosses the boundary between them (:func:`join_crossed`): one
# bead's source holds it and the other's target, and neither of the other two sides. A written
# translation keeps its names and numbers with the sentence they belong to, so such a boundary
# is none: a list line, a caption or a bibliography entry split where the translator merged
# (held out on the dev book, 11 of the 13 joins make a gold bead and none undoes two right ones).
# An interpreter moves and repeats names across sentences: on EPTIC dev 2 of the 3 joins would
# undo two right beads, so the interpretation set does not join (tests/benchmarks/cv_crossed.py).
JOIN_CROSSED = {"sentences": True}
# Agreement of the pivot with the direct signal on a bead: 1 where the pivot's normalised cost is
# this much below the direct signal's, 0.5 where they are equal, 0 where it is this much above.
REFERENCE_AGREEMENT_SPAN = 0.5
# Cosines of runs come from one matrix product over the block of runs the DP
# reads (TABLE_SLACK runs wider each way) when that block holds at most
# TABLE_MAX_RATIO times as many pairs as are asked for, and at least
# TABLE_MIN_CELLS are asked for; else from one dot product per pair.
TABLE_SLACK = 8
TABLE_MAX_RATIO = 16
TABLE_MIN_CELLS = 256

# Most segments a side whose concatenation is encoded, per kind of target unit:
# a written translation or a transcript in sentences pairs few sentences with
# few sentences; an interpreter's chunks come several to a source sentence.
RUNS = {"sentences": (4, 4), "chunks": (2, 10)}

BASE_MATCH_FEATURES = ["bias", "cos", "margin", "length", "first_cost", "typical_cos", "lag_outside"]
SKIP_FEATURES = ["bias", "best_cos", "best_margin", "log_chars", "typical_cos", "merge_gain"]


def bead_shapes(src_runs: int, tgt_runs: int) -> list[tuple[int, int]]:
    """The shapes with an indicator feature of their own (every a-b but 1-1)."""
    return [(a, b) for a in range(1, src_runs + 1) for b in range(1, tgt_runs + 1) if (a, b) != (1, 1)]


def match_features(units: str) -> list[str]:
    """Names of the bead features for ``units`` (``"sentences"`` or ``"chunks"``)."""
    return BASE_MATCH_FEATURES + [f"shape_{a}_{b}" for a, b in bead_shapes(*RUNS[units])]


@dataclass(frozen=True)
class BeadScoreWeights:
    """Logistic weights: P(bead right) = sigmoid(w · features), per kind of bead."""

    match: np.ndarray
    omission: np.ndarray
    addition: np.ndarray
    fitted_on: str = ""
    # Decision offsets chosen on the dev sets after the fit (the logistic
    # models are fitted on candidates, not on paths): added to every 1-0 cost.
    omission_offset: float = 0.0
    addition_offset: float = 0.0  # ... and to every 0-1 cost
    units: str = "sentences"
    # Keep the first pass's omissions and make no others (chunks: the dev gold for
    # chunked interpretations holds no omission to fit a model on).
    first_pass_omissions: bool = False
    # Platt scaling of the log-odds into the probability shown to a reader
    # (Bead.confidence), fitted on the beads of the aligned training talks:
    # {"bead": (a, b), "skip": (a, b)} for sigmoid(a · log-odds + b). The
    # candidates the models were fitted on are mostly wrong, so the raw
    # log-odds are too low for the beads that reach the path.
    calibration: dict[str, tuple[float, float]] = field(default_factory=dict)
    # What the learned log-odds are added to: "learned" (nothing: the cost is the
    # negative log-odds alone) or "bertalign" (Bertalign's unlearned score of the
    # exact concatenations, margin times length agreement, with ``base_skip`` for
    # a 1-0 or 0-1 bead); ``learned_weight`` scales the learned part on that base.
    base: str = "learned"
    learned_weight: float = 1.0
    base_skip: float = BERTALIGN_SKIP
    # Most source segments one bead of the second pass joins (0: as many as the runs hold,
    # ``RUNS``). An interpreter's chunks render one source sentence each far more often than
    # two: AHC-SI's gold joins two sentences in 1 bead of 237.
    max_src: int = 0
    # How the vote that ends the second pass on sentence targets decides (:func:`second_pass`):
    # whether the learned path's 1-0 beads are kept whatever the other paths say (an interpreter
    # leaves sentences out; a translator rarely does, and there they are put to the vote), and
    # which path it follows where the three all differ: the first pass's ("first") or that of
    # Bertalign's unlearned score ("bertalign").
    keep_learned_omissions: bool = True
    vote_follows: str = "first"

    @classmethod
    def from_dict(cls, d: dict[str, Any], units: str = "sentences") -> BeadScoreWeights:
        if d.get("vote_follows", "first") not in ("first", "bertalign"):
            raise ValueError(f"vote_follows must be 'first' or 'bertalign', not {d.get('vote_follows')!r}")
        return cls(
            match=np.array([d["match"][k] for k in match_features(units)], dtype=np.float64),
            omission=np.array([d["omission"][k] for k in SKIP_FEATURES], dtype=np.float64),
            addition=np.array([d["addition"][k] for k in SKIP_FEATURES], dtype=np.float64),
            fitted_on=str(d.get("fitted_on", "")),
            omission_offset=float(d.get("omission_offset", 0.0)),
            addition_offset=float(d.get("addition_offset", 0.0)),
            units=units,
            first_pass_omissions=bool(d.get("first_pass_omissions", False)),
            calibration={k: (float(v[0]), float(v[1])) for k, v in d.get("calibration", {}).items()},
            base=str(d.get("base", "learned")),
            learned_weight=float(d.get("learned_weight", 1.0)),
            base_skip=float(d.get("base_skip", BERTALIGN_SKIP)),
            max_src=int(d.get("max_src", 0)),
            keep_learned_omissions=bool(d.get("keep_learned_omissions", True)),
            vote_follows=str(d.get("vote_follows", "first")),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "match": dict(zip(match_features(self.units), map(float, self.match))),
            "omission": dict(zip(SKIP_FEATURES, map(float, self.omission))),
            "addition": dict(zip(SKIP_FEATURES, map(float, self.addition))),
            "fitted_on": self.fitted_on,
            "omission_offset": self.omission_offset,
            "addition_offset": self.addition_offset,
            "first_pass_omissions": self.first_pass_omissions,
            "calibration": {k: list(v) for k, v in self.calibration.items()},
            "base": self.base,
            "learned_weight": self.learned_weight,
            "base_skip": self.base_skip,
            "max_src": self.max_src,
            "keep_learned_omissions": self.keep_learned_omissions,
            "vote_follows": self.vote_follows,
        }

    def calibrated(self, log_odds: float, skip: bool) -> float:
        """The probability a reader sees for a bead (``skip``: a 1-0 or 0-1) with these log-odds."""
        a, b = self.calibration.get("skip" if skip else "bead", (1.0, 0.0))
        z = max(min(a * log_odds + b, 50.0), -50.0)
        return 1.0 / (1.0 + math.exp(-z))

    def shown_by_score(self, skip: bool) -> bool:
        """Whether the probability shown for such a bead depends on its log-odds (False: a constant, the
        share right on the training paths, where they ranked the other way; ``train_bead_score.calibrate``)."""
        return self.calibration.get("skip" if skip else "bead", (1.0, 0.0))[0] != 0


# The weight sets of ``bead_score.json`` and the target units each is fitted for (its features):
# "sentences" a written translation's (fitted on a book and interpreted speeches together, what
# every sentence target gets unless it is known to be an interpretation), "interpretation" an
# interpretation transcribed in sentences (interpreted speeches alone), "chunks" an interpreter's chunks.
WEIGHT_SETS = {"sentences": "sentences", "interpretation": "sentences", "chunks": "chunks"}


def weight_set(units: str, text_kind: str) -> str:
    """The weight set for targets in ``units`` of a text of ``text_kind`` (``"interpretation"`` or ``"translation"``).

    Sentence targets of an interpretation take the interpretation set, other
    sentence targets the combined one; chunks keep their own whatever the kind.
    """
    return "interpretation" if units == "sentences" and text_kind == "interpretation" else units


@lru_cache(maxsize=4)
def shipped_weights(name: str = "sentences") -> BeadScoreWeights | None:
    """The weight set ``name`` shipped with the package (see ``WEIGHT_SETS``), or None (then no second pass runs; the log says why)."""
    try:
        units = WEIGHT_SETS[name]
        return BeadScoreWeights.from_dict(json.loads(WEIGHTS_FILE.read_text(encoding="utf-8"))[name], units)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.warning("learned bead score %s not available (%s): the first pass's path is kept", name, exc)
        return None


class BeadFeatures:
    """Features of candidate beads over one window of the documents.

    Args:
        src_spans: (src_runs, n, dim) unit vectors, ``src_spans[a-1, p]`` = the
            concatenation of source segments ``p .. p+a-1`` of the window.
        tgt_spans: (tgt_runs, m, dim) the same for the target.
        src_chars, tgt_chars: (n,), (m,) character lengths.
        first: the first pass's costs over the same window (``band_costs``).
    """

    def __init__(self, src_spans: np.ndarray, tgt_spans: np.ndarray, src_chars: np.ndarray, tgt_chars: np.ndarray,
                 first: WindowCosts, typical: float | None = None) -> None:
        self.src, self.tgt = src_spans, tgt_spans
        self.shapes = bead_shapes(src_spans.shape[0], tgt_spans.shape[0])
        self.n_src, self.n_tgt = src_spans.shape[1], tgt_spans.shape[1]
        self.first = first
        ratio = float(src_chars.sum()) / max(float(tgt_chars.sum()), 1.0)
        self.src_cum = np.concatenate(([0.0], np.cumsum(src_chars, dtype=np.float64)))
        self.tgt_cum = np.concatenate(([0.0], np.cumsum(tgt_chars, dtype=np.float64) * ratio))
        self.src_chars, self.tgt_chars = src_chars, tgt_chars
        # How similar a segment and its best partner typically are in this talk: encoders
        # score some language pairs higher than others, so the same cosine means more or less.
        self.typical = typical_cosine(src_spans[0], tgt_spans[0]) if typical is None else typical
        # Per run shape (a, b): cosines of a block of source runs with a block of target runs
        # (first source run, first target run, table), reused while the DP's rows stay inside it.
        self._tables: dict[tuple[int, int], tuple[int, int, np.ndarray]] = {}
        # Per side: the band last asked for and the skip features over it (they read no weights).
        self._skips: dict[str, tuple[Band, np.ndarray]] = {}

    def _cos(self, a: int, b: int, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """Cosine of the a-run ending at source i (exclusive) and the b-run ending at target j, any shape."""
        ok = (i - a >= 0) & (j - b >= 0) & (i <= self.n_src) & (j <= self.n_tgt)
        si = np.clip(i - a, 0, self.n_src - 1)
        tj = np.clip(j - b, 0, self.n_tgt - 1)
        out = self._table_lookup(a, b, si, tj) if si.size >= TABLE_MIN_CELLS else None
        if out is None:
            out = np.einsum("...d,...d->...", self.src[a - 1][si], self.tgt[b - 1][tj])
        return np.where(ok, out, np.nan)

    def _table_lookup(self, a: int, b: int, si: np.ndarray, tj: np.ndarray) -> np.ndarray | None:
        """The cosines of runs (si, tj) read from a table of one matrix product, or None where the runs
        spread over too many rows and columns for one (scattered beads: the caller takes dot products)."""
        s_lo, s_hi, t_lo, t_hi = int(si.min()), int(si.max()) + 1, int(tj.min()), int(tj.max()) + 1
        held = self._tables.get((a, b))
        if held is not None:
            s0, t0, table = held
            if s0 <= s_lo and s_hi <= s0 + table.shape[0] and t0 <= t_lo and t_hi <= t0 + table.shape[1]:
                return table[si - s0, tj - t0]  # type: ignore[no-any-return]
        # The DP asks for blocks of rows in order, each shape with its neighbours a few runs
        # away: a table a little wider than asked serves the neighbours' lookups as well.
        s0, t0 = max(s_lo - TABLE_SLACK, 0), max(t_lo - TABLE_SLACK, 0)
        s1, t1 = min(s_hi + TABLE_SLACK, self.n_src), min(t_hi + TABLE_SLACK, self.n_tgt)
        if (s1 - s0) * (t1 - t0) > TABLE_MAX_RATIO * si.size:
            return None
        table = self.src[a - 1][s0:s1] @ self.tgt[b - 1][t0:t1].T
        self._tables[(a, b)] = (s0, t0, table)
        return table[si - s0, tj - t0]  # type: ignore[no-any-return]

    def lag_outside(self, a: int, b: int, i: np.ndarray, j: np.ndarray) -> np.ndarray | float:
        """The first pass's ear-voice-span penalty of the beads (0 without times), unclipped."""
        window = self.first
        model = window.model
        if not model.use_time:
            return 0.0
        ii = np.clip(i, a, self.n_src) + window.src_start
        jj = np.clip(j, b, self.n_tgt) + window.tgt_start
        return np.asarray(model.time_cost(a, b, ii, jj), dtype=np.float64)

    def match(self, a: int, b: int, i: np.ndarray, j: np.ndarray, first_cost: np.ndarray,
              memo: dict[tuple[int, int, int, int], np.ndarray] | None = None) -> np.ndarray:
        """(F, *i.shape) features of (a, b) beads ending at (i, j).

        ``memo``: cosines already read for the same (i, j) by other shapes, by (a, b, di, dj) (filled
        here; the neighbours' cosines of one run are the same for every length of the other side's).
        """

        def cos_at(a_: int, b_: int, di: int, dj: int) -> np.ndarray:
            if memo is None:
                return self._cos(a_, b_, i + di, j + dj)
            key = (a_, b_, di, dj)
            held = memo.get(key)
            if held is None:
                held = memo[key] = self._cos(a_, b_, i + di, j + dj)
            return held

        cos = self._cos(a, b, i, j)
        # Margin: mean cosine of each side's run to the single segments just outside the other side.
        neighbours = [cos_at(a, 1, 0, 1), cos_at(a, 1, 0, -b), cos_at(1, b, 1, 0), cos_at(1, b, -a, 0)]
        nb = _nanmean0(np.stack(neighbours))
        src_len = self.src_cum[np.clip(i, 0, self.n_src)] - self.src_cum[np.clip(i - a, 0, self.n_src)]
        tgt_len = self.tgt_cum[np.clip(j, 0, self.n_tgt)] - self.tgt_cum[np.clip(j - b, 0, self.n_tgt)]
        length = np.log2(1.0 + np.minimum(src_len, tgt_len) / np.maximum(np.maximum(src_len, tgt_len), 1e-9))
        ones = np.ones_like(cos)
        shape = [ones * ((a, b) == other) for other in self.shapes]
        return np.stack([
            ones, np.nan_to_num(cos), np.nan_to_num(cos - nb), length, np.clip(np.nan_to_num(first_cost, posinf=3.0), 0.0, 3.0),
            ones * self.typical, ones * self.lag_outside(a, b, i, j), *shape,
        ])

    def skips(self, side: str, band: Band) -> np.ndarray:
        """(F, n) features of leaving each source (or target) segment alone.

        Its best partner nearby and the margin over the second best, its
        length, the talk's typical cosine, and how much joining it to a
        neighbour raises that neighbour's similarity to the neighbour's best
        partner (a sentence an interpreter compressed into its neighbour's
        rendering, rather than left out). Computed once per side and band:
        every weight set reads the same.
        """
        held = self._skips.get(side)
        if held is not None and held[0] is band:
            return held[1]
        out = self._skip_features(side, band)
        self._skips[side] = (band, out)
        return out

    def _skip_features(self, side: str, band: Band) -> np.ndarray:
        runs = self.src if side == "src" else self.tgt
        single = runs[0]
        other = self.tgt[0] if side == "src" else self.src[0]
        count = len(single)
        best = np.zeros(count)
        second = np.zeros(count)
        partner = np.zeros(count, dtype=np.int64)
        for k in range(count):
            lo, hi = skip_window(band, side, k, len(other))
            sims = other[lo:hi] @ single[k] if hi > lo else np.zeros(1)
            order = np.argsort(sims)[::-1]
            best[k] = sims[order[0]]
            second[k] = sims[order[1]] if len(order) > 1 else 0.0
            partner[k] = lo + int(order[0]) if hi > lo else 0
        gain = np.zeros(count)
        if runs.shape[0] > 1 and count > 1:
            # Joined to the previous segment (the pair's vector ends at k) or to the next (ends at k + 1).
            for k in range(count):
                gains = []
                if k > 0:
                    j = partner[k - 1]
                    gains.append(float(runs[1][k] @ other[j]) - float(single[k - 1] @ other[j]))
                if k + 1 < count:
                    j = partner[k + 1]
                    gains.append(float(runs[1][k + 1] @ other[j]) - float(single[k + 1] @ other[j]))
                gain[k] = max(gains)
        chars = self.src_chars if side == "src" else self.tgt_chars
        return np.stack([np.ones(count), best, best - second, np.log1p(chars), np.full(count, self.typical), gain])


def skip_window(band: Band, side: str, k: int, n_other: int) -> tuple[int, int]:
    """The other side's segments ``lo:hi`` a skip feature of segment ``k`` of ``side`` ("src" or "tgt")
    reads: those the band pairs it with, ``MARGIN`` more either way (``n_other``: the other side's length)."""
    if side == "src":
        lo, hi = int(band.lo[k]), int(band.lo[k + 1] + band.width)
    else:
        rows = np.nonzero((band.lo <= k + 1) & (k < band.lo + band.width))[0]
        lo, hi = (int(rows.min()) - 1, int(rows.max()) + 1) if rows.size else (0, n_other)
    return max(lo - MARGIN, 0), min(hi + MARGIN, n_other)


def typical_cosine(src: np.ndarray, tgt: np.ndarray, block: int = 1024) -> float:
    """The median over source segments of the cosine to their best target segment (unit rows).

    Computed a block of source rows at a time: a 5,000 × 6,000 book holds 25 MB
    of cosines at once instead of 120 MB.
    """
    if not len(src) or not len(tgt):
        return 0.0
    best = np.concatenate([np.max(src[k : k + block] @ tgt.T, axis=1) for k in range(0, len(src), block)])
    return float(np.median(best))


def _nanmean0(stack: np.ndarray) -> np.ndarray:
    finite = np.isfinite(stack)
    total = np.where(finite, stack, 0.0).sum(axis=0)
    count = finite.sum(axis=0)
    return np.where(count > 0, total / np.maximum(count, 1), 0.0)


def pivot_trust(model: Any) -> np.ndarray | None:
    """Per source row trust of the reference translation (the pivot signal's), when the model mixes it with a direct signal.

    None without a reference, when the pivot decides alone, or when the pivot has no trust values.
    """
    signals = getattr(model, "signals", None) or []
    if len(signals) < 2 or not any(signal.name != "pivot" for signal in signals):
        return None
    for signal in signals:
        if signal.name == "pivot" and signal.src_trust is not None:
            return np.clip(np.asarray(signal.src_trust, dtype=np.float64), 0.0, 1.0)
    return None


def bertalign_score(features: np.ndarray) -> np.ndarray:
    """Bertalign's unlearned bead score from :meth:`BeadFeatures.match`'s features: margin times length agreement."""
    return features[BASE_MATCH_FEATURES.index("margin")] * features[BASE_MATCH_FEATURES.index("length")]


def log_odds(weights: np.ndarray, features: np.ndarray) -> np.ndarray:
    return np.tensordot(weights, features, axes=(0, 0))


class LearnedCosts:
    """Bead costs for :func:`~sialign.align.dp.banded_dp`: the negative log-odds of the learned score."""

    def __init__(self, features: BeadFeatures, weights: BeadScoreWeights, band: Band, max_src: int, max_tgt: int) -> None:
        self.f, self.w = features, weights
        self.n_src, self.n_tgt = features.n_src, features.n_tgt
        self.max_src, self.max_tgt = min(max_src, features.src.shape[0]), min(max_tgt, features.tgt.shape[0])
        self.omission_cost = -log_odds(weights.omission, features.skips("src", band)) + weights.omission_offset  # (n,)
        addition_cost = -log_odds(weights.addition, features.skips("tgt", band)) + weights.addition_offset  # (m,)
        self.on_base = weights.base == "bertalign"
        if self.on_base:
            self.omission_cost = weights.base_skip + weights.learned_weight * self.omission_cost
            addition_cost = weights.base_skip + weights.learned_weight * addition_cost
        # banded_dp charges a 0-1 skip ``settings.skip * tgt_skip_scale[j]`` with the scale in
        # [0, 1], so 0-1 costs must not be negative. Every path covers each target segment
        # once, so adding the same amount per target segment to every bead leaves the best
        # path unchanged: shift so that the cheapest 0-1 costs 0.
        self.per_target = max(0.0, -float(addition_cost.min(initial=0.0)))
        addition_cost = addition_cost + self.per_target
        top = max(float(addition_cost.max(initial=0.0)), 1e-6)
        self.settings = _Skip(top)
        self.tgt_skip_scale = np.clip(addition_cost / top, 0.0, 1.0)
        self._keep: dict[tuple[int, int], dict[tuple[int, int], float]] = {}
        # Costs of other weight sets over the same band and features (:meth:`share_with`), and the
        # blocks of costs another's :meth:`band_costs` computed for this one, waiting to be read.
        self._twins: list[LearnedCosts] = []
        self._ready: dict[tuple[Any, ...], np.ndarray] = {}

    def _far_lag(self, features: np.ndarray) -> np.ndarray | float:
        """``FAR_LAG_LOGODDS`` per second a bead is rendered beyond ``time_near`` seconds outside the
        ear-voice-span window. The dev talks hardly hold such lags, so the fitted lag weight alone
        would let a rendering half a minute late join a sentence; sentence timestamps a few seconds
        off stay within ``time_near`` and are left to the fit."""
        settings = self.f.first.model.settings
        if settings.time_far_weight <= 0:
            return 0.0
        lag = features[BASE_MATCH_FEATURES.index("lag_outside")]
        far_seconds = np.maximum(lag - settings.time_weight * settings.time_near, 0.0) / settings.time_far_weight
        return FAR_LAG_LOGODDS * far_seconds

    def keep_first(self, path: list[tuple[int, int, int, int]], bonus: float) -> None:
        """Make the beads of the first pass's ``path`` cheaper where the reference translation vouches for them.

        With a reference the first pass compares the reference with the
        target (same language, the pivot) beside the direct signal; the
        learned score reads the direct concatenations only, so on its own it
        throws away what the reference adds. Each first-pass bead gets
        ``bonus`` log-odds (on Bertalign's base: times ``learned_weight``, the
        learned part's scale) times two factors in [0, 1]:

        - its reference lines' mean trust (:func:`~sialign.align.signals.reference_trust`:
          a line matching its own source line clearly above chance and no
          neighbouring line better; 0 when blank, shifted or unrelated);
        - how well the pivot agrees with the direct signal on the bead:
          ``0.5 + (direct cost - pivot cost) / (2 * REFERENCE_AGREEMENT_SPAN)``,
          clipped (normalised text costs, 1 = unrelated): a bead the first pass
          took because the reference matches it better than the source does
          is kept, one the reference sees worse is left to the learned score.

        No effect without both a direct and a pivot signal.

        Args:
            path: the first pass's beads (src_start, n_src, tgt_start, n_tgt), window coordinates.
            bonus: log-odds at full trust and agreement.
        """
        from sialign.align.costs import BeadCostModel

        window = self.f.first
        model = window.model
        self._keep = {}
        if bonus <= 0:
            return
        trust = pivot_trust(model)
        if trust is None:
            return
        pivot = [signal for signal in model.signals if signal.name == "pivot"]
        direct = [signal for signal in model.signals if signal.name != "pivot"]
        # (The cost tables are cached per signal: these reuse the first pass's.)
        pivot_model = BeadCostModel(pivot, model.max_src, model.max_tgt, model.settings)
        direct_model = BeadCostModel(direct, model.max_src, model.max_tgt, model.settings)
        cums = np.concatenate(([0.0], np.cumsum(trust)))
        if self.on_base:
            bonus *= self.w.learned_weight
        for i0, a, j0, b in path:
            if not (a and b):
                continue
            i, j = np.array([i0 + a + window.src_start]), np.array([j0 + b + window.tgt_start])
            gap = float(direct_model.text_cost(a, b, i, j)[0] - pivot_model.text_cost(a, b, i, j)[0])
            agreement = float(np.clip(0.5 + gap / (2 * REFERENCE_AGREEMENT_SPAN), 0.0, 1.0)) if np.isfinite(gap) else 0.0
            mean_trust = float(cums[i[0]] - cums[i[0] - a]) / a
            self._keep.setdefault((a, b), {})[(i0 + a, j0 + b)] = bonus * mean_trust * agreement

    def _kept(self, a: int, b: int, i: np.ndarray, j: np.ndarray) -> np.ndarray | float:
        """The :meth:`keep_first` bonus of (a, b) beads ending at (i, j): 0 off the first path."""
        ends = self._keep.get((a, b))
        if not ends:
            return 0.0
        out = np.zeros(np.shape(j))
        for (ki, kj), value in ends.items():
            out[(i == ki) & (j == kj)] = value
        return out

    def share_with(self, other: LearnedCosts) -> None:
        """Compute ``other``'s bead costs alongside this one's, from the same features.

        Both must score the same :class:`BeadFeatures` (and so the same
        first-pass costs) over the same band, for DPs that ask for the same
        blocks of rows (:func:`~sialign.align.dp.banded_dp` over one band).
        Each block this one's :meth:`band_costs` computes is also scored by
        ``other``'s weights and held for ``other`` until its own DP reads it
        (once), so the features and the first pass's costs, which do not
        depend on the weights, are computed once for both DPs. A block
        ``other`` is asked for and does not hold is computed as usual.
        """
        if other.f is not self.f:
            raise ValueError("costs shared between different features")
        self._twins.append(other)

    @staticmethod
    def _block_key(types: list[tuple[int, int]], rows: np.ndarray, j_grid: np.ndarray) -> tuple[Any, ...]:
        return (tuple(types), int(rows[0]), int(rows[-1]), j_grid.shape, int(j_grid[0, 0]), int(j_grid[-1, 0]))

    def _match_cost(self, a: int, b: int, i: np.ndarray, j: np.ndarray, features: np.ndarray, far_lag: np.ndarray | float) -> np.ndarray:
        learned = -log_odds(self.w.match, features)
        if self.on_base:
            learned = self.w.learned_weight * learned - bertalign_score(features)
        return learned + b * self.per_target + far_lag - self._kept(a, b, i, j)  # type: ignore[no-any-return]

    def band_costs(self, types: list[tuple[int, int]], rows: np.ndarray, j_grid: np.ndarray) -> np.ndarray:
        key = self._block_key(types, rows, j_grid)
        held = self._ready.pop(key, None)
        if held is not None:
            return held
        group = [self, *self._twins]
        first = self.f.first.band_costs(types, rows, j_grid)
        outs = [np.empty((len(types), len(rows), j_grid.shape[1])) for _ in group]
        i = np.broadcast_to(rows[:, None], j_grid.shape)
        memo: dict[tuple[int, int, int, int], np.ndarray] = {}  # cosines the shapes share, for this block
        for k, (a, b) in enumerate(types):
            bad = (i < a) | (j_grid < b) | (j_grid > self.n_tgt) | ~np.isfinite(first[k])
            if b == 0:
                at = np.clip(i - 1, 0, self.n_src - 1)
                for costs, out in zip(group, outs):
                    out[k] = np.where(bad, np.inf, costs.omission_cost[at])
            else:
                features = self.f.match(a, b, i, j_grid, first[k], memo)
                # The far-lag penalty reads only the features and the talk's settings.
                far = self._far_lag(features)
                for costs, out in zip(group, outs):
                    out[k] = np.where(bad, np.inf, costs._match_cost(a, b, i, j_grid, features, far))
        for twin, out in zip(self._twins, outs[1:]):
            twin._ready[key] = out
        return outs[0]


@dataclass(frozen=True)
class LearnedInputs:
    """What the second pass reads for a whole talk (kept by ``align_project(keep_scoring=True)``).

    Attributes:
        model: the first pass's :class:`~sialign.align.costs.BeadCostModel`.
        src_spans, tgt_spans: (runs, n, dim) / (runs, m, dim) unit vectors of concatenated runs.
        src_chars, tgt_chars: (n,), (m,) character lengths.
        units: ``"sentences"`` or ``"chunks"`` (the features).
        typical: the talk's :func:`typical_cosine` when known (else computed when read).
        weights: the weight set that applies (``WEIGHT_SETS``; empty: the one named ``units``).
    """

    model: Any
    src_spans: np.ndarray
    tgt_spans: np.ndarray
    src_chars: np.ndarray
    tgt_chars: np.ndarray
    units: str
    typical: float | None = None
    weights: str = ""

    @property
    def weight_set(self) -> str:
        """The name of the weight set that scored this talk."""
        return self.weights or self.units


@dataclass
class _Skip:
    skip: float


_WORD = re.compile(r"\w+")


def _number(word: str) -> bool:
    """A token with a digit, 2 characters or more."""
    return len(word) >= 2 and any(map(str.isdigit, word))


def shared_words(text: str) -> frozenset[str]:
    """The words of ``text`` a translation may keep unchanged: every word of 4 letters or more and
    every token with a digit (2 characters or more), case-folded (names, numbers, some cognates)."""
    return frozenset(w.casefold() for w in _WORD.findall(text) if len(w) >= 4 or _number(w))


def shared_names(text: str) -> frozenset[str]:
    """The words of :func:`shared_words` that ``text`` writes with a capital, and its tokens with a digit (names, numbers)."""
    return frozenset(w.casefold() for w in _WORD.findall(text) if (len(w) >= 4 and w[0].isupper()) or _number(w))


def _held(words: Sequence[frozenset[str]], start: int, count: int) -> frozenset[str]:
    """The words of segments ``start .. start + count - 1`` together (those before the first left out)."""
    return frozenset().union(*words[max(0, start) : start + count])


def crossing(left: tuple[int, int, int, int], right: tuple[int, int, int, int],
             src_names: Sequence[frozenset[str]], tgt_names: Sequence[frozenset[str]]) -> frozenset[str]:
    """The names that cross the boundary between two neighbouring beads (src_start, n_src, tgt_start, n_tgt):
    those of one bead's source that stand in the other's target and on neither of the other two sides."""
    s1, s2 = _held(src_names, left[0], left[1]), _held(src_names, right[0], right[1])
    t1, t2 = _held(tgt_names, left[2], left[3]), _held(tgt_names, right[2], right[3])
    return ((s1 - s2) & (t2 - t1)) | ((s2 - s1) & (t1 - t2))


def join_crossed(
    path: list[tuple[int, int, int, int]], src_names: Sequence[frozenset[str]], tgt_names: Sequence[frozenset[str]],
    max_src: int, max_tgt: int,
) -> list[tuple[int, int, int, int]]:
    """``path`` with every two neighbouring beads joined where a name crosses the boundary between
    them (:func:`crossing`), left to right, while the joined bead keeps to ``max_src`` × ``max_tgt``
    segments (a bead the second pass could make itself). A sentence left out (1-0) whose name
    stands in its neighbour's target, and only there, so joins that neighbour.

    ``src_names`` / ``tgt_names``: :func:`shared_names` of each segment, in the path's coordinates.
    """
    out: list[tuple[int, int, int, int]] = []
    for bead in path:
        if out:
            last = out[-1]
            if (last[1] + bead[1] <= max_src and last[3] + bead[3] <= max_tgt
                    and crossing(last, bead, src_names, tgt_names)):
                out[-1] = (last[0], last[1] + bead[1], last[2], last[3] + bead[3])
                continue
        out.append(bead)
    return out


def found_nearby(bead: tuple[int, int, int, int], src_words: Sequence[frozenset[str]], tgt_words: Sequence[frozenset[str]]) -> bool:
    """Whether at least ``FOUND_SHARE`` of the words of a 1-0 bead's source sentence stand in the
    ``FOUND_REACH`` target segments either side of its place (False for a sentence without such words).

    ``bead``: (src_start, n_src, tgt_start, 0); ``src_words`` / ``tgt_words``: :func:`shared_words` of each segment.
    """
    i0, a, j0, _ = bead
    mine = _held(src_words, i0, a)
    if not mine:
        return False
    near = _held(tgt_words, j0 - FOUND_REACH, 2 * FOUND_REACH)  # j0 - FOUND_REACH .. j0 + FOUND_REACH - 1
    return len(mine & near) >= FOUND_SHARE * len(mine)


def vote_paths(
    paths: list[list[tuple[int, int, int, int]]], minority: float = VOTE_MINORITY,
    kept: Collection[tuple[int, int, int, int]] = (),
) -> list[tuple[int, int, int, int]]:
    """The path through the beads of ``paths`` that favours beads two or more of them share and otherwise those of ``paths[0]``.

    Every path is a list of beads (src_start, n_src, tgt_start, n_tgt) from
    (0, 0) to the same end. A bead that k >= 2 of the paths hold earns k - 1;
    a bead of one path earns 0 in ``paths[0]`` and ``-minority`` in any other
    (less than a shared bead earns, so that a shared bead joined to the rest
    by a lone bead of another path wins over the first path's stretch). The
    result is the best path over the union of the paths' beads (a graph on
    their lattice points, acyclic since every bead moves forward), compared
    first by how many beads of ``kept`` it holds (all of them when they are
    all on one of the paths), then by its earnings (in tenths, exactly), then
    by how many beads of ``paths[0]`` it holds: a bead all the paths share is
    always on it, one two of them share is unless reaching it costs lone
    beads, and where the paths agree nowhere and nothing is kept it is
    ``paths[0]``.
    """
    Bead_ = tuple[int, int, int, int]
    if not paths or not paths[0]:
        return list(paths[0]) if paths else []
    votes: dict[Bead_, int] = {}
    for p in paths:
        for bead in set(p):
            if bead[1] + bead[3] <= 0:
                raise ValueError(f"a bead must hold a segment: {bead}")
            votes[bead] = votes.get(bead, 0) + 1
    primary, must = set(paths[0]), set(kept)
    lone = -round(10 * minority)
    # Per bead, what it adds: (a kept bead, earnings in tenths, a bead of the first path).
    gain = {bead: (int(bead in must), 10 * (k - 1) if k >= 2 else (0 if bead in primary else lone), int(bead in primary))
            for bead, k in votes.items()}
    leaving: dict[tuple[int, int], list[Bead_]] = {}
    for bead in gain:
        leaving.setdefault((bead[0], bead[2]), []).append(bead)
    points = sorted({(0, 0)} | set(leaving), key=lambda q: (q[0] + q[1], q))
    best: dict[tuple[int, int], tuple[tuple[int, int, int], Bead_ | None]] = {(0, 0): ((0, 0, 0), None)}
    for point in points:
        if point not in best:
            continue
        value = best[point][0]
        for bead in sorted(leaving.get(point, ())):
            end = (bead[0] + bead[1], bead[2] + bead[3])
            add = gain[bead]
            total = (value[0] + add[0], value[1] + add[1], value[2] + add[2])
            if end not in best or total > best[end][0]:
                best[end] = (total, bead)
    i0, a, j0, b = paths[0][-1]
    end = (i0 + a, j0 + b)
    out: list[Bead_] = []
    while end != (0, 0):
        came = best[end][1]
        assert came is not None
        out.append(came)
        end = (came[0], came[2])
    return out[::-1]


def path_band(path: list[tuple[int, int, int, int]], n: int, m: int, margin: int = MARGIN) -> Band:
    """The band of ``margin`` cells around a path of beads (src_start, n_src, tgt_start, n_tgt)."""
    points = [(0, 0)] + [(i0 + a, j0 + b) for i0, a, j0, b in path]
    return band_around_path(np.array(points), n, m, margin)


def refine(
    first: WindowCosts, src_spans: np.ndarray, tgt_spans: np.ndarray, src_chars: np.ndarray, tgt_chars: np.ndarray,
    path: list[tuple[int, int, int, int]], max_src: int, max_tgt: int, units: str = "sentences",
    should_stop: StopFn | None = None, typical: float | None = None,
    words: tuple[Sequence[frozenset[str]], Sequence[frozenset[str]]] | None = None,
    names: tuple[Sequence[frozenset[str]], Sequence[frozenset[str]]] | None = None,
) -> list[tuple[int, int, int, int]]:
    """The second pass with the shipped weight set ``units`` (``WEIGHT_SETS``); the first path when none is shipped.

    ``typical``: the window's :func:`typical_cosine` when the caller has it (else computed here);
    ``words``, ``names``: the window's :func:`shared_words` and :func:`shared_names` per source and
    target segment (see :func:`second_pass`; the names are read only where ``JOIN_CROSSED`` says so for ``units``).
    """
    weights = shipped_weights(units)
    if weights is None:
        return path
    features = BeadFeatures(src_spans, tgt_spans, src_chars, tgt_chars, first, typical)
    return second_pass(first, src_spans, tgt_spans, src_chars, tgt_chars, path, weights, max_src, max_tgt,
                       should_stop=should_stop, features=features, words=words,
                       names=names if JOIN_CROSSED.get(units) else None)


def second_pass(
    first: WindowCosts, src_spans: np.ndarray, tgt_spans: np.ndarray, src_chars: np.ndarray, tgt_chars: np.ndarray,
    path: list[tuple[int, int, int, int]], weights: BeadScoreWeights, max_src: int, max_tgt: int,
    band: Band | None = None, should_stop: StopFn | None = None, features: BeadFeatures | None = None,
    words: tuple[Sequence[frozenset[str]], Sequence[frozenset[str]]] | None = None,
    names: tuple[Sequence[frozenset[str]], Sequence[frozenset[str]]] | None = None,
) -> list[tuple[int, int, int, int]]:
    """Beads (src_start, n_src, tgt_start, n_tgt) of the best path by the learned score near ``path`` (window coordinates).

    Where ``VOTE`` says so for the weights' units, the learned path is then put
    to a vote with ``path`` and the best path by Bertalign's unlearned score
    over the same band (:func:`vote_paths`), following ``path`` where the three differ
    (Bertalign's score's path where ``weights.vote_follows`` says so) and, where
    ``weights.keep_learned_omissions``, keeping the learned path's 1-0 beads
    but those whose sentence's words stand in the target beside them
    (:func:`found_nearby`, with ``words``: each window segment's :func:`shared_words`;
    None keeps them all). With ``names`` (each window segment's :func:`shared_names`)
    the voted path's neighbouring beads that a name crosses are then joined (:func:`join_crossed`).

    ``band`` replaces the band around ``path`` (the fit searches near the gold path too);
    ``features`` are the window's :class:`BeadFeatures` when the caller keeps them (they do not
    depend on the weights).
    """
    n, m = first.n_src, first.n_tgt
    if weights.max_src:
        max_src = min(max_src, weights.max_src)
    band = band if band is not None else path_band(path, n, m)
    features = features if features is not None else BeadFeatures(src_spans, tgt_spans, src_chars, tgt_chars, first)
    check_stop(should_stop)
    # Many small matrix products (the cosine tables): one BLAS thread, which is also
    # 7 times faster than two on a busy 2-core machine (threads waiting on each other).
    with one_blas_thread():
        costs = _path_costs(features, weights, band, path, max_src, max_tgt)
        voting = bool(VOTE.get(weights.units) and path)
        if voting:
            # Bertalign's unlearned score over the same band: its costs are computed
            # alongside the learned ones, from features computed once.
            base_costs = _path_costs(features, replace(weights, base="bertalign", learned_weight=0.0), band, path, max_src, max_tgt)
            costs.share_with(base_costs)
        check_stop(should_stop)
        learned: list[tuple[int, int, int, int]] = banded_dp(costs, band, should_stop=should_stop).beads  # type: ignore[arg-type]
        if not (voting and learned):
            return learned
        check_stop(should_stop)
        base: list[tuple[int, int, int, int]] = banded_dp(base_costs, band, should_stop=should_stop).beads  # type: ignore[arg-type]
        # The sentences the learned path leaves out stay out: its omission model tells a sentence
        # left out from one compressed into a neighbour's rendering, which the first pass's fixed
        # skip cost and Bertalign's fixed skip score do not (without this the vote finds 4 of
        # EPTIC dev's 30 omitted sentences instead of 18). Its 0-1 beads are put to the vote,
        # and so is a 1-0 bead whose sentence's names and numbers the target holds beside it.
        kept = [bead for bead in learned if bead[1] and not bead[3] and not (words and found_nearby(bead, *words))
                ] if weights.keep_learned_omissions else []
        voters = [base, learned, path] if weights.vote_follows == "bertalign" else [path, learned, base]
        voted = vote_paths(voters, kept=kept)
        # Joined beads keep to the runs the second pass reads (a bead it could make itself).
        return join_crossed(voted, *names, costs.max_src, costs.max_tgt) if names else voted


def _path_costs(
    features: BeadFeatures, weights: BeadScoreWeights, band: Band, path: list[tuple[int, int, int, int]],
    max_src: int, max_tgt: int,
) -> LearnedCosts:
    """The costs ``weights`` give the beads of ``band`` (``path``: the first pass's, for the reference bonus and kept omissions)."""
    costs = LearnedCosts(features, weights, band, max_src, max_tgt)
    costs.keep_first(path, REFERENCE_KEEP_LOGODDS.get(weights.units, 0.0))
    if weights.first_pass_omissions:
        omitted = np.zeros(features.n_src, dtype=bool)
        for i0, a, _j0, b in path:
            if b == 0:
                omitted[i0 : i0 + a] = True
        costs.omission_cost = np.where(omitted, -KEPT_OMISSION_LOGODDS, KEPT_OMISSION_LOGODDS)
    return costs


def _best_path(
    features: BeadFeatures, weights: BeadScoreWeights, band: Band, path: list[tuple[int, int, int, int]],
    max_src: int, max_tgt: int, should_stop: StopFn | None,
) -> list[tuple[int, int, int, int]]:
    """The best path by ``weights``' score in ``band`` (``path``: the first pass's, for the reference bonus and kept omissions)."""
    costs = _path_costs(features, weights, band, path, max_src, max_tgt)
    check_stop(should_stop)
    return banded_dp(costs, band, should_stop=should_stop).beads  # type: ignore[arg-type]
