"""``sialign info``, ``convert`` and ``export`` through the CLI entry point."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sialign.cli.main import main
from sialign.core.model import Alignment, Bead, BeadStatus, Document, Project, Segment
from sialign.io.read_exports import read_jsonl, read_parallel_tsv
from sialign.io.readers import read_transcript

SRT = "1\n00:00:01,000 --> 00:00:02,500\nGood morning.\n\n2\n00:00:03,000 --> 00:00:04,000\nLet us begin.\n"


@pytest.fixture(autouse=True)
def _autosaves_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SIALIGN_AUTOSAVE_DIR", str(tmp_path / "autosave"))


def saved_project(tmp_path: Path) -> Path:
    from sialign.io.project_file import save_project

    src = Document(language="en", segments=[Segment(0, "Good morning.", 1.0, 2.5, 1), Segment(1, "Let\tus begin.", 3.0, 4.0, 2, "\n"), Segment(2, "Bye.", 5.0, 6.0, 3, "\n")])
    tgt = Document(language="ja", segments=[Segment(0, "おはようございます。", 3.0, 4.5, 1), Segment(1, "始めましょう。", 5.0, 6.0, 2, "\n"), Segment(2, "さようなら。", 7.0, 8.0, 3, "\n")])
    beads = [
        Bead((0,), (0,), cost=0.1, status=BeadStatus.CONFIRMED),
        Bead((1,), (1,), cost=0.2),
        Bead((2,), (2,), cost=0.9, status=BeadStatus.DROPPED, reason="wrong"),
    ]
    project = Project(talk_id="t1", source=src, target=tgt, alignment=Alignment(beads))
    path = tmp_path / "t1.sialign"
    save_project(project, path)
    return path


def test_cli_io_info_reports_the_facts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "talk.srt"
    path.write_bytes(SRT.encode("utf-16"))
    assert main(["info", str(path)]) == 0
    out = capsys.readouterr().out
    for expected in ("SubRip", "utf-16", "Language:   en (guessed from the text)", "Segments:   2", "Timed:      yes (2 of 2", "00:00:01.000 – 00:00:04.000", "duration 3.0 s", "line 3: [00:00:01.000 → 00:00:02.500] Good morning."):
        assert expected in out, expected


def test_cli_io_info_json_and_tier(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "a.tsv"
    path.write_text("id\ten\tja\n1\tHello\tこんにちは\n", encoding="cp932")
    assert main(["info", str(path), "--tier", "ja", "--json", "--lines", "1"]) == 0
    facts = json.loads(capsys.readouterr().out)
    assert facts["format"] == "tsv" and facts["encoding"] == "cp932" and facts["language"] == "ja"
    assert facts["segments"] == 1 and facts["timed_segments"] == 0
    assert facts["first"][0]["text"] == "こんにちは"


def test_cli_io_info_lists_tiers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "a.TextGrid"
    path.write_text(
        'File type = "ooTextFile"\nObject class = "TextGrid"\n\n0\n2\n<exists>\n1\n"IntervalTier"\n"speech"\n0\n2\n1\n0\n2\n"hi"\n',
        encoding="utf-8",
    )
    assert main(["info", str(path)]) == 0
    assert "Tiers:      speech (interval)" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"1\n00:00:05,000 --> 00:00:02,000\nx\n", "line 3"),
        (b"", "empty"),
        (b"ok\n\xff\xfe\xfd\xfc\xfb\n", "--encoding"),  # Latin-1 is read since issue 12; these bytes are in no encoding
    ],
)
def test_cli_io_info_bad_file_exits_2_with_message(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, words: str) -> None:
    path = tmp_path / "bad.srt"
    path.write_bytes(content)
    assert main(["info", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sialign info: error: " + str(path))
    assert words in err
    assert "Traceback" not in err


def test_cli_io_info_allow_overlaps(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "o.srt"
    path.write_text("1\n00:00:01,000 --> 00:00:03,000\na\n\n2\n00:00:02,000 --> 00:00:04,000\nb\n", encoding="utf-8")
    assert main(["info", str(path)]) == 2
    assert "overlap" in capsys.readouterr().err
    assert main(["info", str(path), "--allow-overlaps"]) == 0


@pytest.mark.parametrize(("out_name", "to", "fmt"), [("o.vtt", None, "vtt"), ("o.TextGrid", None, "textgrid"), ("o.eaf", None, "eaf"), ("o.tsv", None, "tsv"), ("o.data", "srt", "srt")])
def test_cli_io_convert(tmp_path: Path, capsys: pytest.CaptureFixture[str], out_name: str, to: str | None, fmt: str) -> None:
    src = tmp_path / "in.srt"
    src.write_bytes(SRT.encode("cp932"))
    out = tmp_path / out_name
    argv = ["convert", str(src), str(out)] + (["--to", to] if to else [])
    assert main(argv) == 0
    assert f"Wrote 2 segments to {out} ({fmt}, from srt in" in capsys.readouterr().err
    back = read_transcript(out, format=fmt)
    assert back.texts() == ["Good morning.", "Let us begin."]
    assert [(s.start, s.end) for s in back] == [(1.0, 2.5), (3.0, 4.0)]


def test_cli_io_convert_untimed_to_srt_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "in.txt"
    src.write_text("one\ntwo\n", encoding="utf-8")
    assert main(["convert", str(src), str(tmp_path / "o.srt")]) == 2
    assert "has no times" in capsys.readouterr().err
    assert not (tmp_path / "o.srt").exists()


@pytest.mark.parametrize(
    ("argv", "out_name", "count"),
    [
        (["-f", "tsv"], "t1.tsv", 2),
        (["-o", "{tmp}/x.jsonl"], "x.jsonl", 2),
        (["-f", "tmx", "-o", "{tmp}/x.tmx", "--only-confirmed"], "x.tmx", 1),
        (["-f", "align", "-o", "{tmp}/x.align"], "x.align", 3),
        (["-f", "tsv2", "-o", "{tmp}/x2.tsv", "--include-dropped"], "x2.tsv", 3),
        (["--two-column", "-o", "{tmp}/x3.tsv"], "x3.tsv", 2),
        (["--include-dropped"], "t1.tsv", 3),
        (["-f", "textgrid"], "t1.TextGrid", 2),
        (["-o", "{tmp}/x.eaf"], "x.eaf", 2),
    ],
)
def test_cli_io_export(tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], out_name: str, count: int) -> None:
    project = saved_project(tmp_path)
    args = ["export", str(project)] + [a.replace("{tmp}", str(tmp_path)) for a in argv]
    assert main(args) == 0
    out = tmp_path / out_name
    assert f"Wrote {count} of 3 beads to {out}" in capsys.readouterr().err
    if out_name.endswith(".tsv"):
        rows = read_parallel_tsv(out)
        assert len(rows) == count
        assert [r.source for r in rows][:2] == ["Good morning.", "Let us begin."]
    elif out_name.endswith(".jsonl"):
        assert [r["source"] for r in read_jsonl(out)] == ["Good morning.", "Let us begin."]
    elif out_name.endswith((".TextGrid", ".eaf")):
        assert read_transcript(out, tier="target").texts() == ["おはようございます。", "始めましょう。"]
    elif out_name.endswith(".align"):
        assert out.read_text().splitlines() == ["[0]:[0]:0.100000", "[1]:[1]:0.200000", "[2]:[2]:0.900000"]


def test_cli_io_export_missing_project(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", str(tmp_path / "none.sialign")]) == 2
    assert "none.sialign" in capsys.readouterr().err


def test_cli_io_help_lists_io_commands() -> None:
    out = subprocess.run([sys.executable, "-m", "sialign", "--help"], capture_output=True, text=True, check=True).stdout
    for name in ("info", "convert", "export"):
        assert f"    {name} " in out


def test_cli_io_info_warns_when_the_detected_encoding_is_doubtful(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Short GBK Chinese also decodes as EUC-JP: info says so, as align does, unless the encoding was given."""
    path = tmp_path / "talk.zh.txt"
    path.write_bytes("你好世界。\n水资源\n".encode("gbk"))
    assert main(["info", str(path)]) == 0
    err = capsys.readouterr().err
    assert "sialign info: warning:" in err and "encoding may be wrong" in err and "--encoding" in err
    assert main(["info", str(path), "--encoding", "gb18030"]) == 0
    captured = capsys.readouterr()
    assert "warning" not in captured.err and "你好世界。" in captured.out and "Language:   zh" in captured.out


def test_cli_io_info_tsv_header_without_a_text_column(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``id en ja`` is a header, not a segment: info asks for the column, then reads it."""
    path = tmp_path / "pairs.tsv"
    path.write_text("id\ten\tja\n1\tHello.\tこんにちは。\n", encoding="utf-8")
    assert main(["info", str(path)]) == 2
    err = capsys.readouterr().err
    assert "line 1: the header names no text column" in err and "--tier" in err and "id, en, ja" in err
    assert main(["info", str(path), "--tier", "ja"]) == 0
    out = capsys.readouterr().out
    assert "Columns:    id, en, ja" in out and "Segments:   1" in out and "line 2: こんにちは。" in out


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the peak memory from /proc")
def test_cli_io_info_on_a_one_line_transcript_stays_within_its_memory_bound(tmp_path: Path) -> None:
    """`sialign info` on one 10 MB line: at most 5.5 x the file over the interpreter (it once split the line into words)."""
    import os
    import random

    rng = random.Random(5)
    words = [f"w{i}" for i in range(5000)]
    path = tmp_path / "one-line.txt"
    text = " ".join(rng.choice(words) for _ in range(1_700_000))[:10_000_000]
    path.write_text(text + "\n", encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2] / "desktop"))
    # The peak is the child's own VmHWM (getrusage of a child forked from this
    # big test process would report this process's resident memory).
    run = ("import runpy, sys\nsys.argv = ['sialign'] + sys.argv[1:]\ntry:\n    runpy.run_module('sialign', run_name='__main__')\n"
           "except SystemExit:\n    pass\nprint(next(l for l in open('/proc/self/status') if l.startswith('VmHWM')).split()[1])\n")

    def peak_mb(*argv: str) -> float:
        done = subprocess.run([sys.executable, "-c", run, *argv], env=env, capture_output=True, text=True, check=True)
        return int(done.stdout.split()[-1]) / 1024

    interpreter = peak_mb("--version")
    info = peak_mb("info", str(path))
    assert info - interpreter <= 5.5 * 10, (interpreter, info)


def test_cli_io_align_of_two_unrelated_files_says_why_no_bead_was_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, target = tmp_path / "a.txt", tmp_path / "b.txt"
    source.write_text("".join(f"w{i} w{i + 1} w{i + 2} river number {i}.\n" for i in range(40)), encoding="utf-8")
    target.write_text("zzz qqq.\nyyy ppp.\n", encoding="utf-8")
    assert main(["align", str(source), str(target), "--model", "lexical", "-q", "-o", str(tmp_path / "o.tsv")]) == 0
    err = capsys.readouterr().err
    assert "warning: wrote no bead to" in err and "all 42 beads are dropped (40 × no rendition" in err
    assert "no source segment was matched with a target segment" in err and "--include-dropped" in err
    project = tmp_path / "p.sialign"
    assert main(["align", str(source), str(target), "--model", "lexical", "-q", "-o", str(project)]) == 0
    capsys.readouterr()
    assert main(["export", str(project), "-o", str(tmp_path / "e.tsv")]) == 0
    assert "Wrote 0 of 42 beads" in (err := capsys.readouterr().err) and "all 42 beads are dropped" in err
    assert main(["export", str(project), "-o", str(tmp_path / "e.tsv"), "--include-dropped"]) == 0
    assert "Wrote 42 of 42 beads" in capsys.readouterr().err
