"""Align a project: embed, run the coarse DP (or constrained segmentation), mark dropped beads.

:func:`align_project` is what :mod:`sialign.workflows.aligning` calls for
every front end (which then carries the review data over and installs the
result as one edit). It reports progress in two stages (embedding, aligning), checks
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

Vectors are memoised in the process (:func:`sialign.embed.pairs.encode_pair`):
re-aligning a talk whose texts did not change re-uses them (the GUI re-aligns
after every change of parameters), and a neural model is loaded once per
process. The cost presets and :func:`~sialign.align.costs.cost_settings` live
with the bead costs in :mod:`sialign.align.costs`.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import numpy as np

from sialign.align.constrained import SegmentationInfeasible, constrained_segmentation
from sialign.align.costs import BeadCostModel, CostSettings, Signal, cost_settings, resolve_target_units
from sialign.align.dp import EXACT_CELL_LIMIT, align_window
from sialign.align.result import AlignResult
from sialign.align.signals import (
    LAG_PULL_SHARE,
    MIX_LEXICAL_DIM,
    LagEstimate,
    estimate_lag,
    is_lexical,
    mixes_lexical,
    peel_unrendered,
    reference_trust,
    word_skip_scale,
)
from sialign.core.errors import SialignError
from sialign.core.model import Alignment, Bead, BeadStatus, Document, Project
from sialign.core.params import AlignParams
from sialign.core.plurals import count_noun
from sialign.core.progress import ProgressFn, StopFn, check_stop, stage
from sialign.core.similarity import SimilarityGrid
from sialign.embed.base import Embedder, l2_normalise_rows
from sialign.embed.choice import EmbedderChoice, choose_embedder
from sialign.embed.models import load_embedder
from sialign.embed.pairs import encode_pair

if TYPE_CHECKING:
    from sialign.align.learned_pass import LearnedInputs

log = logging.getLogger(__name__)

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


# ------------------------------------------------------------------ beads
# The reason of a 1-0 bead the omission decision made (sialign.align.omissions).
OMISSION_REASON = ("no rendition found in the interpretation (1-0, omission): the chunks it was given render none "
                   "of it and went to the neighbours they render")


def decide_omissions(model: BeadCostModel, shapes: list[tuple[int, int, int, int]], words: list[int],
                     weights: str, pivot: bool = False) -> tuple[list[tuple[int, int, int, int]], dict[int, float]]:
    """The omission decision of the weight set ``weights`` (chunks, interpretation...) over one window's beads
    (unchanged where there is none: a written translation's).

    ``pivot``: the costs read a reference translation too (its own threshold).
    """
    from sialign.align.omissions import OMISSION_MODELS, reassign_unrendered

    decision = OMISSION_MODELS.get(weights)
    if decision is None:
        return list(shapes), {}
    return reassign_unrendered(model, shapes, words, decision.for_pivot(pivot))


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


def _starts(doc: Document) -> np.ndarray:
    return np.array([s.start for s in doc.segments], dtype=np.float64)


def _ends(doc: Document) -> np.ndarray:
    return np.array([s.end if s.end is not None else s.start for s in doc.segments], dtype=np.float64)


@dataclasses.dataclass
class BuiltSignals:
    """The similarity signals of one run, with the names the alignment records."""

    signals: list[Signal]
    names: list[str]
    pivot_note: str
    lengths_from: list[str]


def build_signals(
    project: Project,
    params: AlignParams,
    main: Embedder,
    *,
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
) -> BuiltSignals:
    """Embed both sides (and the reference) and weigh the signals the DP mixes.

    Raises:
        SialignError: the reference translation does not have one line per source segment.
    """
    embed_progress = progress or (lambda f, m: None)
    src_doc, tgt_doc = project.source, project.target
    n, m = len(src_doc), len(tgt_doc)
    use_pivot = bool(params.pivot and project.reference is not None and n > 0)
    if use_pivot and project.reference is not None and len(project.reference) != n:
        raise SialignError(
            f"the reference translation has {len(project.reference)} lines but the source has {count_noun(n, 'segment')}; "
            "pivot alignment needs one reference line per source segment — fix the reference or align without it"
        )
    pivot_weight = min(max(float(params.pivot_weight), 0.0), 1.0) if use_pivot else 0.0
    signals: list[Signal] = []
    names: list[str] = []
    pivot_note = ""
    src_texts, tgt_texts = src_doc.normalised_texts(), tgt_doc.normalised_texts()
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
                    LexicalEmbedder(dim=MIX_LEXICAL_DIM), src_texts, tgt_texts, candidates=params.candidates, max_side=params.max_src,
                    max_other=params.max_tgt, side_joiner=src_doc.joiner, other_joiner=tgt_doc.joiner,
                    should_stop=should_stop,
                )
                signals.append(Signal(lx, ly, (1.0 - pivot_weight) * lexical_weight, lxs, lys, name="lexical"))
                names[-1] += f" with lexical {lexical_weight:g}"
        if pivot_weight > 0:
            assert project.reference is not None
            pivot_embedder = main if params.pivot_embedder == "main" else load_embedder(params.pivot_embedder)
            ref_texts = project.reference.normalised_texts()
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
    return BuiltSignals(signals, names, pivot_note, lengths_from)


# ------------------------------------------------------------------ main entry
def align_project(
    project: Project,
    params: AlignParams | None = None,
    *,
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
    keep_confirmed: bool = True,
    embedder: Embedder | None = None,
    keep_scoring: bool = False,
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
        keep_scoring: keep what the learned bead score read in ``AlignResult.scoring``
            (:func:`sialign.workflows.explaining.explain_beads` uses it).

    Returns:
        :class:`AlignResult` with the new alignment, the similarity matrix
        (n_src, n_tgt) and the timings.

    Raises:
        AlignmentCancelled: ``should_stop()`` returned True.
        ModelNotFoundError: the model named in ``params.embedder`` is not on this computer.
        SialignError: bad parameters (unknown mode, segmentation impossible).
    """
    started = time.perf_counter()
    params = params or project.params or AlignParams()
    progress = progress or (lambda f, m: None)
    check_stop(should_stop)
    run = _resolve_run(project, params, should_stop)
    embedded = _embed_sides(run, embedder, stage(progress, 0.0, 0.5))
    embedded_at = time.perf_counter()
    check_stop(should_stop)
    costs = _first_pass_costs(run, embedded, stage(progress, 0.5, 1.0))
    second = _second_pass_inputs(run, embedded, costs)
    gaps, anchors = _anchor_gaps(project, keep_confirmed)
    aligned = _align_gaps(run, embedded, costs, second, gaps)
    ordered = _in_order(aligned.beads, anchors)
    scoring = _attach_confidences(run, costs, second, ordered, {id(bead) for _, bead in anchors}, aligned.decided)
    n, m = len(project.source), len(project.target)
    similarity = costs.model.similarity() if costs.model is not None else np.broadcast_to(np.float32(np.nan), (n, m))
    finished = time.perf_counter()
    timings = {
        "embedding": round(embedded_at - started, 4),
        "aligning": round(finished - embedded_at, 4),
        "total": round(finished - started, 4),
    }
    alignment = _new_alignment(run, embedded, costs, second, ordered, len(anchors), aligned.levels, timings)
    progress(1.0, "Aligned")
    return AlignResult(alignment=alignment, similarity=similarity, timings=timings, scoring=scoring if keep_scoring else None)


# ------------------------------------------------------------------ stages of align_project
@dataclasses.dataclass(frozen=True)
class _Run:
    """What every stage of one :func:`align_project` run reads.

    Attributes:
        units: the target units the parameters resolve to (``"chunks"`` or ``"sentences"``).
        settings: the cost knobs of those units, before the time prior's lag estimate.
        text_kind: ``"interpretation"`` or ``"translation"``.
        weights: the learned bead score's weight set for these units and this kind of text.
    """

    project: Project
    params: AlignParams
    units: str
    settings: CostSettings
    text_kind: str
    weights: str
    should_stop: StopFn | None


def _resolve_run(project: Project, params: AlignParams, should_stop: StopFn | None) -> _Run:
    """What the parameters say for this talk: target units, cost knobs, kind of text, weight set."""
    from sialign.align.learned_pass import weight_set

    units = resolve_target_units(params, len(project.source), project.target)
    settings = cost_settings(params, units)
    text_kind = resolve_text_kind(params, project)
    return _Run(project, params, units, settings, text_kind, weight_set(units, text_kind), should_stop)


@dataclasses.dataclass(frozen=True)
class _Embedded:
    """What the embedding stage gives.

    Attributes:
        choice: the embedder used, and why it was chosen.
        main: that embedder.
        built: the signals the DP mixes, with their names.
        tgt_texts: the target segments' texts, white space collapsed.
        run_vectors: unit vectors of the concatenated runs the learned second
            pass reads, (source, target), or None where it does not run.
    """

    choice: EmbedderChoice
    main: Embedder
    built: BuiltSignals
    tgt_texts: list[str]
    run_vectors: tuple[np.ndarray, np.ndarray] | None


def _embed_sides(run: _Run, embedder: Embedder | None, progress: ProgressFn) -> _Embedded:
    """Choose the embedder (or take the one given), then embed the second pass's runs and the signals."""
    project, params = run.project, run.params
    if embedder is not None:
        choice = EmbedderChoice(embedder.name)
        main = embedder
    else:
        choice = choose_embedder(params.embedder, project.source.language, project.target.language)
        if choice.note:
            log.info("%s", choice.note)
        main = load_embedder(choice.spec)
    tgt_texts = project.target.normalised_texts()
    # The second pass's runs first: the same pass over each document gives the segments'
    # vectors, which the first pass then reads from the vector cache.
    run_vectors = _learned_pass_spans(
        params, run.units, run.weights, main, project, tgt_texts, progress=stage(progress, 0.0, 0.6), should_stop=run.should_stop
    )
    built = build_signals(project, params, main, should_stop=run.should_stop,
                          progress=progress if run_vectors is None else stage(progress, 0.6, 1.0))
    return _Embedded(choice, main, built, tgt_texts, run_vectors)


@dataclasses.dataclass(frozen=True)
class _FirstPassCosts:
    """The first pass's bead costs and the time prior they were built with.

    Attributes:
        model: the bead costs; None when no signal compares the two sides.
        settings: the cost knobs, with the lag estimate's window where it was used.
        timed: whether the costs read the segments' times.
        lag: the lag estimated from the times, or None.
        lengths: text lengths of the source (or the reference) and of the
            target, shapes (n_src,) and (n_tgt,); None without a model.
        progress: what is left of the aligning stage's progress after the lag estimate.
    """

    model: BeadCostModel | None
    settings: CostSettings
    timed: bool
    lag: LagEstimate | None
    lengths: tuple[np.ndarray, np.ndarray] | None
    progress: ProgressFn


def _first_pass_costs(run: _Run, embedded: _Embedded, progress: ProgressFn) -> _FirstPassCosts:
    """The bead costs of the signals, with a time prior on the estimated lag where both sides have times."""
    params, settings, should_stop = run.params, run.settings, run.should_stop
    src_doc, tgt_doc = run.project.source, run.project.target
    n, m = len(src_doc), len(tgt_doc)
    align_progress = progress
    align_progress(0.0, "Aligning")
    timed = params.time_prior and n > 0 and m > 0 and src_doc.has_times and tgt_doc.has_times
    signals = embedded.built.signals
    if not signals:
        return _FirstPassCosts(None, settings, timed, None, None, align_progress)
    lag: LagEstimate | None = None
    lengths = (
        np.array([len(t) for t in embedded.built.lengths_from], dtype=np.float64),
        np.array([len(t) for t in embedded.tgt_texts], dtype=np.float64),
    )
    if timed:
        # The recording's own offset first: a prior centred on the wrong
        # lag (a track starting minutes late) is worse than none.
        text_only = BeadCostModel(signals, params.max_src, params.max_tgt, settings, None, None, *lengths)
        lag = estimate_lag(
            text_only, _starts(src_doc), _starts(tgt_doc), settings,
            progress=stage(align_progress, 0.0, 0.3), should_stop=should_stop,
            fit=params.lag_window == "fit",
        )
        align_progress = stage(align_progress, 0.3, 1.0)
        if lag.used:
            settings = dataclasses.replace(settings, evs_min=lag.evs_min, evs_max=lag.evs_max)
            if params.lag_window == "fit" and lag.median is not None:
                settings = dataclasses.replace(settings, lag_centre=lag.median,
                                               lag_pull=settings.time_weight * LAG_PULL_SHARE)
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
        word_skip_scale(embedded.tgt_texts) if run.units == "sentences" else None,
        _ends(src_doc) if timed else None,
    )
    return _FirstPassCosts(model, settings, timed, lag, lengths, align_progress)


@dataclasses.dataclass(frozen=True)
class _SecondPass:
    """What the learned second pass and the confidences read, computed once for the whole talk.

    Attributes:
        run_vectors: :attr:`_Embedded.run_vectors`, or None where the pass
            does not run (no cost model, or no signal compares source and
            target directly).
        direct: whether a signal compares source and target directly (not only through the pivot).
        typical: the typical cosine of the runs (None without the pass).
        words / names: ``shared_words`` and ``shared_names`` of every source and
            target segment, where the vote reads them; else None.
    """

    run_vectors: tuple[np.ndarray, np.ndarray] | None
    direct: bool
    typical: float | None
    words: tuple[list[frozenset[str]], list[frozenset[str]]] | None
    names: tuple[list[frozenset[str]], list[frozenset[str]]] | None


def _second_pass_inputs(run: _Run, embedded: _Embedded, costs: _FirstPassCosts) -> _SecondPass:
    """Whether the learned second pass runs, and what it reads over the whole talk."""
    # The second pass compares source and target with the main encoder: not when it is
    # blind to the pair and the pivot decides alone.
    direct = any(sg.name == "source" for sg in embedded.built.signals)
    run_vectors = embedded.run_vectors if costs.model is not None and direct else None
    typical: float | None = None
    words: tuple[list[frozenset[str]], list[frozenset[str]]] | None = None
    names: tuple[list[frozenset[str]], list[frozenset[str]]] | None = None
    if run_vectors is not None:
        from sialign.align.learned_pass import JOIN_CROSSED, VOTE, shared_names, shared_words, typical_cosine

        # Read by the second pass over the whole talk and by the confidences: computed once.
        typical = typical_cosine(run_vectors[0][0], run_vectors[1][0])
        if VOTE.get(run.units):  # only the vote reads them
            src_texts, tgt_texts = run.project.source.normalised_texts(), embedded.tgt_texts
            words = ([shared_words(t) for t in src_texts], [shared_words(t) for t in tgt_texts])
            if JOIN_CROSSED.get(run.weights):  # a written translation's names join beads
                names = ([shared_names(t) for t in src_texts], [shared_names(t) for t in tgt_texts])
    return _SecondPass(run_vectors, direct, typical, words, names)


@dataclasses.dataclass(frozen=True)
class _Omissions:
    """How the omission decision reads every gap.

    Attributes:
        decides: whether it runs (a cost model, a direct signal, a neural encoder).
        pivoted: whether the costs read a reference translation too.
        source_words: the length of every source segment in words (a third of its characters when unspaced).
    """

    decides: bool
    pivoted: bool
    source_words: list[int]


@dataclasses.dataclass(frozen=True)
class _GapsAligned:
    """The beads of the gaps between anchors, with what the DP and the omission decision recorded.

    Attributes:
        beads: the new beads of each gap, in order.
        levels: the DP's levels of each window (``Alignment.info["dp_levels"]``).
        decided: ``id()`` of each bead the omission decision left out → the probability that it was.
    """

    beads: list[list[Bead]] = dataclasses.field(default_factory=list)
    levels: list[list[int]] = dataclasses.field(default_factory=list)
    decided: dict[int, float] = dataclasses.field(default_factory=dict)


_Gap = tuple[int, int, int, int]  # (src_start, src_stop, tgt_start, tgt_stop)


def _align_gaps(run: _Run, embedded: _Embedded, costs: _FirstPassCosts, second: _SecondPass, gaps: list[_Gap]) -> _GapsAligned:
    """Beads for every gap between the anchors; the aligning stage's progress is shared by the gaps' cells."""
    omissions = _Omissions(
        decides=costs.model is not None and second.direct and not is_lexical(embedded.main),
        pivoted=any(sg.name == "pivot" for sg in embedded.built.signals),
        source_words=[len(t.split()) or max(1, len(t) // 3) for t in run.project.source.normalised_texts()],
    )
    out = _GapsAligned()
    total_cells = max(sum((g[1] - g[0] + 1) * (g[3] - g[2] + 1) for g in gaps), 1)
    done_cells = 0
    for s0, s1, t0, t1 in gaps:
        check_stop(run.should_stop)
        cells = (s1 - s0 + 1) * (t1 - t0 + 1)
        sub = stage(costs.progress, done_cells / total_cells, (done_cells + cells) / total_cells)
        done_cells += cells
        if s1 == s0 or t1 == t0 or costs.model is None:
            beads = _unmatched_beads(run, (s0, s1, t0, t1))
        elif run.params.method == "segment":
            beads = _segmented_beads(run, embedded.built.signals, costs.model, (s0, s1, t0, t1), sub)
        else:
            beads = _dp_beads(run, costs, second, omissions, (s0, s1, t0, t1), sub, out)
        out.beads.append(beads)
    return out


def _unmatched_beads(run: _Run, gap: _Gap) -> list[Bead]:
    """A gap with an empty side, or nothing to compare: its segments as dropped 1-0 and 0-1 beads."""
    s0, s1, t0, t1 = gap
    project, threshold = run.project, run.params.drop_threshold
    beads = [_make_bead(project, i, 1, t0, 0, None, threshold) for i in range(s0, s1)]
    beads.extend(_make_bead(project, s1, 0, j, 1, None, threshold) for j in range(t0, t1))
    return beads


def _segmented_beads(run: _Run, signals: list[Signal], model: BeadCostModel, gap: _Gap, progress: ProgressFn) -> list[Bead]:
    """Constrained segmentation of one gap: every source segment gets one span of target units.

    Raises:
        SialignError: no segmentation fits the maximum target span.
    """
    s0, s1, t0, t1 = gap
    params = run.params
    window = [
        Signal(
            sg.src[s0:s1], sg.tgt[t0:t1], sg.weight, name=sg.name,
            src_trust=None if sg.src_trust is None else sg.src_trust[s0:s1],
        )
        for sg in signals
    ]
    try:
        spans, _ = constrained_segmentation(
            window, params.max_tgt, allow_empty=True, progress=progress, should_stop=run.should_stop
        )
    except SegmentationInfeasible as exc:
        raise SialignError(
            f"segment mode: {exc} (source {s0 + 1}–{s1}, target {t0 + 1}–{t1}); raise the maximum "
            "target span (max_tgt) or use the bead aligner (method 'beads')",
            settings=("max_tgt", "method"),
        ) from exc
    return [_make_bead(run.project, s0 + k, 1, t0 + a0, a1 - a0, model, params.drop_threshold)
            for k, (a0, a1) in enumerate(spans)]


def _dp_beads(run: _Run, costs: _FirstPassCosts, second: _SecondPass, omissions: _Omissions, gap: _Gap,
              progress: ProgressFn, out: _GapsAligned) -> list[Bead]:
    """The bead DP over one gap, then the learned second pass, peeling and the omission decision.

    The DP's levels and the beads the omission decision left out are added to ``out``.
    """
    s0, s1, t0, t1 = gap
    params, model = run.params, costs.model
    assert model is not None
    result = align_window(model, s0, s1, t0, t1, exact_cell_limit=EXACT_CELL_LIMIT, progress=progress, should_stop=run.should_stop)
    out.levels.extend([list(level) for level in result.levels])
    shapes = result.beads
    if second.run_vectors is not None:
        assert costs.lengths is not None
        whole = (s0, s1, t0, t1) == (0, len(run.project.source), 0, len(run.project.target))
        shapes = _refine(model, second.run_vectors, costs.lengths, s0, s1, t0, t1, shapes, params, run.weights,
                         run.should_stop, second.typical if whole else None, second.words, second.names)
    if params.peel_threshold is not None:
        shapes = peel_unrendered(model, shapes, params.peel_threshold)
    # The decision was fitted on the costs of a neural encoder that compares the two languages directly;
    # it also reads talks whose learned pass is off (from recordings: cut_recordings.py measures those).
    shapes, left_out = (decide_omissions(model, shapes, omissions.source_words, run.weights, omissions.pivoted)
                        if omissions.decides else (shapes, {}))
    made = [_make_bead(run.project, i0, a, j0, b, model, params.drop_threshold) for i0, a, j0, b in shapes]
    for bead, (i0, a, _j0, b) in zip(made, shapes):
        if a == 1 and not b and i0 in left_out:
            bead.reason = OMISSION_REASON
            out.decided[id(bead)] = left_out[i0]
    return made


def _in_order(gap_beads: list[list[Bead]], anchors: list[tuple[int, Bead]]) -> list[Bead]:
    """The beads of the gaps, each kept anchor after the gap it follows."""
    ordered: list[Bead] = []
    anchor_after: dict[int, list[Bead]] = {}
    for gap_index, bead in anchors:
        anchor_after.setdefault(gap_index, []).append(bead)
    for index, beads in enumerate(gap_beads):
        ordered.extend(beads)
        ordered.extend(anchor_after.get(index, []))
    return ordered


def _attach_confidences(run: _Run, costs: _FirstPassCosts, second: _SecondPass, beads: list[Bead], anchored: set[int],
                        decided: dict[int, float]) -> LearnedInputs | None:
    """Give the new beads the learned score's confidence, and each sentence left out the probability that it was.

    Returns:
        What the learned score read, or None where the second pass did not run.
    """
    scoring = None
    if second.run_vectors is not None and costs.model is not None:
        from sialign.align.learned_pass import LearnedInputs

        assert costs.lengths is not None
        scoring = LearnedInputs(costs.model, second.run_vectors[0], second.run_vectors[1], costs.lengths[0],
                                costs.lengths[1], run.units, second.typical, run.weights)
        _set_confidences(run.project, beads, scoring, anchored, run.should_stop)
    for bead in beads:  # the *Conf.* of a sentence left out: the probability that it was
        if id(bead) in decided:
            bead.confidence = round(decided[id(bead)], 4)
    return scoring


def _new_alignment(run: _Run, embedded: _Embedded, costs: _FirstPassCosts, second: _SecondPass, beads: list[Bead],
                   anchors: int, levels: list[list[int]], timings: dict[str, float]) -> Alignment:
    """The alignment of ``beads`` with what made it in ``info``, checked against the documents and logged."""
    project, built = run.project, embedded.built
    alignment = Alignment(
        beads=beads,
        embedder=" + ".join(built.names) if built.names else embedded.main.name,
        created=datetime.now(UTC).isoformat(timespec="seconds"),
        info={
            "params": run.params.to_dict(),
            "embedder_spec": embedded.choice.spec,
            "embedder_note": embedded.choice.note,
            "pivot_note": built.pivot_note,
            "target_units": run.units,
            "text_kind": run.text_kind,
            "bead_score": run.weights if second.run_vectors is not None else None,
            "cost_settings": dataclasses.asdict(costs.settings),
            "time_prior": bool(costs.timed),
            "lag": dataclasses.asdict(costs.lag) if costs.lag is not None else None,
            "signals": [{"name": s.name, "weight": s.weight} for s in built.signals],
            "anchors": anchors,
            "dp_levels": levels,
            "timings": timings,
        },
    )
    alignment.validate(project.source, project.target)
    log.info(
        "aligned %d × %d segments into %d beads with %s (%s units, time prior %s, %d anchors): %s",
        len(project.source), len(project.target), len(beads), alignment.embedder, run.units,
        "on" if costs.timed else "off", anchors, timings,
    )
    if costs.lag is not None:
        log.debug("lag estimate: %s", costs.lag)
    return alignment


def _set_confidences(project: Project, beads: list[Bead], scoring: LearnedInputs, keep: set[int],
                     should_stop: StopFn | None = None) -> None:
    """Give each new bead the learned score's probability that it is right (:attr:`Bead.confidence`).

    A bead the score cannot judge (longer than its runs, an omission kept
    from the first pass in chunked talks) gets None; the confirmed beads kept
    as anchors (``id()`` in ``keep``) stay as they were.
    """
    from sialign.align.explain import bead_confidences, bead_spans

    for bead, p in zip(beads, bead_confidences(scoring, bead_spans(project, beads), should_stop)):
        if id(bead) not in keep:
            bead.confidence = None if p is None else round(p, 4)


# The second pass holds every run's vector in the process's memo, and while it
# puts them together a copy more (counted twice here): when those would take
# more than this many megabytes, the document keeps the first pass's path (and
# the log says so). Sentence targets count 16 KB a segment (4 runs of 512
# floats, twice), so this is about 65,000 segments; a 5,000 × 6,300 book 180 MB.
LEARNED_PASS_MAX_MB = 1024.0


def learned_pass_megabytes(n_src: int, n_tgt: int, units: str, dim: int) -> float:
    """The megabytes of run vectors the second pass holds for ``n_src`` × ``n_tgt`` segments (see LEARNED_PASS_MAX_MB)."""
    from sialign.align.learned_pass import RUNS

    src_runs, tgt_runs = RUNS[units]
    return 2 * (src_runs * n_src + tgt_runs * n_tgt) * dim * 4 / 2**20


def resolve_text_kind(params: AlignParams, project: Project) -> str:
    """``"interpretation"`` or ``"translation"``: what ``params.text_kind`` says the target is.

    ``"auto"`` takes the talk's word for it: timestamps on both sides, a
    recording of the target, or transcripts that keep the speakers'
    hesitations ("ehm", "euh") make it an interpretation (a written
    translation has none of them); anything else is aligned as a
    translation.
    """
    return text_kind_and_evidence(params, project)[0]


def text_kind_and_evidence(params: AlignParams, project: Project) -> tuple[str, str]:
    """:func:`resolve_text_kind`'s answer and, under ``"auto"``, the :func:`text_kind_evidence` it rests on
    (``""`` when the kind is stated: nothing is read)."""
    if params.text_kind != "auto":
        return params.text_kind, ""
    evidence = text_kind_evidence(project)
    return ("interpretation" if evidence else "translation"), evidence


def text_kind_evidence(project: Project) -> str:
    """What in the talk says its target is an interpretation: ``"recording"`` (the target has a
    recording), ``"timestamps"`` (both sides have them), ``"hesitations"`` (the transcripts hold
    hesitation sounds as transcribed speech does, :func:`sialign.text.speech.reads_as_speech`),
    or ``""`` (nothing does)."""
    from sialign.text.speech import reads_as_speech

    if project.target.audio_path:
        return "recording"
    if project.source.has_times and project.target.has_times:
        return "timestamps"
    if reads_as_speech(((s.text for s in project.source.segments), project.source.language),
                       ((s.text for s in project.target.segments), project.target.language)):
        return "hesitations"
    return ""


def _learned_pass_spans(
    params: AlignParams, units: str, weights: str, main: Embedder, project: Project, tgt_texts: list[str],
    progress: ProgressFn | None = None, should_stop: StopFn | None = None,
) -> tuple[np.ndarray, np.ndarray] | None:
    """Unit vectors of concatenated runs for the learned second pass, or None where it does not run.

    It runs with a neural encoder, on sentence targets (a written translation,
    or an interpretation transcribed in sentences) and on chunks, each with
    its own fitted weights (the set ``weights``, ``learned_pass.WEIGHT_SETS``);
    not where the pivot alone decides (it compares source and target with the
    main encoder).
    """
    from sialign.align.learned_pass import RUNS, shipped_weights

    src_doc = project.source
    pivot_alone = params.pivot and project.reference is not None and float(params.pivot_weight) >= 1.0
    if (not len(src_doc) or not tgt_texts or pivot_alone or not params.learned_score or params.method != "beads"
            or units not in RUNS or is_lexical(main) or shipped_weights(weights) is None):
        return None
    megabytes = learned_pass_megabytes(len(src_doc), len(tgt_texts), units, main.dim)
    if megabytes > LEARNED_PASS_MAX_MB:
        log.info("learned second pass skipped: the vectors of its runs would take %.0f MB for %d × %d segments "
                 "(more than %.0f MB); the first pass's path is kept",
                 megabytes, len(src_doc), len(tgt_texts), LEARNED_PASS_MAX_MB)
        return None
    src_runs, tgt_runs = RUNS[units]
    _, _, src_spans, tgt_spans = encode_pair(
        main, src_doc.normalised_texts(), tgt_texts, candidates="exact", max_side=src_runs, max_other=tgt_runs,
        progress=progress, should_stop=should_stop,
    )
    assert src_spans is not None and tgt_spans is not None

    def unit(v: np.ndarray) -> np.ndarray:
        rows = v.reshape(-1, v.shape[-1])
        norms = np.sqrt(np.einsum("ij,ij->i", rows, rows))
        if v.dtype == np.float32 and bool(np.all((norms == 0) | (np.abs(norms - 1.0) < 1e-4))):
            # Unit rows already (an encoder's; zero for empty texts): the memoised vectors
            # themselves, read only, not a copy (90 MB on a 5,000 × 6,000 book).
            view = v.view()
            view.flags.writeable = False
            return view
        # A normalised copy: the memoised vectors are shared with other callers.
        return l2_normalise_rows(v.astype(np.float32, copy=True).reshape(-1, v.shape[-1])).reshape(v.shape)

    return unit(src_spans), unit(tgt_spans)


def _refine(
    model: BeadCostModel | None, spans: tuple[np.ndarray, np.ndarray], lengths: tuple[np.ndarray, np.ndarray],
    s0: int, s1: int, t0: int, t1: int, shapes: list[tuple[int, int, int, int]], params: AlignParams, weights: str,
    should_stop: StopFn | None = None, typical: float | None = None,
    words: tuple[list[frozenset[str]], list[frozenset[str]]] | None = None,
    names: tuple[list[frozenset[str]], list[frozenset[str]]] | None = None,
) -> list[tuple[int, int, int, int]]:
    """The learned second pass over one gap with the weight set ``weights`` (whole-document bead positions in and out;
    ``words``, ``names``: :func:`~sialign.align.learned_pass.shared_words` and ``shared_names`` of every source and
    target segment)."""
    from sialign.align.dp import WindowCosts
    from sialign.align.learned_pass import refine

    assert model is not None
    window = [(i0 - s0, a, j0 - t0, b) for i0, a, j0, b in shapes]
    refined = refine(
        WindowCosts(model, s0, s1, t0, t1), spans[0][:, s0:s1], spans[1][:, t0:t1],
        lengths[0][s0:s1], lengths[1][t0:t1], window, params.max_src, params.max_tgt, weights, should_stop, typical,
        None if words is None else (words[0][s0:s1], words[1][t0:t1]),
        None if names is None else (names[0][s0:s1], names[1][t0:t1]),
    )
    return [(i0 + s0, a, j0 + t0, b) for i0, a, j0, b in refined]


def similarity_grid(
    project: Project,
    params: AlignParams | None = None,
    *,
    embedder_spec: str | None = None,
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
) -> SimilarityGrid:
    """The matrix view's similarity for the project's current segments, without aligning.

    Projects store beads, not the similarity; opening one computes it again
    from the same signals an alignment run mixes (single segments only, so
    the vector cache usually answers).

    Args:
        project: documents to compare; read only.
        params: the alignment parameters (default: the project's).
        embedder_spec: the model the alignment used (``Alignment.info["embedder_spec"]``);
            default: the one ``params.embedder`` chooses.

    Raises:
        AlignmentCancelled, ModelNotFoundError, SialignError: as :func:`align_project`.
    """
    params = dataclasses.replace(params or project.params or AlignParams(), candidates="fast")
    src_doc, tgt_doc = project.source, project.target
    src_ids, tgt_ids = src_doc.ids(), tgt_doc.ids()
    n, m = len(src_doc), len(tgt_doc)
    if not n or not m:
        return SimilarityGrid(np.zeros((n, m), dtype=np.float32), src_ids, tgt_ids)
    spec = embedder_spec or choose_embedder(params.embedder, src_doc.language, tgt_doc.language).spec
    built = build_signals(project, params, load_embedder(spec), progress=progress, should_stop=should_stop)
    if not built.signals:
        return SimilarityGrid(np.zeros((n, m), dtype=np.float32), src_ids, tgt_ids)
    settings = cost_settings(params, resolve_target_units(params, n, tgt_doc))
    lengths = (
        np.array([len(t) for t in built.lengths_from], dtype=np.float64),
        np.array([len(t) for t in tgt_doc.normalised_texts()], dtype=np.float64),
    )
    model = BeadCostModel(built.signals, 1, 1, settings, None, None, *lengths)
    similarity = model.similarity()
    # (A copy of the shared table; the large-document placeholder takes no memory and stays as it is.)
    return SimilarityGrid(similarity if similarity.strides == (0, 0) else np.array(similarity, dtype=np.float32), src_ids, tgt_ids)
