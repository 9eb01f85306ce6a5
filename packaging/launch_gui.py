"""Entry point of the frozen desktop program ``sialign-gui`` (see launch_cli.py)."""

from __future__ import annotations

import multiprocessing
import os
import sys


def main() -> int:
    multiprocessing.freeze_support()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
    # No "Loading weights" bars from transformers: SI Aligner reports its own progress.
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    from sialign.gui.app import main as gui_main

    return int(gui_main() or 0)


if __name__ == "__main__":
    sys.exit(main())
