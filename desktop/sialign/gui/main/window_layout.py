"""The main window's parts: its commands (:class:`MainActions`) and its layout (:class:`WindowLayout`).

The actions receive the typed :class:`~sialign.gui.main.main_window.MainWindow`
(they are its commands: they call its controllers and views). The layout
receives a ``QMainWindow`` and the small :class:`LayoutViews` protocol, and
places those views in docks, menus, the toolbar and the status bar, then
hands back the parts the window updates (:class:`WindowParts`). The layout also fits the window to
the screen and saves and restores where the panels are.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QByteArray, QModelIndex, QObject, QRect, QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QFrame, QLabel, QMainWindow, QMenu, QScrollArea, QWidget

from sialign.core.bead_summary import is_low_confidence
from sialign.gui.common.screen_fit import FRAME_MARGIN, available_area
from sialign.gui.table.table_model import Column, is_flagged, is_omission, is_unreviewed

if TYPE_CHECKING:
    from sialign.gui.audio.audio_panel import AudioPanel
    from sialign.gui.bead.bead_inspector import BeadInspector
    from sialign.gui.filters.filter_panel import FilterPanel
    from sialign.gui.main.main_window import MainWindow
    from sialign.gui.main.task_runner import TaskRunner
    from sialign.gui.matrix.matrix_view import MatrixView
    from sialign.gui.table.table_panel import TablePanel


# Bump when docks are added or renamed, so an old saved layout is not
# restored onto a different set of docks.
LAYOUT_VERSION = 5
# The window's size on a screen with room for it; smaller screens get a maximised window.
DEFAULT_SIZE = (1400, 880)
# Screens with less free height than this start with compact table rows.
COMPACT_BELOW_HEIGHT = 900


class MainActions:
    """Every command of the main window as a ``QAction`` with its text, key, tip and slot (``window.act``).

    The actions belong to the window (its shortcuts work wherever the focus
    is); running one first clears the last command's status message.
    """

    def __init__(self, window: MainWindow, free_area: QRect | None) -> None:
        """``free_area``: the screen's free area, which decides whether table rows start compact."""
        self._window = window
        w, files, review, panel = window, window.files, window.review, window.table_panel
        A = self._action
        K = QKeySequence.StandardKey
        self.new = A("&New talk…", files.new_talk, K.New, "Start a project from a talk's transcripts and audio")
        self.open = A("&Open…", files.open_dialog, K.Open, "Open a saved project")
        self.example = A("Open the &example talk", files.open_example, None, "Open the bundled example and align it")
        self.save = A("&Save", files.save, K.Save, "Save the project")
        self.save_as = A("Save &as…", files.save_as, K.SaveAs, "Save the project under a new name")
        self.properties = A("Project &properties…", files.project_properties, None,
                                "Talk id, languages, interpreter, and where the audio and reference files are")
        self.export = A("&Export…", files.export_dialog, "Ctrl+E", "Export the alignment as TSV, JSONL or TMX")
        self.new_corpus = A("New c&orpus…", files.new_corpus, None,
                                "Pair a folder's transcripts into a manifest and align every talk")
        self.corpus = A("Open &corpus…", files.open_corpus_dialog, None, "Show the talks of a corpus folder (sialign corpus align)")
        self.transcribe = A("&Transcribe a recording…", files.transcribe_recording, None,
                            "A recording → a timed transcript saved beside it, with a local speech model (sialign transcribe)")
        self.report = A("Export &report…", files.report_dialog, None, "A trainee's review report of this rendition (HTML or PDF)")
        self.compare = A("&Compare renditions…", files.compare_window, None, "Several renditions of this source side by side")
        self.review_rendition = A("&Review a recorded rendition…", lambda: w.practice.review_recording(), None,
                                  "A rendition a student recorded elsewhere: aligned against a talk and saved as a session")
        self.practice = A("&New session…", lambda: w.practice.new_session(), None,
                              "Interpret a talk in the booth: the talk plays, the microphone is recorded and aligned live")
        self.quit = A("&Quit", w.close, K.Quit, "Close SI Aligner")

        self.undo = w.session.undo_action(w, "&Undo")
        self.undo.setShortcuts([QKeySequence(K.Undo)])
        self.undo.setToolTip("Undo the last edit (Ctrl+Z)")
        self.redo = w.session.undo_action(w, "&Redo", redo=True)
        self.redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        self.redo.setToolTip("Redo (Ctrl+Shift+Z)")
        w.addAction(self.undo)
        w.addAction(self.redo)

        self.align = A("&Align", w.align, "Ctrl+R", "Align the talk (confirmed beads stay as anchors)")
        self.realign = A("&Re-align unconfirmed", w.realign, "Ctrl+Shift+R",
                             "Re-align everything between confirmed beads, reusing cached embeddings")
        self.align_scratch = A("Align from &scratch…", w.align_from_scratch, None,
                                   "Align the whole talk again, ignoring confirmed beads")
        self.cancel = A("&Cancel", w.cancel_task, "Esc", "Stop the running alignment or scoring")
        self.filters = A("&Filters", w.show_filters, "Ctrl+Shift+F", "Show the filter thresholds")
        self.time_from_audio = A("&Time from audio…", w.time_from_audio, None,
                                     "Give a transcript without times the times of its recording (a local Whisper model)")

        self.confirm = A("&Confirm", review.confirm, "C", "Confirm the selected beads")
        self.drop = A("&Drop / restore", review.drop_or_restore, "D", "Drop the selected beads, or restore dropped ones")
        self.reset_status = A("Reset to &auto", review.reset_status, None, "Mark the selected beads unreviewed")
        self.merge_beads = A("&Merge with next bead", review.merge_with_next_bead, "M", "Merge the bead with the next one")
        self.merge_prev_bead = A("Merge with &previous bead", review.merge_with_previous_bead, "Shift+M",
                                     "Merge the bead with the previous one")
        self.split_bead = A("Split &bead…", review.split_bead, "B", "Split the bead in two")
        self.split_segment = A("&Split at cursor", review.split_segment, "Ctrl+K",
                                   "Split the segment under the text cursor of the bead inspector")
        self.merge_next_segment = A("Merge with ne&xt segment", review.merge_segment_next, "Ctrl+J",
                                        "Merge the segment under the cursor with the next segment")
        self.merge_prev_segment = A("Merge with pre&vious segment", review.merge_segment_previous, "Ctrl+Shift+J",
                                        "Merge the segment under the cursor with the previous segment")
        self.move_prev = A("Move first segment to previous bead", review.move_first_to_previous, "Alt+Up",
                               "Move the bead's first segment (side of the cursor) to the previous bead")
        self.move_next = A("Move last segment to next bead", review.move_last_to_next, "Alt+Down",
                               "Move the bead's last segment (side of the cursor) to the next bead")
        self.good_align = A("Label: good &alignment (cycle)", lambda: review.cycle_label("good_align"), "G",
                                "Cycle the good-alignment label: yes → no → not judged")
        self.good_mt = A("Label: good &translation (cycle)", lambda: review.cycle_label("good_mt"), "Shift+G",
                             "Cycle the good-translation label: yes → no → not judged")
        self.post_edit = A("&Post-edit target…", w.focus_post_edit, "E", "Type a corrected target text")
        self.find = A("&Find…", panel.focus_search, K.Find, "Search source and target text and notes")
        self._build_review_extras(free_area)

        self.next_unconfirmed = A("Next &unreviewed", lambda: panel.go_next(is_unreviewed), "N",
                                      "Go to the next bead nobody confirmed or dropped")
        self.prev_unconfirmed = A("Previous unreviewed", lambda: panel.go_next(is_unreviewed, True), "Shift+N",
                                      "Go to the previous bead nobody confirmed or dropped")
        self.next_flagged = A("Next &flagged", lambda: panel.go_next(is_flagged), "F",
                                  "Go to the next kept bead a check failed on (the status bar's flagged count)")
        self.explain = A("&Why this bead?", lambda: w.explainer.explain_selected(), "Ctrl+Shift+W",
                             "The learned bead score's probability and what each feature added (sialign explain)")
        self.check_terms = A("Check &terms…", lambda: w.terms.check_terms(), None,
                                 "How each term of a glossary was rendered: as expected, otherwise or not (sialign terms)")
        self.next_omission = A("Next &omission", lambda: panel.go_next(is_omission), "O",
                                   "Go to the next sentence the interpreter left out (a bead with no rendition)")
        self.next_low = A("Next &low-confidence", lambda: panel.go_next(is_low_confidence), "W",
                              "Go to the next unreviewed bead with a high cost")
        self.next_doubtful = A("Next most &doubtful", panel.go_most_doubtful, "Q",
                                   "Go to the unreviewed bead the learned filter most doubts")

        self.fit = A("&Fit matrix to window", w.matrix.fit_to_window, "Ctrl+0", "Show the whole matrix")
        self.zoom_bead = A("&Zoom matrix to bead", lambda: w.matrix.zoom_to_bead(w.session.selected_bead),
                               "Ctrl+=", "Zoom the matrix around the selected bead")
        self.reset_layout = A("&Reset layout", lambda: w.panels.reset_layout(), None, "Put the panels back where they started")
        self.prefs = A("&Preferences…", w.edit_preferences, K.Preferences, "Low-confidence threshold, autosave")
        self.align_settings = A("&Alignment…", w.alignment_settings, None,
                                "Target units (chunks or sentences) and whether the target is an interpretation "
                                "or a written translation")
        self.models = A("&Embedding model…", w.model_settings, None, "Choose and add sentence-embedding models")
        self.speech_models = A("&Speech models…", w.speech_models, None,
                               "Add Whisper speech models, see their languages and choose the default")
        self.about = A("&About SI Aligner", w.about, None, "Version and licence")
        self.shortcuts = A("&Keyboard shortcuts…", w.show_shortcuts, None, "List every command's key and change keys")

    def _build_review_extras(self, free: QRect | None) -> None:
        """Confirm-and-advance, confirm up to here, segment text and times, time shifts, post-edit find/replace, compact rows."""
        from sialign.gui.table.table_panel import set_compact_rows

        w = self._window
        A, review, settings, panel = self._action, w.review, w.settings, w.table_panel
        review.next_unconfirmed = lambda: panel.go_next(is_unreviewed)
        self.confirm_advance = A("Confirm &moves to next unreviewed", lambda: self._remember_option(
            "review/confirm_advances", self.confirm_advance), None, "After C, go to the next unreviewed bead", True)
        self.confirm_up_to = A("Confirm all beads &up to here", review.confirm_up_to_here, "Shift+C",
                                   "Confirm every auto bead from the first to the selected one (dropped beads stay)")
        self.edit_text = A("Edit segment &text…", review.edit_segment_text, "F2",
                               "Correct the transcript text of the segment under the bead panel's cursor")
        self.edit_times = A("Edit segment t&imes…", review.edit_segment_times, "Shift+F2",
                                "Type the start and end of the segment under the bead panel's cursor")
        self.shift_times = A("S&hift times…", review.shift_times, None, "Move every time of the source or the target")
        self.find_replace = A("Find and replace in &post-edits…", review.find_replace_post_edits, "Ctrl+H",
                                  "Replace text in every post-edit, as one step")
        self.compact_rows = A("&Compact rows", self._compact_rows_toggled, None,
                                  "One text line per table row, so many more rows show", True)
        # On a laptop screen the table starts compact (more rows beside the bead panel) until the user chooses.
        compact = "true" if free is not None and free.height() < COMPACT_BELOW_HEIGHT else "false"
        for action, key, default in ((self.confirm_advance, "review/confirm_advances", "false"),
                                     (self.compact_rows, "view/compact_rows", compact)):
            action.setChecked(str(settings.value(key, default)).lower() == "true")
        review.confirm_advances = self.confirm_advance.isChecked()
        set_compact_rows(w.table, self.compact_rows.isChecked())
        # Double-clicking a source or target cell edits that side's text (beads holding one segment there).
        def double_clicked(index: QModelIndex) -> None:
            if index.column() in (Column.SOURCE, Column.TARGET):
                review.edit_bead_text(w.proxy.bead_of(index), "src" if index.column() == Column.SOURCE else "tgt")

        w.table.doubleClicked.connect(double_clicked)

    def _compact_rows_toggled(self) -> None:
        from sialign.gui.table.table_panel import set_compact_rows

        set_compact_rows(self._window.table, self.compact_rows.isChecked())
        self._remember_option("view/compact_rows", self.compact_rows)

    def _remember_option(self, key: str, action: QAction) -> None:
        self._window.settings.setValue(key, "true" if action.isChecked() else "false")
        self._window.review.confirm_advances = self.confirm_advance.isChecked()

    def _action(self, text: str, slot: Callable[[], Any], shortcut: Any = None, tip: str = "",
                checkable: bool = False) -> QAction:
        window = self._window
        action = QAction(text, window)
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
        window.addAction(action)
        return action

    def _run_command(self, slot: Callable[[], Any]) -> None:
        # A message of the command before ("No such bead left.") must not
        # linger under this one; the command shows its own, if any.
        self._window.statusBar().clearMessage()
        slot()


@dataclass(frozen=True)
class WindowParts:
    """What :meth:`WindowLayout.build` made that the window updates later."""

    matrix_dock: QDockWidget
    inspector_dock: QDockWidget
    filter_dock: QDockWidget
    audio_dock: QDockWidget
    evs_dock: QDockWidget
    view_menu: QMenu
    embedder_label: QLabel
    counts_label: QLabel
    saved_label: QLabel


class LayoutViews(Protocol):
    """What :class:`WindowLayout` places and keeps: the views, the task runner's progress, the actions, the settings.

    The main window provides them; the layout sees nothing else of it.
    """

    @property
    def table_panel(self) -> TablePanel: ...
    @property
    def matrix(self) -> MatrixView: ...
    @property
    def inspector(self) -> BeadInspector: ...
    @property
    def filter_panel(self) -> FilterPanel: ...
    @property
    def audio_panel(self) -> AudioPanel: ...
    @property
    def tasks(self) -> TaskRunner: ...
    @property
    def act(self) -> MainActions: ...
    @property
    def settings(self) -> QSettings: ...


class WindowLayout(QObject):
    """Where the main window's panels are (``window.panels``): docks, menus, toolbar and status bar; screen fitting; saved layouts.

    A child of the window, so its delayed resizing ends with the window.
    """

    def __init__(self, window: QMainWindow, views: LayoutViews) -> None:
        """``window`` takes the docks, menus, toolbar and status bar; ``views`` are what goes in them."""
        super().__init__(window)
        self._window = window
        self._views = views
        self._default_state = QByteArray()
        self._size_docks_on_show = False
        self._parts: WindowParts | None = None

    # -- construction --------------------------------------------------------------
    def build(self, recent_menu: QMenu) -> WindowParts:
        """Put the window's views in docks and its actions in menus, the toolbar and the status bar."""
        docks = self._build_docks()
        view_menu = self._build_menus(recent_menu, docks)
        self._build_toolbar()
        labels = self._build_status_bar()
        self._parts = WindowParts(*docks, view_menu, *labels)
        return self._parts

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
        dock = QDockWidget(title, self._window)
        dock.setObjectName(name)
        dock.setWidget(widget)
        dock.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetMovable
            | QDockWidget.DockWidgetFeature.DockWidgetFloatable
            | QDockWidget.DockWidgetFeature.DockWidgetClosable
        )
        self._window.addDockWidget(area, dock)
        return dock

    def _build_docks(self) -> tuple[QDockWidget, QDockWidget, QDockWidget, QDockWidget, QDockWidget]:
        """The matrix, bead, filter, audio and lag docks, in that order."""
        w = self._window
        # The table is the central review surface; everything else can move.
        w.setCentralWidget(self._views.table_panel)
        matrix_dock = self._dock("Alignment matrix", "matrix_dock", self._views.matrix, Qt.DockWidgetArea.LeftDockWidgetArea)
        inspector_dock = self._dock("Bead", "inspector_dock", self._scrollable(self._views.inspector),
                                    Qt.DockWidgetArea.BottomDockWidgetArea)
        # A tab beside the matrix, not a column beside the table: on a laptop
        # screen a third column left the table's text two characters wide.
        filter_dock = self._dock("Filters", "filter_dock", self._scrollable(self._views.filter_panel),
                                 Qt.DockWidgetArea.LeftDockWidgetArea)
        audio_dock = self._dock("Audio", "audio_dock", self._views.audio_panel, Qt.DockWidgetArea.TopDockWidgetArea)
        # The lag plot needs height more than width: a tab beside the matrix
        # gives it the matrix's area instead of a sliver of the audio strip.
        evs_dock = self._dock("Interpreter lag", "evs_dock", self._views.audio_panel.evs_view, Qt.DockWidgetArea.LeftDockWidgetArea)
        w.tabifyDockWidget(matrix_dock, evs_dock)
        w.tabifyDockWidget(matrix_dock, filter_dock)
        filter_dock.hide()
        matrix_dock.raise_()
        # Behind the matrix tab the plot stays "visible" to Qt: tell it, so edits skip its redraw.
        evs_dock.visibilityChanged.connect(self._views.audio_panel.evs_view.set_on_screen)
        self._default_state = w.saveState(LAYOUT_VERSION)
        return matrix_dock, inspector_dock, filter_dock, audio_dock, evs_dock

    def _build_menus(self, recent_menu: QMenu, docks: tuple[QDockWidget, ...]) -> QMenu:
        """The menu bar; returns the View menu."""
        w, act = self._window, self._views.act
        bar = w.menuBar()
        file_menu = bar.addMenu("&File")
        for action in (act.new, act.open):
            file_menu.addAction(action)
        file_menu.addMenu(recent_menu)
        file_menu.addAction(act.example)
        file_menu.addAction(act.new_corpus)
        file_menu.addAction(act.corpus)
        file_menu.addAction(act.transcribe)
        file_menu.addSeparator()
        for action in (act.save, act.save_as, act.export, act.report, act.compare):
            file_menu.addAction(action)
        file_menu.addAction(act.properties)
        file_menu.addSeparator()
        file_menu.addAction(act.quit)

        edit_menu = bar.addMenu("&Edit")
        edit_menu.addAction(act.undo)
        edit_menu.addAction(act.redo)
        edit_menu.addSeparator()
        segment_menu = edit_menu.addMenu("Se&gment")
        for action in (act.split_segment, act.merge_next_segment, act.merge_prev_segment,
                       act.move_prev, act.move_next, act.edit_text, act.edit_times):
            segment_menu.addAction(action)
        bead_menu = edit_menu.addMenu("&Bead")
        for action in (act.merge_beads, act.merge_prev_bead, act.split_bead):
            bead_menu.addAction(action)
        edit_menu.addAction(act.shift_times)
        edit_menu.addSeparator()
        edit_menu.addAction(act.find)
        edit_menu.addAction(act.find_replace)

        _add_all(bar.addMenu("&Review"), (act.confirm, act.confirm_up_to, act.confirm_advance, act.drop,
                                          act.reset_status, None, act.good_align,
                                          act.good_mt, act.post_edit, None, act.next_unconfirmed,
                                          act.prev_unconfirmed, act.next_omission, act.next_flagged, act.next_low,
                                          act.next_doubtful, None, act.explain, act.check_terms))
        _add_all(bar.addMenu("&Align"), (act.align, act.realign, act.align_scratch, act.cancel, None, act.filters,
                                         None, act.time_from_audio))

        _add_all(bar.addMenu("&Practice"), (act.practice, act.review_rendition, None, act.compare, act.report))

        view_menu = bar.addMenu("&View")
        matrix_dock, inspector_dock, filter_dock, audio_dock, evs_dock = docks
        for dock in (audio_dock, matrix_dock, evs_dock, inspector_dock, filter_dock):
            view_menu.addAction(dock.toggleViewAction())
        view_menu.addSeparator()
        view_menu.addAction(act.fit)
        view_menu.addAction(act.zoom_bead)
        view_menu.addAction(act.compact_rows)
        view_menu.addSeparator()
        view_menu.addAction(act.reset_layout)

        play_menu = bar.addMenu("&Play")
        for action in self._views.audio_panel.actions_for_menu():
            play_menu.addAction(action)

        settings_menu = bar.addMenu("&Settings")
        settings_menu.addAction(act.align_settings)
        settings_menu.addAction(act.models)
        settings_menu.addAction(act.speech_models)
        settings_menu.addAction(act.prefs)
        help_menu = bar.addMenu("&Help")
        help_menu.addAction(act.shortcuts)
        help_menu.addAction(act.about)
        return view_menu

    def _build_toolbar(self) -> None:
        w, act = self._window, self._views.act
        toolbar = w.addToolBar("Main")
        toolbar.setObjectName("main_toolbar")
        toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        toolbar.setMovable(True)
        play_source, play_target = self._views.audio_panel.play_source_action, self._views.audio_panel.play_target_action
        for action in (act.new, act.open, act.save, None, act.align, act.cancel, None,
                       act.undo, act.redo, None, play_source, play_target, None, act.filters,
                       act.export):
            if action is None:
                toolbar.addSeparator()
            else:
                toolbar.addAction(action)

    def _build_status_bar(self) -> tuple[QLabel, QLabel, QLabel]:
        """The embedder, counts and saved labels, with the task runner's progress bar and Cancel before them."""
        w = self._window
        bar = w.statusBar()
        labels = (QLabel(""), QLabel(""), QLabel(""))
        # A gap between a status message and the permanent counts ("…32 beads)" never runs into "35 beads").
        for label in labels:
            label.setContentsMargins(12, 0, 0, 0)
        # The task runner's progress bar and Cancel button.
        bar.addPermanentWidget(self._views.tasks.progress)
        bar.addPermanentWidget(self._views.tasks.cancel_button)
        for label in labels:
            bar.addPermanentWidget(label)
        return labels

    # -- size and layout ---------------------------------------------------------
    def reset_layout(self) -> None:
        """View → Reset layout: the panels where they started, sized for the window."""
        self._window.restoreState(self._default_state, LAYOUT_VERSION)
        self._default_sizes()

    def _default_sizes(self) -> None:
        """Panel sizes for the window's current size; on a laptop screen the table keeps the most room."""
        w, parts = self._window, self._parts
        if parts is None:
            return
        width = w.width()
        w.resizeDocks([parts.matrix_dock], [int(width * 0.36)], Qt.Orientation.Horizontal)
        height = w.height()
        # The audio strip and the bead panel get a share of the height within
        # bounds; the bead panel scrolls rather than squeezing the table.
        audio = int(min(max(height * 0.2, 130), 260))
        inspector = int(min(max(height * 0.27, 250), 300))
        w.resizeDocks([parts.audio_dock, parts.inspector_dock], [audio, inspector], Qt.Orientation.Vertical)

    def free_area(self) -> QRect | None:
        """The free area (without panels and docks) of the screen the window is on; None without a screen."""
        return available_area(self._window)

    def _fit_to_screen(self) -> None:
        """Never larger than the screen's free area: the default size, or maximised on a smaller screen."""
        w = self._window
        free = self.free_area()
        if free is None:
            w.resize(*DEFAULT_SIZE)
            return
        # Leave room for the frame and title bar a window manager adds.
        width = min(DEFAULT_SIZE[0], free.width() - FRAME_MARGIN[0])
        height = min(DEFAULT_SIZE[1], free.height() - FRAME_MARGIN[1])
        w.resize(width, height)
        if (width, height) != DEFAULT_SIZE:
            w.setWindowState(w.windowState() | Qt.WindowState.WindowMaximized)

    def _clamp_to_screen(self) -> None:
        """A geometry saved on a bigger screen is cut down to this one's free area."""
        w = self._window
        free = self.free_area()
        if free is None:
            return
        width = min(w.width(), free.width() - FRAME_MARGIN[0])
        height = min(w.height(), free.height() - FRAME_MARGIN[1])
        if (width, height) != (w.width(), w.height()):
            w.resize(width, height)
        frame = w.frameGeometry()
        if not free.contains(frame.topLeft()):
            w.move(max(free.left(), min(frame.left(), free.right() - width)),
                   max(free.top(), min(frame.top(), free.bottom() - height)))

    def restore_layout(self) -> None:
        """The geometry and docks saved last time, cut to this screen; the default size without them."""
        w = self._window
        geometry = self._views.settings.value("window/geometry")
        state = self._views.settings.value("window/state")
        if isinstance(geometry, QByteArray) and not geometry.isEmpty() and w.restoreGeometry(geometry):
            self._clamp_to_screen()
        else:
            self._fit_to_screen()
        restored = isinstance(state, QByteArray) and w.restoreState(state, LAYOUT_VERSION)
        # Sizes follow the window's final size: a window manager may maximise
        # it only after it is shown.
        self._size_docks_on_show = not restored

    def size_docks_after_show(self) -> None:
        """Called by the window's ``showEvent``."""
        if self._size_docks_on_show:
            self._size_docks_on_show = False
            QTimer.singleShot(0, self._default_sizes)
            QTimer.singleShot(400, self._default_sizes)

    def save_layout(self) -> None:
        """Remember the window's geometry and docks (on close)."""
        w = self._window
        self._views.settings.setValue("window/geometry", w.saveGeometry())
        self._views.settings.setValue("window/state", w.saveState(LAYOUT_VERSION))


def _add_all(menu: QMenu, actions: tuple[QAction | None, ...]) -> None:
    """Add ``actions`` to ``menu``, a separator for each None."""
    for action in actions:
        if action is None:
            menu.addSeparator()
        else:
            menu.addAction(action)
