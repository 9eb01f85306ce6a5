"""The PROJECT argument and its ``-o/--output``, as the commands that read one project and write a result take them."""

from __future__ import annotations

import argparse
from typing import TypedDict


def add_project_and_output(
    parser: argparse.ArgumentParser,
    *,
    project_metavar: str = "PROJECT.sialign",
    project_help: str = "an aligned project file",
    output_metavar: str = "OUT.sialign",
    output_help: str = "write the result here (default: overwrite PROJECT)",
) -> None:
    """Add ``project`` and ``-o/--output``; the defaults describe a command that rewrites the project in place."""
    parser.add_argument("project", metavar=project_metavar, help=project_help)
    parser.add_argument("-o", "--output", metavar=output_metavar, help=output_help)


def add_write_guard(parser: argparse.ArgumentParser, *, force_help: str | None = None) -> None:
    """Add ``--force`` and ``--discard-recovery``: the commands that write a ``.sialign`` project take both.

    A project has one writer at a time, and the desktop app's unsaved review
    beside it is never overwritten without being asked
    (:func:`sialign.workflows.outputs.save`). ``force_help`` rewords
    ``--force`` for a command that already gives it another meaning too.
    """
    parser.add_argument("--force", action="store_true",
                        help=force_help or "write the project even while SI Aligner or another command holds it open")
    parser.add_argument("--discard-recovery", action="store_true",
                        help="write the project even though the app's autosave or edit journal beside it holds unsaved "
                        "review (that review is lost)")


class WriteGuard(TypedDict):
    """What a command passes on about writing a held project or one with unsaved review."""

    force: bool
    discard_recovery: bool
    program: str


def write_guard(args: argparse.Namespace) -> WriteGuard:
    """The keyword arguments of :func:`~sialign.workflows.outputs.save` and ``export`` from the options above."""
    return {"force": bool(getattr(args, "force", False)),
            "discard_recovery": bool(getattr(args, "discard_recovery", False)),
            "program": f"sialign {getattr(args, 'command', '') or 'command'}"}
