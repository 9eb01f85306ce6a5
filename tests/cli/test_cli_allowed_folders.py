"""A project reads only files in its own folder and the folders the user allowed (issue: stored paths confined).

A project from elsewhere naming ``../../etc/passwd``, or a link to a file outside, used to be read by
``project-tags``, and the parse error printed the file's first line. Now such a path is refused in one
line naming the key, before the file is opened, so nothing of it reaches a message.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from sialign.cli.main import EXIT_INPUT, EXIT_USAGE, main
from sialign.core import stored_files as allowed_folders
from sialign.io.project_file import load_project, save_project

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"
SECRET = "TOP-SECRET-LINE-7731"


@pytest.fixture()
def talk(tmp_path: Path) -> Path:
    """A project beside its transcripts (its own folder), and a secret file in a folder nobody allowed."""
    folder = tmp_path / "talk"
    folder.mkdir()
    for name in ("talk.en.tagged.srt", "talk.ja.srt", "talk.en.ogg"):
        shutil.copy(EXAMPLES / name, folder / name)
    project = folder / "talk.sialign"
    assert main(["align", str(folder / "talk.en.tagged.srt"), str(folder / "talk.ja.srt"), "-q", "-o", str(project)]) == 0
    secret = tmp_path / "private" / "notes.srt"
    secret.parent.mkdir()
    secret.write_text(f"{SECRET}\n", encoding="utf-8")
    # The align above named files in the project's own folder: nothing else was allowed.
    assert allowed_folders.allowed_folders() == [folder.resolve()]
    allowed_folders.disallow([folder])
    return project


def _naming(project: Path, key: str, value: str, name: str) -> Path:
    loaded = load_project(project)
    side, attribute = key.split(".")
    setattr(getattr(loaded, side), attribute, value)
    out = project.with_name(name)
    save_project(loaded, out)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("how", ["climbing", "absolute", "link"])
def test_a_stored_path_outside_is_refused_naming_the_key_and_never_read(
    talk: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], how: str
) -> None:
    secret = tmp_path / "private" / "notes.srt"
    if how == "link":
        (talk.parent / "notes.srt").symlink_to(secret)
        value = "notes.srt"
    else:
        value = os.path.relpath(secret, talk.parent) if how == "climbing" else str(secret)
    evil = _naming(talk, "source.path", value, "evil.sialign")
    assert main(["project-tags", str(evil), "-o", str(tmp_path / "t.srt")]) == EXIT_INPUT
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "'source.path'" in err and "outside the project's folder" in err and "sialign allow" in err
    assert SECRET not in err and not (tmp_path / "t.srt").exists()
    if how == "link":
        assert "a link to" in err
    # Allowed by the user, the file is read (and, not being a transcript, refused for what it is).
    assert main(["allow", str(secret.parent)]) == 0
    capsys.readouterr()
    assert main(["project-tags", str(evil), "-o", str(tmp_path / "t.srt")]) == EXIT_INPUT
    assert "not SubRip" in capsys.readouterr().err


@pytest.mark.slow
def test_the_environment_allows_folders_for_one_run(
    talk: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.copy(talk.parent / "talk.en.tagged.srt", elsewhere / "tagged.srt")
    moved = _naming(talk, "source.path", str(elsewhere / "tagged.srt"), "moved.sialign")
    assert main(["project-tags", str(moved), "-o", str(tmp_path / "a.srt")]) == EXIT_INPUT
    capsys.readouterr()
    monkeypatch.setenv(allowed_folders.ENV_ALLOWED_FOLDERS, os.pathsep.join([str(tmp_path / "nothing"), str(elsewhere)]))
    assert main(["project-tags", str(moved), "-o", str(tmp_path / "a.srt")]) == 0
    assert not allowed_folders.allowed_folders_file().exists() or str(elsewhere) not in allowed_folders.allowed_folders_file().read_text()


def test_a_project_only_read_allows_nothing(talk: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Rewriting a project from elsewhere (filter -o) must not make what it names trusted for the next one."""
    evil = _naming(talk, "source.path", str(tmp_path / "private" / "notes.srt"), "evil.sialign")
    assert main(["export", str(evil), "-f", "tsv", "-o", str(tmp_path / "x.tsv")]) == 0
    assert allowed_folders.allowed_folders() == []
    assert not allowed_folders.is_allowed(tmp_path / "private" / "notes.srt", evil)


def test_files_named_on_the_command_line_are_allowed(tmp_path: Path) -> None:
    texts = tmp_path / "texts"
    texts.mkdir()
    for name in ("talk.en.srt", "talk.ja.srt"):
        shutil.copy(EXAMPLES / name, texts / name)
    out = tmp_path / "projects" / "talk.sialign"
    out.parent.mkdir()
    assert main(["align", str(texts / "talk.en.srt"), str(texts / "talk.ja.srt"), "-q", "-o", str(out)]) == 0
    assert allowed_folders.allowed_folders() == [texts.resolve()]  # not the output's folder
    assert allowed_folders.is_allowed(texts / "talk.en.srt", out)
    stored = json.loads(out.read_text(encoding="utf-8"))["project"]["source"]["path"]
    assert stored == "../texts/talk.en.srt"


def test_sialign_allow_lists_adds_and_removes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "corpus"
    (folder / "below").mkdir(parents=True)
    assert main(["allow"]) == 0
    assert "(none yet)" in capsys.readouterr().out
    assert main(["allow", str(folder)]) == 0
    assert f"allowed: {folder.resolve()}" in capsys.readouterr().out
    assert main(["allow", str(folder / "below")]) == 0  # inside one already allowed
    assert "already allowed" in capsys.readouterr().out
    assert main(["allow"]) == 0
    assert str(folder.resolve()) in capsys.readouterr().out
    assert main(["allow", str(tmp_path / "absent")]) == EXIT_USAGE
    assert "not a folder" in capsys.readouterr().err
    assert main(["allow", "--remove", str(folder), str(tmp_path / "never")]) == 0
    out = capsys.readouterr().out
    assert f"no longer allowed: {folder.resolve()}" in out and "not on the list" in out
    assert allowed_folders.allowed_folders() == []


def test_a_damaged_list_allows_nothing_and_is_rewritten(tmp_path: Path) -> None:
    allowed_folders.allowed_folders_file().parent.mkdir(parents=True, exist_ok=True)
    allowed_folders.allowed_folders_file().write_text('{"folders": [1, "\\u0000", "/x"', encoding="utf-8")
    assert allowed_folders.allowed_folders() == []
    assert allowed_folders.allow([tmp_path]) == [tmp_path.resolve()]
    assert allowed_folders.allowed_folders() == [tmp_path.resolve()]


def test_the_examples_shipped_are_allowed_and_an_elan_export_links_a_recording_outside(
    talk: Path, tmp_path: Path
) -> None:
    assert allowed_folders.is_allowed(EXAMPLES / "talk.en.ogg", tmp_path / "anywhere" / "x.sialign")
    outside = _naming(talk, "target.audio_path", str(tmp_path / "private" / "interp.wav"), "linked.sialign")
    # Linking writes the path into the export and reads nothing: the export goes ahead.
    assert main(["export", str(outside), "-f", "eaf", "-o", str(tmp_path / "x.eaf")]) == 0
    assert "interp.wav" in (tmp_path / "x.eaf").read_text(encoding="utf-8")
