"""File dialogs that open in the folder last used for the same kind of file.

Each kind of file (``"project"``, ``"transcript"``, ``"audio"``...) keeps its
own last folder in ``QSettings``; a kind never used yet starts in the folder
last used for any file, then in the home folder. Choosing a file remembers
its folder, so the next dialog starts where the user was working. A file
or folder chosen here is the user's own choice, so its folder becomes one a
project may name files in (:func:`sialign.core.stored_files.remember_chosen`);
picking a project file does not widen that.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QFileDialog, QWidget

from sialign.core.stored_files import remember_chosen

# The key the main window has always kept its last project folder under.
ANY_KIND_KEY = "last_dir"


def _key(kind: str) -> str:
    return f"last_dir/{kind}" if kind else ANY_KIND_KEY


def last_folder(kind: str = "", settings: QSettings | None = None) -> str:
    """The folder a dialog for ``kind`` should open in (an existing folder; home when none is remembered)."""
    settings = settings if settings is not None else QSettings()
    for key in (_key(kind), ANY_KIND_KEY):
        value = settings.value(key)
        if value and Path(str(value)).is_dir():
            return str(value)
    return str(Path.home())


def remember_folder(path: str | Path, kind: str = "", settings: QSettings | None = None) -> None:
    """Remember the folder of ``path`` (a file, or a folder itself) for ``kind`` and for any kind."""
    if not str(path):
        return
    settings = settings if settings is not None else QSettings()
    p = Path(path)
    folder = p if p.is_dir() else p.parent
    for key in {_key(kind), ANY_KIND_KEY}:
        settings.setValue(key, str(folder))


def _start(kind: str, current: str | Path | None, settings: QSettings | None) -> str:
    """Start at ``current`` when it names a file or folder that is there, else in the last folder."""
    if current:
        p = Path(current).expanduser()
        if p.exists() or p.parent.is_dir():
            return str(p)
    return last_folder(kind, settings)


def open_file_name(parent: QWidget | None, caption: str, file_filter: str, *, kind: str,
                   current: str | Path | None = None, settings: QSettings | None = None) -> str:
    """Ask for an existing file; "" when cancelled. Starts at ``current`` or in the last folder of ``kind``."""
    path, _ = QFileDialog.getOpenFileName(parent, caption, _start(kind, current, settings), file_filter)
    if path:
        remember_folder(path, kind, settings)
        if kind != "project":
            remember_chosen([path])
    return str(path or "")


def save_file_name(parent: QWidget | None, caption: str, file_name: str, file_filter: str, *, kind: str,
                   current: str | Path | None = None, settings: QSettings | None = None) -> str:
    """Ask where to save; "" when cancelled. Suggests ``current``, else ``file_name`` in the last folder of ``kind``."""
    start = str(current) if current else str(Path(last_folder(kind, settings)) / file_name)
    path, _ = QFileDialog.getSaveFileName(parent, caption, start, file_filter)
    if path:
        remember_folder(path, kind, settings)
    return str(path or "")


def export_file_name(parent: QWidget | None, caption: str, current: str, name: str, suffix: str) -> str:
    """The file an export dialog writes (``""``: cancelled), for a format called ``name`` with ``suffix``.

    The export dialog asks before it replaces a file, so this one does not ask too.
    """
    path, _ = QFileDialog.getSaveFileName(parent, caption, current, f"{name} (*{suffix});;All files (*)",
                                          options=QFileDialog.Option.DontConfirmOverwrite)
    return str(path)


def existing_folder(parent: QWidget | None, caption: str, *, kind: str, settings: QSettings | None = None) -> str:
    """Ask for a folder; "" when cancelled."""
    folder = QFileDialog.getExistingDirectory(parent, caption, last_folder(kind, settings))
    if folder:
        remember_folder(folder, kind, settings)
        remember_chosen([folder])
    return str(folder or "")


__all__ = ["ANY_KIND_KEY", "existing_folder", "last_folder", "open_file_name", "remember_folder", "save_file_name"]
