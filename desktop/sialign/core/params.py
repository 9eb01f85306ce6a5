"""Alignment and filter parameters.

Frozen dataclasses saved inside the project file, so a CLI run reproduces a
GUI run exactly. ``from_dict`` ignores keys it does not know (a project saved
by an older version with a parameter since removed still opens).
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any, Literal, TypeVar, get_args

from sialign.core.errors import ParamsError

T = TypeVar("T")

# The largest bead sides: far above any real bead (defaults 4 and 12), low
# enough that the tables sized by them stay small.
MAX_SRC_LIMIT = 64
MAX_TGT_LIMIT = 256


# The parameters that take one of a few words: checked when the parameters are made,
# so a front end (or a hand-edited project) learns at once, naming the choices.
Candidates = Literal["fast", "exact"]
Method = Literal["beads", "segment"]
TargetUnits = Literal["auto", "chunks", "sentences"]
TextKind = Literal["auto", "interpretation", "translation"]
PivotEmbedder = Literal["lexical", "main"]
LagWindow = Literal["widen", "fit"]
EtaMetric = Literal["auto", "cosine", "chrf"]


def _check_choices(params: object, choices: dict[str, Any]) -> None:
    """Raise :class:`ParamsError` for a field whose value is not one of its ``Literal``'s words."""
    for name, kind in choices.items():
        allowed = get_args(kind)
        value = getattr(params, name)
        if value not in allowed:
            words = ", ".join(f"'{a}'" for a in allowed[:-1]) + f" or '{allowed[-1]}'"
            raise ParamsError(name, f"must be {words}, not {value!r}")


def _from_dict(cls: type[T], d: dict[str, Any] | None) -> T:
    if not d:
        return cls()
    names = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    kwargs = {k: (tuple(v) if isinstance(v, list) else v) for k, v in d.items() if k in names}
    return cls(**kwargs)


@dataclass(frozen=True)
class AlignParams:
    """Parameters of the coarse alignment (docs/algorithms.md: Embeddings to Pivot alignment).

    Cost knobs left at ``None`` take the preset of ``target_units``: the
    interpreter's chunks (an SI transcript: 1-5 beads are normal, so extra
    target chunks are cheap) or sentences (a written translation: both
    sides pay for extra segments, as in vecalign). The presets were tuned on
    the AHC-SI and Text+Berg dev sets.

    Attributes:
        embedder: ``"auto"`` (the user's default model, else the built-in
            multilingual encoder when it covers both languages, else the
            lexical embedder), ``"use-multilingual"``, ``"lexical"``, or a
            sentence-transformers model path or name (resolved offline).
        candidates: ``"fast"`` (normalised sum of member vectors) or
            ``"exact"`` (encode concatenations) for multi-segment beads.
        method: ``"beads"`` (coarse DP with n:m, 1-0 and 0-1 beads) or
            ``"segment"`` (constrained segmentation: every source segment
            gets one span of 1..max_tgt target units, nothing is skipped).
        max_src: most source segments in one bead.
        max_tgt: most target segments in one bead (and span length in segment mode).
        drop_threshold: beads costing more than this are marked dropped.
        target_units: ``"chunks"``, ``"sentences"`` or ``"auto"`` (chunks
            when the target has at least 1.5 times as many segments as the source
            and fewer than 60 % of them end a sentence).
        text_kind: what the target is, which picks the learned second pass's
            weights for sentence targets: ``"interpretation"`` (weights fitted
            on interpreted speeches), ``"translation"`` (weights fitted on a
            written translation and interpreted speeches together) or
            ``"auto"`` (an interpretation when the talk says so: timestamps on
            both sides, or a recording; else the translation weights). Chunk
            targets have weights of their own whatever the kind.
        skip_penalty: cost of a 1-0 or 0-1 bead (None: preset).
        src_size_penalty: cost multiplier per extra source segment (None: preset).
        tgt_size_penalty: cost multiplier per extra target segment (None: preset).
        length_weight: weight of the character-length-ratio term (None: preset).
        time_prior: use timestamps (ear-voice span) when both sides have them.
        time_weight: cost per second a bead's lag falls outside the window
            (the first 5 s outside; sentence-level timestamps are often a few
            seconds off).
        time_far_weight: cost per second beyond those 5 s.
        evs_min: earliest plausible target start relative to its source start (s).
        evs_max: latest plausible target start relative to its source start (s).
        lag_window: how the lag dated from the text moves that window:
            ``"widen"`` keeps ``evs_min``..``evs_max`` and only widens or
            shifts it to hold the dated lags (captions a few seconds off);
            ``"fit"`` replaces it with the dated lags' range (both sides on
            one clock with word times, as from two recordings: a tight
            window around the interpreter's own lag).
        pivot: use the reference translation as a same-language pivot when present.
        pivot_weight: share of the reference ↔ target signal in pivot mode
            (the rest is source ↔ target; 1.0 uses the pivot alone).
        pivot_embedder: embedder of the same-language pivot signal:
            ``"lexical"`` or ``"main"`` (the ``embedder`` above).
        omission_skip: cost of leaving a source segment unrendered (a 1-0
            bead, shown as an omission); ``skip_penalty`` then applies to
            0-1 beads only (None: preset).
        lexical_weight: share of the built-in lexical embedder's source ↔
            target signal beside a neural embedder when both languages are
            written in the same script (names, numbers, cognates); 0 turns
            it off. Not used across scripts.
        peel_threshold: after the DP, an edge source segment of an n:m bead
            whose own cost against the bead's target (1 = unrelated text)
            is at least this becomes a 1-0 bead, an omission; None (the
            default) turns it off. More omissions found, at some cost in
            bead accuracy (see tests/benchmarks/RESULTS.md).
        learned_score: on sentence targets with a neural encoder, search
            again near the first path with the bead score learned from gold
            alignments (exact encodings of concatenated segments, margin,
            length agreement, the first pass's cost, shape; omissions and
            additions as their own decisions).
    """

    embedder: str = "auto"
    candidates: Candidates = "fast"
    method: Method = "beads"
    max_src: int = 4
    max_tgt: int = 12
    drop_threshold: float = 1.0
    target_units: TargetUnits = "auto"
    text_kind: TextKind = "auto"
    skip_penalty: float | None = None
    src_size_penalty: float | None = None
    tgt_size_penalty: float | None = None
    length_weight: float | None = None
    time_prior: bool = True
    time_weight: float = 0.02
    time_far_weight: float = 0.1
    evs_min: float = -1.0
    evs_max: float = 10.0
    lag_window: LagWindow = "widen"
    pivot: bool = True
    pivot_weight: float = 0.5
    pivot_embedder: PivotEmbedder = "lexical"
    omission_skip: float | None = None
    peel_threshold: float | None = None
    lexical_weight: float = 0.3
    learned_score: bool = True

    def __post_init__(self) -> None:
        """Refuse values the aligner cannot use (every front end gets the same check).

        Raises:
            ParamsError: naming the parameter and the problem.
        """
        _check_choices(self, {"candidates": Candidates, "method": Method, "target_units": TargetUnits,
                              "text_kind": TextKind,
                              "pivot_embedder": PivotEmbedder, "lag_window": LagWindow})
        for name, most in (("max_src", MAX_SRC_LIMIT), ("max_tgt", MAX_TGT_LIMIT)):
            if not 1 <= getattr(self, name) <= most:
                raise ParamsError(name, f"must be from 1 to {most}, not {getattr(self, name)}")
        for name in ("drop_threshold", "evs_min", "evs_max", "pivot_weight", "peel_threshold"):
            value = getattr(self, name)
            if value is not None and not math.isfinite(value):
                raise ParamsError(name, f"must be a finite number, not {value}")
        if self.peel_threshold is not None and self.peel_threshold < 0:
            raise ParamsError("peel_threshold", f"must be at least 0, not {self.peel_threshold}")
        if not 0.0 <= self.pivot_weight <= 1.0:
            raise ParamsError("pivot_weight", f"must be between 0 and 1, not {self.pivot_weight}")
        if self.evs_min >= self.evs_max:
            raise ParamsError("evs_min", f"must be below evs_max, not {self.evs_min} ≥ {self.evs_max}")

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> AlignParams:
        return _from_dict(cls, d)


@dataclass(frozen=True)
class FilterParams:
    """Thresholds of the fine-grained filters (docs/algorithms.md: Filters).

    The defaults flag only clear cases (an interpretation a fifth as long as
    the reference, or three times longer); the paper found the best
    thresholds differ per talk, so they are per-project settings.

    Attributes:
        intra: trim the first and/or last target chunk of a bead when it has
            no content word (kept on the bead as ``trimmed``, restorable).
        content_pos: universal POS tags that count as content words for the
            intra filter.
        drop_contentless: drop beads whose target has no content word at all
            (the intra filter never trims a bead's every chunk).
        inter: apply the inter-sentence thresholds (alpha, gamma, eta); when
            False their scores are still computed and shown on the beads, but
            no bead fails them (``sialign align --filters intra``).
        alpha_min: least share of source content words covered by the target.
        gamma_min: least target/reference length ratio (under-translation below).
        gamma_max: most target/reference length ratio (over-translation above).
        eta_min: least semantic similarity between target and reference.
        eta_metric: ``"cosine"`` (embedding), ``"chrf"`` (character F-score,
            0..1) or ``"auto"`` (cosine when an embedder was given, else chrF).
        drop_failed: drop beads that fail an inter-sentence threshold (corpus
            building); when False they are only flagged (interpreter review).
            The learned filter follows it too.
        doubt_max: most doubt (probability a bead is wrong, from the model
            trained on the reviewed beads, ``sialign.filters.learned``) a
            bead may have before the learned filter flags or drops it.
        rendered_min: least rendered share (source content words with a
            word link, :mod:`sialign.core.word_links`); a bead below it gets
            the flag "partly rendered" (a flag only: never dropped for it).
            0 switches the flag off.
    """

    intra: bool = True
    content_pos: tuple[str, ...] = ("NOUN", "PROPN", "PRON", "VERB", "NUM")
    drop_contentless: bool = True
    inter: bool = True
    alpha_min: float = 0.0
    gamma_min: float = 0.2
    gamma_max: float = 3.0
    eta_min: float = 0.0
    eta_metric: EtaMetric = "auto"
    drop_failed: bool = True
    doubt_max: float = 0.8
    rendered_min: float = 0.0

    def __post_init__(self) -> None:
        """Refuse values the filters cannot use.

        Raises:
            ParamsError: naming the parameter and the problem.
        """
        _check_choices(self, {"eta_metric": EtaMetric})
        for name in ("alpha_min", "eta_min", "doubt_max", "rendered_min"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ParamsError(name, f"must be between 0 and 1, not {value}")
        if self.gamma_min < 0.0:
            raise ParamsError("gamma_min", f"must be at least 0, not {self.gamma_min}")
        if self.gamma_min > self.gamma_max:
            raise ParamsError("gamma_min", f"({self.gamma_min}) is above gamma_max ({self.gamma_max})", other="gamma_max")

    def to_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["content_pos"] = list(self.content_pos)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> FilterParams:
        return _from_dict(cls, d)
