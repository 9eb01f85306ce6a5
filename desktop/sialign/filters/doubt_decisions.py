"""What the doubt model's scores decide: flags and drops at a threshold, previews, the most doubtful bead, ROC AUC."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from sialign.core.doubt import DoubtScores
from sialign.core.model import Bead, BeadStatus, Flag, Project

DOUBT_FLAG = "doubt"

# Beads dropped by the doubt filter carry this prefix; the α/γ/η filter (whose
# prefix is "filter: ") leaves them alone and the doubt filter may restore them.
DOUBT_REASON_PREFIX = "learned filter: "

# ---------------------------------------------------------------- decisions
def doubt_decisions(result: DoubtScores, beads: Sequence[Bead], threshold: float, drop: bool) -> tuple[np.ndarray, np.ndarray]:
    """Which beads the doubt filter drops and which it restores.

    Rules as for the α/γ/η filters: confirmed beads are never dropped, a
    bead dropped by the aligner, another filter or the reviewer stays
    dropped, a bead the doubt filter dropped earlier comes back when it now
    passes (or when ``drop`` is off).

    Returns:
        ``(drop_now, restore)``, boolean arrays of shape (n,).

    Raises:
        ValueError: the beads are not the ones ``result`` scored.
    """
    if not result.matches(beads):
        raise ValueError("the beads changed since the doubt was computed; compute it again")
    status = np.array([b.status.value for b in beads])
    confirmed = status == BeadStatus.CONFIRMED.value
    ours = np.array([b.status is BeadStatus.DROPPED and b.reason.startswith(DOUBT_REASON_PREFIX) for b in beads], dtype=bool)
    dropped = status == BeadStatus.DROPPED.value
    fail = result.doubt > threshold
    drop_now = drop & fail & ~confirmed & ~dropped
    restore = ours & ~(drop & fail)
    return drop_now, restore


def preview_doubt_flips(result: DoubtScores, beads: Sequence[Bead], threshold: float, drop: bool) -> list[int]:
    """Indices of the beads whose status (dropped or not) the doubt filter would change."""
    drop_now, restore = doubt_decisions(result, beads, threshold, drop)
    return np.flatnonzero(drop_now | restore).tolist()


def apply_doubt(project: Project, result: DoubtScores, threshold: float, *, drop: bool = True) -> list[Bead]:
    """New copies of the project's beads with a ``doubt`` flag each and the filter's drops.

    Every bead gets a :class:`Flag` named ``doubt`` (score = doubt,
    threshold, failed when above it), which the project file and the JSONL
    export keep. The project is not changed; apply the result as one
    ``ReplaceBeads`` edit so it can be undone.
    """
    if project.alignment is None:
        raise ValueError("the project has no alignment to filter; align it first")
    beads = project.alignment.beads
    drop_now, restore = doubt_decisions(result, beads, threshold, drop)
    out: list[Bead] = []
    for k, bead in enumerate(beads):
        new = bead.copy()
        doubt = float(result.doubt[k])
        failed = doubt > threshold
        if failed:
            reason = f"Doubt {doubt:.2f} is above {threshold:.2f}: the model trained on the reviewed beads finds this bead unlike them"
        else:
            reason = f"Doubt {doubt:.2f} (probability the bead is wrong, trained on {result.source})"
        new.flags = [f for f in new.flags if f.name != DOUBT_FLAG]
        new.flags.append(Flag(DOUBT_FLAG, round(doubt, 4), threshold, reason, bool(failed and bead.status is not BeadStatus.CONFIRMED)))
        if drop_now[k]:
            new.status = BeadStatus.DROPPED
            new.reason = f"{DOUBT_REASON_PREFIX}doubt {doubt:.2f} is above {threshold:.2f}"
        elif restore[k]:
            new.status = BeadStatus.AUTO
            new.reason = ""
        out.append(new)
    return out


def most_doubtful(beads: Sequence[Bead], doubt: dict[tuple[tuple[int, ...], tuple[int, ...]], float]) -> int:
    """Index of the unreviewed bead with the highest doubt, or -1 when none has one.

    Args:
        beads: the alignment's beads.
        doubt: doubt keyed by (src ids, tgt ids) (:meth:`DoubtResult.by_bead`).
    """
    best, best_value = -1, -1.0
    for k, bead in enumerate(beads):
        if not bead.unreviewed:
            continue
        value = doubt.get((bead.src, bead.tgt))
        if value is not None and value > best_value:
            best, best_value = k, value
    return best


def roc_auc(scores: np.ndarray, labels: np.ndarray) -> float:
    """Area under the ROC curve (ties count half): P(score of a positive > score of a negative).

    Args:
        scores: (k,) higher = more likely positive.
        labels: (k,) booleans.

    Returns:
        The AUC, NaN when a class is missing.
    """
    scores = np.asarray(scores, dtype=np.float64)
    labels = np.asarray(labels, dtype=bool)
    pos, neg = labels.sum(), (~labels).sum()
    if pos == 0 or neg == 0:
        return float("nan")
    order = np.argsort(scores, kind="mergesort")
    ranks = np.empty(len(scores))
    sorted_scores = scores[order]
    # Average ranks over ties.
    i = 0
    while i < len(scores):
        j = i
        while j + 1 < len(scores) and sorted_scores[j + 1] == sorted_scores[i]:
            j += 1
        ranks[order[i : j + 1]] = (i + j) / 2.0 + 1.0
        i = j + 1
    return float((ranks[labels].sum() - pos * (pos + 1) / 2.0) / (pos * neg))
