"""The main window's side of the booth (``window.practice``): *Practice → New session…* and what a session leaves.

:class:`PracticeController` opens the :class:`~sialign.gui.booth.booth_window.BoothWindow`
and is its host: it says which project is open, asks to save it before a
session replaces it, shows the live result in the main window, installs the
full pass as one undoable step (:func:`sialign.workflows.booth.practice_edit`)
and saves the session's project, and opens the report and *Compare renditions*.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QSettings, Qt
from PySide6.QtWidgets import QWidget

from sialign.core.model import Project
from sialign.gui.common.session import ProjectSession
from sialign.gui.main.project_files import ProjectFilesController

if TYPE_CHECKING:  # both windows are imported when first opened
    from sialign.gui.booth.booth_window import BoothOptions, BoothWindow
    from sialign.gui.windows.compare_window import CompareWindow


class PracticeController(QObject):
    """Opens the booth and puts its sessions into the main window.

    Args:
        window: the main window (the booth's parent and the dialogs').
        session: the open project.
        files: the main window's :class:`~sialign.gui.main.project_files.ProjectFilesController`
            (save, report, autosave).
        notify: shows a message in the main window's status bar.
        speech_models: opens *Settings → Speech models* (modal).
        booth_options: extra keyword arguments for the booth window (tests inject fakes).
    """

    def __init__(self, window: QWidget, session: ProjectSession, files: ProjectFilesController, settings: QSettings, *,
                 notify: Callable[[str, int], None], speech_models: Callable[[], None] = lambda: None,
                 booth_options: BoothOptions | None = None) -> None:
        super().__init__(window)
        self._window = window
        self.session = session
        self.files = files
        self.settings = settings
        self.notify = notify
        self._speech_models = speech_models
        self.booth_options: BoothOptions = booth_options if booth_options is not None else {}
        self.booth: BoothWindow | None = None
        self.compare_window: CompareWindow | None = None

    # -- the menu command -----------------------------------------------------------------
    def new_session(self) -> BoothWindow:
        """*Practice → New session…*: show the booth (the same window while a session runs)."""
        from sialign.gui.booth.booth_window import BoothWindow

        if self.booth is None:
            self.booth = BoothWindow(self, settings=self.settings, parent=self._window, **self.booth_options)
        elif not self.booth.busy:
            self.booth.refresh_talk_choices()
            self.booth.refresh_devices()
        self.booth.show()
        self.booth.raise_()
        self.booth.activateWindow()
        return self.booth

    def review_recording(self) -> BoothWindow:
        """*Practice → Review a recorded rendition…*: the booth, asking for the file (a session running keeps going)."""
        booth = self.new_session()
        if not booth.busy:
            booth.review_recording()
        return booth

    def may_quit(self) -> bool:
        """The application is closing: a running session asks first (its recording is kept)."""
        return self.booth is None or self.booth.may_quit()

    # -- BoothHost ------------------------------------------------------------------------
    def open_project(self) -> Project | None:
        project = self.session.project
        return project if len(project.source) else None

    def may_replace(self) -> bool:
        """A session's result will replace the open project: offer to save it first."""
        return bool(self.files.maybe_save())

    def _install(self, project: Project, message: str) -> None:
        """Show a session's project in the main window and save it at once (to its path, when it has one)."""
        self.files.discard_current_autosave()
        self.session.set_project(project, modified=True)
        if project.path:
            self.files.save_to(project.path)
        self.notify(message, 10000)

    def install_live(self, project: Project) -> None:
        """Show the session as the live view left it, and save it at once (the full pass then replaces its beads)."""
        self._install(project, "The live alignment is in the main window; the full pass over the recording is running.")

    def apply_full_pass(self, final: Project) -> bool:
        """Replace the live transcript and beads with the full pass (one undoable step) and save the session."""
        from sialign.workflows.booth import PRACTICE_LABEL, practice_edit

        if not self.session.apply(practice_edit(self.session.project, final)):
            return False
        path = self.session.project.path
        if path:
            self.files.save_to(path)
        self.notify(f"{PRACTICE_LABEL}: done (Undo shows the live beads again).", 10000)
        return True

    def install_reviewed(self, project: Project) -> None:
        """Show a rendition reviewed from a file (the full pass, no live view) and save it as a session at once."""
        self._install(project, "The recorded rendition is aligned and saved as a practice session.")

    def speech_models(self) -> None:
        """Settings → Speech models (modal); the booth lists the models again afterwards."""
        self._speech_models()

    def set_locked(self, reason: str) -> None:
        self.session.locked_reason = reason

    def open_report(self) -> None:
        self.files.report_dialog()

    def compare(self, path: str) -> CompareWindow:
        """*Compare renditions* with this session and the earlier sessions of the same talk beside it."""
        from sialign.gui.windows.compare_window import CompareWindow
        from sialign.workflows.booth import earlier_sessions

        project = self.session.project
        window = CompareWindow([project], [path or project.path or ""], self._window)
        window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        window.show()
        others = [str(p) for p in earlier_sessions(path)] if path else []
        if others:
            window.add_paths(others)
        else:
            window.add_dialog()
        self.compare_window = window
        return window
