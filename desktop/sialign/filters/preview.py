"""What applying the filters would change, bead by bead, and why — for the filter panel's preview.

:func:`preview_changes` reads the same :func:`~sialign.filters.apply.decide`
as :func:`~sialign.filters.apply.apply_filters`, so the reasons it lists are
the ones applying acts on: which threshold a bead fails and by how much
(``content words 0.12 < 0.20``, ``length ratio 3.1 > 3.0``), and which chunk
the intra filter would trim or give back (``trim chunk “えー、”``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sialign.core.model import Bead, Document
from sialign.core.params import FilterParams
from sialign.filters.apply import Decision, decide
from sialign.filters.scores import BeadScores

DROP = "drop"
RESTORE = "restore"
FLAG = "flag"
TRIM = "trim"


@dataclass(frozen=True)
class PreviewChange:
    """One bead the thresholds would change.

    Attributes:
        index: 0-based position of the bead.
        change: ``"drop"``, ``"restore"`` (a filter drop that now passes),
            ``"flag"`` (fails a threshold but is kept: flag-only or
            confirmed) or ``"trim"`` (only its trimmed chunks change).
        reasons: which filter and why, e.g. ``"content words 0.12 < 0.20"``.
    """

    index: int
    change: str
    reasons: tuple[str, ...]

    def text(self) -> str:
        """``Bead 12 — drop: content words 0.12 < 0.20; trim chunk “えー、”``."""
        return f"Bead {self.index + 1} — {self.change}: " + "; ".join(self.reasons)


def _chunk(doc: Document, seg_id: int) -> str:
    text = " ".join(doc.get(seg_id).text.split())
    return "“" + (text if len(text) <= 20 else text[:19] + "…") + "”"


def failure_reasons(k: int, d: Decision, params: FilterParams) -> list[str]:
    """The thresholds bead ``k`` fails under ``d``, each with its score and limit."""
    reasons = []
    if d.contentless_drop[k]:
        reasons.append("no chunk holds a content word")
    if d.alpha_fail[k]:
        reasons.append(f"content words {d.alpha[k]:.2f} < {params.alpha_min:.2f}")
    if d.gamma_low[k]:
        reasons.append(f"length ratio {d.gamma[k]:.2f} < {params.gamma_min:.2f}")
    if d.gamma_high[k]:
        reasons.append(f"length ratio {d.gamma[k]:.1f} > {params.gamma_max:.1f}")
    if d.eta_fail[k]:
        metric = "cosine" if d.eta_metric == "cosine" else "chrF"
        reasons.append(f"similarity ({metric}) {d.eta[k]:.2f} < {params.eta_min:.2f}")
    return reasons


def _trim_reasons(bead: Bead, new_trims: Sequence[int], target: Document, params: FilterParams) -> list[str]:
    before, after = set(bead.trimmed), set(new_trims)
    reasons = [f"trim chunk {_chunk(target, i)}" for i in bead.tgt if i in after - before]
    why = "intra off" if not params.intra else "it holds a content word now"
    reasons += [f"keep chunk {_chunk(target, i)} ({why})" for i in bead.tgt if i in before - after]
    return reasons


def preview_changes(beads: Sequence[Bead], target: Document, scores: BeadScores, params: FilterParams,
                    rendered: Sequence[float | None] | None = None) -> list[PreviewChange]:
    """Every bead whose status, flags or trimmed chunks applying ``params`` would change, with reasons.

    Args:
        beads: the project's current beads (the ones ``scores`` measured).
        target: the target document (for the text of trimmed chunks).
        scores / params: as for :func:`~sialign.filters.apply.decide`.
        rendered: each bead's rendered share from its word links
            (:func:`sialign.core.word_links.rendered_share`), for the
            "partly rendered" flag (a flag only, never a drop).

    Raises:
        ValueError: the scores do not fit ``params`` (see ``decide``).
    """
    d = decide(scores, params)
    out: list[PreviewChange] = []
    for k, bead in enumerate(beads):
        confirmed = bool(scores.confirmed[k])
        new_trims = tuple(bead.trimmed) if confirmed else (scores.trims[k] if params.intra else ())
        trims = _trim_reasons(bead, new_trims, target, params)
        failures = failure_reasons(k, d, params)
        share = rendered[k] if rendered is not None and k < len(rendered) else None
        partly = [f"rendered {share:.2f} < {params.rendered_min:.2f}"] if share is not None and share < params.rendered_min else []
        if d.dropped_after[k] and not d.dropped_before[k]:
            out.append(PreviewChange(k, DROP, tuple(failures + partly + trims)))
        elif d.dropped_before[k] and not d.dropped_after[k]:
            out.append(PreviewChange(k, RESTORE, tuple(["passes every threshold now"] + trims)))
        elif (failures or partly) and not d.dropped_after[k]:
            why = "confirmed" if confirmed else "flag only"
            out.append(PreviewChange(k, FLAG, tuple([f"{r} ({why})" for r in failures] + [f"{r} (flag only)" for r in partly] + trims)))
        elif trims:
            out.append(PreviewChange(k, TRIM, tuple(trims)))
    return out


def count_changes(changes: Sequence[PreviewChange]) -> dict[str, int]:
    """How many beads of each kind of change."""
    counts = {DROP: 0, RESTORE: 0, FLAG: 0, TRIM: 0}
    for c in changes:
        counts[c.change] += 1
    return counts


__all__ = ["DROP", "FLAG", "RESTORE", "TRIM", "PreviewChange", "count_changes", "failure_reasons", "preview_changes"]
