"""Writing files safely: a crash mid-write never replaces a good file with a truncated one.

:func:`atomic_open` writes a regular file through a temporary file beside it
and renames it over the target on success. What it does for other targets:

- ``-``: standard output, written directly (nothing to replace).
- A symbolic link: the file it points to is replaced atomically; the link
  stays a link.
- Anything that exists and is not a regular file (a FIFO, ``/dev/stdout``,
  a process substitution, a terminal): written directly, since renaming over
  it would replace the device or pipe by a file.

Temporary files are named ``.<up to 40 characters of the name>.<random>.tmp``
(at most 54 characters, so a 255-byte target name still works). A writer
holds an exclusive lock on its temporary file; a later write of the same
target removes the temporaries that no process holds any more (left by a
killed writer).

Failures of the operating system (disk full, read-only folder, no
permission, name too long) become an :class:`~sialign.core.errors.OutputError`
naming the target, never the temporary file.
"""

from __future__ import annotations

import contextlib
import errno as _errno
import io
import logging
import os
import re
import stat
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from sialign.core.errors import OutputError, printable

log = logging.getLogger(__name__)

STDIO_NAME = "-"
STDOUT_LABEL = "standard output"  # how messages name "-" as an output
_TEMP_STEM_CHARS = 40
_TEMP_SUFFIX = ".tmp"

_HINTS = {
    _errno.ENOSPC: "the disk is full; free some space or write to another disk",
    _errno.EDQUOT: "your disk quota is used up; free some space or write elsewhere",
    _errno.EROFS: "the disk is read-only; choose a folder you can write to",
    _errno.EACCES: "no permission to write there; choose another folder or change its permissions",
    _errno.EPERM: "no permission to write there; choose another folder or change its permissions",
    _errno.ENAMETOOLONG: "the name is too long; choose a shorter file name",
    _errno.ENOENT: "the folder does not exist; check the path",
    _errno.ENOTDIR: "a part of the path is a file, not a folder; check the path",
    _errno.EISDIR: "this is a folder; give a file name",
}


def output_error(path: str | Path, exc: OSError) -> OutputError:
    """An :class:`OutputError` for ``exc`` raised while writing ``path``."""
    hint = _HINTS.get(exc.errno or -1, "check the path and that the folder can be written")
    if exc.errno == _errno.ENOENT and Path(path).parent.is_dir():
        # The folder is there but refuses new files (/proc, a vanished mount...).
        hint = "the folder does not accept new files; choose another folder"
    reason = exc.strerror or type(exc).__name__
    return OutputError(path, f"cannot write the file ({reason})", errno=exc.errno, hint=hint)


def _temp_stem(name: str) -> str:
    return "." + name[:_TEMP_STEM_CHARS] + "."


def _lock(fd: int) -> None:
    try:
        import fcntl
    except ImportError:  # Windows: an open file cannot be deleted there anyway
        return
    with contextlib.suppress(OSError):
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)


def _is_stale(path: Path) -> bool:
    """True when no process holds the lock of the temporary file ``path``."""
    try:
        import fcntl
    except ImportError:
        return True
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    finally:
        os.close(fd)
    return True


def remove_stale_temporaries(path: str | Path) -> int:
    """Remove temporary files of ``path`` left by killed writers; returns how many."""
    path = Path(path)
    pattern = re.compile(re.escape(_temp_stem(path.name)) + r"[A-Za-z0-9_]{8}" + re.escape(_TEMP_SUFFIX))
    removed = 0
    try:
        entries = list(os.scandir(path.parent))
    except OSError:
        return 0
    for entry in entries:
        if not pattern.fullmatch(entry.name):
            continue
        candidate = Path(entry.path)
        with contextlib.suppress(OSError):
            if entry.is_file(follow_symlinks=False) and _is_stale(candidate):
                candidate.unlink()
                removed += 1
    return removed


def _is_regular_or_missing(path: Path) -> bool:
    try:
        mode = os.stat(path).st_mode  # follows symbolic links
    except FileNotFoundError:
        return True
    except OSError:
        return True  # let the write report it
    return stat.S_ISREG(mode)


@contextlib.contextmanager
def _direct(stream: IO[bytes], mode: str, encoding: str | None, newline: str | None) -> Iterator[IO]:
    """Write into an open binary stream without closing it."""
    if "b" in mode:
        yield stream
        stream.flush()
        return
    wrapper = io.TextIOWrapper(stream, encoding=encoding or "utf-8", newline=newline)
    try:
        yield wrapper
        wrapper.flush()
    finally:
        wrapper.detach()


@contextlib.contextmanager
def atomic_open(path: str | Path, mode: str = "w", encoding: str | None = "utf-8", newline: str | None = "") -> Iterator[IO]:
    """Open ``path`` for writing; a regular file is replaced atomically on success.

    On an exception a regular target is untouched and the temporary file is
    removed. See the module docstring for ``-``, links and special files.

    Raises:
        OutputError: the file cannot be written (disk full, read-only,
            permission, name too long...).
    """
    if str(path) == STDIO_NAME:
        sys.stdout.flush()
        buffer = getattr(sys.stdout, "buffer", None)
        if buffer is None:  # a text-only stream (tests, embedding)
            yield sys.stdout
            sys.stdout.flush()
            return
        try:
            with _direct(buffer, mode, encoding, newline) as fh:
                yield fh
        except BrokenPipeError:
            raise
        except OSError as exc:  # a full disk or device behind the redirection (> /dev/full)
            if isinstance(exc, OutputError):
                raise
            raise output_error(STDOUT_LABEL, exc) from None
        return
    path = Path(path)
    if not _is_regular_or_missing(path):
        try:
            raw = open(path, "ab" if "a" in mode else "wb")
        except OSError as exc:
            raise output_error(path, exc) from None
        try:
            with raw, _direct(raw, mode, encoding, newline) as fh:
                yield fh
        except BrokenPipeError:
            raise
        except OSError as exc:
            if isinstance(exc, OutputError):
                raise
            raise output_error(path, exc) from None
        return
    try:
        target = Path(os.path.realpath(path)) if path.is_symlink() else path  # lstat: a name too long fails here
        target.parent.mkdir(parents=True, exist_ok=True)
        remove_stale_temporaries(target)
        fd, tmp = tempfile.mkstemp(prefix=_temp_stem(target.name), suffix=_TEMP_SUFFIX, dir=target.parent)
    except OSError as exc:
        raise output_error(path, exc) from None
    _lock(fd)
    _say_if_read_only(target)
    # A second descriptor keeps the lock (flock belongs to the open file)
    # after the writing one is closed, until the rename is done.
    lock_fd = os.dup(fd)
    try:
        text = "b" not in mode
        with os.fdopen(fd, mode, encoding=encoding if text else None, newline=newline if text else None) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        # mkstemp creates 0600 files; give the result the permissions a plain
        # open() would (the existing file's, else 0666 minus the umask).
        os.chmod(tmp, _target_mode(target))
        os.replace(tmp, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError) and not isinstance(exc, OutputError):
            raise output_error(path, exc) from None
        raise
    finally:
        os.close(lock_fd)


def _say_if_read_only(path: Path) -> None:
    """Log a warning when the file about to be replaced is read-only (editors ask; a command says so)."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return
    if stat.S_ISREG(mode) and not mode & 0o222:
        log.warning("%s was read-only; replaced it (the new file is read-only too)", printable(path))


def _target_mode(path: Path) -> int:
    try:
        return path.stat().st_mode & 0o777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def atomic_write_text(path: str | Path, text: str, encoding: str = "utf-8") -> None:
    with atomic_open(path, "w", encoding=encoding) as fh:
        fh.write(text)


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    with atomic_open(path, "wb") as fh:
        fh.write(data)
