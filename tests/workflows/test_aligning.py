"""The one door that changes a project: aligning and filtering as undoable edits that carry their parameters."""

from __future__ import annotations

import dataclasses

import pytest

from sialign.core.edits import apply_edit
from sialign.core.errors import SialignError
from sialign.core.model import BeadStatus, Document, Project
from sialign.core.params import AlignParams, FilterParams
from sialign.io.project_file import load_project, save_project
from sialign.workflows.aligning import align_talk
from sialign.workflows.filtering import FILTER_NAMES, apply_filters, check_filter_names, filter_params_for

TEXTS = [f"Sentence number {i} talks about the {w} of the city." for i, w in enumerate(
    ["river", "bridge", "market", "school", "harbour", "station", "museum", "garden"])]


def _talk() -> Project:
    return Project(talk_id="city", source=Document.from_texts(TEXTS, "en"), target=Document.from_texts(TEXTS, "en"))


def test_aligning_undo_restores_the_parameters_the_alignment_was_made_with() -> None:
    first, second = AlignParams(embedder="lexical"), AlignParams(embedder="lexical", max_tgt=6, time_prior=False)
    project = _talk()
    align_talk(project, first)
    assert project.params == first
    beads_a = list(project.alignment.beads)
    again = align_talk(project, second, keep_confirmed=False)
    assert project.params == second
    assert again.changes is not None and again.changes.alignment and again.changes.settings
    assert again.undo is not None
    apply_edit(project, again.undo)
    assert project.params == first and project.alignment.beads == beads_a
    # The history says it too: replaying it gives the same parameters.
    assert project.history[-2]["type"] == "Batch" and project.history[-2]["edits"][1]["type"] == "SetParams"


def test_aligning_with_unchanged_parameters_records_only_the_alignment() -> None:
    params = AlignParams(embedder="lexical")
    project = _talk()
    align_talk(project, params)
    align_talk(project, params)
    assert project.history[-1]["type"] == "ReplaceAlignment"


def test_aligning_history_round_trips_through_the_project_file(tmp_path) -> None:
    project = _talk()
    align_talk(project, AlignParams(embedder="lexical"))
    save_project(project, tmp_path / "city.sialign")
    assert load_project(tmp_path / "city.sialign").history == project.history


def test_aligning_accept_can_refuse_before_anything_changes() -> None:
    project = _talk()
    align_talk(project, AlignParams(embedder="lexical"))
    beads = project.alignment.beads
    beads[2] = dataclasses.replace(beads[2], note="checked")
    before = project.to_dict()
    done = align_talk(project, AlignParams(embedder="lexical", max_src=1, max_tgt=1), accept=lambda carried: False)
    assert done.edit is None and project.to_dict() == before
    assert done.carried.carried == 1


def test_aligning_carries_review_data_from_another_alignment() -> None:
    old = _talk()
    align_talk(old, AlignParams(embedder="lexical"))
    old.alignment.beads[0] = dataclasses.replace(old.alignment.beads[0], status=BeadStatus.CONFIRMED)
    fresh = _talk()
    done = align_talk(fresh, AlignParams(embedder="lexical"), carry_from=old.alignment)
    assert done.carried.carried == 1 and fresh.alignment.beads[0].status is BeadStatus.CONFIRMED


def test_filtering_stores_its_thresholds_in_the_same_undoable_step() -> None:
    project = _talk()
    align_talk(project, AlignParams(embedder="lexical"))
    saved = project.filter_params
    done = apply_filters(project, ["learned"], params=dataclasses.replace(saved, doubt_max=0.5))
    assert project.filter_params.doubt_max == 0.5 and len(done.edits) == 1
    assert project.history[-1]["label"] == "Apply the learned filter"
    beads = list(project.alignment.beads)
    for undo in done.undos:
        apply_edit(project, undo)
    assert project.filter_params == saved and project.alignment.beads != beads


def test_filtering_names_are_one_set() -> None:
    assert FILTER_NAMES == ("intra", "inter", "learned")
    assert check_filter_names(["inter", "learned"]) == {"inter", "learned"}
    with pytest.raises(SialignError, match="unknown filter"):
        check_filter_names(["magic"])
    params = FilterParams()
    assert filter_params_for(params, ["learned"]) == params
    assert not filter_params_for(params, ["intra"]).inter
    assert not filter_params_for(params, ["inter"]).intra
