"""One writer per project: an advisory lock on ``NAME.sialign.lock`` beside the project file.

The desktop app holds the lock while a project is open; a command that
rewrites a project (``filter``, ``realign``, ``align -o``, corpus mode) holds
it while it writes. A second holder is refused and told who holds the
project: the lock file carries the holder's program, process, host and start
time as one JSON line.

The lock is the operating system's (``flock`` on POSIX, ``msvcrt.locking``
on Windows), so it goes with the process that held it: a lock file left by a
process that died is taken over without a question. Within one process a
project is locked once and shared (the app's Save while it holds the project
open is no second writer).
"""

from __future__ import annotations

import json
import logging
import os
import socket
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from sialign.core.errors import ProjectBusyError

log = logging.getLogger(__name__)

LOCK_SUFFIX = ".lock"

# Windows locks a byte range; one byte far past the holder's line, so readers can still read that line.
_WINDOWS_LOCK_OFFSET = 1 << 20


@dataclass(frozen=True)
class Holder:
    """Who holds a project: ``program`` (``SI Aligner``, ``sialign filter``), process id, host and since when."""

    program: str
    pid: int
    host: str
    since: float

    def describe(self) -> str:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(self.since)) if self.since else "an unknown time"
        where = "this computer" if self.host == socket.gethostname() else self.host or "an unknown computer"
        return f"{self.program} (process {self.pid} on {where}, since {when})"


class ProjectLockedError(ProjectBusyError):
    """Another process holds the project: ``holder`` says who."""

    def __init__(self, message: str, holder: Holder) -> None:
        super().__init__(message, settings=("write_held",))
        self.holder = holder


def lock_path(project_path: str | Path) -> Path:
    """``talk.sialign`` → ``talk.sialign.lock`` beside it."""
    path = Path(project_path)
    return path.with_name(path.name + LOCK_SUFFIX)


def _key(project_path: str | Path) -> str:
    return os.path.normcase(os.path.realpath(os.path.expanduser(str(project_path))))


def _read_holder(fd: int) -> Holder | None:
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        raw = os.read(fd, 4096).split(b"\n", 1)[0]
        data = json.loads(raw.decode("utf-8", "replace"))
        if not isinstance(data, dict):
            return None
        pid = data.get("pid")
        since = data.get("since")
        return Holder(str(data.get("program") or "another program")[:80], pid if isinstance(pid, int) else 0,
                      str(data.get("host") or "")[:80], float(since) if isinstance(since, (int, float)) else 0.0)
    except (OSError, ValueError, OverflowError, RecursionError):
        return None


def _try_lock(fd: int) -> bool:
    """Take the OS lock on ``fd`` without waiting; False when another process holds it."""
    if sys.platform == "win32":
        import msvcrt

        os.lseek(fd, _WINDOWS_LOCK_OFFSET, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _unlock(fd: int) -> None:
    if sys.platform == "win32":
        import msvcrt

        os.lseek(fd, _WINDOWS_LOCK_OFFSET, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
    else:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_UN)


class ProjectLock:
    """The lock of one project file, held by this process (see :func:`acquire`).

    ``release()`` (or leaving the ``with`` block) gives it back once every
    holder in this process has released it.
    """

    _held: dict[str, ProjectLock] = {}
    _guard = threading.Lock()

    def __init__(self, project_path: Path, fd: int | None, holder: Holder) -> None:
        self.project_path = project_path
        self.path = lock_path(project_path)
        self._fd = fd
        self.holder = holder
        self._count = 1

    def release(self) -> None:
        with ProjectLock._guard:
            if self._count <= 0:
                return
            self._count -= 1
            if self._count > 0:
                return
            ProjectLock._held.pop(_key(self.project_path), None)
            fd, self._fd = self._fd, None
        if fd is None:
            return
        # Unlinked while still locked, so no other process can lock the name we remove.
        try:
            self.path.unlink()
        except OSError:
            pass
        try:
            _unlock(fd)
        except OSError:
            pass
        os.close(fd)

    @property
    def held(self) -> bool:
        return self._count > 0

    def __enter__(self) -> ProjectLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def holder_of(project_path: str | Path) -> Holder | None:
    """Who holds ``project_path`` now (another process), or None when it is free or held by this one."""
    with ProjectLock._guard:
        if _key(project_path) in ProjectLock._held:
            return None
    path = lock_path(project_path)
    try:
        fd = os.open(path, os.O_RDWR)
    except OSError:
        return None
    try:
        if _try_lock(fd):
            _unlock(fd)
            return None
        return _read_holder(fd) or Holder("another program", 0, "", 0.0)
    finally:
        os.close(fd)


def acquire(project_path: str | Path, program: str) -> ProjectLock:
    """Lock ``project_path`` for ``program`` (``SI Aligner``, ``sialign filter``…) and return the lock.

    A lock file whose process is gone is taken over. Where the folder cannot
    hold a lock file (read-only, a file system without locks), the project
    is not locked and a warning is logged: there is no second writer there
    either.

    Raises:
        ProjectLockedError: another process holds the project; the message and ``holder`` name it.
    """
    project = Path(project_path)
    key = _key(project)
    with ProjectLock._guard:
        mine = ProjectLock._held.get(key)
        if mine is not None:
            mine._count += 1
            return mine
    holder = Holder(program, os.getpid(), socket.gethostname(), time.time())
    path = lock_path(project)
    for _ in range(5):
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            log.warning("%s: the project cannot be locked (%s); another program could write it at the same time",
                        path, exc.strerror or exc)
            return _register(ProjectLock(project, None, holder))
        try:
            locked = _try_lock(fd)
        except OSError as exc:  # a file system without locks
            os.close(fd)
            log.warning("%s: the project cannot be locked (%s)", path, exc.strerror or exc)
            return _register(ProjectLock(project, None, holder))
        if not locked:
            other = _read_holder(fd) or Holder("another program", 0, "", 0.0)
            os.close(fd)
            raise ProjectLockedError(f"{project}: the project is open in {other.describe()} — close it there, or write "
                                     "it anyway; nothing was written", other)
        # The file we locked may have been removed by a holder releasing it meanwhile: lock the one on disk.
        try:
            same = os.path.samestat(os.fstat(fd), os.stat(path))
        except OSError:
            same = False
        if not same:
            _unlock(fd)
            os.close(fd)
            continue
        try:
            os.ftruncate(fd, 0)
            os.lseek(fd, 0, os.SEEK_SET)
            os.write(fd, (json.dumps({"program": program, "pid": holder.pid, "host": holder.host,
                                      "since": round(holder.since, 3)}) + "\n").encode("utf-8"))
        except OSError as exc:
            log.warning("%s: the holder could not be written (%s)", path, exc.strerror or exc)
        return _register(ProjectLock(project, fd, holder))
    raise ProjectBusyError(f"{project}: the project's lock kept changing hands; try again")


def _register(lock: ProjectLock) -> ProjectLock:
    with ProjectLock._guard:
        ProjectLock._held[_key(lock.project_path)] = lock
    return lock


__all__ = ["Holder", "LOCK_SUFFIX", "ProjectBusyError", "ProjectLock", "ProjectLockedError", "acquire", "holder_of", "lock_path"]
