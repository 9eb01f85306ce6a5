"""A pooled (corpus) export is the talks' own exports one after the other, for every pooling format.

What may differ, and nothing else:

- ``tsv``: the header is written once, at the top, instead of once per talk.
  Every row names its talk in its first column in both files.
- ``tsv2``: nothing (no header, no talk id).
- ``jsonl``: nothing (every record names its talk in ``talk`` in both files).
- ``tmx``: the document's header names no talk (a talk's own file has an
  ``x-talk`` prop in its header), each unit carries its talk's id as an
  ``x-talk`` prop line of its own instead, and the creation date is the
  time of writing. With that prop line taken out of each unit, the units
  are those of the talks' files, in order.

The talks: one with an omission and an addition (one-sided beads), one with
dropped beads, one with post-edits and a trimmed chunk.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_writers import make_project

from sialign.core.model import Alignment, Bead, BeadStatus, Project
from sialign.io.export_formats import POOLED_FORMATS, export_format
from sialign.io.writers import TMX_TAIL, write_alignment
from sialign.workflows.outputs import export_many

AUTO, CONFIRMED, DROPPED = BeadStatus.AUTO, BeadStatus.CONFIRMED, BeadStatus.DROPPED


def _talk(talk_id: str, beads: list[Bead]) -> Project:
    """``make_project``'s transcripts (source ids 10-14, target ids 20-26) under other beads."""
    project = make_project()
    project.talk_id = talk_id
    project.alignment = Alignment(beads)
    project.validate()
    return project


def three_talks() -> list[Project]:
    omission = _talk("omission", [
        Bead((10,), (20,), cost=0.1, status=CONFIRMED),
        Bead((11,), (21, 22, 23), cost=0.3),
        Bead((12,), (), cost=None),  # said, not interpreted
        Bead((), (24,), cost=None, status=CONFIRMED),  # interpreted, not said
        Bead((13,), (25,), cost=0.2),
        Bead((14,), (26,), cost=0.05, status=CONFIRMED),
    ])
    dropped = _talk("dropped", [
        Bead((10,), (20,), cost=0.1),
        Bead((11,), (21, 22, 23), cost=0.8, status=DROPPED, reason="cost above the drop threshold"),
        Bead((12, 13), (24, 25), cost=0.9, status=DROPPED, reason="mistranslation"),
        Bead((14,), (26,), cost=0.05, status=CONFIRMED),
    ])
    post_edit = _talk("post-edit", [
        Bead((10,), (20,), cost=0.1, status=CONFIRMED, post_edit="おはよう。"),
        Bead((11,), (21, 22, 23), cost=0.3, trimmed=(21,), status=CONFIRMED),
        Bead((12, 13), (24, 25), cost=0.4, post_edit="省略された\t文。", note="rewritten"),
        Bead((14,), (26,), cost=0.05),
    ])
    return [omission, dropped, post_edit]


def _suffix(fmt: str) -> str:
    return export_format(fmt).name_tag + export_format(fmt).suffix


def _tmx_parts(text: str) -> tuple[str, list[str]]:
    """(the document before its units, creation date blanked; the units, each ``<tu>…</tu>`` with its line breaks)."""
    head, body = text.split("  <body>\n", 1)
    assert body.endswith(TMX_TAIL)
    units = [unit + "    </tu>\n" for unit in body[: -len(TMX_TAIL)].split("    </tu>\n")[:-1]]
    return re.sub(r'creationdate="[^"]*"', 'creationdate=""', head), units


_TALK_PROP = re.compile(r'      <prop type="x-talk">([^<]*)</prop>\n')


@pytest.mark.parametrize("only_confirmed", [False, True], ids=["all", "only-confirmed"])
@pytest.mark.parametrize("fmt", POOLED_FORMATS)
def test_pooled_export_equals_the_single_talk_exports_in_order(tmp_path: Path, fmt: str, only_confirmed: bool) -> None:
    talks = three_talks()
    singles = []
    for talk in talks:
        path = tmp_path / f"{talk.talk_id}{_suffix(fmt)}"
        write_alignment(talk, path, format=fmt, only_confirmed=only_confirmed)
        singles.append(path.read_text(encoding="utf-8"))
    pooled_path = tmp_path / f"corpus{_suffix(fmt)}"
    written_talks, rows = export_many(iter(talks), pooled_path, fmt, only_confirmed=only_confirmed)
    pooled = pooled_path.read_text(encoding="utf-8")
    assert written_talks == 3

    if fmt in ("tsv2", "jsonl"):
        assert pooled == "".join(singles)
        assert rows == pooled.count("\n")
    elif fmt == "tsv":
        headers = {single.split("\n", 1)[0] for single in singles}
        assert len(headers) == 1
        assert pooled == headers.pop() + "\n" + "".join(single.split("\n", 1)[1] for single in singles)
        assert rows == pooled.count("\n") - 1
        assert [line.split("\t")[0] for line in pooled.splitlines()[1:]] == [
            talk.talk_id for talk, single in zip(talks, singles, strict=True) for _ in single.splitlines()[1:]
        ]
    else:
        assert fmt == "tmx"
        pooled_head, pooled_units = _tmx_parts(pooled)
        first_head = _tmx_parts(singles[0])[0]
        assert pooled_head == first_head.replace(f'    <prop type="x-talk">{talks[0].talk_id}</prop>\n', "")
        expected_units, expected_talks = [], []
        for talk, single in zip(talks, singles, strict=True):
            units = _tmx_parts(single)[1]
            expected_units += units
            expected_talks += [talk.talk_id] * len(units)
        assert [_TALK_PROP.findall(unit) for unit in pooled_units] == [[talk] for talk in expected_talks]
        assert [_TALK_PROP.sub("", unit) for unit in pooled_units] == expected_units
        assert rows == len(pooled_units)


def test_the_talks_hold_what_the_comparison_is_about(tmp_path: Path) -> None:
    """The talks have one-sided beads, dropped beads and post-edits, and the pairs formats leave the one-sided out."""
    omission, dropped, post_edit = three_talks()
    assert any(not b.src or not b.tgt for b in omission.alignment.beads)  # type: ignore[union-attr]
    assert any(b.status is DROPPED for b in dropped.alignment.beads)  # type: ignore[union-attr]
    assert any(b.post_edit for b in post_edit.alignment.beads)  # type: ignore[union-attr]
    path = tmp_path / "omission.pairs.tsv"
    assert write_alignment(omission, path, format="tsv2") == 4
    assert all(side.strip() for line in path.read_text(encoding="utf-8").splitlines() for side in line.split("\t"))
    path = tmp_path / "post-edit.pairs.tsv"
    write_alignment(post_edit, path, format="tsv2")
    assert path.read_text(encoding="utf-8").splitlines()[0] == "Good morning.\tおはよう。"
