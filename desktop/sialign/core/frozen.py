"""Start-up of the frozen (PyInstaller) programs ``sialign`` and ``sialign-gui``.

The bundle never reaches the network: the Hugging Face libraries are told so
before anything imports them, so a model name that is not a local folder fails
at once with SI Aligner's own message instead of waiting on a timeout.
"""

from __future__ import annotations

import multiprocessing
import os


def prepare_frozen_process() -> None:
    """Dispatch worker processes and set the offline environment; call first in a frozen entry point."""
    # torch and joblib may start worker processes; a frozen program must
    # dispatch them before running the application.
    multiprocessing.freeze_support()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
    # No "Loading weights" bars from transformers: SI Aligner reports its own progress.
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
