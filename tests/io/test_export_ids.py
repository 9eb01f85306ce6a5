"""Exported ids name exactly the chunks whose text is exported; trimmed chunks are listed apart."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

from sialign.core.model import Alignment, Bead, Document, Project, join_segments
from sialign.io.read_exports import read_parallel_tsv
from sialign.io.writers import LEGACY_PARALLEL_TSV_COLUMNS, write_alignment


def _project() -> Project:
    src = Document.from_texts(["Well, good morning.", "Rivers carry water.", "Thank you."], "en")
    tgt = Document.from_texts(["えー、", "おはようございます。", "川は水を", "運びます。", "あの、", "ありがとう。"], "ja")
    beads = [Bead((0,), (0, 1), trimmed=(0,)), Bead((1,), (2, 3, 4), trimmed=(4,)), Bead((2,), (5,))]
    return Project(talk_id="t", source=src, target=tgt, alignment=Alignment(beads))


def test_export_tsv_ids_agree_with_the_text(tmp_path: Path) -> None:
    project = _project()
    path = tmp_path / "out.tsv"
    write_alignment(project, path)
    rows = read_parallel_tsv(path)
    assert [r.tgt_ids for r in rows] == [(1,), (2, 3), (5,)]
    assert [r.trimmed_tgt_ids for r in rows] == [(0,), (4,), ()]
    for row in rows:
        assert join_segments(project.target, row.tgt_ids) == row.target
    assert path.read_text(encoding="utf-8").split("\n")[0].split("\t")[11] == "trimmed_tgt_ids"


def test_export_tsv_reads_the_eleven_column_layout(tmp_path: Path) -> None:
    path = tmp_path / "old.tsv"
    path.write_text("\t".join(LEGACY_PARALLEL_TSV_COLUMNS) + "\nt\t0\t0,1\t\t\t\t\t\tauto\ta\tb\n", encoding="utf-8")
    (row,) = read_parallel_tsv(path)
    assert row.tgt_ids == (0, 1) and row.trimmed_tgt_ids == () and row.target == "b"


def test_export_jsonl_and_tmx_ids_agree_with_the_text(tmp_path: Path) -> None:
    project = _project()
    write_alignment(project, tmp_path / "out.jsonl")
    records = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()]
    for record in records:
        assert join_segments(project.target, record["tgt_ids"]) == record["target"]
        assert "".join(record["tgt_texts"]) == record["target"]
    assert records[1]["trimmed_tgt_ids"] == [4]
    write_alignment(project, tmp_path / "out.tmx")
    units = ET.parse(tmp_path / "out.tmx").getroot().iter("tu")
    props = [{p.get("type"): p.text for p in tu.findall("prop")} for tu in units]
    assert [p["x-tgt-ids"] for p in props] == ["1", "2,3", "5"]
    assert [p.get("x-trimmed-tgt-ids") for p in props] == ["0", "4", None]
