"""The "New talk" dialog: choose transcripts and audio, check them, build a project.

Every transcript is read as soon as it is chosen, so a bad file shows its
problem (file, line, what to do) right under its field while everything
else typed in the dialog stays. Each transcript shows its first lines as
decoded, with an encoding choice (Auto detects it) and a warning when the
detected encoding is doubtful; the chosen encoding is the one the talk is
built with. Files are read again when re-chosen and when the dialog comes
back to the front, so a file fixed in an editor meanwhile is seen at once.
Languages are guessed from the text and can be changed; the talk id comes
from the two file names (:func:`~sialign.workflows.talks.talk_id_from_path`).

Nothing moves under the pointer: a field's preview and a line for its
message take their room as soon as a path is typed or chosen, so reading
the file as the focus leaves (a click on the next field) fills them
without moving the fields below; a message longer than that line waits
for the mouse button to be released before it grows the field.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QFontDatabase, QResizeEvent
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from sialign.core.errors import SialignError
from sialign.core.file_kind import audio_file_filter
from sialign.core.model import Document, Project, mark_machine_transcript
from sialign.core.plurals import count_noun
from sialign.gui.common.error_words import error_text
from sialign.gui.common.file_dialogs import open_file_name
from sialign.gui.common.form_layout import ERROR_COLOUR, dialog_layout, error_message, grow_to_fit, growing_form
from sialign.gui.common.screen_fit import ContentScroll
from sialign.io.text_preview import ENCODING_CHOICES
from sialign.workflows.talks import talk_from_documents, talk_id_from_path

TRANSCRIPT_FILTER = (
    "Transcripts (*.txt *.tsv *.srt *.vtt *.TextGrid *.textgrid *.eaf);;"
    "Plain text (*.txt);;TSV (*.tsv);;Subtitles (*.srt *.vtt);;Praat TextGrid (*.TextGrid *.textgrid);;"
    "ELAN (*.eaf);;All files (*)"
)
AUDIO_FILTER = audio_file_filter()
LANGUAGES = ["en", "ja", "de", "fr", "es", "it", "zh", "ko", "pt", "ru", "ar", "nl"]
RANKS = ["", "S", "A", "B", "C"]


PREVIEW_HEIGHT_LINES = 4


class _AfterMouseRelease(QObject):
    """Calls ``callback`` once, just after the mouse button held down now is released."""

    def __init__(self, callback: Callable[[], None]) -> None:
        app = QApplication.instance()
        assert app is not None  # a mouse button is down: there is an application
        super().__init__(app)
        self._app = app
        self._callback: Callable[[], None] | None = callback
        app.installEventFilter(self)

    def cancel(self) -> None:
        self._callback = None
        self._app.removeEventFilter(self)
        self.deleteLater()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.MouseButtonRelease and not QApplication.mouseButtons():
            self._app.removeEventFilter(self)
            QTimer.singleShot(0, self._fire)  # after the click has reached its widget
        return False

    def _fire(self) -> None:
        callback, self._callback = self._callback, None
        self.deleteLater()
        if callback is not None:
            callback()


class FileField(QWidget):
    """A path line edit with a Browse button and a status line under it.

    A transcript field (``transcript=True``) also has an encoding choice and
    a read-only preview of the file's first lines as decoded. The preview
    and one line of status keep their room while the field holds a path.

    Signals:
        room_changed(): the field needs another height (a path typed or cleared, a message shown).
    """

    room_changed = Signal()

    def __init__(self, caption: str, file_filter: str, parent: QWidget | None = None, *, kind: str = "transcript",
                 transcript: bool = False, settings: QSettings | None = None) -> None:
        super().__init__(parent)
        self.caption = caption
        self.file_filter = file_filter
        self.kind = kind
        self.settings = settings
        self.edit = QLineEdit()
        self.edit.setClearButtonEnabled(True)
        browse = QPushButton("Browse…")
        browse.clicked.connect(self.browse)
        self.status = QLabel("")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # One line is kept for the message: reading the file as the focus leaves moves nothing below.
        self.status.setMinimumHeight(self.status.fontMetrics().lineSpacing())
        # A file name too long for a line is cut at the edge (whole in the tooltip), never widens the dialog.
        self.status.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self._pending: _AfterMouseRelease | None = None
        # Praat and ELAN files hold several tiers; the user picks the one with the text.
        self.tier = QComboBox()
        self.tier.setToolTip("The tier that holds this transcript")
        self.tier.hide()
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.edit, 1)
        row.addWidget(self.tier)
        self.encoding: QComboBox | None = None
        self.preview: QPlainTextEdit | None = None
        if transcript:
            self.encoding = QComboBox()
            for label, codec in ENCODING_CHOICES:
                self.encoding.addItem(label, codec)
            self.encoding.setToolTip("The text encoding of the file; Auto detects it. "
                                     "Choose another one when the preview below looks garbled.")
            row.addWidget(self.encoding)
        row.addWidget(browse)
        self._row = row
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(row)
        if transcript:
            self.preview = QPlainTextEdit()
            self.preview.setReadOnly(True)
            self.preview.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
            self.preview.setPlaceholderText("The first lines of the file appear here as they are decoded.")
            self.preview.setToolTip("The first lines of the file, decoded with the chosen encoding")
            self.preview.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.GeneralFont))
            lines = self.preview.fontMetrics().lineSpacing() * PREVIEW_HEIGHT_LINES
            # Room for the horizontal scroll bar too (long lines are not wrapped), so it never hides a line.
            scroll_bar = self.preview.horizontalScrollBar().sizeHint().height()
            self.preview.setFixedHeight(lines + 2 * self.preview.frameWidth() + 8 + scroll_bar)
            layout.addWidget(self.preview)
        layout.addWidget(self.status)
        self._keep_room("")
        self.edit.textChanged.connect(self._keep_room)

    def _keep_room(self, text: str) -> None:
        """The preview and the message line show while the field holds a path (empty until the file is read)."""
        has_path = bool(text.strip())
        if has_path == self.status.isVisibleTo(self):
            return
        if self.preview is not None:
            self.preview.setVisible(has_path)
        self.status.setVisible(has_path)
        self.room_changed.emit()

    @property
    def path(self) -> str:
        return self.edit.text().strip()

    def add_button(self, button: QPushButton) -> None:
        """Put ``button`` at the end of the path row (after Browse…)."""
        self._row.addWidget(button)

    def set_path(self, path: str) -> None:
        self.edit.setText(path)
        self.edit.editingFinished.emit()

    def set_tiers(self, choices: list[tuple[str, str | int | None]]) -> None:
        """Offer the tiers or columns in ``choices`` (label, value; empty: nothing to choose); keeps the choice if still there."""
        current = self.tier.currentText()
        self.tier.blockSignals(True)
        self.tier.clear()
        for label, value in choices:
            self.tier.addItem(label, value)
        if current in [label for label, _ in choices]:
            self.tier.setCurrentText(current)
        self.tier.blockSignals(False)
        self.tier.setVisible(len(choices) > 1)

    def chosen_tier(self) -> str | int | None:
        """The chosen tier (number) or TSV column (name); None when there is nothing to choose or none was."""
        if self.tier.count() <= 1:
            return None
        value = self.tier.currentData()
        return value if isinstance(value, (str, int)) else None

    def chosen_encoding(self) -> str | None:
        """The codec chosen for this transcript (None: detect it)."""
        if self.encoding is None:
            return None
        data = self.encoding.currentData()
        return str(data) if data else None

    def set_encoding(self, codec: str | None) -> None:
        """Choose ``codec`` (None: Auto) in the encoding box."""
        if self.encoding is not None:
            self.encoding.setCurrentIndex(max(0, self.encoding.findData(codec)))

    def set_preview(self, lines: list[str]) -> None:
        if self.preview is not None:
            self.preview.setPlainText("\n".join(lines))

    def browse(self) -> None:
        path = open_file_name(self, self.caption, self.file_filter, kind=self.kind, current=self.path or None,
                              settings=self.settings)
        if path:
            self.set_path(path)

    def _show(self, text: str, color: str) -> None:
        self._cancel_pending()
        if QApplication.mouseButtons() != Qt.MouseButton.NoButton and self._needs_more_room(text):
            # The focus left for a click (on the next field): growing now would move that field under the pointer.
            self._pending = _AfterMouseRelease(lambda: self._show(text, color))
            return
        # Word-wrapped, and the whole text as tooltip: a long path never hides the reason.
        self.status.setStyleSheet(f"color: {color};")
        self.status.setText(text)
        self.status.setToolTip(text)
        self.status.setVisible(bool(self.path) or bool(text))
        self._fit_status()
        self.room_changed.emit()

    def _fit_status(self) -> None:
        """Give the message the height of its wrapped lines as a minimum, so the form makes room for it.

        (The form lays its rows out from minimum and preferred heights: a
        label's height for its width alone left a long message drawn over
        the preview above it.)
        """
        width = self.status.width() if self.status.isVisibleTo(self) and self.status.width() > 0 else self.width()
        wrapped = self.status.heightForWidth(width) if self.status.text() else 0
        self.status.setMinimumHeight(max(self.status.fontMetrics().lineSpacing(), wrapped))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_status()  # another width, another number of lines

    def _needs_more_room(self, text: str) -> bool:
        """Whether ``text`` takes more lines than the status line has now."""
        width = self.status.width() if self.status.isVisible() else self.width()
        metrics = self.status.fontMetrics()
        lines = sum(max(1, -(-metrics.horizontalAdvance(line) // max(1, width))) for line in text.splitlines() or [""])
        return lines * metrics.lineSpacing() > self.status.height() + 1

    def _cancel_pending(self) -> None:
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None

    def show_ok(self, text: str) -> None:
        self._show(text, "#2a6b2a")

    def show_error(self, text: str) -> None:
        self._show(text, "#b00020")

    def show_warning(self, text: str) -> None:
        """Read, but something may be wrong (a guessed encoding): amber, with the reader's words."""
        self._show(text, "#8a5a00")

    def clear_status(self) -> None:
        self._cancel_pending()
        self.status.clear()
        self.status.setToolTip("")
        self.status.setVisible(bool(self.path))
        self._fit_status()


class NewTalkDialog(QDialog):
    """Collects the files and metadata of a talk; :meth:`project` builds it.

    A recording chosen for a side without a transcript has its language heard by the speech model in a worker
    process (its first 30 s of speech, a few seconds); the language box takes it unless the user chose one,
    and a disagreement is shown under the recording.
    """

    # (side, recording, language heard or "", probability, problem or ""), from the detection thread.
    _language_heard = Signal(str, str, str, float, str)

    def __init__(self, parent: QWidget | None = None, *, settings: QSettings | None = None) -> None:
        super().__init__(parent)
        # Sides whose language the user chose in the box (a heard language does not replace it), and the language
        # a recording's name or the speech model put there (not the user's choice).
        self._language_chosen: dict[str, bool] = {"src": False, "tgt": False}
        self._language_set = False
        self._heard: dict[str, str] = {}  # side -> the recording whose language was asked of the speech model
        self._language_heard.connect(self._show_heard_language, Qt.ConnectionType.QueuedConnection)
        self.setWindowTitle("New talk")
        self.setMinimumWidth(680)
        self._documents: dict[str, Document | None] = {"src": None, "tgt": None, "ref": None}
        # The talk id last filled in automatically: replaced when the files change, a typed one never is.
        self._auto_talk_id = ""
        # Size and modification time of each transcript when last read (re-read when they change).
        self._read_stamps: dict[str, tuple[str, int, int] | None] = {"src": None, "tgt": None, "ref": None}

        def transcript(caption: str) -> FileField:
            return FileField(caption, TRANSCRIPT_FILTER, kind="transcript", transcript=True, settings=settings)

        self.source = transcript("Source transcript")
        self.target = transcript("Interpretation transcript")
        for field in (self.source, self.target):
            field.edit.setPlaceholderText("empty: transcribed from the audio")
            field.edit.setToolTip("The transcript file; leave it empty and choose the recording below: Create transcribes it")
        self.reference = transcript("Reference translation (optional)")
        self.source_audio = FileField("Source audio (optional)", AUDIO_FILTER, kind="audio", settings=settings)
        self.target_audio = FileField("Interpreter audio (optional)", AUDIO_FILTER, kind="audio", settings=settings)
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
            # Cleared (the ⊗ button): nothing of the old file stays on show until the focus leaves.
            field.edit.textChanged.connect(lambda text, k=key, f=field: None if text else self._read(k, f))
            field.tier.currentIndexChanged.connect(lambda _i, k=key, f=field: self._read(k, f, keep_tiers=True))
            if field.encoding is not None:
                field.encoding.currentIndexChanged.connect(lambda _i, k=key, f=field: self._read(k, f))
        for field in (self.source_audio, self.target_audio):
            field.edit.editingFinished.connect(lambda f=field: self._check_audio(f))
            field.edit.textChanged.connect(lambda text, f=field: None if text else self._check_audio(f))
        # Transcribe… per side: a recording instead of a transcript (a local Whisper model).
        self._settings = settings
        self._machine: dict[str, tuple[str, str]] = {}  # side -> (Whisper model, transcript it wrote)
        self.transcribe_buttons: dict[str, QPushButton] = {}
        for key, field in (("src", self.source_audio), ("tgt", self.target_audio)):
            button = QPushButton("Transcribe…")
            button.setToolTip("Make this side's transcript from the recording with a local Whisper model")
            button.clicked.connect(lambda _c=False, k=key: self.transcribe(k))
            field.add_button(button)
            self.transcribe_buttons[key] = button

        # A language typed as a name ("english") or in another spelling gets its code suggested beside the box.
        self.language_hints: dict[str, tuple[QLabel, QPushButton]] = {}
        language_rows: dict[str, QWidget] = {}
        for key, box in (("src", self.source_language), ("tgt", self.target_language)):
            hint, use = QLabel(""), QPushButton("")
            hint.hide()
            use.hide()
            use.clicked.connect(lambda _c=False, b=box: self._use_suggested_language(b))
            box.currentTextChanged.connect(lambda _t, k=key: self._check_language(k))
            box.currentTextChanged.connect(lambda _t, k=key: self._note_language_choice(k))
            row = QWidget()
            row_layout = QHBoxLayout(row)
            row_layout.setContentsMargins(0, 0, 0, 0)
            # Wide enough for a tag with a region (pt-BR, zh-Hant) or a typed name, never squeezed by the hint.
            box.setMinimumWidth(box.fontMetrics().horizontalAdvance("portuguese-BR") + 40)
            row_layout.addWidget(box)
            row_layout.addWidget(hint)
            row_layout.addWidget(use)
            row_layout.addStretch(1)
            self.language_hints[key] = (hint, use)
            language_rows[key] = row

        form = growing_form([
            ("Source transcript", self.source),
            ("Source language", language_rows["src"]),
            ("Interpretation transcript", self.target),
            ("Interpretation language", language_rows["tgt"]),
            ("Reference translation", self.reference),
            ("Source audio", self.source_audio),
            ("Interpreter audio", self.target_audio),
            ("Talk id", self.talk_id),
            ("Interpreter id", self.interpreter),
            ("Interpreter rank", self.rank),
        ])

        self.message = error_message()
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # The fields scroll, the message and the buttons stay: three previews
        # are taller than a laptop screen.
        fields = QWidget()
        column = QVBoxLayout(fields)
        column.setContentsMargins(0, 0, 0, 0)
        column.addLayout(form)
        # Height to spare goes below the last field, never between a field and its message.
        column.addStretch(1)
        self.fields = ContentScroll(fields)
        for field in (self.source, self.target, self.reference, self.source_audio, self.target_audio):
            field.room_changed.connect(self._fit_height)
        self.buttons = dialog_layout(self, self.fields, self.message, ok_text="Create")
        self.talk_id.textEdited.connect(lambda _t: setattr(self, "_auto_talk_id", ""))

    @staticmethod
    def _language_box() -> QComboBox:
        box = QComboBox()
        box.setEditable(True)
        box.addItems(LANGUAGES)
        box.setToolTip("Guessed from the text; type another code (BCP-47, e.g. 'de') if it is wrong")
        return box

    def _language_box_of(self, key: str) -> QComboBox:
        return self.source_language if key == "src" else self.target_language

    def _check_language(self, key: str) -> None:
        """Suggest the code of a language typed otherwise (``english`` → ``en``), or say it is unknown."""
        from sialign.core.errors import UnknownLanguageError
        from sialign.core.languages import normalise_language

        text = self._language_box_of(key).currentText().strip()
        hint, use = self.language_hints[key]
        suggestion, note = "", ""
        if text:
            try:
                suggestion = normalise_language(text)
            except UnknownLanguageError:
                note = f"“{text}” is not a language code: type a two-letter code such as en or ja"
        if suggestion and suggestion != text:
            note = f"“{text}” is the code “{suggestion}”."
            use.setText(f"Use {suggestion}")
            use.setProperty("suggestion", suggestion)
        hint.setText(note)
        hint.setStyleSheet("" if suggestion else f"color: {ERROR_COLOUR};")
        hint.setVisible(bool(note))
        use.setVisible(bool(suggestion and suggestion != text))
        if self.message.text():
            self._show_problems()

    def _note_language_choice(self, key: str) -> None:
        if not self._language_set:
            self._language_chosen[key] = True

    def _set_language(self, box: QComboBox, language: str) -> None:
        """Put ``language`` in ``box`` for the user (not a choice of theirs)."""
        self._language_set = True
        try:
            box.setEditText(language)
        finally:
            self._language_set = False

    def _use_suggested_language(self, box: QComboBox) -> None:
        key = "src" if box is self.source_language else "tgt"
        box.setEditText(str(self.language_hints[key][1].property("suggestion")))

    def _show_problems(self) -> None:
        """Show what still stops Create (once a first try showed something): a fixed problem leaves the list."""
        problems = self.problems()
        self.message.setText("\n".join(problems))
        self.message.setToolTip("\n".join(problems))

    # -- reading ------------------------------------------------------------
    def _read(self, key: str, field: FileField, *, keep_tiers: bool = False) -> None:
        from sialign.io.readers import guess_language, read_transcript, tier_choices
        from sialign.io.text_preview import preview_transcript

        path = field.path
        self._documents[key] = None
        self._read_stamps[key] = _stamp(path)
        if not path:
            field.set_tiers([])
            field.set_preview([])
            field.clear_status()
            self._update_talk_id()
            return
        encoding = field.chosen_encoding()
        # Nothing of a file read before may stay on show when this one fails.
        field.set_preview([])
        listed = keep_tiers
        try:
            preview = preview_transcript(path, encoding)
            field.set_preview(preview.lines)
            if not keep_tiers:
                field.set_tiers(tier_choices(path, encoding=encoding))
                listed = True
            doc = read_transcript(path, tier=field.chosen_tier(), encoding=encoding)
        except SialignError as exc:
            if not listed:
                field.set_tiers([])
            # The command line's wording, said as in this dialog.
            field.show_error(_name_only(error_text(exc), path).replace("leave it out to detect it", "choose Auto to detect it"))
            self._update_talk_id()
            self._fit_height()
            return
        except OSError as exc:
            if not listed:
                field.set_tiers([])
            field.show_error(f"{Path(path).name}: cannot be read ({exc.strerror or exc}) — check the path and permissions")
            self._update_talk_id()
            self._fit_height()
            return
        self._documents[key] = doc
        language = doc.language if doc.language not in ("", "und") else guess_language(doc.texts())
        times = "with times" if doc.has_times else "no times"
        how = "detected" if encoding is None else "chosen"
        summary = f"{count_noun(len(doc), 'segment')} · {doc.format or '?'} · {doc.encoding or '?'} ({how}) · {times} · language {language}"
        if preview.doubts:
            field.show_warning(summary + "\nWarning: the encoding may be wrong — " + "; ".join(preview.doubts)
                               + ". If the preview looks garbled, choose the encoding.")
        elif doc.warnings:
            field.show_warning(summary + "\nWarning: " + "; ".join(doc.warnings))
        elif key == "ref" and language not in ("", "und") and language != self.target_language.currentText().strip():
            field.show_warning(summary + f"\nWarning: the reference is in language {language} but the interpretation "
                               f"is {self.target_language.currentText().strip()}; choose the translation into the "
                               "interpretation's language.")
        else:
            field.show_ok(summary)
        # A language guessed from text read with a doubtful chosen encoding is a guess about garbage: keep the box.
        if encoding is not None and preview.doubts:
            pass
        elif key == "src":
            self._set_language(self.source_language, language)
        elif key == "tgt":
            self._set_language(self.target_language, language)
        self._update_talk_id()
        if self.message.text():
            self._show_problems()
        self._fit_height()

    def _fit_height(self) -> None:
        # Lay the fields out at once: a message drawn before its row has grown overlaps the preview above it.
        # Each level's layout asks its parent's only as it is laid out: a field, then the form, then the dialog.
        for _level in range(3):
            QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        self.fields.updateGeometry()  # the scroll area asks for its content's new height
        grow_to_fit(self)

    def _update_talk_id(self) -> None:
        """Fill in the talk id from the file names unless the user typed one."""
        if self.talk_id.text() and self.talk_id.text() != self._auto_talk_id:
            return
        # Only files that were read name the talk: a wrong pick must not rename it.
        source = self.source.path if self._documents.get("src") is not None else ""
        target = self.target.path if self._documents.get("tgt") is not None else ""
        suggestion = talk_id_from_path(source, target or None) if source else ""
        self._auto_talk_id = suggestion
        self.talk_id.setText(suggestion)
        folder = Path(source).parent.name if source else ""
        if not suggestion:
            tip = "A short name used in exports; filled in from the file names"
        elif suggestion == "talk":
            tip = "Neither the file names nor their folder name the talk: type a short id"
        elif folder and suggestion == re.sub(r"[^\w-]+", "_", folder).strip("_"):
            tip = f"From the name of the folder {folder}: the file names say nothing about the talk"
        else:
            tip = "From the file names" + (f" {Path(source).name} and {Path(target).name}" if target else f" {Path(source).name}")
        self.talk_id.setToolTip(tip + ". Type another id to keep yours.")

    def revalidate(self) -> None:
        """Read again every file that changed on disk since it was read (the user fixed it meanwhile)."""
        for key, field in (("src", self.source), ("tgt", self.target), ("ref", self.reference)):
            if field.path and _stamp(field.path) != self._read_stamps[key]:
                self._read(key, field, keep_tiers=True)
        for field in (self.source_audio, self.target_audio):
            self._check_audio(field)

    def event(self, event: QEvent) -> bool:
        # Back from the editor where a file was fixed: check the files again.
        if event.type() == QEvent.Type.WindowActivate:
            self.revalidate()
        return super().event(event)

    def _check_audio(self, field: FileField) -> None:
        from sialign.audio.decode import audio_file_problem

        path = field.path
        if not path:
            field.clear_status()
        elif problem := audio_file_problem(path):
            field.show_error(_name_only(f"{path}: {problem}", path))
        else:
            field.show_ok(Path(path).name)
            self._language_from_recording(field, path)
        self._fit_height()

    def _language_from_recording(self, field: FileField, path: str) -> None:
        """A side with a recording and no transcript yet takes the language its name gives (``talk.ja.ogg``: ja)."""
        from sialign.core.languages import language_from_name

        transcript, box = ((self.source, self.source_language) if field is self.source_audio
                           else (self.target, self.target_language))
        named = language_from_name(path)
        key = "src" if field is self.source_audio else "tgt"
        if named and not transcript.path and box.currentText().strip() != named and not self._language_chosen[key]:
            self._set_language(box, named)
            field.show_ok(f"{Path(path).name} · language {named}, from its name")
        if not transcript.path:
            self._hear_language(key, path)

    def _hear_language(self, key: str, path: str) -> None:
        """Ask the speech model which language the recording at ``path`` is in, in a worker process."""
        import threading

        from sialign.workflows.speech import detect_recording_language, speech_models
        from sialign.workflows.worker_process import call_apart

        if self._heard.get(key) == path:
            return
        self._heard[key] = path

        def hear() -> None:
            # The lookup too is off the window's thread: the first one may join a packaged model (a second).
            try:
                found, default = speech_models()
                model = dict(found).get(default or "")
                if model is None:
                    return  # no speech model chosen: nothing to ask (Create says where to set one)
                language, probability = call_apart(detect_recording_language, path, model)
                problem = ""
            except Exception as exc:  # no speech model, an undecodable file: said under the recording
                language, probability, problem = "", 0.0, error_text(exc) if isinstance(exc, SialignError) else str(exc)
            try:
                self._language_heard.emit(key, path, str(language), float(probability), problem)
            except RuntimeError:
                pass  # the dialog closed meanwhile

        threading.Thread(target=hear, name="hear-language", daemon=True).start()

    def _show_heard_language(self, key: str, path: str, language: str, probability: float, problem: str) -> None:
        """Propose the language the speech model heard, or say that it disagrees with the one chosen."""
        from sialign.workflows.recordings import LANGUAGE_DOUBT

        field, transcript, box = ((self.source_audio, self.source, self.source_language) if key == "src"
                                  else (self.target_audio, self.target, self.target_language))
        if field.path != path or transcript.path:
            return  # another recording, or a transcript was chosen meanwhile
        if problem or not language or probability < LANGUAGE_DOUBT:
            return  # no speech model, an English-only one, or not sure: the box stays as it is
        chosen = box.currentText().strip()
        if chosen == language:
            field.show_ok(f"{Path(path).name} · language {language}, heard by the speech model")
        elif not self._language_chosen[key]:
            self._set_language(box, language)
            field.show_ok(f"{Path(path).name} · language {language}, heard by the speech model "
                          f"(probability {probability:.2f})")
        else:
            field.show_warning(f"{Path(path).name} sounds like {language} to the speech model (probability "
                               f"{probability:.2f}), not {chosen}: check the language before Create")
        self._fit_height()

    def transcribe(self, key: str) -> None:
        """Transcribe the recording of side ``key`` (``src``/``tgt``) and use the result as its transcript."""
        from sialign.audio.decode import audio_file_problem
        from sialign.gui.dialogs.transcribe_dialog import TranscribeDialog

        audio_field, transcript_field, language = (
            (self.source_audio, self.source, self.source_language) if key == "src"
            else (self.target_audio, self.target, self.target_language)
        )
        if not audio_field.path:
            audio_field.show_error("Choose the recording first (Browse…), then Transcribe….")
            self._fit_height()
            return
        if problem := audio_file_problem(audio_field.path):
            audio_field.show_error(f"{audio_field.path}: {problem}")
            self._fit_height()
            return
        dialog = TranscribeDialog(audio_field.path, language.currentText().strip(),
                                  "source" if key == "src" else "interpretation", self, settings=self._settings)
        if dialog.exec() != QDialog.DialogCode.Accepted or dialog.output is None:
            return
        transcript_field.set_path(str(dialog.output))
        self._machine[key] = (dialog.model_name, str(dialog.output))
        if self._documents.get(key) is not None:
            transcript_field.show_ok(transcript_field.status.text() + f"\nMachine transcript (Whisper {dialog.model_name}), "
                                     "not corrected: correct it in the review after creating the talk.")

    def machine_transcripts(self) -> dict[str, str]:
        """Sides whose chosen transcript is still the one a Whisper model wrote here: side -> model name."""
        fields = {"src": self.source, "tgt": self.target}
        return {k: model for k, (model, path) in self._machine.items() if fields[k].path == path}

    # -- result -------------------------------------------------------------
    def problems(self) -> list[str]:
        """What stops the project from being created (empty when it can be)."""
        found = []
        for key, field, name in (("src", self.source, "source transcript"), ("tgt", self.target, "interpretation transcript")):
            if not field.path and key in self.sides_to_transcribe():
                continue  # Create transcribes its recording first
            if not field.path:
                found.append(f"Choose the {name}, or its recording (Create then transcribes it).")
            elif self._documents[key] is None:
                found.append(f"The {name} could not be read (see the message under it).")
        if self.reference.path and self._documents["ref"] is None:
            found.append("The reference translation could not be read (see the message under it).")
        for key, name in (("src", "source"), ("tgt", "interpretation")):
            hint, use = self.language_hints[key]
            if not hint.isHidden() and use.isHidden():
                found.append(f"The {name} language: {hint.text()}.")
        src, ref = self._documents["src"], self._documents["ref"]
        if src is not None and ref is not None and len(src) != len(ref):
            found.append(
                f"The reference translation has {len(ref)} lines but the source has {len(src)}; "
                "it needs one line per source segment."
            )
        from sialign.audio.decode import audio_file_problem

        for field, name in ((self.source_audio, "source audio"), (self.target_audio, "interpreter audio")):
            problem = audio_file_problem(field.path) if field.path else ""
            if problem:
                found.append(f"The {name} file {field.path} cannot be used: {problem}.")
        return found

    def sides_to_transcribe(self) -> list[str]:
        """Sides with a usable recording but no transcript chosen: Create transcribes them (``src``, ``tgt``)."""
        from sialign.audio.decode import audio_file_problem

        return [key for key, transcript, audio in (("src", self.source, self.source_audio), ("tgt", self.target, self.target_audio))
                if not transcript.path and audio.path and not audio_file_problem(audio.path)]

    def transcribe_missing(self) -> bool:
        """Transcribe every recording whose side has no transcript, in one dialog; False when cancelled or failed."""
        from sialign.gui.dialogs.transcribe_dialog import Recording, TranscribeDialog

        sides = self.sides_to_transcribe()
        if not sides:
            return True
        fields = {"src": (self.source, self.source_audio, self.source_language),
                  "tgt": (self.target, self.target_audio, self.target_language)}
        recordings = [Recording(fields[k][1].path, fields[k][2].currentText().strip(), "source" if k == "src" else "interpretation")
                      for k in sides]
        dialog = TranscribeDialog(recordings, parent=self, settings=self._settings)
        if dialog.exec() != QDialog.DialogCode.Accepted or len(dialog.outputs) != len(sides):
            return False
        for key, out in zip(sides, dialog.outputs):
            transcript = fields[key][0]
            transcript.set_path(str(out))
            self._machine[key] = (dialog.model_name, str(out))
            if self._documents.get(key) is not None:
                transcript.show_ok(transcript.status.text() + f"\nMachine transcript (Whisper {dialog.model_name}), "
                                   "not corrected: correct it in the review after creating the talk.")
        return True

    def done(self, result: int) -> None:
        # A path field losing the focus as the dialog closes must not read its file again.
        for field in (self.source, self.target, self.reference, self.source_audio, self.target_audio):
            field.edit.blockSignals(True)
        super().done(result)

    def accept(self) -> None:
        # Read any path typed without leaving its field, a file that could not be
        # read before (fixed meanwhile), and any file changed since it was read.
        for key, field in (("src", self.source), ("tgt", self.target), ("ref", self.reference)):
            if field.path and self._documents[key] is None:
                self._read(key, field, keep_tiers=True)
        self.revalidate()
        self._show_problems()
        problems = self.problems()
        if problems:
            self._fit_height()
            return
        if self.sides_to_transcribe():
            if not self.transcribe_missing():
                self.message.setText("Not created: the recordings were not transcribed. Choose transcripts, or "
                                     "Create again to transcribe the recordings.")
                self._fit_height()
                return
            problems = self.problems()
            if problems:
                self.message.setText("\n".join(problems))
                self._fit_height()
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
        for side, model in self.machine_transcripts().items():
            mark_machine_transcript(metadata, side, model)
        return talk_from_documents(
            src,
            tgt,
            ref,
            source_path=self.source.path,
            target_path=self.target.path,
            talk_id=self.talk_id.text(),
            source_language=self.source_language.currentText().strip() or None,
            target_language=self.target_language.currentText().strip() or None,
            source_audio=self.source_audio.path,
            target_audio=self.target_audio.path,
            metadata=metadata,
        )


def _name_only(message: str, path: str) -> str:
    """``message`` with the file's path cut to its name: the path is in the field right above it."""
    name = Path(path).name
    for spelled in sorted({path, str(Path(path).expanduser().resolve())}, key=len, reverse=True):
        message = message.replace(spelled, name)
    return message


def _stamp(path: str) -> tuple[str, int, int] | None:
    """Path, size and modification time of a file (None when there is none to read)."""
    if not path:
        return None
    try:
        st = Path(path).stat()
    except OSError:
        return (path, -1, -1)
    return (path, st.st_size, st.st_mtime_ns)
