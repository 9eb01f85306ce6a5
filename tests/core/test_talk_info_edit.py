"""SetTalkInfo: Project properties as a core edit — exact inverse, recorded, replayed, saved with the project."""

from __future__ import annotations

from pathlib import Path

from sialign.core.edits import EDIT_TYPES, apply_edit, edit_from_dict
from sialign.core.model import Document, Project
from sialign.core.param_edits import SetTalkInfo
from sialign.io.project_file import load_project, save_project


def _project() -> Project:
    src = Document.from_texts(["Hello.", "Bye."], "en")
    tgt = Document.from_texts(["今日は。", "さようなら。"], "ja")
    return Project(talk_id="water", source=src, target=tgt, metadata={"interpreter": "A"})


def test_set_talk_info_applies_and_its_inverse_restores_everything() -> None:
    project = _project()
    reference = Document.from_texts(["Bonjour.", "Au revoir."], "fr")
    edit = SetTalkInfo("river", "de", "fr", interpreter="", rank="B", source_audio="a.wav", target_audio=None,
                       reference=reference, label="Change project properties")
    inverse = apply_edit(project, edit)
    assert (project.talk_id, project.source.language, project.target.language) == ("river", "de", "fr")
    assert project.metadata == {"rank": "B"} and project.source.audio_path == "a.wav"
    assert project.reference is not None and project.reference.language == "fr" and project.reference.texts() == ["Bonjour.", "Au revoir."]
    apply_edit(project, inverse)
    assert (project.talk_id, project.source.language, project.target.language) == ("water", "en", "ja")
    assert project.metadata == {"interpreter": "A"} and project.source.audio_path is None and project.reference is None


def test_set_talk_info_round_trips_through_json_and_the_project_file(tmp_path: Path) -> None:
    assert EDIT_TYPES["SetTalkInfo"] is SetTalkInfo
    reference = Document.from_texts(["Bonjour.", "Au revoir."], "ja")
    edit = SetTalkInfo("river", "en", "ja", "I-07", "A", None, "i.wav", reference, "Change project properties")
    again = edit_from_dict(edit.to_dict())
    assert isinstance(again, SetTalkInfo) and again.to_dict() == edit.to_dict()
    project = _project()
    apply_edit(project, edit)
    project.history.append(edit.to_dict())
    save_project(project, tmp_path / "p.sialign")
    loaded = load_project(tmp_path / "p.sialign")
    assert loaded.talk_id == "river" and loaded.history[-1]["type"] == "SetTalkInfo"
