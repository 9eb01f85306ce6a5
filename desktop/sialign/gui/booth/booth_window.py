"""*Practice → New session…*: the booth, where a student interprets a talk and watches it align.

The window picks the talk (the open project, a project file, or a source
recording with or without its transcript), the headphones and the
microphone, the interpretation's language and the Whisper model; Start
prepares a :class:`~sialign.workflows.practice_session.PracticeSession`,
which plays the talk, records the microphone and aligns the rendition live;
its updates grow the live table. Stop ends the recording and the live pass,
hands the live result to the main window, and runs the session's full pass,
whose result replaces the live beads there as one undoable step; then the
trainer's report and *Compare renditions* are one click away. The session
engine decides everything; the window only shows it.

Processes: the session runs in a worker process of its own
(:class:`~sialign.workflows.practice_process.PracticeProcess`): the live
recogniser and aligner, the recorder's audio I/O and the full pass at Stop
hold that process's interpreter lock, never this window's. The window sends
it commands (start, pause, resume, stop, full pass, cancel) and a 20 Hz timer
polls the events it sends back (live updates, the clock and the level,
progress, results, errors in one line) without ever waiting for them.
Engines put in by tests and screenshots (fakes, which cannot cross into
another process) run on threads of this process behind the same commands
(:class:`~sialign.workflows.practice_process.PracticeThreads`), as does the
real engine when ``in_process`` asks for it (the benchmark's comparison).
The session's process ends when its session has landed in the main window,
when the window is closed, and with the app. *Review a recorded rendition*
runs its full pass in a worker process too, waited for by a worker thread.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TypedDict, TypeVar, cast

from PySide6.QtCore import QSettings, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QCloseEvent, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from sialign.core.errors import SialignError
from sialign.core.file_kind import audio_file_filter
from sialign.core.model import Project
from sialign.core.progress import ProgressFn, StopFn
from sialign.gui.booth.live_table import (
    COL_LATENCY,
    COL_NUMBER,
    COL_SOURCE,
    COL_STATE,
    COL_TARGET,
    COL_TIME,
    LiveTableModel,
)
from sialign.gui.common.error_words import error_text
from sialign.gui.common.workers import TaskWorker, WorkerRunner, snapshot
from sialign.workflows.headset import Calibration, calibrate, calibration_named
from sialign.workflows.practice_process import (
    Cancelled,
    Failed,
    Fed,
    FullPassed,
    LiveUpdated,
    PracticeProcess,
    PracticeThreads,
    Prepared,
    Progressed,
    SessionDriver,
    SessionEvent,
    SessionFacts,
    SessionRecipe,
    Started,
    Stopped,
)
from sialign.workflows.practice_session import (
    SILENCE_DBFS,
    AudioDevice,
    BoothDevices,
    FullPass,
    LiveFactory,
    LiveUpdate,
    RecorderFactory,
    RenditionFile,
    SessionParts,
    SessionStatus,
    TalkChoice,
    list_devices,
    review_rendition,
)
from sialign.workflows.speech import speech_models
from sialign.workflows.worker_process import call_apart, one_line

TALK_OPEN, TALK_FILE, TALK_RECORDING = range(3)
LANGUAGES = ["ja", "en", "de", "fr", "es", "it", "zh", "ko", "pt", "ru", "ar", "nl", "pl"]
METER_FLOOR_DB = -60
# How often the window reads the session's events, its clock and its level.
POLL_MS = 50
# On quitting mid-session, how long the app waits for the session's process to finish the recording file.
QUIT_WAIT_S = 5.0
# What a message calls each step of a session.
STEP_WORDS = {"prepare": "preparing the session", "start": "starting the session", "feed": "feeding the rendition",
              "stop": "finishing the session", "full_pass": "the full pass over the recording", "save": "saving the session"}

# Said while no speech model is chosen (Start stays off).
NO_SPEECH_MODEL = ("No speech model: add a Whisper model with Models… (Settings → Speech models), "
                   "or choose its folder with the Folder… button.")

ModelsFn = Callable[[], tuple[list[tuple[str, Path]], str | None]]
# (microphone, headphones, progress, should_stop) → the measured round trip, kept for those devices.
CalibrateFn = Callable[[int | None, int | None, ProgressFn, StopFn], Calibration]
CALIBRATE_ASK = ("A few clicks will play in the headphones while the microphone listens, to measure how long the talk "
                 "takes to reach the ear and the voice to come back (about 6 seconds).\n\nHold one ear cup against the "
                 "microphone (or connect a loopback cable), with the volume up, then press OK.")
Result = TypeVar("Result")


class BoothHost(Protocol):
    """What the booth needs of the main window (:class:`sialign.gui.booth.practice.PracticeController`)."""

    def open_project(self) -> Project | None: ...

    def may_replace(self) -> bool: ...

    def install_live(self, project: Project) -> None: ...

    def apply_full_pass(self, final: Project) -> bool: ...

    def install_reviewed(self, project: Project) -> None: ...

    def set_locked(self, reason: str) -> None: ...

    def open_report(self) -> None: ...

    def compare(self, path: str) -> object: ...

    def speech_models(self) -> None: ...


class BoothOptions(TypedDict, total=False):
    """What the main window may hand the booth beside its host (tests and screenshots inject fakes)."""

    devices_fn: Callable[[], BoothDevices]
    recorder_factory: RecorderFactory | None
    live_factory: LiveFactory | None
    practice_fn: FullPass | None
    models_fn: ModelsFn
    in_process: bool
    calibrate_fn: CalibrateFn | None


@dataclass(frozen=True)
class _Choices:
    """The talk, language and model chosen in the window, read when a session starts or a file is reviewed."""

    talk: TalkChoice
    tgt_lang: str
    model: str


def _clock(seconds: float | None) -> str:
    if seconds is None or not math.isfinite(seconds):
        return "–:––"
    seconds = max(0, int(seconds))
    return f"{seconds // 60}:{seconds % 60:02d}"


class BoothWindow(QWidget):
    """The practice booth (one session at a time; the window can run one session after another).

    Args:
        host: the main window's side (:class:`BoothHost`).
        devices_fn: lists the audio devices (tests inject fakes).
        recorder_factory / live_factory / practice_fn: the session's recorder, live aligner and full pass
            (:class:`~sialign.workflows.practice_session.SessionParts`; None: the real ones, tests inject fakes).
        models_fn: ``() → ([(name, folder)], default name)`` of the Whisper models.
        in_process: run the real engine on threads of this process rather than in a worker process (to compare
            the two; engines put in always run here).
        calibrate_fn: measures the headset's round trip (None: :func:`sialign.workflows.headset.calibrate` in a
            worker process; tests inject a loopback).

    Signals:
        state_changed(str): ``idle``, ``preparing``, ``recording``, ``paused``, ``finishing``, ``done``.
    """

    state_changed = Signal(str)

    def __init__(self, host: BoothHost, *, settings: QSettings | None = None,
                 devices_fn: Callable[[], BoothDevices] = list_devices, recorder_factory: RecorderFactory | None = None,
                 live_factory: LiveFactory | None = None, practice_fn: FullPass | None = None,
                 models_fn: ModelsFn = speech_models, in_process: bool = False, calibrate_fn: CalibrateFn | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setWindowTitle("Practice booth — SI Aligner")
        self.host = host
        self.settings = settings or QSettings()
        self._devices_fn = devices_fn
        self._parts = SessionParts(live=live_factory, recorder=recorder_factory, full_pass=practice_fn)
        # Engines put in (fakes) cannot cross into another process: they run here, behind the same commands.
        self._in_process = in_process or any(part is not None for part in (live_factory, recorder_factory, practice_fn))
        self._models_fn = models_fn
        self._calibrate_fn = calibrate_fn or _calibrate_apart
        self.state = "idle"
        self.session: SessionDriver | None = None
        self.finished_path: str = ""
        self.runner = WorkerRunner(self)
        # A worker started from another's result waits until that one's thread has ended.
        self._queued: list[TaskWorker] = []
        self._handlers: dict[TaskWorker, tuple[Callable[[object], None], Callable[[], None]]] = {}
        self.runner.finished.connect(self._start_queued)
        self.timer = QTimer(self)  # polls the session: its events, its clock and level
        self.timer.setInterval(POLL_MS)
        self.timer.timeout.connect(self._tick)
        self._build()
        self.refresh_devices()
        self.refresh_models()
        self.refresh_talk_choices()
        self._set_state("idle")

    # ==================================================================================
    # layout
    def _build(self) -> None:
        # -- talk --
        self.talk_kind = QComboBox()
        self.talk_kind.addItems(["The open project", "A project file…", "A source recording…"])
        self.talk_kind.currentIndexChanged.connect(self._talk_kind_changed)
        self.talk_path = QLineEdit()
        self.talk_path.setPlaceholderText("the project file (.sialign) or the source recording")
        self.talk_path.editingFinished.connect(self._show_talk_length)
        self.talk_browse = QPushButton("Browse…")
        self.talk_browse.clicked.connect(self._browse_talk)
        path_row = QHBoxLayout()
        path_row.addWidget(self.talk_path, 1)
        path_row.addWidget(self.talk_browse)
        self.transcript_path = QLineEdit()
        self.transcript_path.setPlaceholderText("optional: its timed transcript (else it is transcribed)")
        self.transcript_browse = QPushButton("Browse…")
        self.transcript_browse.clicked.connect(self._browse_transcript)
        transcript_row = QHBoxLayout()
        transcript_row.addWidget(self.transcript_path, 1)
        transcript_row.addWidget(self.transcript_browse)
        self.src_lang = QComboBox()
        self.src_lang.setEditable(True)
        self.src_lang.addItems(["en"] + [code for code in LANGUAGES if code != "en"])
        self.tgt_lang = QComboBox()
        self.tgt_lang.setEditable(True)
        self.tgt_lang.addItems(LANGUAGES)
        self.tgt_lang.setToolTip("The language the student interprets into")
        talk_form = QFormLayout()
        talk_form.addRow("Talk:", self.talk_kind)
        talk_form.addRow("File:", path_row)
        talk_form.addRow("Transcript:", transcript_row)
        talk_form.addRow("Talk language:", self.src_lang)
        talk_form.addRow("Interpret into:", self.tgt_lang)
        self._talk_rows = talk_form
        talk_box = QGroupBox("Talk")
        talk_box.setLayout(talk_form)

        # -- devices and model --
        self.output_device = QComboBox()
        self.output_device.setToolTip("Where the talk plays: use headphones, so the microphone does not record the talk")
        self.input_device = QComboBox()
        self.input_device.setToolTip("The student's microphone")
        refresh = QPushButton("Refresh")
        refresh.setToolTip("List the audio devices again (after plugging in a headset)")
        refresh.clicked.connect(self.refresh_devices)
        self.calibrate_button = QPushButton("Calibrate…")
        self.calibrate_button.setToolTip("Measure the headset's round trip with a few clicks, once for these devices, "
                                         "so recordings sit on the talk's clock to the millisecond")
        self.calibrate_button.clicked.connect(self.calibrate)
        self.latency_label = QLabel("")
        self.latency_label.setWordWrap(True)
        self.output_device.currentIndexChanged.connect(self._show_calibration)
        self.input_device.currentIndexChanged.connect(self._show_calibration)
        device_buttons = QHBoxLayout()
        device_buttons.addWidget(refresh)
        device_buttons.addWidget(self.calibrate_button)
        device_buttons.addStretch(1)
        self.device_message = QLabel("")
        self.device_message.setWordWrap(True)
        self.device_message.setStyleSheet("color: #a03000;")
        self.model = QComboBox()
        self.model.setToolTip("The Whisper model that recognises the interpretation (sialign models add FOLDER)")
        model_folder = QPushButton("Folder…")
        model_folder.setToolTip("Use a Whisper model folder that is not in the list")
        model_folder.clicked.connect(self._choose_model_folder)
        self.models_button = QPushButton("Models…")
        self.models_button.setToolTip("Settings → Speech models: add a Whisper model, see its languages, choose the default")
        self.models_button.clicked.connect(self._open_speech_models)
        model_row = QHBoxLayout()
        model_row.addWidget(self.model, 1)
        model_row.addWidget(model_folder)
        model_row.addWidget(self.models_button)
        device_form = QFormLayout()
        device_form.addRow("Headphones:", self.output_device)
        device_form.addRow("Microphone:", self.input_device)
        device_form.addRow("", device_buttons)
        device_form.addRow("Round trip:", self.latency_label)
        device_form.addRow(self.device_message)
        device_form.addRow("Speech model:", model_row)
        device_box = QGroupBox("Devices and speech model")
        device_box.setLayout(device_form)

        # -- controls --
        self.start_button = QPushButton("● Start")
        self.start_button.setToolTip("Play the talk and record the microphone")
        self.start_button.clicked.connect(self.start)
        self.pause_button = QPushButton("Pause")
        self.pause_button.setToolTip("Pause the talk and the recording together (Resume goes on from the same place)")
        self.pause_button.clicked.connect(self.toggle_pause)
        self.stop_button = QPushButton("■ Stop")
        self.stop_button.setToolTip("End the session: the recording is kept and the full pass aligns it")
        self.stop_button.clicked.connect(self.stop)
        buttons = QHBoxLayout()
        for button in (self.start_button, self.pause_button, self.stop_button):
            button.setMinimumHeight(34)
            buttons.addWidget(button)
        self.review_button = QPushButton("Review a recorded rendition…")
        self.review_button.setToolTip("A rendition recorded elsewhere (a file a student sent): aligned against the talk "
                                      "by the same full pass as at Stop, and saved as a session (sialign practice --input-file)")
        self.review_button.clicked.connect(lambda: self.review_recording())
        self.meter = QProgressBar()
        # 0 = the floor (METER_FLOOR_DB), 60 = full scale.
        self.meter.setRange(0, -METER_FLOOR_DB)
        self.meter.setValue(0)
        self.meter.setFormat("microphone: silent")
        self.meter.setToolTip("The microphone's peak level (dBFS); speak so it stays below 0")
        self.elapsed = QLabel(_clock(0))
        font = QFont(self.elapsed.font())
        font.setPointSizeF(font.pointSizeF() * 2.0)
        font.setBold(True)
        self.elapsed.setFont(font)
        self.elapsed.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.status = QLabel("")
        self.status.setWordWrap(True)
        self.report_button = QPushButton("Open the trainer's report…")
        self.report_button.setToolTip("Omissions, terms and ear-voice span of this rendition (HTML or PDF)")
        self.report_button.clicked.connect(lambda: self.host.open_report())
        self.compare_button = QPushButton("Compare renditions…")
        self.compare_button.setToolTip("This session beside the other sessions of the same talk, sentence by sentence")
        self.compare_button.clicked.connect(lambda: self.host.compare(self.finished_path))
        after = QHBoxLayout()
        after.addWidget(self.report_button)
        after.addWidget(self.compare_button)
        control_box = QGroupBox("Session")
        control_layout = QVBoxLayout(control_box)
        control_layout.addLayout(buttons)
        control_layout.addWidget(self.review_button)
        control_layout.addWidget(self.elapsed)
        control_layout.addWidget(self.meter)
        control_layout.addWidget(self.status)
        control_layout.addLayout(after)

        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(talk_box)
        left_layout.addWidget(device_box)
        left_layout.addWidget(control_box)
        left_layout.addStretch(1)

        # -- live table --
        self.live_model = LiveTableModel(parent=self)
        self.live_table = QTableView()
        self.live_table.setModel(self.live_model)
        self.live_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.live_table.setWordWrap(True)
        self.live_table.verticalHeader().hide()
        header = self.live_table.horizontalHeader()
        for col, mode in ((COL_NUMBER, QHeaderView.ResizeMode.ResizeToContents),
                          (COL_TIME, QHeaderView.ResizeMode.ResizeToContents),
                          (COL_SOURCE, QHeaderView.ResizeMode.Stretch), (COL_TARGET, QHeaderView.ResizeMode.Stretch),
                          (COL_STATE, QHeaderView.ResizeMode.ResizeToContents),
                          (COL_LATENCY, QHeaderView.ResizeMode.ResizeToContents)):
            header.setSectionResizeMode(col, mode)
        # Rows are fitted to their wrapped text as they change; when the columns change width, all of them once.
        self._refit = QTimer(self)
        self._refit.setSingleShot(True)
        self._refit.setInterval(250)
        self._refit.timeout.connect(self.live_table.resizeRowsToContents)
        header.sectionResized.connect(lambda *_: self._refit.start())
        self.live_summary = QLabel("The live alignment shows here while the student interprets.")
        self.live_summary.setWordWrap(True)
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(self.live_summary)
        right_layout.addWidget(self.live_table, 1)

        splitter = QSplitter()
        splitter.addWidget(left)
        splitter.addWidget(right)
        splitter.setStretchFactor(0, 0)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([400, 880])
        layout = QVBoxLayout(self)
        layout.addWidget(splitter)
        self.resize(1280, 800)
        self._show_talk_length()

    # ==================================================================================
    # choices
    def refresh_talk_choices(self) -> None:
        """Offer the open project when it has a source; pick it when it does."""
        project = self.host.open_project()
        item = self.talk_kind.model().item(TALK_OPEN)  # type: ignore[attr-defined]
        usable = project is not None and len(project.source) > 0
        item.setEnabled(usable)
        item.setText(f"The open project: {project.talk_id}" if usable and project is not None else "The open project (none open)")
        if usable and project is not None:
            if project.target.language and project.target.language != "und":
                self.tgt_lang.setEditText(project.target.language)
            self.talk_kind.setCurrentIndex(TALK_OPEN)
        elif self.talk_kind.currentIndex() == TALK_OPEN:
            self.talk_kind.setCurrentIndex(TALK_FILE)
        self._talk_kind_changed()

    def _talk_kind_changed(self, *_: object) -> None:
        kind = self.talk_kind.currentIndex()
        form = self._talk_rows
        form.setRowVisible(1, kind != TALK_OPEN)
        form.setRowVisible(2, kind == TALK_RECORDING)
        form.setRowVisible(3, kind == TALK_RECORDING)
        self.talk_path.setPlaceholderText("the project file (.sialign)" if kind == TALK_FILE else "the source recording (WAV, FLAC, OGG, MP3)")
        self._show_talk_length()

    def talk_length_s(self) -> float | None:
        """The length of the chosen talk's recording (its header only), None when it is not known before Start."""
        from sialign.audio.decode import load_audio, resolve_audio_path

        kind = self.talk_kind.currentIndex()
        try:
            if kind == TALK_OPEN:
                project = self.host.open_project()
                audio = (resolve_audio_path(project.source.audio_path, project.path, "source.audio_path")
                         if project is not None and project.source.audio_path else None)
            elif kind == TALK_RECORDING and self.talk_path.text().strip():
                audio = Path(self.talk_path.text().strip()).expanduser()
            else:
                return None  # a project file: read at Start
            return load_audio(audio).duration if audio is not None else None
        except (SialignError, OSError):
            return None  # said at Start, where the talk is read

    def _show_talk_length(self) -> None:
        """Before Start the clock reads 0:00 / the talk's length."""
        if getattr(self, "elapsed", None) is None or self.state != "idle" or self.session is not None:
            return
        total = self.talk_length_s()
        self.elapsed.setText(f"{_clock(0)} / {_clock(total)}" if total else _clock(0))

    def _browse_talk(self) -> None:
        if self.talk_kind.currentIndex() == TALK_FILE:
            path, _ = QFileDialog.getOpenFileName(self, "The talk's project", "", "SI Aligner projects (*.sialign)")
        else:
            path, _ = QFileDialog.getOpenFileName(self, "The source recording", "", audio_file_filter())
        if path:
            self.talk_path.setText(path)

    def _browse_transcript(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "The source's timed transcript", "",
                                              "Transcripts (*.srt *.vtt *.TextGrid *.eaf *.tsv);;All files (*)")
        if path:
            self.transcript_path.setText(path)

    def refresh_devices(self) -> None:
        """List the headphones and microphones again; say what is missing."""
        devices = self._devices_fn()
        for combo, found, kind in ((self.output_device, devices.outputs, "headphones or speakers"),
                                   (self.input_device, devices.inputs, "microphone")):
            combo.clear()
            combo.setPlaceholderText(f"no {kind} found: see below")  # shown while the list is empty
            for device in found:
                combo.addItem(device.label(), device.index)
                combo.setItemData(combo.count() - 1, f"{device.name}: {device.channels} channels, "
                                  f"{device.samplerate:.0f} Hz, latency {device.low_latency_s * 1000:.0f}–{device.high_latency_s * 1000:.0f} ms",
                                  Qt.ItemDataRole.ToolTipRole)
                if device.is_default:
                    combo.setCurrentIndex(combo.count() - 1)
        self.device_message.setText(devices.problem)
        self.device_message.setVisible(bool(devices.problem))
        self.devices = devices
        self._show_calibration()
        self._update_buttons()

    def _device_name(self, combo: QComboBox, found: list[AudioDevice]) -> str | None:
        index = combo.currentData()
        return next((d.name for d in found if d.index == index), None)

    def _show_calibration(self) -> None:
        """Say which round trip a session with the chosen devices leaves out: the measured one, or the reported one."""
        devices = getattr(self, "devices", None)
        if devices is None:
            return
        inp = self._device_name(self.input_device, devices.inputs)
        out = self._device_name(self.output_device, devices.outputs)
        if inp is None or out is None:
            self.latency_label.setText("")
            return
        kept = calibration_named(inp, out)
        if kept is None:
            self.latency_label.setText("as the devices report it (not measured: Calibrate… with the headset on)")
        else:
            self.latency_label.setText(f"{kept.round_trip_s * 1000:.0f} ms, measured {kept.measured.replace('T', ' ')[:16]} "
                                       f"(the devices report {kept.reported_s * 1000:.0f} ms)")

    def refresh_models(self) -> None:
        try:
            found, default = self._models_fn()
        except SialignError as exc:
            found, default = [], None
            self.status.setText(error_text(exc))
        self.model.clear()
        for name, folder in found:
            self.model.addItem(name, str(folder))
            self.model.setItemData(self.model.count() - 1, str(folder), Qt.ItemDataRole.ToolTipRole)
            if name == default:
                self.model.setCurrentIndex(self.model.count() - 1)
        if not found:
            self.model.addItem("no Whisper model installed", "")
        self._update_buttons()

    def _open_speech_models(self) -> None:
        self.host.speech_models()
        self.status.setText("")
        self.refresh_models()

    def _choose_model_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "A Whisper model folder (CTranslate2)")
        if folder:
            if self.model.count() == 1 and not self.model.itemData(0):
                self.model.clear()
            self.model.addItem(Path(folder).name, folder)
            self.model.setCurrentIndex(self.model.count() - 1)
            self._update_buttons()

    # ==================================================================================
    # state
    def _set_state(self, state: str) -> None:
        self.state = state
        self._update_buttons()
        self.state_changed.emit(state)

    def _update_buttons(self) -> None:
        state = getattr(self, "state", "idle")
        idle = state in ("idle", "done")
        ready = bool(self.input_device.count()) and bool(self.output_device.count()) and bool(self.model.currentData())
        self.start_button.setEnabled(idle and ready)
        self.review_button.setEnabled(idle and bool(self.model.currentData()))  # no devices needed
        self.calibrate_button.setEnabled(idle and bool(self.input_device.count()) and bool(self.output_device.count()))
        self.pause_button.setEnabled(state in ("recording", "paused"))
        self.pause_button.setText("Resume" if state == "paused" else "Pause")
        self.stop_button.setEnabled(state in ("recording", "paused"))
        if state == "reviewing":
            self.review_button.setEnabled(False)
        for widget in (self.talk_kind, self.talk_path, self.talk_browse, self.transcript_path, self.transcript_browse,
                       self.src_lang, self.tgt_lang, self.output_device, self.input_device, self.model, self.models_button):
            widget.setEnabled(idle)
        self.report_button.setVisible(state == "done")
        self.compare_button.setVisible(state == "done")
        # What keeps Start off, said while it does and taken back as soon as it does not (it once went on
        # saying "No speech model" beside the model the box had chosen since).
        current = self.status.text()
        if not idle or ready:
            if current == NO_SPEECH_MODEL:
                self.status.setText("")
        elif not self.model.currentData() and not current:
            self.status.setText(NO_SPEECH_MODEL)

    @property
    def busy(self) -> bool:
        """A session is being recorded or finished."""
        return self.state in ("preparing", "recording", "paused", "finishing", "reviewing")

    # ==================================================================================
    # start
    def _choices(self) -> _Choices | None:
        """What Start and *Review a recorded rendition* read from the window; None (said in the status) when incomplete."""
        tgt_lang = self.tgt_lang.currentText().strip().lower()
        model = str(self.model.currentData() or "")
        if not tgt_lang:
            self.status.setText("Say which language the student interprets into.")
            return None
        if not model:
            self.status.setText("Choose a Whisper model first.")
            return None
        kind = self.talk_kind.currentIndex()
        path = self.talk_path.text().strip()
        if kind != TALK_OPEN and not path:
            self.status.setText("Choose the talk's project file or its source recording first.")
            return None
        current = self.host.open_project() if kind == TALK_OPEN else None
        if kind == TALK_OPEN and current is None:
            self.status.setText("No talk is open: open one first, or pick a project file or a source recording.")
            return None
        if not self.host.may_replace():
            return None
        transcript = self.transcript_path.text().strip() or None
        if current is not None:
            talk = TalkChoice(project=snapshot(current))
        elif kind == TALK_FILE:
            talk = TalkChoice(project_file=path)
        else:  # files the user named: the session's project may name them (core.allowed_folders)
            from sialign.core.stored_files import remember_chosen

            remember_chosen([path, transcript])
            talk = TalkChoice(recording=path, transcript=transcript, src_lang=self.src_lang.currentText().strip() or None)
        return _Choices(talk, tgt_lang, model)

    def start(self, rendition: str | Path | None = None, *, speed: float = 1.0) -> None:
        """Prepare the session in its worker process, then play and record.

        Args:
            rendition: a recording fed as if it came from the microphone, at ``speed`` times real time, instead
                of recording the microphone (nothing is played: ``sialign practice --input-file`` with the live
                view; the benchmark and the tests run sessions so).
        """
        if self.busy or self.runner.busy:
            return
        choices = self._choices()
        if choices is None:
            return
        recipe = SessionRecipe(choices.talk, choices.tgt_lang, choices.model,
                               rendition=RenditionFile(Path(rendition), speed) if rendition is not None else None,
                               input_device=self.input_device.currentData(), output_device=self.output_device.currentData())
        session: SessionDriver = PracticeThreads(recipe, parts=self._parts) if self._in_process else PracticeProcess(recipe)
        self.session = session
        self.finished_path = ""
        session.prepare()
        self.status.setText("Preparing…")
        self._set_state("preparing")
        self.timer.start()

    def _end_session(self, wait_s: float = 0.0) -> None:
        """Stop polling and let the session's engine go (its process ends; a recording still running is kept)."""
        self.timer.stop()
        if self.session is not None:
            self.session.close(wait_s)

    # ==================================================================================
    # what the session says
    @Slot()
    def _tick(self) -> None:
        """Every :data:`POLL_MS`: the events the session sent (never waiting for one), then its clock and level."""
        session = self.session
        if session is None:
            self.timer.stop()
            return
        for event in session.poll():
            self._on_event(event)
        if self.state in ("recording", "paused"):
            self._show_status(session.status())

    def _on_event(self, event: SessionEvent) -> None:
        match event:
            case Progressed(fraction=fraction, message=message):
                self._progressed(fraction, message)
            case Prepared(facts=facts):
                self._prepared(facts)
            case Started():
                self._started()
            case LiveUpdated(update=update):
                self._live_updated(update)
            case Fed():
                self.status.setText("The whole rendition has been fed. Press Stop for the full pass.")
            case Stopped():
                self._finished_live(event)
            case FullPassed(project=project):
                self._full_pass_done(project)
            case Cancelled():
                self.host.set_locked("")
                self._end_session()
                self._set_state("idle")
            case Failed():
                self._failed(event)

    def _prepared(self, facts: SessionFacts) -> None:
        self.live_model.set_source(facts.source)
        assert self.session is not None
        self.session.start()  # a session that cannot start lets its live aligner go, off this thread

    def _started(self) -> None:
        session = self.session
        facts = session.facts if session is not None else None
        if session is None or facts is None:
            return
        if facts.from_file:
            session.feed()
            self.status.setText(f"Feeding {facts.recording.name} as if it came from the microphone "
                                f"(nothing is played or recorded) against {facts.origin}.")
        else:
            self.status.setText(f"Recording {facts.origin} into {facts.recording.name}. "
                                "Interpret as the talk plays; Pause stops both.")
        self.live_summary.setText("Live alignment: waiting for the first words…")
        self._set_state("recording")

    def _failed(self, event: Failed) -> None:
        """A step failed: said in one line; a failed feed leaves the session running until Stop."""
        error = event.error
        reason = (one_line(error_text(error)) if isinstance(error, SialignError)
                  else f"{STEP_WORDS.get(event.step, event.step)} failed unexpectedly: {event.message}")
        self.status.setText(f"Not started: {reason}" if event.step == "start" else f"Not done: {reason}")
        if event.step == "feed":
            return
        self.host.set_locked("")
        self._end_session()
        self._set_state("idle")

    def _recording_name(self) -> str:
        path = self.session.recording_path if self.session is not None else None
        return path.name if path is not None else "the recording"

    # ==================================================================================
    # during
    def toggle_pause(self) -> None:
        session = self.session
        if session is None or self.state not in ("recording", "paused"):
            return
        if self.state == "recording":
            session.pause()
            self._set_state("paused")
            self.status.setText("Paused: the talk and the recording wait. Resume goes on from the same place.")
        else:
            session.resume()
            self._set_state("recording")
            self.status.setText(f"Recording into {self._recording_name()}.")

    def _show_status(self, now: SessionStatus) -> None:
        """The meter, the clock and what went wrong with the recording."""
        level = now.level_dbfs
        if self.state == "paused" or level <= SILENCE_DBFS:
            self.meter.setValue(0)
            self.meter.setFormat("microphone: silent" if self.state != "paused" else "paused")
        else:
            self.meter.setValue(int(max(METER_FLOOR_DB, min(0.0, level)) - METER_FLOOR_DB))
            self.meter.setFormat(f"microphone: {level:.0f} dB")
        total = now.talk_s
        self.elapsed.setText(f"{_clock(now.elapsed_s)} / {_clock(total)}" if total else _clock(now.elapsed_s))
        if now.error:
            self.status.setText(now.error)
        elif now.dropped_blocks:
            self.status.setText(f"The computer could not keep up: {now.dropped_blocks} short gaps were filled with silence.")
        elif self.state == "recording" and now.talk_finished:
            self.status.setText("The talk has ended. Press Stop when you have finished your last sentence.")

    def _live_updated(self, update: LiveUpdate) -> None:
        rows = self.live_model.apply_update(update)
        counts = self.live_model.counts
        parts = [f"{counts.get('rendered', 0)} rendered", f"{counts.get('unrendered', 0)} not rendered",
                 f"{counts.get('pending', 0)} not reached yet"]
        latencies = self.live_model.latencies
        if latencies:
            parts.append(f"median {statistics.median(latencies):.1f} s after the words")
        self.live_summary.setText("Live alignment: " + " · ".join(parts))
        for row in rows:  # wrap the new and revised rows' text (the others keep their height)
            self.live_table.resizeRowToContents(row)
        current = self.live_model.current_row()
        if current >= 0:  # keep where the student is in view, with what comes next below it
            self.live_table.scrollTo(self.live_model.index(current, 0), QAbstractItemView.ScrollHint.PositionAtCenter)

    # ==================================================================================
    # a rendition recorded elsewhere
    def review_recording(self, recording: str | None = None) -> None:
        """Align a rendition from a file against the chosen talk by the full pass at Stop, and save it as a session.

        The GUI twin of ``sialign practice --input-file`` without the live view: nothing is played or recorded,
        so no audio device is needed. ``recording``: the file (asked for when None).
        """
        if self.busy or self.runner.busy:
            return
        if recording is None:
            recording, _ = QFileDialog.getOpenFileName(self, "A rendition recorded elsewhere", "", audio_file_filter())
            if not recording:
                return
        choices = self._choices()
        if choices is None:
            return
        from sialign.core.stored_files import remember_chosen

        remember_chosen([recording])  # the session's project names it (core.allowed_folders)
        rendition, parts, here = Path(recording), self._parts, self._in_process

        def review(progress: ProgressFn, should_stop: StopFn) -> Project:
            if here:
                return review_rendition(choices.talk, rendition, tgt_lang=choices.tgt_lang, model=choices.model,
                                        parts=parts, progress=progress, should_stop=should_stop)
            # The recogniser and the aligner in a worker process: this thread only waits for them.
            return call_apart(review_rendition, choices.talk, rendition, tgt_lang=choices.tgt_lang, model=choices.model,
                              progress=progress, should_stop=should_stop, what="the review of the rendition")

        self._end_session()
        self.session = None
        self.finished_path = ""
        self.live_model.set_source(None)  # an earlier session's rows were another rendition
        self.live_summary.setText("")
        self.elapsed.setText(_clock(0))
        self.meter.setValue(0)
        self.meter.setFormat(f"reviewing {rendition.name}")
        self.status.setText(f"Reviewing {rendition.name}: transcribing and aligning it like `sialign align`…")
        self._set_state("reviewing")
        self._run(TaskWorker(review, "Reviewing a recorded rendition"), self._reviewed, on_fail=lambda: self._set_state("idle"))

    def _reviewed(self, project: Project) -> None:
        from sialign.core.coverage import NOT_REACHED, coverage

        self.host.install_reviewed(project)
        self.finished_path = str(project.path or "")
        self.live_model.show_reviewed(project)
        ends = [seg.end for seg in project.target.segments if seg.end is not None]
        self.elapsed.setText(_clock(max(ends)) if ends else "")
        self.meter.setFormat(f"reviewed {Path(project.target.audio_path or '').name or 'a recorded rendition'}")
        covered = coverage(project)
        self.live_summary.setText(f"Full pass: {covered.rendered} rendered · {covered.omitted} left out · "
                                  f"{covered.count(NOT_REACHED)} not reached")
        self.status.setText(f"Done: the rendition is in the main window, saved as {Path(self.finished_path).name}.")
        self._set_state("done")

    # ==================================================================================
    # the headset's round trip
    def calibrate(self, *, ask: bool = True) -> None:
        """Measure the chosen devices' round trip with clicks (in a worker process) and keep it for them.

        Starts after a worker that is still winding down (``_run`` queues it): the state decides, not the thread.
        """
        if self.state not in ("idle", "done") or self.busy:
            return
        if ask and QMessageBox.information(self, "Calibrate the headset", CALIBRATE_ASK,
                                           QMessageBox.StandardButton.Ok | QMessageBox.StandardButton.Cancel
                                           ) != QMessageBox.StandardButton.Ok:
            return
        inp, out, before, measure = self.input_device.currentData(), self.output_device.currentData(), self.state, self._calibrate_fn

        def run(progress: ProgressFn, should_stop: StopFn) -> Calibration:
            return measure(inp, out, progress, should_stop)

        self.status.setText("Calibrating: clicks are playing in the headphones…")
        self._set_state("calibrating")
        def done(found: Calibration) -> None:
            self._calibrated(found, before)

        self._run(TaskWorker(run, "Calibrating the headset"), done, on_fail=lambda: self._set_state(before))

    def _calibrated(self, found: Calibration, before: str) -> None:
        self.status.setText(f"Calibrated: {found.summary()}. Sessions with these devices use it.")
        self._set_state(before)
        self._show_calibration()

    # ==================================================================================
    # stop
    def stop(self) -> None:
        """Stop recording; the live pass ends and the full pass runs in the session's process, then lands in the
        main window."""
        session = self.session
        if session is None or self.state not in ("recording", "paused"):
            return
        self._set_state("finishing")
        self.status.setText("Finishing the recording and the live alignment…")
        session.stop()

    def _finished_live(self, stopped: Stopped) -> None:
        session = self.session
        assert session is not None
        recorded = stopped.recorded
        self.elapsed.setText(_clock(recorded.duration_s if recorded is not None else stopped.live.received_s))
        self.meter.setValue(0)
        self.meter.setFormat("recording finished")
        self.host.install_live(stopped.project)
        self.host.set_locked("the full pass over the recording is running; edit when it has finished")
        self.status.setText("Full pass over the recording: transcribing and aligning it like `sialign align`…")
        session.full_pass()

    def _full_pass_done(self, final: Project) -> None:
        session = self.session
        assert session is not None
        self._end_session()  # the session's engine has done its work: its process ends
        self.host.set_locked("")
        if self.host.apply_full_pass(final):
            self.finished_path = str(session.project_path)
            self._show_full_pass_counts(final)
            self.status.setText(f"Done: the full pass replaced the live beads in the main window (Undo brings them back); "
                                f"saved as {Path(self.finished_path).name}, the recording is {self._recording_name()}.")
            self._set_state("done")
        else:
            self.status.setText("The full pass could not be installed; the live result stays in the main window.")
            self._set_state("idle")

    def _show_full_pass_counts(self, final: Project) -> None:
        """The live table and its summary say what the saved session says (the full pass), not what the live view guessed."""
        from sialign.core.coverage import NOT_REACHED, coverage

        revised = self.live_model.revise_from(final)
        covered = coverage(final)
        self.live_summary.setText(
            f"Full pass: {covered.rendered} rendered · {covered.omitted} left out · {covered.count(NOT_REACHED)} not reached"
            + (f" ({revised} row{'s' if revised != 1 else ''} of the live view revised)" if revised else ""))

    # ==================================================================================
    # workers
    def _run(self, worker: TaskWorker, on_success: Callable[[Result], None], *, on_fail: Callable[[], None]) -> None:
        """Run ``worker`` after the running one, if any; its outcome reaches ``on_success``/``on_fail`` on this thread.

        The worker's signals go to this window's slots (queued: they run on the
        GUI thread whatever the worker's thread), which look up the callables.
        ``on_success`` receives what the worker's task returned.
        """
        self._handlers[worker] = (lambda result: on_success(cast(Result, result)), on_fail)
        worker.progressed.connect(self._progressed)
        worker.succeeded.connect(self._worker_succeeded)
        worker.failed.connect(self._worker_failed)
        worker.cancelled.connect(self._worker_cancelled)
        if self.runner.busy:
            self._queued.append(worker)
        else:
            self.runner.start(worker)

    @Slot()
    def _start_queued(self) -> None:
        if self._queued and not self.runner.busy:
            self.runner.start(self._queued.pop(0))

    def _handler(self) -> tuple[Callable[[object], None], Callable[[], None]] | None:
        worker = self.sender()
        return self._handlers.pop(worker, None) if isinstance(worker, TaskWorker) else None

    @Slot(object)
    def _worker_succeeded(self, result: object) -> None:
        handler = self._handler()
        if handler is not None:
            handler[0](result)

    @Slot(str, str)
    def _worker_failed(self, message: str, _details: str) -> None:
        self.status.setText(f"Not done: {message}")
        handler = self._handler()
        if handler is not None:
            handler[1]()

    @Slot()
    def _worker_cancelled(self) -> None:
        handler = self._handler()
        if handler is not None:
            handler[1]()

    @Slot(float, str)
    def _progressed(self, fraction: float, message: str) -> None:
        self.status.setText(f"{message} ({fraction * 100:.0f} %)" if 0 < fraction < 1 else message)

    # ==================================================================================
    # closing: nothing recorded is lost
    def may_quit(self) -> bool:
        """Before the application quits: ask, then stop the recording (kept on disk); False keeps everything running."""
        session = self.session
        if self.state in ("recording", "paused") and session is not None:
            answer = QMessageBox.question(
                self, "A session is being recorded",
                f"The student is being recorded. Stop and quit? The recording so far is kept in {session.recording_path} "
                "(align it later with `sialign practice … --input-file`).",
            )
            if answer != QMessageBox.StandardButton.Yes:
                return False
            # The recording is finished and kept before the session's process ends (the live pass is let go).
            self._end_session(QUIT_WAIT_S)
            self._set_state("idle")
            return True
        if self.state in ("preparing", "finishing") and session is not None:
            answer = QMessageBox.question(
                self, "The session is being finished",
                f"The full pass over the recording is still running. Quit anyway? The recording is kept in {session.recording_path}.",
            )
            if answer != QMessageBox.StandardButton.Yes:
                return False
            self._end_session()
        self.runner.cancel()
        self.runner.wait(3000)
        self.host.set_locked("")
        return True

    def closeEvent(self, event: QCloseEvent) -> None:
        """Closing the booth while recording asks, then stops the session (whose results still land in the main window,
        after which its process ends); a session still being prepared is let go at once."""
        if self.state in ("recording", "paused"):
            answer = QMessageBox.question(self, "Stop the session?",
                                          "The student is being recorded. Stop the session and close the booth? "
                                          "The recording is kept and aligned in the main window.")
            if answer != QMessageBox.StandardButton.Yes:
                event.ignore()
                return
            self.stop()
        elif self.state == "preparing":
            self._end_session()
            self.status.setText("")
            self._set_state("idle")
        event.accept()


def _calibrate_apart(input_device: int | None, output_device: int | None, progress: ProgressFn,
                     should_stop: StopFn) -> Calibration:
    """The headset's calibration in a worker process (PortAudio's stream stays out of the app's process)."""
    return call_apart(calibrate, input_device, output_device, progress=progress, should_stop=should_stop,  # type: ignore[no-any-return]
                      what="the calibration")
