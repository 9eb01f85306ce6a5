"""One rule tells every output file's format from its name (sialign.io.output_formats)."""

from __future__ import annotations

import pytest

from sialign.core.errors import OutputNameError
from sialign.io.export_formats import ALIGNMENT_FILES
from sialign.io.writers import TRANSCRIPT_FILES
from sialign.review.compare import COMPARE_FILES
from sialign.review.report import REPORT_FILES
from sialign.review.tags import TAG_FILES
from sialign.review.terms import TERMS_FILES


@pytest.mark.parametrize(
    ("kind", "name", "expected"),
    [(REPORT_FILES, "r.HTM", "html"), (REPORT_FILES, "r.pdf", "pdf"), (COMPARE_FILES, "c.tab", "tsv"),
     (TERMS_FILES, "t.txt", "tsv"), (TERMS_FILES, "t.JSON", "json"), (TAG_FILES, "t.eaf", "eaf"),
     (TRANSCRIPT_FILES, "talk.textgrid", "textgrid"), (ALIGNMENT_FILES, "a.TextGrid", "textgrid"), (ALIGNMENT_FILES, "a.jsonl", "jsonl")],
)
def test_output_formats_read_the_extension_without_case(kind, name: str, expected: str) -> None:
    assert kind.format_of(name) == expected


def test_output_formats_refuse_a_name_in_one_line_naming_each_format_once() -> None:
    with pytest.raises(OutputNameError) as report:
        REPORT_FILES.format_of("out/r.md")
    assert str(report.value) == "out/r.md: a report is written as .html or .pdf — name the output file report.html or report.pdf"
    with pytest.raises(OutputNameError, match=r"projected tags are written as \.srt, \.vtt, \.jsonl or \.eaf — name the output file accordingly$"):
        TAG_FILES.format_of("t.docx")
    with pytest.raises(OutputNameError, match=r"\.TextGrid or \.eaf — name the output file accordingly, or choose a format$"):
        ALIGNMENT_FILES.format_of("a.docx")
    assert ALIGNMENT_FILES.format_or_none("a.srt") is None  # a subtitle names no side: not a format alone
