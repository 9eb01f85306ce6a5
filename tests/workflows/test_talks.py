"""Building a talk from files: the talk id rule and explicit encodings (the CLI and the New talk dialog share both)."""

from __future__ import annotations

from pathlib import Path

from sialign.workflows.talks import TalkFiles, read_talk


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
