"""How the command line words the settings an error asks the user to change.

The layers below the front ends name what to change in their own terms and
list it in :attr:`~sialign.core.errors.SialignError.settings`; the command
line adds its own way to change each: the option of the running command
that sets it (``--max-tgt``), or the command that does (``sialign models add
FOLDER --default``).
"""

from __future__ import annotations

import argparse

from sialign.core.errors import SialignError, printable

# A setting set by options of other names (their destinations), in the commands that have them.
OPTION_NAMES: dict[str, tuple[str, ...]] = {
    "encoding": ("encoding", "src_encoding", "tgt_encoding", "ref_encoding"),
    "tier": ("tier", "src_tier", "tgt_tier"),
    "model_name": ("name",),
    "model_link": ("link",),
    "language": ("language", "src_lang"),
    "speech_model": ("whisper_model",),
    "write_held": ("force",),
}
# ... and where one command's option of that name means another setting (``--model`` is the embedder of
# ``align`` but the speech model of ``transcribe``).
COMMAND_OPTION_NAMES: dict[tuple[str, str], tuple[str, ...]] = {
    ("align", "embedder"): ("model",),
    ("demo", "embedder"): ("model",),
    ("realign", "embedder"): ("model",),
    ("transcribe", "speech_model"): ("model",),
    ("retime", "speech_model"): ("model",),
}
# The commands that change a setting, said beside the options.
COMMANDS: dict[str, str] = {
    "speech_model": "sialign models add FOLDER --default, or sialign models default NAME",
    "remove_model": "sialign models remove NAME",
    "project_file": "sialign export, report, filter, realign, terms and evs read a project; sialign-gui FILE opens it",
    "split_corpus": "sialign corpus split FOLDER",
    "source_times": "sialign retime",
    "align": "sialign align SOURCE TARGET -o TALK.sialign",
    "project_files": "in sialign-gui: File → Project properties…",
    "allowed_folders": "sialign allow FOLDER",
}


def _command_actions(parser: argparse.ArgumentParser, command: str) -> list[argparse.Action]:
    """The options of ``command`` and of its own subcommands (``sialign models add``)."""
    found: list[argparse.Action] = []
    pending = [p for action in parser._actions if isinstance(action, argparse._SubParsersAction)
               for name, p in action.choices.items() if name == command]
    while pending:
        sub = pending.pop()
        for action in sub._actions:
            if isinstance(action, argparse._SubParsersAction):
                pending += list(action.choices.values())
            elif action.option_strings:
                found.append(action)
    return found


def cli_ways(exc: SialignError, parser: argparse.ArgumentParser, command: str) -> list[str]:
    """The options of ``command`` (or the commands) that change the settings ``exc`` names, in their order."""
    if not exc.settings:
        return []
    actions = _command_actions(parser, command)
    ways: list[str] = []
    for setting in exc.settings:
        dests = COMMAND_OPTION_NAMES.get((command, setting)) or OPTION_NAMES.get(setting, (setting,))
        options = [max(a.option_strings, key=len) for a in actions if a.dest in dests]
        for way in options + ([COMMANDS[setting]] if setting in COMMANDS else []):
            if way not in ways:
                ways.append(way)
    return ways


def error_line(exc: SialignError, parser: argparse.ArgumentParser, command: str) -> str:
    """``exc`` on one line, followed by the command line's ways to change what it names: ``... (--max-src, --max-tgt)``."""
    text, ways = printable(exc), cli_ways(exc, parser, command)
    if not ways:
        return text
    # Inside a closing full stop: "... choose another name (--name)."
    stop = "." if text.endswith(".") and not text.endswith("..") else ""
    joined = "; ".join(ways) if any(" " in w for w in ways) else ", ".join(ways)
    return f"{text.removesuffix(stop)} ({joined}){stop}"


__all__ = ["COMMANDS", "COMMAND_OPTION_NAMES", "OPTION_NAMES", "cli_ways", "error_line"]
