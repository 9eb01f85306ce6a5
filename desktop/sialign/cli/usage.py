"""Wrong command-line arguments found after parsing: the error the CLI reports with exit status 64."""

from __future__ import annotations

from typing import NoReturn

from sialign.core.errors import SialignError


class UsageError(SialignError):
    """An option's value the command cannot use (out of range, unknown name…): exit status 64, as argparse's errors."""


def usage_error(message: str) -> NoReturn:
    """Raise :class:`UsageError` with ``message`` (one line naming the option)."""
    raise UsageError(message)
