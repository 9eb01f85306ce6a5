"""What a path is when it exists but is not a regular file, told from its ``stat`` mode."""

from __future__ import annotations

import stat


def special_file_kind_of_mode(mode: int) -> str:
    """``"a folder"``, ``"a named pipe (FIFO)"``, ``"a device"``, ``"a socket"`` or ``"a special file"``; "" for a regular file.

    Readers refuse these before opening anything: opening a named pipe
    waits for a writer forever.
    """
    if stat.S_ISREG(mode):
        return ""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"
