"""Restoring one chunk the intra filter trimmed: the edit, its inverse and what it tells the views."""

from __future__ import annotations

import json

import pytest

from sialign.core.changes import Changes
from sialign.core.edits import RestoreTrimmedChunk, apply_edit, apply_edit_changes, edit_from_dict
from sialign.core.errors import EditError
from sialign.core.model import Alignment, Bead, Document, Project


def _project() -> Project:
    src = Document.from_texts(["Good morning.", "Rivers carry water."], "en")
    tgt = Document.from_texts(["えー、", "おはようございます。", "川は水を", "運びます。", "あの、"], "ja")
    beads = [Bead((0,), (0, 1), trimmed=(0,)), Bead((1,), (2, 3, 4), trimmed=(4,))]
    return Project(source=src, target=tgt, alignment=Alignment(beads))


def _state(project: Project) -> dict:
    d = project.to_dict()
    d.pop("history")
    return d


def test_restore_chunk_apply_inverse_and_changes() -> None:
    project = _project()
    before = _state(project)
    edit = RestoreTrimmedChunk(1, 4)
    inverse, changes = apply_edit_changes(project, edit)
    bead = project.alignment.beads[1]  # type: ignore[union-attr]
    assert bead.trimmed == () and bead.restored == (4,)
    assert project.alignment.beads[0].trimmed == (0,)  # type: ignore[union-attr]  # other beads untouched
    assert changes == Changes(annotations=True)
    assert edit.describe() == "Restore trimmed target segment 4 of bead 2"
    assert inverse.describe() == "Trim target segment 4 of bead 2 again"
    after = _state(project)
    redo = apply_edit(project, inverse, record=False)
    assert _state(project) == before
    apply_edit(project, redo, record=False)
    assert _state(project) == after
    # Saved and read back, the bead remembers the reviewer's choice.
    assert Project.from_dict(json.loads(json.dumps(project.to_dict()))).alignment.beads[1].restored == (4,)  # type: ignore[union-attr]
    assert edit_from_dict(json.loads(json.dumps(inverse.to_dict()))) == inverse


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (RestoreTrimmedChunk(0, 1), "is not trimmed"),
        (RestoreTrimmedChunk(0, 3), "holds no target segment 3"),
        (RestoreTrimmedChunk(5, 0), "there is no bead 6"),
    ],
)
def test_restore_chunk_refusals_leave_the_project_alone(edit: RestoreTrimmedChunk, message: str) -> None:
    project = _project()
    before = _state(project)
    with pytest.raises(EditError, match=message):
        apply_edit(project, edit)
    assert _state(project) == before
