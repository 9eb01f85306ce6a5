"""The audio panel: source and interpreter waveforms on one time axis, playback, EVS.

The two :class:`WaveformView`\\ s share their x range (``setXLink``), so zooming
or scrolling one moves the other. Between them a thin strip joins the
selected bead's source span to its interpretation span with a band and
labels the lag, which is the thing a trainer looks for. Envelopes are
computed (or read from the cache) on a worker thread, so opening a one-hour
recording never freezes the window; playback runs through
:class:`sialign.audio.player.Player` and the playhead is polled by a QTimer.
Without audio files or without an output device the views say so and
everything else keeps working.

The lag plot (:class:`EvsView`) sits beside the waveforms when the panel
stands alone; the main window passes ``with_evs=False`` and gives it a dock
of its own, where it has the height a scatter plot needs.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject, QPointF, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QAction,
    QBrush,
    QCloseEvent,
    QColor,
    QKeySequence,
    QPainter,
    QPainterPath,
    QPaintEvent,
    QPen,
    QPolygonF,
    QResizeEvent,
)
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QSizePolicy, QSplitter, QToolButton, QVBoxLayout, QWidget

from sialign.audio.decode import AudioTrack, load_audio, resolve_audio_path
from sialign.audio.envelope import EnvelopePyramid, load_envelopes
from sialign.audio.player import SPEEDS, Player, PlayItem, bead_play_items, segment_play_item
from sialign.core.changes import Changes
from sialign.core.errors import AlignmentCancelled, AudioUnavailable, OutsideAllowedFolders, SialignError
from sialign.core.model import bead_times
from sialign.gui.audio.evs_view import EvsView
from sialign.gui.audio.waveform_view import SIDE_NAMES, WAVE_COLORS, WaveformView
from sialign.gui.common.error_words import error_text
from sialign.gui.common.session import ProjectSession

PLAYHEAD_INTERVAL_MS = 30


class LinkStrip(QWidget):
    """Joins the selected bead's source span (top edge) to its interpretation span (bottom edge)."""

    def __init__(self, source_view: WaveformView, target_view: WaveformView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.source_view = source_view
        self.target_view = target_view
        self.src_span: tuple[float, float] | None = None
        self.tgt_span: tuple[float, float] | None = None
        self.setFixedHeight(30)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)

    def set_spans(self, src: tuple[float, float] | None, tgt: tuple[float, float] | None) -> None:
        self.src_span, self.tgt_span = src, tgt
        self.update()

    def label(self) -> str:
        """The lag text drawn in the strip ("" when there is nothing to link)."""
        if self.src_span is None or self.tgt_span is None:
            return ""
        start = self.tgt_span[0] - self.src_span[0]
        end = self.tgt_span[1] - self.src_span[1]
        return f"EVS {start:+.2f} s   (end {end:+.2f} s)"

    def _x(self, view: WaveformView, seconds: float) -> float:
        # Through global coordinates: the views are siblings, not parents, of the strip.
        x = view.x_to_widget(seconds)
        global_point = view.mapToGlobal(QPointF(x, 0.0))
        return float(self.mapFromGlobal(global_point).x())

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.fillRect(self.rect(), QColor("#17181a"))
        if self.src_span is None or self.tgt_span is None:
            painter.end()
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        h = float(self.height())
        s0, s1 = (self._x(self.source_view, t) for t in self.src_span)
        t0, t1 = (self._x(self.target_view, t) for t in self.tgt_span)
        band = QPolygonF([QPointF(s0, 0), QPointF(s1, 0), QPointF(t1, h), QPointF(t0, h)])
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QBrush(QColor(255, 255, 255, 55)))
        painter.drawPolygon(band)
        # The start-to-start line is the ear-voice span itself: draw it as an arrow.
        painter.setPen(QPen(QColor("#ffffff"), 1.6))
        painter.drawLine(QPointF(s0, 0), QPointF(t0, h - 1))
        path = QPainterPath()
        path.moveTo(t0, h - 1)
        path.lineTo(t0 - 4 if t0 >= s0 else t0 + 4, h - 8)
        path.lineTo(t0 + 2 if t0 >= s0 else t0 - 2, h - 9)
        path.closeSubpath()
        painter.fillPath(path, QColor("#ffffff"))
        text = self.label()
        painter.setPen(QColor("#f0f0f0"))
        metrics = painter.fontMetrics()
        width = metrics.horizontalAdvance(text) + 12
        x = max(2.0, min(self.width() - width - 2.0, 0.5 * (s0 + t0) + 8))
        box = QRectF(x, (h - metrics.height() - 2) / 2, width, metrics.height() + 2)
        painter.fillRect(box, QColor(23, 24, 26, 210))
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)
        painter.end()


class _StatusLine(QLabel):
    """One line beside the playback buttons, cut with "…" at the panel's edge; the whole text is its tooltip.

    Wrapped, a long message (no output device) took a second line the
    dock's height did not allow for, and the time axis under the
    waveforms was cut in half.
    """

    def __init__(self) -> None:
        super().__init__()
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.setMinimumWidth(0)

    def setText(self, text: str) -> None:
        super().setText(text)
        self.setToolTip(text)

    def sizeHint(self) -> QSize:
        margins = self.contentsMargins()
        return QSize(0, self.fontMetrics().height() + margins.top() + margins.bottom())

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()

    def displayed_text(self) -> str:
        """The text as drawn: one line, cut to the label's width."""
        line = " ".join(self.text().split())
        return self.fontMetrics().elidedText(line, Qt.TextElideMode.ElideRight, self.contentsRect().width())

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.drawText(self.contentsRect(), int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                         self.displayed_text())


class _WavesBox(QWidget):
    """Source view, link strip, interpretation view; both waveforms get the same plot height.

    The interpretation view also carries the time axis, so equal stretch
    would leave its waveform that much lower than the source's.
    """

    def __init__(self, source_view: WaveformView, link: LinkStrip, target_view: WaveformView) -> None:
        super().__init__()
        self.target_view = target_view
        self.link = link
        self.wave_layout = QVBoxLayout(self)
        self.wave_layout.setContentsMargins(0, 0, 0, 0)
        self.wave_layout.setSpacing(0)
        self.wave_layout.addWidget(source_view, 1)
        self.wave_layout.addWidget(link)
        self.wave_layout.addWidget(target_view, 1)

    def resizeEvent(self, event: QResizeEvent) -> None:
        axis = int(self.target_view.getPlotItem().getAxis("bottom").height())
        free = max(2, self.height() - self.link.height())
        # Stretch in proportion to the height each view needs for an equal plot area.
        stretch = (max(1, free - axis), free + axis)
        if stretch != (self.wave_layout.stretch(0), self.wave_layout.stretch(2)):
            self.wave_layout.setStretch(0, stretch[0])
            self.wave_layout.setStretch(2, stretch[1])
            # The layout has already placed the views for this size: place them again.
            self.wave_layout.invalidate()
            self.wave_layout.activate()
        super().resizeEvent(event)


class _EnvelopeSignals(QObject):
    """Signals a loader thread emits; delivered to the GUI thread (queued)."""

    progressed = Signal(str, int, float)  # side, generation, fraction
    loaded = Signal(str, int, object)  # side, generation, EnvelopePyramid
    failed = Signal(str, int, str)  # side, generation, message
    probed = Signal(str, int, object)  # side, generation, AudioTrack (the header was read)
    unreadable = Signal(str, int, str)  # side, generation, message (the file cannot be opened)


class AudioPanel(QWidget):
    """Source and interpretation waveforms, playback controls and the EVS plot for one session.

    Args:
        session: the open project, its undo stack and selection.
        player: the playback engine (tests inject one with a fake device);
            by default the system's output device, probed once.
        cache_dir: where envelopes are cached (default: the user cache folder).
        with_evs: lay the lag plot out beside the waveforms; when False,
            ``evs_view`` is still made and kept current but placed by the caller.

    Attributes:
        play_source_action / play_target_action / play_both_action /
        stop_action / loop_action: QActions (with S, T, Space, Shift+Space, L)
            the main window can put in its menus and toolbar.
    """

    def __init__(self, session: ProjectSession, parent: QWidget | None = None, *, player: Player | None = None,
                 cache_dir: str | Path | None = None, with_evs: bool = True) -> None:
        super().__init__(parent)
        self.session = session
        self.cache_dir = cache_dir
        self.player = player if player is not None else Player()
        self.audio_error = ""  # set by reload() when the device cannot be opened
        self.tracks: dict[str, AudioTrack | None] = {"src": None, "tgt": None}
        self.envelopes: dict[str, EnvelopePyramid | None] = {"src": None, "tgt": None}
        self._generation = 0
        self._loaded_paths: tuple[str | None, ...] | None = None
        self._threads: list[threading.Thread] = []
        self._signals = _EnvelopeSignals(self)
        self._signals.progressed.connect(self._on_envelope_progress)
        self._signals.loaded.connect(self._on_envelope_loaded)
        self._signals.failed.connect(self._on_envelope_failed)
        self._signals.probed.connect(self._on_probed)
        self._signals.unreadable.connect(self._on_unreadable)
        # Per side, why its recording could not be opened ("" when it opened or is still opening).
        self.audio_problems: dict[str, str] = {"src": "", "tgt": ""}

        self.source_view = WaveformView(session, "src")
        self.target_view = WaveformView(session, "tgt")
        self.target_view.setXLink(self.source_view)
        self.link = LinkStrip(self.source_view, self.target_view)
        self.with_evs = with_evs
        self.evs_view = EvsView(session, show_title=with_evs)
        self.views = {"src": self.source_view, "tgt": self.target_view}
        for view in self.views.values():
            view.segment_clicked.connect(lambda seg_id, side=view.side: self._on_segment_clicked(side, seg_id))
            view.segment_double_clicked.connect(lambda seg_id, side=view.side: self.play_segment(side, seg_id))
            view.getPlotItem().getViewBox().sigXRangeChanged.connect(lambda *_: self.link.update())

        self._build_actions()
        self._build_layout()

        self.playhead_timer = QTimer(self)
        self.playhead_timer.setInterval(PLAYHEAD_INTERVAL_MS)
        self.playhead_timer.timeout.connect(self._poll_playhead)

        app = QCoreApplication.instance()
        if app is not None:
            # A dock's closeEvent does not run when the main window quits: stop the stream here.
            app.aboutToQuit.connect(self.shutdown)
        session.project_replaced.connect(self.reload)
        session.edited.connect(self._on_edited)
        session.alignment_replaced.connect(self._on_alignment_replaced)
        session.selection_changed.connect(self._on_selection_changed)
        self.reload()

    # -- construction ------------------------------------------------------
    def _action(self, text: str, shortcut: str, slot: Callable[[], object], tip: str, checkable: bool = False) -> QAction:
        action = QAction(text, self)
        action.setShortcut(QKeySequence(shortcut))
        action.setToolTip(f"{tip} ({shortcut})")
        action.setCheckable(checkable)
        if checkable:
            action.toggled.connect(lambda on: slot())
        else:
            action.triggered.connect(lambda *_: slot())
        self.addAction(action)
        return action

    def _build_actions(self) -> None:
        self.play_source_action = self._action("Play source", "S", self.play_source, "Play the selected bead's source speech")
        self.play_target_action = self._action("Play interpretation", "T", self.play_target,
                                               "Play the selected bead's interpretation")
        self.play_both_action = self._action("Play both", "Space", self.play_both_or_pause,
                                             "Play the source, then its interpretation; pause/resume while playing")
        self.stop_action = self._action("Stop", "Shift+Space", self.stop, "Stop playback")
        self.loop_action = self._action("Loop", "L", self._on_loop_toggled, "Repeat until stopped", checkable=True)

    def actions_for_menu(self) -> list[QAction]:
        """The playback actions, in menu order."""
        return [self.play_source_action, self.play_target_action, self.play_both_action, self.stop_action, self.loop_action]

    def _build_layout(self) -> None:
        controls = QHBoxLayout()
        controls.setContentsMargins(4, 2, 4, 2)
        for action in self.actions_for_menu():
            button = QToolButton()
            button.setDefaultAction(action)
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            controls.addWidget(button)
        controls.addWidget(QLabel("Speed"))
        self.speed_box = QComboBox()
        for speed in SPEEDS:
            self.speed_box.addItem(f"{speed:g}×", speed)
        self.speed_box.setCurrentIndex(SPEEDS.index(1.0))
        self.speed_box.setToolTip("Playback speed (resampled: the pitch follows the speed)")
        controls.addWidget(self.speed_box)
        self.status_label = _StatusLine()
        controls.addWidget(self.status_label, 1)

        waves = _WavesBox(self.source_view, self.link, self.target_view)

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(waves)
        self.splitter.setStretchFactor(0, 3)
        if self.with_evs:
            self.splitter.addWidget(self.evs_view)
            self.splitter.setStretchFactor(1, 1)
        else:
            # Owned here (deleted with the panel) until the caller docks it.
            self.evs_view.setParent(self)
            self.evs_view.hide()

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(controls)
        layout.addWidget(self.splitter, 1)

    # -- project and audio -------------------------------------------------
    def _audio_path(self, side: str) -> Path | None:
        """The side's audio file, relative paths taken from the project file's folder.

        Raises:
            OutsideAllowedFolders: the project names a recording outside its folder and the allowed ones.
        """
        key = f"{'source' if side == 'src' else 'target'}.audio_path"
        return resolve_audio_path(self.session.project.document(side).audio_path, self.session.project.path, key)

    def reload(self) -> None:
        """Open the project's audio files on worker threads: headers first, then the envelopes.

        Nothing that opens a file runs on the GUI thread, so a recording on a
        slow drive (or a named pipe given as one) never freezes the window.
        """
        self.stop()
        # Probed on every opening (a no-op once a device is open): headphones may
        # have been plugged in since the last project.
        try:
            self.player.open()
            self.audio_error = ""
        except AudioUnavailable as exc:
            self.audio_error = error_text(exc)
        self._generation += 1
        generation = self._generation
        self._loaded_paths = self._stored_paths()
        for side, view in self.views.items():
            self.tracks[side] = None
            self.envelopes[side] = None
            self.audio_problems[side] = ""
            view.set_envelope(None)
            view.refresh_segments()
            try:
                path = self._audio_path(side)
            except OutsideAllowedFolders as exc:  # never opened: said where the other problems are
                self._on_unreadable(side, generation, error_text(exc))
                continue
            if path is None:
                view.set_message(f"No {SIDE_NAMES[side]} audio loaded. Add a recording to the project "
                                 f"to see and hear it; alignment and review work without it.")
                continue
            view.set_message(f"Opening {path.name}…")
            thread = threading.Thread(target=self._load_side, args=(side, generation, path),
                                      name=f"sialign-audio-{side}", daemon=True)
            self._threads.append(thread)
            thread.start()
        self._fit_initial_range()
        self._on_selection_changed(self.session.selected_bead)
        self._update_controls()

    def _load_side(self, side: str, generation: int, path: Path) -> None:
        """Worker thread body: probe the file, then read its envelope; Qt is touched only through queued signals."""
        signals = self._signals
        try:
            track = load_audio(path)
        except SialignError as exc:
            signals.unreadable.emit(side, generation, error_text(exc))
            return
        except Exception as exc:
            signals.unreadable.emit(side, generation, f"{path}: {type(exc).__name__}: {exc}")
            return
        signals.probed.emit(side, generation, track)
        self._load_envelope(side, generation, track)

    def _on_probed(self, side: str, generation: int, track: AudioTrack) -> None:
        if generation != self._generation:
            return
        self.tracks[side] = track
        if self.envelopes[side] is None:
            self.views[side].set_message(f"Reading the waveform of {track.name}…")
        self._on_selection_changed(self.session.selected_bead)
        self._update_controls()

    def _on_unreadable(self, side: str, generation: int, message: str) -> None:
        if generation == self._generation:
            self.views[side].set_message(f"The {SIDE_NAMES[side]} audio cannot be read: {message}")
            self.audio_problems[side] = message

    def _load_envelope(self, side: str, generation: int, track: AudioTrack) -> None:
        """Part of the worker thread: no Qt object is touched except through queued signals."""
        signals = self._signals
        last = [-1.0]

        def progress(fraction: float, message: str) -> None:
            if fraction - last[0] >= 0.02 or fraction >= 1.0:
                last[0] = fraction
                signals.progressed.emit(side, generation, fraction)

        try:
            pyramid = load_envelopes(track, cache_dir=self.cache_dir, progress=progress,
                                     should_stop=lambda: generation != self._generation)
        except AlignmentCancelled:
            return
        except (SialignError, OSError, RuntimeError) as exc:
            signals.failed.emit(side, generation, error_text(exc))
            return
        signals.loaded.emit(side, generation, pyramid)

    def _on_envelope_progress(self, side: str, generation: int, fraction: float) -> None:
        track = self.tracks.get(side)
        if generation == self._generation and track is not None and self.envelopes[side] is None:
            self.views[side].set_message(f"Reading the waveform of {track.name}… {fraction:.0%}")

    def _on_envelope_loaded(self, side: str, generation: int, pyramid: EnvelopePyramid) -> None:
        if generation != self._generation:
            return
        self.envelopes[side] = pyramid
        view = self.views[side]
        view.set_envelope(pyramid)
        # A missing output device is said once, in the status line beside the controls.
        view.set_message("")
        self._fit_initial_range()
        self._update_controls()

    def _on_envelope_failed(self, side: str, generation: int, message: str) -> None:
        if generation == self._generation:
            self.views[side].set_message(f"The {SIDE_NAMES[side]} waveform could not be drawn: {message}")

    def wait_for_envelopes(self, timeout: float = 30.0) -> None:
        """Block until the loader threads end (tests, screenshots); their results still arrive as signals.

        A thread still running after ``timeout`` is left to run (it is a daemon).
        """
        for thread in self._threads:
            thread.join(timeout)
        self._threads = [t for t in self._threads if t.is_alive()]

    def _fit_initial_range(self) -> None:
        duration = max(self.source_view.duration, self.target_view.duration)
        if duration <= 0:
            # Nothing timed yet: show the first minute rather than -400…400 s around zero.
            self.source_view.setXRange(0.0, 60.0, padding=0.0)
            return
        (t0, t1), _ = self.source_view.getPlotItem().getViewBox().viewRange()
        if t1 - t0 > duration + 1.5 or t1 <= 1.0:
            self.source_view.setXRange(0.0, min(duration, 60.0), padding=0.01)

    # -- selection and edits -----------------------------------------------
    def _on_segment_clicked(self, side: str, seg_id: int) -> None:
        alignment = self.session.project.alignment
        if alignment is None:
            return
        try:
            index = alignment.bead_index_of_src(seg_id) if side == "src" else alignment.bead_index_of_tgt(seg_id)
        except KeyError:
            return
        self.session.select_bead(index)

    def _stored_paths(self) -> tuple[str | None, ...]:
        project = self.session.project
        return tuple(project.document(side).audio_path for side in self.views)

    def _on_edited(self, edit: Changes) -> None:
        # A recording named anew (Project properties, Locate…, or the undo of either) is opened again.
        if edit.recordings and self._stored_paths() != self._loaded_paths:
            self.reload()
            return
        # Each view patches what the edit changed; the highlight and the link
        # strip follow the selected bead (a few items, rebuilt only if changed).
        for view in self.views.values():
            view.apply_edit(edit)
        self._on_selection_changed(self.session.selected_bead)

    def _on_alignment_replaced(self) -> None:
        # A new alignment leaves the segments and their times as they were.
        self._on_selection_changed(self.session.selected_bead)

    def _bead_spans(self, index: int) -> dict[str, tuple[float, float] | None]:
        project = self.session.project
        spans: dict[str, tuple[float, float] | None] = {"src": None, "tgt": None}
        if project.alignment is None or not 0 <= index < len(project.alignment):
            return spans
        bead = project.alignment.beads[index]
        for side in ("src", "tgt"):
            start, end = bead_times(bead, project.document(side), side)
            if start is not None and end is not None:
                spans[side] = (start, end)
        return spans

    def _on_selection_changed(self, index: int) -> None:
        project = self.session.project
        bead = project.alignment.beads[index] if project.alignment is not None and 0 <= index < len(project.alignment) else None
        self.source_view.highlight(bead.src if bead is not None else ())
        self.target_view.highlight(bead.tgt if bead is not None else ())
        spans = self._bead_spans(index)
        self.link.set_spans(spans["src"], spans["tgt"])
        known = [s for s in spans.values() if s is not None]
        if known:
            self.source_view.show_span(min(s[0] for s in known), max(s[1] for s in known))
        self._update_controls()

    # -- playback ----------------------------------------------------------
    @property
    def speed(self) -> float:
        return float(self.speed_box.currentData())

    def _play(self, items: list[PlayItem], what: str) -> bool:
        if self.audio_error:
            self.status_label.setText(self.audio_error)
            return False
        if not items:
            self.status_label.setText(f"Nothing to play for {what}: it needs times and a loaded recording.")
            return False
        try:
            self.player.play(items, loop=self.loop_action.isChecked(), speed=self.speed)
        except AudioUnavailable as exc:
            self.audio_error = error_text(exc)
            self.status_label.setText(self.audio_error)
            return False
        except (SialignError, ValueError) as exc:
            self.status_label.setText(error_text(exc))
            return False
        self.status_label.setText(f"Playing {what}")
        self.playhead_timer.start()
        return True

    def play_sides(self, sides: tuple[str, ...]) -> bool:
        """Play the selected bead's given sides in order; False (with a status message) if nothing plays."""
        index = self.session.selected_bead
        if index < 0:
            self.status_label.setText("Select a bead to play it.")
            return False
        items = bead_play_items(self.session.project, index, self.tracks, sides)
        names = " then ".join(SIDE_NAMES[s] for s in sides)
        return self._play(items, f"bead {index + 1} ({names})")

    def play_source(self) -> bool:
        return self.play_sides(("src",))

    def play_target(self) -> bool:
        return self.play_sides(("tgt",))

    def play_both(self) -> bool:
        return self.play_sides(("src", "tgt"))

    def play_both_or_pause(self) -> None:
        """Space: pause/resume while something plays, else play source then interpretation."""
        if self.player.is_playing:
            self.player.toggle_pause()
            self.status_label.setText("Paused" if self.player.is_paused else "Playing")
            return
        self.play_both()

    def play_segment(self, side: str, seg_id: int) -> bool:
        item = segment_play_item(self.session.project, side, seg_id, self.tracks.get(side))
        # Numbered by its row, from 1, as the table and the matrix number segments.
        row = self.session.project.document(side).index_of(seg_id) + 1
        return self._play([item] if item is not None else [], f"{SIDE_NAMES[side]} segment {row}")

    def stop(self) -> None:
        self.player.stop()
        self.playhead_timer.stop()
        for view in self.views.values():
            view.set_playhead(None)
        if hasattr(self, "status_label"):
            self.status_label.setText(self.audio_error or "Stopped")

    def _on_loop_toggled(self) -> None:
        self.player.set_loop(self.loop_action.isChecked())

    def _poll_playhead(self) -> None:
        position = self.player.position()
        if position is None:
            self.playhead_timer.stop()
            for view in self.views.values():
                view.set_playhead(None)
            self.status_label.setText("")
            return
        for side, view in self.views.items():
            view.set_playhead(position.seconds if side == position.label else None)

    def _update_controls(self) -> None:
        has_device = not self.audio_error
        index = self.session.selected_bead
        spans = self._bead_spans(index)
        can = {side: has_device and self.tracks[side] is not None and spans[side] is not None for side in ("src", "tgt")}
        self.play_source_action.setEnabled(can["src"])
        self.play_target_action.setEnabled(can["tgt"])
        self.play_both_action.setEnabled(can["src"] or can["tgt"])
        self.stop_action.setEnabled(has_device)
        self.loop_action.setEnabled(has_device)
        self.speed_box.setEnabled(has_device)
        if not has_device:
            self.status_label.setText(self.audio_error)
        elif not self.player.is_playing:
            output = self.player.output
            self.status_label.setText(f"Output: {output.name}" if output is not None else "")

    def shutdown(self) -> None:
        """Stop playback and tell envelope loaders to give up (window closing, app quitting)."""
        self._generation += 1
        self.stop()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.shutdown()
        super().closeEvent(event)


__all__ = ["AudioPanel", "LinkStrip", "WAVE_COLORS"]
