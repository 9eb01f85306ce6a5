"""What a file is: a recording or not, by its name; and, when it exists but is not a regular file, what it is.

The one list of audio suffixes (issue: they were listed in five places):
:data:`AUDIO_SUFFIXES` are the recordings SI Aligner plays, shows and looks for
beside a transcript; :data:`MEDIA_SUFFIXES` add what else names a recording
rather than a transcript (a command told ``sialign align SOURCE RECORDING``).
:data:`PROJECT_SUFFIX` names a project file, compared case-insensitively
(:func:`is_project_file`).
"""

from __future__ import annotations

import stat
from pathlib import Path

# What libsndfile decodes for playback and the waveform, in the order a recording beside a transcript is looked for.
AUDIO_SUFFIXES = (".wav", ".flac", ".ogg", ".mp3")
# A recording, to tell it from a transcript: the audio above and other audio and video containers.
MEDIA_SUFFIXES = (*AUDIO_SUFFIXES, ".m4a", ".aac", ".opus", ".wma", ".mp4", ".mkv", ".webm", ".mov")
# A project file (the format: sialign.io.project_file).
PROJECT_SUFFIX = ".sialign"


def is_project_file(path: str | Path) -> bool:
    """Whether ``path`` names a project file by its suffix (``talk.SIALIGN`` too)."""
    return Path(path).suffix.lower() == PROJECT_SUFFIX


def audio_file_filter() -> str:
    """A file dialog's filter for :data:`AUDIO_SUFFIXES` (either case), then all files."""
    patterns = [f"*{s}" for s in AUDIO_SUFFIXES] + [f"*{s.upper()}" for s in AUDIO_SUFFIXES]
    return f"Audio ({' '.join(patterns)});;All files (*)"


def is_media(path: str) -> bool:
    """Whether ``path`` names a recording (:data:`MEDIA_SUFFIXES`, by its extension) rather than a transcript."""
    name = path.lower()
    return any(name.endswith(suffix) for suffix in MEDIA_SUFFIXES)


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
