"""One terminal progress for every command: a tqdm bar on a terminal, nothing under -q or into a pipe."""

from __future__ import annotations

import argparse
import inspect
import io
import sys

import pytest

import sialign.cli.progress as progress_module
from sialign.cli.main import _command_modules, command_name
from sialign.cli.progress import console_progress, end_progress


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_every_command_that_draws_progress_takes_quiet() -> None:
    drawing = [mod for mod in _command_modules()
               if "console_progress(" in inspect.getsource(mod) or "CountProgress(" in inspect.getsource(mod)]
    assert {command_name(mod) for mod in drawing} >= {"align", "filter", "corpus", "demo", "realign", "retime"}
    for mod in drawing:
        parser = argparse.ArgumentParser()
        mod.add_arguments(parser)
        actions = [a for a in parser._actions if "--quiet" in a.option_strings]
        subparsers = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        for sub in subparsers:
            actions += [a for p in sub.choices.values() for a in p._actions if "--quiet" in a.option_strings]
        assert actions, f"sialign {command_name(mod)} draws progress but has no -q/--quiet"
        # Each command passes its -q on: none turns progress on for itself.
        assert "console_progress(True)" not in inspect.getsource(mod) and "console_progress(False)" not in inspect.getsource(mod)


def test_the_bar_is_drawn_on_a_terminal_and_ended(monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    monkeypatch.setattr(progress_module, "terminal_columns", lambda: 100)
    progress = console_progress(False)
    assert progress is not None
    progress(0.25, "embedding")
    progress(0.5, "aligning")
    end_progress(progress)
    drawn = terminal.getvalue()
    assert "25.0%" in drawn and "50.0%" in drawn and "aligning" in drawn and drawn.endswith("\n")
    progress(1.0, "done")  # a bar ended goes on as a new one (transcribe, then align)
    end_progress(progress)
    assert "100.0%" in terminal.getvalue()


@pytest.mark.parametrize(("quiet", "tty", "columns"), [(True, True, 100), (False, False, 100), (False, True, 0)])
def test_no_bar_under_quiet_into_a_pipe_or_without_room(monkeypatch: pytest.MonkeyPatch, quiet: bool, tty: bool,
                                                         columns: int) -> None:
    monkeypatch.setattr(sys, "stderr", _Terminal() if tty else io.StringIO())
    monkeypatch.setattr(progress_module, "terminal_columns", lambda: columns)
    assert console_progress(quiet) is None
