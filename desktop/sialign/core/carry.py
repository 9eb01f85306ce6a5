"""Carry a reviewer's work from an old alignment to a new one of the same documents.

Re-aligning a reviewed talk (new parameters, a changed segment, *Re-align
unconfirmed*) produces fresh beads. Nothing the program does on its own may
discard what the reviewer did, so every bead of the new alignment whose
source and target segments are exactly those of an old bead takes over that
bead's review data: its status when a person or a filter set it (confirmed,
dropped by the reviewer or a filter — the aligner's own drops are decided
afresh), labels, note, post-edit, trimmed chunks and filter flags.

Review data whose bead no longer exists (the new alignment groups its
segments differently) cannot be carried; :func:`carry_review` lists it so
the front end can say so, and offer to cancel, before anything is replaced.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from sialign.core.model import Alignment, Bead, BeadStatus
from sialign.core.plurals import count_noun, possessive

# Reasons the aligner itself gives a dropped bead (recomputed on every run).
ALIGNER_DROP_PREFIXES = ("cost ", "no rendition found", "no source segment")


def _aligner_drop(bead: Bead) -> bool:
    return bead.status is BeadStatus.DROPPED and bead.reason.startswith(ALIGNER_DROP_PREFIXES)


def review_items(bead: Bead) -> list[str]:
    """What a person (or a filter) recorded on ``bead``, in words; empty for an untouched bead."""
    items = []
    if bead.status is BeadStatus.CONFIRMED:
        items.append("confirmed")
    elif bead.status is BeadStatus.DROPPED and not _aligner_drop(bead):
        items.append("dropped")
    if bead.good_align is not None or bead.good_mt is not None:
        items.append("labels")
    if bead.note:
        items.append("note")
    if bead.post_edit is not None:
        items.append("post-edit")
    if bead.trimmed:
        items.append("trimmed chunks")
    if bead.restored:
        items.append("restored chunks")
    if bead.flags:
        items.append("filter flags")
    return items


@dataclass(frozen=True)
class LostReview:
    """Review data that had to stay behind: its old bead's segments and what it held."""

    index: int  # 0-based position of the bead in the old alignment
    src: tuple[int, ...]
    tgt: tuple[int, ...]
    items: tuple[str, ...]

    def describe(self) -> str:
        return f"bead {self.index + 1} ({len(self.src)}-{len(self.tgt)}): {', '.join(self.items)}"


@dataclass
class CarryReport:
    """What :func:`carry_review` did.

    Attributes:
        beads_changed: beads of the new alignment that did not exist before.
        carried: beads that took over review data.
        lost: review data whose bead is gone, one entry per old bead.
    """

    beads_changed: int = 0
    carried: int = 0
    lost: list[LostReview] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        return {
            "beads_changed": self.beads_changed,
            "carried": self.carried,
            "lost": [dataclasses.asdict(item) for item in self.lost],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> CarryReport:
        """The report :meth:`to_dict` wrote (``alignment.info["review_carry"]``)."""
        return cls(
            beads_changed=int(d.get("beads_changed", 0)),
            carried=int(d.get("carried", 0)),
            lost=[LostReview(x["index"], tuple(x["src"]), tuple(x["tgt"]), tuple(x["items"])) for x in d.get("lost", [])],
        )

    def summary(self) -> str:
        text = f"{count_noun(self.beads_changed, 'bead')} changed; review data carried over for {self.carried}"
        if self.lost:
            text += f"; {possessive(len(self.lost), 'bead')} review data could not be carried ({'its bead no longer exists' if len(self.lost) == 1 else 'their beads no longer exist'})"
        return text


def carry_review(old: Alignment | None, new: Alignment) -> CarryReport:
    """Copy review data from ``old`` onto the beads of ``new`` with identical segments, in place.

    Every review field is copied for a matched bead (empty ones too), so
    carrying again from a newer ``old`` (edits made while an alignment ran in
    the background) gives exactly that version's data.

    Args:
        old: the alignment being replaced (None: nothing to carry).
        new: the fresh alignment; its beads are updated.

    Returns:
        The report: beads changed, carried, and what could not be carried.
    """
    report = CarryReport()
    if old is None:
        report.beads_changed = len(new.beads)
        return report
    by_segments = {(bead.src, bead.tgt): (k, bead) for k, bead in enumerate(old.beads)}
    used: set[int] = set()
    for position, bead in enumerate(new.beads):
        hit = by_segments.get((bead.src, bead.tgt))
        if hit is None:
            report.beads_changed += 1
            continue
        k, before = hit
        used.add(k)
        items = review_items(before)
        status, reason = bead.status, bead.reason
        if before.status is BeadStatus.CONFIRMED or (before.status is BeadStatus.DROPPED and not _aligner_drop(before)):
            status, reason = before.status, before.reason
        new.beads[position] = dataclasses.replace(
            bead,
            status=status,
            reason=reason,
            good_align=before.good_align,
            good_mt=before.good_mt,
            note=before.note,
            post_edit=before.post_edit,
            trimmed=tuple(before.trimmed),
            restored=tuple(before.restored),
            flags=[dataclasses.replace(f) for f in before.flags],
        )
        report.carried += bool(items)
    for k, before in enumerate(old.beads):
        if k in used:
            continue
        items = review_items(before)
        if items:
            report.lost.append(LostReview(k, before.src, before.tgt, tuple(items)))
    return report
