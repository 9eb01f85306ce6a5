"""What *Settings → Embedding model* and *Settings → Speech models* share.

Both list the entries of a :class:`~sialign.embed.models_registry.ModelRegistry`,
check a folder in a worker thread while a busy bar shows, and offer *Use by
default* and *Remove*. :class:`RegistryDialog` holds that; each dialog builds
its own widgets and says what its rows hold and what its messages say.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QLabel,
    QMessageBox,
    QProgressBar,
    QTreeWidget,
    QTreeWidgetItem,
    QWidget,
)

from sialign.core.errors import SialignError
from sialign.embed import models_registry as mr
from sialign.gui.common.error_words import error_text
from sialign.gui.common.workers import TaskWorker, WorkerRunner


class RegistryDialog(QDialog):
    """A model registry's list with a worker for folder checks, *Use by default* and *Remove*.

    A subclass builds ``tree``, ``message_label`` and ``busy_bar`` and defines
    :meth:`refresh` and :meth:`_update_buttons`; it may change :data:`NOUN`,
    :data:`CHECK_TITLE`, :meth:`entry_of`, :meth:`default_set_text` and
    :meth:`_removed`.

    Signals:
        default_changed(str): the default changed (a model name; ``""`` when cleared).
    """

    default_changed = Signal(str)
    # How the messages name one entry ("model", "speech model") and the title of a check's worker.
    NOUN = "model"
    CHECK_TITLE = "Model check"

    tree: QTreeWidget
    message_label: QLabel
    busy_bar: QProgressBar

    def __init__(self, parent: QWidget | None, registry: mr.ModelRegistry | None) -> None:
        super().__init__(parent)
        self.registry = registry if registry is not None else mr.ModelRegistry()
        self._runner = WorkerRunner(self)
        self._runner.finished.connect(self._on_worker_finished)
        self._on_success: Callable[[Any], None] | None = None

    # -- what a subclass says ----------------------------------------------------

    def refresh(self) -> None:
        raise NotImplementedError

    def _update_buttons(self) -> None:
        raise NotImplementedError

    def entry_of(self, item: QTreeWidgetItem) -> mr.ModelEntry:
        """The registry entry a row shows."""
        entry: mr.ModelEntry = item.data(0, Qt.ItemDataRole.UserRole)
        return entry

    def default_set_text(self, name: str) -> str:
        return f"'{name}' is now the default {self.NOUN}."

    def _removed(self, entry: mr.ModelEntry, was_default: bool) -> None:
        """After ``entry`` was removed (the list is refreshed already)."""
        if was_default:
            self.default_changed.emit("")

    # -- state -----------------------------------------------------------------

    @property
    def busy(self) -> bool:
        return self._runner.busy

    def _items(self) -> list[QTreeWidgetItem]:
        items = (self.tree.topLevelItem(i) for i in range(self.tree.topLevelItemCount()))
        return [item for item in items if item is not None]

    def entries(self) -> list[mr.ModelEntry]:
        return [self.entry_of(item) for item in self._items()]

    def selected_entry(self) -> mr.ModelEntry | None:
        items = self.tree.selectedItems()
        return self.entry_of(items[0]) if items else None

    def select(self, name: str) -> bool:
        """Select the row of model ``name``; False when it is not listed."""
        for item in self._items():
            if self.entry_of(item).name == name:
                self.tree.setCurrentItem(item)
                return True
        return False

    def show_message(self, text: str, *, error: bool = False) -> None:
        self.message_label.setText(text)
        self.message_label.setStyleSheet("color: #a00000;" if error else "")
        self.message_label.setProperty("error", error)

    # -- actions ---------------------------------------------------------------

    def make_selected_default(self) -> None:
        entry = self.selected_entry()
        if entry is None or self.busy:
            return
        try:
            self.registry.set_default(entry.name)
        except SialignError as exc:
            self.show_message(error_text(exc), error=True)
            return
        self.show_message(self.default_set_text(entry.name))
        self.refresh()
        self.default_changed.emit(entry.name)

    def remove_selected(self, *, confirm: bool = True) -> None:
        entry = self.selected_entry()
        if entry is None or entry.source != mr.SOURCE_USER or self.busy:
            return
        if confirm:
            what = "the link (the folder itself is kept)" if entry.linked else f"its copy in {self.registry.model_dir}"
            answer = QMessageBox.question(self, f"Remove {self.NOUN}", f"Remove the {self.NOUN} '{entry.name}'? This deletes {what}.")
            if answer != QMessageBox.StandardButton.Yes:
                return
        was_default = self.registry.default == entry.name
        try:
            self.registry.remove(entry.name)
        except (SialignError, OSError) as exc:
            self.show_message(f"Could not remove '{entry.name}': {exc}", error=True)
            return
        self.show_message(f"Removed '{entry.name}'.")
        self.refresh()
        self._removed(entry, was_default)

    # -- the worker ------------------------------------------------------------

    def _start(self, task: Callable[..., Any], message: str, on_success: Callable[[Any], None]) -> None:
        if self.busy:
            return
        worker = TaskWorker(task, self.CHECK_TITLE)
        # Bound slots of this dialog (not lambdas): Qt then queues the calls
        # onto the GUI thread instead of running them in the worker thread.
        self._on_success = on_success
        worker.succeeded.connect(self._on_worker_succeeded)
        worker.failed.connect(self._on_worker_failed)
        self.show_message(message)
        self.busy_bar.setVisible(True)
        QApplication.setOverrideCursor(Qt.CursorShape.BusyCursor)
        self._runner.start(worker)
        self._update_buttons()

    @Slot(object)
    def _on_worker_succeeded(self, result: Any) -> None:
        if self._on_success is not None:
            self._on_success(result)

    @Slot(str, str)
    def _on_worker_failed(self, text: str, _details: str) -> None:
        self.show_message(text, error=True)

    def _on_worker_finished(self) -> None:
        self.busy_bar.setVisible(False)
        QApplication.restoreOverrideCursor()
        self._update_buttons()

    def reject(self) -> None:
        # Closing mid-check would delete the worker's thread under it.
        if self.busy:
            return
        super().reject()


__all__ = ["RegistryDialog"]
