"""Many talks in one export file (a corpus): every pooling format, one talk in memory at a time, the talk on each row."""

from __future__ import annotations

import dataclasses
import json
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_writers import make_project

from sialign.core.errors import ExportError
from sialign.core.model import Project
from sialign.io.export_formats import POOLED_FORMATS
from sialign.io.writers import write_alignment, write_pooled
from sialign.workflows.outputs import export_many


def _talks() -> list[Project]:
    first = make_project()
    second = dataclasses.replace(make_project(), talk_id="second")
    return [first, second]


def test_pooled_formats_are_the_registry_rows_whose_files_hold_many_talks() -> None:
    assert POOLED_FORMATS == ("tsv", "tsv2", "jsonl", "tmx")


def test_pooled_tmx_is_one_document_with_the_talk_on_every_unit(tmp_path: Path) -> None:
    """Was one file per talk stitched together with a regular expression, the first talk's id in the header."""
    talks = _talks()
    path = tmp_path / "all.tmx"
    assert write_pooled(talks, path, "tmx") == (2, 2 * write_alignment(talks[0], tmp_path / "one.tmx"))
    root = ET.parse(path).getroot()
    assert root.find("./header/prop") is None  # the header names no single talk
    units = root.findall("./body/tu")
    talk_of = [next(p.text for p in u.findall("prop") if p.get("type") == "x-talk") for u in units]
    assert talk_of == [talks[0].talk_id] * (len(units) // 2) + ["second"] * (len(units) // 2)
    # Each unit is the single-talk export's unit plus its talk.
    single = ET.parse(tmp_path / "one.tmx").getroot().findall("./body/tu")
    assert [u.find("./tuv/seg").text for u in single] == [u.find("./tuv/seg").text for u in units[: len(single)]]  # type: ignore[union-attr]


def test_pooled_tsv_has_one_header_and_jsonl_names_each_talk(tmp_path: Path) -> None:
    talks = _talks()
    assert export_many(talks, tmp_path / "all.tsv", "tsv")[0] == 2
    lines = (tmp_path / "all.tsv").read_text(encoding="utf-8").splitlines()
    assert sum(1 for line in lines if line.startswith("talk\t") or line.split("\t")[0] == "talk") == 1
    assert {line.split("\t")[0] for line in lines[1:]} == {talks[0].talk_id, "second"}
    export_many(talks, tmp_path / "all.jsonl", "jsonl")
    records = [json.loads(line) for line in (tmp_path / "all.jsonl").read_text(encoding="utf-8").splitlines()]
    assert {r["talk"] for r in records} == {talks[0].talk_id, "second"}


def test_pooled_export_reads_one_talk_at_a_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The corpus hands the writer a generator: each talk is written before the next one is read."""
    from sialign.io import writers

    events: list[str] = []
    rows_of = writers.alignment_rows

    def recording_rows(project: Project, **options: bool) -> list[writers.AlignmentRow]:
        events.append(f"write {project.talk_id}")
        return rows_of(project, **options)

    monkeypatch.setattr(writers, "alignment_rows", recording_rows)

    def talks() -> Iterator[Project]:
        for project in _talks():
            events.append(f"read {project.talk_id}")
            yield project

    assert write_pooled(talks(), tmp_path / "all.tsv", "tsv2")[0] == 2
    assert events == ["read demo talk", "write demo talk", "read second", "write second"]


def test_a_failing_talk_leaves_the_old_export_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "all.jsonl"
    path.write_text("old\n", encoding="utf-8")

    def talks() -> Iterator[Project]:
        yield make_project()
        raise OSError("disk gone")

    with pytest.raises(OSError):
        write_pooled(talks(), path, "jsonl")
    assert path.read_text(encoding="utf-8") == "old\n"


@pytest.mark.parametrize("fmt", ["align", "textgrid", "eaf", "srt-source"])
def test_a_format_of_one_talk_is_refused_by_name(tmp_path: Path, fmt: str) -> None:
    with pytest.raises(ExportError, match=f"a {fmt} file holds one talk"):
        write_pooled(_talks(), tmp_path / "x", fmt)
