"""``sialign completion`` — print a shell completion script.

Print a script that completes sialign's commands, options and choices in your shell. bash: sialign
completion bash > ~/.local/share/bash-completion/completions/sialign; zsh: sialign completion zsh >
~/.zfunc/_sialign (with ~/.zfunc in fpath); tcsh: sialign completion tcsh > ~/.sialign.tcsh and
'source' it from ~/.tcshrc.
"""

from __future__ import annotations

import argparse

HELP = "print a tab-completion script for bash, zsh or tcsh"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("shell", choices=["bash", "zsh", "tcsh"], help="the shell to complete in")


def run(args: argparse.Namespace) -> int:
    import sys

    from sialign.cli.main import build_parser
    from sialign.core.errors import SialignError

    try:
        import shtab
    except ImportError:
        raise SialignError("shell completion needs the 'shtab' package: pip install shtab") from None
    parser = build_parser()
    # File arguments complete file names; everything else comes from the parser.
    for action in _all_actions(parser):
        if action.metavar in ("FILE", "IN", "OUT", "PROJECT", "PROJECT.sialign", "OUT.sialign", "SRC", "TGT", "REF", "HYP", "GOLD"):
            action.complete = shtab.FILE  # type: ignore[attr-defined]
    sys.stdout.write(shtab.complete(parser, shell=args.shell))
    return 0


def _all_actions(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    actions: list[argparse.Action] = []
    stack = [parser]
    while stack:
        p = stack.pop()
        for action in p._actions:
            actions.append(action)
            if isinstance(action, argparse._SubParsersAction):
                stack.extend(action.choices.values())
    return actions
