"""The review table's columns are one list, and every cell is derived from the bead's one row."""

from __future__ import annotations

from sialign.core.bead_rows import bead_rows
from sialign.gui.table.table_model import COLUMNS, HEADERS, Column, SegmentTableModel, flags_text, times_text


def test_the_column_list_covers_every_column_in_model_order() -> None:
    assert [spec.column for spec in COLUMNS] == list(Column)
    assert list(HEADERS) == list(Column) and HEADERS[Column.RENDERED] == "Rendered"


def test_cells_show_the_core_row(qapp, make_project) -> None:
    project = make_project()
    model = SegmentTableModel(lambda: project)
    rows = list(bead_rows(project))
    assert [model.row(i) for i in range(len(rows))] == rows
    flagged = rows[4]
    assert model.data(model.index(4, Column.FLAGS)) == flags_text(flagged) == "alpha: covers 1 of 5 content words; trimmed: えー、"
    assert model.data(model.index(4, Column.TIMES)) == times_text(flagged) == "0:08.0 → 0:08.2 · EVS +0.2 s"
    assert model.data(model.index(3, Column.STATUS)) == "confirmed"
