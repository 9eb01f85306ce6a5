"""A manifest proposed from a folder of transcripts: file names paired into talks, saved as the TSV corpus align reads."""

from __future__ import annotations

import shutil
from dataclasses import fields
from pathlib import Path

from sialign.corpus.manifest import OPTIONAL, REQUIRED, read_manifest
from sialign.corpus.propose import COLUMNS, ProposedTalk, languages_in, propose_manifest, write_manifest

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


def _touch(folder: Path, *names: str) -> None:
    for name in names:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text("x\n", encoding="utf-8")


def test_propose_columns_are_manifest_columns() -> None:
    assert set(COLUMNS) == {f.name for f in fields(ProposedTalk)}
    assert set(REQUIRED) <= set(COLUMNS) and set(COLUMNS) - set(REQUIRED) <= set(OPTIONAL)


def test_propose_pairs_language_named_files_with_reference_and_audio(tmp_path: Path) -> None:
    _touch(tmp_path, "ted_42.en.srt", "ted_42.ja.srt", "ted_42.ref.ja.txt", "ted_42.en.ogg", "ted_42.ja.wav",
           "ted_7.en.srt", "ted_7.ja.srt", "lonely.en.srt", "notes.txt")
    assert languages_in(tmp_path) == ["en", "ja"]
    rows = propose_manifest(tmp_path)
    assert [r.talk for r in rows] == ["ted_42", "ted_7"]  # a file without its pair is no talk
    first = rows[0]
    assert (first.source, first.target, first.reference) == ("ted_42.en.srt", "ted_42.ja.srt", "ted_42.ref.ja.txt")
    assert (first.source_audio, first.target_audio, first.src_lang, first.tgt_lang) == ("ted_42.en.ogg", "ted_42.ja.wav", "en", "ja")
    swapped = propose_manifest(tmp_path, source_language="ja")
    assert (swapped[0].source, swapped[0].target) == ("ted_42.ja.srt", "ted_42.en.srt")


def test_propose_takes_one_folder_per_talk_named_after_the_folder(tmp_path: Path) -> None:
    _touch(tmp_path, "speech_01/src.txt", "speech_01/tgt.txt", "speech_01/src.mp3", "speech_02/source.tsv",
           "speech_02/target.tsv", "speech_02/ref.txt", "empty/src.txt")
    rows = propose_manifest(tmp_path)
    assert [(r.talk, r.source, r.target, r.reference, r.source_audio) for r in rows] == [
        ("speech_01", "speech_01/src.txt", "speech_01/tgt.txt", "", "speech_01/src.mp3"),
        ("speech_02", "speech_02/source.tsv", "speech_02/target.tsv", "speech_02/ref.txt", ""),
    ]


def test_a_saved_proposal_is_a_manifest_corpus_align_reads(tmp_path: Path) -> None:
    for name in ("talk.en.srt", "talk.ja.srt", "talk.ref.ja.txt", "talk.en.ogg"):
        shutil.copy(EXAMPLES / name, tmp_path / name)
    rows = [r.row() for r in propose_manifest(tmp_path)]
    rows[0][COLUMNS.index("interpreter")] = "I-03"  # edited in the table
    path = write_manifest(rows, tmp_path / "manifest.tsv")
    header = path.read_text(encoding="utf-8").splitlines()[0].split("\t")
    assert "target_audio" not in header  # a column empty in every row is left out
    (spec,) = read_manifest(path)
    assert spec.talk == "talk" and spec.source == tmp_path / "talk.en.srt" and spec.reference == tmp_path / "talk.ref.ja.txt"
    assert spec.interpreter == "I-03" and spec.src_lang == "en" and spec.tgt_lang == "ja"
