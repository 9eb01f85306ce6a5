"""Turn scores and thresholds into decisions: trims, flags and dropped beads.

:func:`decide` is the one place where thresholds meet scores; both
:func:`apply_filters` (which builds the new beads with their flags and
reasons) and :func:`preview_flips` (which only says which beads would change
status, fast enough for a slider) call it, so the preview can never disagree
with what applying does.

Rules:

- confirmed beads are never dropped, re-trimmed or restored: they only get
  flags;
- a bead dropped by the aligner or by the user (its reason does not start
  with ``"filter: "``) stays dropped; a bead dropped by an earlier filter run
  comes back when it now passes;
- 1-0 and 0-1 beads keep their status and get an omission / addition flag;
- thresholds compare with the scores of the target as the intra filter
  leaves it (trimmed chunks excluded) when the intra filter is on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from sialign.core.model import Bead, BeadStatus, Flag, Project, bead_text
from sialign.core.params import FilterParams
from sialign.core.progress import ProgressFn, StopFn, check_stop, stage
from sialign.filters.scores import FILTER_REASON_PREFIX, BeadScores, score_beads

FILTER_FLAG_NAMES = frozenset(
    {"intra", "alpha", "gamma", "eta", "omission", "addition", "under_translation", "over_translation", "partly_rendered"}
)


@dataclass
class Decision:
    """Per-bead outcome of one set of thresholds (arrays of shape (n,)).

    Attributes:
        row: 1 where the scores of the trimmed target apply, else 0.
        alpha / gamma / eta: the scores compared (NaN = not measured).
        eta_metric: ``"cosine"`` or ``"chrf"``.
        alpha_fail / gamma_low / gamma_high / eta_fail: threshold failures.
        contentless_drop: dropped because no chunk has a content word.
        filter_drop: the filters drop the bead.
        dropped_before / dropped_after: status DROPPED before and after.
    """

    row: np.ndarray
    alpha: np.ndarray
    gamma: np.ndarray
    eta: np.ndarray
    eta_metric: str
    alpha_fail: np.ndarray
    gamma_low: np.ndarray
    gamma_high: np.ndarray
    eta_fail: np.ndarray
    contentless_drop: np.ndarray
    filter_drop: np.ndarray
    dropped_before: np.ndarray
    dropped_after: np.ndarray


def decide(scores: BeadScores, params: FilterParams) -> Decision:
    """Apply ``params``' thresholds to ``scores`` (vectorised; no text is touched)."""
    if tuple(params.content_pos) != tuple(scores.content_pos):
        raise ValueError(
            "the scores were computed for content POS "
            f"{', '.join(scores.content_pos)}; compute them again for {', '.join(params.content_pos)}"
        )
    n = len(scores)
    has_trim = np.fromiter((bool(t) for t in scores.trims), dtype=bool, count=n)
    row = (has_trim & params.intra).astype(np.intp)
    cols = np.arange(n)
    alpha = scores.alpha[row, cols]
    gamma = scores.gamma[row, cols]
    eta_all, metric = scores.eta(params.eta_metric)
    eta = eta_all[row, cols]
    with np.errstate(invalid="ignore"):
        alpha_fail = (alpha < params.alpha_min) & params.inter
        gamma_low = (gamma < params.gamma_min) & params.inter
        gamma_high = (gamma > params.gamma_max) & params.inter
        eta_fail = (eta < params.eta_min) & params.inter
    both_sides = (scores.src_count > 0) & (scores.tgt_count > 0)
    contentless_drop = scores.contentless & both_sides & params.intra & params.drop_contentless
    inter_fail = alpha_fail | gamma_low | gamma_high | eta_fail
    filter_drop = ~scores.confirmed & both_sides & ((inter_fail & params.drop_failed) | contentless_drop)
    dropped_before = np.fromiter((s == BeadStatus.DROPPED for s in scores.status), dtype=bool, count=n)
    kept_by_others = dropped_before & ~scores.filter_dropped
    dropped_after = np.where(scores.confirmed, False, kept_by_others | filter_drop)
    return Decision(
        row, alpha, gamma, eta, metric, alpha_fail, gamma_low, gamma_high, eta_fail,
        contentless_drop, filter_drop, dropped_before, dropped_after,
    )


def preview_flips(scores: BeadScores, params: FilterParams) -> list[int]:
    """Indices of the beads whose status (dropped or not) would change under ``params``."""
    d = decide(scores, params)
    return np.flatnonzero(d.dropped_after != d.dropped_before).tolist()


def drop_changes(before: Sequence[BeadStatus], beads: Sequence[Bead]) -> tuple[int, int]:
    """(newly dropped, restored): how a filter run changed the statuses ``before`` into ``beads``' own."""
    newly = sum(1 for old, b in zip(before, beads) if b.status is BeadStatus.DROPPED and old is not BeadStatus.DROPPED)
    restored = sum(1 for old, b in zip(before, beads) if old is BeadStatus.DROPPED and b.status is not BeadStatus.DROPPED)
    return newly, restored


def _quote(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return "“" + (text if len(text) <= limit else text[: limit - 1] + "…") + "”"


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def apply_filters(
    project: Project,
    params: FilterParams,
    scores: BeadScores | None = None,
    *,
    embedder: Any = None,
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
) -> list[Bead]:
    """New copies of the project's beads with trims, flags and filter decisions.

    The project is not changed; the caller applies the result as one edit
    (``ReplaceBeads(0, len(beads), result)``) so it can be undone.

    Args:
        project: a project with an alignment.
        params: thresholds.
        scores: from :func:`score_beads` for the current beads; computed here
            (with ``embedder``) when None or out of date.
        progress / should_stop: see :mod:`sialign.core.progress`.

    Raises:
        ValueError: the project has no alignment.
        AlignmentCancelled: when ``should_stop()`` says so.
    """
    if project.alignment is None:
        raise ValueError("the project has no alignment to filter; align it first")
    beads = project.alignment.beads
    if scores is None or not scores.matches(beads) or tuple(scores.content_pos) != tuple(params.content_pos):
        scores = score_beads(
            project, embedder=embedder, content_pos=params.content_pos, progress=stage(progress, 0.0, 0.9),
            should_stop=should_stop,
        )
    else:
        # Statuses may have changed since scoring (a bead confirmed meanwhile must not be dropped).
        scores = scores.with_statuses(beads)
    check_stop(should_stop)
    d = decide(scores, params)
    out: list[Bead] = []
    for k, bead in enumerate(beads):
        new = bead.copy()
        new.flags = [f for f in new.flags if f.name not in FILTER_FLAG_NAMES]
        confirmed = bool(scores.confirmed[k])
        if not confirmed:
            new.trimmed = scores.trims[k] if params.intra else ()
        flags = _flags_for(k, new, project, scores, params, d)
        new.flags.extend(flags)
        dropped_by_others = bead.status == BeadStatus.DROPPED and not scores.filter_dropped[k]
        if not confirmed and not dropped_by_others:  # the aligner's or the user's drop and reason stand
            if d.filter_drop[k]:
                failed = [f.reason for f in flags if f.failed and f.name in ("intra", "alpha", "gamma", "eta")]
                new.status = BeadStatus.DROPPED
                new.reason = FILTER_REASON_PREFIX + "; ".join(failed)
            elif scores.filter_dropped[k] and bead.status == BeadStatus.DROPPED:
                new.status = BeadStatus.AUTO
                new.reason = ""
        out.append(new)
        if progress is not None and k % 200 == 0:
            progress(0.9 + 0.1 * k / max(1, len(beads)), "Applying filters")
    if progress is not None:
        progress(1.0, "Filters applied")
    return out


def partly_rendered_flag(project: Project, bead: Bead, params: FilterParams) -> Flag | None:
    """The "partly rendered" flag of a bead from its stored word links; None when off or not linked.

    Fails when the rendered share (source content words linked or rendered
    by paraphrase) is below ``params.rendered_min``; the reason lists the
    words not found.
    """
    from sialign.core.word_links import links_of

    if params.rendered_min <= 0:
        return None
    links = links_of(project, bead)
    share = None if links is None else links.rendered_share
    if links is None or share is None:
        return None
    total = len(links.content)
    linked = round(share * total)
    failed = share < params.rendered_min
    reason = f"Partly rendered: {linked} of {total} source content words rendered ({_pct(share)})" if failed \
        else f"Rendered share {_pct(share)} ({linked} of {total} source content words rendered)"
    missing = links.unrendered()
    if failed and missing:
        reason += "; not found: " + ", ".join(missing[:12]) + ("…" if len(missing) > 12 else "")
    return Flag("partly_rendered", share, params.rendered_min, reason, failed)


def _flags_for(k: int, bead: Bead, project: Project, scores: BeadScores, params: FilterParams, d: Decision) -> list[Flag]:
    flags: list[Flag] = []
    src_doc, tgt_doc = project.source, project.target
    if bead.src and not bead.tgt:
        lines = [src_doc.get(i).line for i in bead.src]
        where = f" (line {lines[0]})" if lines and lines[0] is not None else ""
        flags.append(Flag("omission", None, None, f"Source not interpreted{where}: {_quote(bead_text(bead, src_doc, 'src'))}"))
        return flags
    if bead.tgt and not bead.src:
        flags.append(Flag("addition", None, None, f"Interpretation without a source sentence: {_quote(bead_text(bead, tgt_doc, 'tgt', include_trimmed=True))}"))
        return flags
    if scores.contentless[k] and not scores.confirmed[k]:
        pos = ", ".join(params.content_pos)
        flags.append(
            Flag("intra", None, None, f"No chunk of the interpretation holds a content word ({pos}): only fillers or function words", True)
        )
    elif bead.trimmed:
        trimmed = "".join(_quote(tgt_doc.get(i).text, 30) for i in bead.trimmed)
        flags.append(Flag("intra", None, None, f"Trimmed chunk without a content word: {trimmed} (restorable)", False))
    row = int(d.row[k])
    alpha = float(d.alpha[k])
    detail = scores.alpha_details[row][k]
    if not np.isnan(alpha) and detail is not None:
        what = {
            "reference": "content words of the reference translation",
            "word alignment": "source content words (word alignment)",
            "numbers and names": "numbers and names of the source",
        }[detail.method]
        reason = f"Covers {detail.covered} of {detail.total} {what} ({_pct(alpha)}; method: {detail.method})"
        if detail.missing:
            reason += "; missing: " + ", ".join(detail.missing)
        flags.append(Flag("alpha", alpha, params.alpha_min, reason, bool(d.alpha_fail[k])))
    gamma = float(d.gamma[k])
    if not np.isnan(gamma):
        t_units = int(scores.target_units[row, k])
        r_units = int(scores.reference_units[row, k])
        size = f"{t_units} vs {r_units} {scores.length_unit}"
        if d.gamma_low[k]:
            flags.append(Flag("gamma", gamma, params.gamma_min, f"The interpretation is {_pct(gamma)} as long as the reference translation ({size}): possible under-translation", True))
        elif d.gamma_high[k]:
            flags.append(Flag("gamma", gamma, params.gamma_max, f"The interpretation is {gamma:.1f}× as long as the reference translation ({size}): possible mistranslation or addition", True))
        else:
            flags.append(Flag("gamma", gamma, params.gamma_min, f"Length {_pct(gamma)} of the reference translation ({size})", False))
    eta = float(d.eta[k])
    if not np.isnan(eta):
        metric = "embedding cosine" if d.eta_metric == "cosine" else "chrF"
        if d.eta_fail[k]:
            reason = f"Meaning far from the reference translation: {metric} {eta:.2f} is below {params.eta_min:.2f}"
        else:
            reason = f"Similarity to the reference translation: {metric} {eta:.2f}"
        flags.append(Flag("eta", eta, params.eta_min, reason, bool(d.eta_fail[k])))
    under = []
    if d.gamma_low[k]:
        under.append(f"it is {_pct(gamma)} as long as the reference")
    if d.alpha_fail[k] and detail is not None:
        under.append(f"it renders {detail.covered} of {detail.total} content words")
    if under:
        flags.append(Flag("under_translation", None, None, "Possible under-translation: " + " and ".join(under), True))
    partly = partly_rendered_flag(project, bead, params)
    if partly is not None:
        flags.append(partly)
    if d.gamma_high[k]:
        flags.append(Flag("over_translation", gamma, params.gamma_max, f"Possible over-translation: {gamma:.1f}× the reference length", True))
    return flags
