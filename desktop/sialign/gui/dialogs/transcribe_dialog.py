"""The "Transcribe…" dialog: a recording → a timed transcript saved beside it, with a local Whisper model.

The model is one of the Whisper folders the model registry knows (``sialign
models add``) or a folder chosen here; the language comes from the New talk
dialog and can be changed. Recognition runs in a :class:`TaskWorker` with a
progress bar and the time left; Cancel stops it and writes nothing. The
transcript is written as SubRip beside the recording
(``<recording>.whisper.srt``, never over an existing file) so it can be
opened, corrected and aligned like any other.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import QSettings, Qt, Slot
from PySide6.QtWidgets import (
    QComboBox, QDialog, QDialogButtonBox, QFileDialog, QFormLayout, QHBoxLayout, QLabel, QProgressBar,
    QPushButton, QVBoxLayout, QWidget,
)

from sialign.core.errors import AlignmentCancelled, SialignError
from sialign.gui.common.workers import TaskWorker, WorkerRunner

LANGUAGES = ["en", "ja", "de", "fr", "es", "it", "zh", "ko", "pt", "ru", "ar", "nl"]


def transcript_path_for(audio: str | Path) -> Path:
    """Where the transcript of ``audio`` is saved: ``talk.whisper.srt`` beside ``talk.wav`` (``-2``, ``-3``… if taken)."""
    audio = Path(audio)
    candidate = audio.with_name(f"{audio.stem}.whisper.srt")
    n = 2
    while candidate.exists():
        candidate = audio.with_name(f"{audio.stem}.whisper-{n}.srt")
        n += 1
    return candidate


class TranscribeDialog(QDialog):
    """Choose a Whisper model and a language, transcribe ``audio``; :attr:`output` is the transcript written.

    Args:
        audio: the recording.
        language: the language to start with (the New talk dialog's).
        role: ``source`` (sentences) or ``interpretation`` (chunks).
    """

    def __init__(self, audio: str, language: str = "", role: str = "source", parent: QWidget | None = None,
                 settings: QSettings | None = None) -> None:  # fmt: skip
        super().__init__(parent)
        self.setWindowTitle("Transcribe a recording")
        self.setMinimumWidth(560)
        self.audio = audio
        self.role = role
        self.output: Path | None = None
        self.model_name = ""
        self._runner = WorkerRunner(self)
        self._runner.finished.connect(self._on_finished)

        self.model = QComboBox()
        self.model.setToolTip("A Whisper model in CTranslate2 format (added with 'sialign models add FOLDER')")
        choose = QPushButton("Folder…")
        choose.setToolTip("Use a Whisper model folder that is not in the list")
        choose.clicked.connect(self._choose_folder)
        model_row = QHBoxLayout()
        model_row.addWidget(self.model, 1)
        model_row.addWidget(choose)
        self.language = QComboBox()
        self.language.setEditable(True)
        self.language.addItems(LANGUAGES)
        if language:
            self.language.setEditText(language)
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.progress.hide()
        self.status = QLabel("")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        form = QFormLayout()
        form.addRow("Recording", QLabel(Path(audio).name))
        form.addRow("Model", model_row)
        form.addRow("Language", self.language)
        what = "sentences" if role == "source" else "interpreter chunks (Japanese) or sentences"
        note = QLabel(f"The words are cut into {what}; the transcript is saved beside the recording as "
                      f"{transcript_path_for(audio).name} and marked as a machine transcript.")  # fmt: skip
        note.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.start_button = self.buttons.addButton("Transcribe", QDialogButtonBox.ButtonRole.ActionRole)
        self.start_button.clicked.connect(self.start)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(note)
        layout.addWidget(self.progress)
        layout.addWidget(self.status)
        layout.addWidget(self.buttons)
        self._fill_models()

    def _fill_models(self) -> None:
        from sialign.embed import models_registry as mr

        try:
            registry = mr.ModelRegistry()
            entries = [e for e in registry.list_models(kind=mr.KIND_WHISPER, include_hf_cache=False) if e.usable]
            default = registry.default_whisper
        except SialignError as exc:
            self._show(str(exc), error=True)
            entries, default = [], None
        for e in entries:
            self.model.addItem(e.name, str(e.path))
        if default:
            self.model.setCurrentIndex(max(0, self.model.findText(default)))
        if not entries:
            self._show("No Whisper model is installed: choose a model folder (Folder…), or ask IT to add one "
                       "with 'sialign models add FOLDER' (docs/transcription.md says how).", error=True)  # fmt: skip
        self.start_button.setEnabled(bool(entries))

    def _choose_folder(self) -> None:
        from sialign.embed.models_registry import whisper_folder_problem

        folder = QFileDialog.getExistingDirectory(self, "Whisper model folder")
        if not folder:
            return
        problem = whisper_folder_problem(Path(folder))
        if problem:
            self._show(problem, error=True)
            return
        self.model.addItem(Path(folder).name, folder)
        self.model.setCurrentIndex(self.model.count() - 1)
        self.start_button.setEnabled(True)
        self._show("")

    def _show(self, text: str, *, error: bool = False) -> None:
        from sialign.gui.main.dialogs import grow_to_fit

        self.status.setStyleSheet("color: #b00020;" if error else "")
        self.status.setText(text)
        # A long message wraps onto more lines: the dialog grows for them instead of drawing them over the fields.
        grow_to_fit(self)

    @property
    def busy(self) -> bool:
        return self._runner.busy

    def start(self) -> None:
        """Run the transcription in a worker thread."""
        if self.busy or self.model.currentIndex() < 0:
            return
        from sialign.io.writers import write_transcript
        from sialign.transcribe import transcribe_file

        model = str(self.model.currentData())
        language = self.language.currentText().strip() or None
        audio, role = self.audio, self.role
        self.model_name = self.model.currentText()

        def task(progress: Callable[[float, str], None], should_stop: Callable[[], bool]) -> Any:
            result = transcribe_file(audio, model, language=language, role=role, progress=progress, should_stop=should_stop)
            if result.recognition.interrupted:
                raise AlignmentCancelled("Transcription cancelled; nothing was saved.")
            out = transcript_path_for(audio)
            write_transcript(result.document, out, format="srt")
            return out, result

        worker = TaskWorker(task, "Transcribing")
        worker.progressed.connect(self._on_progress)
        worker.succeeded.connect(self._on_succeeded)
        worker.failed.connect(self._on_failed)
        worker.cancelled.connect(self._on_cancelled)
        self.progress.setValue(0)
        self.progress.show()
        self.start_button.setEnabled(False)
        self.model.setEnabled(False)
        self.language.setEnabled(False)
        self._show("Loading the model…")
        self._runner.start(worker)

    @Slot(float, str)
    def _on_progress(self, fraction: float, message: str) -> None:
        self.progress.setValue(int(fraction * 1000))
        self._show(message)

    @Slot(object)
    def _on_succeeded(self, result: Any) -> None:
        out, transcription = result
        self.output = out
        heard = transcription.recognition
        self._show(f"Saved {len(transcription.document)} segments to {out.name} "
                   f"({heard.duration:.0f} s of audio in {heard.seconds:.0f} s).")  # fmt: skip

    @Slot(str, str)
    def _on_failed(self, text: str, _details: str) -> None:
        self._show(text, error=True)

    @Slot()
    def _on_cancelled(self) -> None:
        self._show("Transcription cancelled; nothing was saved.")

    @Slot()
    def _on_finished(self) -> None:
        self.progress.hide()
        self.model.setEnabled(True)
        self.language.setEnabled(True)
        self.start_button.setEnabled(self.model.count() > 0)
        if self.output is not None:
            self.accept()

    def reject(self) -> None:
        # Cancel stops a running transcription first; the dialog closes when it has stopped.
        if self.busy:
            self._runner.cancel()
            self._show("Stopping…")
            return
        super().reject()

    def done(self, result: int) -> None:
        # Never close under a running worker (its thread quits through this thread's event loop).
        if self.busy:
            self._runner.cancel()
            self._show("Stopping…")
            return
        super().done(result)
