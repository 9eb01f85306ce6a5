"""Checks shared by the table and session tests: the review table shows the alignment as it is."""

from __future__ import annotations

from typing import Any

from sialign.core.model import bead_text
from sialign.gui.table.table_model import Column


def assert_rows_match_alignment(model: Any, session: Any, *, statuses: bool = True) -> None:
    """Every row shows its bead's source and target text (and, with ``statuses``, its status)."""
    project = session.project
    beads = project.alignment.beads
    assert model.rowCount() == len(beads)
    for i, bead in enumerate(beads):
        assert model.data(model.index(i, Column.SOURCE)) == bead_text(bead, project.source, "src")
        assert model.data(model.index(i, Column.TARGET)) == bead_text(bead, project.target, "tgt")
        if statuses:
            assert model.data(model.index(i, Column.STATUS)).startswith(bead.status.value)
