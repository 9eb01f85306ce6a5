"""Align → Time from audio…: choose the side to time, see its recording and the speech model that will hear it.

Each side says how many segments it has, whether it already has times (they
will be replaced; Undo brings them back) and which recording it has; the
speech model line names the default Whisper model and what it recognises,
with a button to *Speech models…*, where one is added when there is none. The
dialog only chooses: the main window runs the timing in a worker thread.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QButtonGroup,
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from sialign.core.errors import SialignError
from sialign.core.model import Project
from sialign.core.plurals import count_noun
from sialign.workflows.speech import WhisperInfo

SIDES = (("src", "Source"), ("tgt", "Interpretation"))
ERROR_STYLE = "color: #b00020;"
WARNING_STYLE = "color: #8a5a00;"


class TimeFromAudioDialog(QDialog):
    """Choose which side of ``project`` to time from its recording; :attr:`side` and :attr:`model` once accepted.

    Args:
        project: the open talk (read only).
        side: the side to offer first (default: an untimed side with a recording).
    """

    def __init__(self, project: Project, parent: QWidget | None = None, *, side: str | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Time from audio")
        self.setMinimumWidth(620)
        self.project = project
        self.model: Path | None = None
        self._info: WhisperInfo | None = None
        self._problems: dict[str, str] = {}

        intro = QLabel("A transcript typed without times gets the times of its recording: a speech model hears the "
                       "recording, the transcript's words are matched to the words it heard, and each segment takes "
                       "the start of its first word and the end of its last. The text is not changed.")
        intro.setWordWrap(True)
        self.group = QButtonGroup(self)
        self.buttons_by_side: dict[str, QRadioButton] = {}
        self.notes: dict[str, QLabel] = {}
        grid = QGridLayout()
        grid.setColumnStretch(1, 1)
        for row, (key, name) in enumerate(SIDES):
            button = QRadioButton(name)
            self.group.addButton(button)
            self.buttons_by_side[key] = button
            note = QLabel()
            note.setWordWrap(True)
            note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self.notes[key] = note
            grid.addWidget(button, row, 0, Qt.AlignmentFlag.AlignTop)
            grid.addWidget(note, row, 1)
            button.toggled.connect(self._update)

        self.model_label = QLabel()
        self.model_label.setObjectName("speechModelLine")
        self.model_label.setWordWrap(True)
        self.models_button = QPushButton("Speech models…")
        self.models_button.setToolTip("Add a Whisper model folder or choose the default speech model")
        self.models_button.clicked.connect(self.open_speech_models)
        model_row = QHBoxLayout()
        model_row.addWidget(self.model_label, 1)
        model_row.addWidget(self.models_button, 0, Qt.AlignmentFlag.AlignTop)
        self.message = QLabel()
        self.message.setObjectName("timeFromAudioMessage")
        self.message.setWordWrap(True)

        self.box = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.ok_button = self.box.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText("Time from audio")
        self.box.accepted.connect(self.accept)
        self.box.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(grid)
        layout.addLayout(model_row)
        layout.addWidget(self.message)
        layout.addWidget(self.box)

        self._describe_sides()
        self._read_model()
        self.buttons_by_side[side or self._first_choice()].setChecked(True)
        self._update()

    # -- what there is ---------------------------------------------------------
    def _describe_sides(self) -> None:
        from sialign.workflows.retiming import side_audio

        for key, name in SIDES:
            doc = self.project.document(key)
            if doc is None or not doc.segments:
                self._problems[key] = f"The {name.lower()} has no segments to time."
                self.notes[key].setText("no segments")
                continue
            parts = [count_noun(len(doc), "segment")]
            try:
                audio = side_audio(self.project, key)
                parts.append(f"recording {audio.name}")
            except SialignError:
                self._problems[key] = (f"The {name.lower()} has no recording that can be played: choose it in "
                                       "File → Project properties… first.")
                parts.append("no recording")
            if doc.has_times:
                parts.append("already has times")
            self.notes[key].setText(" · ".join(parts))

    def _first_choice(self) -> str:
        """An untimed side with a recording, else a side with a recording, else the source."""
        for wanted in (lambda k: not self.project.document(k).has_times, lambda k: True):
            for key, _ in SIDES:
                if key not in self._problems and wanted(key):
                    return key
        return "src"

    def _read_model(self) -> None:
        from sialign.workflows.speech import default_whisper_info

        try:
            info = default_whisper_info()
        except SialignError:
            self.model = None
            self._info = None
            self.model_label.setText("<b>No speech model.</b> Timing from audio needs one to hear the recording: "
                                     "add a Whisper model folder with the Speech models… button.")
            self.model_label.setStyleSheet(ERROR_STYLE)
            self.models_button.setDefault(True)
            return
        self.model = info.folder
        self._info = info
        self.model_label.setText(f"Speech model: <b>{info.name}</b> — {info.describe()}")
        self.model_label.setStyleSheet("")
        self.models_button.setDefault(False)

    @property
    def side(self) -> str:
        """The side chosen (``src`` or ``tgt``)."""
        for key, button in self.buttons_by_side.items():
            if button.isChecked():
                return key
        return "src"

    def _update(self) -> None:
        key = self.side
        name = dict(SIDES)[key].lower()
        doc = self.project.document(key)
        problem = self._problems.get(key)
        style = ERROR_STYLE
        if problem:
            text = problem
        elif self._info is None:
            text = ""
        elif doc is not None and not self._info.knows(doc.language):
            text = (f"{self._info.name} recognises English only, but the {name} is in '{doc.language}': "
                    "add a multilingual model with the Speech models… button.")
            problem = text
        elif doc is not None and doc.has_times:
            text = (f"The {name} already has times: they will be replaced by the times of its recording "
                    "(Edit → Undo brings them back).")
            style = WARNING_STYLE
        else:
            text = ""
        self.message.setText(text)
        self.message.setStyleSheet(style)
        self.message.setVisible(bool(text))
        self.ok_button.setEnabled(self.model is not None and not problem)
        self.adjustSize()

    # -- actions -----------------------------------------------------------------
    def open_speech_models(self) -> None:
        """Open *Speech models*; the model line follows what was chosen there."""
        from sialign.gui.dialogs.speech_models import open_speech_models

        open_speech_models(self)
        self._read_model()
        self._update()
