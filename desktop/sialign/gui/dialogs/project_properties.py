"""File → Project properties…: what the project says about its talk, and where its files are.

The talk id, the two languages, the interpreter's id and rank, the source
and interpreter recordings (each with *Locate…*, for a recording that moved)
and the reference translation. Accepting the dialog changes the project by
one core edit (:class:`~sialign.core.param_edits.SetTalkInfo`, made by
:func:`talk_info_edit`), so Ctrl+Z puts everything back, the change is in the
project's history, and the undo steps saved before it stay; the window title,
the counts and, when a recording changed, the waveforms follow.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QComboBox, QDialog, QHBoxLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

from sialign.core.errors import SialignError
from sialign.core.model import Document, Project
from sialign.core.param_edits import SetTalkInfo
from sialign.gui.common.error_words import error_text
from sialign.gui.common.file_dialogs import open_file_name
from sialign.gui.common.form_layout import dialog_layout, error_message, grow_to_fit, growing_form
from sialign.gui.dialogs.new_talk_dialog import AUDIO_FILTER, LANGUAGES, RANKS, TRANSCRIPT_FILTER

if TYPE_CHECKING:
    pass

SIDES = {"src": "source", "tgt": "interpreter"}


@dataclass
class ProjectProperties:
    """The project's talk-level settings, as the dialog edits them.

    Attributes:
        audio: per side (``"src"``, ``"tgt"``) the recording's path as stored
            in the project (None: no recording).
        reference: the reference translation document (None: none).
    """

    talk_id: str
    source_language: str
    target_language: str
    interpreter: str = ""
    rank: str = ""
    audio: dict[str, str | None] = field(default_factory=dict)
    reference: Document | None = None


def current_properties(project: Project) -> ProjectProperties:
    """The properties ``project`` has now."""
    return ProjectProperties(
        talk_id=project.talk_id,
        source_language=project.source.language,
        target_language=project.target.language,
        interpreter=str(project.metadata.get("interpreter", "") or ""),
        rank=str(project.metadata.get("rank", "") or ""),
        audio={"src": project.source.audio_path, "tgt": project.target.audio_path},
        reference=project.reference,
    )


def talk_info_edit(properties: ProjectProperties, label: str) -> SetTalkInfo:
    """The core edit that gives a project ``properties``."""
    return SetTalkInfo(properties.talk_id, properties.source_language, properties.target_language,
                       properties.interpreter, properties.rank, properties.audio.get("src") or None,
                       properties.audio.get("tgt") or None, properties.reference, label)


def changes_anything(project: Project, properties: ProjectProperties) -> bool:
    """Whether giving ``project`` these properties would change it (a reference read again counts)."""
    now = current_properties(project)
    return properties != now or properties.reference is not now.reference


class _PathRow(QWidget):
    """A path, a button to choose another one, an optional Remove button and a status line."""

    def __init__(self, button_text: str, *, removable: bool = True) -> None:
        super().__init__()
        self.edit = QLineEdit()
        self.edit.setReadOnly(True)
        self.button = QPushButton(button_text)
        self.remove = QPushButton("Remove")
        self.remove.setVisible(removable)
        self.status = QLabel("")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.status.hide()
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.edit, 1)
        row.addWidget(self.button)
        row.addWidget(self.remove)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(row)
        layout.addWidget(self.status)

    def set_status(self, text: str, *, error: bool) -> None:
        self.status.setStyleSheet("color: #b00020;" if error else "color: #2a6b2a;")
        self.status.setText(text)
        self.status.setToolTip(text)
        self.status.setVisible(bool(text))
        window = self.window()
        if isinstance(window, QDialog) and window.isVisible():
            grow_to_fit(window)


class ProjectPropertiesDialog(QDialog):
    """Edit :class:`ProjectProperties`; :meth:`properties` returns them after the dialog was accepted."""

    def __init__(self, project: Project, parent: QWidget | None = None, *, settings: QSettings | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Project properties")
        self.setMinimumWidth(620)
        self.project = project
        self.settings = settings
        current = current_properties(project)
        self._reference: Document | None = current.reference
        self.talk_id = QLineEdit(current.talk_id)
        self.talk_id.setToolTip("A short name used in exports and file names")
        self.source_language = self._language_box(current.source_language)
        self.target_language = self._language_box(current.target_language)
        self.interpreter = QLineEdit(current.interpreter)
        self.interpreter.setPlaceholderText("e.g. I-03")
        self.rank = QComboBox()
        self.rank.setEditable(True)
        self.rank.addItems(RANKS)
        self.rank.setEditText(current.rank)
        self.audio: dict[str, _PathRow] = {}
        for side, name in SIDES.items():
            row = _PathRow("Locate…")
            row.edit.setText(current.audio.get(side) or "")
            row.button.setToolTip(f"Choose the {name} recording (for one that moved, or a first one)")
            row.button.clicked.connect(lambda _c=False, s=side: self.locate_audio(s))
            row.remove.clicked.connect(lambda _c=False, s=side: self.set_audio(s, ""))
            self.audio[side] = row
            self._check_audio(side)
        self.reference = _PathRow("Choose…")
        self.reference.edit.setText(current.reference.path or "(no file name)" if current.reference is not None else "")
        self.reference.button.clicked.connect(self.choose_reference)
        self.reference.remove.clicked.connect(self.remove_reference)

        form = growing_form([
            ("Talk id", self.talk_id),
            ("Source language", self.source_language),
            ("Interpretation language", self.target_language),
            ("Interpreter id", self.interpreter),
            ("Interpreter rank", self.rank),
            ("Source audio", self.audio["src"]),
            ("Interpreter audio", self.audio["tgt"]),
            ("Reference translation", self.reference),
        ])
        self.message = error_message()
        dialog_layout(self, form, self.message)

    @staticmethod
    def _language_box(code: str) -> QComboBox:
        box = QComboBox()
        box.setEditable(True)
        box.addItems(LANGUAGES)
        box.setEditText(code)
        box.setToolTip("A language code (BCP-47, e.g. 'de'); it chooses the embedder and the sentence rules")
        return box

    # -- audio ---------------------------------------------------------------
    def _resolved(self, raw: str) -> Path | None:
        """The path as written in the box, resolved beside the project file (not checked)."""
        from sialign.core.paths import resolve_project_path

        return resolve_project_path(raw, self.project.path)

    def _check_audio(self, side: str) -> None:
        from sialign.audio.decode import audio_file_problem
        from sialign.core.stored_files import is_allowed

        row = self.audio[side]
        path = self._resolved(row.edit.text())
        stored = self.project.document(side).audio_path
        # The project's own value outside the allowed folders is not read; one the user typed or located is theirs.
        if path is not None and row.edit.text() == (stored or "") and not is_allowed(path, self.project.path):
            problem = "outside the project's folder and the folders you allowed (not read)"
        else:
            problem = audio_file_problem(path) if path is not None else ""
        row.set_status(f"{problem} — use Locate… to choose it" if problem else "", error=True)
        row.remove.setEnabled(bool(row.edit.text()))

    def set_audio(self, side: str, path: str) -> None:
        self.audio[side].edit.setText(path)
        self._check_audio(side)

    def locate_audio(self, side: str) -> None:
        path = self._resolved(self.audio[side].edit.text())
        start = path.parent if path is not None and path.parent.is_dir() else None
        chosen = open_file_name(self, f"Locate the {SIDES[side]} audio", AUDIO_FILTER, kind="audio", current=start,
                                settings=self.settings)
        if chosen:
            from sialign.audio.decode import audio_path_to_store

            self.set_audio(side, audio_path_to_store(chosen, self.audio[side].edit.text(), self.project.path))

    # -- reference -------------------------------------------------------------
    def choose_reference(self) -> None:
        chosen = open_file_name(self, "Reference translation", TRANSCRIPT_FILTER, kind="transcript",
                                settings=self.settings)
        if chosen:
            self.set_reference(chosen)

    def set_reference(self, path: str) -> bool:
        """Read ``path`` as the reference translation; False (with the reason shown) when it cannot serve as one."""
        from sialign.io.readers import read_transcript

        self.reference.edit.setText(path)
        try:
            document = read_transcript(path, language=self.target_language.currentText().strip() or None)
        except (SialignError, OSError) as exc:
            self._reference = None
            self.reference.set_status(error_text(exc), error=True)
            return False
        if len(document) != len(self.project.source):
            self._reference = None
            self.reference.set_status(
                f"{Path(path).name} has {len(document)} lines but the source has {len(self.project.source)}; "
                "a reference translation needs one line per source segment", error=True)
            return False
        self._reference = document
        self.reference.set_status(f"{len(document)} lines · {document.encoding or '?'}", error=False)
        return True

    def remove_reference(self) -> None:
        self._reference = None
        self.reference.edit.clear()
        self.reference.set_status("", error=False)

    # -- result ----------------------------------------------------------------
    def problems(self) -> list[str]:
        found = []
        if not self.talk_id.text().strip():
            found.append("Give the talk an id.")
        for box, name in ((self.source_language, "source"), (self.target_language, "interpretation")):
            if not box.currentText().strip():
                found.append(f"Give the {name} language.")
        if self.reference.edit.text() and self._reference is None:
            found.append("The reference translation cannot be used (see the message under it); choose another or remove it.")
        return found

    def accept(self) -> None:
        problems = self.problems()
        self.message.setText("\n".join(problems))
        self.message.setToolTip("\n".join(problems))
        if problems:
            grow_to_fit(self)
            return
        super().accept()

    def properties(self) -> ProjectProperties:
        return ProjectProperties(
            talk_id=self.talk_id.text().strip(),
            source_language=self.source_language.currentText().strip(),
            target_language=self.target_language.currentText().strip(),
            interpreter=self.interpreter.text().strip(),
            rank=self.rank.currentText().strip(),
            audio={side: row.edit.text().strip() or None for side, row in self.audio.items()},
            reference=self._reference,
        )


__all__ = [
    "AUDIO_FILTER", "ProjectProperties", "ProjectPropertiesDialog", "changes_anything", "talk_info_edit",
    "current_properties",
]
