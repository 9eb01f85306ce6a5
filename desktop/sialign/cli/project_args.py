"""The PROJECT argument and its ``-o/--output``, as the commands that read one project and write a result take them."""

from __future__ import annotations

import argparse


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
