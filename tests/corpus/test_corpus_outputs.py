"""Corpus outputs: which talks an export holds, its splits, the files it must not overwrite, progress and cancel."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from sialign.core.errors import AlignmentCancelled, OutputIsInputError, SialignError
from sialign.corpus import align_corpus
from sialign.corpus.outputs import corpus_files, export_corpus, export_talks, split_corpus, split_names

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


@pytest.fixture(scope="module")
def aligned(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two short talks cut from the example, aligned, and one that failed; the manifest gives 'first' the dev split."""
    folder = tmp_path_factory.mktemp("talks")
    en = (EXAMPLES / "talk.en.srt").read_text(encoding="utf-8").split("\n\n")
    ja = (EXAMPLES / "talk.ja.srt").read_text(encoding="utf-8").split("\n\n")
    (folder / "first.en.srt").write_text("\n\n".join(en[:12]) + "\n", encoding="utf-8")
    (folder / "first.ja.srt").write_text("\n\n".join(ja[:33]) + "\n", encoding="utf-8")
    (folder / "second.en.srt").write_text("\n\n".join(en[20:30]) + "\n", encoding="utf-8")
    (folder / "second.ja.srt").write_text("\n\n".join(ja[55:85]) + "\n", encoding="utf-8")
    (folder / "bad.srt").write_bytes(b"\x00\x01 not captions")
    (folder / "manifest.tsv").write_text(
        "talk\tsource\ttarget\tsplit\nfirst\tfirst.en.srt\tfirst.ja.srt\tdev\nsecond\tsecond.en.srt\tsecond.ja.srt\t\n"
        "bad\tbad.srt\tfirst.ja.srt\t\n",
        encoding="utf-8",
    )
    out = folder / "corpus"
    align_corpus(folder / "manifest.tsv", out)
    return out


@pytest.fixture
def corpus(aligned: Path, tmp_path: Path) -> Path:
    """A copy of the aligned corpus this test may change."""
    return Path(shutil.copytree(aligned, tmp_path / "corpus"))


def test_export_talks_are_the_aligned_ones_of_a_split(corpus: Path) -> None:
    assert export_talks(corpus) == ["first", "second"]
    assert export_talks(corpus, "dev") == ["first"]
    assert split_names(corpus) == ["dev"]
    with pytest.raises(SialignError, match="no aligned talk in split 'test' to export"):
        export_talks(corpus, "test")
    split_corpus(corpus, dev=0, test=1, seed=0)
    assert split_names(corpus) == ["dev", "test"]
    for talk in ("first", "second"):
        (corpus / f"{talk}.sialign").unlink()
    with pytest.raises(SialignError, match="no aligned talk to export"):
        export_talks(corpus)


def test_corpus_files_are_its_state_manifest_and_talks(corpus: Path) -> None:
    files = dict((path.name, what) for what, path in corpus_files(corpus, "the corpus"))
    assert files["corpus.json"] == "the corpus state file of the corpus"
    assert files["manifest.tsv"] == "the manifest of the corpus"
    assert files["first.sialign"] == "talk first's project in the corpus"
    assert "first.en.srt" in files and "bad.sialign" not in files
    assert corpus_files(corpus.parent / "nowhere") == []


@pytest.mark.parametrize("name", ["corpus.json", "first.sialign", "../manifest.tsv", "../first.en.srt"])
def test_export_corpus_never_writes_over_what_the_corpus_stands_on(aligned: Path, name: str) -> None:
    target = aligned / name
    before = target.read_bytes()
    with pytest.raises(OutputIsInputError, match="writing it would destroy what is read"):
        export_corpus(aligned, target, "tsv2")
    assert target.read_bytes() == before


def test_export_corpus_reports_each_talk_and_stops_when_asked(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "all.jsonl"
    seen: list[tuple[float, str]] = []
    assert export_corpus(corpus, out, "jsonl", progress=lambda f, m: seen.append((f, m)))[0] == 2
    assert seen == [(0.0, "first (1/2)"), (0.5, "second (2/2)")]
    before = out.read_bytes()
    asked: list[int] = []

    def stop_at_second() -> bool:
        asked.append(1)
        return len(asked) > 1

    with pytest.raises(AlignmentCancelled):
        export_corpus(corpus, out, "tsv", should_stop=stop_at_second)
    assert out.read_bytes() == before  # the file is replaced only when every talk is in
