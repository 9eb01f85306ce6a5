"""What this machine lets the process use."""

from __future__ import annotations

import os


def usable_cores() -> int:
    """Cores this process may run on (its CPU affinity where the platform tells it)."""
    affinity = getattr(os, "sched_getaffinity", None)  # Linux only
    if affinity is not None:
        try:
            return max(1, len(affinity(0)))
        except OSError:
            pass
    return max(1, os.cpu_count() or 1)
