"""The "New talk" dialog: choose transcripts and audio, check them, build a project.

Every transcript is read as soon as it is chosen, so a bad file shows its
problem (file, line, what to do) right under its field while everything
else typed in the dialog stays. Languages are guessed from the text and can
be changed.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox, QDialog, QFileDialog, QFormLayout, QHBoxLayout, QLabel, QLineEdit, QPushButton,
    QVBoxLayout, QWidget,
)

from sialign.core.errors import SialignError
from sialign.core.model import Document, Project
from sialign.gui.dialogs import dialog_layout
from sialign.workflows.talks import talk_from_documents, talk_id_from_path

TRANSCRIPT_FILTER = (
    "Transcripts (*.txt *.tsv *.srt *.vtt *.TextGrid *.textgrid *.eaf);;"
    "Plain text (*.txt);;TSV (*.tsv);;Subtitles (*.srt *.vtt);;Praat TextGrid (*.TextGrid *.textgrid);;"
    "ELAN (*.eaf);;All files (*)"
)
AUDIO_FILTER = "Audio (*.wav *.flac *.ogg *.mp3 *.WAV *.FLAC *.OGG *.MP3);;All files (*)"
LANGUAGES = ["en", "ja", "de", "fr", "es", "it", "zh", "ko", "pt", "ru", "ar", "nl"]
RANKS = ["", "S", "A", "B", "C"]


class FileField(QWidget):
    """A path line edit with a Browse button and a status line under it."""

    def __init__(self, caption: str, file_filter: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.caption = caption
        self.file_filter = file_filter
        self.edit = QLineEdit()
        self.edit.setClearButtonEnabled(True)
        browse = QPushButton("Browse…")
        browse.clicked.connect(self.browse)
        self.status = QLabel("")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # Praat and ELAN files hold several tiers; the user picks the one with the text.
        self.tier = QComboBox()
        self.tier.setToolTip("The tier that holds this transcript")
        self.tier.hide()
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.edit, 1)
        row.addWidget(self.tier)
        row.addWidget(browse)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(row)
        layout.addWidget(self.status)
        self.status.hide()

    @property
    def path(self) -> str:
        return self.edit.text().strip()

    def set_path(self, path: str) -> None:
        self.edit.setText(path)
        self.edit.editingFinished.emit()

    def set_tiers(self, names: list[str]) -> None:
        """Offer ``names`` (empty: the file has no tiers to choose from); keeps the choice if still there."""
        current = self.tier.currentText()
        self.tier.blockSignals(True)
        self.tier.clear()
        self.tier.addItems(names)
        if current in names:
            self.tier.setCurrentText(current)
        self.tier.blockSignals(False)
        self.tier.setVisible(len(names) > 1)

    def chosen_tier(self) -> int | None:
        """1-based number of the chosen tier, or None when the file has at most one."""
        return self.tier.currentIndex() + 1 if self.tier.count() > 1 else None

    def browse(self) -> None:
        start = self.path or str(Path.home())
        path, _ = QFileDialog.getOpenFileName(self, self.caption, start, self.file_filter)
        if path:
            self.set_path(path)

    def show_ok(self, text: str) -> None:
        self.status.setStyleSheet("color: #2a6b2a;")
        self.status.setText(text)
        self.status.show()

    def show_error(self, text: str) -> None:
        self.status.setStyleSheet("color: #b00020;")
        self.status.setText(text)
        self.status.show()

    def show_warning(self, text: str) -> None:
        """Read, but something may be wrong (a guessed encoding): amber, with the reader's words."""
        self.status.setStyleSheet("color: #8a5a00;")
        self.status.setText(text)
        self.status.show()

    def clear_status(self) -> None:
        self.status.clear()
        self.status.hide()


class NewTalkDialog(QDialog):
    """Collects the files and metadata of a talk; :meth:`project` builds it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("New talk")
        self.setMinimumWidth(640)
        self._documents: dict[str, Document | None] = {"src": None, "tgt": None, "ref": None}

        self.source = FileField("Source transcript", TRANSCRIPT_FILTER)
        self.target = FileField("Interpretation transcript", TRANSCRIPT_FILTER)
        self.reference = FileField("Reference translation (optional)", TRANSCRIPT_FILTER)
        self.source_audio = FileField("Source audio (optional)", AUDIO_FILTER)
        self.target_audio = FileField("Interpreter audio (optional)", AUDIO_FILTER)
        self.source_language = self._language_box()
        self.target_language = self._language_box()
        self.talk_id = QLineEdit()
        self.talk_id.setPlaceholderText("a short name used in exports, e.g. ted_1234")
        self.interpreter = QLineEdit()
        self.interpreter.setPlaceholderText("e.g. I-03")
        self.rank = QComboBox()
        self.rank.setEditable(True)
        self.rank.addItems(RANKS)

        for key, field in (("src", self.source), ("tgt", self.target), ("ref", self.reference)):
            field.edit.editingFinished.connect(lambda k=key, f=field: self._read(k, f))
            field.tier.currentIndexChanged.connect(lambda _i, k=key, f=field: self._read(k, f, keep_tiers=True))
        for field in (self.source_audio, self.target_audio):
            field.edit.editingFinished.connect(lambda f=field: self._check_audio(f))

        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.addRow("Source transcript", self.source)
        form.addRow("Source language", self.source_language)
        form.addRow("Interpretation transcript", self.target)
        form.addRow("Interpretation language", self.target_language)
        form.addRow("Reference translation", self.reference)
        form.addRow("Source audio", self.source_audio)
        form.addRow("Interpreter audio", self.target_audio)
        form.addRow("Talk id", self.talk_id)
        form.addRow("Interpreter id", self.interpreter)
        form.addRow("Interpreter rank", self.rank)

        self.message = QLabel("")
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #b00020;")
        self.buttons = dialog_layout(self, form, self.message, ok_text="Create")

    @staticmethod
    def _language_box() -> QComboBox:
        box = QComboBox()
        box.setEditable(True)
        box.addItems(LANGUAGES)
        box.setToolTip("Guessed from the text; type another code (BCP-47, e.g. 'de') if it is wrong")
        return box

    # -- reading ------------------------------------------------------------
    def _read(self, key: str, field: FileField, *, keep_tiers: bool = False) -> None:
        from sialign.io.readers import guess_language, list_tiers, read_transcript

        path = field.path
        self._documents[key] = None
        if not path:
            field.set_tiers([])
            field.clear_status()
            return
        try:
            if not keep_tiers:
                field.set_tiers(list_tiers(path))
            doc = read_transcript(path, tier=field.chosen_tier())
        except SialignError as exc:
            field.show_error(str(exc))
            return
        except OSError as exc:
            field.show_error(f"{path}: cannot be read ({exc.strerror or exc}) — check the path and permissions")
            return
        self._documents[key] = doc
        language = doc.language if doc.language not in ("", "und") else guess_language(doc.texts())
        times = "with times" if doc.has_times else "no times"
        summary = f"{len(doc)} segments · {doc.format or '?'} · {doc.encoding or '?'} · {times} · language {language}"
        if doc.warnings:
            field.show_warning(summary + "\nWarning: " + "; ".join(doc.warnings))
        else:
            field.show_ok(summary)
        if key == "src":
            self.source_language.setEditText(language)
            if not self.talk_id.text():
                self.talk_id.setText(talk_id_from_path(path))
        elif key == "tgt":
            self.target_language.setEditText(language)

    def _check_audio(self, field: FileField) -> None:
        path = field.path
        if not path:
            field.clear_status()
        elif not Path(path).is_file():
            field.show_error(f"{path}: no such file")
        else:
            field.show_ok(Path(path).name)

    # -- result -------------------------------------------------------------
    def problems(self) -> list[str]:
        """What stops the project from being created (empty when it can be)."""
        found = []
        for key, field, name in (("src", self.source, "source transcript"), ("tgt", self.target, "interpretation transcript")):
            if not field.path:
                found.append(f"Choose the {name}.")
            elif self._documents[key] is None:
                found.append(f"The {name} could not be read (see the message under it).")
        if self.reference.path and self._documents["ref"] is None:
            found.append("The reference translation could not be read (see the message under it).")
        src, ref = self._documents["src"], self._documents["ref"]
        if src is not None and ref is not None and len(src) != len(ref):
            found.append(
                f"The reference translation has {len(ref)} lines but the source has {len(src)}; "
                "it needs one line per source segment."
            )
        for field, name in ((self.source_audio, "source audio"), (self.target_audio, "interpreter audio")):
            if field.path and not Path(field.path).is_file():
                found.append(f"The {name} file {field.path} does not exist.")
        return found

    def accept(self) -> None:
        # Read any path typed without leaving its field.
        for key, field in (("src", self.source), ("tgt", self.target), ("ref", self.reference)):
            if field.path and self._documents[key] is None:
                self._read(key, field)
        problems = self.problems()
        if problems:
            self.message.setText("\n".join(problems))
            return
        super().accept()

    def project(self) -> Project:
        """The new, unaligned project (call after the dialog was accepted)."""
        src, tgt, ref = self._documents["src"], self._documents["tgt"], self._documents["ref"]
        assert src is not None and tgt is not None
        metadata = {}
        if self.interpreter.text().strip():
            metadata["interpreter"] = self.interpreter.text().strip()
        if self.rank.currentText().strip():
            metadata["rank"] = self.rank.currentText().strip()
        return talk_from_documents(
            src,
            tgt,
            ref,
            source_path=self.source.path,
            talk_id=self.talk_id.text(),
            source_language=self.source_language.currentText().strip() or None,
            target_language=self.target_language.currentText().strip() or None,
            source_audio=self.source_audio.path,
            target_audio=self.target_audio.path,
            metadata=metadata,
        )
