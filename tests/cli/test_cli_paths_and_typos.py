"""The command line: audio attached by `sialign align`, and a mistyped command answered with the nearest one."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from sialign.audio.decode import resolve_audio_path
from sialign.cli.main import main
from sialign.io.project_file import load_project

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


def test_align_attaches_audio_relative_to_the_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    talks = tmp_path / "talks"
    talks.mkdir()
    for name in ("talk.en.srt", "talk.ja.srt", "talk.en.ogg", "talk.ja.ogg"):
        shutil.copy(EXAMPLES / name, talks / name)
    (tmp_path / "out").mkdir()
    monkeypatch.chdir(tmp_path)
    code = main(["align", "talks/talk.en.srt", "talks/talk.ja.srt", "-o", "out/talk.sialign", "--model", "lexical",
                 "--src-audio", "talks/talk.en.ogg", "--tgt-audio", "talks/talk.ja.ogg", "-q"])
    assert code == 0
    project = load_project(tmp_path / "out" / "talk.sialign")
    assert project.source.audio_path == str(Path("..") / "talks" / "talk.en.ogg")
    assert resolve_audio_path(project.target.audio_path, project.path) == talks / "talk.ja.ogg"


def test_align_refuses_missing_audio_before_aligning(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["align", str(EXAMPLES / "talk.en.srt"), str(EXAMPLES / "talk.ja.srt"), "-o", str(tmp_path / "t.sialign"),
                 "--model", "lexical", "--src-audio", str(tmp_path / "nope.ogg")])
    err = capsys.readouterr().err
    assert code == 64 and "--src-audio" in err and "no such file" in err.splitlines()[0]
    assert not (tmp_path / "t.sialign").exists()


@pytest.mark.parametrize(
    ("argv", "suggestion"),
    [(["algn", "a", "b"], "did you mean 'align'?"), (["corpus", "stauts"], "did you mean 'status'?"), (["zzzzz"], None)],
)
def test_mistyped_subcommand_suggests_the_nearest(argv: list[str], suggestion: str | None, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 64
    first = capsys.readouterr().err.splitlines()[0]
    assert "invalid choice" in first
    assert (suggestion in first) if suggestion else ("did you mean" not in first)


def test_corpus_progress_falls_back_to_plain_lines_without_columns(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import sys

    import sialign.cli.progress as cmd

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(cmd, "terminal_columns", lambda: 0)
    progress = cmd.CountProgress(2, quiet=False)
    assert progress.bar is None
    progress(1, 2, "first", "done in 1.0 s")
    progress.close()
    assert "[1/2] first: done in 1.0 s" in capsys.readouterr().err
    monkeypatch.setattr(cmd, "terminal_columns", lambda: 120)
    progress = cmd.CountProgress(2, quiet=False)
    assert progress.bar is not None
    progress.close()


@pytest.mark.parametrize("shell", ["bash", "zsh", "tcsh"])
def test_completion_script_says_the_install_path_the_docs_say(shell: str, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("shtab")
    from sialign.cli.cmd_completion import INSTALL

    assert main(["completion", shell]) == 0
    script = capsys.readouterr().out
    head = script.splitlines()[:4]
    assert f"#   {INSTALL[shell]}" in head and "Copy this to" not in script
    if shell == "zsh":
        assert head[0] == "#compdef sialign"
    docs = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text(encoding="utf-8")
    if shell == "bash":
        assert INSTALL["bash"] in docs
