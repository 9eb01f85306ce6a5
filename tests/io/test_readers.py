"""Transcript readers: every format, tiers, language guess and every bad input."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sialign.core.errors import (
    BinaryFileError,
    EmptyInputError,
    EncodingError,
    FileTooLargeError,
    FormatError,
    InputError,
    OverlapError,
    TierNotFoundError,
    TimestampError,
)
from sialign.io.readers import (
    detect_format,
    guess_language,
    list_tiers,
    normalise_format,
    read_transcript,
    sniff_format,
)
from sialign.io.timecodes import format_srt_time, parse_clock, parse_time

SRT = """1
00:00:01,000 --> 00:00:02,500
Hello there.
Second line.

2
00:00:03,000 --> 00:00:04,250
World.
"""

VTT = """WEBVTT - a title
Kind: captions

NOTE this is a comment
spanning lines

cue-1
00:01.000 --> 00:02.000 align:start position:10%
<v Bob>Hi

00:00:03.000 --> 00:00:04.000
There
"""

TEXTGRID_LONG = '''File type = "ooTextFile"
Object class = "TextGrid"

xmin = 0 
xmax = 2.3 
tiers? <exists> 
size = 2 
item []: 
    item [1]:
        class = "TextTier" 
        name = "points" 
        xmin = 0 
        xmax = 2.3 
        points: size = 1 
        points [1]:
            number = 1.2 
            mark = "p" 
    item [2]:
        class = "IntervalTier" 
        name = "words" 
        xmin = 0 
        xmax = 2.3 
        intervals: size = 3 
        intervals [1]:
            xmin = 0 
            xmax = 1 
            text = "say ""hi""" 
        intervals [2]:
            xmin = 1 
            xmax = 1.5 
            text = "" 
        intervals [3]:
            xmin = 1.5 
            xmax = 2.3 
            text = "two
lines" 
'''

TEXTGRID_SHORT = '''File type = "ooTextFile"
Object class = "TextGrid"

0
2.3
<exists>
2
"IntervalTier"
"ja"
0
2.3
2
0
1
"こんにちは"
1
2.3
"世界です"
"IntervalTier"
"en"
0
2.3
1
0
2.3
"hello world"
'''

EAF = """<?xml version="1.0" encoding="UTF-8"?>
<ANNOTATION_DOCUMENT AUTHOR="" DATE="2020-01-01T00:00:00+00:00" FORMAT="3.0" VERSION="3.0">
    <HEADER MEDIA_FILE="" TIME_UNITS="milliseconds"/>
    <TIME_ORDER>
        <TIME_SLOT TIME_SLOT_ID="ts1" TIME_VALUE="500"/>
        <TIME_SLOT TIME_SLOT_ID="ts2" TIME_VALUE="1500"/>
        <TIME_SLOT TIME_SLOT_ID="ts3"/>
        <TIME_SLOT TIME_SLOT_ID="ts4" TIME_VALUE="3500"/>
    </TIME_ORDER>
    <TIER LINGUISTIC_TYPE_REF="default-lt" TIER_ID="empty"/>
    <TIER LINGUISTIC_TYPE_REF="default-lt" TIER_ID="speech">
        <ANNOTATION>
            <ALIGNABLE_ANNOTATION ANNOTATION_ID="a2" TIME_SLOT_REF1="ts3" TIME_SLOT_REF2="ts4">
                <ANNOTATION_VALUE>second &amp; last</ANNOTATION_VALUE>
            </ALIGNABLE_ANNOTATION>
        </ANNOTATION>
        <ANNOTATION>
            <ALIGNABLE_ANNOTATION ANNOTATION_ID="a1" TIME_SLOT_REF1="ts1" TIME_SLOT_REF2="ts2">
                <ANNOTATION_VALUE>first</ANNOTATION_VALUE>
            </ALIGNABLE_ANNOTATION>
        </ANNOTATION>
    </TIER>
    <TIER LINGUISTIC_TYPE_REF="tr" PARENT_REF="speech" TIER_ID="trans">
        <ANNOTATION>
            <REF_ANNOTATION ANNOTATION_ID="a3" ANNOTATION_REF="a1">
                <ANNOTATION_VALUE>最初の部分</ANNOTATION_VALUE>
            </REF_ANNOTATION>
        </ANNOTATION>
    </TIER>
</ANNOTATION_DOCUMENT>
"""

# (file name, content, tier, expected [(text, start, end, line)], format, language)
READ_CASES = [
    ("a.txt", "hello\n\n  world  \r\nagain\n", None, [("hello", None, None, 1), ("world", None, None, 3), ("again", None, None, 4)], "txt", "en"),
    ("a.txt", "えー、今日は\nパンの話です。\n", None, [("えー、今日は", None, None, 1), ("パンの話です。", None, None, 2)], "txt", "ja"),
    ("a.tsv", "start\tend\ttext\n0.5\t1.0\thi\n\n00:00:01.5\t00:00:02\tthere\n", None, [("hi", 0.5, 1.0, 2), ("there", 1.5, 2.0, 4)], "tsv", "en"),
    ("a.tsv", "0\t1.25\tone\n1.25\t2\ttwo\tmore\n", None, [("one", 0.0, 1.25, 1), ("two\tmore", 1.25, 2.0, 2)], "tsv", "en"),
    ("a.tsv", "just text\nmore text\n", None, [("just text", None, None, 1), ("more text", None, None, 2)], "tsv", "en"),
    ("a.tsv", "id\tsentence\tbegin\tstop\n7\tfirst\t1\t2\n8\tsecond\t2\t3\n", None, [("first", 1.0, 2.0, 2), ("second", 2.0, 3.0, 3)], "tsv", "en"),
    ("a.tsv", "id\tsentence\tnote\n7\tfirst\tx\n", "note", [("x", None, None, 2)], "tsv", "en"),
    ("a.tsv", "id\tsentence\tnote\n7\tfirst\tx\n", "2", [("first", None, None, 2)], "tsv", "en"),
    (
        "par.tsv",
        "talk\tsrc_ids\ttgt_ids\tsrc_start\tsrc_end\ttgt_start\ttgt_end\tcost\tstatus\tsource\ttarget\n"
        "t\t0\t0,1\t1\t2\t3\t4\t0.2\tauto\tA\\tB\tこんにちは\\n世界\n",
        "target",
        [("こんにちは\n世界", 3.0, 4.0, 2)],
        "tsv",
        "ja",
    ),
    ("a.srt", SRT, None, [("Hello there.\nSecond line.", 1.0, 2.5, 3), ("World.", 3.0, 4.25, 8)], "srt", "en"),
    ("a.srt", "00:00:01.000 --> 00:00:02.000\nno number\n\n", None, [("no number", 1.0, 2.0, 2)], "srt", "en"),
    ("a.srt", "1\n00:00:01,000 --> 00:00:02,000\n\n2\n00:00:02,000 --> 00:00:03,000\nkept\n", None, [("kept", 2.0, 3.0, 6)], "srt", "en"),
    ("a.vtt", VTT, None, [("Hi", 1.0, 2.0, 9), ("There", 3.0, 4.0, 12)], "vtt", "en"),
    ("a.vtt", VTT.replace("\n", "\r\n"), None, [("Hi", 1.0, 2.0, 9), ("There", 3.0, 4.0, 12)], "vtt", "en"),
    ("a.vtt", "WEBVTT\n00:01.000 --> 00:02.000\nno blank line\n\n00:03.000 --> 00:04.000\nok\n", None, [("no blank line", 1.0, 2.0, 3), ("ok", 3.0, 4.0, 6)], "vtt", "en"),
    ("a.srt", SRT.replace("\n", "\r\n"), None, [("Hello there.\nSecond line.", 1.0, 2.5, 3), ("World.", 3.0, 4.25, 8)], "srt", "en"),
    ("a.TextGrid", TEXTGRID_LONG, None, [('say "hi"', 0.0, 1.0, 27), ("two\nlines", 1.5, 2.3, 35)], "textgrid", "en"),
    ("a.TextGrid", TEXTGRID_LONG, "words", [('say "hi"', 0.0, 1.0, 27), ("two\nlines", 1.5, 2.3, 35)], "textgrid", "en"),
    ("b.TextGrid", TEXTGRID_SHORT, None, [("こんにちは", 0.0, 1.0, 15), ("世界です", 1.0, 2.3, 18)], "textgrid", "ja"),
    ("b.TextGrid", TEXTGRID_SHORT, "en", [("hello world", 0.0, 2.3, 26)], "textgrid", "en"),
    ("b.TextGrid", TEXTGRID_SHORT, 2, [("hello world", 0.0, 2.3, 26)], "textgrid", "en"),
    ("a.eaf", EAF, None, [("first", 0.5, 1.5, 18), ("second & last", 2.5, 3.5, 13)], "eaf", "en"),
    ("a.eaf", EAF, "trans", [("最初の部分", 0.5, 1.5, 25)], "eaf", "ja"),
    # Content decides for .txt and unknown extensions.
    ("subs.txt", SRT, None, [("Hello there.\nSecond line.", 1.0, 2.5, 3), ("World.", 3.0, 4.25, 8)], "srt", "en"),
    ("noext", VTT, None, [("Hi", 1.0, 2.0, 9), ("There", 3.0, 4.0, 12)], "vtt", "en"),
    ("grid.txt", TEXTGRID_SHORT, "en", [("hello world", 0.0, 2.3, 26)], "textgrid", "en"),
    ("x.xml", EAF, "speech", [("first", 0.5, 1.5, 18), ("second & last", 2.5, 3.5, 13)], "eaf", "en"),
]


@pytest.mark.parametrize(("name", "content", "tier", "expected", "fmt", "language"), READ_CASES)
def test_readers_read_each_format(
    tmp_path: Path, name: str, content: str, tier: str | int | None, expected: list[tuple], fmt: str, language: str
) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    doc = read_transcript(path, tier=tier)
    assert [(s.text, s.start, s.end, s.line) for s in doc.segments] == expected
    assert doc.format == fmt
    assert doc.language == language
    assert doc.encoding == "utf-8"
    assert doc.path == str(path)
    assert [s.id for s in doc.segments] == list(range(len(expected)))


@pytest.mark.parametrize("codec", ["utf-8-sig", "utf-16", "cp932", "euc_jp"])
@pytest.mark.parametrize(("name", "content"), [("a.srt", SRT.replace("World.", "世界、です。")), ("b.TextGrid", TEXTGRID_SHORT)])
def test_readers_read_every_encoding(tmp_path: Path, codec: str, name: str, content: str) -> None:
    path = tmp_path / name
    path.write_bytes(content.encode(codec))
    doc = read_transcript(path)
    reference = tmp_path / ("ref-" + name)
    reference.write_text(content, encoding="utf-8")
    assert [(s.text, s.start, s.end) for s in doc] == [(s.text, s.start, s.end) for s in read_transcript(reference)]
    assert doc.encoding == ("cp932" if codec == "cp932" else codec)


def test_readers_txt_is_lossless(tmp_path: Path) -> None:
    content = "\n\n  first line \r\n\n\tsecond\u3000\nthird\n\n"
    path = tmp_path / "a.txt"
    path.write_bytes(content.encode())
    doc = read_transcript(path)
    assert doc.texts() == ["first line", "second", "third"]
    assert doc.full_text() == content.rstrip("\n")
    assert [s.line for s in doc] == [3, 5, 6]


def test_readers_explicit_format_and_language(tmp_path: Path) -> None:
    path = tmp_path / "a.data"
    path.write_text("0\t1\thello\n", encoding="utf-8")
    doc = read_transcript(path, format="TSV", language="de")
    assert doc.language == "de"
    assert doc.segments[0].start == 0.0


def test_readers_overlaps_allowed_when_not_strict(tmp_path: Path) -> None:
    path = tmp_path / "o.srt"
    path.write_text("1\n00:00:01,000 --> 00:00:03,000\na\n\n2\n00:00:02,000 --> 00:00:04,000\nb\n", encoding="utf-8")
    doc = read_transcript(path, strict=False)
    assert [(s.start, s.end) for s in doc] == [(1.0, 3.0), (2.0, 4.0)]


def test_readers_one_millisecond_overlap_is_tolerated(tmp_path: Path) -> None:
    path = tmp_path / "o.srt"
    path.write_text("1\n00:00:01,000 --> 00:00:02,001\na\n\n2\n00:00:02,000 --> 00:00:04,000\nb\n", encoding="utf-8")
    assert len(read_transcript(path)) == 2


def test_readers_list_tiers(tmp_path: Path) -> None:
    grid = tmp_path / "a.TextGrid"
    grid.write_text(TEXTGRID_LONG, encoding="utf-8")
    eaf = tmp_path / "a.eaf"
    eaf.write_text(EAF, encoding="utf-8")
    assert list_tiers(grid) == ["points (point)", "words (interval)"]
    assert list_tiers(eaf) == ["empty", "speech", "trans"]


# (file name, content, error class, expected line, words the message must contain)
BAD_CASES = [
    ("a.srt", "Hello, this is just text.\nNot captions.\n", FormatError, 1, ["not SubRip"]),
    ("a.srt", VTT, FormatError, None, ["WebVTT", "rename"]),
    ("a.srt", "1\n00:00:01,000 --> 00:00:0x,000\nbad\n", TimestampError, 2, ["00:00:0x,000"]),
    ("a.srt", "1\n00:00:01,000 -> 00:00:02,000\nbad arrow\n", FormatError, 2, ["caption 1", "00:00:01,000 --> 00:00:03,500"]),
    ("a.srt", "1\n00:00:01,000 --> 00:00:02,000\nok\n\nstray text\n", FormatError, 5, ["no time line"]),
    ("a.srt", "1\n00:00:01,000 --> 00:00:02,000\nok\n2\n00:00:03,000 --> 00:00:04,000\nx\n", FormatError, 5, ["blank line is missing"]),
    ("a.srt", "1\n00:00:05,000 --> 00:00:02,000\nbackwards\n", TimestampError, 3, ["ends", "before it starts"]),
    ("a.srt", "1\n00:00:01,000 --> 00:00:03,000\na\n\n2\n00:00:02,000 --> 00:00:04,000\nb\n", OverlapError, 7, ["caption 2", "caption 1", "00:00:03.000"]),
    ("a.srt", "1\n00:01:61,000 --> 00:01:62,000\nbad seconds\n", TimestampError, 2, ["00:01:61,000"]),
    ("a.vtt", "1\n00:00:01,000 --> 00:00:02,000\nsubrip\n", FormatError, None, ["named .vtt", "SubRip"]),
    ("a.vtt", "Title\n\n00:01.000 --> 00:02.000\nno header\n", FormatError, 1, ["WEBVTT"]),
    ("a.vtt", "WEBVTT\n\n00:00:01,000 --> 00:00:02,000\ncomma\n", TimestampError, 3, ["00:00:01,000"]),
    ("a.vtt", "WEBVTT\n\njust words\nno timing\n", FormatError, 3, ["no time line"]),
    ("a.vtt", "WEBVTT\n\n00:02.000 --> 00:03.000\nb\n\n00:01.000 --> 00:01.500\na\n", OverlapError, 7, ["before the previous"]),
    ("a.tsv", "0\t1\tok\n1\tx\tbad end\n", TimestampError, 2, ["'x'"]),
    ("a.tsv", "start\tend\ttext\n2\t1\tbackwards\n", TimestampError, 2, ["before it starts"]),
    ("a.tsv", "0\t1\tok\n1\t2\n", FormatError, 2, ["start<TAB>end<TAB>text"]),
    ("a.tsv", "id\tfoo\tstart\n1\tx\t2\n", FormatError, 1, ["no text column"]),
    ("a.tsv", "0\t2\ta\n1\t3\tb\n", OverlapError, 2, ["row at line 2", "row at line 1"]),
    ("a.TextGrid", "File type = \"ooTextFile\"\nObject class = \"TextGrid\"\n\n0\n2\n<exists>\n1\n\"IntervalTier\"\n\"w\"\n0\n2\n2\n0\n1\n\"a\"\n", FormatError, 15, ["ends early"]),
    ("a.TextGrid", "File type = \"ooTextFile\"\nObject class = \"Pitch 1\"\n\n0\n2\n", FormatError, 2, ["Pitch"]),
    ("a.TextGrid", "File type = \"ooTextFile\"\nObject class = \"TextGrid\"\n\n0\n2\n<exists>\n1\n\"IntervalTier\"\n\"w\"\n0\nxyz\n", FormatError, 10, ["ends early"]),
    ("a.TextGrid", "File type = \"ooTextFile\"\nObject class = \"TextGrid\"\n\n0\n2\n<exists>\n1\n\"IntervalTier\"\n\"w\"\n0\n2\n1\n1.5\n1\n\"back\"\n", TimestampError, 15, ["before it starts"]),
    ("a.TextGrid", "Hello\n", FormatError, 1, ["expected the file type"]),
    ("a.eaf", "<ANNOTATION_DOCUMENT><TIER TIER_ID='x'>\n<oops></ANNOTATION_DOCUMENT>", FormatError, 2, ["not well-formed"]),
    ("a.eaf", "<?xml version='1.0'?>\n<html><body/></html>\n", FormatError, 1, ["not an ELAN"]),
    ("a.eaf", "<?xml version='1.0'?>\n<something><ANNOTATION_DOCUMENT/></something>\n", FormatError, 1, ["not an ELAN"]),
    ("a.eaf", EAF.replace('TIME_VALUE="1500"', 'TIME_VALUE="soon"'), TimestampError, 6, ["'soon'"]),
    ("a.eaf", EAF.replace('TIME_SLOT_REF2="ts2"', 'TIME_SLOT_REF2="ts9"'), FormatError, 18, ["ts9"]),
    ("a.txt", "", EmptyInputError, None, ["empty"]),
    ("a.txt", "  \n\n \t\n", EmptyInputError, None, ["whitespace"]),
    ("a.srt", "1\n00:00:01,000 --> 00:00:02,000\n\n", EmptyInputError, None, ["no text segment"]),
    ("a.TextGrid", TEXTGRID_LONG.replace('"say ""hi"""', '""').replace('"two\nlines"', '" "'), EmptyInputError, None, ["no interval tier", "points"]),
]


@pytest.mark.parametrize(("name", "content", "error", "line", "words"), BAD_CASES)
def test_readers_bad_input_names_file_line_and_fix(
    tmp_path: Path, name: str, content: str, error: type[InputError], line: int | None, words: list[str]
) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(error) as info:
        read_transcript(path)
    assert type(info.value) is error
    message = str(info.value)
    assert message.startswith(str(path))
    assert info.value.line == line
    if line is not None:
        assert f"line {line}" in message
    for word in words:
        assert word in message


@pytest.mark.parametrize(
    ("name", "content", "tier", "error", "words"),
    [
        ("a.TextGrid", TEXTGRID_LONG, "nope", TierNotFoundError, ["'nope'", "'words'", "'points'"]),
        ("a.TextGrid", TEXTGRID_LONG, 9, TierNotFoundError, ["no tier 9"]),
        ("a.TextGrid", TEXTGRID_LONG, "points", FormatError, ["point tier"]),
        ("a.eaf", EAF, "nope", TierNotFoundError, ["'speech'"]),
        ("a.eaf", EAF, "empty", EmptyInputError, ["no text segment"]),
        ("a.srt", SRT, "x", TierNotFoundError, ["no tiers"]),
        ("a.tsv", "a\tb\n", "x", TierNotFoundError, ["no header"]),
        ("a.tsv", "text\tnote\nhi\tx\n", "zzz", TierNotFoundError, ["text, note"]),
    ],
)
def test_readers_tier_errors(tmp_path: Path, name: str, content: str, tier: str | int, error: type[InputError], words: list[str]) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(error) as info:
        read_transcript(path, tier=tier)
    for word in words:
        assert word in str(info.value)


def test_readers_binary_file(tmp_path: Path) -> None:
    path = tmp_path / "talk.srt"
    path.write_bytes(b"fLaC\x00\x00\x00\x22" + bytes(range(256)))
    with pytest.raises(BinaryFileError, match="FLAC audio"):
        read_transcript(path)


def test_readers_undecodable_file(tmp_path: Path) -> None:
    path = tmp_path / "talk.txt"
    # Issue 12: "Caf\xe9" (Latin-1) is read now; these bytes are in no encoding.
    path.write_bytes(b"line one\n\xff\xfe\xfd\xfc\xfb\n")
    with pytest.raises(EncodingError) as info:
        read_transcript(path)
    assert info.value.line == 2
    assert str(path) in str(info.value)


def test_readers_hundred_megabyte_file_fails_fast(tmp_path: Path) -> None:
    import time

    path = tmp_path / "huge.srt"
    with open(path, "wb") as fh:
        fh.truncate(100 * 1024 * 1024)
    began = time.perf_counter()
    with pytest.raises(FileTooLargeError, match="100.0 MiB"):
        read_transcript(path)
    assert time.perf_counter() - began < 0.5


def test_readers_unknown_format_name(tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    path.write_text("x\n")
    with pytest.raises(InputError, match="unknown transcript format"):
        read_transcript(path, format="docx")


@pytest.mark.parametrize(("alias", "name"), [("SRT", "srt"), (".vtt", "vtt"), ("praat", "textgrid"), ("ELAN", "eaf"), ("text", "txt")])
def test_readers_normalise_format(alias: str, name: str) -> None:
    assert normalise_format(alias) == name


@pytest.mark.parametrize(
    ("content", "expected"),
    [(SRT, "srt"), (VTT, "vtt"), (TEXTGRID_LONG, "textgrid"), (EAF, "eaf"), ("a\tb\nc\td\n", "tsv"), ("plain\ntext\n", "txt"), ("12\nnot a caption\n", "txt")],
)
def test_readers_sniff_format(content: str, expected: str) -> None:
    assert sniff_format(content) == expected


def test_readers_detect_format_trusts_consistent_extension() -> None:
    assert detect_format("x.tsv", "plain words\n") == "tsv"
    assert detect_format("x.TEXTGRID", TEXTGRID_SHORT) == "textgrid"


@pytest.mark.parametrize(
    ("texts", "expected"),
    [
        (["Hello world"], "en"),
        (["えー、今日は"], "ja"),
        (["日本語"], "ja"),
        (["你好世界。", "水资源"], "zh"),
        (["我们今天讨论水的问题，谢谢大家。"], "zh"),
        (["東京都議会", "今日は水についてお話しします。"], "ja"),
        (["Das ist gut", "日本"], "en"),
        (["안녕하세요"], "ko"),
        (["123 !!"], "und"),
        (["Le conseil a voté la proposition hier soir.", "Nous pensons que cette décision est très importante pour les citoyens et pour notre avenir."], "fr"),
        (["Il governo ha presentato una nuova legge sul lavoro.", "Questo è un passo importante, ma non è ancora sufficiente per tutti i giovani."], "it"),
        (["Komisja przedstawiła wczoraj nowy projekt.", "Uważam, że jest to bardzo ważne dla obywateli i nie możemy tego ignorować."], "pl"),
        (["Die Regierung hat gestern einen neuen Vorschlag vorgelegt.", "Wir glauben, dass diese Entscheidung für die Bürger sehr wichtig ist und nicht warten kann."], "de"),
        (["El gobierno presentó ayer una nueva ley.", "Creemos que es muy importante para los ciudadanos, pero todavía hay mucho trabajo y los plazos son cortos."], "es"),
        (["O governo apresentou ontem uma nova lei.", "Acreditamos que isso é muito importante para os cidadãos, mas ainda não é suficiente."], "pt"),
        (["De regering heeft gisteren een nieuw voorstel gedaan.", "Wij denken dat dit voor de burgers heel belangrijk is, maar het is nog niet genoeg."], "nl"),
        (["The committee met in Brussels on Monday.", "We discussed the budget, and the chairman said that the vote would be held in June.",
          "Merci beaucoup, as they say in Paris; the meeting was closed at noon."], "en"),
        (["Правительство вчера представило новый закон.", "Мы считаем, что это очень важно для граждан."], "ru"),
        (["Уряд учора представив новий закон.", "Ми вважаємо, що це дуже важливо для громадян і їхнього майбутнього."], "uk"),
        (["Bonjour tout le monde"], "en"),
    ],
)
def test_readers_guess_language(texts: list[str], expected: str) -> None:
    assert guess_language(texts) == expected


def test_readers_guess_language_keeps_the_default_when_no_language_clearly_leads() -> None:
    assert guess_language(["Hello world"], default="fr") == "fr"
    # As many Italian as French function words: neither leads by half again.
    assert guess_language(["le les et che di per"], default="xx") == "xx"


def test_readers_guess_language_is_right_on_the_dev_transcripts(shared_data: Path) -> None:
    """Every EPTIC transcript and both Text+Berg documents are given the language of their side of the pair."""
    cases = []
    for talk in sorted((shared_data / "eptic-dev").glob("*-*/*")):
        source, target = talk.parent.name.split("-")
        cases += [(path, lang) for path, lang in ((talk / "src.tsv", source), (talk / "tgt.tsv", target)) if path.exists()]
    cases += [(shared_data / "textberg-dev" / f"dev.{lang}", lang) for lang in ("de", "fr")]
    cases = [(path, lang) for path, lang in cases if path.exists()]
    if not cases:
        pytest.skip("no EPTIC or Text+Berg dev transcripts in ../shared/data")
    wrong = [(path, read_transcript(path, format="txt" if path.suffix != ".tsv" else None).language, lang) for path, lang in cases]
    wrong = [(str(path), guessed, lang) for path, guessed, lang in wrong if guessed != lang]
    assert wrong == [], f"{len(wrong)} of {len(cases)} guessed wrong"


@pytest.mark.parametrize(("given", "expected"), [("ENG", "en"), ("french", "fr"), ("pt_BR", "pt-BR")])
def test_readers_read_transcript_normalises_the_language_given(tmp_path: Path, given: str, expected: str) -> None:
    path = tmp_path / "a.txt"
    path.write_text("Hello world\n", encoding="utf-8")
    assert read_transcript(path, language=given).language == expected


def test_readers_read_transcript_refuses_an_unknown_language(tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    path.write_text("Hello world\n", encoding="utf-8")
    with pytest.raises(InputError, match="unknown language 'xx'"):
        read_transcript(path, language="xx")


@pytest.mark.parametrize(
    ("value", "seconds"),
    [("00:00:01,500", 1.5), ("1:02:03.25", 3723.25), ("02:03.004", 123.004), ("12.5", 12.5), ("7", 7.0), (".5", 0.5)],
)
def test_readers_parse_time(value: str, seconds: float) -> None:
    assert parse_time(value) == pytest.approx(seconds)


@pytest.mark.parametrize("value", ["", "abc", "1:2:3:4", "00:61:00.000", "-1", "nan", "1e400"])
def test_readers_parse_time_rejects(value: str) -> None:
    with pytest.raises(ValueError):
        parse_time(value)


caption_text = st.text(
    st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp"), blacklist_characters="\u0085"),
    min_size=1,
    max_size=40,
).map(str.strip).filter(lambda t: t and "-->" not in t)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(st.tuples(caption_text, st.integers(0, 5000), st.integers(0, 5000), st.integers(0, 3000)), min_size=1, max_size=12),
    st.sampled_from(["utf-8", "utf-16"]),
)
def test_readers_srt_round_trip(tmp_path: Path, captions: list[tuple[str, int, int, int]], codec: str) -> None:
    """Random captions written as SRT read back with the same text and millisecond times."""
    t = 0
    blocks = []
    expected = []
    for i, (text, pause, duration, _) in enumerate(captions, start=1):
        start = t + pause
        end = start + duration
        t = end
        blocks.append(f"{i}\n{format_srt_time(start / 1000)} --> {format_srt_time(end / 1000)}\n{text}\n")
        expected.append((text, start / 1000, end / 1000))
    path = tmp_path / "r.srt"
    path.write_bytes("\n".join(blocks).encode(codec))
    doc = read_transcript(path)
    assert [(s.text, s.start, s.end) for s in doc] == [(x, pytest.approx(a), pytest.approx(b)) for x, a, b in expected]


@settings(max_examples=60, deadline=None)
@given(st.floats(0, 360000, allow_nan=False))
def test_readers_clock_round_trip(seconds: float) -> None:
    # SubRip keeps milliseconds: the time read back is the nearest millisecond (a half millisecond either way,
    # as 0.8095, stored a hair above or below, may round up or down).
    back = parse_clock(format_srt_time(seconds))
    assert back == pytest.approx(seconds, abs=0.0005 + 1e-9) and abs(back * 1000 - round(back * 1000)) < 1e-6


def test_readers_clock_round_trip_at_a_half_millisecond() -> None:
    assert parse_clock(format_srt_time(0.8095)) in (pytest.approx(0.809), pytest.approx(0.81))


# ---------------------------------------------------------------------------
# The bundled example talk


def _example_script(examples: Path):  # type: ignore[no-untyped-def]
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location("sialign_example_script", examples / "make_example.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return module


@pytest.fixture
def examples(repo_root: Path) -> Path:
    return repo_root / "resources" / "examples"


def test_readers_example_talk_reads(examples: Path) -> None:
    en = read_transcript(examples / "talk.en.srt")
    ja = read_transcript(examples / "talk.ja.srt")
    ref = read_transcript(examples / "talk.ref.ja.txt")
    assert (en.language, ja.language, ref.language) == ("en", "ja", "ja")
    assert 30 <= len(en) <= 40 and 70 <= len(ja) <= 100
    assert len(ref) == len(en)
    assert en.has_times and ja.has_times
    assert all(s.text.endswith(("、", "。")) for s in ja)


def test_readers_example_talk_matches_its_script(examples: Path) -> None:
    """The committed files are what make_example.py writes from its talk text."""
    script = _example_script(examples)
    assert read_transcript(examples / "talk.en.srt").texts() == [s for s, _, _ in script.TALK]
    assert read_transcript(examples / "talk.ja.srt").texts() == [c for _, chunks, _ in script.TALK for c in chunks or []]
    assert read_transcript(examples / "talk.ref.ja.txt").texts() == [r for _, _, r in script.TALK]


def test_readers_example_talk_gold_and_lag(examples: Path) -> None:
    en = read_transcript(examples / "talk.en.srt")
    ja = read_transcript(examples / "talk.ja.srt")
    beads = []
    for line in (examples / "talk.gold.align").read_text().splitlines():
        left, right = line.split(":")
        beads.append(([int(x) for x in left.strip("[]").split(",") if x.strip()], [int(x) for x in right.strip("[]").split(",") if x.strip()]))
    assert [i for s, _ in beads for i in s] == list(range(len(en)))
    assert [j for _, t in beads for j in t] == list(range(len(ja)))
    assert sum(1 for s, t in beads if s and not t) == 2  # two omissions
    assert any(len(s) == 2 for s, _ in beads)  # one condensed pair
    lags = [ja.segments[t[0]].start - en.segments[s[0]].start for s, t in beads if s and t]
    assert 2.0 <= min(lags) and max(lags) <= 4.0 + 1e-6


@pytest.mark.parametrize("name", ["en", "ja"])
def test_readers_example_talk_audio_agrees_with_times(examples: Path, name: str) -> None:
    import numpy as np
    import soundfile as sf

    doc = read_transcript(examples / f"talk.{name}.srt")
    samples, rate = sf.read(examples / f"talk.{name}.ogg", dtype="float32")
    assert samples.ndim == 1 and rate == 16000
    assert len(samples) / rate >= doc.duration  # type: ignore[operator]
    inside = np.zeros(len(samples), dtype=bool)
    for seg in doc:
        inside[int(seg.start * rate) : int(seg.end * rate)] = True  # type: ignore[operator]
    rms_in = float(np.sqrt(np.mean(samples[inside] ** 2)))
    rms_out = float(np.sqrt(np.mean(samples[~inside] ** 2)))
    # Speech lies inside the captions, silence between them.
    assert rms_in > 20 * rms_out


def test_readers_example_talk_is_small(examples: Path) -> None:
    assert sum(p.stat().st_size for p in examples.iterdir() if p.is_file()) < 3 * 1024 * 1024


@settings(max_examples=150, deadline=None)
@given(st.text(st.characters(blacklist_categories=("Cs",)), max_size=200))
def test_readers_txt_lossless_for_any_text(text: str) -> None:
    """Gaps + texts rebuild the input exactly (up to trailing whitespace); lines are right."""
    from sialign.io.readers import parse_txt

    raws, gaps = parse_txt(text, "x.txt")
    assert "".join(g + r.text for g, r in zip(gaps, raws)) == text.rstrip()
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for raw in raws:
        assert raw.text == raw.text.strip() and raw.text
        assert "\n" not in raw.text and "\r" not in raw.text
        assert lines[raw.line - 1].strip() == raw.text


@pytest.mark.slow
def test_readers_example_talk_rebuilds_identically(examples: Path, tmp_path: Path) -> None:
    """make_example.py is deterministic: rebuilding gives the committed transcripts and timings."""
    import shutil

    pytest.importorskip("sudachipy")
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed")
    import soundfile as sf

    assert _example_script(examples).main([str(tmp_path)]) == 0
    for name in ("talk.en.srt", "talk.ja.srt", "talk.ref.ja.txt", "talk.gold.align"):
        assert (tmp_path / name).read_bytes() == (examples / name).read_bytes(), name
    for name in ("talk.en.ogg", "talk.ja.ogg"):
        assert sf.info(tmp_path / name).frames == sf.info(examples / name).frames


@pytest.mark.parametrize(
    ("content", "header"),
    [
        ("id\ten\tja\n1\tHello.\tこんにちは。\n", ["id", "en", "ja"]),
        ("en\tja\nHello.\tこんにちは。\n", ["en", "ja"]),
        ("start\tend\ttext\n1\t2\tHi\n", ["start", "end", "text"]),
        ("Hello\tthere\nGood\tmorning\n", None),  # words, not an id or a language tag
        ("Hello world.\tこんにちは。\nBye.\tさようなら。\n", None),
        ("1.0\t2.0\tHello\n", None),
    ],
)
def test_readers_tsv_header_is_recognised_by_its_names(content: str, header: list[str] | None) -> None:
    from sialign.io.readers import tsv_header

    assert tsv_header(content) == header


def test_readers_tsv_with_unknown_column_names_asks_for_the_column(tmp_path: Path) -> None:
    from sialign.io.readers import tier_choices

    path = tmp_path / "pairs.tsv"
    path.write_text("id\ten\tja\n1\tHello.\tこんにちは。\n", encoding="utf-8")
    with pytest.raises(FormatError, match="no text column"):
        read_transcript(path)
    assert read_transcript(path, tier="ja").texts() == ["こんにちは。"]
    assert list_tiers(path) == ["id", "en", "ja"]
    assert tier_choices(path) == [("choose the text column", None), ("id", "id"), ("en", "en"), ("ja", "ja")]


def test_readers_tsv_naming_several_talks_warns(tmp_path: Path) -> None:
    path = tmp_path / "corpus.tsv"
    path.write_text("name\ttext\nA_2010\tHello.\nA_2010\tBye.\nB_2011\tHi.\n", encoding="utf-8")
    doc = read_transcript(path)
    assert len(doc) == 3
    assert len(doc.warnings) == 1 and "names 2 talks (A_2010, B_2011)" in doc.warnings[0]
    single = tmp_path / "one.tsv"
    single.write_text("name\ttext\nA_2010\tHello.\nA_2010\tBye.\n", encoding="utf-8")
    assert read_transcript(single).warnings == []
