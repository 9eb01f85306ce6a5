"""Every per-user folder of SI Aligner, in one place.

The folders follow the platform's conventions through ``platformdirs``
(application name ``sialign``): on Linux the XDG folders
(``~/.local/share/sialign``, ``~/.cache/sialign``,
``~/.local/state/sialign/log``), on macOS ``~/Library/...``, on Windows
``%LOCALAPPDATA%\\sialign``. Each folder has an environment override for
shared lab set-ups and tests:

=====================  ==========================  ===========================
folder                 override                    used for
=====================  ==========================  ===========================
:func:`data_dir`       ``SIALIGN_DATA_DIR``        models (``models/``), autosaves
:func:`cache_dir`      ``SIALIGN_CACHE_DIR``       the vector cache, audio envelopes
:func:`log_dir`        ``SIALIGN_LOG_DIR``         the GUI's error log
:func:`autosave_dir`   ``SIALIGN_AUTOSAVE_DIR``    autosaves of never-saved projects
:func:`model_dir`      ``SIALIGN_MODEL_DIR``       the user's embedding models
=====================  ==========================  ===========================

The folders may not exist yet; writers create them. Nothing here touches
the disk (the files a project names are checked in :mod:`sialign.core.stored_files`).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from platformdirs.api import PlatformDirsABC

APP_NAME = "sialign"

ENV_DATA_DIR = "SIALIGN_DATA_DIR"
ENV_CACHE_DIR = "SIALIGN_CACHE_DIR"
ENV_LOG_DIR = "SIALIGN_LOG_DIR"
ENV_AUTOSAVE_DIR = "SIALIGN_AUTOSAVE_DIR"
ENV_MODEL_DIR = "SIALIGN_MODEL_DIR"


def _platform_dirs() -> PlatformDirsABC:
    """The platformdirs implementation for ``sys.platform`` (read at each call, so tests can set it)."""
    dirs: type[PlatformDirsABC]
    if sys.platform == "win32":
        from platformdirs.windows import Windows

        dirs = Windows
    elif sys.platform == "darwin":
        from platformdirs.macos import MacOS

        dirs = MacOS
    else:
        from platformdirs.unix import Unix

        dirs = Unix
    return dirs(appname=APP_NAME, appauthor=False)


def _override(name: str) -> Path | None:
    value = os.environ.get(name)
    return Path(value).expanduser() if value else None


def data_dir() -> Path:
    """The per-user data folder (``$SIALIGN_DATA_DIR`` overrides)."""
    return _override(ENV_DATA_DIR) or Path(_platform_dirs().user_data_dir)


def cache_dir() -> Path:
    """The per-user cache folder (``$SIALIGN_CACHE_DIR`` overrides); everything in it can be rebuilt."""
    return _override(ENV_CACHE_DIR) or Path(_platform_dirs().user_cache_dir)


def log_dir() -> Path:
    """The per-user log folder (``$SIALIGN_LOG_DIR`` overrides)."""
    return _override(ENV_LOG_DIR) or Path(_platform_dirs().user_log_dir)


def autosave_dir() -> Path:
    """Where autosaves of never-saved projects go (``$SIALIGN_AUTOSAVE_DIR`` overrides)."""
    return _override(ENV_AUTOSAVE_DIR) or data_dir() / "autosave"


def model_dir() -> Path:
    """The folder of the user's models and their ``registry.json`` (``$SIALIGN_MODEL_DIR`` overrides)."""
    return _override(ENV_MODEL_DIR) or data_dir() / "models"


def envelope_cache_dir() -> Path:
    """Where audio envelopes are cached."""
    return cache_dir() / "envelopes"


def error_log_path() -> Path:
    """The GUI's error log (unexpected errors with their tracebacks)."""
    return log_dir() / "errors.log"


def resources_dir() -> Path:
    """The ``resources/`` folder of this installation (source checkout or frozen bundle)."""
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:
        return Path(frozen) / "resources"
    # desktop/sialign/core/paths.py -> the repository root
    return Path(__file__).resolve().parents[3] / "resources"


def resource_roots() -> list[Path]:
    """Folders that may hold ``examples/``, ``icons/``..., in search order (a frozen build's, then the checkout's)."""
    roots: list[Path] = []
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:
        roots += [Path(frozen) / "resources", Path(frozen)]
    roots.append(Path(__file__).resolve().parents[3] / "resources")
    return roots


def resource_path(*parts: str) -> Path | None:
    """The first existing ``<root>/<parts...>`` among :func:`resource_roots`, or None."""
    for root in resource_roots():
        candidate = root.joinpath(*parts)
        if candidate.exists():
            return candidate
    return None


__all__ = [
    "APP_NAME",
    "autosave_dir",
    "cache_dir",
    "data_dir",
    "envelope_cache_dir",
    "error_log_path",
    "log_dir",
    "model_dir",
    "resource_path",
    "resource_roots",
    "resources_dir",
]


# --------------------------------------------------------------------------
# Paths saved inside a project file
#
# One rule for every project, whoever wrote it (the app, ``sialign align``,
# corpus mode, the Python API): a transcript or audio path is stored relative
# to the project file's own folder (absolute when no relative path exists,
# e.g. on another Windows drive), and read back against that folder. Talk
# and recordings then move together, and a project opens the same wherever
# the command that wrote it ran.


def resolve_project_path(raw: str | None, project_path: str | os.PathLike[str] | None) -> Path | None:
    """A path stored in a project as an absolute file path.

    ``~`` is expanded; a relative path is taken from the folder of
    ``project_path`` (the project file), or from the current folder for a
    project never saved. None for an empty value.
    """
    if not raw:
        return None
    path = Path(raw).expanduser()
    if not path.is_absolute():
        base = Path(project_path).parent if project_path else Path.cwd()
        path = base / path
    return Path(os.path.abspath(path))


def path_to_store(path: str | os.PathLike[str], project_path: str | os.PathLike[str]) -> str:
    """How ``path`` (absolute) is written into the project file ``project_path``: relative to its folder.

    Absolute when the two share nothing but the root or the drive (another
    drive, or ``/data/...`` beside ``/home/...``): a path climbing to the root
    would not survive moving talk and recordings together either.
    """
    folder = os.path.abspath(Path(project_path).parent)
    target = os.path.abspath(path)
    try:
        common = os.path.commonpath([folder, target])
    except ValueError:  # another drive (Windows): no relative path exists
        return target
    if common == Path(common).anchor:
        return target
    return os.path.relpath(target, folder)
