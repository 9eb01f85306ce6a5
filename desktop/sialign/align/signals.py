"""Signal helpers of the alignment pipeline: scripts and the lexical mix, skip scaling, reference trust (pivot), lag estimation (time prior), peeling unrendered edge sentences."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from sialign.align.costs import BeadCostModel, CostSettings
from sialign.align.dp import EXACT_CELL_LIMIT, align_window
from sialign.core.plurals import count_noun
from sialign.core.progress import ProgressFn, StopFn
from sialign.embed.base import Embedder


def is_lexical(embedder: Embedder) -> bool:
    from sialign.embed.lexical import LexicalEmbedder

    return isinstance(embedder, LexicalEmbedder)


# ------------------------------------------------------------------ scripts
# Writing system per language (ISO 639-1); anything not listed is Latin.
SCRIPTS = {
    "ja": "Jpan", "zh": "Hani", "ko": "Kore", "ar": "Arab", "fa": "Arab", "ur": "Arab", "he": "Hebr",
    "ru": "Cyrl", "uk": "Cyrl", "bg": "Cyrl", "sr": "Cyrl", "mk": "Cyrl", "be": "Cyrl", "kk": "Cyrl",
    "el": "Grek", "th": "Thai", "hi": "Deva", "mr": "Deva", "ne": "Deva", "bn": "Beng", "ta": "Taml",
    "te": "Telu", "ka": "Geor", "hy": "Armn", "km": "Khmr", "lo": "Laoo", "my": "Mymr", "am": "Ethi",
}


def same_script(src_lang: str, tgt_lang: str) -> bool:
    """Whether two languages are written in the same script (unknown languages never are)."""
    from sialign.core.languages import language_code

    a, b = language_code(src_lang), language_code(tgt_lang)
    if a in ("", "und") or b in ("", "und"):
        return False
    return SCRIPTS.get(a, "Latn") == SCRIPTS.get(b, "Latn")


# Buckets of the lexical vectors mixed beside a neural signal: a quarter of
# the default keeps the similarity matrix of a book affordable (the product
# is 8x the encoder's 512 dimensions at 4,096), at ~3% noise per similarity.
MIX_LEXICAL_DIM = 1024


def mixes_lexical(main: Embedder, src_lang: str, tgt_lang: str) -> bool:
    """Whether the lexical signal joins ``main``'s: a neural embedder on two languages of one script."""
    return not is_lexical(main) and same_script(src_lang, tgt_lang)


# ------------------------------------------------------------------ skips
# Letters and digits a line needs before leaving it unaligned costs the full skip.
SKIP_FULL_AT = 6


def word_skip_scale(texts: Sequence[str]) -> np.ndarray:
    """Per-segment factor on the cost of a 0-1 bead: letters and digits / :data:`SKIP_FULL_AT`, at most 1.

    Scanned books and transcripts carry lines without words ("....", "- _-",
    a stray "m"): they translate nothing, and with the full skip cost the DP
    glues them to a neighbour's bead instead of leaving them out. Applied to
    sentence-like targets only: an interpreter's short chunk ("えー、") is
    part of a rendering.

    Returns:
        (len(texts),) float64 in [0, 1].
    """
    return np.array([min(sum(ch.isalnum() for ch in t) / SKIP_FULL_AT, 1.0) for t in texts], dtype=np.float64)


# ------------------------------------------------------------------ pivot
# Cosine above chance (mean similarity to random lines) at which a
# reference line counts as fully trusted; USE-multilingual puts translations
# 0.4-0.7 above chance.
TRUST_ABOVE_CHANCE = 0.3


# How much a neighbouring line may beat the line's own partner before trust
# falls to 0 (a reference shifted by a line matches its neighbour best).
TRUST_NEIGHBOUR_MARGIN = 0.1


# Median margin above chance below which an embedder is blind to the pair.
SEES_ABOVE_CHANCE = 0.1


def reference_trust(
    embedder: Embedder, src_texts: Sequence[str], ref_texts: Sequence[str], src_vectors: np.ndarray
) -> tuple[np.ndarray, bool]:
    """How far each reference line can be trusted as the translation of its source line.

    Real references are imperfect: TED's subtitles are cut differently from
    the source sentences (a line belongs to the next sentence), EPTIC's
    written translations leave spoken lines out ("-"). A line scores 1 when
    it matches its own source line clearly above chance and no better than
    a neighbouring one, 0 when it is blank, shifted or unrelated.

    Only an embedder that compares the two languages can judge this: when
    the lines are, in the median, less than :data:`SEES_ABOVE_CHANCE` above
    chance (lexical n-grams across scripts, an English-only model), the
    embedder is taken to be blind to the pair, every non-blank line scores 1
    and the caller uses the pivot alone.

    Args:
        embedder: the source ↔ target embedder.
        src_texts: n source lines; ref_texts: the n reference lines.
        src_vectors: (n, dim) vectors of the source lines from ``embedder``.

    Returns:
        ``(trust, sees)``: (n,) float64 values in [0, 1], and whether the
        embedder can compare source and reference at all.
    """
    n = len(src_texts)
    present = np.array([1.0 if t.strip() else 0.0 for t in ref_texts])
    if n < 2 or not present.any():
        return present, False
    from sialign.embed.cache import cached_encode, shared_cache

    ref = cached_encode(embedder, list(ref_texts), shared_cache())
    # Only the diagonal, its two neighbours and the row sums of the (n, n)
    # similarity matrix are read: computed without it (a 100,000-line talk's
    # matrix would take 80 GB).
    src = np.asarray(src_vectors, dtype=np.float32)
    ref32 = np.asarray(ref, dtype=np.float32)
    own = np.einsum("ij,ij->i", src, ref32).astype(np.float64)
    chance = (np.asarray(src @ ref32.sum(axis=0, dtype=np.float64).astype(np.float32), dtype=np.float64) - own) / (n - 1)
    if float(np.median((own - chance)[present > 0])) < SEES_ABOVE_CHANCE:
        return present, False
    neighbour = np.full(n, -1.0)
    # the line's source against the next line's reference and the next line's source against this reference
    ahead = np.einsum("ij,ij->i", src[:-1], ref32[1:]).astype(np.float64)
    behind = np.einsum("ij,ij->i", src[1:], ref32[:-1]).astype(np.float64)
    pair = np.maximum(ahead, behind)  # pair[k]: lines k and k+1
    neighbour[:-1] = np.maximum(neighbour[:-1], pair)
    neighbour[1:] = np.maximum(neighbour[1:], pair)
    above = np.clip((own - chance) / TRUST_ABOVE_CHANCE, 0.0, 1.0)
    beaten = np.clip(1.0 - (neighbour - own) / TRUST_NEIGHBOUR_MARGIN, 0.0, 1.0)
    return present * above * beaten, True


# ------------------------------------------------------------------ time
# Text-only beads at most this costly (1 = unrelated) date the talk's lag.
LAG_ANCHOR_COST = 0.6


LAG_MIN_ANCHORS = 5


# Median absolute deviation of the anchors' lags, seconds, above which the
# timestamps are taken to disagree with the text (the prior is dropped).
LAG_MAX_SPREAD = 5.0


# Seconds added around the anchors' 10th-90th percentile lags.
LAG_MARGIN = 2.0


# With a fitted window (``lag_window="fit"``), the seconds added around the
# anchors' 10th-90th percentile lags: word times from a recogniser are good to
# a few tenths of a second, so the window is the interpreter's own range.
LAG_FIT_MARGIN = 1.0


# With a fitted window, the pull toward the dated median lag per second, as a
# share of the time weight (a tie-breaker inside the window, see CostSettings.lag_pull).
LAG_PULL_SHARE = 1 / 3


@dataclass
class LagEstimate:
    """How the ear-voice-span prior was set for a talk.

    Attributes:
        used: whether the prior is applied.
        anchors: confident text-only beads that dated the lag.
        median: their median lag (target start minus source start), seconds.
        spread: their median absolute deviation, seconds.
        offset: how far the window was moved to reach ``median`` (a
            recording starting late or early), seconds.
        evs_min, evs_max: the window applied (when used).
        note: one line for the user.
    """

    used: bool
    anchors: int
    median: float | None
    spread: float | None
    offset: float
    evs_min: float
    evs_max: float
    note: str


def estimate_lag(
    text_only: BeadCostModel,
    src_starts: np.ndarray,
    tgt_starts: np.ndarray,
    settings: CostSettings,
    *,
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
    fit: bool = False,
) -> LagEstimate:
    """Date the interpretation's lag from a text-only alignment before trusting timestamps.

    Real recordings are offset (an interpretation track minutes late, or
    starting mid-speech), so the configured window (``settings.evs_min`` ..
    ``evs_max``, typical ear-voice spans) cannot be applied blindly. The talk
    is aligned on text alone; its confident beads (cost ≤
    :data:`LAG_ANCHOR_COST`) give lags. With too few of them, or lags that
    disagree (median absolute deviation above :data:`LAG_MAX_SPREAD`), the
    prior is dropped. Otherwise the window is moved by the offset that brings
    it to the median lag and widened to hold the anchors' 10th–90th
    percentile lags (plus :data:`LAG_MARGIN`).

    Args:
        text_only: the talk's cost model without times.
        src_starts: (n_src,) start times, seconds.
        tgt_starts: (n_tgt,) start times, seconds.
        settings: the configured window.
        fit: fit the window to the dated lags instead of widening the
            configured one (``AlignParams.lag_window == "fit"``). With too
            few confident beads, the cheaper half of the text-only beads (at
            least LAG_MIN_ANCHORS)
            date the lag: recognised text is noisy, so its costs are high
            everywhere, but their ranking still picks the better-matched
            beads.
    """
    result = align_window(
        text_only, 0, text_only.n_src, 0, text_only.n_tgt, exact_cell_limit=EXACT_CELL_LIMIT,
        progress=progress, should_stop=should_stop,
    )
    ranked = []
    for i0, a, j0, b in result.beads:
        if a and b:
            lag = float(tgt_starts[j0] - src_starts[i0])
            if np.isfinite(lag):
                ranked.append((text_only.reported_cost(a, b, i0 + a, j0 + b), lag))
    ranked.sort()
    lags = [lag for cost, lag in ranked if cost <= LAG_ANCHOR_COST]
    if fit and len(lags) < LAG_MIN_ANCHORS <= len(ranked):
        lags = [lag for _, lag in ranked[: max(LAG_MIN_ANCHORS, len(ranked) // 2)]]
    lo, hi = settings.evs_min, settings.evs_max
    values = np.array(lags)
    if len(lags) < LAG_MIN_ANCHORS:
        # Too few to estimate an offset: the configured window stands when
        # most anchors there agree with it (a short clip).
        if len(lags) and lo - LAG_MARGIN <= float(np.median(values)) <= hi + LAG_MARGIN:
            return LagEstimate(
                True, len(lags), round(float(np.median(values)), 3), None, 0.0, lo, hi,
                f"time prior on: the {len(lags)} confident beads lag {float(np.median(values)):.1f} s, "
                "within the usual window",
            )
        return LagEstimate(
            False, len(lags), None, None, 0.0, lo, hi,
            f"time prior off: {len(lags)} confident beads are too few to check the timestamps against "
            f"(need {LAG_MIN_ANCHORS}, or a median lag within {lo:g}..{hi:g} s)",
        )
    median = float(np.median(values))
    spread = float(np.median(np.abs(values - median)))
    if spread > LAG_MAX_SPREAD:
        return LagEstimate(
            False, len(lags), round(median, 3), round(spread, 3), 0.0, lo, hi,
            f"time prior off: the timestamps disagree with the text (lags vary by ±{spread:.1f} s around {median:.1f} s)",
        )
    q10, q90 = (float(q) for q in np.percentile(values, [10, 90]))
    if fit:
        window_lo, window_hi = q10 - LAG_FIT_MARGIN, q90 + LAG_FIT_MARGIN
        note = (f"time prior on: interpretation lag {median:.1f} s (±{spread:.1f} s, {count_noun(len(lags), 'bead')}); "
                f"window fitted to {window_lo:.1f}..{window_hi:.1f} s")
        return LagEstimate(True, len(lags), round(median, 3), round(spread, 3), 0.0,
                           round(window_lo, 3), round(window_hi, 3), note)
    offset = median - float(np.clip(median, lo, hi))
    window_lo = min(lo + offset, q10 - LAG_MARGIN)
    window_hi = max(hi + offset, q90 + LAG_MARGIN)
    note = f"time prior on: interpretation lag {median:.1f} s (±{spread:.1f} s, {count_noun(len(lags), 'bead')})"
    if offset:
        note += f"; the tracks are offset, the lag window was moved by {offset:+.1f} s"
    return LagEstimate(True, len(lags), round(median, 3), round(spread, 3), round(offset, 3),
                       round(window_lo, 3), round(window_hi, 3), note)


# ------------------------------------------------------------------ peeling
def peel_unrendered(
    model: BeadCostModel, beads: Sequence[tuple[int, int, int, int]], threshold: float
) -> list[tuple[int, int, int, int]]:
    """Split off edge source segments of n:m beads that match the bead's target no better than chance.

    An interpreter leaves out short sentences ("Thank you.", a repeated
    phrase) more often than a 1-0 cost can express: pairing the sentence
    with a neighbour's rendition barely moves the summed vector, so the DP
    glues it to that bead. Each bead with two or more source segments is
    checked from both ends: a member whose own normalised cost against the
    bead's target run (:meth:`BeadCostModel.text_cost` of a 1-b bead; 1 =
    unrelated text) is at least ``threshold`` becomes a 1-0 bead, and the
    check goes on with the next member.

    On EPTIC dev this finds about half of the gold omissions at threshold
    1.0, but also splits sentences the gold keeps in n:m beads (an
    interpreter compresses two sentences into one), so it is an option
    (``AlignParams.peel_threshold``, ``--peel``), not the default.

    Args:
        model: the cost model the beads came from.
        beads: (src_start, n_src, tgt_start, n_tgt) in order.
        threshold: least normalised member cost that counts as unrendered.

    Returns:
        The beads, with peeled members as separate 1-0 beads in order.
    """
    out: list[tuple[int, int, int, int]] = []
    for i0, a, j0, b in beads:
        before: list[tuple[int, int, int, int]] = []
        after: list[tuple[int, int, int, int]] = []
        while a >= 2 and b >= 1:
            end = np.array([j0 + b])
            first = float(model.text_cost(1, b, np.array([i0 + 1]), end)[0])
            last = float(model.text_cost(1, b, np.array([i0 + a]), end)[0])
            if max(first, last) < threshold:
                break
            if first >= last:
                before.append((i0, 1, j0, 0))
                i0 += 1
            else:
                after.insert(0, (i0 + a - 1, 1, j0 + b, 0))
            a -= 1
        out.extend(before)
        out.append((i0, a, j0, b))
        out.extend(after)
    return out
