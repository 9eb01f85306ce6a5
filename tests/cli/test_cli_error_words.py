"""The command line words the settings a library error names as its own options (or the command that changes them)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sialign.cli.error_words import cli_ways, error_line
from sialign.cli.main import EXIT_INPUT, build_parser, main
from sialign.core.errors import InputError, SialignError


@pytest.mark.parametrize(
    ("command", "settings", "ways"),
    [
        ("align", ("max_src", "max_tgt"), ["--max-src", "--max-tgt"]),
        ("align", ("embedder",), ["--model"]),  # align's --model is the embedder...
        ("filter", ("embedder",), ["--embedder"]),
        ("transcribe", ("speech_model",), ["--model", "sialign models add FOLDER --default, or sialign models default NAME"]),  # ... transcribe's the speech model
        ("align", ("speech_model",), ["--whisper-model", "sialign models add FOLDER --default, or sialign models default NAME"]),
        ("align", ("encoding",), ["--src-encoding", "--tgt-encoding", "--ref-encoding"]),
        ("corpus", ("dask", "jobs"), ["--dask", "--jobs"]),  # options of a command's own subcommands
        ("models", ("model_name", "model_link"), ["--name", "--link"]),
        ("info", ("max_tgt",), []),  # a setting the command does not have: nothing to add
    ],
)
def test_cli_error_words_name_the_running_commands_options(command: str, settings: tuple[str, ...], ways: list[str]) -> None:
    assert cli_ways(SialignError("x", settings=settings), build_parser(), command) == ways


def test_cli_error_words_keep_a_message_without_settings_as_it_is() -> None:
    exc = InputError("talk.srt", "caption 2 overlaps caption 1", line=7, hint="correct the times")
    assert error_line(exc, build_parser(), "align") == "talk.srt, line 7: caption 2 overlaps caption 1 — correct the times"


def test_cli_error_words_reach_the_user(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An overlap found by the reader, which names no option, is worded with the command's own option, on one line."""
    path = tmp_path / "overlap.srt"
    path.write_text("1\n00:00:01,000 --> 00:00:03,000\nHello\n\n2\n00:00:02,000 --> 00:00:04,000\nWorld\n", encoding="utf-8")
    assert main(["info", str(path)]) == EXIT_INPUT
    err = capsys.readouterr().err.strip()
    assert err.endswith("or let overlapping captions through (--allow-overlaps)") and len(err.splitlines()) == 1
