"""The main window's project files: new, open, save, autosave and recovery, export, the example and recent files.

:class:`ProjectFilesController` is owned by the main window as ``window.files``.
It receives what it uses: the window as the parent of its dialogs, the
session, the worker runner (nothing opens while work runs), the settings,
the *Open recent* menu it fills, and callbacks for errors, status messages,
aligning, the last terms check and the window's title and counts.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from PySide6.QtCore import QObject, QSettings, Qt, QTimer, Signal
from PySide6.QtWidgets import QMenu, QMessageBox, QWidget

from sialign.core.errors import OutsideAllowedFolders, SialignError
from sialign.core.file_kind import PROJECT_SUFFIX, is_project_file
from sialign.core.model import Project
from sialign.core.plurals import count_noun
from sialign.gui.common.error_words import error_text
from sialign.gui.common.file_dialogs import (
    existing_folder,
    last_folder,
    open_file_name,
    remember_folder,
    save_file_name,
)
from sialign.gui.common.session import ProjectSession
from sialign.gui.common.workers import WorkerRunner, snapshot
from sialign.workflows.keeping import Opening, ProjectKeeper, RecoveredWork, Trouble, UnsavedWork

if TYPE_CHECKING:
    from sialign.gui.dialogs.project_properties import ProjectProperties
    from sialign.gui.windows.corpus_window import CorpusWindow
    from sialign.review.terms import TermCheck

T = TypeVar("T")

PROJECT_FILTER = f"SI Aligner projects (*{PROJECT_SUFFIX});;All files (*)"
MAX_RECENT = 10

log = logging.getLogger(__name__)



def unsaved_question(project: Project) -> str:
    """The save prompt: it names the project file (or says the talk was never saved)."""
    if project.path:
        return f"{Path(project.path).name} has changes that are not saved (in {Path(project.path).parent}). Save them?"
    return f"The talk “{project.talk_id}” has never been saved. Save it to a project file?"

class ProjectFilesController(QObject):
    """Everything the main window does that reads or writes project files.

    Signals:
        autosave_done(str): an autosave finished (message for the status bar);
            emitted from the autosave thread, delivered queued.
        autosave_written(str): the autosave with this journal mark is on
            disk (from the autosave thread; the edit journal then starts there).
        autosave_failed(str): the autosave could not be written (why), from the autosave thread.

    Between autosaves every applied edit goes to the edit journal
    (:mod:`sialign.io.edit_journal`) at once, so a crash loses at most the
    last second; opening the project again replays it on top of the
    autosave (or the saved file).
    """

    autosave_done = Signal(str)
    autosave_written = Signal(str)
    autosave_failed = Signal(str)

    def __init__(self, window: QWidget, session: ProjectSession, runner: WorkerRunner, settings: QSettings, *,
                 recent_menu: QMenu, show_error: Callable[[str, str], None], notify: Callable[[str, int], None],
                 align: Callable[[], object], terms_check: Callable[[], TermCheck | None],
                 saved: Callable[[], None]) -> None:
        """``notify(message, ms)`` shows a status message; ``saved()`` lets the window refresh its title."""
        super().__init__(window)
        self.window = window
        self.session = session
        self.runner = runner
        self.settings = settings
        self.recent_menu = recent_menu
        self.show_error = show_error
        self.notify = notify
        self._align = align
        self._terms_check = terms_check
        self._saved = saved
        self._autosave_thread: threading.Thread | None = None
        self._autosave_again = False
        # The last corpus window opened from here (it is the window's child).
        self.corpus_window: QWidget | None = None
        # The open project's file: its lock, save, autosave, edit journal and recovery (Qt-free, in workflows).
        self.keeper = ProjectKeeper(self._trouble)
        self._sync_timer = QTimer(self)
        self._sync_timer.setSingleShot(True)
        self._sync_timer.setInterval(1000)
        self._sync_timer.timeout.connect(self._sync_journal)
        session.step_applied.connect(self._journal_step)
        session.project_replaced.connect(self._project_replaced)
        self.autosave_written.connect(self._autosave_written, Qt.ConnectionType.QueuedConnection)
        self.autosave_failed.connect(self._autosave_failed, Qt.ConnectionType.QueuedConnection)
        # Said once per project: nothing protects its unsaved review (neither beside it nor in the per-user folder).
        self._warned_unprotected = False

    def _file_operation(self, title: str, path: str | Path, operation: Callable[[], T],
                        hint: str = "") -> tuple[bool, T | None]:
        """Run ``operation``; on a refused file or an OS error show ``title`` with the reason and return (False, None)."""
        try:
            return True, operation()
        except SialignError as exc:
            self.show_error(title, error_text(exc))
        except OSError as exc:
            self.show_error(title, f"{path}: {exc.strerror or exc}{hint}")
        return False, None

    def maybe_save(self) -> bool:
        """Ask about unsaved changes (a note typed without Enter included); False when the user cancels."""
        self.session.commit_pending()
        if not self.session.is_modified:
            return True
        answer = QMessageBox.question(
            self.window,
            "Unsaved changes",
            unsaved_question(self.session.project),
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Save,
        )
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        if answer == QMessageBox.StandardButton.Discard:
            # The user chose to lose the changes: do not offer them back later.
            self.discard_current_autosave()
            return True
        return False

    def new_talk(self) -> None:
        from sialign.gui.dialogs.new_talk_dialog import NewTalkDialog

        if self.runner.busy or not self.maybe_save():
            return
        dialog = NewTalkDialog(self.window, settings=self.settings)
        if dialog.exec():
            project = dialog.project()
            self.discard_current_autosave()
            self.session.set_project(project, modified=True)
            # Create aligns at once (in the background); where it cannot start, the talk waits for Align.
            if not self._align():
                self.notify("Talk loaded. Press Align (Ctrl+R) to align it.", 8000)

    def transcribe_recording(self) -> None:
        """*File → Transcribe a recording…*: a recording → a timed transcript saved beside it (``talk.whisper.srt``)."""
        from sialign.core.file_kind import audio_file_filter
        from sialign.gui.dialogs.transcribe_dialog import TranscribeDialog

        path = open_file_name(self.window, "Transcribe a recording", audio_file_filter(), kind="audio",
                              settings=self.settings)
        if not path:
            return
        dialog = TranscribeDialog(path, parent=self.window, settings=self.settings, choose_role=True)
        if dialog.exec() and dialog.output is not None:
            self.notify(f"Transcript saved: {dialog.output} (a machine transcript: open it in New talk "
                        "to align it, and correct it in the review).", 15000)

    def open_dialog(self) -> None:
        if self.runner.busy or not self.maybe_save():
            return
        path = open_file_name(self.window, "Open project", PROJECT_FILTER, kind="project", settings=self.settings)
        if path:
            self.open_path(path, ask_save=False)

    def open_path(self, path: str, *, ask_save: bool = True) -> bool:
        """Open a project file, offering its autosave when it is newer (after a crash)."""
        if ask_save and not self.maybe_save():
            return False
        ok, opening = self._file_operation("Cannot open the project", path, lambda: self.keeper.open(path))
        if not ok or opening is None:
            return False
        if opening.holder is not None:
            return self._open_read_only(opening)
        project, modified, recovered = opening.project, False, None
        if opening.work is not None:
            if self._ask_to_recover(opening.work, path):
                try:
                    recovered = self.keeper.recover(opening)
                    project, modified = recovered.project, True
                except SialignError as exc:
                    self.show_error("Cannot recover", error_text(exc))
                else:
                    if recovered.problem:
                        self.show_error("Recovered in part", recovered.problem)
            else:
                self.keeper.decline_recovery(opening)
        unread = self.ask_to_allow_outside_files(project)
        self.discard_current_autosave()
        self.session.set_project(project, modified=modified)
        if recovered is not None:
            self._go_on_after_recovery(recovered)
        # Back at the bead the reviewer was on when saving.
        selected = self.settings.value(_selected_key(path))
        if selected is not None and str(selected).lstrip("-").isdigit():
            self.session.select_bead(int(str(selected)))
        self._add_recent(str(path))
        remember_folder(path, "project", self.settings)
        if unread:
            self.notify(f"Opened {path}; {unread}", 15000)
        else:
            self.notify(f"Opened {path}", 5000)
        self.offer_to_locate_missing_audio()
        return True

    def _ask_to_recover(self, work: UnsavedWork, path: str) -> bool:
        """Ask whether to open the unsaved ``work`` found beside ``path`` (the app did not close properly)."""
        what = (f"autosaved work for {Path(path).name} newer than the file" if work.autosave is not None
                else f"unsaved edits for {Path(path).name}")
        if work.autosave is None:
            edits = f" ({count_noun(work.edits, 'edit')})"
        else:
            edits = f", with {count_noun(work.edits, 'later edit')}" if work.edits else ""
        answer = QMessageBox.question(
            self.window,
            "Recover unsaved work?",
            f"There is {what}{edits} "
            f"(last change {time.strftime('%Y-%m-%d %H:%M:%S', time.localtime(work.when))}). "
            "SI Aligner may not have closed properly. Open the recovered version?",
        )
        return answer == QMessageBox.StandardButton.Yes

    # -- one writer per project ------------------------------------------------------
    @property
    def read_only_of(self) -> str | None:
        """The file another program held when the open project was opened here as a copy (None: not a copy)."""
        return self.keeper.read_only_of

    @property
    def read_only_holder(self) -> str:
        """Who held :attr:`read_only_of`."""
        return self.keeper.read_only_holder

    def release_lock(self) -> None:
        """Give the open project's file back (the window closes)."""
        self.keeper.release_lock()

    def _open_read_only(self, opening: Opening) -> bool:
        """Open a project another program holds as a copy: its file, autosave and journal stay the holder's."""
        from sialign.core.stored_files import outside_files

        QMessageBox.information(
            self.window, "Opened as a copy",
            f"{Path(opening.path).name} is open in {opening.holder}.\n\nIt opens here as a read-only copy: the file and "
            "its recovery files stay with that program. Save asks for a new name; close the project there to edit it here.")
        unread = self.ask_to_allow_outside_files(opening.project)
        # Declined: a copy belongs to no folder, so it does not keep what was not allowed.
        project = self.keeper.open_copy(opening, outside_files(opening.project) if unread else [])
        self.discard_current_autosave()
        self.session.set_project(project, modified=False)
        self.notify(f"{Path(opening.path).name} is open in {opening.holder}: this is a read-only copy (Save asks for a "
                    "new name)" + (f"; {unread}" if unread else ""), 15000)
        return True

    def ask_to_allow_outside_files(self, project: Project) -> str:
        """Before a project's files are opened: ask to allow the folders of those outside its own and the allowed ones.

        A project received from someone else may name any file; SI Aligner
        reads only files in the project's folder and the folders the user
        allowed (:mod:`sialign.core.stored_files`). Declined, those files
        stay unread and the audio panel says why. Returns what to tell the
        user when some stay unread ("" otherwise).
        """
        from sialign.core.stored_files import allow, outside_files

        outside = outside_files(project)
        if not outside:
            return ""
        folders = sorted({str(path.parent) for _key, path in outside})
        listed = "\n".join(f"  {key}: {path}" for key, path in outside)
        answer = QMessageBox.question(
            self.window,
            "Allow files outside the project's folder?",
            f"{Path(project.path or '').name} names files outside its own folder:\n{listed}\n\n"
            "SI Aligner reads such files only in folders you allow, so that a project from elsewhere cannot read "
            f"other files on this computer. Allow {'this folder' if len(folders) == 1 else 'these folders'}?\n  "
            + "\n  ".join(folders),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        if answer != QMessageBox.StandardButton.Yes:
            return "files outside its folder were not read (File → Project properties… to locate them)"
        try:
            allow(folders)
        except SialignError as exc:
            self.show_error("Cannot remember the allowed folders", error_text(exc))
            return "files outside its folder were not read"
        return ""

    def _project_replaced(self) -> None:
        self._warned_unprotected = False
        self._sync_timer.stop()
        self.keeper.project_replaced(self.session.project, self.session.is_modified)

    # -- project properties and missing audio ------------------------------------
    def project_properties(self) -> None:
        """File → Project properties…: talk id, languages, interpreter, audio and reference files (undoable)."""
        from sialign.gui.dialogs.project_properties import ProjectPropertiesDialog

        if self.runner.busy:
            self.notify("Wait for the running task to end (or cancel it) first.", 6000)
            return
        from sialign.core.paths import resolve_project_path
        from sialign.core.stored_files import remember_chosen

        project = self.session.project
        dialog = ProjectPropertiesDialog(project, self.window, settings=self.settings)
        if dialog.exec():
            properties = dialog.properties()
            # Recordings the user named here are their choice: their folders may be read from now on.
            remember_chosen(resolve_project_path(raw, project.path) for side, raw in properties.audio.items()
                            if raw and raw != project.document(side).audio_path)
            self._apply_properties(properties, "Change project properties")

    def _apply_properties(self, properties: ProjectProperties, text: str) -> None:
        """Apply ``properties`` as one core edit (undoable, in the history); the views follow its changes."""
        from sialign.gui.dialogs.project_properties import changes_anything, talk_info_edit

        if changes_anything(self.session.project, properties):
            self.session.apply(talk_info_edit(properties, text))

    def offer_to_locate_missing_audio(self) -> None:
        """After opening: for each recording that is not where the project says, offer Locate… at once."""
        from sialign.audio.decode import audio_file_problem, audio_path_to_store, resolve_audio_path
        from sialign.gui.dialogs.project_properties import AUDIO_FILTER, current_properties

        project = self.session.project
        found_in: Path | None = None  # where the user found a recording: the other one is likely there too
        for side, name in (("src", "source"), ("tgt", "interpreter")):
            stored = project.document(side).audio_path
            try:
                path = resolve_audio_path(stored, project.path, f"{'source' if side == 'src' else 'target'}.audio_path")
            except OutsideAllowedFolders:  # the user was asked on opening and declined; the audio panel says so
                continue
            if path is None:
                continue
            problem = audio_file_problem(path)
            if not problem:
                continue
            beside = found_in / path.name if found_in is not None else None
            if beside is not None and not audio_file_problem(beside):
                properties = current_properties(project)
                properties.audio[side] = audio_path_to_store(beside, stored, project.path)
                self._apply_properties(properties, f"Locate the {name} audio")
                self.notify(f"The {name} audio was found beside the other one: {beside}", 8000)
                continue
            # A file that is there but cannot be played (a FIFO, a damaged file) is not "not found".
            title = "Audio not found" if not path.exists() else "Audio cannot be opened"
            box = QMessageBox(QMessageBox.Icon.Warning, title,
                              f"The {name} audio {path} cannot be opened: {problem}.", parent=self.window)
            box.setInformativeText("Locate the recording to hear and see it; alignment and review work without it.")
            locate = box.addButton("Locate…", QMessageBox.ButtonRole.AcceptRole)
            box.addButton("Not now", QMessageBox.ButtonRole.RejectRole)
            box.setDefaultButton(locate)
            box.exec()
            if box.clickedButton() is not locate:
                continue
            chosen = open_file_name(self.window, f"Locate the {name} audio", AUDIO_FILTER, kind="audio",
                                    current=path.parent if path.parent.is_dir() else None, settings=self.settings)
            if chosen:
                found_in = Path(chosen).parent
                properties = current_properties(project)
                properties.audio[side] = audio_path_to_store(chosen, stored, project.path)
                self._apply_properties(properties, f"Locate the {name} audio")
                self.notify(f"The {name} audio now comes from {chosen}", 8000)

    def offer_untitled_recovery(self) -> bool:
        """At start-up: offer the newest autosave of a never-saved project (and its journal); True if one was opened."""
        untitled = self.keeper.untitled_work()
        if untitled is None:
            return False
        work = untitled.work
        edits = f", with {count_noun(work.edits, 'later edit')}" if work is not None and work.edits else ""
        answer = QMessageBox.question(
            self.window,
            "Recover unsaved work?",
            f"SI Aligner did not close properly last time. Recover the unsaved talk “{untitled.talk_id}” "
            f"(autosaved{edits}, last change {time.strftime('%Y-%m-%d %H:%M:%S', time.localtime(untitled.when))})?",
        )
        if answer != QMessageBox.StandardButton.Yes or work is None:
            self.keeper.discard_untitled(untitled)
            return False
        try:
            recovered = self.keeper.recover_untitled(untitled)
        except SialignError as exc:
            self.show_error("Cannot recover", error_text(exc))
            return False
        self.session.set_project(recovered.project, modified=True)
        self._go_on_after_recovery(recovered)
        if recovered.problem:
            self.show_error("Recovered in part", recovered.problem)
        return True

    def save(self) -> bool:
        if self.session.project.path is None:
            return self.save_as()
        return self.save_to(self.session.project.path)

    def save_as(self) -> bool:
        project = self.session.project
        path = save_file_name(self.window, "Save project as", f"{project.talk_id}{PROJECT_SUFFIX}", PROJECT_FILTER, kind="project",
                              current=project.path, settings=self.settings)
        if not path:
            return False
        if not is_project_file(path):
            path += PROJECT_SUFFIX
        self.discard_current_autosave()
        return self.save_to(path)

    def save_to(self, path: str) -> bool:
        """Save the project to ``path`` (its autosave goes); False when it could not be written."""
        self.session.commit_pending()
        project = self.session.project
        self._sync_timer.stop()
        ok, _ = self._file_operation("Cannot save", path, lambda: self.keeper.save(project, path, self.session.undo_steps()),
                                     " — choose another folder")
        if not ok:
            return False
        self.settings.setValue(_selected_key(path), self.session.selected_bead)
        self.session.mark_saved()
        self._add_recent(str(path))
        remember_folder(path, "project", self.settings)
        self._saved()
        self.notify(f"Saved {path}", 5000)
        return True

    def autosave(self) -> None:
        """Write the autosave when there are unsaved changes (never touches the project file).

        Serialising thousands of beads takes tens of milliseconds, so the
        write runs on a short-lived thread over a snapshot of the project.
        The edit journal notes the snapshot (a checkpoint) and starts over
        from the autosave once it is written.
        """
        project = self.session.project
        if not self.session.is_modified or (not len(project.source) and not len(project.target)):
            return
        if self._autosave_thread is not None and self._autosave_thread.is_alive():
            self._autosave_again = True  # the newer state is written when this one is done
            return
        copy = snapshot(project)
        copy.undo = self.session.undo_steps()
        mark = self.keeper.begin_autosave(project)

        def write() -> None:
            try:
                path = self.keeper.write_autosave(copy, mark)
            except (SialignError, OSError) as exc:
                self.autosave_done.emit(f"Autosave failed: {exc}")
                self.autosave_failed.emit(str(exc))
            else:
                self.autosave_written.emit(mark)
                self.autosave_done.emit(f"Autosaved to {path}")

        self._autosave_thread = threading.Thread(target=write, name="autosave", daemon=True)
        self._autosave_thread.start()

    def wait_for_autosave(self, timeout_s: float = 10.0) -> None:
        """Block until a running autosave has written its file (close, tests)."""
        if self._autosave_thread is not None:
            self._autosave_thread.join(timeout_s)

    def discard_current_autosave(self) -> None:
        """The open project's autosave and journal go (its changes were discarded, or another project comes)."""
        self.wait_for_autosave()
        self._sync_timer.stop()
        self.keeper.discard_recovery(self.session.project)

    # -- the edit journal ---------------------------------------------------------
    @property
    def journal_enabled(self) -> bool:
        return self.keeper.journal_enabled

    def set_journal_enabled(self, enabled: bool) -> None:
        """Journal edits (on while autosave is on: the journal lives from one autosave to the next)."""
        if not enabled:
            self._sync_timer.stop()
        self.keeper.set_journal_enabled(enabled)

    def close_journal(self) -> None:
        """Flush and close the journal, leaving its file (the window closes with unsaved work kept for recovery)."""
        self.keeper.close_journal()

    def _go_on_after_recovery(self, recovered: RecoveredWork) -> None:
        """After recovering: the journal goes on from what was recovered, or an autosave starts a new one now."""
        if not self.keeper.go_on_after_recovery(self.session.project, recovered):
            self.autosave()

    def _trouble(self, trouble: Trouble) -> None:
        """The journal or the autosave cannot be written where it is: say where they went, or that nothing protects the review."""
        if trouble.outcome == "unprotected":
            self._warn_unprotected(trouble.why)
        elif trouble.source == "journal":
            self.notify(f"The edit journal cannot be written beside the project ({trouble.why}); autosave and journal "
                        "go on in SI Aligner's own folder.", 10000)
            # The whole state first (once the edit being journalled is in): the new journal goes on from it.
            QTimer.singleShot(0, self.autosave)
        else:
            self.notify("The autosave cannot be written beside the project; it goes to SI Aligner's own folder.", 10000)
            self.autosave()

    def _autosave_failed(self, message: str) -> None:
        self.keeper.autosave_failed(self.session.project, message)

    def _warn_unprotected(self, why: str) -> None:
        """A dialog, once per project: neither the autosave nor the journal can be written anywhere."""
        self.notify(f"Your unsaved review is not protected: {why}", 15000)
        if self._warned_unprotected:
            return
        self._warned_unprotected = True
        QMessageBox.warning(
            self.window, "Your review is not protected",
            "SI Aligner can write the autosave and the edit journal of this project neither beside it nor in its "
            f"own folder ({why}), so a crash would lose the review you have not saved.\n\nSave the project now to a "
            "folder you can write to, with File → Save As…, and free some disk space.")

    def _journal_step(self, step: dict[str, Any]) -> None:
        if self.keeper.record(self.session.project, step) and not self._sync_timer.isActive():
            self._sync_timer.start()

    def _sync_journal(self) -> None:
        self.keeper.sync(self.session.project)

    def _autosave_written(self, mark: str) -> None:
        self.keeper.autosave_written(self.session.project, mark)
        if self._autosave_again:
            self._autosave_again = False
            self.autosave()

    def open_corpus_dialog(self) -> None:
        folder = existing_folder(self.window, "Open corpus folder", kind="corpus", settings=self.settings)
        if folder:
            self.open_corpus(folder)

    def new_corpus(self) -> CorpusWindow | None:
        """*File → New corpus…*: propose a manifest from a folder, save it and align it in the corpus window."""
        from sialign.gui.dialogs.new_corpus_dialog import NewCorpusDialog
        from sialign.gui.windows.corpus_window import CorpusWindow

        dialog = NewCorpusDialog(self.window, settings=self.settings)
        if dialog.exec() != NewCorpusDialog.DialogCode.Accepted:
            return None
        run = dialog.run()
        try:
            run.output.mkdir(parents=True, exist_ok=True)
            window = CorpusWindow(run.output, open_talk=self._review_corpus_talk, parent=self.window)
        except (SialignError, OSError) as exc:
            self.show_error("Corpus not created", f"{run.output}: {exc}")
            return None
        window.setWindowFlag(Qt.WindowType.Window, True)
        self.corpus_window = window
        window.show()
        window.align_manifest(str(run.manifest), run.jobs, tuple(run.filters))
        return window

    def open_corpus(self, folder: str) -> CorpusWindow | None:
        """Show the corpus window of ``folder``; its talks open here for review. None when it is no corpus."""
        from sialign.corpus.runner import STATE_FILE
        from sialign.gui.windows.corpus_window import CorpusWindow

        if not (Path(folder) / STATE_FILE).exists():
            self.show_error("Not a corpus folder", f"{folder} holds no {STATE_FILE}: align a corpus into it first "
                            "(File → New corpus…, or sialign corpus align MANIFEST -o FOLDER).")
            return None
        try:
            window = CorpusWindow(folder, open_talk=self._review_corpus_talk, parent=self.window)
        except SialignError as exc:
            self.show_error("Corpus not opened", error_text(exc))
            return None
        window.setWindowFlag(Qt.WindowType.Window, True)
        self.corpus_window = window
        window.show()
        return window

    def _review_corpus_talk(self, path: str) -> None:
        """Open a talk of the corpus window here and bring this window to the front, where the review happens."""
        if self.open_path(path):
            self.window.raise_()
            self.window.activateWindow()

    def report_dialog(self) -> None:
        from sialign.gui.dialogs.report_dialog import ReportDialog

        self.session.commit_pending()
        if self.session.project.alignment is not None:
            # The terms section comes with the last Check terms… when nothing changed since.
            ReportDialog(self.session.project, self.window, settings=self.settings, terms=self._terms_check()).exec()

    def _open_project_for_compare(self) -> tuple[Project, str]:
        self.session.commit_pending()
        return self.session.project, self.session.project.path or ""

    def compare_window(self) -> None:
        from sialign.gui.windows.compare_window import CompareWindow

        project = self.session.project
        aligned = project.alignment is not None and bool(project.alignment.beads)
        window = CompareWindow([project] if aligned else [], [project.path or ""] if aligned else [], self.window,
                               open_project=self._open_project_for_compare)
        window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        window.show()
        window.add_dialog()

    def export_dialog(self) -> None:
        from sialign.gui.dialogs.export_dialog import ExportDialog

        self.session.commit_pending()
        project = self.session.project
        if project.alignment is None:
            return
        base = Path(project.path).with_suffix("") if project.path else Path(
            last_folder("project", self.settings)
        ) / project.talk_id
        dialog = ExportDialog(project, str(base) + ".tsv", self.window)
        # The dialog writes the file itself (it stays open with the options on an error).
        if not dialog.exec():
            return
        self.notify(f"Exported {dialog.rows_written} rows to {dialog.options().path}", 8000)

    def open_example(self) -> None:
        from sialign.workflows.talks import example_folder, load_example

        if self.runner.busy or not self.maybe_save():
            return
        try:
            # The bundled example as an unaligned project, as `sialign demo` reads it; it has no file, so Save asks where.
            project = load_example(example_folder(None))
        except SialignError as exc:
            self.show_error("Cannot open the example", error_text(exc))
            return
        self.discard_current_autosave()
        self.session.set_project(project, modified=True)
        self._align()

    # -- recent files ---------------------------------------------------------------
    def recent_files(self) -> list[str]:
        value = self.settings.value("recent_files", [])
        if isinstance(value, str):
            return [value]
        return [str(v) for v in value] if isinstance(value, (list, tuple)) else []

    def _add_recent(self, path: str) -> None:
        recent = [p for p in self.recent_files() if p != path]
        recent.insert(0, path)
        self.settings.setValue("recent_files", recent[:MAX_RECENT])
        self.rebuild_recent_menu()

    def rebuild_recent_menu(self) -> None:
        """Fill *Open recent* with the recent files (the window calls it once at start-up)."""
        self.recent_menu.clear()
        recent = self.recent_files()
        for path in recent:
            action = self.recent_menu.addAction(Path(path).name)
            action.setToolTip(path)
            action.setStatusTip(path)
            action.triggered.connect(lambda _c=False, p=path: self.open_path(p))
        self.recent_menu.setEnabled(bool(recent))


def _selected_key(path: str | Path) -> str:
    """The settings key remembering the bead selected when the project at ``path`` was saved."""
    return "selected_bead/" + str(Path(path).resolve()).replace("/", "|")
