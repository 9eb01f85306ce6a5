"""Keeping a project open in the desktop app: one writer, save, autosave, the edit journal and recovery.

A reviewer's work must survive a crash and must not be overwritten by
another program. :class:`ProjectKeeper` decides everything about the open
project's files, with no Qt: the lock on the file (one writer at a time,
:mod:`sialign.io.project_lock`), the save, the autosave and the edit journal
between autosaves (:mod:`sialign.io.edit_journal`), and what to recover
after a crash. The window only asks the user (recover? which name?), shows
what happened and runs the autosave's write on a thread of its own.

Commands that write a project (``sialign filter``, ``realign``, corpus mode)
go through :func:`sialign.workflows.outputs.save`, the same write: it
refuses while the app holds the file or its unsaved review stands beside it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from sialign.core.errors import ProjectBusyError
from sialign.core.model import Project
from sialign.io.project_file import RecoveredWork, UnsavedWork

if TYPE_CHECKING:
    from sialign.io.edit_journal import EditJournal
    from sialign.io.project_lock import ProjectLock

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Opening:
    """A project file read for opening (:meth:`ProjectKeeper.open`).

    Attributes:
        project: the project, its ``path`` the file.
        path: the file.
        holder: who holds the file when another program does (it opens as a read-only copy), else None.
        work: unsaved work newer than the file (after a crash) to offer, None when there is none
            (or when the file is another program's).
    """

    project: Project
    path: str
    holder: str | None
    work: UnsavedWork | None


@dataclass(frozen=True)
class UntitledWork:
    """The newest autosave of a talk that was never saved (offered at start-up, :meth:`ProjectKeeper.untitled_work`).

    Attributes:
        autosave: the newest autosave.
        work: what it holds with its journal (None when it cannot be read as recovery).
        when: the last change (seconds since the epoch).
        others: every untitled autosave, newest first (all go when the user declines).
    """

    autosave: Path
    work: UnsavedWork | None
    when: float
    others: tuple[Path, ...]

    @property
    def talk_id(self) -> str:
        return self.autosave.name.split(".")[0]


@dataclass(frozen=True)
class Trouble:
    """The recovery files of the open project could not be written (reported to the window).

    Attributes:
        source: ``journal`` or ``autosave``: which write failed.
        outcome: ``moved``: they go on in the per-user folder from now on (an autosave should follow);
            ``unprotected``: they can be written nowhere, so a crash would lose the unsaved review.
        why: the reason (one line).
    """

    source: Literal["journal", "autosave"]
    outcome: Literal["moved", "unprotected"]
    why: str


class ProjectKeeper:
    """The open project's file for one window: its lock, save, autosave, journal and recovery.

    ``on_trouble`` is called when the journal or the autosave cannot be
    written (see :class:`Trouble`); the window tells the user and, when the
    files moved, starts an autosave.
    """

    def __init__(self, on_trouble: Callable[[Trouble], None]) -> None:
        self._on_trouble = on_trouble
        self.journal_enabled = True
        self._journal: EditJournal | None = None
        # What a journal started now would go on from (the saved file); None when only an autosave can start one.
        self._journal_base: dict[str, str] | None = None
        self._lock: ProjectLock | None = None
        # The file another program held when it was opened here as a copy, and who held it.
        self.read_only_of: str | None = None
        self.read_only_holder = ""

    # -- opening ----------------------------------------------------------------------
    def open(self, path: str | Path) -> Opening:
        """Read the project at ``path`` and hold its file; what is there to recover.

        Raises:
            SialignError, OSError: the file cannot be read (nothing changes here).
        """
        from sialign.io.project_file import find_unsaved_work, load_project

        project = load_project(path)
        project.path = str(path)
        holder = self.take_lock(path)
        work = None if holder is not None else find_unsaved_work(path, project.talk_id)
        return Opening(project, str(path), holder, work)

    def recover(self, opening: Opening) -> RecoveredWork:
        """The project of ``opening`` with its unsaved work (the autosave, the journal's edits replayed).

        Raises:
            SialignError: the recovery files cannot be read.
        """
        from sialign.io.project_file import load_unsaved_work

        assert opening.work is not None
        recovered = load_unsaved_work(opening.work, opening.path)
        recovered.project.path = opening.path
        return recovered

    @staticmethod
    def decline_recovery(opening: Opening) -> None:
        """The user does not want the unsaved work of ``opening``: its autosave and journal go."""
        from sialign.io.project_file import discard_autosave

        discard_autosave(opening.path, opening.project.talk_id)

    def open_copy(self, opening: Opening, unreadable: list[tuple[str, Path]]) -> Project:
        """``opening``'s project as a read-only copy (another program holds the file): it belongs to no file.

        ``unreadable``: the stored files the user did not allow (:func:`sialign.core.stored_files.outside_files`);
        a copy has no folder of its own, so it does not keep them.
        """
        from sialign.io.project_file import detach_from_file

        project = opening.project
        for key, _path in unreadable:
            side, attribute = key.split(".")
            setattr(getattr(project, side), attribute, None)
        detach_from_file(project)
        self.read_only_of, self.read_only_holder = opening.path, opening.holder or ""
        return project

    def untitled_work(self) -> UntitledWork | None:
        """The newest autosave of a talk never saved, None when there is none."""
        from sialign.io.project_file import find_unsaved_work, untitled_autosaves

        found = untitled_autosaves()
        if not found:
            return None
        newest = found[0]
        work = find_unsaved_work(None, autosave=newest)
        when = work.when if work is not None else newest.stat().st_mtime
        return UntitledWork(newest, work, when, tuple(found))

    @staticmethod
    def discard_untitled(untitled: UntitledWork) -> None:
        """The user declined: every untitled autosave and its journal go."""
        from sialign.io.edit_journal import journal_path_for

        for path in untitled.others:
            path.unlink(missing_ok=True)
            journal_path_for(path).unlink(missing_ok=True)

    @staticmethod
    def recover_untitled(untitled: UntitledWork) -> RecoveredWork:
        """The unsaved talk of ``untitled`` with its journal's edits.

        Raises:
            SialignError: the autosave cannot be read.
        """
        from sialign.io.edit_journal import journal_path_for
        from sialign.io.project_file import autosave_path, load_unsaved_work

        assert untitled.work is not None
        recovered = load_unsaved_work(untitled.work, None)
        recovered.project.path = None
        if untitled.autosave != autosave_path(None, recovered.project.talk_id):
            # Files named after another talk id: the next autosave goes elsewhere, and a new journal with it.
            untitled.autosave.unlink(missing_ok=True)
            journal_path_for(untitled.autosave).unlink(missing_ok=True)
            recovered.base = None
        return recovered

    # -- one writer per project ---------------------------------------------------------
    def take_lock(self, path: str | Path) -> str | None:
        """Hold ``path`` for this window; who holds it (one line) when another program does, else None."""
        from sialign.io.project_lock import ProjectLockedError, acquire

        if self._lock is not None and self._lock.held and self._lock.project_path == Path(path):
            return None
        try:
            lock = acquire(path, "SI Aligner")
        except ProjectLockedError as exc:
            return exc.holder.describe()
        self.release_lock()
        self._lock = lock
        return None

    def release_lock(self) -> None:
        """Give the open project's file back (another project replaces it, the window closes)."""
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    # -- saving -----------------------------------------------------------------------------
    def save(self, project: Project, path: str | Path, undo: list[dict[str, Any]]) -> None:
        """Write ``project`` (with its ``undo`` history) to ``path``; its recovery files go, the journal starts over.

        Raises:
            ProjectBusyError: another program holds ``path`` (nothing written).
            SialignError, OSError: the file cannot be written (the old one is left as it was).
        """
        from sialign.io.project_file import discard_autosave
        from sialign.workflows.outputs import save

        holder = self.take_lock(path)
        if holder is not None:
            raise ProjectBusyError(f"{path} is open in {holder}: save under another name, or close it there first")
        project.undo = undo  # undo goes on after the project is opened again
        previous = project.path
        save(project, path, app=True)
        project.path = str(path)
        self.read_only_of, self.read_only_holder = None, ""
        # The recovery files are the app's: the saved file holds all they held (here and where it was before).
        if previous != str(path):
            discard_autosave(previous, project.talk_id)
        discard_autosave(path, project.talk_id)
        self.drop_journal()
        self._journal_base = _file_base(path)

    def discard_recovery(self, project: Project) -> None:
        """The open project's autosave and journal go (the user discarded the changes, or another project comes)."""
        from sialign.io.project_file import discard_autosave

        self.drop_journal()
        self._journal_base = None
        if len(project.source) or len(project.target):
            discard_autosave(project.path, project.talk_id)

    # -- autosave ------------------------------------------------------------------------------
    def begin_autosave(self, project: Project) -> str:
        """An autosave of ``project`` starts: its journal mark (the journal notes it, or starts at it)."""
        from sialign.io.edit_journal import autosave_base, new_mark
        from sialign.io.project_file import journal_path

        mark = new_mark()
        if not self.journal_enabled:
            return mark
        if self._journal is not None and self._journal.path != journal_path(project.path, project.talk_id):
            self.drop_journal()  # the talk id of a project never saved changed: its autosave moves
            self._journal_base = None
        if self._journal is None and not self._open_journal(project, self._journal_base or autosave_base(mark)):
            return mark
        assert self._journal is not None
        if self._journal.base != autosave_base(mark):
            try:
                self._journal.checkpoint(mark)
            except OSError as exc:
                self._journal_failed(project, exc)
        return mark

    @staticmethod
    def write_autosave(snapshot: Project, mark: str) -> Path:
        """Write the autosave of ``snapshot`` (a copy: this may run on any thread); where it went.

        Raises:
            SialignError, OSError: it cannot be written (report it with :meth:`autosave_failed`).
        """
        from sialign.io.project_file import save_autosave

        return save_autosave(snapshot, journal_mark=mark)

    def autosave_written(self, project: Project, mark: str) -> None:
        """The autosave with ``mark`` is on disk: the journal goes on from it."""
        if self._journal is not None:
            try:
                self._journal.rebase(mark)  # a mark of a journal since replaced is not known: nothing happens
            except OSError as exc:
                self._journal_failed(project, exc)

    def autosave_failed(self, project: Project, why: str) -> None:
        """The autosave could not be written: the recovery files move to the per-user folder, or nothing protects them."""
        outcome: Literal["moved", "unprotected"] = "moved" if self._move_recovery_files(project) else "unprotected"
        self._on_trouble(Trouble("autosave", outcome, why))

    # -- the edit journal ------------------------------------------------------------------
    def set_journal_enabled(self, enabled: bool) -> None:
        """Journal edits (on while autosave is on: the journal lives from one autosave to the next)."""
        self.journal_enabled = enabled
        if not enabled:
            self.drop_journal()

    def record(self, project: Project, step: dict[str, Any]) -> bool:
        """Journal an applied edit ``step`` (``op``, ``label``, ``forward``, ``inverse``); True when a sync is due."""
        if not self.journal_enabled:
            return False
        if self._journal is None and (self._journal_base is None or not self._open_journal(project, self._journal_base)):
            return False  # a talk never saved journals from its first autosave on
        assert self._journal is not None
        try:
            self._journal.record(step["op"], step["label"], step["forward"], step["inverse"])
        except OSError as exc:
            self._journal_failed(project, exc)
            return False
        return self._journal.needs_sync

    def sync(self, project: Project) -> None:
        """Flush the journal to disk (the window calls it a second after an edit)."""
        if self._journal is not None:
            try:
                self._journal.sync()
            except OSError as exc:
                self._journal_failed(project, exc)

    def close_journal(self) -> None:
        """Flush and close the journal, leaving its file (the window closes with unsaved work kept for recovery)."""
        if self._journal is not None:
            try:
                self._journal.close()
            except OSError as exc:
                log.warning("edit journal: %s", exc)
            self._journal = None

    def drop_journal(self) -> None:
        """Close the journal and remove its file (the saved file or the user's choice holds what it held)."""
        if self._journal is not None:
            try:
                self._journal.remove()
            except OSError as exc:
                log.warning("edit journal not removed: %s", exc)
            self._journal = None

    def project_replaced(self, project: Project, modified: bool) -> None:
        """Another project is open: the previous journal stays for recovery (or went with its autosave), the lock
        goes with its file, and one opened from its file journals from it."""
        self.close_journal()
        self._journal_base = _file_base(project.path) if project.path and not modified else None
        if self._lock is not None and (project.path is None or Path(project.path) != self._lock.project_path):
            self.release_lock()
        if project.path is not None:
            self.read_only_of, self.read_only_holder = None, ""

    def go_on_after_recovery(self, project: Project, recovered: RecoveredWork) -> bool:
        """After recovering: the journal goes on from what was recovered; False when an autosave must start one now."""
        from sialign.io.edit_journal import EditJournal
        from sialign.io.project_file import journal_path

        if recovered.base is None or not self.journal_enabled:
            return False
        try:
            self._journal = EditJournal(journal_path(project.path, project.talk_id), recovered.base, project.talk_id,
                                        lines=recovered.lines)
        except OSError as exc:
            log.warning("edit journal not resumed: %s", exc)
            self._journal = None
            return False
        return True

    def _open_journal(self, project: Project, base: dict[str, str]) -> bool:
        from sialign.io.edit_journal import EditJournal
        from sialign.io.project_file import journal_path

        try:
            self._journal = EditJournal(journal_path(project.path, project.talk_id), base, project.talk_id)
        except OSError as exc:
            self._journal_failed(project, exc)
            return False
        return True

    def _journal_failed(self, project: Project, exc: OSError) -> None:
        """The journal cannot be written where it is: go on in the per-user folder, or nothing protects the review."""
        log.warning("edit journal: %s", exc)
        self._journal = None
        self._journal_base = None
        outcome: Literal["moved", "unprotected"] = "moved" if self._move_recovery_files(project) else "unprotected"
        self._on_trouble(Trouble("journal", outcome, str(exc)))

    def _move_recovery_files(self, project: Project) -> bool:
        """Keep the project's autosave and journal in the per-user folder from now on; False when they already are."""
        from sialign.io.project_file import folder_writable, mark_unwritable

        if project.path is None or not folder_writable(Path(project.path).parent):
            return False
        mark_unwritable(Path(project.path).parent)
        self.close_journal()  # its lines stay until the autosave in the per-user folder holds them
        return True


def _file_base(path: str | Path) -> dict[str, str] | None:
    from sialign.io.edit_journal import file_base

    try:
        return file_base(path)
    except OSError:
        return None


__all__ = ["Opening", "ProjectKeeper", "RecoveredWork", "Trouble", "UnsavedWork", "UntitledWork"]
