"""Align a project: embed, run the coarse DP (or constrained segmentation), mark dropped beads.

:func:`align_project` is what the GUI's align worker and ``sialign align``
call. It reports progress in two stages (embedding, aligning), checks
``should_stop()`` between batches and DP row blocks (well under a second
apart), keeps confirmed beads as fixed anchors and re-aligns only the gaps
between them, and returns the similarity matrix the matrix view draws.

Pivot mode (docs/algorithms.md: Pivot alignment): with a reference translation, one line per
source segment, the DP compares reference ↔ target in the target language
(the lexical embedder is strong there, and a model need not be bilingual).
Because reference line i *is* source segment i, a bead over reference lines
i..i+a-1 carries over to source segments i..i+a-1 unchanged. With
``pivot_weight`` below 1 the source ↔ target costs are mixed in as a second
signal.

Vectors are memoised in the process: re-aligning a talk whose texts did not
change re-uses them (the GUI re-aligns after every change of parameters),
and a neural model is loaded once per process.
"""

from __future__ import annotations

import dataclasses
import hashlib
import inspect
import time
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Sequence

import numpy as np

from sialign.align.constrained import SegmentationInfeasible, constrained_segmentation
from sialign.align.costs import BeadCostModel, CostSettings, Signal
from sialign.align.dp import EXACT_CELL_LIMIT, align_window
from sialign.align.result import AlignResult
from sialign.core.errors import SialignError
from sialign.core.model import Alignment, Bead, BeadStatus, Document, Project
from sialign.core.params import AlignParams
from sialign.core.progress import ProgressFn, StopFn, check_stop, stage
from sialign.embed.base import Embedder
from sialign.embed.models import EmbedderChoice, choose_embedder

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
}  # fmt: skip
# A target with this many times the source's segments is taken to be chunks.
CHUNK_RATIO = 1.5


def resolve_target_units(params: AlignParams, n_src: int, n_tgt: int) -> str:
    """``"chunks"`` or ``"sentences"``: the preset ``params.target_units`` selects for these sizes."""
    if params.target_units in PRESETS:
        return params.target_units
    if params.target_units != "auto":
        raise SialignError(f"target_units must be 'auto', 'chunks' or 'sentences', not {params.target_units!r}")
    return "chunks" if n_tgt >= CHUNK_RATIO * max(n_src, 1) else "sentences"


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


# ------------------------------------------------------------------ embedding
_EMBEDDERS: dict[str, Embedder] = {}
_PAIR_MEMO: OrderedDict[str, tuple[np.ndarray, np.ndarray, np.ndarray | None, np.ndarray | None]] = OrderedDict()
_PAIR_MEMO_SIZE = 16


def get_embedder(spec: str) -> Embedder:
    """The embedder named by ``spec`` (``"lexical"``, ``"use-multilingual"``, a model path or name), loaded once per process."""
    from sialign.embed.models import make_embedder

    key = spec.strip() or "default"
    if key not in _EMBEDDERS:
        _EMBEDDERS[key] = make_embedder(key)
    return _EMBEDDERS[key]


def _digest(*parts: object) -> str:
    h = hashlib.sha1()
    for part in parts:
        if isinstance(part, (list, tuple)):
            for item in part:
                h.update(str(item).encode("utf-8"))
                h.update(b"\x00")
        else:
            h.update(str(part).encode("utf-8"))
        h.update(b"\x01")
    return h.hexdigest()


def _is_lexical(embedder: Embedder) -> bool:
    from sialign.embed.lexical import LexicalEmbedder

    return isinstance(embedder, LexicalEmbedder)


def encode_pair(
    embedder: Embedder,
    side: Sequence[str],
    other: Sequence[str],
    *,
    candidates: str = "fast",
    max_side: int = 1,
    max_other: int = 1,
    side_joiner: str = " ",
    other_joiner: str = " ",
    same_language: bool = False,
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, np.ndarray | None]:
    """Vectors of two documents to compare, memoised per process.

    The lexical embedder is first fitted on both documents (its statistics
    are per talk); for a same-language pair (pivot) its cross-lingual
    positional feature weighting is turned off, as the embedder documents. In exact mode the concatenations of up to ``max_side`` /
    ``max_other`` consecutive segments are encoded too.

    Returns:
        ``(side_vectors (n, dim), other_vectors (m, dim), side_spans, other_spans)``;
        the spans are (max_side, n, dim) / (max_other, m, dim) in exact mode, else None.
    """
    from sialign.embed.cache import cached_encode, shared_cache
    from sialign.embed.candidates import candidate_vectors

    lexical = _is_lexical(embedder)
    identity = repr(getattr(embedder, "settings", "")) if lexical else embedder.cache_id or f"id{id(embedder)}"
    # Fast mode vectors do not depend on the bead sizes; exact ones do.
    sizes = (max_side, max_other) if candidates == "exact" else ()
    key = _digest(type(embedder).__name__, identity, candidates, sizes, same_language, list(side), "|", list(other))
    hit = _PAIR_MEMO.get(key)
    if hit is not None:
        _PAIR_MEMO.move_to_end(key)
        if progress is not None:
            progress(1.0, f"Embedding with {embedder.name} (cached)")
        return hit
    if lexical:
        options = {}
        if same_language and "positional" in inspect.signature(embedder.fit).parameters:
            options["positional"] = False
        embedder.fit(side, other=other, **options)  # type: ignore[call-arg]
    # Vectors of neural embedders go through the on-disk cache: re-aligning
    # after an edit, or the same file in another run, encodes only new texts.
    cache = None if lexical else shared_cache()
    half_a, half_b = stage(progress, 0.0, 0.5), stage(progress, 0.5, 1.0)
    x = cached_encode(embedder, list(side), cache, progress=half_a, should_stop=should_stop)
    y = cached_encode(embedder, list(other), cache, progress=half_b, should_stop=should_stop)
    x_spans = y_spans = None
    if candidates == "exact":
        x_spans = candidate_vectors(
            x, max_side, "exact", list(side), embedder, joiner=side_joiner, cache=cache, should_stop=should_stop
        )
        y_spans = candidate_vectors(
            y, max_other, "exact", list(other), embedder, joiner=other_joiner, cache=cache, should_stop=should_stop
        )
    elif candidates != "fast":
        raise SialignError(f"candidates must be 'fast' or 'exact', not {candidates!r}")
    result = (x, y, x_spans, y_spans)
    _PAIR_MEMO[key] = result
    while len(_PAIR_MEMO) > _PAIR_MEMO_SIZE:
        _PAIR_MEMO.popitem(last=False)
    return result


def clear_memo() -> None:
    """Forget memoised vectors (tests; after changing a model in place)."""
    _PAIR_MEMO.clear()


# ------------------------------------------------------------------ anchors
def _anchor_gaps(
    project: Project, keep_confirmed: bool
) -> tuple[list[tuple[int, int, int, int]], list[tuple[int, Bead]]]:
    """Gaps to align and confirmed beads to keep.

    Returns:
        ``gaps``: (src_start, src_stop, tgt_start, tgt_stop) positions between
        anchors; ``anchors``: (position in the output order, bead) pairs,
        where the position is the index of the gap the anchor follows.
    """
    n, m = len(project.source), len(project.target)
    alignment = project.alignment
    if not keep_confirmed or alignment is None or not any(b.status is BeadStatus.CONFIRMED for b in alignment.beads):
        return [(0, n, 0, m)], []
    alignment.validate(project.source, project.target)
    gaps: list[tuple[int, int, int, int]] = []
    anchors: list[tuple[int, Bead]] = []
    i = j = 0
    gap_i = gap_j = 0
    for bead in alignment.beads:
        if bead.status is BeadStatus.CONFIRMED:
            gaps.append((gap_i, i, gap_j, j))
            anchors.append((len(gaps) - 1, bead.copy()))
            gap_i, gap_j = i + len(bead.src), j + len(bead.tgt)
        i += len(bead.src)
        j += len(bead.tgt)
    gaps.append((gap_i, n, gap_j, m))
    return gaps, anchors


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
    from sialign.embed.multilingual import language_code

    a, b = language_code(src_lang), language_code(tgt_lang)
    if a in ("", "und") or b in ("", "und"):
        return False
    return SCRIPTS.get(a, "Latn") == SCRIPTS.get(b, "Latn")


def mixes_lexical(main: Embedder, src_lang: str, tgt_lang: str) -> bool:
    """Whether the lexical signal joins ``main``'s: a neural embedder on two languages of one script."""
    return not _is_lexical(main) and same_script(src_lang, tgt_lang)


# ------------------------------------------------------------------ skips
# Letters and digits a line needs before leaving it unaligned costs the full skip.
SKIP_FULL_AT = 8


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
    sim = np.asarray(src_vectors @ np.asarray(ref).T, dtype=np.float64)  # (n, n)
    own = np.diag(sim).copy()
    chance = (sim.sum(axis=1) - own) / (n - 1)
    if float(np.median((own - chance)[present > 0])) < SEES_ABOVE_CHANCE:
        return present, False
    neighbour = np.full(n, -1.0)
    rows = np.arange(n)
    for d in (-1, 1):
        idx = rows + d
        ok = (idx >= 0) & (idx < n)
        # the line's source against the neighbouring reference, and the
        # line against the neighbouring source
        neighbour[ok] = np.maximum(neighbour[ok], np.maximum(sim[rows[ok], idx[ok]], sim[idx[ok], rows[ok]]))
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
    """
    result = align_window(
        text_only, 0, text_only.n_src, 0, text_only.n_tgt, exact_cell_limit=EXACT_CELL_LIMIT,
        progress=progress, should_stop=should_stop,
    )
    lags = []
    for i0, a, j0, b in result.beads:
        if a and b and text_only.reported_cost(a, b, i0 + a, j0 + b) <= LAG_ANCHOR_COST:
            lag = float(tgt_starts[j0] - src_starts[i0])
            if np.isfinite(lag):
                lags.append(lag)
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
    offset = median - float(np.clip(median, lo, hi))
    q10, q90 = (float(q) for q in np.percentile(values, [10, 90]))
    window_lo = min(lo + offset, q10 - LAG_MARGIN)
    window_hi = max(hi + offset, q90 + LAG_MARGIN)
    note = f"time prior on: interpretation lag {median:.1f} s (±{spread:.1f} s, {len(lags)} beads)"
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


# ------------------------------------------------------------------ beads
def _make_bead(
    project: Project,
    i0: int,
    a: int,
    j0: int,
    b: int,
    model: BeadCostModel | None,
    drop_threshold: float,
) -> Bead:
    src_ids = tuple(s.id for s in project.source.segments[i0 : i0 + a])
    tgt_ids = tuple(s.id for s in project.target.segments[j0 : j0 + b])
    if a == 0:
        return Bead(src_ids, tgt_ids, None, BeadStatus.DROPPED, "no source segment: nothing in the source matches this (0-1)")
    if b == 0:
        return Bead(src_ids, tgt_ids, None, BeadStatus.DROPPED, "no rendition found in the interpretation (1-0, omission)")
    assert model is not None
    raw = model.reported_cost(a, b, i0 + a, j0 + b)
    cost = round(raw, 4) if np.isfinite(raw) else None
    if cost is not None and cost > drop_threshold:
        return Bead(src_ids, tgt_ids, cost, BeadStatus.DROPPED, f"cost {cost:.2f} is above the drop threshold {drop_threshold:g}")
    return Bead(src_ids, tgt_ids, cost)


def _texts(doc: Document) -> list[str]:
    return [" ".join(s.text.split()) for s in doc.segments]


def _starts(doc: Document) -> np.ndarray:
    return np.array([s.start for s in doc.segments], dtype=np.float64)


def _ends(doc: Document) -> np.ndarray:
    return np.array([s.end if s.end is not None else s.start for s in doc.segments], dtype=np.float64)


# ------------------------------------------------------------------ main entry
def align_project(
    project: Project,
    params: AlignParams | None = None,
    *,
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
    keep_confirmed: bool = True,
    embedder: Embedder | None = None,
) -> AlignResult:
    """Align the project's source with its target.

    Args:
        project: documents (and reference translation) to align; read only.
        params: alignment parameters; defaults to ``project.params`` (or the
            defaults when the project has none).
        progress: ``progress(fraction, message)``.
        should_stop: checked often; cancellation raises :class:`AlignmentCancelled`.
        keep_confirmed: keep the current alignment's confirmed beads and
            re-align only the gaps between them.
        embedder: use this embedder instead of the one ``params.embedder`` names.

    Returns:
        :class:`AlignResult` with the new alignment, the similarity matrix
        (n_src, n_tgt) and the timings.

    Raises:
        AlignmentCancelled: ``should_stop()`` returned True.
        ModelNotFoundError: the model named in ``params.embedder`` is not on this computer.
        SialignError: bad parameters (unknown mode, segmentation impossible).
    """
    started = time.perf_counter()
    params = params or AlignParams.from_dict(project.params)
    progress = progress or (lambda f, m: None)
    check_stop(should_stop)
    src_doc, tgt_doc = project.source, project.target
    n, m = len(src_doc), len(tgt_doc)
    units = resolve_target_units(params, n, m)
    settings = cost_settings(params, units)
    if params.method not in ("beads", "segment"):
        raise SialignError(f"method must be 'beads' or 'segment', not {params.method!r}")

    # ---- embedding
    embed_progress = stage(progress, 0.0, 0.5)
    if embedder is not None:
        choice = EmbedderChoice(embedder.name)
        main = embedder
    else:
        choice = choose_embedder(params.embedder, src_doc.language, tgt_doc.language)
        main = get_embedder(choice.spec)
    use_pivot = bool(params.pivot and project.reference is not None and n > 0)
    if use_pivot and project.reference is not None and len(project.reference) != n:
        raise SialignError(
            f"the reference translation has {len(project.reference)} lines but the source has {n} segments; "
            "pivot alignment needs one reference line per source segment — fix the reference or align without it"
        )
    pivot_weight = min(max(float(params.pivot_weight), 0.0), 1.0) if use_pivot else 0.0
    signals: list[Signal] = []
    names: list[str] = []
    pivot_note = ""
    src_texts, tgt_texts = _texts(src_doc), _texts(tgt_doc)
    lengths_from = src_texts
    if n and m:
        if pivot_weight < 1.0:
            x, y, xs, ys = encode_pair(
                main, src_texts, tgt_texts, candidates=params.candidates, max_side=params.max_src,
                max_other=params.max_tgt, side_joiner=src_doc.joiner, other_joiner=tgt_doc.joiner,
                progress=stage(embed_progress, 0.0, 0.5 if pivot_weight > 0 else 1.0), should_stop=should_stop,
            )
            lexical_weight = float(params.lexical_weight) if mixes_lexical(main, src_doc.language, tgt_doc.language) else 0.0
            signals.append(Signal(x, y, (1.0 - pivot_weight) * (1.0 - lexical_weight), xs, ys, name="source"))
            names.append(main.name)
            if lexical_weight > 0:
                # Names, numbers and cognates in a shared script: the
                # character n-grams see what a sentence encoder blurs.
                from sialign.embed.lexical import LexicalEmbedder

                lx, ly, lxs, lys = encode_pair(
                    LexicalEmbedder(), src_texts, tgt_texts, candidates=params.candidates, max_side=params.max_src,
                    max_other=params.max_tgt, side_joiner=src_doc.joiner, other_joiner=tgt_doc.joiner,
                    should_stop=should_stop,
                )
                signals.append(Signal(lx, ly, (1.0 - pivot_weight) * lexical_weight, lxs, lys, name="lexical"))
                names[-1] += f" with lexical {lexical_weight:g}"
        if pivot_weight > 0:
            assert project.reference is not None
            pivot_embedder = main if params.pivot_embedder == "main" else get_embedder(params.pivot_embedder)
            ref_texts = _texts(project.reference)
            x, y, xs, ys = encode_pair(
                pivot_embedder, ref_texts, tgt_texts, candidates=params.candidates, max_side=params.max_src,
                max_other=params.max_tgt, side_joiner=project.reference.joiner, other_joiner=tgt_doc.joiner,
                same_language=True, progress=stage(embed_progress, 0.5 if pivot_weight < 1 else 0.0, 1.0), should_stop=should_stop,
            )
            trust = np.array([1.0 if t.strip() else 0.0 for t in ref_texts])
            if pivot_weight < 1.0 and signals:
                trust, sees = reference_trust(main, src_texts, ref_texts, signals[0].src)
                if not sees:
                    # The source ↔ target embedder cannot tell a translation
                    # from chance for this pair (lexical across scripts, an
                    # English-only model): mixing it in would only add noise.
                    signals.clear()
                    names.clear()
                    pivot_note = (
                        f"{main.name} cannot compare {src_doc.language} with {project.reference.language} "
                        "(the source and its reference look unrelated to it): the pivot alone decides"
                    )
            signals.append(Signal(x, y, pivot_weight if signals else 1.0, xs, ys, name="pivot", src_trust=trust))
            names.append(f"{pivot_embedder.name} (pivot through the reference translation)")
            if len(signals) == 1:
                lengths_from = ref_texts
    embedded = time.perf_counter()
    check_stop(should_stop)

    # ---- aligning
    align_progress = stage(progress, 0.5, 1.0)
    align_progress(0.0, "Aligning")
    timed = params.time_prior and n > 0 and m > 0 and src_doc.has_times and tgt_doc.has_times
    model: BeadCostModel | None = None
    lag: LagEstimate | None = None
    if signals:
        lengths = (
            np.array([len(t) for t in lengths_from], dtype=np.float64),
            np.array([len(t) for t in tgt_texts], dtype=np.float64),
        )
        if timed:
            # The recording's own offset first: a prior centred on the wrong
            # lag (a track starting minutes late) is worse than none.
            text_only = BeadCostModel(signals, params.max_src, params.max_tgt, settings, None, None, *lengths)
            lag = estimate_lag(
                text_only, _starts(src_doc), _starts(tgt_doc), settings,
                progress=stage(align_progress, 0.0, 0.3), should_stop=should_stop,
            )
            align_progress = stage(align_progress, 0.3, 1.0)
            if lag.used:
                settings = dataclasses.replace(settings, evs_min=lag.evs_min, evs_max=lag.evs_max)
            else:
                timed = False
        model = BeadCostModel(
            signals,
            params.max_src,
            params.max_tgt,
            settings,
            _starts(src_doc) if timed else None,
            _starts(tgt_doc) if timed else None,
            *lengths,
            word_skip_scale(tgt_texts) if units == "sentences" else None,
            _ends(src_doc) if timed else None,
        )
    gaps, anchors = _anchor_gaps(project, keep_confirmed)
    gap_beads: list[list[Bead]] = []
    levels: list[list[int]] = []
    total_cells = max(sum((g[1] - g[0] + 1) * (g[3] - g[2] + 1) for g in gaps), 1)
    done_cells = 0
    for s0, s1, t0, t1 in gaps:
        check_stop(should_stop)
        cells = (s1 - s0 + 1) * (t1 - t0 + 1)
        sub = stage(align_progress, done_cells / total_cells, (done_cells + cells) / total_cells)
        done_cells += cells
        beads: list[Bead] = []
        if s1 == s0 or t1 == t0 or model is None:
            beads.extend(_make_bead(project, i, 1, t0, 0, None, params.drop_threshold) for i in range(s0, s1))
            beads.extend(_make_bead(project, s1, 0, j, 1, None, params.drop_threshold) for j in range(t0, t1))
        elif params.method == "segment":
            window = [
                Signal(
                    sg.src[s0:s1], sg.tgt[t0:t1], sg.weight, name=sg.name,
                    src_trust=None if sg.src_trust is None else sg.src_trust[s0:s1],
                )
                for sg in signals
            ]
            try:
                spans, _ = constrained_segmentation(
                    window, params.max_tgt, allow_empty=True, progress=sub, should_stop=should_stop
                )
            except SegmentationInfeasible as exc:
                raise SialignError(
                    f"segment mode: {exc} (source {s0 + 1}–{s1}, target {t0 + 1}–{t1}); raise the maximum "
                    "target span (--max-tgt) or use the bead aligner"
                ) from exc
            for k, (a0, a1) in enumerate(spans):
                beads.append(_make_bead(project, s0 + k, 1, t0 + a0, a1 - a0, model, params.drop_threshold))
        else:
            result = align_window(model, s0, s1, t0, t1, exact_cell_limit=EXACT_CELL_LIMIT, progress=sub, should_stop=should_stop)
            levels.extend([list(level) for level in result.levels])
            shapes = result.beads
            if params.peel_threshold is not None:
                shapes = peel_unrendered(model, shapes, params.peel_threshold)
            beads.extend(_make_bead(project, i0, a, j0, b, model, params.drop_threshold) for i0, a, j0, b in shapes)
        gap_beads.append(beads)
    ordered: list[Bead] = []
    anchor_after: dict[int, list[Bead]] = {}
    for gap_index, bead in anchors:
        anchor_after.setdefault(gap_index, []).append(bead)
    for index, beads in enumerate(gap_beads):
        ordered.extend(beads)
        ordered.extend(anchor_after.get(index, []))
    similarity = model.similarity() if model is not None else np.zeros((n, m), dtype=np.float32)
    finished = time.perf_counter()
    timings = {
        "embedding": round(embedded - started, 4),
        "aligning": round(finished - embedded, 4),
        "total": round(finished - started, 4),
    }
    alignment = Alignment(
        beads=ordered,
        embedder=" + ".join(names) if names else main.name,
        created=datetime.now(timezone.utc).isoformat(timespec="seconds"),
        info={
            "params": params.to_dict(),
            "embedder_spec": choice.spec,
            "embedder_note": choice.note,
            "pivot_note": pivot_note,
            "target_units": units,
            "cost_settings": dataclasses.asdict(settings),
            "time_prior": bool(timed),
            "lag": dataclasses.asdict(lag) if lag is not None else None,
            "signals": [{"name": s.name, "weight": s.weight} for s in signals],
            "anchors": len(anchors),
            "dp_levels": levels,
            "timings": timings,
        },
    )
    alignment.validate(src_doc, tgt_doc)
    progress(1.0, "Aligned")
    return AlignResult(alignment=alignment, similarity=similarity, timings=timings)
