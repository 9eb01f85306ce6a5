"""The terminal's progress, one way for every command: a tqdm bar on standard error, and ``-q`` turns it off.

:func:`console_progress` draws the share of one long task (aligning, filtering,
transcribing); :class:`CountProgress` counts items done of a total (the talks
of a corpus), with plain lines where no bar fits. Both draw only on a terminal
and are silent under ``-q``; what went wrong is printed either way.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import TYPE_CHECKING

from sialign.core.progress import ProgressFn

if TYPE_CHECKING:
    from tqdm import tqdm

# A bar needs room: a terminal that reports fewer columns (0 under some
# serial consoles and CI runners) gets plain lines instead, or none.
MIN_BAR_COLUMNS = 40
# The bar's room for what the task is doing.
MESSAGE_WIDTH = 60


def add_quiet(parser: argparse.ArgumentParser, help: str = "no progress line") -> None:
    """``-q/--quiet``, as every command that draws progress has it."""
    parser.add_argument("-q", "--quiet", action="store_true", help=help)


def terminal_columns() -> int:
    """The width standard error's terminal reports (0 when it reports none)."""
    try:
        return os.get_terminal_size(sys.stderr.fileno()).columns
    except (OSError, ValueError, AttributeError):
        return 0


def _bar(total: int, unit: str) -> tqdm:
    from tqdm import tqdm

    return tqdm(total=total, unit=unit, file=sys.stderr, dynamic_ncols=True, leave=True)


class _TaskBar:
    """A ``progress(fraction, message)`` callback over a tqdm bar of 1,000 steps (a new bar after :meth:`close`)."""

    STEPS = 1000

    def __init__(self) -> None:
        self.bar: tqdm | None = None
        self.message = ""

    def __call__(self, fraction: float, message: str) -> None:
        if self.bar is None:
            self.bar = _bar(self.STEPS, "‰")
            self.bar.bar_format = "{percentage:5.1f}% |{bar}| {elapsed} {postfix}"
        step = round(min(1.0, max(0.0, fraction)) * self.STEPS)
        if step != self.bar.n or message != self.message:
            self.message = message
            self.bar.n = step
            self.bar.set_postfix_str(message[:MESSAGE_WIDTH], refresh=False)
            self.bar.refresh()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def console_progress(quiet: bool) -> ProgressFn | None:
    """A progress callback drawing a bar on a terminal's stderr (None: quiet, not a terminal, or no room)."""
    if quiet or not sys.stderr.isatty() or terminal_columns() < MIN_BAR_COLUMNS:
        return None
    return _TaskBar()


def end_progress(progress: ProgressFn | None) -> None:
    """End the progress bar (the next message starts on a line of its own)."""
    if isinstance(progress, _TaskBar):
        progress.close()


class CountProgress:
    """Items done of a total, with rate and time left: a tqdm bar on a terminal, plain lines otherwise.

    Called as ``progress(finished, total, item, line)`` (corpus mode's talks);
    under ``quiet`` only failures (a ``line`` starting with ``FAILED``) are printed.
    """

    def __init__(self, total: int, quiet: bool, unit: str = "talk") -> None:
        self.quiet = quiet
        self.unit = unit
        self.started = time.perf_counter()
        self.bar: tqdm | None = None
        if not quiet and sys.stderr.isatty() and terminal_columns() >= MIN_BAR_COLUMNS:
            self.bar = _bar(total, unit)

    def __call__(self, finished: int, total: int, item: str, line: str) -> None:
        if self.quiet:
            if line.startswith("FAILED"):
                print(f"{item}: {line}", file=sys.stderr)
            return
        if self.bar is not None:
            self.bar.n = finished
            self.bar.set_postfix_str(f"{item}: {line}"[:MESSAGE_WIDTH])
            self.bar.refresh()
            return
        elapsed = time.perf_counter() - self.started
        rate = finished / elapsed if elapsed > 0 else 0.0
        eta = (total - finished) / rate if rate > 0 else 0.0
        print(f"[{finished}/{total}] {item}: {line} ({rate * 60:.1f} {self.unit}s/min, ETA {eta:.0f} s)",
              file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


__all__ = ["CountProgress", "MIN_BAR_COLUMNS", "add_quiet", "console_progress", "end_progress", "terminal_columns"]
