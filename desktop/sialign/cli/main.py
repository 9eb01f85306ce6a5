"""``sialign`` — the command-line entry point.

Each subcommand lives in a module ``sialign.cli.cmd_<name>`` that defines
``NAME``, ``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``. The
modules only parse arguments and call library functions; heavy imports
happen inside ``run``, so ``sialign --help`` starts fast.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from types import ModuleType

import sialign
from sialign.core.errors import SialignError


def _command_modules() -> list[ModuleType]:
    import sialign.cli as pkg

    mods = []
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
        if info.name.startswith("cmd_"):
            mods.append(importlib.import_module(f"sialign.cli.{info.name}"))
    return sorted(mods, key=lambda m: getattr(m, "ORDER", 50))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sialign",
        description="SI Aligner: align a talk's transcript with its interpretation, review, export a parallel corpus.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"sialign {sialign.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for mod in _command_modules():
        p = sub.add_parser(
            mod.NAME,
            help=mod.HELP,
            description=getattr(mod, "DESCRIPTION", mod.HELP),
            formatter_class=argparse.ArgumentDefaultsHelpFormatter,
        )
        mod.add_arguments(p)
        p.set_defaults(_run=mod.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "_run", None):
        parser.print_help()
        return 0
    try:
        return int(args._run(args) or 0)
    except SialignError as exc:
        print(f"sialign {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"sialign {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
