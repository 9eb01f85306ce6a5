"""Building a talk from files: the talk id rule and explicit encodings (the CLI and the New talk dialog share both)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sialign.core.errors import UnknownLanguageError
from sialign.core.model import Document
from sialign.workflows.talks import TalkFiles, read_talk, talk_from_documents


def test_read_talk_uses_the_given_encodings_and_names_the_talk_after_its_folder(tmp_path: Path) -> None:
    folder = tmp_path / "ted_1234"
    folder.mkdir()
    (folder / "src.txt").write_text("Hello.\nWater.\n", encoding="utf-8")
    (folder / "tgt.txt").write_bytes("你好世界。\n水资源\n".encode("gbk"))  # short: detection would guess EUC-JP
    project = read_talk(TalkFiles(folder / "src.txt", folder / "tgt.txt", target_encoding="gb18030"))
    assert project.talk_id == "ted_1234"
    assert project.target.texts() == ["你好世界。", "水资源"] and project.target.encoding == "gb18030"


def test_read_talk_talk_id_shared_by_both_names(tmp_path: Path) -> None:
    (tmp_path / "bread.en.txt").write_text("Bread.\n", encoding="utf-8")
    (tmp_path / "bread_interp.ja.txt").write_text("パン。\n", encoding="utf-8")
    project = read_talk(TalkFiles(tmp_path / "bread.en.txt", tmp_path / "bread_interp.ja.txt"))
    assert project.talk_id == "bread"


def test_read_talk_normalises_the_languages_given(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("Bread.\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("パン。\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("パン。\n", encoding="utf-8")
    files = TalkFiles(tmp_path / "a.txt", tmp_path / "b.txt", tmp_path / "ref.txt", source_language="eng", target_language="Japanese")
    project = read_talk(files)
    assert (project.source.language, project.target.language) == ("en", "ja")
    assert project.reference is not None and project.reference.language == "ja"


def test_read_talk_refuses_an_unknown_language_before_reading_the_files(tmp_path: Path) -> None:
    # The files do not exist: the language is checked first, so that is the error.
    with pytest.raises(UnknownLanguageError, match="unknown language 'english2'"):
        read_talk(TalkFiles(tmp_path / "missing.txt", tmp_path / "missing2.txt", target_language="english2"))


def test_talk_from_documents_normalises_or_refuses_the_languages_given() -> None:
    source = Document.from_texts(["Bread."], "en")
    target = Document.from_texts(["Pain."], "en")
    project = talk_from_documents(source, target, source_language="ENG", target_language="fre")
    assert (project.source.language, project.target.language) == ("en", "fr")
    with pytest.raises(UnknownLanguageError):
        talk_from_documents(source, target, target_language="xx")
    assert target.language == "fr"


def test_the_interpreter_is_named_by_an_edit_that_can_be_undone() -> None:
    from sialign.core.edits import apply_edit
    from sialign.workflows.talks import example_folder, load_example, name_interpreter

    project = load_example(example_folder(None))
    before = dict(project.metadata)
    first = name_interpreter(project, "104", None)
    assert project.metadata["interpreter"] == "104" and "rank" not in project.metadata
    second = name_interpreter(project, None, "A")  # None keeps the interpreter
    assert project.metadata["interpreter"] == "104" and project.metadata["rank"] == "A"
    assert [step["label"] for step in project.history] == ["Name the interpreter"] * 2
    assert name_interpreter(project, None, None) is None and len(project.history) == 2  # nothing changed
    assert first is not None and second is not None
    apply_edit(project, second)
    apply_edit(project, first)
    assert project.metadata == before
