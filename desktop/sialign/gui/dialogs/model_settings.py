"""Settings → Embedding model: choose, add and remove sentence-transformers models.

A thin view over :class:`sialign.embed.models_registry.ModelRegistry` (the same
registry ``sialign models`` edits). Adding a folder loads the model and
encodes two sentences first, which takes seconds for a large model, so it
runs in a :class:`~sialign.gui.common.workers.TaskWorker` thread while the dialog
shows a busy bar; a folder that fails the check is not added and the reason
is shown in the dialog.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
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

_SOURCE_TEXT = {
    mr.SOURCE_BUILTIN: "built in",
    mr.SOURCE_USER: "added",
    mr.SOURCE_BUNDLED: "installed with SI Aligner",
    mr.SOURCE_PACKAGE: "pip package",
    mr.SOURCE_HF_CACHE: "Hugging Face cache",
}
COLUMNS = ["Model", "Where", "Dimensions", "Status", "Folder"]


def intro_text() -> str:
    """What the dialog says first: the built-in encoder, the lexical fallback, and what adding a model is for."""
    from sialign.embed.multilingual import LANGUAGES

    return (
        f"SI Aligner comes with a multilingual sentence encoder built in ({mr.MULTILINGUAL}, nothing to install): "
        f"it compares the two sides directly across scripts in {', '.join(sorted(LANGUAGES))}, and is used whenever "
        f"both languages are among them. For other languages the built-in lexical embedder ({mr.LEXICAL}) is the "
        "fallback; it only works between languages that share a script. Add a sentence-transformers model folder "
        "on this computer (nothing is downloaded) for other languages, or to try a model like LaBSE."
    )


class ModelSettingsDialog(RegistryDialog):
    """Lists the models SI Aligner can use and stores the default choice.

    Args:
        parent: the main window.
        registry: the model registry (a fresh one on the user models folder when None).
        active: the embedder the open project uses, shown as "active" (None: no project).

    Signals:
        default_changed(str): the default model changed (``"lexical"`` or a model name; ``""`` when cleared).
        models_changed(): a model was added or removed.
    """

    models_changed = Signal()

    def __init__(
        self,
        parent: QWidget | None = None,
        *,
        registry: mr.ModelRegistry | None = None,
        active: str | None = None,
    ) -> None:
        super().__init__(parent, registry)
        self.setWindowTitle("Embedding model")
        self.setObjectName("ModelSettingsDialog")
        self.resize(760, 380)
        self.active = active

        intro = QLabel(intro_text())
        intro.setWordWrap(True)
        self.folder_label = QLabel(f"Added models are kept in: {self.registry.model_dir}")
        self.folder_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.active_label = QLabel()

        self.tree = QTreeWidget()
        self.tree.setObjectName("modelList")
        self.tree.setColumnCount(len(COLUMNS))
        self.tree.setHeaderLabels(COLUMNS)
        self.tree.setRootIsDecorated(False)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.header().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.tree.header().setStretchLastSection(True)
        self.tree.itemSelectionChanged.connect(self._update_buttons)
        self.tree.itemDoubleClicked.connect(lambda *_: self.make_selected_default())

        self.add_button = QPushButton("Add folder…")
        self.add_button.setToolTip("Check a sentence-transformers model folder and copy it into the models folder")
        self.add_button.clicked.connect(self._ask_and_add)
        self.default_button = QPushButton("Use by default")
        self.default_button.clicked.connect(self.make_selected_default)
        self.check_button = QPushButton("Check")
        self.check_button.setToolTip("Load the model and encode two sentences")
        self.check_button.clicked.connect(self.check_selected)
        self.remove_button = QPushButton("Remove")
        self.remove_button.clicked.connect(lambda: self.remove_selected(confirm=True))
        buttons_row = QHBoxLayout()
        for button in (self.add_button, self.default_button, self.check_button, self.remove_button):
            buttons_row.addWidget(button)
        buttons_row.addStretch(1)

        self.busy_bar = QProgressBar()
        self.busy_bar.setRange(0, 0)  # indeterminate: loading a model reports no fraction
        self.busy_bar.setVisible(False)
        self.message_label = QLabel()
        self.message_label.setObjectName("modelMessage")
        self.message_label.setWordWrap(True)
        self.message_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.close_box = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.close_box.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.folder_label)
        layout.addWidget(self.active_label)
        layout.addWidget(self.tree, 1)
        layout.addLayout(buttons_row)
        layout.addWidget(self.busy_bar)
        layout.addWidget(self.message_label)
        layout.addWidget(self.close_box)
        self.refresh()

    # -- state -----------------------------------------------------------------

    def refresh(self) -> None:
        """Re-read the models from disk and redraw the list, keeping the selection."""
        selected = self.selected_entry()
        chosen = self.registry.default
        # Without a chosen default, each talk gets the multilingual encoder
        # when it covers both languages, else lexical.
        default = chosen or mr.MULTILINGUAL
        try:
            entries = self.registry.list_models()
        except SialignError as exc:
            entries = [mr.ModelEntry(name=mr.LEXICAL, source=mr.SOURCE_BUILTIN, path=None)]
            self.show_message(error_text(exc), error=True)
        self.tree.clear()
        for entry in entries:
            name = entry.name
            if name == chosen:
                name += "  (default)"
            elif chosen is None and name == mr.MULTILINGUAL:
                name += "  (automatic)"
            if self.active and entry.name == self.active:
                name += "  (active)"
            dims = str(entry.dim) if entry.dim else ("—" if entry.source != mr.SOURCE_BUILTIN else "hashed n-grams")
            item = QTreeWidgetItem(
                [
                    name,
                    _SOURCE_TEXT.get(entry.source, entry.source) + (" (link)" if entry.linked else ""),
                    dims,
                    entry.status,
                    str(entry.path) if entry.path else "",
                ]
            )
            item.setData(0, Qt.ItemDataRole.UserRole, entry)
            if entry.name == default:
                font = QFont(item.font(0))
                font.setBold(True)
                item.setFont(0, font)
            if not entry.usable:
                item.setForeground(3, Qt.GlobalColor.darkRed)
            self.tree.addTopLevelItem(item)
        active = self.active or default
        self.active_label.setText(
            (
                f"Default model: <b>{chosen}</b>"
                if chosen
                else f"Default: <b>automatic</b> ({mr.MULTILINGUAL} for the languages it covers, else {mr.LEXICAL})"
            )
            + (f" · the open project uses <b>{self.active}</b>" if self.active and self.active != default else "")
        )
        if active not in {e.name for e in entries} and not Path(active).is_dir():
            self.show_message(
                f"The model '{active}' is not available any more; the lexical embedder is used instead. "
                "Choose another model or add its folder again.",
                error=True,
            )
        if not (selected and self.select(selected.name)):
            self.select(default)
        self._update_buttons()

    def _update_buttons(self) -> None:
        entry = self.selected_entry()
        idle = not self.busy
        self.add_button.setEnabled(idle)
        self.default_button.setEnabled(idle and entry is not None and entry.usable)
        self.check_button.setEnabled(idle and entry is not None and entry.path is not None)
        self.remove_button.setEnabled(idle and entry is not None and entry.source == mr.SOURCE_USER)
        self.close_box.setEnabled(idle)

    def default_set_text(self, name: str) -> str:
        return f"'{name}' is now the default model for new alignments."

    def _removed(self, entry: mr.ModelEntry, was_default: bool) -> None:
        self.models_changed.emit()
        super()._removed(entry, was_default)

    def _ask_and_add(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Choose a sentence-transformers model folder")
        if not folder:
            return
        suggested = mr.name_from_folder(Path(folder))
        name, ok = QInputDialog.getText(self, "Model name", "Name for this model:", text=suggested)
        if not ok:
            return
        self.add_folder(Path(folder), name=name.strip() or suggested)

    def add_folder(self, folder: Path, *, name: str | None = None, link: bool = False) -> None:
        """Check ``folder`` in a worker thread and add it; the outcome is shown in the dialog."""

        def task(progress: ProgressFn, should_stop: StopFn) -> mr.ModelEntry:
            progress(0.0, f"Loading {folder} …")
            return self.registry.add(folder, name=name, link=link)

        self._start(task, f"Checking {folder} (loading the model and encoding two sentences)…", self._on_added)

    def check_selected(self) -> None:
        entry = self.selected_entry()
        if entry is None or entry.path is None or self.busy:
            return
        path = entry.path

        def task(progress: ProgressFn, should_stop: StopFn) -> mr.ModelCheck:
            return mr.check_model_folder(path)

        def shown(result: Any) -> None:
            self.show_message(
                f"'{entry.name}' works: loaded in {result.load_seconds:.1f} s, "
                f"{result.dim}-dimensional vectors."
            )

        self._start(task, f"Checking '{entry.name}'…", shown)

    def _on_added(self, entry: Any) -> None:
        self.refresh()
        self.select(entry.name)
        self.show_message(
            f"Added '{entry.name}' ({entry.dim}-dimensional vectors). "
            "Choose “Use by default” to align with it."
        )
        self.models_changed.emit()
