"""The filter panel's preview says, bead by bead, which filter would act and why; unsupported filters are disabled."""

from __future__ import annotations

import pytest

from sialign.core.model import Alignment, Bead, Document, Project
from sialign.core.params import FilterParams
from sialign.filters import score_beads
from sialign.filters.preview import preview_changes
from sialign.gui.common.session import ProjectSession
from sialign.gui.filters.filter_panel import FilterPanel

pytestmark = [pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints")]


def _german() -> Project:
    src = ["The river floods every spring.", "Farmers plant rice in May.", "The harvest comes in autumn.", "Then they celebrate."]
    tgt = ["Der Fluss tritt jeden Frühling über die Ufer.", "Bauern pflanzen im Mai Reis.", "Ernte.", "Also", "Dann feiern sie."]
    ref = ["Der Fluss tritt jedes Frühjahr über die Ufer.", "Die Bauern pflanzen im Mai Reis.",
           "Die Ernte kommt im Herbst, wenn die Felder golden sind.", "Dann feiern sie."]
    beads = [Bead((0,), (0,)), Bead((1,), (1,)), Bead((2,), (2,)), Bead((3,), (3, 4))]
    return Project(
        talk_id="river", source=Document.from_texts(src, "en"), target=Document.from_texts(tgt, "de"),
        reference=Document.from_texts(ref, "de"), alignment=Alignment(beads),
        filter_params=FilterParams(gamma_min=0.2, gamma_max=3.0),
    )


def _panel(qtbot, project: Project) -> FilterPanel:
    session = ProjectSession()
    session.set_project(project)
    panel = FilterPanel(session, lambda worker, done: None)
    qtbot.addWidget(panel)
    return panel


def test_filter_preview_lists_each_bead_with_filter_and_reason(qtbot) -> None:
    project = _german()
    scores = score_beads(project)
    changes = preview_changes(project.alignment.beads, project.target, scores, FilterParams(gamma_min=0.2, gamma_max=3.0))  # type: ignore[union-attr]
    by_bead = {c.index: c for c in changes}
    assert by_bead[2].change == "drop"
    assert any(r.startswith("length ratio 0.") and r.endswith("< 0.20") for r in by_bead[2].reasons)
    assert by_bead[3].change == "trim" and by_bead[3].reasons == ("trim chunk “Also”",)
    assert set(by_bead) == {2, 3}

    panel = _panel(qtbot, project)
    panel.scores = scores
    panel._update_preview()
    lines = [panel.preview_list.item(i).text() for i in range(panel.preview_list.count())]
    assert lines[0].startswith("Bead 3 — drop: length ratio 0.") and "< 0.20" in lines[0]
    assert lines[1] == "Bead 4 — trim: trim chunk “Also”"
    panel.preview_list.itemClicked.emit(panel.preview_list.item(0))
    assert panel.session.selected_bead == 2
    # Flag only: the same bead is listed as flagged, with the same reason.
    panel.drop_failed.setChecked(False)
    first = panel.preview_list.item(0).text()
    assert first.startswith("Bead 3 — flag: length ratio") and first.endswith("(flag only)")


def test_filter_panel_disables_filters_not_built_for_the_target_language(qtbot) -> None:
    project = _german()
    project.target.language = "zh"
    project.target.segments[0].text = "河水每年春天泛滥。"
    panel = _panel(qtbot, project)
    assert not panel.intra.isEnabled() and not panel.drop_contentless.isEnabled()
    assert not panel.rows["alpha_min"].isEnabled()
    assert "built for Japanese targets" in panel.intra.toolTip()
    assert not panel.skipped_label.isHidden()
    assert "Not applied to this talk" in panel.skipped_label.text() and "built for Japanese targets" in panel.skipped_label.text()
    assert panel.rows["gamma_min"].isEnabled()
    # A Latin-script talk opened next gets every filter back.
    panel.session.set_project(_german())
    assert panel.intra.isEnabled() and panel.rows["alpha_min"].isEnabled() and panel.skipped_label.isHidden()
