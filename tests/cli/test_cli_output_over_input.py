"""An output that names the command's own input is refused before any work, in one line, exit 64.

``sialign export v.sialign -f jsonl -o v.sialign`` once replaced a reviewed project by its export, and
``align v.srt t.srt -f tsv -o v.srt`` a transcript by a TSV. The same file counts through a symbolic or
hard link too.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from sialign.cli.main import EXIT_USAGE, main

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


@pytest.fixture
def talk(tmp_path: Path) -> dict[str, Path]:
    for name in ("talk.en.srt", "talk.ja.srt"):
        shutil.copy(EXAMPLES / name, tmp_path / name)
    project = tmp_path / "v.sialign"
    assert main(["align", str(tmp_path / "talk.en.srt"), str(tmp_path / "talk.ja.srt"), "--model", "lexical", "-q",
                 "-o", str(project)]) == 0
    return {"src": tmp_path / "talk.en.srt", "tgt": tmp_path / "talk.ja.srt", "project": project}


def _refused(argv: list[str], kept: Path, capsys: pytest.CaptureFixture[str]) -> str:
    before = kept.read_bytes()
    assert main(argv) == EXIT_USAGE
    assert kept.read_bytes() == before
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "nothing was written" in err, err
    return err


def test_export_over_its_own_project_is_refused(talk: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    p = str(talk["project"])
    err = _refused(["export", p, "-f", "jsonl", "-o", p], talk["project"], capsys)
    assert "input PROJECT" in err and p in err


def test_align_over_its_source_transcript_is_refused(talk: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    src = str(talk["src"])
    err = _refused(["align", src, str(talk["tgt"]), "--model", "lexical", "-f", "tsv", "-o", src], talk["src"], capsys)
    assert "input SOURCE" in err


def test_convert_onto_itself_is_refused(talk: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    src = str(talk["src"])
    _refused(["convert", src, src, "--to", "tsv"], talk["src"], capsys)


def test_links_count_symbolic_and_hard(talk: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    soft, hard = tmp_path / "soft.srt", tmp_path / "hard.srt"
    soft.symlink_to(talk["src"])
    os.link(talk["src"], hard)
    for alias in (soft, hard):
        err = _refused(["convert", str(talk["src"]), str(alias), "--to", "tsv"], talk["src"], capsys)
        assert "the same file as" in err
    # The project read through a link to it.
    link = tmp_path / "link.sialign"
    link.symlink_to(talk["project"])
    _refused(["export", str(talk["project"]), "-f", "tsv", "-o", str(link)], talk["project"], capsys)


def test_an_export_over_a_file_the_project_stands_on_is_refused(talk: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    """Not named on the command line, but the project's own source transcript."""
    err = _refused(["export", str(talk["project"]), "-f", "tsv", "-o", str(talk["tgt"])], talk["tgt"], capsys)
    assert "interpretation transcript" in err


def test_evs_json_over_its_project_is_refused(talk: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    _refused(["evs", str(talk["project"]), "--json", str(talk["project"])], talk["project"], capsys)


def test_commands_that_rewrite_their_project_may_name_it(talk: dict[str, Path]) -> None:
    """filter and realign write the project back by default: -o PROJECT is the same thing, not a mistake."""
    p = str(talk["project"])
    assert main(["realign", p, "--model", "lexical", "-o", p]) == 0
    # A different output still works, and the project file is still a project.
    assert main(["export", p, "-f", "tsv", "-o", str(talk["project"].with_suffix(".tsv"))]) == 0
