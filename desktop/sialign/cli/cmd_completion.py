"""``sialign completion`` — print a shell completion script.

Print a script that completes sialign's commands, options and choices in your shell. bash: sialign
completion bash > ~/.local/share/bash-completion/completions/sialign; zsh: sialign completion zsh >
~/.zfunc/_sialign (with ~/.zfunc in fpath); tcsh: sialign completion tcsh > ~/.sialign.tcsh and
'source' it from ~/.tcshrc. The script's first lines say the same.
"""

from __future__ import annotations

import argparse

HELP = "print a tab-completion script for bash, zsh or tcsh"

# Where each shell finds the script: the one place the module help, the
# script's own header and docs/cli.md take it from (tests check they agree).
INSTALL = {
    "bash": "sialign completion bash > ~/.local/share/bash-completion/completions/sialign",
    "zsh": "sialign completion zsh > ~/.zfunc/_sialign   (with ~/.zfunc in fpath)",
    "tcsh": "sialign completion tcsh > ~/.sialign.tcsh   (and 'source ~/.sialign.tcsh' in ~/.tcshrc)",
}


def script_header(shell: str) -> str:
    """The comment that opens the script: what it is and how to install it."""
    return f"# Tab completion of sialign for {shell}. Install it with:\n#   {INSTALL[shell]}\n"


def with_our_header(script: str, shell: str) -> str:
    """``script`` with the generator's usage comment (it named other install paths) replaced by :func:`script_header`.

    A ``#compdef`` line (zsh reads it) stays first.
    """
    lines = script.splitlines(keepends=True)
    first = [lines.pop(0)] if lines and lines[0].startswith("#compdef") else []
    while lines and (lines[0].startswith("#") or not lines[0].strip()):
        lines.pop(0)
    return "".join(first) + script_header(shell) + "\n" + "".join(lines)


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
    sys.stdout.write(with_our_header(shtab.complete(parser, shell=args.shell), args.shell))
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
