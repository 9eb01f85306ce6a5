"""Corpus mode: manifest, resumable runs, failure isolation, parallel and Dask runs, outputs, Python API."""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import pytest

import sialign
from sialign.cli.main import main
from sialign.core.errors import FormatError
from sialign.core.model import BeadStatus
from sialign.corpus import align_corpus, corpus_status, read_manifest
from sialign.io.project_file import load_project, save_project

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """A manifest of three real talks (the example, and two cut from it) plus one broken file and one missing."""
    folder = tmp_path / "talks"
    folder.mkdir()
    for name in ("talk.en.srt", "talk.ja.srt", "talk.ref.ja.txt"):
        shutil.copy(EXAMPLES / name, folder / name)
    en = (EXAMPLES / "talk.en.srt").read_text(encoding="utf-8").split("\n\n")
    ja = (EXAMPLES / "talk.ja.srt").read_text(encoding="utf-8").split("\n\n")
    (folder / "first.en.srt").write_text("\n\n".join(en[:12]) + "\n", encoding="utf-8")
    (folder / "first.ja.srt").write_text("\n\n".join(ja[:33]) + "\n", encoding="utf-8")
    (folder / "second.en.srt").write_text("\n\n".join(en[20:]), encoding="utf-8")
    (folder / "second.ja.srt").write_text("\n\n".join(ja[55:]), encoding="utf-8")
    (folder / "broken.srt").write_bytes(b"\x00\x01 this is not a caption file \xff")
    (folder / "manifest.tsv").write_text(
        "talk\tsource\ttarget\treference\tinterpreter\tsplit\n"
        "example\ttalk.en.srt\ttalk.ja.srt\ttalk.ref.ja.txt\tA\t\n"
        "first\tfirst.en.srt\tfirst.ja.srt\t\tB\tdev\n"
        "second\tsecond.en.srt\tsecond.ja.srt\t\tA\t\n"
        "broken\tbroken.srt\ttalk.ja.srt\t\t\t\n"
        "missing\tnope.srt\ttalk.ja.srt\t\t\t\n",
        encoding="utf-8",
    )
    return folder / "manifest.tsv"


def _beads(folder: Path, talk: str) -> list[tuple]:
    project = load_project(folder / f"{talk}.sialign")
    assert project.alignment is not None
    return [(b.src, b.tgt, b.status, b.cost) for b in project.alignment.beads]


def test_corpus_manifest_reads_paths_relative_to_it(corpus: Path) -> None:
    talks = read_manifest(corpus)
    assert [t.talk for t in talks] == ["example", "first", "second", "broken", "missing"]
    assert talks[0].source == corpus.parent / "talk.en.srt" and talks[0].reference == corpus.parent / "talk.ref.ja.txt"
    assert talks[1].split == "dev" and talks[1].interpreter == "B" and talks[1].reference is None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("talk,source\nx,a.srt\n", r"lacks the column\(s\) target"),
        ("talk\tsource\ttarget\nx y\ta\tb\n", "cannot be a file name"),
        ("talk\tsource\ttarget\nx\ta\tb\nx\tc\td\n", "listed twice"),
        ("talk\tsource\ttarget\nx\t\tb\n", "no source file"),
        ("talk\tsource\ttarget\n", "lists no talk"),
    ],
)
def test_corpus_manifest_errors_name_the_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "m.tsv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(FormatError, match=message):
        read_manifest(path)


def test_corpus_align_isolates_failures_and_resumes(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "corpus"
    report = align_corpus(corpus, out)
    assert sorted(report.done) == ["example", "first", "second"]
    assert [t for t, _ in report.failed] == ["missing", "broken"] or sorted(t for t, _ in report.failed) == ["broken", "missing"]
    assert any("nope.srt" in why for _, why in report.failed)
    state = json.loads((out / "corpus.json").read_text(encoding="utf-8"))
    assert state["talks"]["example"]["status"] == "done" and state["talks"]["example"]["summary"]["beads"] == 35
    assert state["talks"]["broken"]["status"] == "failed" and "broken.srt" in state["talks"]["broken"]["message"]
    before = _beads(out, "example")
    again = align_corpus(corpus, out)
    assert again.done == [] and sorted(t for t, why in again.skipped if why == "unchanged") == ["example", "first", "second"]
    assert _beads(out, "example") == before
    # A changed input is re-aligned; the others stay.
    second = corpus.parent / "second.en.srt"
    second.write_text(second.read_text(encoding="utf-8").replace("bread", "loaf"), encoding="utf-8")
    third = align_corpus(corpus, out)
    assert third.done == ["second"]


def test_corpus_never_overwrites_a_reviewed_talk_unless_forced(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "corpus"
    align_corpus(corpus, out)
    path = out / "example.sialign"
    project = load_project(path)
    assert project.alignment is not None
    beads = project.alignment.beads
    beads[2] = dataclasses.replace(beads[2], status=BeadStatus.CONFIRMED, note="checked")
    save_project(project, path)
    reviewed = path.read_bytes()
    report = align_corpus(corpus, out, force=False)
    assert any(t == "example" and "reviewed" in why for t, why in report.skipped)
    assert path.read_bytes() == reviewed
    assert {r["talk"]: r["reviewed"] for r in corpus_status(out)}["example"] is True
    forced = align_corpus(corpus, out, force=True)
    assert "example" in forced.done
    beads = load_project(path).alignment.beads  # type: ignore[union-attr]
    kept = [b for b in beads if b.note == "checked"]
    assert len(kept) == 1 and kept[0].status is BeadStatus.CONFIRMED


def test_corpus_jobs_give_the_same_projects(corpus: Path, tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    align_corpus(corpus, one, jobs=1)
    report = align_corpus(corpus, two, jobs=2)
    assert sorted(report.done) == ["example", "first", "second"]
    for talk in ("example", "first", "second"):
        assert _beads(one, talk) == _beads(two, talk)


@pytest.mark.slow
def test_corpus_dask_local_cluster_gives_the_same_projects(corpus: Path, tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    one, cluster = tmp_path / "one", tmp_path / "dask"
    align_corpus(corpus, one)
    report = align_corpus(corpus, cluster, dask="local:2")
    assert sorted(report.done) == ["example", "first", "second"] and len(report.failed) == 2
    for talk in ("example", "first", "second"):
        assert _beads(one, talk) == _beads(cluster, talk)


def test_corpus_cli_align_status_export_split_eval(corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "corpus"
    assert main(["corpus", "align", str(corpus), "-o", str(out), "-q"]) == 1  # two talks failed
    printed = capsys.readouterr().out
    assert "3 aligned" in printed and "2 failed" in printed and "failed: broken:" in printed
    assert main(["corpus", "status", str(out)]) == 0
    table = capsys.readouterr().out
    assert "example" in table and "failed" in table and "5 talks: 3 aligned, 2 failed" in table
    tsv = tmp_path / "all.tsv"
    assert main(["corpus", "export", str(out), "-f", "tsv", "-o", str(tsv)]) == 0
    rows = tsv.read_text(encoding="utf-8").splitlines()
    assert rows[0].startswith("talk\tsrc_ids") and {r.split("\t")[0] for r in rows[1:]} == {"example", "first", "second"}
    jsonl = tmp_path / "all.jsonl"
    assert main(["corpus", "export", str(out), "-f", "jsonl", "-o", str(jsonl)]) == 0
    assert all(json.loads(line)["talk"] in {"example", "first", "second"} for line in jsonl.read_text(encoding="utf-8").splitlines())
    tmx = tmp_path / "all.tmx"
    assert main(["corpus", "export", str(out), "-f", "tmx", "-o", str(tmx)]) == 0
    import xml.etree.ElementTree as ET

    assert len(ET.parse(tmx).getroot().findall("./body/tu")) > 40
    exclude = tmp_path / "exclude.txt"
    exclude.write_text("second  # a MuST-C test talk\n", encoding="utf-8")
    assert main(["corpus", "split", str(out), "--dev", "1", "--test", "1", "--exclude", str(exclude)]) == 0
    splits = json.loads((out / "splits.json").read_text(encoding="utf-8"))["talks"]
    assert splits == {"first": "dev", "example": "test", "second": "excluded"}
    dev = tmp_path / "dev.tsv"
    assert main(["corpus", "export", str(out), "-o", str(dev), "--split", "dev"]) == 0
    assert {r.split("\t")[0] for r in dev.read_text(encoding="utf-8").splitlines()[1:]} == {"first"}
    gold = tmp_path / "gold"
    gold.mkdir()
    shutil.copy(EXAMPLES / "talk.gold.align", gold / "example.align")
    capsys.readouterr()
    assert main(["corpus", "eval", str(out), str(gold)]) == 0
    assert "1 talks with gold (2 without)" in capsys.readouterr().out


def test_api_align_export_load(tmp_path: Path) -> None:
    project = sialign.align(EXAMPLES / "talk.en.srt", EXAMPLES / "talk.ja.srt", reference=EXAMPLES / "talk.ref.ja.txt")
    assert project.alignment is not None and len(project.alignment.beads) == 35
    assert project.alignment.embedder.startswith("use-multilingual")
    assert sialign.export(project, tmp_path / "talk.tsv") == "33 beads to " + str(tmp_path / "talk.tsv")
    sialign.export(project, tmp_path / "talk.sialign")
    again = sialign.load(tmp_path / "talk.sialign")
    assert again.alignment is not None and len(again.alignment.beads) == 35
    lists = sialign.align(["The weather is nice.", "I lost my keys."], ["鍵をなくしました。", "いい天気です。"], max_src=2)
    assert lists.source.language == "en" and lists.target.language == "ja"
    with pytest.raises(TypeError, match="unknown parameter"):
        sialign.align(["a"], ["b"], max_srcs=2)


def test_api_align_ignores_the_users_default_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from sialign.embed import models_registry as mr

    monkeypatch.setenv(mr.ENV_MODEL_DIR, str(tmp_path / "models"))
    mr.ModelRegistry().set_default("lexical")
    project = sialign.align(EXAMPLES / "talk.en.srt", EXAMPLES / "talk.ja.srt")
    assert project.alignment is not None and project.alignment.embedder == "use-multilingual"
    assert sialign.align(EXAMPLES / "talk.en.srt", EXAMPLES / "talk.ja.srt", model="lexical").alignment.embedder == "lexical"  # type: ignore[union-attr]


def test_api_corpus(corpus: Path, tmp_path: Path) -> None:
    report = sialign.align_corpus(corpus, tmp_path / "c", jobs=1)
    assert sorted(report.done) == ["example", "first", "second"]


def test_corpus_align_learned_writes_doubt(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "corpus"
    assert main(["corpus", "align", str(corpus), "-o", str(out), "-q", "--learned"]) == 1  # the broken talks
    project = load_project(out / "example.sialign")
    assert project.alignment is not None
    assert all(any(f.name == "doubt" for f in b.flags) for b in project.alignment.beads)
