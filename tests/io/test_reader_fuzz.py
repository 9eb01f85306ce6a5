"""Reader fuzzing (issue 12): no input may raise anything but an InputError.

Each transcript reader, and the readers of the TSV and JSONL exports, gets
2,500 generated files built from the pieces of its own format (headers, time
lines, arrows, quotes, counts, tags, huge and non-finite numbers) mixed with
arbitrary text and bytes. Marked ``slow`` (about a minute in all);
``pytest -m "not slow"`` leaves it out.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sialign.core.errors import InputError
from sialign.io.readers import FORMATS, read_transcript

EXAMPLES_PER_READER = 2500

NUMBERS = ["0", "1", "-1", "1.5", "1e999", "-1e999", "1e308", "nan", "inf", "9" * 400, "1" + "0" * 400, ".5", "00", "²", "١٢"]
CLOCKS = ["00:00:01,000", "00:00:02.500", "01:02.003", "9" * 320 + ":00:00,000", "99:99:99,999", "00:00:00,000", "1:2:3", "00:60:00.000", "-00:00:01.000"]

PIECES = {
    "txt": ["\n", "\r", "\r\n", " ", "\t", "text", "日本語", "\u2028", "\ufeff"],
    "tsv": ["\t", "\n", '"', '""', "start", "end", "text", "source", "target", "talk\tsrc_ids\ttgt_ids\tsrc_start\tsrc_end\ttgt_start\ttgt_end\tcost\tstatus\tsource\ttarget", "\\t", "\\", *NUMBERS],
    "srt": ["\n", "\n\n", "-->", " --> ", "<i>", "</i>", "{\\an8}", "<font color=red>", "1", "2", *CLOCKS],
    "vtt": ["WEBVTT\n\n", "\n", "\n\n", " --> ", "-->", "NOTE ", "STYLE", "<v Bob>", "<c.x>", "</c>", "<00:00:01.000>", "&amp;", "&lt;", "&#x0;", "&#99999999;", "&", *CLOCKS],
    "textgrid": [
        'File type = "ooTextFile"\n',
        'Object class = "TextGrid"\n',
        "xmin = ",
        "xmax = ",
        "size = ",
        "tiers? <exists>\n",
        "<absent>",
        'class = "IntervalTier"\n',
        'class = "TextTier"\n',
        'name = "t"\n',
        "intervals: size = ",
        "points: size = ",
        "item [1]:\n",
        'text = "',
        '"',
        '""',
        "! comment\n",
        "\n",
        *NUMBERS,
    ],
    "eaf": [
        '<?xml version="1.0"?>',
        "<ANNOTATION_DOCUMENT>",
        "</ANNOTATION_DOCUMENT>",
        "<TIME_ORDER>",
        "</TIME_ORDER>",
        '<TIME_SLOT TIME_SLOT_ID="ts1" TIME_VALUE="',
        '<TIME_SLOT TIME_SLOT_ID="ts2"/>',
        '"/>',
        '<TIER TIER_ID="t">',
        "</TIER>",
        '<ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="a1" TIME_SLOT_REF1="ts1" TIME_SLOT_REF2="ts2"><ANNOTATION_VALUE>',
        '<ANNOTATION><REF_ANNOTATION ANNOTATION_ID="a2" ANNOTATION_REF="a1"><ANNOTATION_VALUE>',
        '<ANNOTATION><REF_ANNOTATION ANNOTATION_ID="a1" ANNOTATION_REF="a2"><ANNOTATION_VALUE>',
        "</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION>",
        "</ANNOTATION_VALUE></REF_ANNOTATION></ANNOTATION>",
        "<!DOCTYPE x [<!ENTITY a 'aaaa'>]>",
        "&a;",
        "&#0;",
        *NUMBERS,
    ],
}


def documents(fmt: str) -> st.SearchStrategy[bytes]:
    piece = st.one_of(st.sampled_from(PIECES[fmt]), st.text(max_size=8))
    text = st.lists(piece, max_size=40).map("".join)
    encoded = st.tuples(text, st.sampled_from(["utf-8", "utf-16", "utf-16-le", "cp932", "latin-1"])).map(
        lambda t: t[0].encode(t[1], errors="replace")
    )
    return st.one_of(encoded, st.binary(max_size=200), st.tuples(encoded, st.binary(max_size=20)).map(lambda t: t[0] + t[1]))


@pytest.mark.slow
@pytest.mark.parametrize("fmt", FORMATS)
def test_reader_fuzz_only_input_errors(fmt: str) -> None:
    folder = Path(tempfile.mkdtemp(prefix="sialign-fuzz-"))
    path = folder / f"fuzz.{fmt}"
    tiers = [None, None, None, "1", "2", "t", "²", "source", "text"]
    seen = {"examples": 0}

    @settings(max_examples=EXAMPLES_PER_READER, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(data=documents(fmt), tier=st.sampled_from(tiers), strict=st.booleans(), detect=st.booleans())
    def check(data: bytes, tier: str | None, strict: bool, detect: bool) -> None:
        seen["examples"] += 1
        path.write_bytes(data)
        use_tier = tier if fmt in ("tsv", "textgrid", "eaf") else None
        try:
            doc = read_transcript(path, format=None if detect else fmt, tier=use_tier, strict=strict)
        except InputError as exc:
            assert "\n" not in str(exc).split(" — ")[0] or fmt in ("txt",), str(exc)
            return
        for seg in doc.segments:
            assert seg.text.strip()
            for t in (seg.start, seg.end):
                assert t is None or (t == t and abs(t) < 1e10)

    check()
    assert seen["examples"] >= EXAMPLES_PER_READER // 2


CORPUS_PIECES = {
    "parallel-tsv": [
        "talk\tsrc_ids\ttgt_ids\tsrc_start\tsrc_end\ttgt_start\ttgt_end\tcost\tstatus\tsource\ttarget\n",
        "\t",
        "\n",
        ",",
        "\\",
        "\\t",
        "auto",
        *NUMBERS,
    ],
    "jsonl": ["{", "}", "[", "]", '"a"', ":", ",", "\n", "NaN", "Infinity", "\\ud800", '"\\u2028"', *NUMBERS],
}


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(CORPUS_PIECES))
def test_reader_fuzz_corpus_readers_only_input_errors(kind: str) -> None:
    from sialign.io.read_exports import read_jsonl, read_parallel_tsv

    folder = Path(tempfile.mkdtemp(prefix="sialign-fuzz-"))
    path = folder / "fuzz.data"
    reader = read_jsonl if kind == "jsonl" else read_parallel_tsv
    piece = st.one_of(st.sampled_from(CORPUS_PIECES[kind]), st.text(max_size=6))
    content = st.one_of(st.lists(piece, max_size=40).map(lambda p: "".join(p).encode("utf-8", errors="replace")), st.binary(max_size=120))

    @settings(max_examples=EXAMPLES_PER_READER, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(data=content)
    def check(data: bytes) -> None:
        path.write_bytes(data)
        try:
            reader(path)
        except InputError:
            pass

    check()
