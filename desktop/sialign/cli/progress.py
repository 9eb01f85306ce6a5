"""The terminal's progress line: the one every command draws, and ``-q`` turns off."""

from __future__ import annotations

import argparse
import sys

from sialign.core.progress import ProgressFn


def add_quiet(parser: argparse.ArgumentParser, help: str = "no progress line") -> None:
    """``-q/--quiet``, as every command that draws the progress line has it."""
    parser.add_argument("-q", "--quiet", action="store_true", help=help)


def console_progress(quiet: bool) -> ProgressFn | None:
    """A progress callback drawing one line on a terminal's stderr (None: quiet, or not a terminal)."""
    if quiet or not sys.stderr.isatty():
        return None

    def show(fraction: float, message: str) -> None:
        print(f"\r{100 * fraction:5.1f}% {message[:60]:<60}", end="", file=sys.stderr, flush=True)

    return show


def end_progress(progress: ProgressFn | None) -> None:
    """End the progress line (the next message starts on a line of its own)."""
    if progress is not None:
        print(file=sys.stderr)


__all__ = ["add_quiet", "console_progress", "end_progress"]
