"""Hostile input and output faults end in a clean one-line error, never an internal error (issue 27)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sialign.cli.main import EXIT_INPUT, EXIT_USAGE, build_parser, main
from sialign.cli.usage import NUMBER_RANGES

sys.path.insert(0, str(Path(__file__).parent))
from test_cli_io import saved_project

DESKTOP = Path(__file__).resolve().parents[2] / "desktop"


@pytest.fixture(autouse=True)
def _autosaves_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SIALIGN_AUTOSAVE_DIR", str(tmp_path / "autosave"))


def run_cli(*args: str, stdout: int | object = subprocess.PIPE, prefix: tuple[str, ...] = ()) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONPATH": str(DESKTOP), "SIALIGN_AUTOSAVE_DIR": os.environ["SIALIGN_AUTOSAVE_DIR"]}
    return subprocess.run([*prefix, sys.executable, "-m", "sialign", *args], stdout=stdout, stderr=subprocess.PIPE, env=env, timeout=120)  # type: ignore[call-overload]


def talk_files(tmp_path: Path) -> tuple[Path, Path]:
    src, tgt = tmp_path / "talk.en.txt", tmp_path / "talk.fr.txt"
    src.write_text("Good morning.\nLet us begin.\n", encoding="utf-8")
    tgt.write_text("Bonjour.\nCommençons.\n", encoding="utf-8")
    return src, tgt


def rewrite_project(path: Path, change) -> None:  # type: ignore[no-untyped-def]
    """Change the project's JSON and write it back with a recomputed checksum (as a careful attacker would)."""
    from sialign.io.project_file import project_checksum

    data = json.loads(path.read_text(encoding="utf-8"))
    change(data["project"])
    data["checksum"] = project_checksum(data["project"])
    path.write_text(json.dumps(data), encoding="utf-8")


def one_error_line(err: str, command: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"sialign {command}: error: "), err
    assert "internal error" not in err and "Traceback" not in err
    return lines[0]


# ---------------------------------------------------------------------------
# 1, 2: damaged projects are refused when loaded, not deep inside a command


def test_cli_hardening_nul_in_audio_path_is_refused_at_load(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = saved_project(tmp_path)
    rewrite_project(project, lambda body: body["target"].__setitem__("audio_path", "talk\x00.wav"))
    assert main(["export", str(project), "-o", str(tmp_path / "x.eaf")]) == EXIT_INPUT
    line = one_error_line(capsys.readouterr().err, "export")
    assert "target.audio_path" in line and "\\x00" in line


@pytest.mark.parametrize("bead", [{"src": [[1]], "tgt": [[2]]}, {"src": 5, "tgt": [0]}, {"src": [True], "tgt": [0]}, {"src": [0], "tgt": ["1"]}])
def test_cli_hardening_malformed_history_beads_are_refused_at_load(tmp_path: Path, capsys: pytest.CaptureFixture[str], bead: dict) -> None:  # type: ignore[type-arg]
    project = saved_project(tmp_path)
    rewrite_project(project, lambda body: body.__setitem__("history", [{"type": "Batch", "edits": [{"type": "ReplaceBeads", "beads": [bead]}]}]))
    assert main(["filter", str(project), "--learned-only", "-o", str(tmp_path / "q.sialign")]) == EXIT_INPUT
    line = one_error_line(capsys.readouterr().err, "filter")
    # The key path down to the bad id, and what it should be.
    assert "history[0].edits[0].beads[0]" in line and ("not a whole number" in line or "not a list of segment ids" in line)


def test_cli_hardening_well_formed_history_still_loads(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = saved_project(tmp_path)
    rewrite_project(project, lambda body: body.__setitem__("history", [{"type": "ReplaceBeads", "start": 0, "stop": 1, "beads": [{"src": [0], "tgt": [0]}]}]))
    from sialign.io.project_file import load_project

    assert load_project(project).history


# ---------------------------------------------------------------------------
# 3, 4, 5: output paths the system refuses


@pytest.mark.parametrize("argv", [["align", "{src}", "{tgt}", "--model", "lexical", "-q", "-o"], ["export", "{project}", "-o"], ["convert", "{src}"]])
def test_cli_hardening_output_name_too_long(tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    src, tgt = talk_files(tmp_path)
    project = saved_project(tmp_path)
    out = str(tmp_path / ("a" * 300 + ".tsv"))
    args = [a.format(src=src, tgt=tgt, project=project) for a in argv] + [out]
    assert main(args) == EXIT_INPUT
    line = one_error_line(capsys.readouterr().err, argv[0])
    assert "too long" in line


def _without_permission_override() -> tuple[str, ...] | None:
    """A command prefix under which writing into a 0555 folder fails (root ignores permissions without it)."""
    if os.geteuid() != 0:
        return ()
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return None
    return (setpriv, "--bounding-set", "-dac_override,-dac_read_search,-fowner")


@pytest.mark.parametrize("inside", ["x.tsv", "sub/x.tsv"])
def test_cli_hardening_output_folder_without_permission(tmp_path: Path, inside: str) -> None:
    prefix = _without_permission_override()
    if prefix is None:
        pytest.skip("running as root without setpriv: permissions are not enforced")
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o000 if "/" in inside else 0o555)
    try:
        done = run_cli("export", str(saved_project(tmp_path)), "-o", str(folder / inside), prefix=prefix)
    finally:
        folder.chmod(0o755)
    assert done.returncode == EXIT_INPUT, done.stderr
    line = one_error_line(done.stderr.decode(), "export")
    assert "Permission denied" in line and str(folder) in line


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("argv", [["align", "{src}", "{tgt}", "--model", "lexical", "-q", "-f", "tsv", "-o", "-"], ["export", "{project}", "-o", "-"], ["info", "{src}"]])
def test_cli_hardening_standard_output_on_a_full_device(tmp_path: Path, argv: list[str]) -> None:
    src, tgt = talk_files(tmp_path)
    project = saved_project(tmp_path)
    with open("/dev/full", "wb") as full:
        done = run_cli(*[a.format(src=src, tgt=tgt, project=project) for a in argv], stdout=full)
    assert done.returncode == EXIT_INPUT, done.stderr
    line = one_error_line(done.stderr.decode(), argv[0])
    assert "standard output" in line and "No space left" in line


# ---------------------------------------------------------------------------
# 6, 9: numeric options are checked against one table while parsing


@pytest.mark.parametrize(
    "option",
    [["--max-tgt", "1000000000"], ["--max-src", "0"], ["--drop-threshold", "nan"], ["--drop-threshold", "inf"], ["--evs", "nan", "nan"],
     ["--evs", "0", "inf"], ["--peel", "nan"], ["--peel", "-5"], ["--pivot-weight", "nan"], ["--rows", "-1"]],
)
def test_cli_hardening_numeric_options_out_of_range(tmp_path: Path, capsys: pytest.CaptureFixture[str], option: list[str]) -> None:
    src, tgt = talk_files(tmp_path)
    assert main(["align", str(src), str(tgt), "-o", str(tmp_path / "x.tsv"), "--model", "lexical", *option]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert f"argument {option[0]}" in err and "must be between" in err
    assert not (tmp_path / "x.tsv").exists()


def test_cli_hardening_every_numeric_option_has_a_range() -> None:
    """build_parser gives every int/float option a checking type; an option missing from the table fails here."""
    import argparse

    seen = set()

    def walk(parser: argparse.ArgumentParser) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub in action.choices.values():
                    walk(sub)
            elif action.type is not None and hasattr(action.type, "number_range"):
                seen.add(next(o for o in action.option_strings if o.startswith("--")))
            else:
                assert action.type in (None, str) or callable(action.type), action

    walk(build_parser())
    assert {"--max-tgt", "--evs", "--peel", "--jobs", "--doubt-max"} <= seen
    assert seen == set(NUMBER_RANGES), "ranges for options that do not exist, or options without their range"


def test_cli_hardening_a_numeric_option_without_a_range_is_a_defect() -> None:
    import argparse

    from sialign.cli.usage import check_number_ranges

    parser = argparse.ArgumentParser(prog="x")
    parser.add_argument("--width", type=int)
    with pytest.raises(KeyError, match="--width"):
        check_number_ranges(parser)


# ---------------------------------------------------------------------------
# 7, 8 and the two decisions


@pytest.mark.parametrize("address", ["bogus://x", "local:x", "local:0", "tcp://"])
def test_cli_hardening_unusable_dask_address(tmp_path: Path, capsys: pytest.CaptureFixture[str], address: str) -> None:
    manifest = tmp_path / "m.tsv"
    src, tgt = talk_files(tmp_path)
    manifest.write_text(f"talk\tsource\ttarget\nt1\t{src}\t{tgt}\n", encoding="utf-8")
    assert main(["corpus", "align", str(manifest), "-o", str(tmp_path / "out"), "--dask", address]) == EXIT_USAGE
    assert f"--dask {address}" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("control", ["\x0b", "\x0c", "\x1c", "\x85", "\u2028"])
def test_cli_hardening_control_characters_in_a_header_stay_on_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], control: str) -> None:
    path = tmp_path / "talk.tsv"
    path.write_text(f"id\ttext\tj{control}a\n1\tHello.\tX\n", encoding="utf-8")
    assert main(["info", str(path), "--tier", "zz"]) == EXIT_INPUT
    line = one_error_line(capsys.readouterr().err, "info")
    assert "no column 'zz'" in line and "j\\" in line


def test_cli_hardening_align_refuses_standard_input_for_both_sides(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["align", "-", "-", "-o", str(tmp_path / "x.tsv")]) == EXIT_USAGE
    assert "SRC and TGT are both '-'" in capsys.readouterr().err


def test_cli_hardening_replacing_a_read_only_output_says_so(tmp_path: Path) -> None:
    out = tmp_path / "x.tsv"
    out.write_text("old\n", encoding="utf-8")
    out.chmod(0o444)
    done = run_cli("export", str(saved_project(tmp_path)), "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert f"{out} was read-only; replaced it" in done.stderr.decode()
    assert out.read_text(encoding="utf-8") != "old\n" and not out.stat().st_mode & 0o222
