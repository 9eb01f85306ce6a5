"""Writers: parallel TSV, JSONL, TMX, vecalign, transcripts; round trips and atomicity."""

from __future__ import annotations

import dataclasses
import json
import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sialign.core.errors import ExportError, FormatError
from sialign.core.model import Alignment, Bead, BeadStatus, Document, Flag, Project, Segment
from sialign.io import writers
from sialign.io.read_exports import read_jsonl, read_parallel_tsv
from sialign.io.readers import read_transcript
from sialign.io.writers import (
    LEGACY_PARALLEL_TSV_COLUMNS,
    PARALLEL_TSV_COLUMNS,
    AlignmentRow,
    alignment_records,
    format_vecalign_bead,
    write_alignment,
    write_jsonl,
    write_parallel_tsv,
    write_transcript,
)

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


def make_project() -> Project:
    """Five source sentences, seven target chunks, beads of every kind.

    Segment ids are not positions (ids 10.. and 20..) so that exports must
    tell them apart.
    """
    src = _numbered_from(10, Document.from_texts(
        ["Good morning.", "Tabs\tand\nnewlines \\ here.", "This one is omitted.", "Dropped sentence.", "Last one."],
        "en", times=[(0.0, 1.5), (1.7, 3.0), (3.2, 4.0), (4.1, 5.0), (5.2, 6.25)],
    ))
    tgt = _numbered_from(20, Document.from_texts(
        ["おはようございます。", "えー、", "タブと、", "改行です。", "あの、", "落ちた文。", "最後です。"],
        "ja", times=[(2.0, 3.5), (3.6, 4.0), (4.0, 5.0), (5.0, 6.0), (6.1, 6.5), (6.6, 7.5), (7.6, 8.8)],
    ))
    beads = [
        Bead((10,), (20,), cost=0.12345678, status=BeadStatus.CONFIRMED, good_align=True, good_mt=False, note="fine"),
        Bead((11,), (21, 22, 23), cost=0.3, trimmed=(21,), flags=[Flag("alpha", 0.4, 0.5, "low coverage", True), Flag("gamma", None, None, "", False)]),
        Bead((12,), (), cost=float("inf")),
        Bead((), (24,), cost=None),
        Bead((13,), (25,), cost=0.9, status=BeadStatus.DROPPED, reason="mistranslation"),
        Bead((14,), (26,), cost=0.05, status=BeadStatus.CONFIRMED, post_edit="最後の\t文です。"),
    ]
    project = Project(talk_id="demo talk", source=src, target=tgt, alignment=Alignment(beads))
    project.validate()
    return project


def _numbered_from(first: int, document: Document) -> Document:
    """``document`` with segment ids ``first``, ``first + 1``... instead of its positions."""
    return Document(language=document.language, segments=[dataclasses.replace(s, id=first + s.id) for s in document.segments])


def read_rows(path: Path) -> list[list[str]]:
    return [line.split("\t") for line in path.read_text(encoding="utf-8").split("\n")[:-1]]


def test_writers_parallel_tsv_layout(tmp_path: Path) -> None:
    path = tmp_path / "out.tsv"
    n = write_alignment(make_project(), path)
    rows = read_rows(path)
    assert n == 5 == len(rows) - 1
    assert rows[0] == list(PARALLEL_TSV_COLUMNS)
    assert all(len(r) == 17 for r in rows)
    assert rows[1] == ["demo talk", "10", "20", "0", "1.5", "2", "3.5", "0.1235", "confirmed", "Good morning.", "おはようございます。", "",
                       "おはようございます。", "", "1", "0", "fine"]
    # Text inside a segment is running text (bead_text collapses layout whitespace),
    # the trimmed filler is left out of the text and of tgt_ids (it has its own
    # column), times span the whole bead.
    assert rows[2][1:9] == ["11", "22,23", "1.7", "3", "3.6", "6", "0.3", "auto"]
    assert rows[2][9] == "Tabs and newlines \\\\ here."
    assert rows[2][10] == "タブと、改行です。"
    assert rows[2][11] == "21"
    assert rows[3][1:3] == ["12", ""] and rows[3][5:8] == ["", "", ""]  # infinite cost → empty
    assert rows[4][1:3] == ["", "24"] and rows[4][3:5] == ["", ""]
    assert rows[5][10] == "最後の\\t文です。"  # the post-edit, escaped
    # What the interpreter said beside it, trimmed fillers included; labels not judged are empty.
    assert rows[5][12:17] == ["最後です。", "", "", "", ""]
    assert rows[2][12] == "えー、タブと、改行です。"


def test_writers_parallel_tsv_review_fields_read_back(tmp_path: Path) -> None:
    from sialign.io.read_exports import read_parallel_tsv

    project = make_project()
    project.alignment.beads[0].confidence = 0.84
    project.alignment.beads[0].note = "tab\there"
    path = tmp_path / "out.tsv"
    write_alignment(project, path)
    first, *_, last = read_parallel_tsv(path)
    assert (first.confidence, first.good_align, first.good_mt, first.note) == (0.84, True, False, "tab\there")
    assert (last.target, last.target_original) == ("最後の\t文です。", "最後です。")


@pytest.mark.parametrize(
    ("options", "statuses"),
    [
        ({}, ["confirmed", "auto", "auto", "auto", "confirmed"]),
        ({"include_dropped": True}, ["confirmed", "auto", "auto", "auto", "dropped", "confirmed"]),
        ({"only_confirmed": True}, ["confirmed", "confirmed"]),
        ({"only_confirmed": True, "include_dropped": True}, ["confirmed", "dropped", "confirmed"]),
    ],
)
def test_writers_tsv_bead_selection(tmp_path: Path, options: dict, statuses: list[str]) -> None:
    path = tmp_path / "out.tsv"
    assert write_alignment(make_project(), path, **options) == len(statuses)
    assert [r.status for r in read_parallel_tsv(path)] == statuses


def test_writers_two_column_tsv(tmp_path: Path) -> None:
    path = tmp_path / "out.tsv"
    n = write_alignment(make_project(), path, two_column=True)
    lines = path.read_text(encoding="utf-8").split("\n")[:-1]
    # 1-0 and 0-1 beads are not sentence pairs; dropped beads are excluded.
    assert n == 3 == len(lines)
    assert lines[0] == "Good morning.\tおはようございます。"
    # tsv2 carries raw text for MT toolkits (issue 12): a tab inside a text
    # becomes a space, nothing is escaped.
    assert lines[2] == "Last one.\t最後の 文です。"
    rows = read_parallel_tsv(path)
    assert [(r.source, r.target) for r in rows][2] == ("Last one.", "最後の 文です。")
    assert write_alignment(make_project(), tmp_path / "b.tsv", format="tsv2") == 3


def test_writers_tsv_round_trip_of_project(tmp_path: Path) -> None:
    project = make_project()
    path = tmp_path / "out.tsv"
    write_alignment(project, path, include_dropped=True)
    assert read_parallel_tsv(path) == writers.alignment_rows(project, include_dropped=True)


field_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)
maybe_time = st.one_of(st.none(), st.floats(0, 1e5, allow_nan=False).map(lambda x: round(x, 3)))
rows_strategy = st.lists(
    st.builds(
        AlignmentRow,
        talk=field_text,
        src_ids=st.lists(st.integers(0, 10**6), max_size=4).map(tuple),
        tgt_ids=st.lists(st.integers(0, 10**6), max_size=4).map(tuple),
        src_start=maybe_time,
        src_end=maybe_time,
        tgt_start=maybe_time,
        tgt_end=maybe_time,
        cost=st.one_of(st.none(), st.floats(-5, 5, allow_nan=False).map(lambda x: round(x, 4))),
        status=st.sampled_from(["auto", "confirmed", "dropped"]),
        source=field_text,
        target=field_text,
    ),
    max_size=8,
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows_strategy)
def test_writers_tsv_round_trip_any_text(tmp_path: Path, rows: list[AlignmentRow]) -> None:
    """Tabs, line breaks, backslashes, U+2028 and friends never break a row."""
    path = tmp_path / "r.tsv"
    assert write_parallel_tsv(rows, path) == len(rows)
    assert len(path.read_text(encoding="utf-8").split("\n")) == len(rows) + 2
    assert read_parallel_tsv(path) == rows


def test_writers_jsonl_has_every_field(tmp_path: Path) -> None:
    path = tmp_path / "out.jsonl"
    n = write_alignment(make_project(), path, include_dropped=True)
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert n == len(records) == 6
    second = records[1]
    assert second["src_ids"] == [11] and second["tgt_ids"] == [22, 23] and second["trimmed_tgt_ids"] == [21]
    assert second["src_positions"] == [1] and second["tgt_positions"] == [2, 3]
    assert second["trimmed"] == [21] and second["trimmed_text"] == "えー、"
    assert second["target"] == "タブと、改行です。"
    assert second["target_original"] == "えー、タブと、改行です。"
    assert second["tgt_texts"] == ["タブと、", "改行です。"]  # the chunks of "target", as tgt_ids
    assert second["src_texts"] == ["Tabs\tand\nnewlines \\ here."]
    assert second["flags"][0] == {"name": "alpha", "score": 0.4, "threshold": 0.5, "reason": "low coverage", "failed": True}
    assert (second["src_start"], second["tgt_end"]) == (1.7, 6.0)
    assert records[0]["good_align"] is True and records[0]["good_mt"] is False and records[0]["note"] == "fine"
    assert records[2]["cost"] is None  # inf is not JSON
    assert records[4]["status"] == "dropped" and records[4]["reason"] == "mistranslation"
    assert records[5]["post_edit"] == "最後の\t文です。" and records[5]["target"] == "最後の\t文です。"
    assert set(records[0]) == set(records[3])
    assert read_jsonl(path) == alignment_records(make_project(), include_dropped=True)


json_value = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=5), children, max_size=3),
    max_leaves=10,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.dictionaries(st.text(max_size=8), json_value, max_size=5), max_size=6))
def test_writers_jsonl_round_trip_any_record(tmp_path: Path, records: list[dict]) -> None:
    path = tmp_path / "r.jsonl"
    write_jsonl(records, path)
    assert read_jsonl(path) == records


def test_writers_jsonl_bad_line_named(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"a": 1}\n{"b": \n', encoding="utf-8")
    with pytest.raises(FormatError) as info:
        read_jsonl(path)
    assert info.value.line == 2
    path.write_text('{"a": 1}\n[1, 2]\n', encoding="utf-8")
    with pytest.raises(FormatError, match="JSON object"):
        read_jsonl(path)


def test_writers_read_parallel_tsv_bad_row_named(tmp_path: Path) -> None:
    path = tmp_path / "bad.tsv"
    path.write_text("\t".join(PARALLEL_TSV_COLUMNS) + "\nt\t1\t2\t0\t1\n", encoding="utf-8")
    with pytest.raises(FormatError) as info:
        read_parallel_tsv(path)
    assert info.value.line == 2 and "17 columns" in str(info.value)
    # Files written before trimmed chunks had their own column still read (11 columns).
    path.write_text("\t".join(LEGACY_PARALLEL_TSV_COLUMNS) + "\nt\t1\t2\t0\t1\n", encoding="utf-8")
    with pytest.raises(FormatError) as info:
        read_parallel_tsv(path)
    assert "11 columns" in str(info.value)
    path.write_text("\t".join(PARALLEL_TSV_COLUMNS) + "\nt\t1;2\t2\t0\t1\t\t\t\tauto\ta\tb\t\t\t\t\t\t\n", encoding="utf-8")
    with pytest.raises(FormatError, match="'1;2'"):
        read_parallel_tsv(path)
    path.write_text("\t".join(PARALLEL_TSV_COLUMNS) + "\nt\t1\t2\tsoon\t1\t\t\t\tauto\ta\tb\t\t\t\t\t\t\n", encoding="utf-8")
    with pytest.raises(FormatError, match="src_start"):
        read_parallel_tsv(path)
    path.write_text("\t".join(PARALLEL_TSV_COLUMNS) + "\nt\t1\t2\t\t\t\t\t\tauto\ta\tb\t\tb\t\tyes\t\t\n", encoding="utf-8")
    with pytest.raises(FormatError, match="good_align must be 1, 0 or empty"):
        read_parallel_tsv(path)


def test_writers_tmx_is_valid_tmx14(tmp_path: Path) -> None:
    path = tmp_path / "out.tmx"
    n = write_alignment(make_project(), path)
    root = ET.parse(path).getroot()
    assert root.tag == "tmx" and root.get("version") == "1.4"
    header = root.find("header")
    assert header is not None
    for attr in ("creationtool", "creationtoolversion", "segtype", "o-tmf", "adminlang", "srclang", "datatype"):
        assert header.get(attr), attr
    assert header.get("srclang") == "en"
    tus = root.findall("body/tu")
    assert n == len(tus) == 3  # skips have only one side
    first = tus[0]
    assert [t.get(XML_LANG) for t in first.findall("tuv")] == ["en", "ja"]
    assert [t.findtext("seg") for t in first.findall("tuv")] == ["Good morning.", "おはようございます。"]
    props = {p.get("type"): p.text for p in first.findall("prop")}
    assert props == {"x-status": "confirmed", "x-cost": "0.1235", "x-src-ids": "10", "x-tgt-ids": "20"}
    assert first.findtext("note") == "fine"
    # TMX 1.4 order inside <tu>: note, prop, then tuv.
    assert [c.tag for c in first] == ["note", "prop", "prop", "prop", "prop", "tuv", "tuv"]
    assert tus[1].findall("tuv")[0].findtext("seg") == "Tabs and newlines \\ here."
    assert tus[2].findall("tuv")[1].findtext("seg") == "最後の\t文です。"


def test_writers_tmx_strips_characters_xml_cannot_hold(tmp_path: Path) -> None:
    project = make_project()
    project.source.segments[0].text = "Bell\x07 & <tag> \"q\""
    path = tmp_path / "out.tmx"
    write_alignment(project, path)
    seg = ET.parse(path).getroot().find("body/tu/tuv/seg")
    assert seg is not None and seg.text == "Bell & <tag> \"q\""


def test_writers_vecalign_positions_and_costs(tmp_path: Path) -> None:
    path = tmp_path / "out.align"
    n = write_alignment(make_project(), path)
    assert path.read_text().splitlines() == [
        "[0]:[0]:0.123457",
        "[1]:[1, 2, 3]:0.300000",
        "[2]:[]",
        "[]:[4]",
        "[3]:[5]:0.900000",
        "[4]:[6]:0.050000",
    ]
    assert n == 6
    assert write_alignment(make_project(), path, only_confirmed=True) == 2


def test_writers_vecalign_skips_carry_the_aligners_skip_cost(tmp_path: Path) -> None:
    project = make_project()
    assert project.alignment is not None
    project.alignment.info["cost_settings"] = {"skip": 2.0, "omission_skip": 1.0}
    path = tmp_path / "out.align"
    write_alignment(project, path)
    lines = path.read_text().splitlines()
    assert lines[2] == "[2]:[]:1.000000" and lines[3] == "[]:[4]:2.000000"  # 1-0: omission cost; 0-1: skip cost
    project.alignment.info["cost_settings"] = {"skip": 0.7, "omission_skip": None}
    write_alignment(project, path)
    assert path.read_text().splitlines()[2] == "[2]:[]:0.700000"


def test_writers_vecalign_readable_by_evaluation_format() -> None:
    # Same shape as the Text+Berg gold files ("[6]:[6, 7, 8]").
    assert format_vecalign_bead([6], [6, 7, 8]) == "[6]:[6, 7, 8]"
    assert format_vecalign_bead([], [3], 0.5) == "[]:[3]:0.500000"
    assert format_vecalign_bead([1], [2], math.nan) == "[1]:[2]"


@pytest.mark.parametrize(
    ("name", "fmt", "expected"),
    [("a.tsv", None, "tsv"), ("a.TSV", None, "tsv"), ("a.jsonl", None, "jsonl"), ("a.tmx", None, "tmx"), ("a.align", None, "align"), ("a.txt", "tsv2", "tsv2"), ("a.out", "JSONL", "jsonl")],
)
def test_writers_alignment_format_for(name: str, fmt: str | None, expected: str) -> None:
    assert writers.alignment_format_for(name, fmt) == expected


@pytest.mark.parametrize(("name", "fmt", "words"), [("a.csv", None, ".tsv, .jsonl"), ("a.tsv", "xlsx", "unknown export format")])
def test_writers_alignment_format_refused(name: str, fmt: str | None, words: str) -> None:
    with pytest.raises(ExportError, match=words):
        writers.alignment_format_for(name, fmt)


def test_writers_no_alignment_is_an_error(tmp_path: Path) -> None:
    project = make_project()
    project.alignment = None
    with pytest.raises(ExportError, match="no alignment"):
        write_alignment(project, tmp_path / "x.tsv")
    assert not (tmp_path / "x.tsv").exists()


def test_writers_write_is_atomic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A failure mid-export leaves the previous file untouched and no temp file behind."""
    path = tmp_path / "out.tsv"
    path.write_text("previous good export\n", encoding="utf-8")
    calls = {"n": 0}
    real = writers.format_tsv_row

    def failing(row: AlignmentRow) -> str:
        calls["n"] += 1
        if calls["n"] == 3:
            raise RuntimeError("disk full")
        return real(row)

    monkeypatch.setattr(writers, "format_tsv_row", failing)
    with pytest.raises(RuntimeError, match="disk full"):
        write_alignment(make_project(), path)
    assert path.read_text(encoding="utf-8") == "previous good export\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.tsv"]


# ---------------------------------------------------------------------------
# Transcripts


def timed_doc() -> Document:
    return Document(
        language="ja",
        segments=[
            Segment(0, "えー、今日は", 0.5, 1.25, 1),
            Segment(1, 'パンの "話"\nです。', 1.5, 3.0, 2, "\n"),
            Segment(2, "a --> b & <c>", 3.0, 4.0, 3, "\n"),
        ],
    )


@pytest.mark.parametrize("fmt", ["txt", "tsv", "srt", "vtt", "textgrid", "eaf"])
def test_writers_transcript_round_trip(tmp_path: Path, fmt: str) -> None:
    doc = timed_doc()
    ext = {"textgrid": "TextGrid"}.get(fmt, fmt)
    path = tmp_path / f"out.{ext}"
    assert write_transcript(doc, path) == 3
    back = read_transcript(path)
    assert back.format == fmt
    assert back.language == "ja"
    one_line = fmt in ("txt", "tsv")
    expected_texts = [" ".join(s.text.split()) if one_line else s.text for s in doc]
    # WebVTT escapes &, < and > on writing and undoes it on reading (issue 12).
    assert back.texts() == expected_texts
    if fmt != "txt":
        assert [(s.start, s.end) for s in back] == [(s.start, s.end) for s in doc]


def test_writers_textgrid_fills_gaps_with_empty_intervals(tmp_path: Path) -> None:
    path = tmp_path / "out.TextGrid"
    write_transcript(timed_doc(), path, tier_name="interp")
    text = path.read_text(encoding="utf-8")
    assert "intervals: size = 5" in text  # 0-0.5 empty, seg, 1.25-1.5 empty, seg, seg
    assert 'name = "interp"' in text
    assert read_transcript(path, tier="interp").texts()[0] == "えー、今日は"


def test_writers_eaf_is_well_formed(tmp_path: Path) -> None:
    path = tmp_path / "out.eaf"
    doc = timed_doc()
    doc.audio_path = str(tmp_path / "talk.ogg")
    write_transcript(doc, path)
    root = ET.parse(path).getroot()
    assert root.tag == "ANNOTATION_DOCUMENT"
    assert [ts.get("TIME_VALUE") for ts in root.iter("TIME_SLOT")][:2] == ["500", "1250"]
    assert root.find("HEADER/MEDIA_DESCRIPTOR").get("RELATIVE_MEDIA_URL") == "./talk.ogg"  # type: ignore[union-attr]


@pytest.mark.parametrize("fmt", ["srt", "vtt", "textgrid", "eaf"])
def test_writers_timed_format_needs_times(tmp_path: Path, fmt: str) -> None:
    doc = Document.from_texts(["one", "two"], "en")
    doc.path = "plain.txt"
    with pytest.raises(ExportError, match="has no times"):
        write_transcript(doc, tmp_path / "x", format=fmt)


@pytest.mark.parametrize("fmt", ["textgrid", "eaf"])
def test_writers_tiers_refuse_overlaps(tmp_path: Path, fmt: str) -> None:
    doc = Document.from_texts(["one", "two"], "en", times=[(0, 2), (1, 3)])
    with pytest.raises(ExportError, match="overlaps"):
        write_transcript(doc, tmp_path / "x", format=fmt)


def test_writers_untimed_tsv_has_empty_time_columns(tmp_path: Path) -> None:
    path = tmp_path / "x.tsv"
    write_transcript(Document.from_texts(["one\ttab", "two"], "en"), path)
    assert path.read_text(encoding="utf-8") == "start\tend\ttext\n\t\tone tab\n\t\ttwo\n"
    assert read_transcript(path).texts() == ["one tab", "two"]


def test_writers_transcript_format_from_extension_required(tmp_path: Path) -> None:
    with pytest.raises(ExportError, match="a transcript is written as .txt, .tsv, .srt, .vtt, .TextGrid or .eaf"):
        write_transcript(timed_doc(), tmp_path / "x.docx")


@pytest.mark.parametrize("fmt", ["textgrid", "eaf"])
def test_writers_aligned_tiers(tmp_path: Path, fmt: str) -> None:
    project = make_project()
    project.source.audio_path = str(tmp_path / "talk.en.ogg")
    path = tmp_path / f"out.{'TextGrid' if fmt == 'textgrid' else 'eaf'}"
    assert write_alignment(project, path) == 5
    source = read_transcript(path, tier="source")
    target = read_transcript(path, tier="target")
    beads = read_transcript(path, tier="bead")
    assert source.texts() == ["Good morning.", "Tabs and newlines \\ here.", "This one is omitted.", "Last one."]
    assert [(s.start, s.end) for s in source][:2] == [(0.0, 1.5), (1.7, 3.0)]
    assert target.texts() == ["おはようございます。", "タブと、改行です。", "あの、", "最後の\t文です。"]
    assert [(s.start, s.end) for s in target][1] == (3.6, 6.0)
    assert beads.texts()[0] == "1 1-1 confirmed cost 0.1235"
    assert beads.texts()[2] == "3 1-0 auto"


def test_writers_aligned_tiers_need_times(tmp_path: Path) -> None:
    project = make_project()
    project.target.segments[3].end = None
    with pytest.raises(ExportError, match="bead 2 has no target times"):
        write_alignment(project, tmp_path / "x.TextGrid")


segment_text = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp"), blacklist_characters="\x85\ufffe\uffff"), min_size=1, max_size=25).map(
    lambda t: " ".join(t.split())
).filter(lambda t: t and "-->" not in t)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(st.tuples(segment_text, st.integers(0, 3000), st.integers(1, 4000)), min_size=1, max_size=8),
    st.sampled_from(["tsv", "srt", "vtt", "textgrid", "eaf"]),
)
def test_writers_transcript_round_trip_random(tmp_path: Path, items: list[tuple[str, int, int]], fmt: str) -> None:
    t = 0
    times = []
    for _, pause, duration in items:
        times.append(((t + pause) / 1000, (t + pause + duration) / 1000))
        t += pause + duration
    doc = Document.from_texts([x for x, _, _ in items], "en", times=times)
    path = tmp_path / f"r.{fmt}"
    write_transcript(doc, path)
    back = read_transcript(path, format=fmt)
    assert back.texts() == doc.texts()
    assert [(s.start, s.end) for s in back] == [pytest.approx(x) for x in times]
