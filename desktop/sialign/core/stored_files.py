"""The files a project names, and the folders it may name them in: its own, and those the user allowed.

A project file names its transcripts and recordings (``source.path``,
``target.audio_path``...). A project received from someone else could name
any file on the machine (``../../etc/passwd``, or a link to a key file) and
have a command read it, or print part of it in an error. So a stored path is
read only when, with every link resolved, it lies inside

* the project file's own folder (or a folder below it), or
* the installation's own resources (the bundled example talks), or
* a folder the user allowed: one listed in ``allowed_folders.json`` in the
  per-user data folder, or in ``$SIALIGN_ALLOWED_FOLDERS`` (folders separated
  by ``os.pathsep``).

The user allows a folder in three ways: ``sialign allow FOLDER`` (or the app's
question when it opens a project naming files elsewhere), or by choosing a
file there themselves: a file named on the command line or picked in one of
the app's file dialogs is the user's choice, and its folder is remembered
(:func:`remember_chosen`). A path only read from a project is never
remembered, so a project cannot widen what the next one may read.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sialign.core.model import Project

ENV_ALLOWED_FOLDERS = "SIALIGN_ALLOWED_FOLDERS"
FILE_NAME = "allowed_folders.json"
_FORMAT = 1


def allowed_folders_file() -> Path:
    """Where the allowed folders are kept (``DATA_DIR/allowed_folders.json``)."""
    from sialign.core.paths import data_dir

    return data_dir() / FILE_NAME


def _real(path: str | os.PathLike[str]) -> Path:
    return Path(os.path.realpath(Path(path).expanduser()))


def _stored() -> list[str]:
    """The folders in the file; an unreadable or damaged file counts as empty (nothing extra is allowed)."""
    try:
        data = json.loads(allowed_folders_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    folders = data.get("folders") if isinstance(data, dict) else None
    if not isinstance(folders, list):
        return []
    return [f for f in folders if isinstance(f, str) and f and "\x00" not in f]


def allowed_folders() -> list[Path]:
    """Every folder the user allowed (the file's, then the environment's), links resolved."""
    found: list[str | Path] = list(_stored())
    env = os.environ.get(ENV_ALLOWED_FOLDERS, "")
    found += [part for part in env.split(os.pathsep) if part.strip()]
    seen: dict[Path, None] = {}
    for folder in found:
        seen.setdefault(_real(folder), None)
    return list(seen)


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def is_allowed(path: str | os.PathLike[str], project_path: str | os.PathLike[str] | None) -> bool:
    """Whether ``path`` (absolute), with its links resolved, lies in the project's folder or an allowed one.

    A project never saved (``project_path`` None) was read from no file: its
    paths are the ones chosen in this session, and all of them are allowed.
    """
    from sialign.core.paths import resource_roots

    if not project_path:
        return True
    real = _real(path)
    folders = [_real(Path(project_path).absolute().parent), *allowed_folders()]
    folders += [_real(root) for root in resource_roots()]  # the examples SI Aligner ships
    return any(_inside(real, folder) for folder in folders)


def outside_files(project: Project) -> list[tuple[str, Path]]:
    """The files ``project`` names outside its folder and the allowed folders: ``(key, path)`` pairs.

    What the app asks about on opening (``source.audio_path``: ``/elsewhere/talk.wav``).
    """
    from sialign.core.paths import resolve_project_path

    found = []
    for name, doc in (("source", project.source), ("target", project.target), ("reference", project.reference)):
        if doc is None:
            continue
        for attribute in ("path", "audio_path"):
            path = resolve_project_path(getattr(doc, attribute), project.path)
            if path is not None and not is_allowed(path, project.path):
                found.append((f"{name}.{attribute}", path))
    return found


def _write(folders: list[str]) -> None:
    from sialign.core.atomic import atomic_open

    with atomic_open(allowed_folders_file()) as fh:
        json.dump({"format": _FORMAT, "folders": folders}, fh, ensure_ascii=False, indent=1)
        fh.write("\n")


def allow(folders: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """Add ``folders`` to the user's allowed folders; returns those that were new.

    Raises:
        OutputError: the list cannot be written.
    """
    stored = _stored()
    known = {_real(f) for f in stored}
    added: list[Path] = []
    for folder in folders:
        real = _real(folder)
        if real in known or any(_inside(real, k) for k in known):
            continue
        known.add(real)
        added.append(real)
    if added:
        _write(stored + [str(a) for a in added])
    return added


def disallow(folders: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """Remove ``folders`` from the list; returns those that were removed.

    Raises:
        OutputError: the list cannot be written.
    """
    gone = {_real(f) for f in folders}
    stored = _stored()
    kept = [f for f in stored if _real(f) not in gone]
    if len(kept) != len(stored):
        _write(kept)
    return [_real(f) for f in stored if _real(f) in gone]


def remember_chosen(paths: Iterable[str | os.PathLike[str] | None]) -> None:
    """Allow the folders of files the user chose (named on the command line, picked in a dialog).

    Best effort: a list that cannot be written is left as it is (the user is
    asked again when a project names a file there).
    """
    from sialign.core.errors import SialignError

    folders = []
    for path in paths:
        if not path or str(path) == "-":
            continue
        candidate = Path(path).expanduser()
        folders.append(candidate if candidate.is_dir() else candidate.absolute().parent)
    try:
        allow(folders)
    except (SialignError, OSError):
        pass


def confined_path(raw: str | None, project_path: str | os.PathLike[str] | None, key: str) -> Path | None:
    """A path stored in a project under ``key``, resolved, and refused unless it is inside an allowed folder.

    The folders are the project file's own and the ones the user allowed
    (:func:`allowed_folders`), with every link resolved: a
    project naming ``../../etc/passwd``, or a link to a file elsewhere, gets
    one line naming the key and the folder to allow, and the file is never
    opened (so nothing of it can appear in a message). None for an empty value.

    Raises:
        OutsideAllowedFolders: the path lies outside every allowed folder.
    """
    from sialign.core.errors import OutsideAllowedFolders
    from sialign.core.paths import resolve_project_path

    path = resolve_project_path(raw, project_path)
    if path is None or is_allowed(path, project_path):
        return path
    real = Path(os.path.realpath(path))
    shown = f"{path} (a link to {real})" if real != path else str(path)
    raise OutsideAllowedFolders(
        str(project_path) if project_path else None,
        f"'{key}' names {shown}, outside the project's folder and the folders you allowed; it was not read",
        hint=f"if you trust this project, allow the folder ({real.parent}), or point the project at a copy in its own folder",
        settings=("allowed_folders", "project_files"),
    )


def stored_file(raw: str | None, project_path: str | os.PathLike[str] | None, key: str) -> Path | None:
    """A path stored in a project under ``key`` (``source.path``, ``target.audio_path``...), resolved and checked.

    The one way a command opens a file a project names: relative paths are
    taken from the project file's folder (:func:`sialign.core.paths.resolve_project_path`),
    never from the current folder; the file must lie in an allowed folder
    (:func:`confined_path`); and only a regular file is accepted — a
    project naming ``/dev/zero`` or a folder gets an error naming the key.
    None for an empty value.

    Raises:
        InputError: the file is outside the allowed folders, missing, or not a
            regular file (the project file and the key are named, with what to do).
    """
    from sialign.core.errors import InputError
    from sialign.core.file_kind import special_file_kind_of_mode

    path = confined_path(raw, project_path, key)
    if path is None:
        return None
    where = str(project_path) if project_path else None
    fix = "correct the file the project names, or name the file yourself"
    settings = ("project_files",)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise InputError(where, f"'{key}' names {path}, which does not exist (moved or renamed?)", hint=fix, settings=settings) from None
    except OSError as exc:
        raise InputError(where, f"'{key}' names {path}, which cannot be read ({exc.strerror or exc})", hint=fix,
                         settings=settings) from None
    if kind := special_file_kind_of_mode(mode):
        raise InputError(where, f"'{key}' names {path}, which is {kind}, not a file", hint=fix, settings=settings)
    return path


def linked_media(project_path: str | os.PathLike[str] | None, documents: list[tuple[str, str | None]]) -> list[str]:
    """The recordings an export links to (ELAN's media descriptors), from ``(side, audio_path)`` pairs.

    Resolved against the project's folder; a recording that is missing is
    still linked (it may sit on a drive not connected now), and so is one
    outside the allowed folders (a link is written, nothing is read), but a
    path that names a device, a pipe or a folder is refused with the key named.

    Raises:
        InputError: a stored audio path names something that is not a file.
    """
    from sialign.core.errors import InputError, OutsideAllowedFolders
    from sialign.core.paths import resolve_project_path

    media = []
    for side, raw in documents:
        try:
            path = stored_file(raw, project_path, f"{side}.audio_path")
        except InputError as exc:
            if not isinstance(exc, OutsideAllowedFolders) and "does not exist" not in exc.message:
                raise
            path = resolve_project_path(raw, project_path)
        if path is not None:
            media.append(str(path))
    return media


__all__ = [
    "ENV_ALLOWED_FOLDERS",
    "confined_path",
    "linked_media",
    "stored_file",
    "allow",
    "allowed_folders",
    "allowed_folders_file",
    "disallow",
    "is_allowed",
    "outside_files",
    "remember_chosen",
]
