"""The main window: matrix, table, bead inspector and filters as dock widgets.

Every view shows the session's selected bead; every change goes through
``session.apply`` (one undoable core edit). Long work (alignment, filter
scoring) runs in one worker at a time, with a progress bar and Cancel in
the status bar, while the window stays responsive. Layout, recent files and
preferences live in ``QSettings``; projects autosave beside their file (or
in the autosave folder while untitled) and the autosave is offered back
after a crash.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import PySide6.QtOpenGL  # noqa: F401  (pyqtgraph imports it dynamically; frozen builds need it explicit)
from PySide6.QtCore import QPoint, QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QShowEvent
from PySide6.QtWidgets import QMainWindow, QMenu, QMessageBox

from sialign.core.bead_summary import bead_summary, cost_threshold_for
from sialign.core.changes import Changes
from sialign.core.params import AlignParams
from sialign.core.plurals import count_noun
from sialign.core.progress import ProgressFn, StopFn
from sialign.gui.audio.audio_panel import AudioPanel
from sialign.gui.bead.bead_inspector import BeadInspector
from sialign.gui.bead.links_service import LinksService
from sialign.gui.booth.practice import PracticeController
from sialign.gui.common.session import ProjectSession, touched_segments
from sialign.gui.common.workers import TaskWorker
from sialign.gui.dialogs.explain_dialog import ExplainController
from sialign.gui.dialogs.preferences import Preferences, PreferencesDialog
from sialign.gui.dialogs.review_questions import ReviewQuestions
from sialign.gui.dialogs.split_bead import SplitBeadDialog
from sialign.gui.dialogs.terms_dialog import TermsController
from sialign.gui.filters.doubt import DoubtService
from sialign.gui.filters.filter_panel import FilterPanel
from sialign.gui.main.project_files import ProjectFilesController
from sialign.gui.main.review_actions import ReviewActions
from sialign.gui.main.shortcuts import ShortcutManager, install_typing_guard
from sialign.gui.main.task_runner import AlignmentController, TaskRunner
from sialign.gui.main.window_layout import MainActions, WindowLayout
from sialign.gui.matrix.matrix_view import MatrixView
from sialign.gui.matrix.similarity_service import SimilarityService
from sialign.gui.resources import app_icon
from sialign.gui.table.table_panel import TablePanel

APP_NAME = "SI Aligner"
# The embedder's name in the status bar is cut to this width (pixels); its tooltip has all of it.
EMBEDDER_LABEL_WIDTH = 260


def error_log_path() -> Path:
    """Where unexpected errors are written (the dialog names this file, never shows a traceback)."""
    from sialign.core.paths import error_log_path as path

    return path()


class MainWindow(QMainWindow):
    """The application window around one :class:`ProjectSession`.

    It owns its views and the controllers they share: ``files``
    (:class:`ProjectFilesController`: open, save, autosave, recovery, export,
    recent files), ``act`` (:class:`MainActions`: every command),
    ``panels`` (:class:`WindowLayout`: docks, menus, status bar, saved
    layout), ``review``, ``tasks``, ``aligner``, ``explainer`` and ``terms``.
    """

    def __init__(self, session: ProjectSession | None = None, *, settings: QSettings | None = None) -> None:
        super().__init__()
        self.session = session or ProjectSession(parent=self)
        self.settings = settings or QSettings()
        self.prefs = Preferences.load(self.settings)
        # Long work: the runner sees the session and how to show an error; the
        # aligner sees the session, the runner and this window as its dialogs' parent.
        self.tasks = TaskRunner(self.session, lambda title, message: self.show_error(title, message), self)
        self.runner = self.tasks.runner
        self.aligner = AlignmentController(self.session, self.tasks, lambda title, message: self.show_error(title, message),
                                           self)
        self.explainer = ExplainController(self.session, self.run_task, lambda title, message: self.show_error(title, message),
                                           self)
        self.terms = TermsController(self.session, self.run_task, lambda title, message: self.show_error(title, message),
                                     self, self.settings)
        self.setWindowIcon(app_icon())
        self.setDockNestingEnabled(True)
        self.setDockOptions(
            QMainWindow.DockOption.AnimatedDocks
            | QMainWindow.DockOption.AllowNestedDocks
            | QMainWindow.DockOption.AllowTabbedDocks
        )

        # -- models and views ---------------------------------------------------
        # The review table with its search bar; it sees the session, the
        # low-confidence threshold and the doubt per bead, not the window.
        self.table_panel = TablePanel(
            self.session, self._cost_threshold, lambda: (self.doubt.by_bead, self.doubt.busy)
        )
        self.table_model = self.table_panel.model
        self.table_model.set_low_confidence(self.prefs.low_confidence)
        self.proxy = self.table_panel.proxy
        self.table = self.table_panel.table
        # Short names for the search bar's widgets (tests and the window's wiring use them).
        panel = self.table_panel
        self.search_edit, self.regex_box, self.search_message = panel.search_edit, panel.regex_box, panel.search_message
        self.status_filter, self.flag_filter, self.cost_filter = panel.status_filter, panel.flag_filter, panel.cost_filter
        self.shown_label = panel.shown_label
        self.table.sortByColumn(-1, Qt.SortOrder.AscendingOrder)
        self.matrix = MatrixView()
        self.inspector = BeadInspector(self.session)
        self.filter_panel = FilterPanel(self.session, self.run_task)
        # The learned filter retrains in the background as the reviewer works.
        self.doubt = DoubtService(self.session, self)
        # The matrix of an opened project gets its colours in the background.
        self.colours = SimilarityService(self.session, self)
        # Word links of the beads are drawn in the background too, after every change.
        self.word_links = LinksService(self.session, self)
        self.word_links.links_changed.connect(self.table_model.links_changed)
        self.word_links.links_changed.connect(self.inspector.show_links)
        self.word_links.state_changed.connect(self.inspector.set_links_message)
        self.filter_panel.attach_doubt(self.doubt)
        self.audio_panel = AudioPanel(self.session, with_evs=False)
        self.review = ReviewActions(self.session, self.table_panel.selected_beads, self.inspector.current_segment,
                                    self._ask_split, notify=lambda message: self.statusBar().showMessage(message, 10000),
                                    questions=ReviewQuestions(self))

        # Open recent: filled by the project files, placed in the File menu by the layout.
        self.recent_menu = QMenu("Open &recent", self)
        self.files = ProjectFilesController(
            self, self.session, self.runner, self.settings, recent_menu=self.recent_menu,
            show_error=lambda title, message: self.show_error(title, message),
            notify=lambda message, ms: self.statusBar().showMessage(message, ms),
            align=lambda: self.align(), terms_check=lambda: self.terms.current_check(),
            saved=self._update_title,
        )
        # The practice booth: sessions land in this window's project.
        self.practice = PracticeController(self, self.session, self.files, self.settings,
                                           notify=lambda message, ms: self.statusBar().showMessage(message, ms),
                                           speech_models=lambda: self.speech_models())
        self.panels: WindowLayout = WindowLayout(self, self)
        self.act = act = MainActions(self, self.panels.free_area())
        for action, short in ((act.merge_next_segment, "Merge with next"),
                              (act.merge_prev_segment, "Merge with previous"),
                              (act.move_prev, "← To previous bead"), (act.move_next, "To next bead →"),
                              (act.edit_text, "Edit text…"), (act.edit_times, "Times…")):
            action.setIconText(short)
        self.inspector.attach_actions(
            [act.split_segment, act.merge_next_segment, act.merge_prev_segment, None,
             act.move_prev, act.move_next, None, act.edit_text, act.edit_times],
            [act.confirm, act.drop],
        )
        self.table_panel.add_navigation(
            [act.next_unconfirmed, act.next_omission, act.next_flagged, act.next_low, act.next_doubtful]
        )
        parts = self.panels.build(self.recent_menu)
        # Short names for the parts the window updates (tests use them too).
        self.matrix_dock, self.inspector_dock, self.filter_dock = parts.matrix_dock, parts.inspector_dock, parts.filter_dock
        self.audio_dock, self.evs_dock, self.view_menu = parts.audio_dock, parts.evs_dock, parts.view_menu
        self.embedder_label, self.counts_label, self.saved_label = parts.embedder_label, parts.counts_label, parts.saved_label
        self.progress, self.cancel_button = self.tasks.progress, self.tasks.cancel_button
        self._connect()
        install_typing_guard()
        self.shortcuts = ShortcutManager(self, self.settings, skip_menus=(self.recent_menu,))

        self.files.autosave_done.connect(lambda message: self.statusBar().showMessage(message, 4000),
                                         Qt.ConnectionType.QueuedConnection)
        self.autosave_timer = QTimer(self)
        self.autosave_timer.timeout.connect(self.files.autosave)
        self._apply_prefs()
        self.panels.restore_layout()
        self.files.rebuild_recent_menu()
        self._project_replaced()

    # ======================================================================
    # wiring
    def _connect(self) -> None:
        # Bound methods, not lambdas holding widgets: Qt disconnects them when the window goes.
        s = self.session
        s.project_replaced.connect(self._project_replaced)
        s.alignment_replaced.connect(self._alignment_replaced)
        s.edited.connect(self._edited)
        s.selection_changed.connect(self._selection_changed)
        # Undo and redo (and every edit) start a new status: the last edit's notice goes.
        s.undo_stack.indexChanged.connect(self._clear_status)
        s.modified_changed.connect(lambda _m: self._update_title())
        s.edit_failed.connect(self._edit_failed)
        s.similarity_changed.connect(lambda: self.matrix.set_grid(s.similarity))
        self.colours.state_changed.connect(self.matrix.set_note)
        self.table.context_requested.connect(self._show_context_menu)
        self.table.unused_key.connect(self._explain_unused_key)
        self.matrix.bead_clicked.connect(s.select_bead)
        self.matrix.context_requested.connect(lambda _i, pos: self._show_context_menu(pos))
        self.table_panel.message.connect(self.statusBar().showMessage)
        self.tasks.busy_changed.connect(self._update_enabled)
        self.tasks.message.connect(self.statusBar().showMessage)
        self.aligner.installed.connect(self._alignment_installed)
        self.filter_panel.flips_changed.connect(self._flips_changed)
        self.filter_panel.table_filter_changed.connect(self.table_panel.show_only)
        self.doubt.doubt_changed.connect(lambda: self.table_model.set_doubt(self.doubt.by_bead))
        self.doubt.failed.connect(lambda message: self.statusBar().showMessage(message, 8000))
        # A message cut at a narrow window's edge can still be read whole.
        self.statusBar().messageChanged.connect(self._status_message_changed)
        # Closing Filters brings the matrix back, not whichever tab sat next to it.
        self.filter_dock.visibilityChanged.connect(self._filters_visibility_changed)

    def _clear_status(self, *_: object) -> None:
        self.statusBar().clearMessage()

    def _status_message_changed(self, text: str) -> None:
        # While a message shows, the embedder's name steps aside so the message has
        # the width; a message cut anyway can be read whole in the tooltip.
        self.statusBar().setToolTip(text)
        self.embedder_label.setVisible(not text)

    def _filters_visibility_changed(self, visible: bool) -> None:
        if not visible and self.filter_dock.isHidden() and not self.matrix_dock.isHidden():
            self.matrix_dock.raise_()

    def _explain_unused_key(self, key: QKeySequence) -> None:
        """A command's key pressed while the command cannot run: say which command and why, not nothing."""
        for action in self.findChildren(QAction):
            if action.isEnabled() or key not in action.shortcuts():
                continue
            from sialign.gui.main.shortcuts import plain_text

            name = plain_text(action.text())
            reason = ""
            audio = self.audio_panel
            if action in (audio.play_source_action, audio.play_target_action, audio.play_both_action):
                reason = audio.audio_error or "it needs a recording and times for the selected bead"
            elif self.session.selected_bead < 0:
                reason = "select a bead first"
            self.statusBar().showMessage(f"{name} ({key.toString()}) cannot be used now" + (f": {reason}" if reason else "."), 8000)
            return

    def _flips_changed(self, _flips: list[int]) -> None:
        # The beads the preview lists (drops, restores, flags and trims), as the panel counts them.
        n = len(self.filter_panel.changed)
        if n:
            self.statusBar().showMessage(f"{n} bead{'s' if n != 1 else ''} would change with these thresholds", 4000)

    def _show_context_menu(self, global_pos: QPoint) -> None:
        if self.session.selected_bead < 0:
            return
        act = self.act
        menu = QMenu(self)
        for action in (act.confirm, act.drop, act.reset_status, None, act.merge_beads,
                       act.merge_prev_bead, act.split_bead, None, act.move_prev, act.move_next,
                       None, act.good_align, act.good_mt, act.post_edit, None,
                       act.zoom_bead):
            if action is None:
                menu.addSeparator()
            else:
                menu.addAction(action)
        menu.popup(global_pos)

    def focus_post_edit(self) -> None:
        self.inspector_dock.show()
        self.inspector_dock.raise_()
        self.inspector.post_edit.setFocus()
        self.inspector.post_edit.selectAll()

    def show_shortcuts(self) -> None:
        from sialign.gui.dialogs.shortcuts_dialog import ShortcutsDialog

        ShortcutsDialog(self.shortcuts, self).exec()

    # ======================================================================
    # session → views
    def _project_replaced(self) -> None:
        # Another talk: the last one's search and filters would hide its rows.
        self.table_panel.clear_filters()
        self.table_model.reset()
        # The last talk's scroll position means nothing here: start at the top (or the selected bead).
        self.table.scrollToTop()
        self.table_panel.show_selection(self.session.selected_bead)
        self.matrix.set_project(self.session.project, self.session.similarity)
        self.table_panel.refresh_flag_filter()
        self._update_title()
        self._update_counts()
        self._update_enabled()
        self._focus_table()

    def _focus_table(self) -> None:
        # Review keys (N, C, D…) act at once; the search box would take them as text.
        if self.session.project.alignment is not None:
            self.table.setFocus()

    def _alignment_replaced(self) -> None:
        self.table_model.reset()
        # A reset leaves the table without a current row, and a table getting the focus back
        # (the window reactivated after a re-alignment) would make its first row current — and
        # the session would follow it to bead 1. Show the selected bead again at once; the
        # session then moves the selection to the bead that holds its segments.
        self.table_panel.show_selection(self.session.selected_bead)
        self.matrix.set_project(self.session.project, self.session.similarity, fit=False)
        self.matrix.set_selected_bead(self.session.selected_bead, ensure_visible=False)
        self.table_panel.refresh_flag_filter()
        self._update_counts()
        self._update_enabled()

    def _edited(self, edit: Changes) -> None:
        self.table_model.sync(touched_segments(edit))
        self.matrix.refresh_documents()
        if edit.talk:  # the talk id or the languages: the title names them
            self._update_title()
        self._update_counts()
        self._update_enabled()

    def _selection_changed(self, index: int) -> None:
        # The table panel follows the session itself.
        self.matrix.set_selected_bead(index)
        self._update_enabled()

    def _edit_failed(self, message: str) -> None:
        self.statusBar().showMessage(f"Not done: {message}", 10000)

    def _update_title(self) -> None:
        project = self.session.project
        if project.path is None and not len(project.source) and not len(project.target):
            # Nothing open yet: the window is just the application.
            self.setWindowTitle(APP_NAME)
            self.setWindowModified(False)
            self.saved_label.setText("")
            return
        name = Path(project.path).name if project.path else f"{project.talk_id} (not saved)"
        if project.path is None and self.files.read_only_of:
            name = f"{Path(self.files.read_only_of).name} (read-only copy: open in {self.files.read_only_holder})"
        self.setWindowTitle(f"{name}[*] — {APP_NAME}")
        self.setWindowModified(self.session.is_modified)
        if project.path is None:
            self.saved_label.setText("not saved yet")
        elif self.session.is_modified:
            self.saved_label.setText("modified")
        else:
            self.saved_label.setText("saved")

    def _update_counts(self) -> None:
        project = self.session.project
        alignment = project.alignment
        if alignment is None:
            from sialign.workflows.aligning import embedder_choice

            choice = embedder_choice(project, self.align_params())
            self.embedder_label.setText(f"embedder: {choice.spec}")
            self.embedder_label.setToolTip(choice.note)
            self.counts_label.setToolTip("")
            if not len(project.source) and not len(project.target):
                self.embedder_label.setText("")  # chosen per language pair once a talk is open
                self.counts_label.setText("no talk open")
            else:
                self.counts_label.setText(f"{len(project.source)} × {count_noun(len(project.target), 'segment')} · not aligned")
            return
        full = f"embedder: {alignment.embedder or '?'}"
        note = str(alignment.info.get("embedder_note", ""))
        # Cut to a short width, whole in the tooltip with the reason it was
        # chosen: on a laptop screen the status bar's messages need the room.
        metrics = self.embedder_label.fontMetrics()
        self.embedder_label.setText(metrics.elidedText(full, Qt.TextElideMode.ElideRight, EMBEDDER_LABEL_WIDTH))
        self.embedder_label.setToolTip("\n".join(part for part in (full, note) if part))
        summary = bead_summary(project, self.prefs.low_confidence)
        # What was left out first: it is what a trainer reads first (the one count of sialign.core.coverage).
        text = (f"{summary.beads} beads · {count_noun(summary.omissions, 'omission')} · {summary.confirmed} confirmed · "
                f"{summary.flagged} flagged · {summary.dropped} dropped")
        if summary.median_evs is not None:
            text += f" · median EVS {summary.median_evs:.1f} s"
        self.counts_label.setText(text)
        self.counts_label.setToolTip(
            f"{summary.unreviewed} unreviewed, {summary.low_confidence} low confidence; "
            f"{count_noun(summary.omissions, 'omission')}"
            + ("" if summary.evs is None else f"; ear-voice span over {count_noun(summary.evs.n, 'bead')} with times")
        )

    def _update_enabled(self) -> None:
        busy = self.runner.busy
        project = self.session.project
        has_text = len(project.source) > 0 and len(project.target) > 0
        aligned = project.alignment is not None and len(project.alignment.beads) > 0
        selected = aligned and self.session.selected_bead >= 0
        for action in (self.act.align, self.act.align_scratch):
            action.setEnabled(has_text and not busy)
        self.act.realign.setEnabled(aligned and not busy)
        self.act.save.setEnabled(has_text)
        self.act.save_as.setEnabled(has_text)
        self.act.properties.setEnabled(has_text and not busy)
        self.act.cancel.setEnabled(busy)
        self.act.export.setEnabled(aligned)
        self.act.report.setEnabled(aligned)
        self.act.check_terms.setEnabled(aligned and not busy)
        for action in (self.act.confirm, self.act.drop, self.act.reset_status, self.act.merge_beads,
                       self.act.merge_prev_bead, self.act.split_bead, self.act.split_segment,
                       self.act.merge_next_segment, self.act.merge_prev_segment, self.act.move_prev,
                       self.act.move_next, self.act.good_align, self.act.good_mt, self.act.post_edit,
                       self.act.confirm_up_to, self.act.edit_text, self.act.edit_times, self.act.explain):
            action.setEnabled(selected and not busy)
        for action in (self.act.next_unconfirmed, self.act.prev_unconfirmed, self.act.next_omission, self.act.next_flagged, self.act.next_low,
                       self.act.next_doubtful):
            action.setEnabled(aligned)
        self.act.undo.setEnabled(self.session.undo_stack.canUndo() and not busy)
        self.act.redo.setEnabled(self.session.undo_stack.canRedo() and not busy)

    # -- long work (delegated) ------------------------------------------------------
    def run_task(self, worker: TaskWorker, on_success: Callable[[Any], None]) -> bool:
        """Run ``worker`` (one at a time); ``on_success`` gets its result on the GUI thread."""
        return self.tasks.run_task(worker, on_success)

    def cancel_task(self) -> None:
        self.tasks.cancel()

    def time_from_audio(self) -> None:
        """Align → Time from audio…: time the source or the interpretation from its recording (one undoable step)."""
        from sialign.gui.common.workers import snapshot
        from sialign.gui.dialogs.time_from_audio import TimeFromAudioDialog
        from sialign.workflows.retiming import SIDE_NAMES, RetimeResult, retime_side

        dialog = TimeFromAudioDialog(self.session.project, self)
        if not dialog.exec() or dialog.model is None:
            return
        side, model = dialog.side, dialog.model
        name = SIDE_NAMES[side].capitalize()
        project = snapshot(self.session.project)

        def task(progress: ProgressFn, should_stop: StopFn) -> RetimeResult:
            return retime_side(project, side, model, progress=progress, should_stop=should_stop)

        def apply(result: RetimeResult) -> None:
            if self.session.apply(result.edit):
                stats = result.stats
                self.statusBar().showMessage(
                    f"{name} timed from its recording: {stats.matched} of {stats.tokens} words found, "
                    f"{stats.timed_from_words} of {stats.segments} segments from their own words (Undo restores the times).", 15000)

        self.run_task(TaskWorker(task, "Timing from audio"), apply)

    def align(self, *, keep_confirmed: bool = True, on_done: Callable[[], None] | None = None) -> bool:
        """Start aligning the talk in a worker; True when it started."""
        return self.aligner.align(keep_confirmed=keep_confirmed, on_done=on_done)

    def realign(self) -> None:
        self.aligner.align(keep_confirmed=True)

    def align_from_scratch(self) -> None:
        self.aligner.align_from_scratch()

    def align_params(self) -> AlignParams:
        return self.aligner.align_params()

    @property
    def last_align_seconds(self) -> dict[str, float]:
        return self.aligner.last_align_seconds

    def _alignment_installed(self, first_run: bool) -> None:
        if first_run:
            self.matrix.fit_to_window()
        self._focus_table()
        # Autosave once the new result has been drawn, not while it is.
        QTimer.singleShot(1500, self.files.autosave)

    def show_error(self, title: str, message: str) -> None:
        """A readable error dialog (tests replace ``QMessageBox.warning``)."""
        QMessageBox.warning(self, title, message)

    def _log_error(self, details: str) -> None:
        from sialign.gui.common.error_log import log_error

        log_error(details)

    def _ask_split(self, index: int) -> tuple[int, int] | None:
        """How many source and target segments the first half of bead ``index`` keeps (None: cancelled)."""
        dialog = SplitBeadDialog(self.session.project, index, self)
        return dialog.counts() if dialog.exec() else None

    # ======================================================================
    # panels, settings
    def show_filters(self) -> None:
        self.filter_dock.show()
        self.filter_dock.raise_()

    def _cost_threshold(self) -> float:
        """The low-confidence cost of the open project (none over a machine transcript: ``cost_threshold_for``)."""
        project = self.session.project
        return self.prefs.low_confidence if project is None else cost_threshold_for(project, self.prefs.low_confidence)

    def _apply_prefs(self) -> None:
        self.table_model.set_low_confidence(self.prefs.low_confidence)
        if self.prefs.autosave_minutes > 0:
            self.autosave_timer.start(self.prefs.autosave_minutes * 60_000)
        else:
            self.autosave_timer.stop()
        # The edit journal lives from one autosave to the next.
        self.files.set_journal_enabled(self.prefs.autosave_minutes > 0)

    def edit_preferences(self) -> None:
        dialog = PreferencesDialog(self.prefs, self)
        if dialog.exec():
            self.prefs = dialog.preferences()
            self.prefs.save(self.settings)
            self._apply_prefs()

    def speech_models(self) -> None:
        """Settings → Speech models…: the Whisper models for transcribing and timing from audio."""
        from sialign.gui.dialogs.speech_models import open_speech_models

        open_speech_models(self)

    def alignment_settings(self) -> None:
        """Settings → Alignment…: the talk's target units and text kind (one undoable step, used at the next Align)."""
        from sialign.core.errors import SialignError
        from sialign.gui.dialogs.alignment_settings import AlignmentSettingsDialog
        from sialign.workflows.aligning import alignment_settings_edit

        dialog = AlignmentSettingsDialog(self.session.project, self)
        if dialog.exec() != AlignmentSettingsDialog.DialogCode.Accepted:
            return
        try:
            edit = alignment_settings_edit(self.session.project, *dialog.choices())
        except SialignError as exc:
            self.show_error("Alignment settings", str(exc))
            return
        if edit is not None and self.session.apply(edit):
            self.statusBar().showMessage("Alignment settings saved with the talk; Align (Ctrl+R) to use them.", 8000)

    def model_settings(self) -> None:
        from sialign.gui.dialogs.model_settings import ModelSettingsDialog
        from sialign.workflows.aligning import embedder_choice

        active = embedder_choice(self.session.project, self.align_params()).spec
        dialog = ModelSettingsDialog(self, active=active)
        dialog.default_changed.connect(self._default_model_changed)
        dialog.exec()

    def _default_model_changed(self, name: str) -> None:
        """The user chose a model (or cleared the default): the open talk aligns with it from now on (one undoable step)."""
        from sialign.core.edits import SetParams
        from sialign.workflows.aligning import embedder_choice
        from sialign.workflows.talks import default_embedder

        spec = name or default_embedder()
        params = self.align_params()
        if params.embedder != spec and not self.session.apply(SetParams(replace(params, embedder=spec), label=f"Align with {spec}")):
            return
        self._update_counts()
        used = embedder_choice(self.session.project, self.align_params()).spec
        self.statusBar().showMessage(f"Align (Ctrl+R) now uses {used}.", 8000)

    def about(self) -> None:
        import sialign

        QMessageBox.about(
            self,
            f"About {APP_NAME}",
            f"<b>{APP_NAME}</b> {sialign.__version__}<br>Align a talk with its simultaneous interpretation, "
            "review the alignment and export a parallel corpus — offline.<br>MIT licence.",
        )

    # ======================================================================
    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.panels.size_docks_after_show()

    def closeEvent(self, event: QCloseEvent) -> None:
        # A practice session first: its recording is stopped (and kept) before the project is saved.
        if not self.practice.may_quit() or not self.files.maybe_save():
            event.ignore()
            return
        if self.runner.busy:
            self.runner.cancel()
            self.runner.wait(3000)
        if not self.session.is_modified:
            self.files.discard_current_autosave()
        self.panels.save_layout()
        self.autosave_timer.stop()
        self.files.close_journal()
        self.files.release_lock()
        self.audio_panel.shutdown()
        self.doubt.shutdown()
        self.colours.shutdown()
        self.word_links.shutdown()
        event.accept()

