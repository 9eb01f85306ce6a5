"""Edits describe what they change; views read the record instead of switching on edit types."""

from __future__ import annotations

from dataclasses import dataclass

from sialign.core import edits
from sialign.core.changes import ALL_SEGMENTS, Changes
from sialign.core.model import Alignment, Bead, BeadStatus, Document, Project


def _project() -> Project:
    source = Document.from_texts(["One.", "Two.", "Three."], "en", [(0.0, 1.0), (1.0, 2.0), (2.0, 3.0)])
    target = Document.from_texts(["一", "二", "三"], "ja", [(0.5, 1.5), (1.5, 2.5), (2.5, 3.5)])
    return Project(talk_id="t", source=source, target=target, alignment=Alignment([Bead((i,), (i,)) for i in range(3)]))


def test_changes_returned_with_the_inverse() -> None:
    project = _project()
    inverse, changes = edits.apply_edit_changes(project, edits.SetSegmentTimes("tgt", 1, 1.6, 2.4))
    assert changes.segments_with_new_times("tgt") == {1} and changes.segments_with_new_times("src") == set()
    assert changes.ear_voice_span and not changes.beads
    _, back = edits.apply_edit_changes(project, inverse)
    assert back.touched_segments() == [("tgt", 1)]


def test_changes_of_a_split_reshape_its_side() -> None:
    project = _project()
    _, changes = edits.apply_edit_changes(project, edits.SplitSegment("src", 0, 2))
    assert changes.segments_with_new_times("src") == ALL_SEGMENTS and changes.beads
    assert changes.touched_segments() == [("src", 0)]


def test_changes_of_a_batch_are_the_union_in_order() -> None:
    batch = edits.Batch((edits.EditText("src", 0, "a"), edits.SetStatus((1,), BeadStatus.CONFIRMED), edits.EditText("tgt", 2, "b")))
    changes = batch.changes()
    assert changes.touched_segments() == [("src", 0), ("tgt", 2)] and changes.statuses
    assert not edits.Batch((edits.SetLabels(0, True, None),)).changes().ear_voice_span


def test_changes_of_an_edit_that_does_not_describe_itself_are_everything() -> None:
    @dataclass(frozen=True)
    class Nothing(edits.Edit):
        def apply(self, project: Project) -> edits.Edit:
            return self

        def describe(self) -> str:
            return "nothing"

    assert Nothing().changes() == Changes.everything()
    assert Nothing().changes().segments_with_new_times("tgt") == ALL_SEGMENTS
