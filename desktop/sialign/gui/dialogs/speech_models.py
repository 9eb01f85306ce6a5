"""Settings → Speech models: add Whisper model folders, see what each recognises, pick the default.

A thin view over the model registry's speech models (the same ones ``sialign
models`` lists): the default chosen here is what *Transcribe…*, *Time from
audio…*, a talk made from recordings and the practice booth use
(:mod:`sialign.workflows.speech`). A folder is checked before it is added:
its files first (config.json, model.bin and a tokenizer; a wrong folder says
what it is instead), then the model is loaded once in a worker thread, so a
truncated copy is refused before anyone relies on it. Each model shows whether it is multilingual and its languages, read
from its own files.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from sialign.core.errors import SialignError
from sialign.core.progress import ProgressFn, StopFn
from sialign.embed import models_registry as mr
from sialign.gui.common.error_words import error_text
from sialign.gui.dialogs.registry_dialog import RegistryDialog

COLUMNS = ["Model", "Recognises", "Where", "Folder"]
_SOURCE_TEXT = {
    mr.SOURCE_USER: "added",
    mr.SOURCE_BUNDLED: "installed with SI Aligner",
    mr.SOURCE_PACKAGE: "pip package",
}


class SpeechModelsDialog(RegistryDialog):
    """Lists the Whisper models SI Aligner can use and stores the default one.

    Args:
        parent: the window that opened it.
        registry: the model registry (a fresh one on the user models folder when None).

    Signals:
        default_changed(str): the default speech model changed (its name; ``""`` when none is left).
    """

    NOUN = "speech model"
    CHECK_TITLE = "Speech model check"

    def __init__(self, parent: QWidget | None = None, *, registry: mr.ModelRegistry | None = None) -> None:
        super().__init__(parent, registry)
        self.setWindowTitle("Speech models")
        self.setObjectName("SpeechModelsDialog")
        self.resize(820, 440)

        intro = QLabel(
            "A speech model turns a recording into a transcript with word times: it is what Transcribe…, "
            "Time from audio…, a talk made from two recordings and the practice booth use. SI Aligner uses "
            "Whisper models in CTranslate2 format — a folder with config.json, model.bin and tokenizer.json — "
            "on this computer; nothing is downloaded. A multilingual model (tiny, base, small…) hears any of "
            "its languages; an English-only one (base.en…) only English."
        )
        intro.setWordWrap(True)
        self.folder_label = QLabel("Add folder… links a model folder where it is (nothing is copied: keep the folder "
                                   f"there); the list of added models is kept in {self.registry.model_dir}.")
        self.folder_label.setWordWrap(True)
        self.folder_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.default_label = QLabel()
        self.default_label.setWordWrap(True)

        self.tree = QTreeWidget()
        self.tree.setObjectName("speechModelList")
        self.tree.setColumnCount(len(COLUMNS))
        self.tree.setHeaderLabels(COLUMNS)
        self.tree.setRootIsDecorated(False)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.header().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.tree.header().setStretchLastSection(True)
        self.tree.itemSelectionChanged.connect(self._selection_changed)
        self.tree.itemDoubleClicked.connect(lambda *_: self.make_selected_default())

        self.languages_label = QLabel()
        self.languages_label.setObjectName("speechModelLanguages")
        self.languages_label.setWordWrap(True)
        self.languages_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.add_button = QPushButton("Add folder…")
        self.add_button.setToolTip("Check a Whisper model folder and add it (a link to the folder: nothing is copied)")
        self.add_button.clicked.connect(self._ask_and_add)
        self.default_button = QPushButton("Use by default")
        self.default_button.clicked.connect(self.make_selected_default)
        self.remove_button = QPushButton("Remove")
        self.remove_button.setToolTip("Forget an added model (a linked folder itself is kept)")
        self.remove_button.clicked.connect(lambda: self.remove_selected(confirm=True))
        buttons_row = QHBoxLayout()
        for button in (self.add_button, self.default_button, self.remove_button):
            buttons_row.addWidget(button)
        buttons_row.addStretch(1)

        self.busy_bar = QProgressBar()
        self.busy_bar.setRange(0, 0)
        self.busy_bar.setVisible(False)
        self.message_label = QLabel()
        self.message_label.setObjectName("speechModelMessage")
        self.message_label.setWordWrap(True)
        self.message_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.close_box = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.close_box.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.folder_label)
        layout.addWidget(self.default_label)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.languages_label)
        layout.addLayout(buttons_row)
        layout.addWidget(self.busy_bar)
        layout.addWidget(self.message_label)
        layout.addWidget(self.close_box)
        self.refresh()

    # -- state -----------------------------------------------------------------

    def entry_of(self, item: QTreeWidgetItem) -> mr.ModelEntry:
        entry: mr.ModelEntry = item.data(0, Qt.ItemDataRole.UserRole)[0]
        return entry

    def default_name(self) -> str | None:
        """The model the front ends use when none is named (the chosen default, else the only one)."""
        try:
            folder = self.registry.whisper_folder(None)
        except SialignError:
            return None
        return self.registry.default_whisper or folder.name

    def refresh(self) -> None:
        """Re-read the speech models and redraw the list, keeping the selection."""
        from sialign.workflows.speech import whisper_model_info

        selected = self.selected_entry()
        try:
            entries = self.registry.list_models(kind=mr.KIND_WHISPER, include_hf_cache=False)
        except SialignError as exc:
            entries = []
            self.show_message(error_text(exc), error=True)
        default = self.default_name()
        self.tree.clear()
        for entry in entries:
            info = None
            recognises = entry.status
            if entry.usable and entry.path is not None:
                try:
                    info = whisper_model_info(entry.path, name=entry.name)
                    recognises = info.describe()
                except SialignError as exc:
                    recognises = str(exc).split(" — ")[0][-60:]
            name = entry.name + ("  (default)" if entry.name == default else "")
            where = _SOURCE_TEXT.get(entry.source, entry.source) + (" (link)" if entry.linked else "")
            item = QTreeWidgetItem([name, recognises, where, str(entry.path) if entry.path else ""])
            item.setData(0, Qt.ItemDataRole.UserRole, (entry, info))
            item.setToolTip(3, str(entry.path or ""))
            if entry.name == default:
                font = QFont(item.font(0))
                font.setBold(True)
                item.setFont(0, font)
            if info is None:
                item.setForeground(1, Qt.GlobalColor.darkRed)
            self.tree.addTopLevelItem(item)
        if default:
            self.default_label.setText(f"Default speech model: <b>{default}</b>")
        elif entries:
            self.default_label.setText("No default speech model: select one and choose <b>Use by default</b>.")
        else:
            self.default_label.setText(
                "No speech model yet: choose <b>Add folder…</b> and pick a Whisper model folder "
                "(the documentation, Transcription, says where to get one)."
            )
        if not (selected and self.select(selected.name)) and not (default and self.select(default)) and entries:
            self.tree.setCurrentItem(self._items()[0])
        self._selection_changed()

    def _selection_changed(self) -> None:
        items = self.tree.selectedItems()
        info = items[0].data(0, Qt.ItemDataRole.UserRole)[1] if items else None
        if info is None:
            self.languages_label.setText("")
        elif info.multilingual:
            self.languages_label.setText(f"<b>{info.name}</b> recognises {len(info.languages)} languages: "
                                         + ", ".join(info.languages))
        else:
            self.languages_label.setText(f"<b>{info.name}</b> recognises English only.")
        self._update_buttons()

    def _update_buttons(self) -> None:
        entry = self.selected_entry()
        idle = not self.busy
        self.add_button.setEnabled(idle)
        self.default_button.setEnabled(idle and entry is not None and entry.usable)
        self.remove_button.setEnabled(idle and entry is not None and entry.source == mr.SOURCE_USER)
        self.close_box.setEnabled(idle)

    def _removed(self, entry: mr.ModelEntry, was_default: bool) -> None:
        self.default_changed.emit(self.default_name() or "")  # the only model left is the default

    def _ask_and_add(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Choose a Whisper model folder (config.json, model.bin, tokenizer.json)")
        if folder:
            self.add_folder(Path(folder))

    def add_folder(self, folder: Path, *, name: str | None = None, link: bool = True) -> None:
        """Check ``folder`` (its files at once, then loading it in a worker thread) and add it.

        The first model added becomes the default. A folder that is not a
        Whisper model is refused with what it is and what to do; nothing is
        added then.
        """
        from sialign.embed.models_registry import whisper_folder_problem

        if self.busy:
            return
        problem = whisper_folder_problem(folder)
        if problem:
            self.show_message(problem, error=True)
            return
        make_default = self.default_name() is None
        model_name = name or mr.name_from_folder(folder)

        def task(progress: ProgressFn, should_stop: StopFn) -> mr.ModelEntry:
            try:
                return self.registry.add(folder, name=model_name, link=link, make_default=make_default)
            except SialignError as exc:
                if not link or "cannot create a link" not in str(exc):
                    raise
                # No links on this system (Windows without Developer Mode): copy the folder instead.
                return self.registry.add(folder, name=model_name, link=False, make_default=make_default)

        self._start(task, f"Checking {folder} (loading the model once)…", self._on_added)

    def _on_added(self, entry: Any) -> None:
        self.refresh()
        self.select(entry.name)
        default = self.default_name()
        self.show_message(f"Added '{entry.name}'." + (" It is the default speech model." if default == entry.name
                                                       else " Choose “Use by default” to use it when none is named."))
        self.default_changed.emit(default or "")


def open_speech_models(parent: QWidget | None) -> str | None:
    """Show *Speech models* (modal) and return the default speech model's name when it closes (None: there is none)."""
    dialog = SpeechModelsDialog(parent)
    dialog.exec()
    return dialog.default_name()
