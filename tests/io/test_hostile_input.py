"""Reproducers of issue 12: exports that real clients read, readers under hostile input."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from sialign.core.errors import EncodingError, FormatError, InputError, TierNotFoundError, TimestampError
from sialign.core.model import Document, Segment
from sialign.io.readers import read_transcript
from sialign.io.timecodes import format_srt_time, format_vtt_time, parse_clock, parse_time
from sialign.io.writers import write_transcript

DATA = Path(__file__).parent / "data"

TEXTGRID_HEAD = 'File type = "ooTextFile"\nObject class = "TextGrid"\n\nxmin = 0\nxmax = 2\ntiers? <exists>\n'


def textgrid(tiers: str, size: str = "1") -> str:
    return TEXTGRID_HEAD + f"size = {size}\nitem []:\n" + tiers


def interval_tier(name: str = "t", xmin: str = "0", xmax: str = "1", cls: str = "IntervalTier") -> str:
    return (
        f'    item [1]:\n        class = "{cls}"\n        name = "{name}"\n        xmin = 0\n        xmax = 2\n'
        f'        intervals: size = 1\n        intervals [1]:\n            xmin = {xmin}\n            xmax = {xmax}\n'
        '            text = "hello"\n'
    )


def eaf(time_value: str = "1000", refs: str = "") -> str:
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<ANNOTATION_DOCUMENT FORMAT="3.0" VERSION="3.0">\n'
        '<HEADER TIME_UNITS="milliseconds"/>\n<TIME_ORDER>\n'
        '<TIME_SLOT TIME_SLOT_ID="ts1" TIME_VALUE="0"/>\n'
        f'<TIME_SLOT TIME_SLOT_ID="ts2" TIME_VALUE="{time_value}"/>\n</TIME_ORDER>\n'
        '<TIER TIER_ID="main" LINGUISTIC_TYPE_REF="lt"><ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="a1" '
        'TIME_SLOT_REF1="ts1" TIME_SLOT_REF2="ts2"><ANNOTATION_VALUE>hi</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION>'
        f"</ANNOTATION></TIER>\n{refs}</ANNOTATION_DOCUMENT>\n"
    )


# ---------------------------------------------------------------------------
# Foreign exceptions from hostile input become InputErrors


HOSTILE = [
    ("huge-hour.srt", "1\n" + "9" * 400 + ":00:00,000 --> 00:00:01,000\nx\n", TimestampError, 2),
    ("huge-hour.vtt", "WEBVTT\n\n" + "9" * 320 + ":00:00.000 --> 00:00:01.000\nx\n", TimestampError, 3),
    ("huge-count.TextGrid", textgrid("", size="1e999"), FormatError, 7),
    ("huge-count2.TextGrid", textgrid("", size="1e300"), FormatError, 7),
    ("inf-time.TextGrid", textgrid(interval_tier(xmax="1e999")), TimestampError, 17),
    ("huge-reversed.TextGrid", textgrid(interval_tier(xmin="1e300", xmax="1")), TimestampError, None),
    ("huge-slot.eaf", eaf("1" + "0" * 400), TimestampError, 6),
    ("huge-slot2.eaf", eaf("1" + "0" * 5000), TimestampError, 6),
    ("reversed.tsv", "start\tend\ttext\n99999999\t1\tx\n", TimestampError, 2),
    ("huge.tsv", "start\tend\ttext\n" + "9" * 400 + "\t1\tx\n", TimestampError, 2),
    ("class.TextGrid", textgrid(interval_tier(cls="FancyTier")), FormatError, 10),
]


@pytest.mark.parametrize("name, content, error, line", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_input_gives_an_input_error_with_line(tmp_path: Path, name: str, content: str, error: type, line: int | None) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(error) as info:
        read_transcript(path)
    if line is not None:
        assert info.value.line == line
    assert "\n" not in str(info.value)


def test_hostile_point_tier_error_names_its_line(tmp_path: Path) -> None:
    tier = (
        '    item [1]:\n        class = "TextTier"\n        name = "p"\n        xmin = 0\n        xmax = 2\n'
        '        points: size = 1\n        points [1]:\n            number = 1\n            mark = "m"\n'
    )
    path = tmp_path / "p.TextGrid"
    path.write_text(textgrid(tier), encoding="utf-8")
    with pytest.raises(FormatError, match="point tier") as info:
        read_transcript(path, tier="p")
    assert info.value.line == 10


@pytest.mark.parametrize("tier", ["²", "١", "٣"])
def test_hostile_tier_with_unicode_digits(tmp_path: Path, tier: str) -> None:
    tg = tmp_path / "a.TextGrid"
    tg.write_text(textgrid(interval_tier()), encoding="utf-8")
    tsv = tmp_path / "a.tsv"
    tsv.write_text("start\tend\ttext\n0\t1\tx\n", encoding="utf-8")
    for path in (tg, tsv):
        with pytest.raises(TierNotFoundError):
            read_transcript(path, tier=tier)


@pytest.mark.parametrize("encoding", ["rot13", "hex", "base64", "zlib", "bz2", "uu", "quopri", "punycode", "idna", "undefined", "no-such"])
def test_hostile_encoding_names(tmp_path: Path, encoding: str) -> None:
    path = tmp_path / "a.txt"
    path.write_bytes(b"hello\xff world\n")
    with pytest.raises(EncodingError):
        read_transcript(path, encoding=encoding)


def test_hostile_timecodes_never_overflow() -> None:
    with pytest.raises(ValueError):
        parse_clock("9" * 400 + ":00:00,000")
    with pytest.raises(ValueError):
        parse_time("1" + "0" * 400)
    for value in (float("inf"), float("-inf"), float("nan"), 1e300, -1e300):
        assert format_vtt_time(value)
        assert format_srt_time(value)


def test_hostile_eaf_reference_chain_is_linear(tmp_path: Path) -> None:
    n = 20_000
    refs = ['<TIER TIER_ID="r" LINGUISTIC_TYPE_REF="lt" PARENT_REF="main">']
    # Written last-to-first so each reference appears before the one it needs.
    for k in range(n, 0, -1):
        target = "a1" if k == 1 else f"r{k - 1}"
        refs.append(f'<ANNOTATION><REF_ANNOTATION ANNOTATION_ID="r{k}" ANNOTATION_REF="{target}"><ANNOTATION_VALUE>w{k}</ANNOTATION_VALUE></REF_ANNOTATION></ANNOTATION>')
    refs.append("</TIER>\n")
    path = tmp_path / "chain.eaf"
    path.write_text(eaf(refs="\n".join(refs)), encoding="utf-8")
    started = time.perf_counter()
    doc = read_transcript(path, tier="r", strict=False)
    assert time.perf_counter() - started < 5
    assert len(doc) == n
    assert all((s.start, s.end) == (0.0, 1.0) for s in doc)


def test_hostile_eaf_reference_cycle_has_no_times(tmp_path: Path) -> None:
    refs = (
        '<TIER TIER_ID="r" LINGUISTIC_TYPE_REF="lt">'
        '<ANNOTATION><REF_ANNOTATION ANNOTATION_ID="x" ANNOTATION_REF="y"><ANNOTATION_VALUE>x</ANNOTATION_VALUE></REF_ANNOTATION></ANNOTATION>'
        '<ANNOTATION><REF_ANNOTATION ANNOTATION_ID="y" ANNOTATION_REF="x"><ANNOTATION_VALUE>y</ANNOTATION_VALUE></REF_ANNOTATION></ANNOTATION>'
        "</TIER>\n"
    )
    path = tmp_path / "cycle.eaf"
    path.write_text(eaf(refs=refs), encoding="utf-8")
    doc = read_transcript(path, tier="r")
    assert [(s.start, s.end) for s in doc] == [(None, None), (None, None)]


def test_hostile_textgrid_long_string_is_read(tmp_path: Path) -> None:
    long_text = "ab" * 1_000_000 + '""' + "c" * 1000
    tier = interval_tier().replace('text = "hello"', f'text = "{long_text}"')
    path = tmp_path / "long.TextGrid"
    path.write_text(textgrid(tier), encoding="utf-8")
    assert read_transcript(path).texts() == [long_text.replace('""', '"')]


# ---------------------------------------------------------------------------
# WebVTT and SubRip markup


def timed(texts: list[str]) -> Document:
    return Document.from_texts(texts, "en", times=[(i, i + 0.5) for i in range(len(texts))])


def test_hostile_vtt_escapes_and_reads_back(tmp_path: Path) -> None:
    path = tmp_path / "a.vtt"
    texts = ["Tom & Jerry <script>", "a --> b", "&amp; stays &amp;"]
    write_transcript(timed(texts), path)
    content = path.read_text(encoding="utf-8")
    assert "Tom &amp; Jerry &lt;script&gt;" in content
    assert "a --&gt; b" in content
    assert read_transcript(path).texts() == texts


def test_hostile_srt_vtt_srt_keeps_arrows(tmp_path: Path) -> None:
    srt = tmp_path / "a.srt"
    srt.write_text("1\n00:00:01,000 --> 00:00:02,000\na --> b & c\n", encoding="utf-8")
    vtt = tmp_path / "b.vtt"
    write_transcript(read_transcript(srt), vtt)
    back = tmp_path / "c.srt"
    write_transcript(read_transcript(vtt), back)
    assert read_transcript(back).texts() == ["a --> b & c"]


VTT_MARKUP = (
    "WEBVTT\n\n"
    "00:00:01.000 --> 00:00:02.000\n<v Roger Bingham>We are in <i>New York</i> &amp; Boston\n\n"
    "00:00:03.000 --> 00:00:04.000\n<v.loud Mary>Yes</v>\n\n"
    "00:00:05.000 --> 00:00:09.000\nword<00:00:08.500><c> timestamps</c><00:00:08.900><c> here</c>\n\n"
    "00:00:10.000 --> 00:00:11.000\n<c.yellow.bg_blue>1 &lt; 2</c> &#x263A; &nbsp;\n"
)


def test_hostile_vtt_markup_is_stripped_and_speaker_kept(tmp_path: Path) -> None:
    path = tmp_path / "m.vtt"
    path.write_text(VTT_MARKUP, encoding="utf-8")
    doc = read_transcript(path)
    assert doc.texts() == ["We are in New York & Boston", "Yes", "word timestamps here", "1 < 2 \u263a"]
    assert [s.speaker for s in doc] == ["Roger Bingham", "Mary", "", ""]
    assert doc.segments[0].to_dict()["speaker"] == "Roger Bingham"
    kept = read_transcript(path, keep_markup=True)
    assert kept.texts()[0] == "<v Roger Bingham>We are in <i>New York</i> &amp; Boston"
    out = tmp_path / "out.vtt"
    write_transcript(doc, out)
    again = read_transcript(out)
    assert again.texts() == doc.texts() and again.segments[0].speaker == "Roger Bingham"


def test_hostile_srt_markup_is_stripped(tmp_path: Path) -> None:
    path = tmp_path / "m.srt"
    path.write_text(
        "1\n00:00:01,000 --> 00:00:02,000\n{\\an8}<i>Top</i> line\n<font color=\"#ff0000\">red</font> & <b>bold</b>\n\n"
        "2\n00:00:03,000 --> 00:00:04,000\n1 < 2 and a <tag> that is text\n",
        encoding="utf-8",
    )
    assert read_transcript(path).texts() == ["Top line\nred & bold", "1 < 2 and a <tag> that is text"]
    assert read_transcript(path, keep_markup=True).texts()[0].startswith("{\\an8}<i>Top</i>")


# ---------------------------------------------------------------------------
# TSV written by pandas / Excel


def test_hostile_tsv_quoted_like_pandas(tmp_path: Path) -> None:
    path = tmp_path / "pandas.tsv"
    path.write_text(
        'start\tend\ttext\n0\t1\t"He said ""hi"""\n1\t2\t"two\nlines"\n2\t3\t"a\ttab"\n3\t4\t"unbalanced quote stays\n4\t5\tNA\n',
        encoding="utf-8",
    )
    doc = read_transcript(path)
    assert doc.texts() == ['He said "hi"', "two\nlines", "a\ttab", '"unbalanced quote stays', "NA"]
    assert [s.line for s in doc] == [2, 3, 5, 6, 7]
    assert [s.start for s in doc] == [0, 1, 2, 3, 4]


def test_hostile_own_parallel_tsv_is_never_unquoted(tmp_path: Path) -> None:
    from sialign.io.read_tsv import PARALLEL_TSV_HEADER

    path = tmp_path / "p.tsv"
    row = ["t", "0", "0", "0", "1", "0", "1", "0.1", "auto", '"quoted" start', '"x"']
    path.write_text("\t".join(PARALLEL_TSV_HEADER) + "\n" + "\t".join(row) + "\n", encoding="utf-8")
    assert read_transcript(path, tier="source").texts() == ['"quoted" start']
    assert read_transcript(path, tier="target").texts() == ['"x"']


# ---------------------------------------------------------------------------
# JSONL and non-finite times


def test_hostile_jsonl_escapes_line_separators(tmp_path: Path) -> None:
    from sialign.io.read_exports import read_jsonl
    from sialign.io.writers import write_jsonl

    path = tmp_path / "a.jsonl"
    write_jsonl([{"t": "a\u2028b\u2029c"}], path)
    raw = path.read_text(encoding="utf-8")
    assert "\u2028" not in raw and "\u2029" not in raw and "\\u2028" in raw
    assert len(raw.splitlines()) == 1
    assert read_jsonl(path) == [{"t": "a\u2028b\u2029c"}]


def test_hostile_textgrid_infinite_time_never_reaches_a_project(tmp_path: Path) -> None:
    path = tmp_path / "inf.TextGrid"
    path.write_text(textgrid(interval_tier(xmax="1e999")), encoding="utf-8")
    with pytest.raises(InputError, match="not a usable time"):
        read_transcript(path)


def test_hostile_project_never_writes_infinity(tmp_path: Path) -> None:
    from sialign.core.model import Project
    from sialign.io.project_file import save_project

    doc = Document(language="en", segments=[Segment(0, "x", 0.0, float("inf"), 1)])
    project = Project(talk_id="t", source=doc, target=Document(language="ja", segments=[Segment(0, "y")]))
    project.metadata["score"] = float("nan")
    save_project(project, tmp_path / "p.sialign")

    def refuse(name: str) -> None:
        raise AssertionError(f"non-standard JSON constant {name}")

    data = json.loads((tmp_path / "p.sialign").read_text(encoding="utf-8"), parse_constant=refuse)
    assert "end" not in data["project"]["source"]["segments"][0] or data["project"]["source"]["segments"][0]["end"] is None
    assert data["project"]["metadata"]["score"] is None


# ---------------------------------------------------------------------------
# EAF against the EAF 3.0 schema


@pytest.mark.parametrize("layout", ["same", "sub", "parent"])
def test_hostile_eaf_validates_against_xsd(tmp_path: Path, layout: str) -> None:
    etree = pytest.importorskip("lxml.etree")
    schema = etree.XMLSchema(etree.parse(str(DATA / "EAFv3.0.xsd")))
    audio = tmp_path / "media" / "talk en.wav"
    out = {"same": tmp_path / "media" / "a.eaf", "sub": tmp_path / "media" / "eaf" / "a.eaf", "parent": tmp_path / "a.eaf"}[layout]
    doc = timed(["one & two", "<three>"])
    doc.audio_path = str(audio)
    write_transcript(doc, out)
    tree = etree.parse(str(out))
    assert schema.validate(tree), schema.error_log
    media = tree.find("HEADER/MEDIA_DESCRIPTOR")
    assert media.get("MIME_TYPE") == "audio/x-wav"
    assert media.get("RELATIVE_MEDIA_URL") == {"same": "./talk%20en.wav", "sub": "../talk%20en.wav", "parent": "./media/talk%20en.wav"}[layout]


def test_hostile_aligned_eaf_validates_against_xsd(tmp_path: Path) -> None:
    etree = pytest.importorskip("lxml.etree")
    from tests.io.test_writers import make_project

    from sialign.io.writers import write_alignment

    schema = etree.XMLSchema(etree.parse(str(DATA / "EAFv3.0.xsd")))
    project = make_project()
    project.source.audio_path = str(tmp_path / "talk.en.mp3")
    project.target.audio_path = str(tmp_path / "talk.ja.mp4")
    path = tmp_path / "out" / "x.eaf"
    write_alignment(project, path)
    tree = etree.parse(str(path))
    assert schema.validate(tree), schema.error_log
    assert [m.get("MIME_TYPE") for m in tree.iter("MEDIA_DESCRIPTOR")] == ["audio/mpeg", "video/mp4"]
    assert json.dumps([m.get("RELATIVE_MEDIA_URL") for m in tree.iter("MEDIA_DESCRIPTOR")]) == '["../talk.en.mp3", "../talk.ja.mp4"]'


# ---------------------------------------------------------------------------
# Bounds that keep memory within 10x the file size (tests/benchmarks/bench_io.py)


@pytest.mark.parametrize(
    "name, content",
    [
        ("cr.txt", "a\r" * 50),
        ("rows.tsv", "x\n" * 50),
        ("tiny.srt", "".join(f"00:00:0{k % 10},000 --> 00:00:0{k % 10},000\nx\n\n" for k in range(20))),
    ],
)
def test_hostile_many_lines_are_refused_early(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, content: str) -> None:
    from sialign.core.errors import FileTooLargeError
    from sialign.io import readers

    monkeypatch.setattr(readers, "MAX_LINES", 40)
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(FileTooLargeError, match="more than 40 lines"):
        read_transcript(path, strict=False)


@pytest.mark.parametrize("fmt", ["txt", "textgrid", "eaf"])
def test_hostile_many_segments_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str) -> None:
    from sialign.core.errors import FileTooLargeError
    from sialign.io import read_tiers, readers

    monkeypatch.setattr(readers, "MAX_SEGMENTS", 3)
    monkeypatch.setattr(read_tiers, "MAX_SEGMENTS", 3)  # TextGrid and EAF readers live in io/read_tiers.py
    monkeypatch.setattr(read_tiers, "_MAX_TOKENS", 3 * 3 + 10)
    if fmt == "txt":
        content, name = "a\nb\nc\nd\ne\n", "a.txt"
    elif fmt == "textgrid":
        body = "".join(f"        intervals [{k}]:\n            xmin = {k}\n            xmax = {k + 1}\n            text = \"w{k}\"\n" for k in range(1, 9))
        content = textgrid(interval_tier().split("        intervals: size")[0] + "        intervals: size = 8\n" + body)
        name = "a.TextGrid"
    else:
        refs = "".join(
            f'<ANNOTATION><REF_ANNOTATION ANNOTATION_ID="r{k}" ANNOTATION_REF="a1"><ANNOTATION_VALUE>w</ANNOTATION_VALUE></REF_ANNOTATION></ANNOTATION>'
            for k in range(5)
        )
        content, name = eaf(refs=f'<TIER TIER_ID="r" LINGUISTIC_TYPE_REF="lt">{refs}</TIER>\n'), "a.eaf"
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(FileTooLargeError, match="more than 3"):
        read_transcript(path, strict=False)


# ---------------------------------------------------------------------------
# The parallel TSV read by pandas with the options docs/formats.md gives


def test_hostile_tsv_reads_exactly_in_pandas_with_documented_options(tmp_path: Path) -> None:
    pd = pytest.importorskip("pandas")
    import csv
    import re

    from sialign.io.writers import AlignmentRow, write_parallel_tsv

    texts = ["NA", '"quoted" start', "null", "tab\there", "back\\slash", "", "line\nbreak", "1e5", "#N/A"]
    rows = [AlignmentRow(talk="t", src_ids=(k,), tgt_ids=(k,), status="auto", source=t, target=t[::-1]) for k, t in enumerate(texts)]
    path = tmp_path / "p.tsv"
    write_parallel_tsv(rows, path)
    # The recipe of docs/formats.md, run as the page shows it (with this file for "talk.tsv").
    page = (Path(__file__).resolve().parents[2] / "docs" / "formats.md").read_text(encoding="utf-8")
    recipe = re.search(r"```python\n(.*?)```", page, flags=re.S)
    assert recipe is not None and '"talk.tsv"' in recipe[1]
    namespace: dict[str, object] = {}
    exec(compile(recipe[1].replace('"talk.tsv"', repr(str(path))), "docs/formats.md", "exec"), namespace)
    df = namespace["df"]
    assert list(df["source"]) == texts
    assert list(df["target"]) == [t[::-1] for t in texts]
    assert list(df["src_ids"]) == [str(k) for k in range(len(texts))]

    two = tmp_path / "p2.tsv"
    write_parallel_tsv(rows, two, two_column=True)
    assert 'the same read_csv options with header=None, names=["source", "target"]; no unescaping' in page
    df2 = pd.read_csv(two, sep="\t", quoting=csv.QUOTE_NONE, dtype=str, keep_default_na=False, na_filter=False, header=None, names=["source", "target"])
    nonempty = [t for t in texts if t.strip()]
    assert list(df2["source"]) == [t.replace("\t", " ").replace("\n", " ") for t in nonempty]


def test_hostile_tsv_written_by_pandas_reads_back(tmp_path: Path) -> None:
    pd = pytest.importorskip("pandas")

    frame = pd.DataFrame({"start": [0.0, 1.0, 2.0], "end": [0.5, 1.5, 2.5], "text": ['He said "hi"', "two\nlines", "a\ttab"]})
    path = tmp_path / "pandas.tsv"
    frame.to_csv(path, sep="\t", index=False)
    assert read_transcript(path).texts() == ['He said "hi"', "two\nlines", "a\ttab"]


@pytest.mark.parametrize(
    "content, message",
    [
        ("talk\tsrc_ids\ttgt_ids\tsrc_start\tsrc_end\ttgt_start\ttgt_end\tcost\tstatus\tsource\ttarget\nt\t0\t0\t1e999\t1\t0\t1\t0\tauto\ta\tb\n", "finite"),
        ("talk\tsrc_ids\ttgt_ids\tsrc_start\tsrc_end\ttgt_start\ttgt_end\tcost\tstatus\tsource\ttarget\nt\t²\t0\t0\t1\t0\t1\t0\tauto\ta\tb\n", "segment ids"),
        ("talk\tsrc_ids\ttgt_ids\tsrc_start\tsrc_end\ttgt_start\ttgt_end\tcost\tstatus\tsource\ttarget\nt\t" + "9" * 5000 + "\t0\t0\t1\t0\t1\t0\tauto\ta\tb\n", "segment ids"),
    ],
)
def test_hostile_parallel_tsv_reader(tmp_path: Path, content: str, message: str) -> None:
    from sialign.io.read_exports import read_parallel_tsv

    path = tmp_path / "p.tsv"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(FormatError, match=message) as info:
        read_parallel_tsv(path)
    assert info.value.line == 2


@pytest.mark.parametrize("line, message", [("[" * 100_000 + "]" * 100_000, "nested too deeply"), ('{"a": ' + "9" * 5000 + "}", "cannot take")])
def test_hostile_jsonl_reader(tmp_path: Path, line: str, message: str) -> None:
    from sialign.io.read_exports import read_jsonl

    path = tmp_path / "a.jsonl"
    path.write_text('{"ok": 1}\n' + line + "\n", encoding="utf-8")
    with pytest.raises(FormatError, match=message) as info:
        read_jsonl(path)
    assert info.value.line == 2


def test_an_eaf_entity_defined_outside_the_file_is_refused_not_dropped(tmp_path: Path) -> None:
    """Expat skips an entity that an external DTD would define; its annotation's text vanished without a word."""
    path = tmp_path / "talk.eaf"
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE ANNOTATION_DOCUMENT SYSTEM "elan.dtd">\n'
        '<ANNOTATION_DOCUMENT><TIME_ORDER><TIME_SLOT TIME_SLOT_ID="ts1" TIME_VALUE="0"/>'
        '<TIME_SLOT TIME_SLOT_ID="ts2" TIME_VALUE="1000"/></TIME_ORDER>\n'
        '<TIER TIER_ID="en"><ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="a1" TIME_SLOT_REF1="ts1" TIME_SLOT_REF2="ts2">'
        '<ANNOTATION_VALUE>&brand; is here.</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION></TIER></ANNOTATION_DOCUMENT>\n',
        encoding="utf-8")
    with pytest.raises(FormatError, match=r"line 4: the entity &brand; is not defined"):
        read_transcript(path)
