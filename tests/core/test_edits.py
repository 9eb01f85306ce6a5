"""Edits of a project: each edit, its exact inverse, refusals and random edit sequences."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from sialign.core.edits import (
    EDIT_TYPES,
    Batch,
    Edit,
    EditText,
    MergeBeads,
    MergeSegments,
    MoveSegment,
    ReplaceAlignment,
    ReplaceBeads,
    ReplaceTranscript,
    RestoreTrimmedChunk,
    SetFilterParams,
    SetLabels,
    SetParams,
    SetPostEdit,
    SetSegmentTimes,
    SetStatus,
    SetTimes,
    SetTrimmed,
    ShiftTimes,
    SplitBead,
    SplitSegment,
    UnmergeSegments,
    apply_edit,
    check_invariants,
    edit_from_dict,
)
from sialign.core.errors import EditError, InvariantError
from sialign.core.model import Alignment, Bead, BeadStatus, Document, Flag, Project, Segment
from sialign.core.param_edits import SetTalkInfo
from sialign.core.params import AlignParams, FilterParams


def make_project() -> Project:
    """Four source sentences, five interpreter chunks, a reference, four beads.

    Beads: [s0 | t0 t1] [s1 | t2] [s2 | —] [s3 | t3 t4 (t4 trimmed)].
    """
    source = Document.from_texts(
        ["Good morning everyone.", "Today we talk about rivers.", "Thank you.", "Rivers carry water to the sea."],
        "en",
        [(0.0, 2.0), (2.0, 5.0), (5.0, 6.0), (6.0, 9.0)],
    )
    target = Document.from_texts(
        ["皆さん", "おはようございます", "今日は川の話です", "川は水を", "えー"],
        "ja",
        [(0.5, 1.2), (1.2, 2.6), (2.8, 5.5), (6.5, 8.0), (8.0, 8.5)],
    )
    reference = Document.from_texts(["皆さんおはようございます。", "今日は川について話します。", "ありがとう。", "川は水を海へ運びます。"], "ja")
    alignment = Alignment(
        beads=[
            Bead(src=(0,), tgt=(0, 1), cost=0.2),
            Bead(src=(1,), tgt=(2,), cost=0.3, status=BeadStatus.CONFIRMED),
            Bead(src=(2,), tgt=(), cost=0.9, status=BeadStatus.DROPPED, reason="omission"),
            Bead(src=(3,), tgt=(3, 4), cost=0.4, trimmed=(4,), flags=[Flag("alpha", 0.5, 0.3, "covers 2 of 4")]),
        ],
        embedder="lexical",
    )
    return Project(talk_id="rivers", source=source, target=target, reference=reference, alignment=alignment)


def state(project: Project) -> dict[str, Any]:
    """The project as a dict without its history."""
    d = project.to_dict()
    d.pop("history")
    return d


def apply_and_undo(project: Project, edit: Edit) -> Edit:
    """Apply ``edit``, check undo gives the original back and redo gives the edited state; leave it applied."""
    before = state(project)
    inverse = apply_edit(project, edit)
    after = state(project)
    redo = apply_edit(project, inverse, record=False)
    assert state(project) == before
    apply_edit(project, redo, record=False)
    assert state(project) == after
    return inverse


# -------------------------------------------------------------------- split


@pytest.mark.parametrize(
    ("offset", "left", "gap", "right"),
    [
        (4, "Good", " ", "morning everyone."),  # cut right before a space
        (5, "Good", " ", "morning everyone."),  # cut right after it
        (2, "Go", "", "od morning everyone."),  # cut inside a word
        (21, "Good morning everyone", "", "."),
    ],
)
def test_edits_split_segment_moves_whitespace_into_gap(offset: int, left: str, gap: str, right: str) -> None:
    project = make_project()
    text_before = project.source.full_text()
    apply_and_undo(project, SplitSegment("src", 0, offset))
    a, b = project.source.segments[0], project.source.segments[1]
    assert (a.id, a.text) == (0, left)
    assert (b.id, b.text, b.gap) == (4, right, gap)
    assert project.source.full_text() == text_before
    assert project.alignment is not None
    assert project.alignment.beads[0].src == (0, 4)


def test_edits_split_segment_splits_times_in_proportion_to_characters() -> None:
    project = make_project()
    apply_edit(project, SplitSegment("tgt", 2, 4))  # 今日は川 | の話です: half the characters
    a, b = project.target.get(2), project.target.get(5)
    assert (a.start, a.end) == (2.8, pytest.approx(4.15))
    assert (b.start, b.end) == (pytest.approx(4.15), 5.5)


def test_edits_split_segment_at_given_time() -> None:
    project = make_project()
    apply_and_undo(project, SplitSegment("src", 1, 9, at_time=3.25))
    assert project.source.get(1).end == 3.25
    assert project.source.get(4).start == 3.25


def test_edits_split_segment_counts_lines_for_the_right_part() -> None:
    doc = Document(language="en", segments=[Segment(0, "first line\nsecond line", line=7)])
    project = Project(source=doc, target=Document.from_texts(["x"], "en"))
    apply_edit(project, SplitSegment("src", 0, 11))
    assert [(s.text, s.line, s.gap) for s in project.source.segments] == [("first line", 7, ""), ("second line", 8, "\n")]


def test_edits_split_trimmed_chunk_keeps_both_parts_trimmed() -> None:
    project = make_project()
    project.target.segments[4] = Segment(4, "えー あの", 8.0, 8.5, 5, "\n")
    apply_and_undo(project, SplitSegment("tgt", 4, 3))
    assert project.alignment is not None
    bead = project.alignment.beads[3]
    assert bead.tgt == (3, 4, 5)
    assert bead.trimmed == (4, 5)


def test_edits_split_source_inserts_empty_reference_line() -> None:
    project = make_project()
    assert project.reference is not None
    ref_before = project.reference.full_text()
    apply_and_undo(project, SplitSegment("src", 1, 6))
    assert len(project.reference) == len(project.source) == 5
    assert project.reference.segments[2].text == ""
    assert project.reference.full_text() == ref_before


def test_edits_split_segment_without_alignment() -> None:
    project = make_project()
    project.alignment = None
    apply_and_undo(project, SplitSegment("tgt", 1, 4))
    assert project.target.texts()[1:3] == ["おはよう", "ございます"]


def test_edits_split_segment_refuses_empty_part() -> None:
    doc = Document(language="en", segments=[Segment(0, "a  b")])
    project = Project(source=doc, target=Document.from_texts(["x"], "en"))
    apply_edit(project, SplitSegment("src", 0, 2))  # inside the double space: fine
    assert project.source.texts() == ["a", "b"]
    doc2 = Document(language="en", segments=[Segment(0, " ab")])
    project2 = Project(source=doc2, target=Document.from_texts(["x"], "en"))
    with pytest.raises(EditError, match="empty part"):
        apply_edit(project2, SplitSegment("src", 0, 1))


def test_edits_split_at_time_needs_times() -> None:
    project = make_project()
    project.target.segments[0] = Segment(0, "皆さん")
    with pytest.raises(EditError, match="no timestamps"):
        apply_edit(project, SplitSegment("tgt", 0, 1, at_time=0.7))


# -------------------------------------------------------------------- merge


def test_edits_merge_segments_in_one_bead() -> None:
    project = make_project()
    text_before = project.target.full_text()
    inverse = apply_and_undo(project, MergeSegments("tgt", 0))
    assert isinstance(inverse, UnmergeSegments)
    merged = project.target.get(0)
    assert merged.text == "皆さん\nおはようございます"
    assert (merged.start, merged.end) == (0.5, 2.6)
    assert project.target.full_text() == text_before
    assert project.alignment is not None
    assert project.alignment.beads[0].tgt == (0,)
    # A 1-1 bead is scored apart from the 1-2 it was: the old cost and confidence no longer hold.
    assert (project.alignment.beads[0].cost, project.alignment.beads[0].confidence) == (None, None)


def test_edits_merge_segments_across_beads_removes_emptied_bead() -> None:
    project = make_project()
    # s1 and s2 lie in beads 2 and 3; bead 3 holds only s2, so it disappears.
    apply_and_undo(project, MergeSegments("src", 1))
    assert project.alignment is not None
    assert [b.src for b in project.alignment.beads] == [(0,), (1,), (3,)]
    assert project.alignment.beads[1].cost is None
    assert project.source.get(1).text == "Today we talk about rivers.\nThank you."
    assert project.reference is not None
    assert project.reference.texts()[1] == "今日は川について話します。\nありがとう。"


def test_edits_merge_segments_across_beads_keeps_nonempty_bead() -> None:
    project = make_project()
    apply_and_undo(project, MergeSegments("tgt", 2))  # t2 (bead 2) + t3 (bead 4, which keeps t4)
    assert project.alignment is not None
    assert [b.tgt for b in project.alignment.beads] == [(0, 1), (2,), (), (4,)]
    assert project.alignment.beads[3].trimmed == (4,)


def test_edits_merge_last_segment_is_refused() -> None:
    project = make_project()
    with pytest.raises(EditError, match="last one"):
        apply_edit(project, MergeSegments("tgt", 4))


def test_edits_split_then_merge_restores_ids_and_bead() -> None:
    project = make_project()
    before = state(project)
    inverse = apply_edit(project, SplitSegment("tgt", 3, 2))
    assert inverse == MergeSegments("tgt", 3, scores=(0.4, None))
    apply_edit(project, inverse)
    assert state(project) == before


def test_edits_split_segment_clears_the_beads_cost_and_confidence_and_undo_brings_them_back() -> None:
    project = make_project()
    assert project.alignment is not None
    project.alignment.beads[3] = Bead(src=(3,), tgt=(3, 4), cost=0.601, confidence=0.84)
    inverse = apply_and_undo(project, SplitSegment("src", 3, 4))
    bead = project.alignment.beads[3]
    assert len(bead.src) == 2 and (bead.cost, bead.confidence) == (None, None)
    # The undo step survives the project file (saved undo history).
    assert edit_from_dict(json.loads(json.dumps(inverse.to_dict()))) == inverse
    apply_edit(project, inverse)
    assert (project.alignment.beads[3].cost, project.alignment.beads[3].confidence) == (0.601, 0.84)


def test_edits_unmerge_refuses_changed_segment() -> None:
    project = make_project()
    inverse = apply_edit(project, MergeSegments("tgt", 0))
    apply_edit(project, EditText("tgt", 0, "別の文"))
    with pytest.raises(EditError, match="changed since it was merged"):
        apply_edit(project, inverse)


# -------------------------------------------------------------------- move


def test_edits_move_last_segment_to_next_bead() -> None:
    project = make_project()
    inverse = apply_and_undo(project, MoveSegment("tgt", 1, +1))
    assert isinstance(inverse, ReplaceBeads)
    assert project.alignment is not None
    assert [b.tgt for b in project.alignment.beads[:2]] == [(0,), (1, 2)]
    assert project.alignment.beads[0].cost is None


def test_edits_move_first_segment_to_previous_bead_into_skip_bead() -> None:
    project = make_project()
    apply_and_undo(project, MoveSegment("tgt", 3, -1))
    assert project.alignment is not None
    assert [b.tgt for b in project.alignment.beads] == [(0, 1), (2,), (3,), (4,)]
    assert project.alignment.beads[3].trimmed == (4,)


def test_edits_move_removes_emptied_bead_and_undo_restores_it() -> None:
    project = make_project()
    original = state(project)
    inverse = apply_edit(project, MoveSegment("src", 2, -1))
    assert project.alignment is not None
    assert len(project.alignment.beads) == 3
    assert project.alignment.beads[1].src == (1, 2)
    apply_edit(project, inverse)
    assert state(project) == original


def test_edits_move_trimmed_chunk_is_untrimmed_in_new_bead() -> None:
    project = make_project()
    # Make t3 trimmed too, then move it back into bead 2.
    apply_edit(project, SetTrimmed(3, (3, 4)))
    apply_and_undo(project, MoveSegment("tgt", 3, -1))
    assert project.alignment is not None
    assert project.alignment.beads[1].trimmed == ()
    assert project.alignment.beads[3].trimmed == (4,)


# -------------------------------------------------------------------- beads


def test_edits_merge_beads_combines_labels_and_post_edits() -> None:
    project = make_project()
    apply_edit(project, SetPostEdit(0, "皆さん、おはよう"))
    apply_edit(project, SetLabels(1, True, None, "fine"))
    apply_and_undo(project, MergeBeads(0))
    assert project.alignment is not None
    merged = project.alignment.beads[0]
    assert (merged.src, merged.tgt) == ((0, 1), (0, 1, 2))
    assert merged.status == BeadStatus.AUTO  # auto + confirmed disagree
    assert merged.post_edit == "皆さん、おはよう今日は川の話です"
    assert (merged.good_align, merged.note, merged.cost) == (None, "fine", None)


def test_edits_merge_beads_keeps_trimmed_and_agreed_status() -> None:
    project = make_project()
    apply_edit(project, SetStatus((2, 3), BeadStatus.DROPPED, "off-topic"))
    apply_and_undo(project, MergeBeads(2))
    assert project.alignment is not None
    merged = project.alignment.beads[2]
    assert (merged.status, merged.reason, merged.trimmed, merged.flags) == (BeadStatus.DROPPED, "off-topic", (4,), [])


def test_edits_merge_last_bead_is_refused() -> None:
    with pytest.raises(EditError, match="no next bead"):
        apply_edit(make_project(), MergeBeads(3))


@pytest.mark.parametrize(("src_count", "tgt_count", "first", "second"), [(1, 1, ((3,), (3,)), ((), (4,))), (0, 1, ((), (3,)), ((3,), (4,)))])
def test_edits_split_bead(src_count: int, tgt_count: int, first: tuple, second: tuple) -> None:
    project = make_project()
    apply_and_undo(project, SplitBead(3, src_count, tgt_count))
    assert project.alignment is not None
    a, b = project.alignment.beads[3], project.alignment.beads[4]
    assert ((a.src, a.tgt), (b.src, b.tgt)) == (first, second)
    assert (a.trimmed, b.trimmed) == ((), (4,))


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (SplitBead(3, 0, 0), "leaves an empty bead"),
        (SplitBead(3, 1, 2), "leaves an empty bead"),
        (SplitBead(3, 2, 0), "it holds 1 and 2"),
        (SplitBead(7, 0, 1), "no bead 8"),
    ],
)
def test_edits_split_bead_refusals(edit: Edit, message: str) -> None:
    with pytest.raises(EditError, match=message):
        apply_edit(make_project(), edit)


def test_edits_split_bead_with_post_edit_is_refused() -> None:
    project = make_project()
    apply_edit(project, SetPostEdit(0, "x"))
    with pytest.raises(EditError, match="post-edited"):
        apply_edit(project, SplitBead(0, 1, 1))


def test_edits_set_status_inverse_restores_mixed_statuses() -> None:
    project = make_project()
    inverse = apply_and_undo(project, SetStatus((0, 1, 2), "confirmed"))
    assert isinstance(inverse, Batch)
    assert project.alignment is not None
    assert {b.status for b in project.alignment.beads[:3]} == {BeadStatus.CONFIRMED}
    assert project.alignment.beads[2].reason == ""


def test_edits_set_status_rejects_unknown_status() -> None:
    with pytest.raises(EditError, match="auto, confirmed or dropped"):
        SetStatus((0,), "maybe")


@pytest.mark.parametrize(
    "edit",
    [
        SetLabels(0, True, False, "good rendition"),
        SetPostEdit(1, "今日は川について"),
        SetPostEdit(1, None),
        SetTrimmed(3, ()),
        SetTrimmed(3, (3, 4)),
        EditText("src", 2, "Thanks."),
        SetSegmentTimes("tgt", 0, 0.4, 1.3),
        SetSegmentTimes("tgt", 0, None, None),
    ],
)
def test_edits_simple_edits_undo(edit: Edit) -> None:
    project = make_project()
    apply_and_undo(project, edit)


def test_edits_edit_text_changes_full_text() -> None:
    project = make_project()
    apply_edit(project, EditText("src", 2, "Thanks a lot."))
    assert "Thanks a lot." in project.source.full_text()


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        # splitting a segment
        (SplitSegment("src", 0, 0), "between 1 and 21"),
        (SplitSegment("src", 0, 22), "between 1 and 21"),
        (SplitSegment("src", 99, 3), "no segment 100"),
        (SplitSegment("both", 0, 3), "side must be"),
        (SplitSegment("src", 0, 3, at_time=2.5), "lasts from 0.000 to 2.000"),
        # moving a segment to the neighbouring bead
        (MoveSegment("tgt", 0, +1), "only the last target segment"),
        (MoveSegment("tgt", 1, -1), "only the first target segment"),
        (MoveSegment("src", 0, -1), "first bead"),
        (MoveSegment("tgt", 4, +1), "last bead"),
        (MoveSegment("src", 0, 2), "direction must be"),
        # editing one field of a segment or bead
        (EditText("src", 2, "  "), "cannot be empty"),
        (SetSegmentTimes("src", 0, -1.0, 2.0), "0 s or later"),
        (SetSegmentTimes("src", 0, 3.0, 2.0), "cannot end"),
        (SetTrimmed(3, (2,)), "holds no target segment 2"),
        (SetLabels(9, None, None), "no bead 10"),
        (ReplaceBeads(2, 9, ()), "has 4 beads"),
    ],
)
def test_edits_refusals_leave_the_project_unchanged(edit: Edit, message: str) -> None:
    project = make_project()
    before = project.to_dict()
    with pytest.raises(EditError, match=message):
        apply_edit(project, edit)
    assert project.to_dict() == before


def test_edits_bead_edits_need_an_alignment() -> None:
    project = make_project()
    project.alignment = None
    with pytest.raises(EditError, match="no alignment yet"):
        apply_edit(project, SetStatus((0,), "confirmed"))


def test_edits_replace_beads_copies_and_undoes() -> None:
    project = make_project()
    new = Bead(src=(1, 2), tgt=(2,), cost=0.1)
    apply_and_undo(project, ReplaceBeads(1, 3, (new,), label="Re-align beads 2–3"))
    assert project.alignment is not None
    assert project.alignment.beads[1] == new
    assert project.alignment.beads[1] is not new


def test_edits_replace_beads_breaking_coverage_is_rolled_back() -> None:
    project = make_project()
    before = project.to_dict()
    with pytest.raises(InvariantError, match="missing"):
        apply_edit(project, ReplaceBeads(1, 3, (Bead(src=(1,), tgt=(2,)),)))
    assert project.to_dict() == before
    assert project.history == []


def test_edits_replace_alignment_and_undo() -> None:
    project = make_project()
    fresh = Alignment(beads=[Bead(src=(0, 1, 2, 3), tgt=(0, 1, 2, 3, 4))], embedder="test")
    apply_and_undo(project, ReplaceAlignment(fresh))
    assert project.alignment is not fresh
    assert project.alignment == fresh
    apply_and_undo(project, ReplaceAlignment(None))
    assert project.alignment is None


def test_edits_batch_is_one_step_and_rolls_back_on_failure() -> None:
    project = make_project()
    batch = Batch((SetStatus((0,), "confirmed"), SplitSegment("src", 0, 4), MergeBeads(0)), label="Fix the opening")
    inverse = apply_and_undo(project, batch)
    assert inverse.describe() == "Undo: Fix the opening"
    project = make_project()
    before = project.to_dict()
    with pytest.raises(EditError):
        apply_edit(project, Batch((SetStatus((0,), "confirmed"), SplitSegment("src", 0, 999))))
    assert project.to_dict() == before
    with pytest.raises(EditError):
        Batch((SetStatus((0,), "confirmed"), MergeBeads(99))).apply(project)
    assert project.to_dict() == before


def test_edits_batch_with_edit_text_skips_text_check() -> None:
    project = make_project()
    apply_and_undo(project, Batch((EditText("src", 0, "Hello all."), SplitSegment("src", 0, 6))))
    assert project.source.texts()[:2] == ["Hello", "all."]


# -------------------------------------------------------------------- history and serialisation


def test_edits_apply_edit_records_history_only_when_asked() -> None:
    project = make_project()
    apply_edit(project, SetStatus((0,), "confirmed"))
    apply_edit(project, SetStatus((1,), "dropped", "noise"), record=False)
    assert project.history == [{"type": "SetStatus", "indices": [0], "status": "confirmed", "reason": ""}]


ALL_EDITS: list[Edit] = [
    SplitSegment("src", 0, 4),
    SplitSegment("tgt", 2, 3, at_time=4.0),
    MergeSegments("tgt", 0),
    UnmergeSegments("src", Segment(0, "a", 0.0, 1.0, 1), Segment(5, "b", 1.0, 2.0, 1, " "), None, None, 0, 1, (Bead((0, 5), (0,)),)),
    MoveSegment("tgt", 1, 1),
    EditText("src", 2, "Thanks."),
    SetSegmentTimes("tgt", 0, 0.1, 0.2),
    SetTimes("src", ((0, 0.5, 1.0), (1, None, None)), label="Shift"),
    ShiftTimes("tgt", -1.5),
    MergeBeads(0),
    SplitBead(3, 1, 1),
    SetStatus((0, 2), BeadStatus.DROPPED, "noise"),
    SetLabels(0, True, None, "note"),
    SetPostEdit(0, None),
    SetTrimmed(3, (4,)),
    RestoreTrimmedChunk(3, 4),
    ReplaceBeads(0, 1, (Bead((0,), (0, 1), flags=[Flag("eta", 0.1, 0.2, "low")]),), label="Apply filters"),
    ReplaceAlignment(Alignment([Bead((0,), (0,))], embedder="lexical", info={"k": 1}), label="Align"),
    ReplaceAlignment(None),
    ReplaceTranscript("tgt", Document.from_texts(["川の話"], "ja", [(1.0, 2.0)]), Alignment([Bead((0, 1, 2, 3), (0,))]),
                      {"transcript": "machine"}, label="Full pass over the recording"),
    SetParams(AlignParams(embedder="lexical", max_tgt=8), label="Align"),
    SetParams(None),
    SetFilterParams(FilterParams(gamma_min=0.5, content_pos=("NOUN",))),
    SetTalkInfo("river", "de", "fr", "I-07", "B", "a.wav", None, None, "Change project properties"),
    Batch((SetStatus((1,), "confirmed"), MergeBeads(0)), label="two"),
]


@pytest.mark.parametrize(
    ("edit", "text"),
    [
        (SplitSegment("src", 12, 4), "Split source segment 13"),
        (MergeSegments("tgt", 3), "Merge target segment 4 with the next"),
        (MoveSegment("tgt", 3, -1), "Move target segment 4 to the previous bead"),
        (MergeBeads(4), "Merge beads 5 and 6"),
        (SplitBead(0, 1, 1), "Split bead 1"),
        (SetStatus((0,), "confirmed"), "Confirm bead 1"),
        (SetStatus((0, 1, 2), "dropped", "noise"), "Drop 3 beads"),
        (SetStatus((6,), "auto"), "Set bead 7 back to auto"),
        (SetPostEdit(0, None), "Clear the post-edit of bead 1"),
        (ReplaceBeads(2, 5, ()), "Replace beads 3–5"),
        (ReplaceBeads(2, 5, (), label="Apply filters"), "Apply filters"),
        (Batch((MergeBeads(0), MergeBeads(0))), "2 edits"),
    ],
)
def test_edits_describe_for_the_undo_menu(edit: Edit, text: str) -> None:
    assert edit.describe() == text


def test_edits_segment_numbers_are_rows_of_the_document_one_based() -> None:
    project = make_project()
    # Splitting target segment 1 (id 1) appends id 9 as the third row: rows and ids part ways.
    apply_edit(project, SplitSegment("tgt", 1, 4))
    new_id = project.target.ids()[2]
    assert new_id != 2
    assert MoveSegment("tgt", new_id, 1).describe_in(project) == "Move target segment 3 to the next bead"
    assert EditText("tgt", 2, "x").describe_in(project) == "Edit the text of target segment 4"
    assert SetSegmentTimes("src", 0, 1.0, 2.0).describe_in(project) == "Set the times of source segment 1"
    with pytest.raises(EditError, match="target segment 3 is not first in bead 1"):
        apply_edit(project, MoveSegment("tgt", new_id, -1))
    with pytest.raises(EditError, match="the end time of source segment 2 must be 0 s or later"):
        apply_edit(project, SetSegmentTimes("src", 1, 0.0, -1.0))
    last = project.target.ids()[-1]
    with pytest.raises(EditError, match=f"target segment {len(project.target)} is the last one"):
        apply_edit(project, MergeSegments("tgt", last))


def test_edits_shift_times_clamps_at_zero_and_undoes_exactly() -> None:
    project = make_project()
    shift = ShiftTimes("tgt", -1.0)
    assert shift.clamped(project) == 1  # only t0 (0.5 s) would start before 0 s
    apply_and_undo(project, shift)
    assert [(s.start, s.end) for s in project.target.segments][:2] == [(0.0, pytest.approx(0.2)), (pytest.approx(0.2), pytest.approx(1.6))]
    assert project.target.segments[-1].end == pytest.approx(7.5)
    # The precise form the desktop app applies: the same times, every moved segment named.
    project = make_project()
    as_set = ShiftTimes("src", 2.5).as_set_times(project)
    assert as_set.describe() == "Shift the source times by +2.500 s"
    assert {seg_id for _, seg_id in as_set.changes().times} == set(project.source.ids())
    apply_and_undo(project, as_set)
    assert project.source.segments[0].start == 2.5 and project.source.segments[-1].end == 11.5


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (ShiftTimes("ref", 1.0), "side must be"),
        (ShiftTimes("src", float("nan")), "cannot shift"),
        # Target segment 1 spans 0.5–1.2 s: -1.2 s would leave it no span at all.
        (ShiftTimes("tgt", -1.2), r"would put 1 segment \(from segment 1\) wholly before 0 s; shift earlier by less than 1\.200 s"),
        (SetTimes("src", ((0, 2.0, 1.0),)), "source segment 1 cannot end"),
        (SetTimes("src", ((1, -1.0, 1.0),)), "source segment 2 must be 0 s or later"),
        (SetTimes("src", ((42, 1.0, 2.0),)), "no segment 43"),
    ],
)
def test_edits_time_refusals(edit: Edit, message: str) -> None:
    project = make_project()
    before = state(project)
    with pytest.raises(EditError, match=message):
        apply_edit(project, edit)
    assert state(project) == before


def test_edits_parameters_are_edits_with_exact_inverses() -> None:
    project = make_project()
    project.params = AlignParams(embedder="lexical")
    apply_and_undo(project, SetParams(AlignParams(embedder="lexical", max_tgt=8)))
    assert project.params == AlignParams(embedder="lexical", max_tgt=8)
    apply_and_undo(project, SetFilterParams(FilterParams(doubt_max=0.5)))
    assert project.filter_params.doubt_max == 0.5
    assert [h["type"] for h in project.history] == ["SetParams", "SetFilterParams"]
    assert SetParams(None).changes().settings and not SetParams(None).changes().beads


def test_edits_a_refused_batch_leaves_the_parameters_as_they_were() -> None:
    project = make_project()
    before = project.params
    with pytest.raises(EditError):
        apply_edit(project, Batch((SetParams(AlignParams(max_src=2)), MergeBeads(99))))
    assert project.params == before


def test_edits_replace_transcript_installs_a_new_interpretation_in_one_undoable_step() -> None:
    project = make_project()
    target = Document.from_texts(["皆さんおはよう", "川の話です", "ありがとう"], "ja", [(0.4, 2.0), (2.5, 5.5), (5.6, 6.2)])
    target.audio_path, target.format = "/tmp/session.wav", "whisper"
    beads = Alignment([Bead((0,), (0,)), Bead((1,), (1,)), Bead((2,), (2,)), Bead((3,), ())], embedder="lexical")
    edit = ReplaceTranscript("tgt", target, beads, {"transcript": "machine transcript, not corrected"}, label="Full pass")
    assert edit.changes().reshaped == ("tgt",) and edit.changes().alignment
    apply_and_undo(project, edit)
    assert project.target.texts() == ["皆さんおはよう", "川の話です", "ありがとう"] and project.target.format == "whisper"
    assert project.alignment is not None and len(project.alignment) == 4
    assert project.metadata == {"transcript": "machine transcript, not corrected"}
    # Beads that do not cover the new transcript are refused before anything changes.
    before = state(project)
    with pytest.raises(InvariantError, match="target"):
        apply_edit(project, ReplaceTranscript("tgt", target, Alignment([Bead((0, 1, 2, 3), (0,))])))
    assert state(project) == before


def test_edits_every_edit_type_is_covered() -> None:
    assert {type(e).__name__ for e in ALL_EDITS} == set(EDIT_TYPES)


@pytest.mark.parametrize("edit", ALL_EDITS, ids=lambda e: type(e).__name__)
def test_edits_to_dict_round_trips_through_json(edit: Edit) -> None:
    d = json.loads(json.dumps(edit.to_dict()))
    assert edit_from_dict(d) == edit
    assert edit.describe()


@pytest.mark.parametrize(
    ("d", "message"),
    [({"type": "Teleport"}, "unknown edit type"), ({"indices": [1]}, "not a recorded edit"), ({"type": "MergeBeads"}, "malformed")],
)
def test_edits_edit_from_dict_refusals(d: dict, message: str) -> None:
    with pytest.raises(EditError, match=message):
        edit_from_dict(d)


def test_edits_history_replays_to_the_same_project() -> None:
    project = make_project()
    base = Project.from_dict(project.to_dict())
    for edit in (SplitSegment("src", 0, 4), MoveSegment("tgt", 1, 1), SetStatus((0, 1), "confirmed"), MergeBeads(2)):
        inverse = apply_edit(project, edit)
    apply_edit(project, inverse)  # an undo is recorded like any edit
    for d in project.history:
        apply_edit(base, edit_from_dict(d))
    assert base.to_dict() == project.to_dict()


def test_edits_check_invariants_catches_lost_text_and_bad_times() -> None:
    project = make_project()
    texts = [project.source.full_text(), project.target.full_text(), project.reference.full_text()]  # type: ignore[union-attr]
    project.source.segments[0] = Segment(0, "Good morning", 0.0, 2.0, 1)
    with pytest.raises(InvariantError, match="lost or duplicated"):
        check_invariants(project, texts)
    project = make_project()
    project.target.segments[1] = Segment(1, "おはようございます", 3.0, 2.0, 2, "\n")
    with pytest.raises(InvariantError, match="ends"):
        check_invariants(project)


# -------------------------------------------------------------------- scale


def test_edits_are_fast_on_5000_beads() -> None:
    n = 5000
    source = Document.from_texts([f"Sentence number {i} of the talk." for i in range(n)], "en", [(i, i + 1.0) for i in range(n)])
    target = Document.from_texts([f"文{i}です" for i in range(n)], "ja", [(i + 0.5, i + 1.4) for i in range(n)])
    project = Project(source=source, target=target, alignment=Alignment([Bead((i,), (i,)) for i in range(n)]))
    edits: list[Edit] = [
        SplitSegment("src", 2500, 8),
        MoveSegment("tgt", 4000, -1),
        MergeBeads(100),
        SetStatus(tuple(range(0, n, 2)), "confirmed"),
        MergeSegments("tgt", 10),
    ]
    started = time.perf_counter()
    inverses = [apply_edit(project, e) for e in edits]
    for inverse in reversed(inverses):
        apply_edit(project, inverse)
    per_edit = (time.perf_counter() - started) / (2 * len(edits))
    # "Instant" for a reviewer is well under 100 ms; measured ~5 ms here.
    assert per_edit < 0.1


# -------------------------------------------------------------------- random edit sequences

WORD = st.text(alphabet="abcxyz.あいう川", min_size=1, max_size=5)
INNER_SPACE = st.sampled_from([" ", " ", "  ", "\n", "\t"])
GAP = st.sampled_from(["", " ", "\n", "\n\n", "\r\n"])


@st.composite
def segment_texts(draw: st.DrawFn) -> str:
    words = draw(st.lists(WORD, min_size=1, max_size=4))
    out = words[0]
    for w in words[1:]:
        out += draw(INNER_SPACE) + w
    return out


@st.composite
def documents(draw: st.DrawFn, language: str, min_size: int = 1) -> Document:
    n = draw(st.integers(min_size, 7))
    timed = draw(st.booleans())
    t = 0.0
    segments = []
    for i in range(n):
        start = end = None
        if timed:
            start = t + draw(st.sampled_from([0.0, 0.25, 1.0]))
            end = start + draw(st.sampled_from([0.0, 0.5, 2.0]))
            t = end
        gap = "" if i == 0 else draw(GAP)
        segments.append(Segment(id=i * 2 + 1, text=draw(segment_texts()), start=start, end=end, line=i + 1, gap=gap))
    return Document(language=language, segments=segments)


@st.composite
def projects(draw: st.DrawFn) -> Project:
    source = draw(documents("en"))
    target = draw(documents(draw(st.sampled_from(["ja", "de"]))))
    reference = None
    if draw(st.booleans()):
        reference = Document(
            language=target.language, segments=[Segment(s.id, draw(segment_texts()), gap="\n" if k else "") for k, s in enumerate(source.segments)]
        )
    alignment = None
    if draw(st.integers(0, 4)):
        beads = []
        i = j = 0
        src_ids, tgt_ids = source.ids(), target.ids()
        while i < len(src_ids) or j < len(tgt_ids):
            a = draw(st.integers(0, min(3, len(src_ids) - i)))
            b = draw(st.integers(0, min(3, len(tgt_ids) - j)))
            if a == b == 0:
                a, b = (1, 0) if i < len(src_ids) else (0, 1)
            tgt = tuple(tgt_ids[j : j + b])
            trimmed = tuple(x for x in (tgt[:1] + tgt[-1:]) if draw(st.booleans()))
            status = draw(st.sampled_from(list(BeadStatus)))
            beads.append(
                Bead(
                    src=tuple(src_ids[i : i + a]),
                    tgt=tgt,
                    cost=draw(st.sampled_from([None, 0.1, 0.8])),
                    status=status,
                    reason="noise" if status == BeadStatus.DROPPED else "",
                    trimmed=tuple(dict.fromkeys(trimmed)),
                    post_edit=draw(st.sampled_from([None, "edited"])),
                )
            )
            i, j = i + a, j + b
        alignment = Alignment(beads=beads, embedder="lexical")
    return Project(talk_id="random", source=source, target=target, reference=reference, alignment=alignment)


def draw_edit(data: st.DataObject, project: Project, depth: int = 0) -> Edit:
    """A random edit that fits the project's shape (sometimes one that must be refused)."""
    n_beads = len(project.alignment.beads) if project.alignment is not None else 0
    kinds = ["split", "merge", "move", "text", "times", "merge_beads", "split_bead", "status", "labels", "post", "trim", "restore", "replace", "realign"]
    if depth == 0:
        kinds.append("batch")
    kind = data.draw(st.sampled_from(kinds))
    side = data.draw(st.sampled_from(["src", "tgt"]))
    doc = project.document(side)
    seg = data.draw(st.sampled_from(doc.segments))
    index = data.draw(st.integers(-1, n_beads))
    if kind == "split":
        at_time = None
        if seg.has_time and data.draw(st.booleans()):
            at_time = data.draw(st.floats(seg.start - 0.5, seg.end + 0.5))  # type: ignore[operator]
        return SplitSegment(side, seg.id, data.draw(st.integers(0, len(seg.text) + 1)), at_time)
    if kind == "merge":
        return MergeSegments(side, seg.id)
    if kind == "move":
        return MoveSegment(side, seg.id, data.draw(st.sampled_from([-1, 1])))
    if kind == "text":
        return EditText(side, seg.id, data.draw(st.one_of(segment_texts(), st.just(" "))))
    if kind == "times":
        start = data.draw(st.one_of(st.none(), st.floats(-1, 20)))
        return SetSegmentTimes(side, seg.id, start, None if start is None else start + data.draw(st.floats(-1, 5)))
    if kind == "merge_beads":
        return MergeBeads(index)
    if kind == "split_bead":
        return SplitBead(index, data.draw(st.integers(0, 3)), data.draw(st.integers(0, 3)))
    if kind == "status":
        indices = tuple(data.draw(st.lists(st.integers(0, max(n_beads - 1, 0)), min_size=1, max_size=4)))
        return SetStatus(indices, data.draw(st.sampled_from(list(BeadStatus))), data.draw(st.sampled_from(["", "noise"])))
    if kind == "labels":
        flag = st.sampled_from([None, True, False])
        return SetLabels(index, data.draw(flag), data.draw(flag), data.draw(st.sampled_from(["", "ok"])))
    if kind == "post":
        return SetPostEdit(index, data.draw(st.sampled_from([None, "修正"])))
    if kind == "trim":
        ids = list(project.alignment.beads[index].tgt) if 0 <= index < n_beads else []  # type: ignore[union-attr]
        return SetTrimmed(index, tuple(data.draw(st.lists(st.sampled_from(ids + [10_001]), max_size=2, unique=True))))
    if kind == "restore":
        bead_ids = list(project.alignment.beads[index].tgt) if 0 <= index < n_beads else []  # type: ignore[union-attr]
        return RestoreTrimmedChunk(index, data.draw(st.sampled_from(bead_ids + [10_001])))
    if kind == "replace":
        # Re-align a stretch as one bead (valid) or lose one of its beads (refused).
        start = data.draw(st.integers(0, max(n_beads - 1, 0)))
        stop = data.draw(st.integers(start, n_beads))
        stretch = project.alignment.beads[start:stop] if project.alignment is not None else []
        if data.draw(st.booleans()) and stretch:
            stretch = stretch[1:]
        merged = Bead(src=tuple(i for b in stretch for i in b.src), tgt=tuple(i for b in stretch for i in b.tgt), cost=0.5)
        return ReplaceBeads(start, stop, (merged,) if merged.src or merged.tgt else ())
    if kind == "realign":
        whole = Bead(src=tuple(project.source.ids()), tgt=tuple(project.target.ids()))
        return ReplaceAlignment(data.draw(st.sampled_from([None, Alignment([whole], embedder="x")])))
    return Batch(tuple(draw_edit(data, project, depth + 1) for _ in range(data.draw(st.integers(1, 3)))), label="batch")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(project=projects(), data=st.data())
def test_edits_random_sequences_keep_invariants_and_undo_to_the_original(project: Project, data: st.DataObject) -> None:
    check_invariants(project)
    original = state(project)
    base = Project.from_dict(project.to_dict())
    inverses: list[Edit] = []
    for _ in range(data.draw(st.integers(1, 12))):
        edit = draw_edit(data, project)
        before = project.to_dict()
        try:
            inverse = apply_edit(project, edit)
        except (EditError, InvariantError) as exc:
            # A refused edit leaves everything as it was, history included,
            # and is refused on purpose, not by a crash wrapped as a refusal.
            assert exc.__cause__ is None, repr(exc.__cause__)
            assert project.to_dict() == before
            event(f"refused {type(edit).__name__}")
            continue
        event(f"applied {type(edit).__name__}")
        check_invariants(project)
        inverses.append(inverse)
    edited = state(project)

    # The recorded history replays from the starting project to the same state.
    for d in json.loads(json.dumps(project.history)):
        apply_edit(base, edit_from_dict(d))
    assert state(base) == edited

    # Undo everything, the way the undo stack does (undos are recorded too),
    # then redo everything.
    redos = []
    for inverse in reversed(inverses):
        redos.append(apply_edit(project, inverse))
        check_invariants(project)
    assert state(project) == original
    replayed = Project.from_dict(original | {"history": []})
    for d in project.history:
        apply_edit(replayed, edit_from_dict(d))
    assert state(replayed) == original
    for redo in reversed(redos):
        apply_edit(project, redo, record=False)
    assert state(project) == edited
