"""What was rendered and what was left out: the one definition every view reads.

Each source sentence is in one of four states, decided by the bead that holds it:

- **rendered**: a bead with target segments that is not dropped;
- **omitted**: a bead with no target (1-0), whatever its status: the aligner found no rendition
  (a reviewer who confirms it agrees; one who disagrees gives it target segments);
- **dropped**: a bead with target segments that a reviewer, a filter or its cost dropped: neither
  rendered nor left out, so not an omission, and not counted in the coverage;
- **not reached**: the practice session stopped before the sentence (:data:`NOT_REACHED_REASON`), or no
  bead holds it yet (live view).

An **omission** is a bead of the omitted state; the **coverage** is the share of all source sentences
rendered (a dropped pair, or a sentence not reached, is not rendered, though not left out either). The status bar and its tooltip, ``sialign align``'s summary, the report
and its chart, *Compare renditions*, the corpus window, ``sialign compare --pooled``, the booth's live
table and ``Project.to_dataframe()`` all count from here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

RENDERED = "rendered"
OMITTED = "omitted"
DROPPED = "dropped"
NOT_REACHED = "not reached"

# The reason of a sentence the practice session never reached (not an omission: the student stopped first).
NOT_REACHED_REASON = "the session stopped before this sentence"


def bead_state(bead: Any) -> str | None:
    """The state of the sentences of a bead (:class:`~sialign.core.model.Bead`); None for one without source (an addition)."""
    if not bead.src:
        return None
    if not bead.tgt:
        return NOT_REACHED if bead.reason == NOT_REACHED_REASON else OMITTED
    return DROPPED if bead.status == "dropped" else RENDERED  # BeadStatus.DROPPED (a str enum): no import circle


@dataclass(frozen=True)
class Coverage:
    """Sentence states and their counts for one alignment.

    Attributes:
        states: per source sentence in document order, one of the four states.
        omission_beads: indices of the beads that are omissions (document order).
    """

    states: tuple[str, ...]
    omission_beads: tuple[int, ...] = ()

    def count(self, state: str) -> int:
        return sum(1 for s in self.states if s == state)

    @property
    def sentences(self) -> int:
        return len(self.states)

    @property
    def rendered(self) -> int:
        return self.count(RENDERED)

    @property
    def omitted(self) -> int:
        """Sentences left out (a 1-0 bead may hold several)."""
        return self.count(OMITTED)

    @property
    def omissions(self) -> int:
        """Omission beads."""
        return len(self.omission_beads)

    @property
    def share(self) -> float | None:
        """The share of the source sentences rendered; None for an empty source."""
        return self.rendered / self.sentences if self.sentences else None

    def mask(self, state: str) -> list[bool]:
        return [s == state for s in self.states]


def _collect(beads: Iterable[tuple[Sequence[Any], str | None]], source_ids: Sequence[Any]) -> Coverage:
    """The coverage of beads given as (source ids, state); sentences no bead holds are not reached."""
    positions = {sid: i for i, sid in enumerate(source_ids)}
    states = [NOT_REACHED] * len(positions)
    omissions: list[int] = []
    for k, (src, state) in enumerate(beads):
        if state is None:
            continue
        if state == OMITTED:
            omissions.append(k)
        for sid in src:
            if sid in positions:
                states[positions[sid]] = state
    return Coverage(tuple(states), tuple(omissions))


def coverage(project: Any) -> Coverage:
    """The coverage of ``project``'s alignment (a :class:`~sialign.core.model.Project`, or any object with its
    ``source`` and ``alignment``); every sentence is not reached before the first alignment."""
    beads = project.alignment.beads if project.alignment is not None else []
    return _collect(((b.src, bead_state(b)) for b in beads), project.source.ids())


def live_coverage(beads: Iterable[Any], source_ids: Sequence[Any]) -> Coverage:
    """The coverage of the booth's live beads over the source's ids, by the live engine's own word on each.

    ``state`` ``pending`` (the student has not passed the sentence yet) is not reached; ``unrendered`` (passed
    without a rendition) is left out, as the full pass would count it; any other (``rendered``, and
    ``full pass`` for a row the full pass revised) is rendered.
    """
    live = {"pending": NOT_REACHED, "unrendered": OMITTED}
    return _collect(((b.src, live.get(b.state, RENDERED) if b.src else None) for b in beads), source_ids)


__all__ = ["live_coverage", "DROPPED", "NOT_REACHED", "NOT_REACHED_REASON", "OMITTED", "RENDERED", "Coverage", "bead_state", "coverage"]
