"""Entry point of the frozen Linux program: ``sialign-gui`` is the desktop app, ``sialign`` (a link to it) the command line.

On Linux a program's console flag means nothing, so one executable serves
both, and the bundle carries its Python modules once instead of twice (about
30 MB). The name it was started by decides: ``sialign`` (the link, or
``/usr/bin/sialign`` of the Debian package) runs the command line, anything
else the desktop app. Windows and macOS keep two programs
(``launch_cli.py``, ``launch_gui.py``): there the console flag matters.
"""

from __future__ import annotations

import os
import sys

CLI_NAMES = ("sialign", "sialign.exe")


def runs_command_line(argv0: str) -> bool:
    """Whether a program started as ``argv0`` is the command line."""
    return os.path.basename(argv0).lower() in CLI_NAMES


def main() -> int:
    from sialign.core.frozen import prepare_frozen_process

    prepare_frozen_process()
    if runs_command_line(sys.argv[0] if sys.argv else ""):
        from sialign.cli.main import main as cli_main

        return cli_main()
    from sialign.gui.app import main as gui_main

    return int(gui_main() or 0)


if __name__ == "__main__":
    sys.exit(main())
