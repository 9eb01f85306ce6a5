"""*Next omission* (O): one keystroke from one sentence left out to the next."""

from __future__ import annotations

import pytest

from sialign.core.model import Bead, BeadStatus
from sialign.gui.table.table_model import find_next, is_omission

pytestmark = [pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints")]


@pytest.fixture
def project(make_project):  # type: ignore[no-untyped-def]
    """The water talk with sentences 2 and 5 left out: their chunks belong to the bead before."""
    project = make_project()
    beads = project.alignment.beads
    beads[1] = Bead(beads[1].src, beads[1].tgt + beads[2].tgt, cost=0.3)
    beads[2] = Bead(beads[2].src, (), status=BeadStatus.DROPPED, reason="no rendition found in the interpretation (1-0, omission)")
    beads[4] = Bead(beads[4].src, (), status=BeadStatus.CONFIRMED)
    beads[3] = Bead(beads[3].src, beads[3].tgt + (6, 7), cost=0.3)
    project.alignment.validate(project.source, project.target)
    return project


def test_next_omission_finds_left_out_sentences_whatever_their_status(project) -> None:  # type: ignore[no-untyped-def]
    beads = project.alignment.beads
    assert find_next(beads, 0, is_omission) == 2
    assert find_next(beads, 2, is_omission) == 4  # confirmed as left out: still an omission
    assert find_next(beads, 4, is_omission) == 2  # round again


def test_the_key_goes_to_the_next_omission(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    window.session.select_bead(0)
    window.act.next_omission.trigger()
    assert window.session.selected_bead == 2
    assert window.act.next_omission.shortcut().toString() == "O"
    window.act.next_omission.trigger()
    assert window.session.selected_bead == 4
