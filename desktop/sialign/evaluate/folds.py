"""Leave-one-document-out folds for validating anything fitted on the dev sets (docs/quality.md).

A document is a speech, a talk, or a chapter-sized piece of a book: a long
document is cut at gold bead boundaries into pieces of about equal size, so
that no gold bead is split and each piece can be held out in turn. A bead of
a hypothesis belongs to the piece holding its last source segment (a 0-1
bead: its last target segment), so the pieces' scores add up to the whole
document's.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from sialign.core.errors import SialignError
from sialign.evaluate.beads import BeadPositions


@dataclass(frozen=True)
class Piece:
    """A run of consecutive gold beads of one document.

    Attributes:
        index: the piece's position in the document (0-based).
        src: the source positions it covers (half-open, whole-document positions).
        tgt: the target positions it covers.
        gold: its gold beads (whole-document positions).
    """

    index: int
    src: range
    tgt: range
    gold: list[BeadPositions]

    def holds(self, bead: BeadPositions) -> bool:
        """Whether a bead (of any alignment of the whole document) is scored in this piece."""
        src, tgt = bead
        if src:
            return max(src) in self.src
        return bool(tgt) and max(tgt) in self.tgt


def split_gold(gold: Sequence[BeadPositions], pieces: int, n_src: int = 0, n_tgt: int = 0) -> list[Piece]:
    """Cut a document's gold beads into ``pieces`` runs of about equal source length.

    Cuts fall only between gold beads, after the bead that reaches the next
    share of the source; every piece holds at least one bead with a source
    and one with a target side. Segments no gold bead holds (a gold may leave
    some out) belong to the piece of the next gold bead; the last piece runs
    to ``n_src`` / ``n_tgt`` (the documents' lengths) when they are longer.

    Raises:
        SialignError: fewer than ``pieces`` beads with both sides, or no
            place to cut them into that many.
    """
    beads = [(tuple(s), tuple(t)) for s, t in gold]
    if pieces < 1:
        raise SialignError(f"cannot cut a document into {pieces} pieces")
    if sum(1 for s, t in beads if s and t) < pieces:
        raise SialignError(f"cannot cut {len(beads)} gold beads into {pieces} pieces with both sides")
    src_end = tgt_end = 0  # one past the last position seen
    ends: list[tuple[int, int]] = []
    for s, t in beads:
        src_end = max(src_end, max(s) + 1) if s else src_end
        tgt_end = max(tgt_end, max(t) + 1) if t else tgt_end
        ends.append((src_end, tgt_end))
    # No cut right before a bead that reaches back behind its predecessors (a gold may cross itself).
    can_cut = [
        not ((s and min(s) < ends[k][0]) or (t and min(t) < ends[k][1])) for k, (s, t) in enumerate(beads[1:])
    ] + [False]
    total = max(src_end, 1)
    pairs_after = [0] * (len(beads) + 1)  # beads with both sides after position k
    for k in range(len(beads) - 1, -1, -1):
        pairs_after[k] = pairs_after[k + 1] + bool(beads[k][0] and beads[k][1])
    out: list[Piece] = []
    run: list[BeadPositions] = []
    src_start = tgt_start = 0
    for k, bead in enumerate(beads):
        run.append(bead)
        left = pieces - len(out) - 1  # pieces still to cut after this one
        has_pair = any(s_ and t_ for s_, t_ in run)
        due = ends[k][0] >= total * (len(out) + 1) / pieces
        # Cut at the share's end, or earlier if the later pieces would otherwise lack a bead with both sides.
        if left and has_pair and can_cut[k] and pairs_after[k + 1] >= left and (due or pairs_after[k + 1] == left):
            out.append(Piece(len(out), range(src_start, ends[k][0]), range(tgt_start, ends[k][1]), run))
            run, (src_start, tgt_start) = [], ends[k]
    out.append(Piece(len(out), range(src_start, max(src_end, n_src)), range(tgt_start, max(tgt_end, n_tgt)), run))
    if len(out) < pieces:
        raise SialignError(f"cannot cut the {len(beads)} gold beads into {pieces} pieces (too few places to cut)")
    return out


def beads_in(piece: Piece, beads: Sequence[BeadPositions]) -> list[BeadPositions]:
    """The beads of a whole-document alignment that are scored in ``piece``."""
    return [(tuple(s), tuple(t)) for s, t in beads if piece.holds((tuple(s), tuple(t)))]


def leave_one_out(documents: Sequence[str]) -> Iterator[tuple[str, list[int], list[int]]]:
    """For each distinct document name: (name, indices of the other items, indices of its items).

    ``documents`` names the document of each item (a speech aligned text only
    and with timestamps is two items of one document), so every variant of
    the held-out document leaves the training side together.
    """
    names = list(dict.fromkeys(documents))
    if len(names) < 2:
        raise SialignError("leave-one-document-out needs at least two documents")
    for name in names:
        test = [k for k, d in enumerate(documents) if d == name]
        train = [k for k, d in enumerate(documents) if d != name]
        yield name, train, test
