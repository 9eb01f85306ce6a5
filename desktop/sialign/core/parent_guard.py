"""Worker processes that end with the process that started them.

A worker must not outlive what started it: a killed ``sialign corpus align``
once left two workers aligning on for minutes and writing projects into the
corpus folder that ``corpus.json`` did not list, racing the resumed run; a
practice session's engine or a transcription left running after the app
quit would hold the microphone and the CPU for nobody.

:func:`exit_with_parent` is called in each worker when it starts (the
process pool's initializer, the entry of a :mod:`sialign.workflows.worker_process`
child) or before its first talk (Dask). On Linux the kernel kills the worker
the moment its parent dies (``prctl PR_SET_PDEATHSIG``); everywhere a daemon
thread checks the parent every half second and ends the worker; and
:func:`parent_gone` lets a worker check once more just before it writes a
project.
"""

from __future__ import annotations

import ctypes
import logging
import os
import signal
import sys
import threading

log = logging.getLogger(__name__)

# Linux <sys/prctl.h>
_PR_SET_PDEATHSIG = 1
# How often the watchdog thread looks at the parent, in seconds.
POLL_SECONDS = 0.5
# The exit status of a worker whose run ended under it (128 + SIGKILL, as the kernel's kill would give).
ORPHAN_EXIT = 137

_watched: int | None = None


def exit_with_parent(parent_pid: int | None) -> None:
    """End this process as soon as the process ``parent_pid`` ends (a no-op for None or this process).

    Safe to call more than once: the first call for a pid installs the guard.

    Args:
        parent_pid: the process id of the run (the ``sialign corpus align``
            process, or the program that called :func:`align_corpus`).
    """
    global _watched
    if parent_pid is None or parent_pid == os.getpid() or _watched == parent_pid:
        return
    _watched = parent_pid
    if sys.platform.startswith("linux") and os.getppid() == parent_pid:
        _kill_me_with_parent()
    if parent_gone(parent_pid):  # it died before the guard was in place
        os._exit(ORPHAN_EXIT)
    thread = threading.Thread(target=_watch, args=(parent_pid,), name="sialign-parent-watch", daemon=True)
    thread.start()


def parent_gone(parent_pid: int | None = None) -> bool:
    """Whether the watched run (or ``parent_pid``) has ended."""
    pid = parent_pid if parent_pid is not None else _watched
    if pid is None or pid == os.getpid():
        return False
    if sys.platform == "win32":
        return not _windows_alive(pid)
    if os.getppid() != pid:
        # Reparented (to init or a subreaper) when the parent died; a pid
        # that never was our parent (Dask's nanny layout) is probed instead.
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        except PermissionError:
            return False
        return _is_zombie(pid)
    return False


def _is_zombie(pid: int) -> bool:
    """A dead process not yet reaped by its own parent still answers ``kill(pid, 0)``."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            state = fh.read().rsplit(b")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state in (b"Z", b"X")


def _kill_me_with_parent() -> None:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) != 0:
            log.debug("prctl(PR_SET_PDEATHSIG) failed: errno %d", ctypes.get_errno())
    except (OSError, AttributeError) as exc:  # no libc symbol: the watchdog thread still guards
        log.debug("prctl unavailable: %s", exc)


def _windows_alive(pid: int) -> bool:
    kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
    synchronize_and_query = 0x00100000 | 0x1000  # SYNCHRONIZE | PROCESS_QUERY_LIMITED_INFORMATION
    handle = kernel32.OpenProcess(synchronize_and_query, False, pid)
    if not handle:
        return False
    try:
        return bool(kernel32.WaitForSingleObject(handle, 0) != 0)  # 0: signalled, the process ended
    finally:
        kernel32.CloseHandle(handle)


def _watch(parent_pid: int) -> None:
    stop = threading.Event()
    while not stop.wait(POLL_SECONDS):
        if parent_gone(parent_pid):
            # No clean-up: whatever the worker was doing is for a run that is gone.
            os._exit(ORPHAN_EXIT)
            return  # (only reached where a test replaced os._exit)
