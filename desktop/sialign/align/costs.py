"""Bead costs for the coarse DP (docs/algorithms.md: Coarse alignment).

A bead ending at lattice point (i, j) with ``a`` source and ``b`` target
segments covers source segments ``i-a .. i-1`` and target segments
``j-b .. j-1``. Its text cost is the cosine distance between the two sides,
divided by how far each side is, on average, from random segments of the
other document (vecalign's normalisation: unrelated pairs cost about 1, and
"hub" segments that resemble everything do not get cheap matches).

Several *signals* can contribute: the source ↔ target vectors, and in pivot
mode the reference translation ↔ target vectors (same language). Their
normalised costs are averaged with the signals' weights.

Multi-segment sides are compared in one of two ways:

- fast: the side's vector is the normalised sum of its members' vectors. The
  cosine then only needs sums of the similarity matrix over a block, read in
  O(1) from 2-D prefix sums (built per block of DP rows over the columns
  the band touches, never for the whole matrix), plus the norms of the summed vectors, read from
  the dot products of neighbouring segments. Nothing is re-encoded.
- exact: the caller supplies vectors of the concatenated texts
  (``src_spans[a-1, p]`` = vector of segments ``p .. p+a-1``), as
  vecalign/Bertalign do.

The size penalty knows the target side is chunks: an interpreter renders one
source sentence in several short chunks, so a 1-5 bead is normal and only
pays ``tgt_size_penalty`` per extra chunk, while extra source sentences pay
``src_size_penalty`` each.
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from sialign.align.cost_tables import (
    MIN_NORMALISER,
    LazySimilarity,
    Signal,
    SignalTables,
    prefix_sums_2d,
    random_partners,
    run_norms,
    similarities,
)
from sialign.core.documents import Document
from sialign.core.params import AlignParams

# Tables of recently used signals (see BeadCostModel._cached_tables).
_TABLE_CACHE: OrderedDict[tuple, tuple[list, SignalTables]] = OrderedDict()
_TABLE_CACHE_SIZE = 8


@dataclass
class CostSettings:
    """The scalar knobs of the bead cost (a view of :class:`~sialign.core.params.AlignParams`).

    Attributes:
        skip: cost of a 0-1 bead (a target segment matching nothing), and of
            a 1-0 bead unless ``omission_skip`` is set.
        omission_skip: cost of a 1-0 bead (a source segment left
            unrendered, an omission), or None for ``skip``. An interpreter
            leaves whole sentences out far more often than a chunk renders
            nothing, and at about 1 (the cost of pairing with unrelated
            text) an omitted sentence no longer has to be pushed into a
            neighbour's bead.
        src_size_penalty: the text cost is multiplied by ``1 + src_size_penalty * (a - 1)``.
        tgt_size_penalty: ... and by ``1 + tgt_size_penalty * (b - 1)`` (vecalign: both 1).
        time_weight: cost per second outside the ear-voice-span window, for
            the first ``time_near`` seconds outside it.
        time_near: seconds outside the window charged at ``time_weight``;
            beyond, each second costs ``time_far_weight``. Sentence-level
            timestamps put a bead a few seconds off now and then (cheap),
            while a rendering half a minute away is a different sentence.
        time_far_weight: cost per second beyond ``time_near`` outside the window.
        evs_min, evs_max: the window, target start minus source start, in seconds.
        lag_centre: the talk's typical lag (target start minus source start),
            seconds, or None; with ``lag_pull`` it breaks ties inside the window.
        lag_pull: cost per second a bead's start lag is away from ``lag_centre``
            (0 = off): where the text cannot tell two neighbouring chunks
            apart (recognised speech), the one nearer the interpreter's usual
            lag wins.
        length_weight: weight of the length-ratio term (0 = off): a bead
            whose sides' character lengths deviate from the document's
            overall ratio pays ``length_weight * |log deviation|``.
        merge_cost: added per segment beyond a 1-1 bead; tiny, it only breaks
            ties toward the smallest beads ("minimal groups"): with identical
            documents a 2-2 bead costs exactly as little as two 1-1 beads.
        random_pairs: how many random partners estimate a segment's normaliser.
        seed: of the random partner draw (results are reproducible).
    """

    skip: float = 0.3
    omission_skip: float | None = None
    src_size_penalty: float = 1.0
    tgt_size_penalty: float = 0.05
    time_weight: float = 0.0
    time_near: float = 5.0
    time_far_weight: float = 0.1
    evs_min: float = -1.0
    evs_max: float = 10.0
    lag_centre: float | None = None
    lag_pull: float = 0.0
    length_weight: float = 0.0
    merge_cost: float = 1e-3
    random_pairs: int = 64
    seed: int = 0


# Cost presets per kind of target unit, tuned on the dev sets (see
# tests/benchmarks/RESULTS.md): chunks on AHC-SI dev (pivot, LCS accuracy),
# sentences on Text+Berg dev (bead F1).
#
# Chunks: a chunk left over (0-1) costs 2, an unrendered sentence (1-0, an
# omission) 1, the cost of pairing it with unrelated text. With 2 for both,
# an omitted sentence always took a neighbour's chunk or joined its bead
# (the example talk's two omissions); at 1 the synthetic omission benchmark
# finds half of them at precision 0.7 and the unmodified dev talks get no
# 1-0 bead at all. Lower (0.9) finds more but invents omissions there.
PRESETS: dict[str, dict[str, float]] = {
    "chunks": {
        "skip_penalty": 2.0, "omission_skip": 1.0, "src_size_penalty": 2.0, "tgt_size_penalty": 0.3,
        "length_weight": 0.1,
    },
    "sentences": {
        "skip_penalty": 1.0, "omission_skip": 1.0, "src_size_penalty": 0.75, "tgt_size_penalty": 0.75,
        "length_weight": 0.4,
    },
}
# A target with this many times the source's segments is taken to be chunks...
CHUNK_RATIO = 1.5
# ...unless at least this share of its segments ends a sentence: a translation that splits long
# sentences (a Chinese novel's English, 1.66 times the sentences, ends 75 % of them) or an
# interpreted speech in sentences (EPTIC, up to 1.86 times, ends them all). Interpreters' chunks
# are cut at pauses and commas: AHC-SI's end a sentence in 19-32 % of them, the example talk's
# in 40 %. The share is set between the two kinds (40 % and 75 %).
SENTENCE_END_SHARE = 0.6


def ends_sentences(texts: Sequence[str], language: str) -> float:
    """The share of ``texts`` that end a sentence (:func:`sialign.text.sentences.ends_with_strong_punctuation`:
    a terminal mark, closing quotes allowed, not an abbreviation, an initial or a trailing ellipsis)."""
    from sialign.text.sentences import ends_with_strong_punctuation

    if not texts:
        return 0.0
    return sum(1 for text in texts if ends_with_strong_punctuation(text, language)) / len(texts)


def resolve_target_units(params: AlignParams, n_src: int, target: Document) -> str:
    """``"chunks"`` or ``"sentences"``: the preset ``params.target_units`` selects for aligning ``n_src`` source
    segments with ``target``.

    ``auto``: chunks when the target has at least ``CHUNK_RATIO`` times the source's segments and fewer than
    ``SENTENCE_END_SHARE`` of them end a sentence.
    """
    # AlignParams allows only "auto" besides the presets.
    if params.target_units in PRESETS:
        return params.target_units
    if len(target) < CHUNK_RATIO * max(n_src, 1):
        return "sentences"
    if ends_sentences(target.normalised_texts(), target.language) >= SENTENCE_END_SHARE:
        return "sentences"
    return "chunks"


def cost_settings(params: AlignParams, units: str) -> CostSettings:
    """The DP's cost knobs: explicit parameters, else the preset of ``units``."""
    preset = PRESETS[units]

    def pick(name: str) -> float:
        value = getattr(params, name)
        return float(preset[name] if value is None else value)

    return CostSettings(
        skip=pick("skip_penalty"),
        omission_skip=pick("omission_skip"),
        src_size_penalty=pick("src_size_penalty"),
        tgt_size_penalty=pick("tgt_size_penalty"),
        length_weight=pick("length_weight"),
        time_weight=float(params.time_weight) if params.time_prior else 0.0,
        time_far_weight=float(params.time_far_weight) if params.time_prior else 0.0,
        evs_min=float(params.evs_min),
        evs_max=float(params.evs_max),
    )


@dataclass
class BeadCostModel:
    """Costs of every bead the DP may choose.

    Args:
        signals: one or more :class:`Signal` over the same (n_src, n_tgt).
        max_src, max_tgt: largest bead sides.
        settings: the scalar knobs.
        src_lengths: (n_src,) character lengths, or None (no length term).
        tgt_lengths: (n_tgt,) character lengths, or None.
        src_starts: (n_src,) start times in seconds, or None (no time prior).
        tgt_starts: (n_tgt,) start times in seconds, or None.
        tgt_skip_scale: (n_tgt,) factors in [0, 1] on the 0-1 cost of each
            target segment, or None (1 everywhere): a line without words
            (OCR debris, "- _-") is cheap to leave unaligned.
        src_ends: (n_src,) end times in seconds, or None (then the start of
            the next source segment stands in for a segment's end).
    """

    signals: list[Signal]
    max_src: int
    max_tgt: int
    settings: CostSettings = field(default_factory=CostSettings)
    src_starts: np.ndarray | None = None
    tgt_starts: np.ndarray | None = None
    src_lengths: np.ndarray | None = None
    tgt_lengths: np.ndarray | None = None
    tgt_skip_scale: np.ndarray | None = None
    src_ends: np.ndarray | None = None

    def __post_init__(self) -> None:
        if not self.signals:
            raise ValueError("at least one signal is needed")
        self.n_src = int(self.signals[0].src.shape[0])
        self.n_tgt = int(self.signals[0].tgt.shape[0])
        for s in self.signals:
            if s.src.shape[0] != self.n_src or s.tgt.shape[0] != self.n_tgt:
                raise ValueError("all signals must cover the same source and target segments")
        total = sum(s.weight for s in self.signals)
        if total <= 0:
            raise ValueError("signal weights must sum to a positive number")
        self._weights = [s.weight / total for s in self.signals]
        # Per-row trust as prefix sums (None: the signal's weight everywhere).
        self._trust_cums: list[np.ndarray | None] = []
        for sig in self.signals:
            if sig.src_trust is None:
                self._trust_cums.append(None)
            else:
                trust = np.clip(np.asarray(sig.src_trust, dtype=np.float64), 0.0, 1.0)
                if trust.shape != (self.n_src,):
                    raise ValueError(f"src_trust must have shape ({self.n_src},), not {trust.shape}")
                self._trust_cums.append(np.concatenate(([0.0], np.cumsum(trust))))
        self._trusted = any(c is not None for c in self._trust_cums)
        self._tables = [self._cached_tables(s) for s in self.signals]
        # (a, b) -> mean calibrated terms of random beads (random_bead_cost)
        self._random_bead_mean: dict[tuple[int, int], float] = {}
        self.use_time = (
            (self.settings.time_weight > 0 or self.settings.time_far_weight > 0) and self.src_starts is not None and self.tgt_starts is not None
        )
        self.use_length = (
            self.settings.length_weight > 0 and self.src_lengths is not None and self.tgt_lengths is not None
        )
        if self.use_length:
            assert self.src_lengths is not None and self.tgt_lengths is not None
            ls = np.asarray(self.src_lengths, dtype=np.float64)
            lt = np.asarray(self.tgt_lengths, dtype=np.float64)
            self._src_len_cums = np.concatenate(([0.0], np.cumsum(ls)))
            self._tgt_len_cums = np.concatenate(([0.0], np.cumsum(lt)))
            self._log_ratio = float(np.log((lt.sum() + 1.0) / (ls.sum() + 1.0)))

    # ---------------------------------------------------------------- tables
    def _cached_tables(self, signal: Signal) -> SignalTables:
        """Tables of ``signal``, reused while its very arrays are alive.

        Re-aligning with other costs (a new skip penalty, a confirmed bead)
        keeps the vectors, so the similarity matrix, run norms and
        normalisers need not be computed again. Entries hold weak references
        and match only the identical array objects.
        """
        arrays = [signal.src, signal.tgt, signal.src_spans, signal.tgt_spans]
        key = (
            tuple(id(x) for x in arrays),
            self.max_src,
            self.max_tgt,
            self.settings.random_pairs,
            self.settings.seed,
        )
        hit = _TABLE_CACHE.get(key)
        if hit is not None:
            refs, tables = hit
            if all((r is None and x is None) or (r is not None and r() is x) for r, x in zip(refs, arrays)):
                _TABLE_CACHE.move_to_end(key)
                tables.signal = signal
                return tables
        tables = self._prepare(signal, np.random.default_rng(self.settings.seed))
        _TABLE_CACHE[key] = ([None if x is None else weakref.ref(x) for x in arrays], tables)
        while len(_TABLE_CACHE) > _TABLE_CACHE_SIZE:
            _TABLE_CACHE.popitem(last=False)
        return tables

    def _prepare(self, signal: Signal, rng: np.random.Generator) -> SignalTables:
        n, m, A, B = self.n_src, self.n_tgt, self.max_src, self.max_tgt
        rand_tgt = random_partners(m, self.settings.random_pairs, rng)
        rand_src = random_partners(n, self.settings.random_pairs, rng)
        if signal.exact:
            assert signal.src_spans is not None and signal.tgt_spans is not None
            src_norm = np.ones((A + 1, n + 1))
            tgt_norm = np.ones((B + 1, m + 1))
            src_random = np.full((A + 1, n + 1), np.nan)
            tgt_random = np.full((B + 1, m + 1), np.nan)
            tgt_sample = signal.tgt[rand_tgt]
            src_sample = signal.src[rand_src]
            for a in range(1, A + 1):
                if a > n or len(rand_tgt) == 0:
                    continue
                spans = signal.src_spans[a - 1, : n - a + 1]
                src_random[a, a:] = 1.0 - (spans @ tgt_sample.T).mean(axis=1)
            for b in range(1, B + 1):
                if b > m or len(rand_src) == 0:
                    continue
                spans = signal.tgt_spans[b - 1, : m - b + 1]
                tgt_random[b, b:] = 1.0 - (spans @ src_sample.T).mean(axis=1)
            sim = similarities(signal.src, signal.tgt)
            return SignalTables(signal, sim, False, src_norm, tgt_norm, src_random, tgt_random)

        sim = similarities(signal.src, signal.tgt)
        src_norm = run_norms(signal.src, A)
        tgt_norm = run_norms(signal.tgt, B)
        # Mean similarity of each single segment to the random partners; a
        # run's mean similarity is the sum over members divided by the run norm.
        row_mean = sim[:, rand_tgt].mean(axis=1, dtype=np.float64) if len(rand_tgt) else np.zeros(n)
        col_mean = sim[rand_src, :].mean(axis=0, dtype=np.float64) if len(rand_src) else np.zeros(m)
        src_random = self._run_mean_distance(row_mean, src_norm, A)
        tgt_random = self._run_mean_distance(col_mean, tgt_norm, B)
        return SignalTables(signal, sim, True, src_norm, tgt_norm, src_random, tgt_random)

    @staticmethod
    def _run_mean_distance(single_mean: np.ndarray, norms: np.ndarray, max_run: int) -> np.ndarray:
        n = single_mean.shape[0]
        cums = np.concatenate(([0.0], np.cumsum(single_mean)))
        out = np.full((max_run + 1, n + 1), np.nan)
        ends = np.arange(n + 1)
        for a in range(1, max_run + 1):
            ok = ends >= a
            i = ends[ok]
            with np.errstate(invalid="ignore", divide="ignore"):
                mean_sim = (cums[i] - cums[i - a]) / norms[a, i]
            out[a, ok] = 1.0 - np.nan_to_num(mean_sim)
        return out

    # ----------------------------------------------------------------- costs
    def size_multiplier(self, a: int, b: int) -> float:
        s = self.settings
        # vecalign multiplies by a * b (both penalties 1); SI chunks need a
        # small target penalty or 1-5 beads lose to 1-1 plus four skips.
        return (1.0 + s.src_size_penalty * (a - 1)) * (1.0 + s.tgt_size_penalty * (b - 1))

    def text_cost(self, a: int, b: int, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """Normalised text cost of (a, b) beads ending at lattice points (i, j).

        Args:
            a, b: bead sides (both >= 1).
            i: int array of run ends on the source side (any shape).
            j: int array of run ends on the target side (broadcastable with ``i``).

        Returns:
            float64 array of the broadcast shape; ``inf`` where the bead does
            not fit (``i < a``, ``j < b``, ``i > n_src`` or ``j > n_tgt``).
        """
        i, j = np.broadcast_arrays(np.asarray(i, dtype=np.int64), np.asarray(j, dtype=np.int64))
        if a > self.n_src or b > self.n_tgt:
            return np.full(i.shape, np.inf)
        ok = (i >= a) & (j >= b) & (i <= self.n_src) & (j <= self.n_tgt)
        ic = np.where(ok, i, a)
        jc = np.where(ok, j, b)
        total = np.zeros(i.shape, dtype=np.float64)
        weights = self._bead_weights(a, ic)
        for w, t in zip(weights, self._tables):
            if t.fast:
                # a*b gathers: point evaluations are few (traceback, tests).
                block = np.zeros(i.shape, dtype=np.float64)
                for da in range(a):
                    for db in range(b):
                        block += t.sim[ic - a + da, jc - b + db]
                denom = t.src_norm[a, ic] * t.tgt_norm[b, jc]
                with np.errstate(invalid="ignore", divide="ignore"):
                    cos = np.where(denom > 0, block / denom, 0.0)
            else:
                cos = self._exact_cos(t.signal, a, b, ic, jc)
            dist = 1.0 - cos
            norm = 0.5 * (t.src_random[a, ic] + t.tgt_random[b, jc])
            norm = np.maximum(np.nan_to_num(norm, nan=1.0), MIN_NORMALISER)
            total += w * dist / norm
        return np.where(ok, total, np.inf)

    def _bead_weights(self, a: int, i: np.ndarray) -> list[np.ndarray | float]:
        """Each signal's share in the cost of beads of ``a`` source rows ending at ``i`` (any shape).

        Without trust values these are the normalised signal weights; with
        them, a signal's weight is scaled by the mean trust of the bead's
        source rows and the shares are normalised per bead. Where every
        signal has weight 0 the plain weights apply.
        """
        if not self._trusted or a > self.n_src:
            # (More source rows than the talk has: no such bead exists, its cost is inf anyway.)
            return list(self._weights)
        raw: list[np.ndarray] = []
        for w, cums in zip(self._weights, self._trust_cums):
            if cums is None:
                raw.append(np.full(np.shape(i), w, dtype=np.float64))
            else:
                ic = np.clip(i, a, self.n_src)
                raw.append(w * (cums[ic] - cums[ic - a]) / a)
        total = np.sum(raw, axis=0)
        safe = total > 1e-9
        return [np.where(safe, r / np.where(safe, total, 1.0), w) for r, w in zip(raw, self._weights)]

    @staticmethod
    def _exact_cos(signal: Signal, a: int, b: int, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        assert signal.src_spans is not None and signal.tgt_spans is not None
        src_rows = i - a
        tgt_rows = j - b
        out = np.empty(i.shape, dtype=np.float64)
        if i.size == 0:
            return out
        if i.ndim == 2:
            # A band block: one dense product over the columns the block touches.
            r_lo, r_hi = int(src_rows.min()), int(src_rows.max()) + 1
            c_lo, c_hi = int(tgt_rows.min()), int(tgt_rows.max()) + 1
            dense = signal.src_spans[a - 1, r_lo:r_hi] @ signal.tgt_spans[b - 1, c_lo:c_hi].T
            out[...] = dense[src_rows - r_lo, tgt_rows - c_lo]
            return out
        flat_s = signal.src_spans[a - 1][src_rows.ravel()]
        flat_t = signal.tgt_spans[b - 1][tgt_rows.ravel()]
        out.reshape(-1)[:] = np.einsum("ij,ij->i", flat_s, flat_t)
        return out

    def time_cost(self, a: int, b: int, i: np.ndarray, j: np.ndarray) -> np.ndarray | float:
        """Ear-voice-span penalty of (a, b) beads ending at (i, j); 0 without times.

        The rendering starts at the bead's first target segment. It may not
        start before the first source segment (by more than ``-evs_min``),
        nor later than ``evs_max`` after the first source segment starts
        (one segment) or ends (several: an interpreter who compresses two
        sentences into one often starts speaking during the second, but a
        rendering half a minute after a sentence ended is not its rendering). Seconds outside cost ``time_weight``
        each (steeper beyond ``time_near``).
        """
        if not self.use_time:
            return 0.0
        assert self.src_starts is not None and self.tgt_starts is not None
        i, j = np.broadcast_arrays(np.asarray(i, dtype=np.int64), np.asarray(j, dtype=np.int64))
        first_src = np.clip(i - a, 0, max(self.n_src - 1, 0))
        tj = np.clip(j - b, 0, max(self.n_tgt - 1, 0))
        start = self.tgt_starts[tj]
        return self._time_penalty(start - self.src_starts[first_src], start - self._late_reference(a, i))

    def _late_reference(self, a: int, i: np.ndarray) -> np.ndarray:
        """When the rendering of ``a`` source segments ending at ``i`` is due: the first one's start (a = 1) or end."""
        assert self.src_starts is not None
        last = max(self.n_src - 1, 0)
        first = np.clip(np.asarray(i) - a, 0, last)
        if a == 1:
            return self.src_starts[first]
        if self.src_ends is not None:
            return np.asarray(self.src_ends, dtype=np.float64)[first]
        return self.src_starts[np.clip(first + 1, 0, last)]

    def _time_penalty(self, lag_first: np.ndarray, lag_late: np.ndarray) -> np.ndarray:
        """Cost of lags (any shape, seconds) against the window: linear, steeper beyond ``time_near``.

        ``lag_first`` is measured from the bead's first source segment's
        start (too early below ``evs_min``), ``lag_late`` from when the
        rendering is due (:meth:`_late_reference`; too late above ``evs_max``).
        """
        s = self.settings
        outside = np.maximum(s.evs_min - lag_first, 0.0) + np.maximum(lag_late - s.evs_max, 0.0)
        near = np.minimum(outside, s.time_near)
        penalty = s.time_weight * near + s.time_far_weight * (outside - near)
        if s.lag_pull > 0 and s.lag_centre is not None:
            penalty = penalty + s.lag_pull * np.abs(lag_first - s.lag_centre)
        return penalty

    def length_cost(self, a: int, b: int, i: np.ndarray, j: np.ndarray) -> np.ndarray | float:
        """Length-ratio penalty of (a, b) beads ending at (i, j); 0 when off.

        Translations keep a fairly stable character-length ratio (Gale &
        Church); a bead far from the document's overall ratio is suspicious.
        The deviation is measured in log space with +10 characters of
        smoothing so that very short segments are not over-penalised.
        """
        if not self.use_length:
            return 0.0
        i, j = np.broadcast_arrays(np.asarray(i, dtype=np.int64), np.asarray(j, dtype=np.int64))
        ic = np.clip(i, a, self.n_src)
        jc = np.clip(j, b, self.n_tgt)
        ls = self._src_len_cums[ic] - self._src_len_cums[ic - a]
        lt = self._tgt_len_cums[jc] - self._tgt_len_cums[jc - b]
        deviation = np.abs(np.log((lt + 10.0) / (ls + 10.0)) - self._log_ratio)
        return self.settings.length_weight * deviation

    def skip_cost(self, a: int) -> float:
        """Cost of a 1-0 (``a`` = 1, omission) or 0-1 (``a`` = 0) bead."""
        s = self.settings
        return float(s.omission_skip) if a and s.omission_skip is not None else float(s.skip)

    def _skip_costs(self, a: int, j: np.ndarray) -> np.ndarray | float:
        """Skip cost of 1-0 (``a`` = 1) or 0-1 beads ending at target lattice columns ``j``."""
        if a or self.tgt_skip_scale is None:
            return self.skip_cost(a)
        scale = np.asarray(self.tgt_skip_scale, dtype=np.float64)
        return self.skip_cost(0) * scale[np.clip(np.asarray(j) - 1, 0, max(self.n_tgt - 1, 0))]

    def bead_cost(self, a: int, b: int, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """What the DP minimises for (a, b) beads ending at (i, j) (``inf`` where impossible)."""
        if a == 0 or b == 0:
            i, j = np.broadcast_arrays(np.asarray(i, dtype=np.int64), np.asarray(j, dtype=np.int64))
            ok = (i >= a) & (j >= b) & (i <= self.n_src) & (j <= self.n_tgt)
            return np.where(ok, self._skip_costs(a, j), np.inf)
        return (
            self.size_multiplier(a, b) * (self.text_cost(a, b, i, j) + self.length_cost(a, b, i, j))
            + self.time_cost(a, b, i, j)
            + self.settings.merge_cost * (a + b - 2)
        )

    def random_bead_cost(self, a: int, b: int) -> float:
        """Mean of :meth:`calibrated_terms` over random (a, b) beads of these documents.

        Estimated per document and bead shape from ``4 * settings.random_pairs``
        random positions (seeded; a bead shape is evaluated only for the
        beads of the final path, so a larger sample is cheap), as vecalign estimates its normaliser from
        random pairs, but for the combined cost: the per-segment normaliser
        of :meth:`text_cost` brings unrelated single pairs to about 1, yet
        runs of several chunks sit lower (a summed vector overlaps more
        with anything) and the length term adds to unrelated pairs only.
        """
        key = (a, b)
        cache = self._random_bead_mean
        if key not in cache:
            count = max(4 * self.settings.random_pairs, 1)
            rng = np.random.default_rng([self.settings.seed, a, b])
            if a > self.n_src or b > self.n_tgt:
                cache[key] = 1.0
            else:
                i = rng.integers(a, self.n_src + 1, size=count)
                j = rng.integers(b, self.n_tgt + 1, size=count)
                mean = float(np.mean(self.calibrated_terms(a, b, i, j)))
                cache[key] = mean if np.isfinite(mean) and mean > MIN_NORMALISER else 1.0
        return cache[key]

    def calibrated_terms(self, a: int, b: int, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """Text cost plus the length term of (a, b) beads ending at (i, j): what a bead's reported cost scales."""
        return self.text_cost(a, b, i, j) + self.length_cost(a, b, i, j)

    def reported_cost(self, a: int, b: int, i: int, j: int) -> float:
        """The cost stored on a bead, calibrated so that unrelated beads cost about 1.

        The text cost plus the length term (the DP's cost without the size
        multiplier, which only expresses a preference among bead shapes),
        divided by its mean over random beads of the same shape in these
        documents (:meth:`random_bead_cost`), plus the time penalty. So a
        bead of any shape costs about 1 when it is as unrelated as random
        text, 0 when both sides are identical, and ``drop_threshold`` (1)
        means "no better than chance". Skip beads report None upstream and
        are given ``nan`` here.
        """
        if a == 0 or b == 0:
            return float("nan")
        ii = np.array([i])
        jj = np.array([j])
        terms = float(self.calibrated_terms(a, b, ii, jj)[0]) / self.random_bead_cost(a, b)
        timed = self.time_cost(a, b, ii, jj)
        return terms + (float(np.asarray(timed).reshape(-1)[0]) if self.use_time else 0.0)

    def band_costs(self, types: list[tuple[int, int]], rows: np.ndarray, j_grid: np.ndarray) -> np.ndarray:
        """:meth:`bead_cost` of every bead type over a block of DP rows, vectorised.

        Shares work across types: block sums of one source run length are
        gathered once for all target run lengths, per-run tables are read once
        per block.

        Args:
            types: (a, b) bead shapes, as :func:`sialign.align.dp.bead_types` lists them.
            rows: (R,) lattice rows i (source segments consumed).
            j_grid: (R, W) lattice columns j for each row, all <= n_tgt.

        Returns:
            (len(types), R, W) float64 costs, ``inf`` where a bead does not fit.
        """
        R, W = j_grid.shape
        rows = np.asarray(rows, dtype=np.int64)
        A, B = self.max_src, self.max_tgt
        out = np.empty((len(types), R, W))
        s = self.settings
        # Per target run length b: the run's start column, clipped, and validity.
        tgt_start = [np.clip(j_grid - b, 0, self.n_tgt) for b in range(B + 1)]
        tgt_ok = [j_grid >= b for b in range(B + 1)]
        src_ok = [rows >= a for a in range(A + 1)]
        type_set = frozenset(types)
        text: dict[tuple[int, int], np.ndarray] = {}
        # (R, 1) share of each signal per source run length a (per-row trust).
        row_weights = {
            a: [np.asarray(w, dtype=np.float64).reshape(-1, 1) if np.ndim(w) else w for w in self._bead_weights(a, rows)]
            for a in range(1, A + 1)
        }
        for k_signal, t in enumerate(self._tables):
            if not t.fast:
                for a, b in types:
                    if a and b:
                        cost = self._exact_cos_block(t, a, b, rows, j_grid)
                        text[(a, b)] = text.get((a, b), 0.0) + row_weights[a][k_signal] * cost
                continue
            with np.errstate(invalid="ignore", divide="ignore"):
                inv_tgt = [None] + [np.nan_to_num(1.0 / t.tgt_norm[b], nan=0.0, posinf=0.0) for b in range(1, B + 1)]
            rnd_tgt = [None] + [np.nan_to_num(t.tgt_random[b], nan=1.0) for b in range(1, B + 1)]
            tgt_inv_g = [None] + [inv_tgt[b][j_grid] for b in range(1, B + 1)]
            tgt_rnd_g = [None] + [rnd_tgt[b][j_grid] for b in range(1, B + 1)]
            # 2-D prefix sums of the similarities this block can touch:
            # source rows r_lo.. and target columns c_lo.. (local coordinates).
            r_lo = max(int(rows.min()) - A, 0)
            r_hi = min(int(rows.max()), self.n_src)
            c_lo = max(int(j_grid.min()) - B, 0)
            c_hi = min(int(j_grid.max()), self.n_tgt)
            local = prefix_sums_2d(t.sim[r_lo:r_hi, c_lo:c_hi])
            local_cols = [tgt_start[b] - c_lo for b in range(B + 1)]
            for a in range(1, min(A, self.n_src) + 1):
                if not any(ta == a and tb for ta, tb in types):
                    continue
                top = np.clip(rows, a, None) - r_lo
                # (R, local columns): sums over source rows i-a..i-1
                run_rows = local[np.clip(top, 0, local.shape[0] - 1)] - local[np.clip(top - a, 0, local.shape[0] - 1)]
                gathered = [np.take_along_axis(run_rows, local_cols[b], axis=1) for b in range(B + 1)]
                with np.errstate(invalid="ignore", divide="ignore"):
                    inv_src = np.nan_to_num(1.0 / t.src_norm[a, np.clip(rows, a, None)], nan=0.0, posinf=0.0)[:, None]
                rnd_src = np.nan_to_num(t.src_random[a, np.clip(rows, a, None)], nan=1.0)[:, None]
                for b in range(1, B + 1):
                    if (a, b) not in type_set:
                        continue
                    cos = (gathered[0] - gathered[b]) * inv_src * tgt_inv_g[b]
                    norm = np.maximum(0.5 * (rnd_src + tgt_rnd_g[b]), MIN_NORMALISER)
                    cost = (1.0 - cos) / norm
                    text[(a, b)] = text.get((a, b), 0.0) + row_weights[a][k_signal] * cost
        if self.use_length:
            log_tgt = [np.log(self._tgt_len_cums[j_grid] - self._tgt_len_cums[tgt_start[b]] + 10.0) for b in range(B + 1)]
        if self.use_time:
            assert self.src_starts is not None and self.tgt_starts is not None
            tgt_time = [self.tgt_starts[np.clip(j_grid - b, 0, max(self.n_tgt - 1, 0))] for b in range(B + 1)]
        for k, (a, b) in enumerate(types):
            ok = src_ok[a][:, None] & tgt_ok[b]
            if a == 0 or b == 0:
                out[k] = np.where(ok, self._skip_costs(a, j_grid), np.inf)
                continue
            if (a, b) not in text:  # the source is shorter than a
                out[k] = np.inf
                continue
            cost = text[(a, b)]
            if self.use_length:
                ic = np.clip(rows, a, self.n_src)
                log_src = np.log(self._src_len_cums[ic] - self._src_len_cums[ic - a] + 10.0)[:, None]
                cost = cost + s.length_weight * np.abs(log_tgt[b] - log_src - self._log_ratio)
            cost = cost * self.size_multiplier(a, b) + s.merge_cost * (a + b - 2)
            if self.use_time:
                assert self.src_starts is not None
                lag_first = tgt_time[b] - self.src_starts[np.clip(rows - a, 0, max(self.n_src - 1, 0))][:, None]
                lag_late = tgt_time[b] - self._late_reference(a, rows)[:, None]
                cost = cost + self._time_penalty(lag_first, lag_late)
            out[k] = np.where(ok, cost, np.inf)
        return out

    def _exact_cos_block(self, t: SignalTables, a: int, b: int, rows: np.ndarray, j_grid: np.ndarray) -> np.ndarray:
        """Normalised text cost of (a, b) beads over a block, exact mode: (R, W)."""
        if a > self.n_src or b > self.n_tgt:
            return np.full(j_grid.shape, np.inf)
        ic = np.broadcast_to(np.clip(rows, a, self.n_src)[:, None], j_grid.shape)
        jc = np.clip(j_grid, b, self.n_tgt)
        cos = self._exact_cos(t.signal, a, b, ic, jc)
        norm = 0.5 * (t.src_random[a, ic] + t.tgt_random[b, jc])
        norm = np.maximum(np.nan_to_num(norm, nan=1.0), MIN_NORMALISER)
        return (1.0 - cos) / norm

    def similarity(self) -> np.ndarray:
        """The weighted single-segment similarity matrix (n_src, n_tgt) float32, for display.

        Documents too large for a dense matrix (see
        :data:`~sialign.align.cost_tables.DENSE_SIMILARITY_CELLS`) get a
        read-only matrix of NaN that takes no memory: the matrix view shows
        no colours for them.
        """
        if any(isinstance(t.sim, LazySimilarity) for t in self._tables):
            return np.broadcast_to(np.float32(np.nan), (self.n_src, self.n_tgt))
        if len(self._tables) == 1:
            # The table is cached and shared: hand out a read-only view.
            table = self._tables[0].sim
            assert isinstance(table, np.ndarray)
            view = table.view()
            view.flags.writeable = False
            return view
        out = np.zeros((self.n_src, self.n_tgt), dtype=np.float32)
        rows = np.arange(1, self.n_src + 1)
        for w, t in zip(self._bead_weights(1, rows), self._tables):
            share = np.asarray(w, dtype=np.float32).reshape(-1, 1) if np.ndim(w) else np.float32(w)
            out += share * np.asarray(t.sim)
        return out
