"""The align summary says what it leaves out."""

from __future__ import annotations

from sialign.core.model import Alignment, Bead, Document, Project
from sialign.workflows.outputs import SHAPES_SHOWN, summary_lines


def _beads_line(src_sizes: list[int], tgt_sizes: list[int]) -> str:
    src = Document.from_texts([f"s{i}" for i in range(sum(src_sizes))], "en")
    tgt = Document.from_texts([f"t{i}" for i in range(sum(tgt_sizes))], "en")
    beads, i, j = [], 0, 0
    for m, n in zip(src_sizes, tgt_sizes):
        beads.append(Bead(tuple(range(i, i + m)), tuple(range(j, j + n))))
        i, j = i + m, j + n
    project = Project(source=src, target=tgt, alignment=Alignment(beads))
    lines = summary_lines(project, {"embedding": 0.0, "aligning": 0.0, "total": 0.0}, rows=0)
    return next(line for line in lines if line.startswith("beads:"))


def test_summary_names_every_shape_when_few() -> None:
    line = _beads_line([1, 1, 2], [1, 1, 1])
    assert line.endswith("shapes 1-1: 2, 2-1: 1")


def test_summary_says_how_many_beads_of_rarer_shapes_it_left_out() -> None:
    # Eight shapes, 1-1 the most frequent; the summary names six and counts the rest.
    shapes = [(1, 1)] * 5 + [(1, 2), (2, 1), (1, 0), (0, 1), (2, 2), (3, 1), (1, 3)]
    line = _beads_line([m for m, _ in shapes], [n for _, n in shapes])
    assert SHAPES_SHOWN == 6
    assert line.count(": ") == 6 + 1  # "beads: …" and six shapes
    assert line.endswith("and 2 beads of 2 rarer shapes")
