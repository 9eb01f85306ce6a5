"""The main window's table concerns: selection, search and status filters, moving to the next bead of a kind."""

from __future__ import annotations

from typing import Any, Callable

from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QMenu

from sialign.core.model import BeadStatus
from sialign.gui.table_model import find_next


class TableNavigation:
    """Mixin of :class:`~sialign.gui.main_window.MainWindow`: the review table's selection, search bar and navigation."""

    def selected_beads(self) -> list[int]:
        """Bead indices of the table's selected rows, or the session's selected bead."""
        rows = self.table.selectionModel().selectedRows()
        indices = sorted({self.proxy.bead_of(r) for r in rows} - {-1})
        if not indices and self.session.selected_bead >= 0:
            indices = [self.session.selected_bead]
        return indices

    def _search_changed(self, *_: Any) -> None:
        message = self.proxy.set_search(self.search_edit.text(), regex=self.regex_box.isChecked())
        self.search_message.setText(message or "")
        self._update_shown()

    def _status_filter_changed(self, index: int) -> None:
        choices: list[set[BeadStatus] | None] = [
            None,
            {BeadStatus.AUTO},
            {BeadStatus.CONFIRMED},
            {BeadStatus.DROPPED},
            {BeadStatus.AUTO, BeadStatus.CONFIRMED},
        ]
        self.proxy.set_statuses(choices[index])
        self._update_shown()

    def _flag_filter_changed(self, _index: int) -> None:
        self.proxy.set_flag(self.flag_filter.currentData())
        self._update_shown()

    def _cost_filter_changed(self, value: float) -> None:
        self.proxy.set_cost_min(value if value > 0 else None)
        self._update_shown()

    def _show_only(self, beads: list[int] | None) -> None:
        self.proxy.set_only(beads)
        self._update_shown()

    def clear_table_filters(self) -> None:
        """Show every row again: no search, every status, flag and cost."""
        self.search_edit.clear()
        self.status_filter.setCurrentIndex(0)
        self.flag_filter.setCurrentIndex(0)
        self.cost_filter.setValue(0.0)
        self.proxy.set_only(None)

    def _flips_changed(self, flips: list[int]) -> None:
        if flips:
            self.statusBar().showMessage(f"{len(flips)} beads would change with these thresholds", 4000)

    def focus_search(self) -> None:
        self.search_edit.setFocus()
        self.search_edit.selectAll()

    def go_next(self, predicate: Callable[..., bool], backwards: bool = False) -> None:
        alignment = self.session.project.alignment
        if alignment is None:
            return
        index = find_next(alignment.beads, self.session.selected_bead, predicate, self.prefs.low_confidence,
                          backwards=backwards)  # fmt: skip
        if index < 0:
            self.statusBar().showMessage("No such bead left.", 5000)
            return
        self._go_to(index)

    def _go_to(self, index: int) -> None:
        """Select bead ``index`` and focus the table (saying so when the table's filters hide it)."""
        if self.proxy.proxy_row_of(index) < 0:
            self.statusBar().showMessage(f"Bead {index + 1} is hidden by the table's filters.", 5000)
        self.session.select_bead(index)
        self.table.setFocus()

    def go_most_doubtful(self) -> None:
        """Select the unreviewed bead with the highest doubt (the model retrains after each review)."""
        from sialign.filters.doubt_decisions import most_doubtful

        alignment = self.session.project.alignment
        if alignment is None:
            return
        index = most_doubtful(alignment.beads, self.doubt.by_bead)
        if index < 0:
            busy = self.doubt.busy or not self.doubt.by_bead
            self.statusBar().showMessage("The doubt is still being computed." if busy else "No unreviewed bead left.", 5000)
            return
        self._go_to(index)

    def focus_post_edit(self) -> None:
        self.inspector_dock.show()
        self.inspector_dock.raise_()
        self.inspector.post_edit.setFocus()
        self.inspector.post_edit.selectAll()

    def _show_context_menu(self, global_pos: QPoint) -> None:
        if self.session.selected_bead < 0:
            return
        menu = QMenu(self)
        for action in (self.act_confirm, self.act_drop, self.act_reset_status, None, self.act_merge_beads,
                       self.act_merge_prev_bead, self.act_split_bead, None, self.act_move_prev, self.act_move_next,
                       None, self.act_good_align, self.act_good_mt, self.act_post_edit, None,
                       self.act_zoom_bead):  # fmt: skip
            if action is None:
                menu.addSeparator()
            else:
                menu.addAction(action)
        menu.popup(global_pos)
