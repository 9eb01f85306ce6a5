"""Wrong command-line arguments: the error the CLI reports with exit status 64, and the ranges of numeric options.

Every option that takes a number has its range in :data:`NUMBER_RANGES`;
:func:`check_number_ranges` gives each such option of a parser a type that
refuses NaN, infinities and values outside the range while the command line
is parsed, so no command checks them itself and a command with a numeric
option missing from the table fails to build (tests/cli catch that).
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from typing import NoReturn

from sialign.core.errors import SialignError, printable
from sialign.core.params import MAX_SRC_LIMIT, MAX_TGT_LIMIT


class UsageError(SialignError):
    """An option's value the command cannot use (out of range, unknown name…): exit status 64, as argparse's errors."""


def usage_error(message: str) -> NoReturn:
    """Raise :class:`UsageError` with ``message`` (one line naming the option)."""
    raise UsageError(message)


# The values each numeric option accepts, both ends included. The ends are
# sane rather than tight: wide enough for any real use, narrow enough that the
# work a value asks for fits a machine (--max-tgt 1e9 asked the DP for 715 GiB).
NUMBER_RANGES: dict[str, tuple[float, float]] = {
    "--lines": (0, 1_000_000),
    "--rows": (0, 1_000_000),
    "--max-chars": (2, 10_000),
    "--max-src": (1, MAX_SRC_LIMIT),
    "--max-tgt": (1, MAX_TGT_LIMIT),
    "--drop-threshold": (0.0, 100.0),
    "--evs": (-3600.0, 3600.0),
    "--pivot-weight": (0.0, 1.0),
    "--peel": (0.0, 100.0),
    "--alpha-min": (0.0, 1.0),
    "--gamma-min": (0.0, 1000.0),
    "--gamma-max": (0.0, 1000.0),
    "--eta-min": (0.0, 1.0),
    "--doubt-max": (0.0, 1.0),
    "--rendered-min": (0.0, 1.0),
    "--eps": (0.0, 1.0),
    "--jobs": (1, 1024),
    "--dev": (0, 10_000_000),
    "--test": (0, 10_000_000),
    "--seed": (0, 2**32 - 1),
    "--top": (1, 1000),
    "--threads": (1, 256),
    "--min-corpus": (1, 10_000_000),
    "--speed": (0.0, 1000.0),
}


def _number(kind: Callable[[str], float], low: float, high: float) -> Callable[[str], float]:
    """An argparse type: ``kind(text)`` when finite and within ``low..high``, else :class:`argparse.ArgumentTypeError`."""

    def parse(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            noun = "a whole number" if kind is int else "a number"
            raise argparse.ArgumentTypeError(f"needs {noun} between {low:g} and {high:g}, not {printable(repr(text))}") from None
        if not math.isfinite(value) or not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be between {low:g} and {high:g}, not {printable(text)}")
        return value

    parse.__name__ = getattr(kind, "__name__", "number")  # argparse names the type in its own messages
    parse.number_range = (low, high)  # type: ignore[attr-defined]
    return parse


def check_number_ranges(parser: argparse.ArgumentParser) -> None:
    """Give every ``type=int``/``type=float`` option of ``parser`` (and its subcommands) its range from :data:`NUMBER_RANGES`.

    Raises:
        KeyError: a numeric option has no range in the table (a defect found by the tests).
    """
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):
                check_number_ranges(sub)
        elif action.type in (int, float):
            name = next((o for o in action.option_strings if o.startswith("--")), action.dest)
            if name not in NUMBER_RANGES:
                raise KeyError(f"{parser.prog} {name}: a numeric option without a range in sialign.cli.usage.NUMBER_RANGES")
            low, high = NUMBER_RANGES[name]
            action.type = _number(action.type, low, high)
