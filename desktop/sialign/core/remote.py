"""Errors that cross from a worker process to the one that waits for it, and ending a worker.

The scoring process (:mod:`sialign.filters.remote`) and the workers of
:mod:`sialign.workflows.worker_process` send an exception and its traceback
back to their caller: :func:`portable_error` makes the exception survive
pickling, and :class:`RemoteTraceback` carries the worker's traceback as the
``__cause__`` of the error raised again in the caller.
"""

from __future__ import annotations

import pickle
from typing import Protocol

from sialign.core.errors import SialignError


class RemoteTraceback(Exception):
    """A worker's traceback, chained as ``__cause__`` of an error raised again in the caller.

    Args:
        text: the formatted traceback.
        where: how the worker is called in the message ("the scoring process").
    """

    def __init__(self, text: str, where: str = "the worker process") -> None:
        super().__init__(text)
        self.text = text
        self.where = where

    def __str__(self) -> str:
        return f"\n\nin {self.where}:\n{self.text}"


def portable_error(exc: BaseException) -> BaseException:
    """``exc`` if it survives pickling, else an equivalent that does.

    An exception whose ``__init__`` takes other arguments than its message
    (``InputError(path, message, line=...)``) cannot be rebuilt from its
    pickled ``args``: an application error then crosses as a plain
    :class:`SialignError` with the same text and settings, a memory error as
    one, anything else as a ``RuntimeError`` naming the type.
    """
    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:
        if isinstance(exc, SialignError):
            return SialignError(str(exc), settings=exc.settings)
        if isinstance(exc, MemoryError):
            return MemoryError(str(exc))
        return RuntimeError(f"{type(exc).__name__}: {exc}")


def one_line(text: str) -> str:
    """``text`` on one line (a message from another process is shown in a status line)."""
    return " ".join(str(text).split())


class _Process(Protocol):
    def join(self, timeout: float | None = None) -> None: ...
    def is_alive(self) -> bool: ...
    def terminate(self) -> None: ...
    def kill(self) -> None: ...


def end_process(process: _Process, grace_s: float = 0.0) -> None:
    """Let a worker process end within ``grace_s`` seconds, then terminate it, then kill it (a second each)."""
    if grace_s > 0:
        process.join(grace_s)
    if process.is_alive():
        process.terminate()
        process.join(1.0)
        if process.is_alive():
            process.kill()
            process.join(1.0)


__all__ = ["RemoteTraceback", "end_process", "one_line", "portable_error"]
