"""The "Transcribe…" dialog: recordings → timed transcripts saved beside them, with a local Whisper model.

The model is one of the speech models of *Settings → Speech models…* (the
default is chosen at first; the button opens that page, where one is added
when there is none) or a folder chosen here; the line under it says what the
model recognises and refuses an English-only model for another language. The
language comes from the New talk dialog and can be changed. One dialog can
transcribe several recordings in turn (New talk with only the two recordings).
Recognition runs in a worker process of its own
(:func:`~sialign.workflows.recordings.transcribe_recordings_apart`, waited for
by a :class:`TaskWorker`), so the recogniser never holds this window's
thread, with a progress bar and the time left; Cancel stops it and writes
nothing. Each transcript is written as
SubRip beside its recording (``<recording>.whisper.srt``, never over an
existing file) so it can be opened, corrected and aligned like any other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings, Qt, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from sialign.core.errors import SialignError
from sialign.gui.common.error_words import error_text
from sialign.gui.common.form_layout import grow_to_fit
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


@dataclass(frozen=True)
class Recording:
    """One recording to transcribe: its path, spoken language (``""``: detect it) and role (``source`` / ``interpretation``)."""

    audio: str
    language: str = ""
    role: str = "source"


class TranscribeDialog(QDialog):
    """Choose a Whisper model (and a language), transcribe the recordings; :attr:`outputs` are the transcripts written.

    Args:
        audio: the recording, or several :class:`Recording` to transcribe in turn.
        language: the language to start with (the New talk dialog's; one recording only).
        role: ``source`` (sentences) or ``interpretation`` (chunks; one recording only).
        choose_role: show a choice of who speaks (one recording: *File → Transcribe a recording…*).
    """

    def __init__(self, audio: str | Sequence[Recording], language: str = "", role: str = "source",
                 parent: QWidget | None = None, settings: QSettings | None = None, *, choose_role: bool = False) -> None:
        super().__init__(parent)
        if isinstance(audio, str):
            from sialign.core.languages import language_from_name

            language = language or language_from_name(audio) or ""  # talk.ja.ogg: Japanese
        self.recordings = [Recording(audio, language, role)] if isinstance(audio, str) else list(audio)
        several = len(self.recordings) > 1
        self.setWindowTitle("Transcribe the recordings" if several else "Transcribe a recording")
        self.setMinimumWidth(600)
        self.audio = self.recordings[0].audio
        self.role = self.recordings[0].role
        self.output: Path | None = None
        self.outputs: list[Path] = []
        self.model_name = ""
        self._runner = WorkerRunner(self)
        self._runner.finished.connect(self._on_finished)

        self.model = QComboBox()
        self.model.setToolTip("A speech model (Whisper, CTranslate2 format) from Settings → Speech models…")
        self.model.currentIndexChanged.connect(self._model_changed)
        self.models_button = QPushButton("Speech models…")
        self.models_button.setToolTip("Add a Whisper model folder, see its languages, choose the default")
        self.models_button.clicked.connect(self.open_speech_models)
        choose = self.folder_button = QPushButton("Folder…")
        choose.setToolTip("Use a Whisper model folder once, without adding it to the speech models")
        choose.clicked.connect(self._choose_folder)
        model_row = QHBoxLayout()
        model_row.addWidget(self.model, 1)
        model_row.addWidget(self.models_button)
        model_row.addWidget(choose)
        self.model_info = QLabel("")
        self.model_info.setObjectName("speechModelInfo")
        self.model_info.setWordWrap(True)
        self.language = QComboBox()
        self.language.setEditable(True)
        self.language.addItems(LANGUAGES)
        self.language.setToolTip("The spoken language (a code such as en or ja)")
        if self.recordings[0].language:
            self.language.setEditText(self.recordings[0].language)
        self.language.currentTextChanged.connect(lambda _t: self._model_changed())
        self.language_note = QLabel("")
        self.language_note.setObjectName("languageNote")
        self.language_note.setWordWrap(True)
        self.language_note.setStyleSheet("color: #8a5a00;")
        self.language.currentTextChanged.connect(lambda _t: self._check_names())
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.progress.hide()
        self.status = QLabel("")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.speaker: QComboBox | None = None
        if choose_role and not several:
            self.speaker = QComboBox()
            self.speaker.addItem("The speaker (cut into sentences)", "source")
            self.speaker.addItem("An interpreter (cut into chunks in Japanese, sentences otherwise)", "interpretation")
            self.speaker.setCurrentIndex(max(0, self.speaker.findData(role)))
            self.speaker.setToolTip("Who speaks on the recording: a source transcript is cut into sentences, "
                                    "an interpretation into the interpreter's chunks")
        form = QFormLayout()
        if several:
            listing = QLabel("\n".join(f"{Path(r.audio).name} — {_role_words(r.role)}, language {r.language or 'detected'}"
                                       for r in self.recordings))
            form.addRow("Recordings", listing)
        else:
            form.addRow("Recording", QLabel(Path(self.audio).name))
        form.addRow("Speech model", model_row)
        form.addRow("", self.model_info)
        if not several:
            form.addRow("Language", self.language)
        if self.speaker is not None:
            form.addRow("Who speaks", self.speaker)
        form.addRow("", self.language_note)
        names = ", ".join(transcript_path_for(r.audio).name for r in self.recordings)
        cuts = []
        if self.speaker is not None:
            cuts.append("a speaker is cut into sentences, an interpreter into chunks (Japanese) or sentences")
        elif any(r.role == "source" for r in self.recordings):
            cuts.append("the source is cut into sentences")
        if self.speaker is None and any(r.role != "source" for r in self.recordings):
            cuts.append(f"the interpretation {'into' if cuts else 'is cut into'} chunks (Japanese) or sentences")
        cut = "; ".join(cuts)
        note = QLabel(f"{cut[0].upper()}{cut[1:]}. Saved beside the recording{'s' if several else ''} as {names}, "
                      "marked as a machine transcript to be corrected in the review.")
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
        layout.addStretch(1)
        layout.addWidget(self.buttons)
        self._fill_models()
        self._check_names()

    def _check_names(self) -> None:
        """Warn where a recording's name gives another language than the one chosen (``talk.ja.ogg``, language en)."""
        from sialign.core.languages import language_from_name

        chosen = ([(r.audio, r.language) for r in self.recordings] if len(self.recordings) > 1
                  else [(self.audio, self.language.currentText().strip())])
        notes = []
        for audio, language in chosen:
            named = language_from_name(audio)
            if named and language and language.split("-")[0].lower() != named:
                notes.append(f"{Path(audio).name}: its name says {named}, but the language chosen is {language}")
        self.language_note.setText("; ".join(notes) + (" — change it if the name is right." if notes else ""))
        self.language_note.setVisible(bool(notes))

    def _fill_models(self) -> None:
        """The speech models of the registry, the default chosen; says what to do when there is none."""
        from sialign.embed import models_registry as mr

        current = self.model.currentData()
        self.model.blockSignals(True)
        self.model.clear()
        try:
            registry = mr.ModelRegistry()
            entries = [e for e in registry.list_models(kind=mr.KIND_WHISPER, include_hf_cache=False) if e.usable]
            default = registry.default_whisper
        except SialignError as exc:
            self._show(error_text(exc), error=True)
            entries, default = [], None
        for e in entries:
            self.model.addItem(e.name, str(e.path))
        index = self.model.findData(current) if current else -1
        if index < 0 and default:
            index = self.model.findText(default)
        self.model.setCurrentIndex(max(0, index) if entries else -1)
        self.model.blockSignals(False)
        if not entries:
            self._show("No speech model yet: add a Whisper model folder in Speech models… (or use a folder once "
                       "with Folder…). The documentation page Transcription says where to get one.", error=True)
        elif self.status.property("error"):
            self._show("")
        self._model_changed()

    def open_speech_models(self) -> None:
        """Open *Settings → Speech models*; the list follows what was added or chosen there."""
        from sialign.gui.dialogs.speech_models import open_speech_models

        open_speech_models(self)
        self.model.setCurrentIndex(-1)  # take the default chosen there
        self._fill_models()

    def _model_changed(self) -> None:
        """Say what the chosen model recognises; refuse an English-only model for another language."""
        from sialign.workflows.speech import whisper_model_info

        folder = self.model.currentData()
        ok = folder is not None
        if folder is None:
            self.model_info.setText("")
        else:
            try:
                info = whisper_model_info(str(folder), name=self.model.currentText())
            except SialignError as exc:
                self.model_info.setText(error_text(exc))
                self.model_info.setStyleSheet("color: #b00020;")
                ok = False
            else:
                languages = [r.language for r in self.recordings] if len(self.recordings) > 1 else [self.language.currentText().strip()]
                unknown = [lang for lang in languages if not info.knows(lang)]
                if unknown:
                    self.model_info.setText(f"{info.name} recognises English only, not '{unknown[0]}': choose a "
                                            "multilingual model, or add one with the Speech models… button.")
                    self.model_info.setStyleSheet("color: #b00020;")
                    ok = False
                else:
                    self.model_info.setText(f"{info.describe()}" + (", the default speech model"
                                            if self.model.currentText() == _default_name() else ""))
                    self.model_info.setStyleSheet("color: #555;")
        self.start_button.setEnabled(ok and not self.busy)
        if self.isVisible():
            grow_to_fit(self)

    def _choose_folder(self) -> None:
        from sialign.embed.models_registry import whisper_folder_problem

        folder = QFileDialog.getExistingDirectory(self, "Whisper model folder (config.json, model.bin, tokenizer.json)")
        if not folder:
            return
        problem = whisper_folder_problem(Path(folder))
        if problem:
            self._show(problem, error=True)
            return
        self.model.addItem(Path(folder).name, folder)
        self.model.setCurrentIndex(self.model.count() - 1)
        self._show("")

    def _show(self, text: str, *, error: bool = False) -> None:
        self.status.setStyleSheet("color: #b00020;" if error else "")
        self.status.setProperty("error", error)
        self.status.setText(text)
        if self.isVisible():
            grow_to_fit(self)  # a long message takes the lines it needs, never drawn over the text above

    @property
    def busy(self) -> bool:
        return self._runner.busy

    def start(self) -> None:
        """Run the transcriptions in a worker process (waited for by a worker thread), one recording after the other."""
        if self.busy or self.model.currentIndex() < 0:
            return
        from sialign.core.progress import ProgressFn, StopFn
        from sialign.io.writers import write_transcript
        from sialign.workflows.recordings import ToTranscribe, transcribe_recordings_apart

        model = str(self.model.currentData())
        if self.speaker is not None:
            self.role = str(self.speaker.currentData())
        if len(self.recordings) == 1:
            self.recordings[0] = Recording(self.audio, self.language.currentText().strip(), self.role)
        recordings = list(self.recordings)
        self.model_name = self.model.currentText()

        def task(progress: ProgressFn, should_stop: StopFn) -> Any:
            # In a worker process: raises AlignmentCancelled when stopped, and nothing is written.
            done = transcribe_recordings_apart([ToTranscribe(rec.audio, rec.role, rec.language or None) for rec in recordings],
                                               model=model, progress=progress, should_stop=should_stop)
            outs = []
            for rec, result in zip(recordings, done):  # written only when all were heard
                out = transcript_path_for(rec.audio)
                write_transcript(result.document, out, format="srt")
                outs.append(out)
            return outs, done

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
        if self.speaker is not None:
            self.speaker.setEnabled(False)
        self.models_button.setEnabled(False)
        self.folder_button.setEnabled(False)
        self._show("Loading the model…")
        self._runner.start(worker)

    @Slot(float, str)
    def _on_progress(self, fraction: float, message: str) -> None:
        self.progress.setValue(int(fraction * 1000))
        self._show(message)

    @Slot(object)
    def _on_succeeded(self, result: Any) -> None:
        outs, transcriptions = result
        self.outputs = list(outs)
        self.output = outs[0]
        self._show("Saved " + "; ".join(
            f"{len(t.document)} segments to {out.name} ({t.recognition.duration:.0f} s of audio in {t.recognition.seconds:.0f} s)"
            for out, t in zip(outs, transcriptions)) + ".")

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
        if self.speaker is not None:
            self.speaker.setEnabled(True)
        self.models_button.setEnabled(True)
        self.folder_button.setEnabled(True)
        self._model_changed()
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


def _role_words(role: str) -> str:
    return "source" if role == "source" else "interpretation"


def _default_name() -> str | None:
    from sialign.embed.models_registry import ModelRegistry

    try:
        return ModelRegistry().default_whisper
    except SialignError:
        return None
