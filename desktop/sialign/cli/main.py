"""``sialign`` — the command-line entry point.

Each subcommand lives in a module ``sialign.cli.cmd_<name>`` that defines
``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``; its docstring
after the first line is the command's description (``NAME``, ``DESCRIPTION``
and ``ORDER`` may override the module name, the docstring and the place in
:data:`COMMANDS`). The
modules only parse arguments and call library functions; heavy imports
happen inside ``run``, so ``sialign --help`` starts fast.

Standard output carries only data (exports to ``-``, ``info``, reports);
status lines ("Wrote 34 of 35 beads...") go to standard error.

Exit statuses (also in docs/cli.md and in ``sialign --help``): 0 success;
2 a file cannot be read or written as asked; 64 wrong arguments; 70 an
internal error; 130 interrupted; 141 standard output closed early.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import logging
import os
import pkgutil
import sys
from pathlib import Path
from types import ModuleType

import sialign
from sialign.cli.error_words import error_line
from sialign.cli.usage import UsageError, check_number_ranges
from sialign.core.errors import (
    OutputIsInputError,
    OutputNameError,
    ProjectBusyError,
    SialignError,
    UnknownLanguageError,
    printable,
)

EXIT_OK = 0
EXIT_INPUT = 2  # a file cannot be read or written as asked (bad input, disk full...)
EXIT_INTERNAL = 70  # a defect of SI Aligner (sysexits EX_SOFTWARE)
EXIT_USAGE = 64  # wrong command-line arguments (sysexits EX_USAGE)
EXIT_BUSY = 75  # the project is held by another program, or the app's unsaved review stands beside it (EX_TEMPFAIL)
EXIT_INTERRUPTED = 130  # Ctrl+C
EXIT_BROKEN_PIPE = 141  # the reader of standard output went away (as a SIGPIPE death)

# Errors of a write to standard output that say where it goes is full or broken (> /dev/full).
_STREAM_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EFBIG, errno.EROFS})

EXIT_STATUSES = (
    (EXIT_OK, "success"),
    (EXIT_INPUT, "a file cannot be read or written as asked (the message names it and the fix)"),
    (EXIT_USAGE, "wrong command-line arguments"),
    (EXIT_BUSY, "the project is open in SI Aligner or another command, or the app holds unsaved review of it "
                "(the message names which; --force or --discard-recovery writes anyway)"),
    (EXIT_INTERNAL, "internal error of SI Aligner (run again with --debug for the traceback and report it)"),
    (EXIT_INTERRUPTED, "interrupted"),
    (EXIT_BROKEN_PIPE, "standard output was closed early (for example by 'head')"),
)


class HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Adds "(default: X)" only where the help text does not already say the default.

    Defaults of None, False and empty values mean "not given" and are not
    shown, so no option reads "(default 4) (default: None)".
    """

    def _get_help_string(self, action: argparse.Action) -> str | None:
        help_text = action.help or ""
        default = action.default
        if (
            "default" in help_text.lower()
            or "%(default)" in help_text
            or default is None
            or default is False
            or default == []
            or default is argparse.SUPPRESS
            or action.option_strings == []
            or isinstance(action, (argparse._StoreTrueAction, argparse._HelpAction, argparse._VersionAction))
        ):
            return help_text
        return help_text + " (default: %(default)s)"


class ArgumentParser(argparse.ArgumentParser):
    """argparse with the usage-error exit status :data:`EXIT_USAGE` and a two-line error.

    The usage block is left out (it hid the one line that matters); the
    second line says where the options are. ``-h`` is unchanged.
    """

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}{did_you_mean(message)}\nrun '{self.prog} -h' for the options\n")


def did_you_mean(message: str) -> str:
    """``" — did you mean 'align'?"`` for argparse's "invalid choice: 'algn' (choose from ...)", else ``""``."""
    import difflib
    import re

    match = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
    if match is None:
        return ""
    choices = re.findall(r"'([^']*)'", match.group(2))
    close = difflib.get_close_matches(match.group(1), choices, n=1, cutoff=0.6)
    return f" — did you mean '{close[0]}'?" if close else ""


def _exit_status_epilog() -> str:
    return "exit statuses: " + "; ".join(f"{code} {what}" for code, what in EXIT_STATUSES)


# The order ``sialign --help`` lists the subcommands in; a ``cmd_*`` module
# not named here comes after them (or where its ``ORDER`` puts it).
COMMANDS = ("info", "convert", "segment", "align", "filter", "export", "eval", "evs", "models", "demo", "doctor", "completion")


def command_name(mod: ModuleType) -> str:
    """A subcommand's name: its ``NAME``, else its module name without ``cmd_``."""
    return str(getattr(mod, "NAME", mod.__name__.rsplit(".", 1)[-1].removeprefix("cmd_")))


def _command_modules() -> list[ModuleType]:
    import sialign.cli as pkg

    mods = []
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
        if info.name.startswith("cmd_"):
            mods.append(importlib.import_module(f"sialign.cli.{info.name}"))

    def order(mod: ModuleType) -> float:
        name = command_name(mod)
        return getattr(mod, "ORDER", COMMANDS.index(name) if name in COMMANDS else len(COMMANDS))

    return sorted(mods, key=order)


def command_description(mod: ModuleType) -> str:
    """A subcommand's long description: ``DESCRIPTION``, else its module docstring after the first line, else ``HELP``."""
    if hasattr(mod, "DESCRIPTION"):
        return str(mod.DESCRIPTION)
    parts = (mod.__doc__ or "").strip().split("\n\n", 1)
    return " ".join(parts[1].split()) if len(parts) > 1 else str(mod.HELP)


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(
        prog="sialign",
        description="SI Aligner: align a talk's transcript with its interpretation, review, export a parallel corpus.",
        epilog=_exit_status_epilog() + ". Files named '-' are standard input or output.",
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"sialign {sialign.__version__}")
    parser.add_argument("-v", "--verbose", action="count", default=0,
                        help="log what is being done to standard error (-vv: every detail)")
    parser.add_argument("--debug", action="store_true",
                        help="log every detail and show the traceback of an internal error (as SIALIGN_DEBUG=1)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=ArgumentParser)
    for mod in _command_modules():
        p = sub.add_parser(
            command_name(mod),
            help=mod.HELP,
            description=command_description(mod),
            formatter_class=HelpFormatter,
        )
        mod.add_arguments(p)
        p.set_defaults(_run=mod.run)
    check_number_ranges(parser)
    return parser


def _safe_streams() -> None:
    """Printing never fails on an encoding (PYTHONIOENCODING=ascii, a cp1252 console).

    Characters the stream cannot encode are written as backslash escapes;
    data written to ``-`` goes to the byte stream as UTF-8 anyway.
    """
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors="backslashreplace")
            except (ValueError, OSError):  # a closed or detached stream
                pass


def _silence_stdout() -> None:
    """After a broken pipe: point stdout at the null device so the final flush is quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def configure_logging(verbose: int = 0, debug: bool = False) -> None:
    """Log records of ``sialign.*`` go to standard error: warnings by default, more with -v/-vv/--debug."""
    level = logging.DEBUG if debug or verbose >= 2 else logging.INFO if verbose == 1 else logging.WARNING
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("sialign: %(levelname)s: %(name)s: %(message)s"))
    logger = logging.getLogger("sialign")
    for old in [h for h in logger.handlers if getattr(h, "_sialign_cli", False)]:
        logger.removeHandler(old)
    handler._sialign_cli = True  # type: ignore[attr-defined]
    logger.addHandler(handler)
    logger.setLevel(level)


# The options through which commands write files; every other file named on the command line is read.
OUTPUT_OPTIONS = {"output": "-o", "json": "--json", "events": "--events", "recording": "--recording"}


def refuse_output_over_input(args: argparse.Namespace) -> None:
    """Refuse, before any work, a command whose output names one of the files it reads.

    ``sialign export v.sialign -f jsonl -o v.sialign`` would replace the
    reviewed project by its export; ``convert v.srt v.srt`` a transcript by
    itself half-written. Every string argument naming an existing file is an
    input, whatever the command. A command that rewrites its project (filter,
    realign) may be given the project itself as ``-o``: that is its default.

    Raises:
        OutputIsInputError: an output and an input are the same file.
    """
    from sialign.workflows.outputs import check_not_an_input

    values = vars(args)
    module = sys.modules.get(getattr(args._run, "__module__", ""), None)
    in_place = set(getattr(module, "IN_PLACE", ()))
    # How the command's usage line names its arguments, where not as their upper-cased names (convert's IN and OUT).
    names = {"output": "-o", **getattr(module, "ARGUMENT_NAMES", {})}
    inputs: list[tuple[str, str]] = []
    folders: list[tuple[str, str]] = []
    for dest, value in values.items():
        if dest.startswith("_") or dest in OUTPUT_OPTIONS:
            continue
        for item in value if isinstance(value, list) else [value]:
            if not isinstance(item, str) or item in ("", "-"):
                continue
            if os.path.isfile(os.path.expanduser(item)):
                inputs.append((dest, item))
            elif os.path.isdir(os.path.expanduser(item)):
                folders.append((dest, item))
    for dest, option in OUTPUT_OPTIONS.items():
        output = values.get(dest)
        if not isinstance(output, str) or output in ("", "-"):
            continue
        # What a project or a corpus stands on is an input too; only a file that exists can be one.
        exists = os.path.exists(os.path.expanduser(output))
        reads: list[tuple[str, str | Path | None]] = []
        for dest_in, item in inputs:
            named = f"the input {names.get(dest_in, dest_in.upper())}"
            if not (dest == "output" and dest_in in in_place):
                reads.append((named, item))
            if exists:
                reads.extend(standing_on(item, named))
        if exists:
            for dest_in, item in folders:
                reads.extend(standing_on(item, f"the input {names.get(dest_in, dest_in.upper())}"))
        check_not_an_input(output, reads, names.get(dest, option))


def remember_command_line_files(args: argparse.Namespace) -> None:
    """The folders of the files named on the command line become ones a project may name files in.

    A transcript or recording the user names is their own choice, so the
    project made from it may be read again later (see
    :mod:`sialign.core.stored_files`). Projects and outputs are left out:
    naming a project does not make what it names trusted.
    """
    from sialign.core.file_kind import PROJECT_SUFFIX
    from sialign.core.stored_files import remember_chosen

    chosen: list[str] = []
    for dest, value in vars(args).items():
        if dest.startswith("_") or dest in OUTPUT_OPTIONS:
            continue
        for item in value if isinstance(value, list) else [value]:
            if (isinstance(item, str) and item not in ("", "-") and not item.lower().endswith(PROJECT_SUFFIX)
                    and os.path.isfile(os.path.expanduser(item))):
                chosen.append(item)
    if chosen:
        remember_chosen(chosen)


def standing_on(path: str, named: str) -> list[tuple[str, str | Path | None]]:
    """The files an input stands on: a project's transcripts and recordings; a corpus folder's state, manifest and talks.

    Nothing for any other file (or one that cannot be read: the command itself says why).
    """
    from sialign.core.file_kind import is_project_file
    from sialign.corpus.outputs import corpus_files
    from sialign.workflows.outputs import project_files

    found: list[tuple[str, str | Path | None]] = []
    expanded = Path(path).expanduser()
    if expanded.is_dir():
        found.extend(corpus_files(expanded, named))
        return found
    if is_project_file(expanded) and expanded.is_file():
        found.extend((f"{what} named by {named}", file) for what, file in project_files(expanded))
    return found


def main(argv: list[str] | None = None) -> int:
    _safe_streams()
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0) if not isinstance(exc.code, str) else EXIT_USAGE
    debug = bool(getattr(args, "debug", False) or os.environ.get("SIALIGN_DEBUG"))
    configure_logging(getattr(args, "verbose", 0), debug)
    if not getattr(args, "_run", None):
        parser.print_help()
        return EXIT_OK
    try:
        refuse_output_over_input(args)
        remember_command_line_files(args)
        code = int(args._run(args) or 0)
        sys.stdout.flush()
        return code
    except ProjectBusyError as exc:  # another program holds the project, or the app's unsaved review would be lost
        print(f"sialign {args.command}: error: {error_line(exc, parser, args.command)}", file=sys.stderr)
        return EXIT_BUSY
    except (OutputIsInputError, OutputNameError) as exc:  # refused before any work: a usage error, in the one line that says it all
        print(f"sialign {args.command}: error: {printable(exc)}", file=sys.stderr)
        return EXIT_USAGE
    except (UsageError, UnknownLanguageError) as exc:  # an option's value the command cannot use: as argparse's own errors
        print(f"sialign {args.command}: error: {error_line(exc, parser, args.command)}\nrun 'sialign {args.command} -h' for the options",
              file=sys.stderr)
        return EXIT_USAGE
    except SialignError as exc:  # the settings it names are worded as this command's options
        print(f"sialign {args.command}: error: {error_line(exc, parser, args.command)}", file=sys.stderr)
        return EXIT_INPUT
    except KeyboardInterrupt:
        print(f"sialign {args.command}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except OSError as exc:  # the operating system refused a file or the output stream: as a file that cannot be written
        from sialign.core.atomic import STDOUT_LABEL, output_error

        if exc.filename is not None:
            message = f"{exc.filename}: {exc.strerror or exc}"
        elif exc.errno in _STREAM_ERRNOS:
            message = str(output_error(STDOUT_LABEL, exc))
        else:
            return _internal_error(args.command, exc, debug)
        print(f"sialign {args.command}: error: {printable(message)}", file=sys.stderr)
        _silence_stdout()
        return EXIT_INPUT
    except Exception as exc:
        return _internal_error(args.command, exc, debug)


def _internal_error(command: str, exc: BaseException, debug: bool) -> int:
    """Report a defect in one line (where it happened, no traceback unless ``debug``): exit status 70."""
    if debug:
        raise exc
    where = ""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is not None:
        where = f" at {os.path.basename(tb.tb_frame.f_code.co_filename)}:{tb.tb_lineno}"
    print(
        f"sialign {command}: internal error: {type(exc).__name__}: {printable(str(exc)[:200])}{where} — "
        "this is a defect of SI Aligner; run again with --debug for the details and report them",
        file=sys.stderr,
    )
    return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
