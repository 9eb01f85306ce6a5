"""What the front ends hold of the learned filter's doubt: the scores of one state of a talk's beads.

The doubt is computed in :mod:`sialign.filters.learned` (its
``DoubtResult`` also carries the trained model) and reaches the front ends
through :mod:`sialign.workflows.doubt`; they hold it as :class:`DoubtScores`,
the part they read and hand back to apply or preview the doubt.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

from sialign.core.documents import Bead

# A bead by its (source ids, target ids): survives edits elsewhere in the talk.
BeadKey = tuple[tuple[int, ...], tuple[int, ...]]


class DoubtScores(Protocol):
    """The doubt of every bead of one state of a project.

    Attributes:
        signature: the (src ids, tgt ids) of each bead scored, in order.
        doubt: (n,) probability that each bead is wrong.
        counts: (good, wrong) training examples.
        source: what the good examples were (``"confirmed"``, ``"unreviewed"``…, plus ``" + other talks"``).
    """

    @property
    def signature(self) -> list[BeadKey]: ...

    @property
    def doubt(self) -> np.ndarray: ...

    @property
    def counts(self) -> tuple[int, int]: ...

    @property
    def source(self) -> str: ...

    def matches(self, beads: Sequence[Bead]) -> bool:
        """Whether the scores are of exactly these beads."""
        ...

    def by_bead(self) -> dict[BeadKey, float]:
        """The doubt keyed by bead (:data:`BeadKey`)."""
        ...


def count_above(scores: DoubtScores, threshold: float) -> int:
    """How many scored beads the doubt puts above ``threshold`` (what the doubt filter flags, or drops)."""
    return int((np.asarray(scores.doubt) > threshold).sum())


__all__ = ["BeadKey", "DoubtScores", "count_above"]
