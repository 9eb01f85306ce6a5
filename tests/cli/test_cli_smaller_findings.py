"""The data-safety issue's smaller findings, each as it was reported: one clear line, the right exit status."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from sialign.cli.main import EXIT_INPUT, EXIT_USAGE, main
from sialign.core.errors import OutputError
from sialign.core.model import Document, Project
from sialign.io.project_file import save_autosave

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


def _one_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    return err


@pytest.fixture
def project(tmp_path: Path) -> Path:
    out = tmp_path / "p.sialign"
    assert main(["align", str(EXAMPLES / "talk.en.srt"), str(EXAMPLES / "talk.ja.srt"), "--model", "lexical", "-q", "-o", str(out)]) == 0
    return out


def test_a_project_given_for_a_transcript_is_named_a_project(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["info", str(project)]) == EXIT_INPUT
    assert "is an SI Aligner project, not a transcript" in _one_line(capsys)
    renamed = project.with_name("p.txt")  # by its content, whatever its name
    shutil.copy(project, renamed)
    assert main(["align", str(renamed), str(EXAMPLES / "talk.ja.srt"), "--model", "lexical", "-o", str(project.with_suffix(".tsv"))]) == EXIT_INPUT
    err = _one_line(capsys)
    assert "project, not a transcript" in err and "sialign export" in err


def test_a_data_folder_that_is_a_file_does_not_stop_a_named_save(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x", encoding="utf-8")
    monkeypatch.setenv("SIALIGN_DATA_DIR", str(blocker))
    monkeypatch.delenv("SIALIGN_AUTOSAVE_DIR", raising=False)
    out = tmp_path / "t.sialign"
    assert main(["align", str(EXAMPLES / "talk.en.srt"), str(EXAMPLES / "talk.ja.srt"), "--model", "lexical", "-q", "-o", str(out)]) == 0
    # A command's save never touches the app's autosave folder, so it has nothing to say about it.
    assert out.exists() and capsys.readouterr().err == ""
    # An unsaved talk's autosave cannot go there: the error names the setting to fix.
    talk = Project(talk_id="t", source=Document.from_texts(["Hello."], "en"), target=Document.from_texts(["今日は。"], "ja"))
    with pytest.raises(OutputError, match="point SIALIGN_DATA_DIR to a folder"):
        save_autosave(talk)


@pytest.mark.parametrize(
    "argv",
    [
        ["align", "{src}", "{tgt}", "--model", "lexical", "-o", "{out}/o.docx"],
        ["report", "{p}", "-o", "{out}/x.md"],
        ["terms", "{p}", str(EXAMPLES / "talk.glossary.tsv"), "-o", "{out}/t.xlsx"],
        ["export", "{p}", "-o", "{out}/x.docx"],
        ["convert", "{src}", "{out}/x.docx"],
    ],
    ids=lambda a: f"{a[0]} {a[-1].rsplit('.', 1)[-1]}",
)
def test_an_output_name_that_says_no_format_is_a_usage_error(argv: list[str], project: Path, tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    filled = [a.format(src=EXAMPLES / "talk.en.srt", tgt=EXAMPLES / "talk.ja.srt", p=project, out=tmp_path) for a in argv]
    assert main(filled) == EXIT_USAGE
    assert not list(tmp_path.glob("*.docx")) + list(tmp_path.glob("*.md")) + list(tmp_path.glob("*.xlsx"))


def test_corpus_align_into_a_file_says_choose_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    manifest = tmp_path / "m.tsv"
    manifest.write_text(f"talk\tsource\ttarget\nt1\t{EXAMPLES / 'talk.en.srt'}\t{EXAMPLES / 'talk.ja.srt'}\n", encoding="utf-8")
    blocker = tmp_path / "corpus.txt"
    blocker.write_text("x", encoding="utf-8")
    for out in (blocker, blocker / "sub"):
        assert main(["corpus", "align", str(manifest), "-o", str(out), "--model", "lexical", "-q"]) == EXIT_INPUT
        err = _one_line(capsys)
        assert "is a file, not a folder" in err and "choose a folder" in err
    assert blocker.read_text(encoding="utf-8") == "x"


def test_the_overlap_error_says_what_to_do_in_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    srt = tmp_path / "o.srt"
    srt.write_text("1\n00:00:01,000 --> 00:00:03,000\nOne.\n\n2\n00:00:02,000 --> 00:00:04,000\nTwo.\n", encoding="utf-8")
    assert main(["info", str(srt)]) == EXIT_INPUT
    err = _one_line(capsys)
    assert "strict=False" not in err and "--allow-overlaps" in err and "caption 2" in err


def test_an_eaf_annotation_without_a_time_slot_is_named_with_a_fix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    eaf = tmp_path / "x.eaf"
    eaf.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<ANNOTATION_DOCUMENT><HEADER/><TIME_ORDER>'
        '<TIME_SLOT TIME_SLOT_ID="ts1" TIME_VALUE="0"/><TIME_SLOT TIME_SLOT_ID="ts2" TIME_VALUE="1000"/></TIME_ORDER>\n'
        '<TIER TIER_ID="t"><ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="a1" TIME_SLOT_REF1="ts1">'
        "<ANNOTATION_VALUE>Hi.</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION></TIER></ANNOTATION_DOCUMENT>\n",
        encoding="utf-8",
    )
    assert main(["info", str(eaf)]) == EXIT_INPUT
    err = _one_line(capsys)
    assert "None" not in err and "TIME_SLOT_REF2 is missing" in err and "ELAN" in err


def test_the_mixed_encoding_warning_is_said_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mixed = tmp_path / "mixed.txt"
    mixed.write_bytes("Café ok.\n".encode() + b"na\xefve line.\n")
    assert main(["info", str(mixed)]) == 0
    err = capsys.readouterr().err
    assert err.count("mixed encodings") == 1 and "--encoding" in err
