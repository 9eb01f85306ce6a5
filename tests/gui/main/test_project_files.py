"""Opening and saving project files from the window (gui/main/project_files.py)."""

from __future__ import annotations

from sialign.core.model import Project
from sialign.gui.main.project_files import unsaved_question


def test_project_files_save_prompt_names_the_file_not_the_talk(tmp_path) -> None:
    project = Project(talk_id="ted_0412", path=str(tmp_path / "lecture one.sialign"))
    text = unsaved_question(project)
    assert text.startswith("lecture one.sialign has changes that are not saved") and str(tmp_path) in text
    assert "ted_0412" not in text
    assert unsaved_question(Project(talk_id="ted_0412")) == "The talk “ted_0412” has never been saved. Save it to a project file?"
