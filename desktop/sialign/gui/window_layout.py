"""The main window's construction: actions, the table panel, docks, menus, toolbar, status bar and signal wiring."""

from __future__ import annotations

from typing import Any, Callable

from PySide6.QtCore import QByteArray, QPoint, QRect, Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QFrame, QLabel, QMenu, QScrollArea, QWidget

from sialign.gui.screen_fit import FRAME_MARGIN, available_area
from sialign.gui.table_model import Column, is_flagged, is_low_confidence, is_unconfirmed


# Bump when docks are added or renamed, so an old saved layout is not
# restored onto a different set of docks.
LAYOUT_VERSION = 5
# The window's size on a screen with room for it; smaller screens get a maximised window.
DEFAULT_SIZE = (1400, 880)
# Screens with less free height than this start with compact table rows.
COMPACT_BELOW_HEIGHT = 900


class WindowLayout:
    """Mixin of :class:`~sialign.gui.main_window.MainWindow` that builds its widgets, actions and connections."""

    def _action(self, text: str, slot: Callable[[], Any], shortcut: Any = None, tip: str = "",
                checkable: bool = False) -> QAction:  # fmt: skip
        action = QAction(text, self)
        if shortcut is not None:
            if isinstance(shortcut, (list, tuple)):
                action.setShortcuts([QKeySequence(s) for s in shortcut])
            else:
                action.setShortcut(QKeySequence(shortcut))
        if tip:
            shortcut_text = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
            action.setToolTip(f"{tip} ({shortcut_text})" if shortcut_text else tip)
            action.setStatusTip(tip)
        action.setCheckable(checkable)
        action.triggered.connect(lambda _checked=False: self._run_command(slot))
        self.addAction(action)
        return action

    def _explain_unused_key(self, key: QKeySequence) -> None:
        """A command's key pressed while the command cannot run: say which command and why, not nothing."""
        for action in self.findChildren(QAction):
            if action.isEnabled() or key not in action.shortcuts():
                continue
            from sialign.gui.shortcuts import plain_text

            name = plain_text(action.text())
            reason = ""
            if action in (self.audio_panel.play_source_action, self.audio_panel.play_target_action,
                          self.audio_panel.play_both_action):  # fmt: skip
                reason = self.audio_panel.audio_error or "it needs a recording and times for the selected bead"
            elif self.session.selected_bead < 0:
                reason = "select a bead first"
            self.statusBar().showMessage(f"{name} ({key.toString()}) cannot be used now" + (f": {reason}" if reason else "."), 8000)
            return

    def _status_message_changed(self, text: str) -> None:
        # While a message shows, the embedder's name steps aside so the message has
        # the width; a message cut anyway can be read whole in the tooltip.
        self.statusBar().setToolTip(text)
        self.embedder_label.setVisible(not text)

    def _filters_visibility_changed(self, visible: bool) -> None:
        if not visible and self.filter_dock.isHidden() and not self.matrix_dock.isHidden():
            self.matrix_dock.raise_()

    def _clear_status(self, *_: Any) -> None:
        self.statusBar().clearMessage()

    def _run_command(self, slot: Callable[[], Any]) -> None:
        # A message of the command before ("No such bead left.") must not
        # linger under this one; the command shows its own, if any.
        self._clear_status()
        slot()

    def _build_actions(self) -> None:
        A = self._action
        K = QKeySequence.StandardKey
        self.act_new = A("&New talk…", self.new_talk, K.New, "Start a project from a talk's transcripts and audio")
        self.act_open = A("&Open…", self.open_dialog, K.Open, "Open a saved project")
        self.act_example = A("Open the &example talk", self.open_example, None, "Open the bundled example and align it")
        self.act_save = A("&Save", self.save, K.Save, "Save the project")
        self.act_save_as = A("Save &as…", self.save_as, K.SaveAs, "Save the project under a new name")
        self.act_properties = A("Project &properties…", self.project_properties, None,
                                "Talk id, languages, interpreter, and where the audio and reference files are")
        self.act_export = A("&Export…", self.export_dialog, "Ctrl+E", "Export the alignment as TSV, JSONL or TMX")
        self.act_new_corpus = A("New c&orpus…", self.new_corpus, None,
                                "Pair a folder's transcripts into a manifest and align every talk")  # fmt: skip
        self.act_corpus = A("Open &corpus…", self.open_corpus_dialog, None, "Show the talks of a corpus folder (sialign corpus align)")
        self.act_report = A("Export &report…", self.report_dialog, None, "A trainee's review report of this rendition (HTML or PDF)")
        self.act_compare = A("&Compare renditions…", self.compare_window, None, "Several renditions of this source side by side")
        self.act_quit = A("&Quit", self.close, K.Quit, "Close SI Aligner")

        self.act_undo = self.session.undo_action(self, "&Undo")
        self.act_undo.setShortcuts([QKeySequence(K.Undo)])
        self.act_undo.setToolTip("Undo the last edit (Ctrl+Z)")
        self.act_redo = self.session.undo_action(self, "&Redo", redo=True)
        self.act_redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        self.act_redo.setToolTip("Redo (Ctrl+Shift+Z)")
        self.addAction(self.act_undo)
        self.addAction(self.act_redo)

        self.act_align = A("&Align", self.align, "Ctrl+R", "Align the talk (confirmed beads stay as anchors)")
        self.act_realign = A("&Re-align unconfirmed", self.realign, "Ctrl+Shift+R",
                             "Re-align everything between confirmed beads, reusing cached embeddings")  # fmt: skip
        self.act_align_scratch = A("Align from &scratch…", self.align_from_scratch, None,
                                   "Align the whole talk again, ignoring confirmed beads")  # fmt: skip
        self.act_cancel = A("&Cancel", self.cancel_task, "Esc", "Stop the running alignment or scoring")
        self.act_filters = A("&Filters", self.show_filters, "Ctrl+Shift+F", "Show the filter thresholds")
        self.act_time_from_audio = A("&Time from audio…", self.time_from_audio, None,
                                     "Give a transcript without times the times of its recording (a local Whisper model)")  # fmt: skip

        self.act_confirm = A("&Confirm", self.review.confirm, "C", "Confirm the selected beads")
        self.act_drop = A("&Drop / restore", self.review.drop_or_restore, "D", "Drop the selected beads, or restore dropped ones")
        self.act_reset_status = A("Reset to &auto", self.review.reset_status, None, "Mark the selected beads unreviewed")
        self.act_merge_beads = A("&Merge with next bead", self.review.merge_with_next_bead, "M", "Merge the bead with the next one")
        self.act_merge_prev_bead = A("Merge with &previous bead", self.review.merge_with_previous_bead, "Shift+M",
                                     "Merge the bead with the previous one")  # fmt: skip
        self.act_split_bead = A("Split &bead…", self.review.split_bead, "B", "Split the bead in two")
        self.act_split_segment = A("&Split at cursor", self.review.split_segment, "Ctrl+K",
                                   "Split the segment under the text cursor of the bead inspector")  # fmt: skip
        self.act_merge_next_segment = A("Merge with ne&xt segment", self.review.merge_segment_next, "Ctrl+J",
                                        "Merge the segment under the cursor with the next segment")  # fmt: skip
        self.act_merge_prev_segment = A("Merge with pre&vious segment", self.review.merge_segment_previous, "Ctrl+Shift+J",
                                        "Merge the segment under the cursor with the previous segment")  # fmt: skip
        self.act_move_prev = A("Move first segment to previous bead", self.review.move_first_to_previous, "Alt+Up",
                               "Move the bead's first segment (side of the cursor) to the previous bead")  # fmt: skip
        self.act_move_next = A("Move last segment to next bead", self.review.move_last_to_next, "Alt+Down",
                               "Move the bead's last segment (side of the cursor) to the next bead")  # fmt: skip
        self.act_good_align = A("Label: good &alignment (cycle)", lambda: self.review.cycle_label("good_align"), "G",
                                "Cycle the good-alignment label: yes → no → not judged")  # fmt: skip
        self.act_good_mt = A("Label: good &translation (cycle)", lambda: self.review.cycle_label("good_mt"), "Shift+G",
                             "Cycle the good-translation label: yes → no → not judged")  # fmt: skip
        self.act_post_edit = A("&Post-edit target…", self.focus_post_edit, "E", "Type a corrected target text")
        self.act_find = A("&Find…", self.table_panel.focus_search, K.Find, "Search source and target text and notes")
        self._build_review_extras()

        self.act_next_unconfirmed = A("Next &unconfirmed", lambda: self.table_panel.go_next(is_unconfirmed), "N",
                                      "Go to the next bead nobody confirmed or dropped")  # fmt: skip
        self.act_prev_unconfirmed = A("Previous unconfirmed", lambda: self.table_panel.go_next(is_unconfirmed, True), "Shift+N",
                                      "Go to the previous unconfirmed bead")  # fmt: skip
        self.act_next_flagged = A("Next &flagged", lambda: self.table_panel.go_next(is_flagged), "F",
                                  "Go to the next bead a filter flagged or trimmed")  # fmt: skip
        self.act_explain = A("&Why this bead?", lambda: self.explainer.explain_selected(), "Ctrl+Shift+W",
                             "The learned bead score's probability and what each feature added (sialign explain)")  # fmt: skip
        self.act_check_terms = A("Check &terms…", lambda: self.terms.check_terms(), None,
                                 "How each term of a glossary was rendered: as expected, otherwise or not (sialign terms)")  # fmt: skip
        self.act_next_low = A("Next &low-confidence", lambda: self.table_panel.go_next(is_low_confidence), "W",
                              "Go to the next unreviewed bead with a high cost")  # fmt: skip
        self.act_next_doubtful = A("Next most &doubtful", self.table_panel.go_most_doubtful, "Q",
                                   "Go to the unreviewed bead the learned filter most doubts")  # fmt: skip

        self.act_fit = A("&Fit matrix to window", self.matrix.fit_to_window, "Ctrl+0", "Show the whole matrix")
        self.act_zoom_bead = A("&Zoom matrix to bead", lambda: self.matrix.zoom_to_bead(self.session.selected_bead),
                               "Ctrl+=", "Zoom the matrix around the selected bead")  # fmt: skip
        self.act_reset_layout = A("&Reset layout", self.reset_layout, None, "Put the panels back where they started")
        self.act_prefs = A("&Preferences…", self.edit_preferences, K.Preferences, "Low-confidence threshold, autosave")
        self.act_models = A("&Embedding model…", self.model_settings, None, "Choose and add sentence-embedding models")
        self.act_about = A("&About SI Aligner", self.about, None, "Version and licence")
        self.act_shortcuts = A("&Keyboard shortcuts…", self.show_shortcuts, None, "List every command's key and change keys")

    def _build_review_extras(self) -> None:
        """Confirm-and-advance, confirm up to here, segment text and times, time shifts, post-edit find/replace, compact rows."""
        from sialign.gui.review_dialogs import set_compact_rows

        A, review, settings = self._action, self.review, self.settings
        review.next_unconfirmed = lambda: self.table_panel.go_next(is_unconfirmed)
        self.act_confirm_advance = A("Confirm &moves to next unconfirmed", lambda: self._remember_option(
            "review/confirm_advances", self.act_confirm_advance), None, "After C, go to the next unconfirmed bead", True)  # fmt: skip
        self.act_confirm_up_to = A("Confirm all beads &up to here", review.confirm_up_to_here, "Shift+C",
                                   "Confirm every auto bead from the first to the selected one (dropped beads stay)")  # fmt: skip
        self.act_edit_text = A("Edit segment &text…", review.edit_segment_text, "F2",
                               "Correct the transcript text of the segment under the bead panel's cursor")  # fmt: skip
        self.act_edit_times = A("Edit segment t&imes…", review.edit_segment_times, "Shift+F2",
                                "Type the start and end of the segment under the bead panel's cursor")  # fmt: skip
        self.act_shift_times = A("S&hift times…", review.shift_times, None, "Move every time of the source or the target")
        self.act_find_replace = A("Find and replace in &post-edits…", review.find_replace_post_edits, "Ctrl+H",
                                  "Replace text in every post-edit, as one step")  # fmt: skip
        self.act_compact_rows = A("&Compact rows", self._compact_rows_toggled, None,
                                  "One text line per table row, so many more rows show", True)  # fmt: skip
        # On a laptop screen the table starts compact (more rows beside the bead panel) until the user chooses.
        free = self.free_area()
        compact = "true" if free is not None and free.height() < COMPACT_BELOW_HEIGHT else "false"
        for action, key, default in ((self.act_confirm_advance, "review/confirm_advances", "false"),
                                     (self.act_compact_rows, "view/compact_rows", compact)):  # fmt: skip
            action.setChecked(str(settings.value(key, default)).lower() == "true")
        review.confirm_advances = self.act_confirm_advance.isChecked()
        set_compact_rows(self.table, self.act_compact_rows.isChecked())
        # Double-clicking a source or target cell edits that side's text (beads holding one segment there).
        self.table.doubleClicked.connect(lambda index: index.column() in (Column.SOURCE, Column.TARGET) and review.edit_bead_text(
            self.proxy.bead_of(index), "src" if index.column() == Column.SOURCE else "tgt"))  # fmt: skip

    def _compact_rows_toggled(self) -> None:
        from sialign.gui.review_dialogs import set_compact_rows

        set_compact_rows(self.table, self.act_compact_rows.isChecked())
        self._remember_option("view/compact_rows", self.act_compact_rows)

    def _remember_option(self, key: str, action: QAction) -> None:
        self.settings.setValue(key, "true" if action.isChecked() else "false")
        self.review.confirm_advances = self.act_confirm_advance.isChecked()

    def show_shortcuts(self) -> None:
        from sialign.gui.shortcuts import ShortcutsDialog

        ShortcutsDialog(self.shortcuts, self).exec()

    @staticmethod
    def _scrollable(widget: QWidget) -> QScrollArea:
        """``widget`` in a scroll area, so its dock can shrink below the widget's minimum size.

        Without it the bead panel and the filters would make the window's
        minimum size taller than a 1366 × 768 laptop screen.
        """
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(widget)
        return scroll

    def _dock(self, title: str, name: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        dock.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetMovable
            | QDockWidget.DockWidgetFeature.DockWidgetFloatable
            | QDockWidget.DockWidgetFeature.DockWidgetClosable
        )
        self.addDockWidget(area, dock)
        return dock

    def _build_docks(self) -> None:
        # The table is the central review surface; everything else can move.
        self.setCentralWidget(self.table_panel)
        self.matrix_dock = self._dock("Alignment matrix", "matrix_dock", self.matrix, Qt.DockWidgetArea.LeftDockWidgetArea)
        self.inspector_dock = self._dock("Bead", "inspector_dock", self._scrollable(self.inspector),
                                         Qt.DockWidgetArea.BottomDockWidgetArea)  # fmt: skip
        # A tab beside the matrix, not a column beside the table: on a laptop
        # screen a third column left the table's text two characters wide.
        self.filter_dock = self._dock("Filters", "filter_dock", self._scrollable(self.filter_panel),
                                      Qt.DockWidgetArea.LeftDockWidgetArea)  # fmt: skip
        self.audio_dock = self._dock("Audio", "audio_dock", self.audio_panel, Qt.DockWidgetArea.TopDockWidgetArea)
        # The lag plot needs height more than width: a tab beside the matrix
        # gives it the matrix's area instead of a sliver of the audio strip.
        self.evs_dock = self._dock("Interpreter lag", "evs_dock", self.audio_panel.evs_view,
                                   Qt.DockWidgetArea.LeftDockWidgetArea)  # fmt: skip
        self.tabifyDockWidget(self.matrix_dock, self.evs_dock)
        self.tabifyDockWidget(self.matrix_dock, self.filter_dock)
        self.filter_dock.hide()
        self.matrix_dock.raise_()
        # Closing Filters brings the matrix back, not whichever tab sat next to it.
        self.filter_dock.visibilityChanged.connect(self._filters_visibility_changed)
        # Behind the matrix tab the plot stays "visible" to Qt: tell it, so edits skip its redraw.
        self.evs_dock.visibilityChanged.connect(self.audio_panel.evs_view.set_on_screen)
        self._default_state = self.saveState(LAYOUT_VERSION)

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        for action in (self.act_new, self.act_open):
            file_menu.addAction(action)
        self.recent_menu = file_menu.addMenu("Open &recent")
        file_menu.addAction(self.act_example)
        file_menu.addAction(self.act_new_corpus)
        file_menu.addAction(self.act_corpus)
        file_menu.addSeparator()
        for action in (self.act_save, self.act_save_as, self.act_export, self.act_report, self.act_compare):
            file_menu.addAction(action)
        file_menu.addAction(self.act_properties)
        file_menu.addSeparator()
        file_menu.addAction(self.act_quit)

        edit_menu = bar.addMenu("&Edit")
        edit_menu.addAction(self.act_undo)
        edit_menu.addAction(self.act_redo)
        edit_menu.addSeparator()
        segment_menu = edit_menu.addMenu("Se&gment")
        for action in (self.act_split_segment, self.act_merge_next_segment, self.act_merge_prev_segment,
                       self.act_move_prev, self.act_move_next, self.act_edit_text, self.act_edit_times):  # fmt: skip
            segment_menu.addAction(action)
        bead_menu = edit_menu.addMenu("&Bead")
        for action in (self.act_merge_beads, self.act_merge_prev_bead, self.act_split_bead):
            bead_menu.addAction(action)
        edit_menu.addAction(self.act_shift_times)
        edit_menu.addSeparator()
        edit_menu.addAction(self.act_find)
        edit_menu.addAction(self.act_find_replace)

        review_menu = bar.addMenu("&Review")
        for action in (self.act_confirm, self.act_confirm_up_to, self.act_confirm_advance, self.act_drop,
                       self.act_reset_status, None, self.act_good_align,
                       self.act_good_mt, self.act_post_edit, None, self.act_next_unconfirmed,
                       self.act_prev_unconfirmed, self.act_next_flagged, self.act_next_low,
                       self.act_next_doubtful, None, self.act_explain, self.act_check_terms):  # fmt: skip
            if action is None:
                review_menu.addSeparator()
            else:
                review_menu.addAction(action)

        align_menu = bar.addMenu("&Align")
        for action in (self.act_align, self.act_realign, self.act_align_scratch, self.act_cancel, None, self.act_filters,
                       None, self.act_time_from_audio):  # fmt: skip
            if action is None:
                align_menu.addSeparator()
            else:
                align_menu.addAction(action)

        self.view_menu = bar.addMenu("&View")
        for dock in (self.audio_dock, self.matrix_dock, self.evs_dock, self.inspector_dock, self.filter_dock):
            self.view_menu.addAction(dock.toggleViewAction())
        self.view_menu.addSeparator()
        self.view_menu.addAction(self.act_fit)
        self.view_menu.addAction(self.act_zoom_bead)
        self.view_menu.addAction(self.act_compact_rows)
        self.view_menu.addSeparator()
        self.view_menu.addAction(self.act_reset_layout)

        play_menu = bar.addMenu("&Play")
        for action in self.audio_panel.actions_for_menu():
            play_menu.addAction(action)

        settings_menu = bar.addMenu("&Settings")
        settings_menu.addAction(self.act_models)
        settings_menu.addAction(self.act_prefs)
        help_menu = bar.addMenu("&Help")
        help_menu.addAction(self.act_shortcuts)
        help_menu.addAction(self.act_about)

    def _build_toolbar(self) -> None:
        toolbar = self.addToolBar("Main")
        toolbar.setObjectName("main_toolbar")
        toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        toolbar.setMovable(True)
        play_source, play_target = self.audio_panel.play_source_action, self.audio_panel.play_target_action
        for action in (self.act_new, self.act_open, self.act_save, None, self.act_align, self.act_cancel, None,
                       self.act_undo, self.act_redo, None, play_source, play_target, None, self.act_filters,
                       self.act_export):  # fmt: skip
            if action is None:
                toolbar.addSeparator()
            else:
                toolbar.addAction(action)

    def _build_status_bar(self) -> None:
        bar = self.statusBar()
        self.embedder_label = QLabel("")
        self.counts_label = QLabel("")
        self.saved_label = QLabel("")
        # A gap between a status message and the permanent counts ("…32 beads)" never runs into "35 beads").
        for label in (self.embedder_label, self.counts_label, self.saved_label):
            label.setContentsMargins(12, 0, 0, 0)
        # The task runner's progress bar and Cancel button.
        self.progress, self.cancel_button = self.tasks.progress, self.tasks.cancel_button
        bar.addPermanentWidget(self.progress)
        bar.addPermanentWidget(self.cancel_button)
        bar.addPermanentWidget(self.embedder_label)
        bar.addPermanentWidget(self.counts_label)
        bar.addPermanentWidget(self.saved_label)
        # A message cut at a narrow window's edge can still be read whole.
        bar.messageChanged.connect(self._status_message_changed)

    def _connect(self) -> None:
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

    # -- menus and panels on demand -----------------------------------------------
    def _flips_changed(self, _flips: list[int]) -> None:
        # The beads the preview lists (drops, restores, flags and trims), as the panel counts them.
        n = len(self.filter_panel.changed)
        if n:
            self.statusBar().showMessage(f"{n} bead{'s' if n != 1 else ''} would change with these thresholds", 4000)

    def focus_post_edit(self) -> None:
        self.inspector_dock.show()
        self.inspector_dock.raise_()
        self.inspector.post_edit.setFocus()
        self.inspector.post_edit.selectAll()

    def _show_context_menu(self, global_pos: QPoint) -> None:
        if self.session.selected_bead < 0:
            return
        menu = QMenu(self)
        for action in (self.act_confirm, self.act_drop, self.act_reset_status, None, self.act_merge_beads,
                       self.act_merge_prev_bead, self.act_split_bead, None, self.act_move_prev, self.act_move_next,
                       None, self.act_good_align, self.act_good_mt, self.act_post_edit, None,
                       self.act_zoom_bead):  # fmt: skip
            if action is None:
                menu.addSeparator()
            else:
                menu.addAction(action)
        menu.popup(global_pos)

    # -- size and layout ---------------------------------------------------------
    def reset_layout(self) -> None:
        self.restoreState(self._default_state, LAYOUT_VERSION)
        self._default_sizes()

    def _default_sizes(self) -> None:
        """Panel sizes for the window's current size; on a laptop screen the table keeps the most room."""
        width = self.width()
        self.resizeDocks([self.matrix_dock], [int(width * 0.36)], Qt.Orientation.Horizontal)
        height = self.height()
        # The audio strip and the bead panel get a share of the height within
        # bounds; the bead panel scrolls rather than squeezing the table.
        audio = int(min(max(height * 0.2, 130), 260))
        inspector = int(min(max(height * 0.27, 250), 300))
        self.resizeDocks([self.audio_dock, self.inspector_dock], [audio, inspector], Qt.Orientation.Vertical)

    def free_area(self) -> QRect | None:
        """The free area (without panels and docks) of the screen the window is on; None without a screen."""
        return available_area(self)

    def _fit_to_screen(self) -> None:
        """Never larger than the screen's free area: the default size, or maximised on a smaller screen."""
        free = self.free_area()
        if free is None:
            self.resize(*DEFAULT_SIZE)
            return
        # Leave room for the frame and title bar a window manager adds.
        width = min(DEFAULT_SIZE[0], free.width() - FRAME_MARGIN[0])
        height = min(DEFAULT_SIZE[1], free.height() - FRAME_MARGIN[1])
        self.resize(width, height)
        if (width, height) != DEFAULT_SIZE:
            self.setWindowState(self.windowState() | Qt.WindowState.WindowMaximized)

    def _clamp_to_screen(self) -> None:
        """A geometry saved on a bigger screen is cut down to this one's free area."""
        free = self.free_area()
        if free is None:
            return
        width = min(self.width(), free.width() - FRAME_MARGIN[0])
        height = min(self.height(), free.height() - FRAME_MARGIN[1])
        if (width, height) != (self.width(), self.height()):
            self.resize(width, height)
        frame = self.frameGeometry()
        if not free.contains(frame.topLeft()):
            self.move(max(free.left(), min(frame.left(), free.right() - width)),
                      max(free.top(), min(frame.top(), free.bottom() - height)))  # fmt: skip

    def _restore_layout(self) -> None:
        geometry = self.settings.value("window/geometry")
        state = self.settings.value("window/state")
        if isinstance(geometry, QByteArray) and not geometry.isEmpty() and self.restoreGeometry(geometry):
            self._clamp_to_screen()
        else:
            self._fit_to_screen()
        restored = isinstance(state, QByteArray) and self.restoreState(state, LAYOUT_VERSION)
        # Sizes follow the window's final size: a window manager may maximise
        # it only after it is shown.
        self._size_docks_on_show = not restored
        self._rebuild_recent_menu()

    def _size_docks_after_show(self) -> None:
        """Called by the window's ``showEvent``."""
        if getattr(self, "_size_docks_on_show", False):
            self._size_docks_on_show = False
            QTimer.singleShot(0, self._default_sizes)
            QTimer.singleShot(400, self._default_sizes)

    def save_layout(self) -> None:
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState(LAYOUT_VERSION))
