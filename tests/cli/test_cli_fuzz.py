"""Fuzzing the command line with fixed seeds (issue 27): no input ends in an internal error.

Mutated projects (checksum recomputed, so the loader's structure checks and
not the checksum must catch them) go through every command that reads a
project; every numeric option gets NaN, ±inf, negative, zero and 10^9; outputs
meet the faults the system can raise. Each case must exit 0, 2 or 64 with at
most one error line, never 70 and never a traceback.
"""

from __future__ import annotations

import copy
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sialign.cli.main import EXIT_INPUT, EXIT_OK, EXIT_USAGE, build_parser, main
from sialign.cli.usage import NUMBER_RANGES

sys.path.insert(0, str(Path(__file__).parent))
from test_cli_io import saved_project

pytestmark = pytest.mark.slow

DESKTOP = Path(__file__).resolve().parents[2] / "desktop"
CLEAN = {EXIT_OK, EXIT_INPUT, EXIT_USAGE}
HOSTILE: list[Any] = [None, -1, 0, 10**18, -(10**18), 1.5, True, "", "x\x00y", "a\u2028b\x0b", [], [[1]], {}, {"src": 5}, "NaN", [None], 2**63]


@pytest.fixture(autouse=True)
def _autosaves_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SIALIGN_AUTOSAVE_DIR", str(tmp_path / "autosave"))


def assert_clean(code: int, err: str, argv: list[str]) -> None:
    assert code in CLEAN, f"{argv}: exit {code}: {err}"
    assert "internal error" not in err and "Traceback" not in err, f"{argv}: {err}"
    errors = [line for line in err.splitlines() if ": error: " in line]
    assert len(errors) <= 1, f"{argv}: {err}"


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:  # type: ignore[type-arg]
    """Every path to a value inside nested dicts and lists."""
    found = [prefix]
    if isinstance(value, dict):
        for key, sub in value.items():
            found += _paths(sub, (*prefix, key))
    elif isinstance(value, list):
        for k, sub in enumerate(value[:6]):
            found += _paths(sub, (*prefix, k))
    return found


def mutate(body: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """``body`` with one to three values replaced by hostile ones or removed."""
    body = copy.deepcopy(body)
    for _ in range(rng.randint(1, 3)):
        path = rng.choice(_paths(body)[1:])
        parent: Any = body
        for key in path[:-1]:
            parent = parent[key]
        if isinstance(parent, dict) and rng.random() < 0.2:
            del parent[path[-1]]
        else:
            parent[path[-1]] = copy.deepcopy(rng.choice(HOSTILE))
    return body


def with_history(project: Path) -> dict[str, Any]:
    """The project's JSON with a history the learned filter reads (a recorded ReplaceBeads)."""
    data = json.loads(project.read_text(encoding="utf-8"))
    data["project"]["history"] = [{"type": "ReplaceBeads", "start": 0, "stop": 1, "beads": [{"src": [0], "tgt": [0], "status": "confirmed"}]}]
    return data


def project_commands(path: Path, out: Path) -> list[list[str]]:
    from sialign.io.export_formats import ALIGNMENT_FORMATS

    exports = [["export", str(path), "-f", fmt, "-o", str(out / f"x.{fmt}")] for fmt in ALIGNMENT_FORMATS]
    return [
        *exports,
        ["filter", str(path), "--learned-only", "-o", str(out / "f.sialign")],
        ["filter", str(path), "--no-intra", "--eta-metric", "chrf", "-o", str(out / "g.sialign")],
        ["report", str(path), "-o", str(out / "r.txt")],
        ["compare", str(path), str(path), "-o", str(out / "c.tsv")],
        ["realign", str(path), "--model", "lexical", "--force", "-o", str(out / "a.sialign")],
        ["info", str(path)],
    ]


@pytest.mark.parametrize("seed", range(4))
def test_cli_fuzz_mutated_projects_through_every_reader(tmp_path: Path, capsys: pytest.CaptureFixture[str], seed: int) -> None:
    from sialign.io.project_file import project_checksum

    rng = random.Random(seed)
    base = with_history(saved_project(tmp_path))
    out = tmp_path / "out"
    out.mkdir()
    for n in range(3):
        data = copy.deepcopy(base)
        data["project"] = mutate(data["project"], rng)
        data["checksum"] = project_checksum(data["project"])
        path = tmp_path / f"m{n}.sialign"
        path.write_text(json.dumps(data), encoding="utf-8")
        for argv in project_commands(path, out):
            code = main(argv)
            assert_clean(code, capsys.readouterr().err, argv)


def numeric_options() -> list[tuple[str, str]]:
    """(command words, option) of every numeric option, from the parser itself."""
    import argparse

    found: list[tuple[str, str]] = []

    def walk(parser: argparse.ArgumentParser, words: str) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    walk(sub, f"{words} {name}".strip())
            elif hasattr(action.type, "number_range"):
                found.append((words, next(o for o in action.option_strings if o.startswith("--"))))

    walk(build_parser(), "")
    return found


def parses(parser: Any, argv: list[str]) -> int:
    try:
        parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    return 0


def with_option(parser: Any, words: str, option: str, values: list[str]) -> list[str]:
    """The shortest command line of ``words`` with ``option`` that parses when its value is in range."""
    low = NUMBER_RANGES[option][0]
    for positional in ([], ["a"], ["a", "b"], ["a", "1"], ["a", "--lang", "en"],
                       ["--pairs", "a", "--src-lang", "en", "--tgt-lang", "fr"],
                       ["a", "--src-lang", "en", "--tgt-lang", "ja", "--input-file", "b", "-o", "x.sialign"]):
        head = [*words.split(), *positional, "-o", "x.tsv"] if words in ("align", "corpus align", "retime") else [*words.split(), *positional]
        if parses(parser, [*head, option, *[f"{low:g}"] * len(values)]) == 0:
            return [*head, option, *values]
    raise AssertionError(f"no command line of {words} {option} parses")


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "-1", "0", "1000000000"])
def test_cli_fuzz_every_numeric_option_at_parse_time(value: str) -> None:
    """Out-of-range values stop at parsing with exit 64; in-range ones parse."""
    parser = build_parser()
    options = numeric_options()
    assert len(options) >= len(NUMBER_RANGES)
    for words, option in options:
        values = [value, "1"] if option == "--evs" else [value]
        argv = with_option(parser, words, option, values)
        low, high = NUMBER_RANGES[option]
        ok = low <= float(value) <= high and not (option == "--evs" and float(value) >= 1)
        code = parses(parser, argv)
        # --evs MIN MAX with MIN ≥ MAX parses; the command refuses it (64) before any work.
        assert code == (0 if ok or option == "--evs" and low <= float(value) <= high else EXIT_USAGE), (argv, code)


@pytest.mark.parametrize("value", ["nan", "inf", "-1", "0", "1000000000"])
def test_cli_fuzz_numeric_options_of_align_and_filter_run_clean(tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str) -> None:
    src, tgt = tmp_path / "talk.en.txt", tmp_path / "talk.fr.txt"
    src.write_text("Good morning.\nLet us begin.\nThank you.\n", encoding="utf-8")
    tgt.write_text("Bonjour.\nCommençons.\nMerci.\n", encoding="utf-8")
    project = saved_project(tmp_path)
    for option in ("--max-src", "--max-tgt", "--drop-threshold", "--pivot-weight", "--peel", "--rows"):
        argv = ["align", str(src), str(tgt), "-o", str(tmp_path / "x.tsv"), "--model", "lexical", "-q", f"{option}={value}"]
        assert_clean(main(argv), capsys.readouterr().err, argv)
    for option in ("--alpha-min", "--gamma-min", "--gamma-max", "--eta-min", "--doubt-max"):
        argv = ["filter", str(project), "--learned-only", "-o", str(tmp_path / "f.sialign"), f"{option}={value}"]
        assert_clean(main(argv), capsys.readouterr().err, argv)
    argv = ["align", str(src), str(tgt), "-o", str(tmp_path / "x.tsv"), "--model", "lexical", "-q", "--evs", value, "1e9"]
    assert_clean(main(argv), capsys.readouterr().err, argv)


def output_faults(tmp_path: Path) -> dict[str, Path]:
    (tmp_path / "a-folder").mkdir()
    loop = tmp_path / "loop.tsv"
    os.symlink(tmp_path / "loop2.tsv", loop)
    os.symlink(loop, tmp_path / "loop2.tsv")
    return {
        "folder": tmp_path / "a-folder",
        "symlink loop": loop,
        "long name": tmp_path / ("n" * 300 + ".tsv"),
        "missing folder": tmp_path / "nowhere" / "x.tsv",
        "file as folder": tmp_path / "talk.en.txt" / "x.tsv",
    }


def test_cli_fuzz_output_path_faults(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src, tgt = tmp_path / "talk.en.txt", tmp_path / "talk.fr.txt"
    src.write_text("Good morning.\nLet us begin.\n", encoding="utf-8")
    tgt.write_text("Bonjour.\nCommençons.\n", encoding="utf-8")
    project = saved_project(tmp_path)
    for fault, out in output_faults(tmp_path).items():
        for argv in (
            ["align", str(src), str(tgt), "--model", "lexical", "-q", "-f", "tsv", "-o", str(out)],
            ["export", str(project), "-f", "tsv", "-o", str(out)],
            ["convert", str(src), str(out), "--to", "tsv"],
            ["report", str(project), "-o", str(out)],
        ):
            code = main(argv)
            err = capsys.readouterr().err
            assert_clean(code, err, argv)
            # A report's name must say .html or .pdf: any other is a usage error, refused before the path is tried.
            named_wrong = argv[0] == "report" and out.suffix.lower() not in (".html", ".pdf")
            assert code == (EXIT_USAGE if named_wrong else EXIT_INPUT), f"{fault}: {argv}: {code} {err}"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_cli_fuzz_standard_output_on_a_full_device(tmp_path: Path) -> None:
    project = saved_project(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(DESKTOP)}
    for argv in (["export", str(project), "-f", "jsonl", "-o", "-"], ["export", str(project), "-f", "tmx", "-o", "-"], ["info", str(project)]):
        with open("/dev/full", "wb") as full:
            done = subprocess.run([sys.executable, "-m", "sialign", *argv], stdout=full, stderr=subprocess.PIPE, env=env, timeout=120)
        assert_clean(done.returncode, done.stderr.decode(), argv)
        assert done.returncode == EXIT_INPUT, (argv, done.stderr)
