"""The command line behaves like the tools around it (issue 12): stdin/stdout, pipes, exit statuses, help."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from sialign.cli import main as cli_main
from sialign.cli.main import EXIT_BROKEN_PIPE, EXIT_INPUT, EXIT_INTERNAL, EXIT_USAGE, build_parser, main

sys.path.insert(0, str(Path(__file__).parent))
from test_cli_align import talk  # noqa: F401  (fixture)
from test_cli_io import SRT, saved_project

DESKTOP = Path(__file__).resolve().parents[2] / "desktop"


@pytest.fixture(autouse=True)
def _autosaves_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SIALIGN_AUTOSAVE_DIR", str(tmp_path / "autosave"))


def run_cli(*args: str | bytes, input: bytes | None = None, env: dict[str, str] | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    full_env = {**os.environ, "PYTHONPATH": str(DESKTOP), **(env or {})}
    return subprocess.run([sys.executable, "-m", "sialign", *args], input=input, capture_output=True, env=full_env, cwd=cwd, timeout=120)


# ---------------------------------------------------------------------------
# standard input and output


def test_cli_behaviour_info_reads_stdin() -> None:
    done = run_cli("info", "-", input=SRT.encode("utf-8"))
    assert done.returncode == 0, done.stderr
    assert b"SubRip" in done.stdout and b"Good morning." in done.stdout


def test_cli_behaviour_info_stdin_textgrid_lists_tiers() -> None:
    text = (
        'File type = "ooTextFile"\nObject class = "TextGrid"\n\nxmin = 0\nxmax = 2\ntiers? <exists>\nsize = 1\nitem []:\n'
        '    item [1]:\n        class = "IntervalTier"\n        name = "speech"\n        xmin = 0\n        xmax = 2\n'
        '        intervals: size = 1\n        intervals [1]:\n            xmin = 0\n            xmax = 1\n            text = "hi"\n'
    )
    done = run_cli("info", "-", input=text.encode("utf-8"))
    assert done.returncode == 0, done.stderr
    assert b"speech (interval)" in done.stdout


def test_cli_behaviour_convert_stdin_to_file(tmp_path: Path) -> None:
    out = tmp_path / "out.vtt"
    done = run_cli("convert", "-", str(out), input=SRT.encode("utf-8"))
    assert done.returncode == 0, done.stderr
    assert out.read_text(encoding="utf-8").startswith("WEBVTT")
    assert done.stdout == b"" and b"Wrote 2 segments" in done.stderr


def test_cli_behaviour_convert_to_stdout(tmp_path: Path) -> None:
    src = tmp_path / "a.srt"
    src.write_text(SRT, encoding="utf-8")
    done = run_cli("convert", str(src), "-", "--to", "txt")
    assert done.returncode == 0, done.stderr
    assert done.stdout == b"Good morning.\nLet us begin.\n"


def test_cli_behaviour_export_to_stdout_carries_only_data(tmp_path: Path) -> None:
    project = saved_project(tmp_path)
    done = run_cli("export", str(project), "-o", "-", "-f", "jsonl")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.decode("utf-8").splitlines()
    assert len(lines) == 2 and all(line.startswith("{") for line in lines)
    assert b"Wrote 2 of 3 beads to - (jsonl)" in done.stderr
    assert not list(tmp_path.glob("*.jsonl")) and not (tmp_path / "-").exists()


def test_cli_behaviour_align_to_stdout(talk: Path, capfd: pytest.CaptureFixture[str]) -> None:  # noqa: F811
    args = ["align", str(talk / "talk.en.srt"), str(talk / "talk.ja.srt"), "-o", "-", "-f", "tsv", "--model", "lexical"]
    assert main(args) == 0
    captured = capfd.readouterr()
    rows = captured.out.splitlines()
    assert rows[0].startswith("talk\tsrc_ids\ttgt_ids")
    assert all(len(r.split("\t")) == 17 for r in rows)  # PARALLEL_TSV_COLUMNS
    assert "wrote" in captured.err


# ---------------------------------------------------------------------------
# pipes, encodings, file names


def test_cli_behaviour_broken_pipe_is_quiet(tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    big.write_text("".join(f"line number {i}\n" for i in range(60_000)), encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, "-m", "sialign", "info", str(big), "--lines", "60000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(DESKTOP)},
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()  # like 'head -1'
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == EXIT_BROKEN_PIPE
    assert b"Traceback" not in err and b"BrokenPipe" not in err


def test_cli_behaviour_ascii_output_encoding(tmp_path: Path) -> None:
    path = tmp_path / "ja.txt"
    path.write_text("皆さん、おはようございます。\n今日は川の話です。\n", encoding="utf-8")
    done = run_cli("info", str(path), env={"PYTHONIOENCODING": "ascii"})
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr
    assert b"\\u7686" in done.stdout  # 皆, escaped instead of crashing


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file names are bytes")
def test_cli_behaviour_non_utf8_file_name(tmp_path: Path) -> None:
    name = os.fsencode(str(tmp_path)) + b"/talk-\xff.srt"
    with open(name, "wb") as fh:
        fh.write(SRT.encode("utf-8"))
    out = tmp_path / "p.tsv"
    done = run_cli("convert", name, str(out), env={"PYTHONIOENCODING": "utf-8"})
    assert done.returncode == 0, done.stderr
    done = run_cli("info", name, "--format", "eaf")
    assert done.returncode == EXIT_INPUT and b"Traceback" not in done.stderr
    assert done.stderr.count(b"\n") == 1


# ---------------------------------------------------------------------------
# exit statuses and messages


def test_cli_behaviour_exit_statuses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["info", "--no-such-option"]) == EXIT_USAGE
    assert main(["no-such-command"]) == EXIT_USAGE
    assert main(["info", str(tmp_path / "missing.txt")]) == EXIT_INPUT
    assert main(["--version"]) == 0
    capsys.readouterr()

    import sialign.cli.cmd_info as cmd_info

    def broken(args: object) -> int:
        raise RuntimeError("a defect")

    monkeypatch.setattr(cmd_info, "run", broken)
    assert main(["info", "x"]) == EXIT_INTERNAL
    err = capsys.readouterr().err
    assert err.startswith("sialign info: internal error: RuntimeError: a defect") and err.count("\n") == 1


def test_cli_behaviour_full_disk_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    project = saved_project(tmp_path)
    link = tmp_path / "out.tsv"
    link.symlink_to("/dev/full")
    assert main(["export", str(project), "-o", str(link)]) == EXIT_INPUT
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "No space left on device" in err and "the disk is full" in err and ".tmp" not in err


def test_cli_behaviour_help_says_each_default_once() -> None:
    parser = build_parser()
    subparsers = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    for name, sub in subparsers.choices.items():
        text = sub.format_help()
        assert "(default: None)" not in text, name
        for action in sub._actions:
            if action.help:
                rendered = sub._get_formatter()._get_help_string(action) or ""
                assert rendered.replace("%(default)s", "X").lower().count("(default") <= 1, (name, action.dest, rendered)
    assert "exit statuses" in parser.format_help()


def test_cli_behaviour_completion_scripts() -> None:
    pytest.importorskip("shtab")
    for shell in ("bash", "zsh"):
        done = run_cli("completion", shell)
        assert done.returncode == 0, done.stderr
        assert b"sialign" in done.stdout and b"convert" in done.stdout
    done = run_cli("completion", "bash")
    check = subprocess.run(["bash", "-n"], input=done.stdout, capture_output=True)
    assert check.returncode == 0, check.stderr


def test_cli_behaviour_gui_version() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "sialign.gui.app", "--version"],
        capture_output=True,
        env={**os.environ, "PYTHONPATH": str(DESKTOP), "QT_QPA_PLATFORM": "offscreen"},
        timeout=60,
    )
    assert done.returncode == 0
    assert done.stdout.strip().startswith(b"sialign-gui ")


def test_cli_behaviour_main_module_constants() -> None:
    codes = [code for code, _ in cli_main.EXIT_STATUSES]
    assert len(codes) == len(set(codes))


@pytest.mark.skipif(not os.path.exists("/dev/stdout"), reason="no /dev/stdout")
def test_cli_behaviour_export_to_dev_stdout_keeps_the_link(tmp_path: Path) -> None:
    project = saved_project(tmp_path)
    was_link = os.path.islink("/dev/stdout")
    done = run_cli("export", str(project), "-o", "/dev/stdout", "-f", "tsv2")
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode("utf-8").splitlines()[0] == "Good morning.\tおはようございます。"
    assert os.path.islink("/dev/stdout") == was_link
    assert not list(Path("/dev").glob(".stdout.*.tmp"))


def test_cli_behaviour_process_substitution_like_pipe(tmp_path: Path) -> None:
    import threading

    project = saved_project(tmp_path)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    done = run_cli("export", str(project), "-o", str(fifo), "-f", "jsonl")
    reader.join(30)
    assert done.returncode == 0, done.stderr
    assert len(received[0].splitlines()) == 2
    assert fifo.is_fifo()
