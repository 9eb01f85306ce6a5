"""The one summary of a project's beads: counts and the median ear-voice span.

The status bar of the desktop app, ``sialign align``'s summary lines, corpus
mode's per-talk figures and the notebook's summary line all read
:func:`bead_summary`, so "flagged" or "median EVS" never means two things:

- flagged: a kept bead a check failed on (:attr:`sialign.core.model.Bead.flagged`);
  a dropped one counts as dropped only;
- dropped: a dropped bead that is not an omission (those are counted as omissions,
  :mod:`sialign.core.coverage`);
- unreviewed: neither confirmed nor dropped by the reviewer
  (:attr:`sialign.core.model.Bead.unreviewed`);
- low confidence: an unreviewed (``auto``) bead the aligner doubts: below
  :data:`LOW_PROBABILITY` where the learned bead score judged it (its Conf.),
  else costing more than the threshold (:data:`DEFAULT_LOW_CONFIDENCE` unless
  the reviewer set another in the app's preferences; none where a machine
  transcript was aligned without the learned score: :func:`cost_threshold_for`);
  and any whose word links render none of its source (*Rendered* 0%);
- ear-voice span: start lag of every bead not dropped with times on both sides
  (:func:`sialign.core.lags.evs_table`), its median and quartiles.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from sialign.core.lags import EvsStats, evs_stats, evs_table
from sialign.core.model import Bead, BeadStatus, Project, machine_sides
from sialign.core.word_links import rendered_share

# A bead with a cost above this is "low confidence" unless the user changes it
# in the preferences: costs are 1 - cosine-like similarities, so 0.6 means the
# two sides share well under half their meaning.
DEFAULT_LOW_CONFIDENCE = 0.6
# A bead the learned score judged is "low confidence" below this probability of
# being right (its Conf. column); the cost threshold applies to the others.
LOW_PROBABILITY = 0.5


def cost_threshold_for(project: Project, threshold: float) -> float:
    """The cost above which an unscored bead of ``project`` counts as low confidence (``threshold``: the user's).

    A talk aligned over a machine transcript without the learned score (the recording settings) has none
    (infinity): there the text cost does not tell right beads from wrong ones (ROC AUC 0.29–0.92 on five
    recognised dev talks, 0.44 pooled: ``tests/benchmarks/RESULTS_spoken.md``), and 87 % of the beads cost
    more than a typed transcript's threshold, so the whole table would read as doubtful. Its beads are
    marked low confidence only when their words render none of the source.
    """
    alignment = project.alignment
    if alignment is None or (alignment.info.get("params") or {}).get("learned_score", True) is not False:
        return threshold
    return math.inf if machine_sides(project) else threshold


def unscored_machine_beads(project: Project) -> bool:
    """Whether ``project``'s beads carry no confidence because their transcript is a speech model's (see above)."""
    return cost_threshold_for(project, 0.0) == math.inf


def low_confidence_of(cost: float | None, confidence: float | None, threshold: float, rendered: float | None = None) -> bool:
    """Whether a bead with this cost and confidence counts as low-confidence (``threshold``: the cost one).

    A bead whose word links render none of the source's content words (``rendered`` 0, the *Rendered*
    column) is never a confident one, whatever the score says.
    """
    if rendered is not None and rendered <= 0.0:
        return True
    if confidence is not None:
        return confidence < LOW_PROBABILITY
    return cost is not None and cost > threshold


def is_low_confidence(bead: Bead, threshold: float = DEFAULT_LOW_CONFIDENCE, rendered: float | None = None) -> bool:
    """An unreviewed bead the aligner doubts (see the module docstring); ``rendered``: its *Rendered* share, if linked."""
    return bead.status is BeadStatus.AUTO and low_confidence_of(bead.cost, bead.confidence, threshold, rendered)


@dataclass(frozen=True)
class BeadSummary:
    """Bead counts and the ear-voice span of one project.

    Attributes:
        beads: all beads (0 before the first alignment).
        auto, confirmed: beads by status.
        dropped: dropped beads that are not omissions.
        unreviewed: beads neither confirmed nor dropped by the reviewer.
        flagged: kept beads a check failed on.
        low_confidence: unreviewed beads the aligner doubts.
        omissions: beads of sentences left out (:mod:`sialign.core.coverage`).
        flags: (check name, beads it failed on), by name.
        evs: statistics of the start lag over the beads not dropped with times on both sides; None without times.
    """

    beads: int = 0
    auto: int = 0
    confirmed: int = 0
    dropped: int = 0
    unreviewed: int = 0
    flagged: int = 0
    low_confidence: int = 0
    omissions: int = 0
    flags: tuple[tuple[str, int], ...] = ()
    evs: EvsStats | None = None

    @property
    def median_evs(self) -> float | None:
        """The median ear-voice span in seconds, None without times."""
        return None if self.evs is None else self.evs.median


def bead_summary(project: Project, low_confidence: float = DEFAULT_LOW_CONFIDENCE) -> BeadSummary:
    """The counts and ear-voice span of ``project``'s beads (all zero before the first alignment).

    Args:
        low_confidence: the cost above which an unscored bead counts as low-confidence.
    """
    alignment = project.alignment
    if alignment is None:
        return BeadSummary()
    counts = alignment.counts()
    flags: dict[str, int] = {}
    for bead in alignment.beads:
        for flag in bead.failed_flags:
            flags[flag.name] = flags.get(flag.name, 0) + 1
    return BeadSummary(
        beads=counts["total"],
        auto=counts[BeadStatus.AUTO.value],
        confirmed=counts[BeadStatus.CONFIRMED.value],
        dropped=counts[BeadStatus.DROPPED.value],
        unreviewed=counts["unreviewed"],
        flagged=counts["flagged"],
        low_confidence=sum(1 for b in alignment.beads
                           if is_low_confidence(b, cost_threshold_for(project, low_confidence), rendered_share(project, b))),
        omissions=counts["omitted"],
        flags=tuple(sorted(flags.items())),
        evs=evs_stats(evs_table(project)),
    )


__all__ = ["DEFAULT_LOW_CONFIDENCE", "LOW_PROBABILITY", "BeadSummary", "bead_summary", "cost_threshold_for", "is_low_confidence",
           "low_confidence_of", "unscored_machine_beads"]
