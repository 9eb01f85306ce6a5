"""The figures of one rendition, computed once for every front end.

A *rendition* is one project: a source transcript and one interpretation (or
translation) aligned into beads. Definitions (each figure carries a one-line
explanation for a trainee, :meth:`RenditionFigures.summary`):

- coverage: source sentences held by a kept (not dropped) bead with at least
  one target chunk, divided by all source sentences: the sentences of a
  1-0 bead and of a dropped bead are not covered (a bead is dropped when its
  target is no rendition of its source, e.g. a filler chunk paired with an
  omitted sentence);
- omissions: beads with source sentences and no target (1-0); additions:
  beads with target chunks and no source (0-1);
- under-/over-translation: beads carrying a failed ``under_translation`` /
  ``over_translation`` flag of the inter-sentence filters;
- ear-voice span: start lag of every non-dropped bead with times on both
  sides (:func:`sialign.evaluate.evs.evs_table`), median and quartiles;
- compression: length of the whole interpretation relative to the whole
  reference translation (or, without one, to the source), lengths counted
  as :func:`sialign.filters.scores.length_units` does — visible
  non-punctuation characters for Japanese/Chinese, words otherwise;
- speaking rate: target units per minute of speech (the summed durations of
  the timed target chunks), and the same for the source;
- fillers per minute: chunks the intra filter trimmed, per minute of the
  interpretation's time span (first start to last end);
- alignment confidence: ``1 − cost`` clipped to [0, 1], averaged over the
  beads with both sides and a cost (costs near 0 are near-paraphrases,
  about 1 is as unrelated as random pairs).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from sialign.core.model import Bead, BeadStatus, Document, Project, bead_text
from sialign.core.plurals import count_noun
from sialign.evaluate.evs import EvsStats, EvsTable, evs_stats, evs_table, interpreter_of
from sialign.filters.scores import FILTER_REASON_PREFIX, length_units
from sialign.text.sentences import is_cjk

UNDER_FLAG = "under_translation"
OVER_FLAG = "over_translation"
@dataclass(frozen=True)
class Figure:
    """One summary number with its wording.

    Attributes:
        key: stable identifier (``"coverage"``, ``"evs_median"``...).
        label: short name shown beside the value.
        value: the number, None when it cannot be measured for this rendition.
        text: the value formatted for people (``"94% (33 of 35)"``, ``"—"``).
        explanation: one sentence a trainee understands.
    """

    key: str
    label: str
    value: float | None
    text: str
    explanation: str


@dataclass(frozen=True)
class LagSummary:
    """The ear-voice span of one rendition: the lag table and its start/end statistics (None without times)."""

    table: EvsTable
    start: EvsStats | None
    end: EvsStats | None


def lag_summary(project: Project, *, include_dropped: bool = False) -> LagSummary:
    """Lags of every bead with times on both sides (dropped beads left out unless asked) and their statistics.

    The one place the lag panel, ``sialign evs`` and the report take their EVS numbers from.
    """
    table = evs_table(project, include_dropped=include_dropped)
    return LagSummary(table, evs_stats(table, "start"), evs_stats(table, "end"))


@dataclass(frozen=True)
class FlaggedBead:
    """A bead with something to look at: its index and the reasons, one per failed check."""

    bead: int
    reasons: tuple[str, ...]


@dataclass
class RenditionFigures:
    """Everything a report or a panel shows about one rendition.

    Attributes:
        talk / interpreter / rank: from the project (``rank`` empty when unknown).
        src_lang / tgt_lang: document languages.
        n_sentences / n_chunks / n_beads: sizes of the source, the target and the alignment.
        rendered: per source sentence (document order), whether a kept bead with target chunks holds it; shape (n_sentences,).
        omissions / additions: bead indices of omissions (:mod:`sialign.core.coverage`) and of 0-1 beads.
        under / over: bead indices with a failed under-/over-translation flag.
        flagged: every flagged bead (:attr:`~sialign.core.model.Bead.flagged`: a check failed on it),
            with the failed checks as reasons (and its drop reason when a reviewer or the cost dropped it).
        dropped_pairs: beads with both sides dropped with no failed check (by the reviewer or for
            their cost), with the drop reason; flagged beads are not repeated here.
        evs: lag table (non-dropped beads with times on both sides).
        evs_start: statistics of the start lag, None without times.
        compression: target units / basis units, None when the basis is empty.
        compression_basis: ``"reference"`` or ``"source"``.
        src_units / tgt_units / ref_units: whole-text lengths (``ref_units`` 0 without reference).
        src_unit / tgt_unit: ``"characters"`` or ``"words"``.
        src_duration / tgt_duration: time span of each side in seconds (None without times).
        src_speech / tgt_speech: summed segment durations in seconds (None without times).
        fillers: number of trimmed target chunks.
        confidence: mean alignment confidence in [0, 1], None without costs.
        embedder / created: from the alignment.
        omitted_sentences: source sentences left out (:mod:`sialign.core.coverage`).
        omitted: per source sentence, whether it was left out; shape (n_sentences,) (empty: none).
        filtered: the fine-grained filters have run (filter settings saved, or a
            bead carries a trim or a flag); without them there are no fillers
            and no under-/over-translation flags to count, which is not zero.
    """

    talk: str
    interpreter: str
    rank: str
    src_lang: str
    tgt_lang: str
    n_sentences: int
    n_chunks: int
    n_beads: int
    rendered: np.ndarray
    omissions: list[int]
    additions: list[int]
    under: list[int]
    over: list[int]
    flagged: list[FlaggedBead]
    dropped_pairs: list[FlaggedBead]
    evs: EvsTable
    evs_start: EvsStats | None
    compression: float | None
    compression_basis: str
    src_units: int
    tgt_units: int
    ref_units: int
    src_unit: str
    tgt_unit: str
    src_duration: float | None
    tgt_duration: float | None
    src_speech: float | None
    tgt_speech: float | None
    fillers: int
    confidence: float | None
    embedder: str = ""
    created: str = ""
    omitted_sentences: int = 0
    filtered: bool = True
    extras: dict[str, float] = field(default_factory=dict)
    omitted: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))

    # ---- derived numbers -------------------------------------------------
    @property
    def coverage(self) -> float | None:
        """Share of the source sentences rendered, None for an empty source (:mod:`sialign.core.coverage`)."""
        return float(self.rendered.mean()) if self.n_sentences else None

    @property
    def omissions_per_100(self) -> float | None:
        """Omitted source sentences per 100 source sentences."""
        return 100.0 * self.omitted_sentences / self.n_sentences if self.n_sentences else None

    @property
    def tgt_rate(self) -> float | None:
        """Target units per minute of interpreter speech."""
        return _per_minute(self.tgt_units, self.tgt_speech)

    @property
    def src_rate(self) -> float | None:
        """Source units per minute of speaker speech."""
        return _per_minute(self.src_units, self.src_speech)

    @property
    def fillers_per_minute(self) -> float | None:
        """Trimmed filler chunks per minute of the interpretation's time span (None before the filters ran)."""
        return _per_minute(self.fillers, self.tgt_duration) if self.filtered else None

    @property
    def evs_median(self) -> float | None:
        return self.evs_start.median if self.evs_start is not None else None

    @property
    def evs_iqr(self) -> float | None:
        return self.evs_start.iqr if self.evs_start is not None else None

    def summary(self) -> list[Figure]:
        """The summary figures in reading order, each with its one-line explanation."""
        rendered = int(self.rendered.sum())
        cov = self.coverage
        unfiltered = "— (filters not run)"
        needs_filters = " Needs the intra- and inter-sentence filters to have run."
        figures = [
            Figure("coverage", "Coverage", cov,
                   "—" if cov is None else f"{100 * cov:.0f}% ({rendered} of {self.n_sentences})",
                   "Share of the speaker's sentences that have some interpretation aligned to them."),
            Figure("omissions", "Omissions", float(len(self.omissions)),
                   f"{len(self.omissions)} ({count_noun(self.omitted_sentences, 'sentence')})",
                   "Places where a source sentence was not interpreted at all."),
            Figure("additions", "Additions", float(len(self.additions)), str(len(self.additions)),
                   "Stretches of interpretation with no source sentence behind them."),
            Figure("under", "Under-translation flags", float(len(self.under)) if self.filtered else None,
                   str(len(self.under)) if self.filtered else unfiltered,
                   "Renditions much shorter than the reference, or missing most content words."
                   + ("" if self.filtered else needs_filters)),
            Figure("over", "Over-translation flags", float(len(self.over)) if self.filtered else None,
                   str(len(self.over)) if self.filtered else unfiltered,
                   "Renditions much longer than the reference translation." + ("" if self.filtered else needs_filters)),
            Figure("evs_median", "Ear-voice span (median)", self.evs_median,
                   "—" if self.evs_median is None else f"{self.evs_median:.1f} s"
                   + (" (timelines offset?)" if evs_offset_warning(self.evs_median) else ""),
                   "How long you typically listened before starting to interpret a sentence."
                   + (f" Warning: {evs_offset_warning(self.evs_median)}." if evs_offset_warning(self.evs_median) else "")),
            Figure("evs_iqr", "Ear-voice span (IQR)", self.evs_iqr,
                   "—" if self.evs_start is None else f"{self.evs_start.iqr:.1f} s ({self.evs_start.q1:.1f}–{self.evs_start.q3:.1f} s)",
                   "How much that lag varied: half of your sentences started within this range."),
            Figure("compression", "Compression", self.compression, self.compression_text,
                   self._compression_explanation()),
            Figure("tgt_rate", "Speaking rate", self.tgt_rate,
                   "—" if self.tgt_rate is None else f"{self.tgt_rate:.0f} {self.tgt_unit}/min",
                   f"How fast you spoke while speaking (speaker: {_fmt(self.src_rate, '.0f')} {self.src_unit}/min)."),
            Figure("fillers", "Fillers per minute", self.fillers_per_minute,
                   (unfiltered if not self.filtered else "—" if self.fillers_per_minute is None
                    else f"{self.fillers_per_minute:.1f} ({self.fillers} in all)"),
                   "Chunks with no content word (えー, so, well...) at the edge of a rendition, per minute."
                   + ("" if self.filtered else needs_filters)),
            Figure("confidence", "Alignment confidence", self.confidence,
                   "—" if self.confidence is None else f"{100 * self.confidence:.0f}%",
                   "How sure the aligner is of the pairings; low values mean the figures above are rougher."),
        ]
        return figures

    @property
    def compression_text(self) -> str:
        """``"85%"`` against a reference (or a source counted in the same unit), else ``"1.9 characters per source word"``."""
        return format_compression(self.compression, self.compression_basis, self.tgt_unit, self.src_unit)

    def _compression_explanation(self) -> str:
        if self.compression_basis == "reference":
            return (f"Length of your interpretation against the written reference translation "
                    f"({self.tgt_units} vs {self.ref_units} {self.tgt_unit}); below 100% means you condensed.")
        return (f"Length of your interpretation against the source ({self.tgt_units} {self.tgt_unit} "
                f"vs {self.src_units} {self.src_unit}); no reference translation to compare with.")

    # ---- curves for the plots -------------------------------------------
    def coverage_curve(self, window: int = 5) -> tuple[np.ndarray, np.ndarray]:
        """Coverage in a centred window of ``window`` sentences, per source sentence.

        Returns:
            (sentence numbers 1..n, shape (n,); coverage in [0, 1], shape (n,)).
        """
        n = self.n_sentences
        if n == 0:
            return np.zeros(0), np.zeros(0)
        values = self.rendered.astype(np.float64)
        half = max(window, 1) // 2
        csum = np.concatenate([[0.0], np.cumsum(values)])
        lo = np.clip(np.arange(n) - half, 0, n)
        hi = np.clip(np.arange(n) + half + 1, 0, n)
        return np.arange(1, n + 1, dtype=np.float64), (csum[hi] - csum[lo]) / (hi - lo)


# A median ear-voice span below this (seconds) is no interpreter's lag: the
# interpretation would start long before the speaker. The two recordings'
# timelines are offset (a recording trimmed or started late, transcripts
# timed against different clocks).
OFFSET_LAG = -3.0


def evs_offset_warning(median: float | None) -> str:
    """A sentence for a median ear-voice span that means the timelines are offset, else ``""``."""
    if median is None or median >= OFFSET_LAG:
        return ""
    return (f"a median lag of {median:.1f} s means the interpretation starts before the speaker: the timelines "
            "of the two recordings are offset (check that both transcripts are timed from the same start)")


def format_compression(value: float | None, basis: str, tgt_unit: str, src_unit: str) -> str:
    """A compression ratio for people: a percentage when both lengths count the same unit."""
    if value is None:
        return "—"
    if basis == "reference" or tgt_unit == src_unit:
        return f"{100 * value:.0f}%"
    return f"{value:.2f} {tgt_unit} per source {src_unit.rstrip('s')}"


def _per_minute(count: int, seconds: float | None) -> float | None:
    if seconds is None or seconds <= 0:
        return None
    return 60.0 * count / seconds


def _fmt(value: float | None, spec: str) -> str:
    return "—" if value is None or (isinstance(value, float) and math.isnan(value)) else format(value, spec)


def unit_name(language: str) -> str:
    """``"characters"`` for Japanese/Chinese-like languages, else ``"words"``."""
    return "characters" if is_cjk(language) else "words"


def _units(doc: Document) -> int:
    return sum(length_units(s.text, doc.language) for s in doc.segments)


def _span(doc: Document) -> tuple[float | None, float | None]:
    """(time span, summed speech) of a document's timed segments, in seconds."""
    timed = [s for s in doc.segments if s.start is not None and s.end is not None]
    if not timed:
        return None, None
    ends = [float(s.end) for s in timed if s.end is not None]
    starts = [float(s.start) for s in timed if s.start is not None]
    span = max(ends) - min(starts)
    speech = sum(max(0.0, float(s.end) - float(s.start)) for s in timed if s.start is not None and s.end is not None)
    return float(span), float(speech)


def bead_reasons(bead: Bead) -> tuple[str, ...]:
    """Why a bead deserves a look: its failed checks and a drop reason."""
    reasons = [f"{f.name}: {f.reason}" if f.reason else f.name for f in bead.failed_flags]
    # A filter's drop repeats the failed checks listed above; other drops (cost, reviewer) say something new.
    if (bead.status is BeadStatus.DROPPED and bead.reason and not bead.is_skip
            and not (reasons and bead.reason.startswith(FILTER_REASON_PREFIX))):
        reasons.append(f"dropped: {bead.reason}")
    return tuple(reasons)


def rendition_figures(project: Project) -> RenditionFigures:
    """All figures of ``project`` (see the module docstring for the definitions).

    A project without an alignment has no beads: coverage 0, no lags.
    Costs only the walk over the beads and the EVS arrays (milliseconds for
    thousands of beads).
    """
    from sialign.core.coverage import OMITTED, RENDERED
    from sialign.core.coverage import coverage as coverage_of

    src, tgt = project.source, project.target
    beads = project.alignment.beads if project.alignment is not None else []
    covered = coverage_of(project)
    rendered = np.array(covered.mask(RENDERED), dtype=bool)
    omitted_mask = np.array(covered.mask(OMITTED), dtype=bool)
    omissions = list(covered.omission_beads)
    additions: list[int] = []
    under: list[int] = []
    over: list[int] = []
    flagged: list[FlaggedBead] = []
    dropped_pairs: list[FlaggedBead] = []
    fillers = 0
    confidences: list[float] = []
    omitted_sentences = covered.omitted
    for k, bead in enumerate(beads):
        if bead.src and bead.tgt:
            if bead.cost is not None and math.isfinite(bead.cost):
                confidences.append(min(1.0, max(0.0, 1.0 - float(bead.cost))))
        elif not bead.src and bead.tgt:
            additions.append(k)
        names = {f.name for f in bead.failed_flags}
        if UNDER_FLAG in names:
            under.append(k)
        if OVER_FLAG in names:
            over.append(k)
        if bead.flagged:
            flagged.append(FlaggedBead(k, bead_reasons(bead)))
        elif bead.status is BeadStatus.DROPPED and not bead.is_skip:
            dropped_pairs.append(FlaggedBead(k, bead_reasons(bead) or ("dropped",)))
        fillers += len(bead.trimmed)
    reference = project.reference
    ref_units = _units(reference) if reference is not None else 0
    src_units, tgt_units = _units(src), _units(tgt)
    compression: float | None
    if reference is not None and ref_units > 0:
        basis, compression = "reference", tgt_units / ref_units
    else:
        basis, compression = "source", (tgt_units / src_units if src_units else None)
    lags = lag_summary(project)
    src_span, src_speech = _span(src)
    tgt_span, tgt_speech = _span(tgt)
    alignment = project.alignment
    return RenditionFigures(
        talk=project.talk_id, interpreter=interpreter_of(project), rank=str(project.metadata.get("rank") or ""),
        src_lang=src.language, tgt_lang=tgt.language, n_sentences=len(src), n_chunks=len(tgt), n_beads=len(beads),
        rendered=rendered, omissions=omissions, additions=additions, under=under, over=over, flagged=flagged, dropped_pairs=dropped_pairs,
        evs=lags.table, evs_start=lags.start, compression=compression, compression_basis=basis,
        src_units=src_units, tgt_units=tgt_units, ref_units=ref_units,
        src_unit=unit_name(src.language), tgt_unit=unit_name(tgt.language),
        src_duration=src_span, tgt_duration=tgt_span, src_speech=src_speech, tgt_speech=tgt_speech,
        fillers=fillers, confidence=float(np.mean(confidences)) if confidences else None,
        embedder=alignment.embedder if alignment is not None else "", created=alignment.created if alignment is not None else "",
        omitted_sentences=omitted_sentences, omitted=omitted_mask,
        filtered=any(b.trimmed or b.flags for b in beads),
    )


def bead_row(project: Project, k: int) -> dict[str, object]:
    """One bead as plain values for tables: texts, times, lag, status, flags, note, post-edit.

    Keys: ``index`` (1-based), ``sentence`` (1-based position of its first
    source sentence, None for an addition), ``kind``, ``source``, ``target`` (original,
    trimmed chunks left out), ``trimmed`` (their text), ``post_edit``,
    ``src_start``, ``tgt_start``, ``lag`` (seconds or None), ``status``,
    ``reason``, ``flags`` (failed flag names), ``note``.
    """
    assert project.alignment is not None
    bead = project.alignment.beads[k]
    src, tgt = project.source, project.target
    s0 = src.get(bead.src[0]).start if bead.src else None
    t0 = tgt.get(bead.tgt[0]).start if bead.tgt else None
    lag = t0 - s0 if s0 is not None and t0 is not None else None
    return {
        "index": k + 1,
        "sentence": src.index_of(bead.src[0]) + 1 if bead.src else None,
        "kind": bead.kind,
        "source": bead_text(bead, src, "src"),
        "target": bead_text(bead, tgt, "tgt", use_post_edit=False),
        "trimmed": tgt.joiner.join(tgt.get(i).text for i in bead.trimmed),
        "post_edit": bead.post_edit,
        "src_start": s0,
        "tgt_start": t0,
        "lag": lag,
        "status": bead.status.value,
        "reason": bead.reason,
        "flags": [f.name for f in bead.failed_flags],
        "note": bead.note,
    }


def format_clock(seconds: float | None) -> str:
    """``m:ss`` (or ``h:mm:ss``) for a time in seconds; ``—`` when unknown."""
    if seconds is None or not math.isfinite(seconds):
        return "—"
    total = int(round(max(seconds, 0.0)))
    h, rest = divmod(total, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"
