"""Progress and cancellation for long work.

Long functions take two plain callables, ``progress(fraction, message)`` and
``should_stop()``, so they can be driven from the CLI, a GUI worker thread or
a test stub alike. :func:`stage` splits one progress range into sub-ranges so
that stages (reading, embedding, aligning, filtering) share one bar.
"""

from __future__ import annotations

from collections.abc import Callable

from sialign.core.errors import AlignmentCancelled

# progress(fraction in 0..1, message): called from the worker's thread.
ProgressFn = Callable[[float, str], None]


StopFn = Callable[[], bool]


def no_progress(fraction: float, message: str) -> None:
    """A progress callback that ignores everything."""


def check_stop(should_stop: StopFn | None) -> None:
    """Raise :class:`AlignmentCancelled` when ``should_stop()`` says so."""
    if should_stop is not None and should_stop():
        raise AlignmentCancelled()


def stage(progress: ProgressFn | None, start: float, end: float) -> ProgressFn:
    """Map a sub-task's 0..1 progress onto ``start..end`` of the parent's.

    >>> seen = []
    >>> sub = stage(lambda f, m: seen.append(round(f, 2)), 0.5, 1.0)
    >>> sub(0.5, "half")
    >>> seen
    [0.75]
    """
    if progress is None:
        return no_progress
    span = end - start

    def sub(fraction: float, message: str) -> None:
        fraction = min(1.0, max(0.0, fraction))
        progress(start + span * fraction, message)

    return sub
