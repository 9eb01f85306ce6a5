"""One rule for every command: outputs, a transcript given as a project, empty gold, exit statuses, argparse errors, EVS labels."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from sialign.cli.main import EXIT_INPUT, EXIT_USAGE, main
from sialign.io.project_file import load_project, save_project

sys.path.insert(0, str(Path(__file__).parent))
from test_cli_io import SRT, saved_project

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


@pytest.fixture(autouse=True)
def _autosaves_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SIALIGN_AUTOSAVE_DIR", str(tmp_path / "autosave"))


@pytest.fixture
def aligned(tmp_path: Path) -> Path:
    out = tmp_path / "talk.sialign"
    args = ["align", str(EXAMPLES / "talk.en.srt"), str(EXAMPLES / "talk.ja.srt"), "-o", str(out), "-q", "--model", "lexical"]
    assert main(args) == 0
    return out


# ---------------------------------------------------------------------------
# 1. output paths


def test_realign_refuses_a_missing_output_folder(aligned: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = aligned.parent / "nodir" / "z.sialign"
    assert main(["realign", str(aligned), "-o", str(out)]) == EXIT_INPUT
    err = capsys.readouterr().err
    assert "does not exist" in err and len(err.splitlines()) == 1
    assert not out.parent.exists()


def test_realign_output_must_be_a_project(aligned: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = aligned.parent / "z.tsv"
    assert main(["realign", str(aligned), "-o", str(out)]) == EXIT_INPUT
    err = capsys.readouterr().err
    assert "must end in .sialign" in err and len(err.splitlines()) == 1
    assert not out.exists()
    good = aligned.parent / "z.sialign"
    assert main(["realign", str(aligned), "-o", str(good)]) == 0
    assert load_project(good).alignment is not None


def test_filter_output_must_be_a_project_in_an_existing_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = saved_project(tmp_path)
    assert main(["filter", str(project), "-o", str(tmp_path / "f.tsv"), "--learned-only"]) == EXIT_INPUT
    assert "must end in .sialign" in capsys.readouterr().err
    assert main(["filter", str(project), "-o", str(tmp_path / "nodir" / "f.sialign"), "--learned-only"]) == EXIT_INPUT
    assert "does not exist" in capsys.readouterr().err
    assert not (tmp_path / "nodir").exists()


@pytest.mark.parametrize(
    "argv",
    [
        ["report", "{project}", "-o", "{tmp}/nodir2/r.html"],
        ["compare", "{project}", "{project}", "-o", "{tmp}/nodir2/c.tsv"],
        ["segment", "{srt}", "--lang", "en", "-o", "{tmp}/nodir2/s.txt"],
        ["convert", "{srt}", "{tmp}/nodir2/c.vtt"],
        ["corpus", "export", "{tmp}", "-o", "{tmp}/nodir2/c.tsv"],
        ["evs", "{project}", "--json", "{tmp}/nodir2/e.json"],
    ],
)
def test_every_output_refuses_a_missing_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    project = saved_project(tmp_path)
    srt = tmp_path / "talk.en.srt"
    srt.write_text(SRT, encoding="utf-8")
    args = [a.format(project=project, tmp=tmp_path, srt=srt) for a in argv]
    assert main(args) == EXIT_INPUT
    err = capsys.readouterr().err
    assert "does not exist" in err and "create it first" in err
    assert not (tmp_path / "nodir2").exists()


def test_export_refuses_an_unknown_suffix_like_align(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = saved_project(tmp_path)
    out = tmp_path / "x.docx"
    assert main(["export", str(project), "-o", str(out)]) == EXIT_USAGE  # the name says no format: a usage error
    err = capsys.readouterr().err
    assert f"-o {out}: name the output .tsv" in err and "or choose a format with -f" in err
    assert not out.exists()
    assert main(["export", str(project), "-o", str(out), "-f", "tsv"]) == 0
    assert out.read_text(encoding="utf-8").startswith("talk\t")


# ---------------------------------------------------------------------------
# 2. a transcript given where a project is expected


@pytest.mark.parametrize("command", [["export"], ["filter"], ["realign"], ["evs"]])
def test_a_transcript_is_named_as_one(tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    srt = tmp_path / "talk.en.srt"
    srt.write_text(SRT, encoding="utf-8")
    extra = ["-o", str(tmp_path / "x.tsv")] if command == ["export"] else []
    assert main([*command, str(srt), *extra]) == EXIT_INPUT
    err = capsys.readouterr().err
    assert "this is a transcript (SubRip (.srt)), not a SI Aligner project" in err
    assert "sialign align SOURCE TARGET -o talk.sialign" in err and "JSON" not in err


def test_a_text_file_with_a_project_suffix_is_named_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    odd = tmp_path / "notes.sialign"
    odd.write_text("\ufeffWEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHi.\n", encoding="utf-8")
    assert main(["export", str(odd), "-o", str(tmp_path / "x.tsv")]) == EXIT_INPUT
    assert "this is a transcript (WebVTT (.vtt))" in capsys.readouterr().err


def test_a_truncated_project_keeps_its_json_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = saved_project(tmp_path)
    text = project.read_text(encoding="utf-8")
    project.write_text(text[: len(text) // 2], encoding="utf-8")
    assert main(["export", str(project), "-o", str(tmp_path / "x.tsv")]) == EXIT_INPUT
    err = capsys.readouterr().err
    assert "the project file is not valid JSON" in err and "transcript" not in err


# ---------------------------------------------------------------------------
# 3. an empty gold or system alignment


@pytest.mark.parametrize("content", ["", "\n\n", "[]:[]\n"])
def test_eval_refuses_an_empty_gold(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str) -> None:
    hyp = tmp_path / "exp.align"
    hyp.write_text("[0]:[0]:0.1\n[1]:[1]:0.2\n", encoding="utf-8")
    gold = tmp_path / "empty.srt"
    gold.write_text(content, encoding="utf-8")
    assert main(["eval", str(hyp), str(gold)]) == EXIT_INPUT
    err = capsys.readouterr().err
    assert f"{gold}: the gold alignment holds no bead" in err and len(err.splitlines()) == 1
    assert main(["eval", str(gold), str(hyp)]) == EXIT_INPUT
    assert f"{gold}: the system alignment holds no bead" in capsys.readouterr().err


# ---------------------------------------------------------------------------
# 4. option values out of range are wrong arguments (64)


@pytest.mark.parametrize(
    "extra",
    [["--max-tgt", "0"], ["--max-tgt", "abc"], ["--pivot-weight", "1.5"], ["--filters", "magic"], ["--evs", "5", "1"]],
)
def test_align_out_of_range_options_exit_64(tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str]) -> None:
    args = ["align", str(EXAMPLES / "talk.en.srt"), str(EXAMPLES / "talk.ja.srt"), "-o", str(tmp_path / "o.tsv"), *extra]
    assert main(args) == EXIT_USAGE
    assert not (tmp_path / "o.tsv").exists()


def test_filter_and_segment_out_of_range_options_exit_64(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = saved_project(tmp_path)
    assert main(["filter", str(project), "--alpha-min", "2"]) == EXIT_USAGE
    assert "--alpha-min" in capsys.readouterr().err
    assert main(["filter", str(project), "--gamma-min", "3", "--gamma-max", "1"]) == EXIT_USAGE
    srt = tmp_path / "talk.en.srt"
    srt.write_text(SRT, encoding="utf-8")
    assert main(["segment", str(srt), "--lang", "en", "--max-chars", "1"]) == EXIT_USAGE


# ---------------------------------------------------------------------------
# 5. argparse errors: two lines, no usage block


def test_argument_errors_are_two_lines(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["align", "a.srt", "b.srt", "-o", "o.tsv", "--max-tgt", "abc"]) == EXIT_USAGE
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2
    assert err[0].startswith("sialign align: error: argument --max-tgt")
    assert err[1] == "run 'sialign align -h' for the options"
    assert main(["no-such-command"]) == EXIT_USAGE
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and err[1] == "run 'sialign -h' for the options"


def test_help_still_shows_the_usage(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["align", "-h"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: sialign align") and "--max-tgt" in out


# ---------------------------------------------------------------------------
# 6. evs: repeated talk ids and projects without an interpreter


def test_evs_names_repeated_talks_by_file_and_keeps_unknown_interpreters_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = saved_project(tmp_path)
    b = tmp_path / "ex.sialign"
    shutil.copy(a, b)
    named = tmp_path / "named.sialign"
    project = load_project(a)
    project.metadata["interpreter"] = "I1"
    save_project(project, named)
    assert main(["evs", str(a), str(b), str(named)]) == 0
    out = capsys.readouterr().out
    assert "t1 (t1.sialign)" in out and "t1 (ex.sialign)" in out
    pooled = out.split("Per interpreter", 1)[1]
    assert "unknown (t1.sialign)" in pooled and "unknown (ex.sialign)" in pooled
    rows = [line for line in pooled.splitlines() if line.startswith(("unknown", "I1"))]
    assert len(rows) == 3
    for line in rows:
        label_end = line.index(")") + 1 if line.startswith("unknown") else 2
        assert line[label_end:].split()[0] == "1"  # one talk each: nothing pooled
