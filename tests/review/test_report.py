"""The review report: HTML, PDF and ``sialign report``."""

from __future__ import annotations

import datetime as dt
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from example_renditions import example_rendition

from sialign.core.model import BeadStatus, Flag
from sialign.review.report import build_report, report_html, write_report


def _reviewed_example():  # type: ignore[no-untyped-def]
    project = example_rendition(1)
    beads = project.alignment.beads
    beads[3].status = BeadStatus.CONFIRMED
    beads[4].note = "good chunking"
    beads[5].post_edit = "これは生きているから、毎日餌をあげなければならないと言われました。"
    beads[22].flags = [Flag("under_translation", None, None, "Possible under-translation: it is 40% as long as the reference")]
    beads[8].status = BeadStatus.DROPPED
    beads[8].reason = "filter: meaning far from the reference"
    return project


def test_report_lists_and_header() -> None:
    report = build_report(_reviewed_example(), today=dt.date(2026, 2, 3))
    header = dict(report.header)
    assert header["Interpreter"] == "I1 (rank: 1)" and header["Languages"] == "en → ja"
    assert header["Aligned / reported"] == "2026-01-01 / 2026-02-03"
    assert [r["source"] for r in report.omissions] == ["And the weekend after that.", "Some experiments failed, and that was fine."]
    assert report.additions == []
    flagged = {row["index"]: reasons for row, reasons in report.flagged}
    dropped = {row["index"]: reasons for row, reasons in report.dropped_pairs}
    assert set(flagged) == {23} and set(dropped) == {9}
    assert "under_translation" in flagged[23][0] and "dropped: filter" in dropped[9][0]
    assert len(report.table) == 34 and len(report.charts) == 2


def test_report_html_is_self_contained() -> None:
    html = report_html(build_report(_reviewed_example()))
    assert html.count("<svg") == 2
    assert not re.search(r"""(src|href)=["']?(https?:|//)""", html)
    assert "<script" not in html
    # 11 and 29 omitted (1-0), bead 9 dropped: none of the three is covered.
    for text in ("Coverage", "91% (32 of 35)", "Share of the speaker", "good chunking", "post-edit: これは生きているから",
                 "And the weekend after that.", 'class="confirmed"', 'class="dropped"', "Ear-voice span over the talk"):
        assert text in html, text


def test_report_without_alignment_is_a_one_line_error(tmp_path: Path) -> None:
    from sialign.core.errors import SialignError

    project = example_rendition(1)
    project.alignment = None
    with pytest.raises(SialignError, match="align it first"):
        write_report(project, tmp_path / "r.html")


def _need_pdf_with_cjk_font() -> None:
    """Skip the test unless fpdf2 and a CJK font for the PDF report are installed."""
    pytest.importorskip("fpdf")
    from sialign.review.pdf import find_cjk_font

    try:
        find_cjk_font()
    except Exception:
        pytest.skip("no CJK font installed")


def test_report_pdf_embeds_a_cjk_font(tmp_path: Path) -> None:
    _need_pdf_with_cjk_font()
    out = tmp_path / "report.pdf"
    write_report(_reviewed_example(), out)
    data = out.read_bytes()
    assert data.startswith(b"%PDF") and b"/FontFile" in data
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True, check=True).stdout
        assert "これは生きているから" in text.replace("\n", "") and "Coverage" in text


def test_report_pdf_breaks_japanese_lines_by_the_rules(tmp_path: Path) -> None:
    """No line of the PDF starts with 、。」 or a closing bracket (fpdf2 alone broke bead 27 before its 。)."""
    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext (poppler-utils) is not installed")
    _need_pdf_with_cjk_font()
    from sialign.text.line_breaking import NO_LINE_START

    out = tmp_path / "report.pdf"
    write_report(example_rendition(1), out)
    lines = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True, check=True).stdout.splitlines()
    japanese = [line for line in lines if re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", line)]
    assert len(japanese) > 40
    assert [line for line in lines if line[:1] in NO_LINE_START and line[:1] not in ".,:;?!)]}%"] == []
    assert any(line.endswith("お越しいただ") for line in lines)  # き moved down with 、


def test_report_pdf_names_the_font_to_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from sialign.core.errors import SialignError
    from sialign.review import pdf

    monkeypatch.setattr(pdf, "CJK_FONT_CANDIDATES", (("/nonexistent/font.ttc", 0),))
    monkeypatch.delenv("SIALIGN_CJK_FONT", raising=False)
    with pytest.raises(SialignError, match="fonts-noto-cjk"):
        pdf.find_cjk_font()


def test_cmd_report_writes_html_and_rejects_other_formats(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from sialign.cli.main import main
    from sialign.io.project_file import save_project

    save_project(_reviewed_example(), tmp_path / "talk.sialign")
    assert main(["report", str(tmp_path / "talk.sialign"), "-o", str(tmp_path / "r.html"), "--rank", "B"]) == 0
    assert "coverage 91% (32 of 35)" in capsys.readouterr().err
    assert "I1 (rank: B)" in (tmp_path / "r.html").read_text(encoding="utf-8")
    assert main(["report", str(tmp_path / "talk.sialign"), "-o", str(tmp_path / "r.docx")]) == 64  # a usage error
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and ".html or .pdf" in err


def test_report_omissions_name_their_sentence() -> None:
    report = build_report(_reviewed_example())
    assert [(r["sentence"], r["index"]) for r in report.omissions] == [(11, 11), (29, 28)]
    assert '<td class="num">29</td><td class="num">2:12</td><td>Some experiments failed' in report_html(report)


def test_report_says_a_machine_transcript_is_not_corrected() -> None:
    project = _reviewed_example()
    assert "Source transcript" not in dict(build_report(project).header)
    project.metadata["source_transcript"] = "machine transcript (Whisper tiny.en), not corrected"
    report = build_report(project)
    header = dict(report.header)
    assert header["Source transcript"] == "machine transcript (Whisper tiny.en), not corrected"
    assert "Interpretation transcript" not in header
    assert "machine transcript (Whisper tiny.en), not corrected" in report_html(report)


def test_a_practice_sessions_report_says_its_transcript_is_a_machines() -> None:
    """Practice sessions once wrote ``target_transcript``, which the report did not read: one key now, the old one read."""
    from sialign.core.model import mark_machine_transcript

    project = _reviewed_example()
    project.metadata["target_transcript"] = "machine transcript, not corrected"  # a session saved before
    assert dict(build_report(project).header)["Interpretation transcript"] == "machine transcript, not corrected"
    del project.metadata["target_transcript"]
    mark_machine_transcript(project.metadata, "tgt", "whisper-base")
    assert project.metadata == {**project.metadata, "interpretation_transcript": "machine transcript (Whisper whisper-base), not corrected"}
    assert dict(build_report(project).header)["Interpretation transcript"].startswith("machine transcript (Whisper whisper-base)")
