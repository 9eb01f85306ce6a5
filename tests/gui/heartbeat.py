"""Measuring how long the GUI thread cannot react while work runs elsewhere."""

from __future__ import annotations

import time
from collections.abc import Callable


def heartbeat_gaps(during: Callable[[], None], work_done: list[float], interval_ms: int = 10) -> list[float]:
    """Sorted gaps in seconds between beats of a GUI-thread QTimer while ``during()`` runs.

    Beats after the first time recorded in ``work_done`` (the moment the
    worker finished) are left out: drawing the result once it has landed is
    a single repaint after the wait, not a stall during it.
    """
    from PySide6.QtCore import QTimer

    beats: list[float] = []
    timer = QTimer()
    timer.setInterval(interval_ms)
    timer.timeout.connect(lambda: beats.append(time.perf_counter()))
    timer.start()
    during()
    timer.stop()
    end = work_done[-1] if work_done else float("inf")
    return sorted(b - a for a, b in zip(beats, beats[1:]) if b < end)


# A stall that a user notices and that no scheduler noise on a shared 2-core
# machine explains: work moved back onto the GUI thread (loading GiNZA there
# froze the window for 500-870 ms) shows far above it, while a busy machine's
# run of 100 ms gaps does not fail the suite at random.
STALL_LIMIT_S = 0.25
