"""What an edit changed, for the views that show a project (like Anki's ``OpChanges``).

Every :class:`~sialign.core.edits.Edit` describes its effect with
:meth:`~sialign.core.edits.Edit.changes`; :func:`~sialign.core.edits.apply_edit_changes`
returns it beside the inverse, and the desktop app's session emits it. A view
asks the record what it needs (segments whose times moved, whether the ear-voice
span can have changed...) instead of switching on edit types, so a new edit
type only has to describe itself in the core. An edit that does not describe
itself is taken to have changed everything.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

SIDES = ("src", "tgt", "ref")

# What segments_with_new_times answers when a side's segments were split or merged.
ALL_SEGMENTS = "all"


def _merge(a: tuple[Any, ...], b: tuple[Any, ...]) -> tuple[Any, ...]:
    return a + tuple(x for x in b if x not in a)


@dataclass(frozen=True)
class Changes:
    """What one edit (or an undo of it) changed.

    Attributes:
        text: (side, segment id) of segments whose text changed in place, in order.
        times: (side, segment id) of segments whose start or end changed in place.
        reshaped: sides whose segments were split, merged or unmerged (ids
            added or removed: read the side again).
        beads: which segments beads hold, or how many beads there are.
        statuses: bead statuses (auto, confirmed, dropped) and their reasons.
        annotations: labels, notes, post-edits, trimmed chunks or flags of beads.
        alignment: the whole alignment was replaced (a new run, an undo of one).
        settings: the alignment parameters or the filter thresholds.
        talk: the talk's own facts (id, languages, interpreter, reference translation).
        recordings: sides whose recording may now be another file (read it again).
    """

    text: tuple[tuple[str, int], ...] = ()
    times: tuple[tuple[str, int], ...] = ()
    reshaped: tuple[str, ...] = ()
    beads: bool = False
    statuses: bool = False
    annotations: bool = False
    alignment: bool = False
    settings: bool = False
    talk: bool = False
    recordings: tuple[str, ...] = ()

    @classmethod
    def everything(cls) -> Changes:
        """The record of an edit that does not describe itself: anything may have changed."""
        return cls(reshaped=SIDES, beads=True, statuses=True, annotations=True, alignment=True, settings=True, talk=True)

    def __or__(self, other: Changes) -> Changes:
        return Changes(
            text=_merge(self.text, other.text),
            times=_merge(self.times, other.times),
            reshaped=_merge(self.reshaped, other.reshaped),
            beads=self.beads or other.beads,
            statuses=self.statuses or other.statuses,
            annotations=self.annotations or other.annotations,
            alignment=self.alignment or other.alignment,
            settings=self.settings or other.settings,
            talk=self.talk or other.talk,
            recordings=_merge(self.recordings, other.recordings),
        )

    def touched_segments(self) -> list[tuple[str, int]]:
        """(side, id) of segments whose text or times changed in place, in order.

        A bead can look unchanged while its segment's text changed (a merge
        across a bead boundary and its undo): the review table re-reads these.
        """
        return list(_merge(self.text, self.times))

    def segments_with_new_times(self, side: str) -> set[int] | str:
        """Ids of ``side``'s segments whose times changed, or :data:`ALL_SEGMENTS` after a split or merge there."""
        if side in self.reshaped:
            return ALL_SEGMENTS
        return {seg_id for s, seg_id in self.times if s == side}

    @property
    def ear_voice_span(self) -> bool:
        """Whether the ear-voice span of some bead can have changed (times, segments, beads or statuses)."""
        timed = any(side in ("src", "tgt") for side, _ in self.times)
        reshaped = any(side in ("src", "tgt") for side in self.reshaped)
        return timed or reshaped or self.beads or self.statuses or self.alignment


__all__ = ["ALL_SEGMENTS", "Changes"]
