"""Word links in the exports: a ``links`` column of the TSV, tokens and links in JSONL (``--links``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.word_link_fakes import SpellingLinker, en_fr_project, use_as_default_linker

from sialign.cli.main import main
from sialign.io.project_file import load_project, save_project
from sialign.io.read_exports import read_parallel_tsv
from sialign.io.writers import LINKS_TSV_COLUMNS, PARALLEL_TSV_COLUMNS, write_alignment
from sialign.links import tokenize
from sialign.workflows.word_links import update_word_links


def test_export_links_tsv_column_refers_to_the_tokens_of_the_texts(tmp_path: Path) -> None:
    project = en_fr_project()
    update_word_links(project, linker=SpellingLinker())
    out = tmp_path / "links.tsv"
    assert write_alignment(project, out, links=True) == 3
    lines = out.read_text(encoding="utf-8").splitlines()
    assert tuple(lines[0].split("\t")) == LINKS_TSV_COLUMNS
    row = dict(zip(LINKS_TSV_COLUMNS, lines[1].split("\t")))
    src = [t for t, _, _ in tokenize(row["source"], "en")]
    tgt = [t for t, _, _ in tokenize(row["target"], "fr")]
    pairs = [tuple(map(int, p.split("-"))) for p in row["links"].split()]
    assert [(src[i], tgt[j]) for i, j in pairs] == [("budget", "budget"), ("300", "300"), (".", ".")]
    # The reader takes the file back, links included.
    assert read_parallel_tsv(out)[0].links == row["links"]
    # Without links the file is as before.
    write_alignment(project, out)
    assert tuple(out.read_text(encoding="utf-8").splitlines()[0].split("\t")) == PARALLEL_TSV_COLUMNS


def test_export_links_jsonl_carries_tokens_links_and_the_aligner(tmp_path: Path) -> None:
    project = en_fr_project()
    update_word_links(project, linker=SpellingLinker())
    out = tmp_path / "links.jsonl"
    write_alignment(project, out, links=True)
    record = json.loads(out.read_text(encoding="utf-8").splitlines()[1])
    assert record["src_tokens"] == ["Paris", "and", "Berlin", "agree", "."]
    assert record["links"] == "0-0 4-3" and record["links_aligner"] == "spelling-test"
    write_alignment(project, out)
    assert "links" not in json.loads(out.read_text(encoding="utf-8").splitlines()[0])


@pytest.mark.parametrize("fmt", ["tsv", "jsonl"])
def test_cli_export_links_draws_missing_links_and_leaves_the_project_file(
    tmp_path: Path, fmt: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    use_as_default_linker(monkeypatch, SpellingLinker)
    path = tmp_path / "talk.sialign"
    save_project(en_fr_project(), path)
    before = path.read_bytes()
    out = tmp_path / f"out.{fmt}"
    assert main(["export", str(path), "-o", str(out), "--links"]) == 0
    assert "drew the word links of 3 beads" in capsys.readouterr().err
    text = out.read_text(encoding="utf-8")
    assert ("\t1-1 3-4 6-7\n" if fmt == "tsv" else "\"links\": \"1-1 3-4 6-7\"") in text
    assert path.read_bytes() == before and load_project(path).word_links is None


def test_cli_export_links_refuses_formats_without_a_place_for_them(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "talk.sialign"
    save_project(en_fr_project(), path)
    assert main(["export", str(path), "-o", str(tmp_path / "out.tmx"), "--links"]) == 64
    assert "--links works with -f tsv or jsonl" in capsys.readouterr().err
