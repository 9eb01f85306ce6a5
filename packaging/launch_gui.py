"""Entry point of the frozen desktop program ``sialign-gui`` (offline; see sialign.core.frozen)."""

from __future__ import annotations

import sys


def main() -> int:
    from sialign.core.frozen import prepare_frozen_process

    prepare_frozen_process()
    from sialign.gui.app import main as gui_main

    return int(gui_main() or 0)


if __name__ == "__main__":
    sys.exit(main())
