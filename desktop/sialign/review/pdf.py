"""The review report as PDF, with fpdf2 and a CJK font found on the system.

fpdf2 is pure Python and embeds (a subset of) TrueType/OpenType fonts, so
Japanese and Chinese text print without Qt. The font is the first of
:data:`CJK_FONT_CANDIDATES` that exists (``$SIALIGN_CJK_FONT`` first);
DejaVu Sans, when present, covers Latin letters the CJK font lacks (Polish
ą, ę...). Charts are drawn with vector primitives (:mod:`sialign.review.charts`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from sialign.core.errors import SialignError
from sialign.review.charts import draw_chart_pdf
from sialign.review.figures import format_clock
from sialign.text.line_breaking import wrap_text

# (path, index of the face inside a .ttc collection: Noto's order is JP, KR, SC, TC, HK).
CJK_FONT_CANDIDATES: tuple[tuple[str, int], ...] = (
    ("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", 0),
    ("/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc", 0),
    ("/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc", 0),
    ("/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf", 0),
    ("/usr/share/fonts/truetype/ipaexfont-gothic/ipaexg.ttf", 0),
    ("/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf", 0),
    ("C:/Windows/Fonts/YuGothR.ttc", 0),
    ("C:/Windows/Fonts/msgothic.ttc", 0),
    ("/System/Library/Fonts/ヒラギノ角ゴシック W3.ttc", 0),
    ("/Library/Fonts/Arial Unicode.ttf", 0),
)
LATIN_FALLBACKS = ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "C:/Windows/Fonts/arial.ttf")
FONT_HINT = "install a CJK font (Debian/Ubuntu: sudo apt install fonts-noto-cjk) or set SIALIGN_CJK_FONT to a .ttf/.ttc/.otf file"

ROW_FILL = {"confirmed": (232, 245, 233), "dropped": (240, 240, 240), "flagged": (255, 243, 224)}


def find_cjk_font() -> tuple[str, int]:
    """(path, collection index) of a font that prints Japanese and Chinese.

    Raises:
        SialignError: none is installed (one line naming the package to install).
    """
    explicit = os.environ.get("SIALIGN_CJK_FONT")
    if explicit:
        if Path(explicit).is_file():
            return explicit, 0
        raise SialignError(f"{explicit}: SIALIGN_CJK_FONT names no file — {FONT_HINT}")
    for path, index in CJK_FONT_CANDIDATES:
        if Path(path).is_file():
            return path, index
    raise SialignError(f"no CJK font found for the PDF report (looked for Noto Sans CJK and IPAexGothic) — {FONT_HINT}")


def _bold_beside(path: str) -> str | None:
    candidate = path.replace("Regular", "Bold")
    return candidate if candidate != path and Path(candidate).is_file() else None


def new_pdf() -> Any:
    """An A4 ``fpdf.FPDF`` with the CJK font as ``"body"`` (regular and bold) and Latin fallback."""
    try:
        from fpdf import FPDF
    except ImportError as exc:  # pragma: no cover - a broken install
        raise SialignError("the PDF report needs the Python package fpdf2 (pip install fpdf2); HTML reports work without it") from exc
    import logging

    # fontTools reports every table it does not subset; nothing for the user.
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    logging.getLogger("fpdf").setLevel(logging.ERROR)
    path, index = find_cjk_font()
    pdf = FPDF(orientation="portrait", unit="mm", format="A4")
    pdf.set_auto_page_break(True, margin=14)
    pdf.set_margins(14, 14, 14)
    kwargs: dict[str, Any] = {"collection_font_number": index} if path.lower().endswith(".ttc") else {}
    pdf.add_font("body", "", path, **kwargs)
    pdf.add_font("body", "B", _bold_beside(path) or path, **kwargs)
    fallbacks = []
    for latin in LATIN_FALLBACKS:
        if Path(latin).is_file():
            pdf.add_font("latin", "", latin)
            pdf.add_font("latin", "B", latin)
            fallbacks.append("latin")
            break
    if fallbacks:
        pdf.set_fallback_fonts(fallbacks, exact_match=False)
    pdf.set_font("body", size=10)
    return pdf


def _heading(pdf: Any, text: str) -> None:
    pdf.ln(3)
    pdf.set_font("body", "B", 13)
    pdf.cell(0, 8, text, new_x="LMARGIN", new_y="NEXT")
    pdf.set_draw_color(200, 200, 200)
    pdf.line(pdf.l_margin, pdf.get_y(), pdf.w - pdf.r_margin, pdf.get_y())
    pdf.ln(1.5)
    pdf.set_font("body", "", 9)


def _table(pdf: Any, widths: tuple[float, ...], head: tuple[str, ...], rows: list[tuple[list[str], str | None]]) -> None:
    """A table with wrapped cells; each row is (cells, fill class or None)."""
    from fpdf.fonts import FontFace

    pdf.set_font("body", "", 8)
    pdf.set_draw_color(210, 210, 210)
    padding = 0.8
    # fpdf2 breaks Japanese anywhere (a line may start with 。): cells are
    # wrapped here with the Japanese rules, to widths fpdf2 will not re-break.
    text_widths = [pdf.epw * w / sum(widths) - 2 * padding - 2 * pdf.c_margin - 0.2 for w in widths]
    with pdf.table(col_widths=widths, text_align="LEFT", line_height=4.2, padding=padding,
                   headings_style=FontFace(emphasis="BOLD", fill_color=(243, 243, 243))) as table:
        row = table.row()
        for title in head:
            row.cell(title)
        for cells, fill in rows:
            row = table.row(style=FontFace(fill_color=ROW_FILL.get(fill or "", (255, 255, 255))))
            for text, width in zip(cells, text_widths):
                row.cell(wrap_text(text, width, pdf.get_string_width))
    pdf.set_font("body", "", 9)


def _target_text(row: dict[str, Any]) -> str:
    text = row["target"]
    if row["trimmed"]:
        text += f"  [trimmed: {row['trimmed']}]"
    if row["post_edit"] is not None:
        text += f"\npost-edit: {row['post_edit']}"
    if row["note"]:
        text += f"\nnote: {row['note']}"
    return text


_VERDICT_FILL = {"rendered as expected": "confirmed", "rendered otherwise": "flagged", "not rendered": "dropped"}


def _terms_section(pdf: Any, check: Any) -> None:
    """The glossary check (:class:`sialign.review.terms.TermCheck`): summary, matching method, one row per occurrence."""
    _heading(pdf, f"Terms ({Path(check.glossary).name})")
    pdf.set_font("body", "", 8)
    pdf.multi_cell(0, 4, f"{check.summary()}. Source terms matched by {check.matching}; what the interpreter said is read "
                   f"from the word links ({check.aligner}). Green: as expected; orange: otherwise; grey: not rendered.",
                   new_x="LMARGIN", new_y="NEXT")
    if check.hits:
        rows: list[tuple[list[str], str | None]] = [([str(h.bead + 1), format_clock(h.time) if h.time is not None else "—", h.found, h.verdict,
                  (h.said + f" ({h.note})" if h.note else h.said).strip(), " / ".join(h.accepted)], _VERDICT_FILL[h.verdict]) for h in check.hits]
        _table(pdf, (10, 12, 40, 32, 46, 40), ("Bead", "Time", "Term", "Verdict", "What was said", "Accepted"), rows)
    if check.missing:
        pdf.multi_cell(0, 5, "Never in the source: " + ", ".join(check.missing), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("body", "", 9)


def report_pdf_bytes(report: Any) -> bytes:
    """The report (:class:`sialign.review.report.Report`) as PDF bytes."""
    pdf = new_pdf()
    pdf.set_title(report.title)
    pdf.set_creator("SI Aligner")
    pdf.add_page()
    pdf.set_font("body", "B", 16)
    pdf.multi_cell(0, 8, report.title, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(1)
    pdf.set_font("body", "", 9)
    for label, value in report.header:
        pdf.set_text_color(90, 90, 90)
        pdf.cell(38, 5, label)
        pdf.set_text_color(0, 0, 0)
        pdf.multi_cell(0, 5, wrap_text(value, pdf.w - pdf.r_margin - pdf.get_x() - 2 * pdf.c_margin - 0.2, pdf.get_string_width),
                       new_x="LMARGIN", new_y="NEXT")
    # What was left out comes first: it is what a trainer reads first.
    _heading(pdf, f"Omissions ({len(report.omissions)})")
    if report.omissions:
        _table(pdf, (18, 11, 60, 42, 42, 10), ("Sentence", "at", "Source sentence not interpreted", "Rendition before",
                                              "Rendition after", "Bead"),
               [([str(r["sentence"]), format_clock(r["src_start"]), r["source"], r["before"], r["after"], str(r["index"])], None)
                for r in report.omissions])
    else:
        pdf.cell(0, 5, "None: every sentence was rendered.", new_x="LMARGIN", new_y="NEXT")
    _heading(pdf, "Summary")
    _table(pdf, (40, 30, 110), ("Figure", "Value", "What it means"),
           [([f.label, f.text, f.explanation], None) for f in report.summary])
    _heading(pdf, "Over the talk")
    pdf.set_font("body", "", 8)
    pdf.multi_cell(0, 4, "Each dot is one rendition: when the speaker started the sentence and how many seconds later you "
                   "started interpreting it. The grey line is your median lag, the blue band the middle half of your lags; "
                   "red dots are unusual lags, red dashed lines sentences left out.", new_x="LMARGIN", new_y="NEXT")
    for chart in report.charts:
        height = 62.0
        if pdf.get_y() + height > pdf.h - pdf.b_margin:
            pdf.add_page()
        draw_chart_pdf(pdf, chart, pdf.l_margin, pdf.get_y() + 1, pdf.w - pdf.l_margin - pdf.r_margin, height)
        pdf.set_y(pdf.get_y() + height + 3)
        pdf.set_fill_color(255, 255, 255)
        pdf.set_draw_color(0, 0, 0)
        pdf.set_font("body", "", 9)
    _heading(pdf, f"Additions ({len(report.additions)})")
    if report.additions:
        _table(pdf, (18, 14, 138, 12), ("Sentence", "at", "Interpretation without a source", "Bead"),
               [(["—", format_clock(r["tgt_start"]), r["target"], str(r["index"])], None) for r in report.additions])
    else:
        pdf.cell(0, 5, "None.", new_x="LMARGIN", new_y="NEXT")
    for title, items in (("Flagged beads", report.flagged), ("Other dropped pairings", report.dropped_pairs)):
        _heading(pdf, f"{title} ({len(items)})")
        if items:
            _table(pdf, (10, 55, 55, 60), ("Bead", "Source", "Interpretation", "Why"),
                   [([str(r["index"]), r["source"], _target_text(r), "\n".join(reasons)], None) for r, reasons in items])
        else:
            pdf.cell(0, 5, "None.", new_x="LMARGIN", new_y="NEXT")
    if report.terms is not None:
        _terms_section(pdf, report.terms)
    _heading(pdf, "The whole talk")
    pdf.set_font("body", "", 8)
    pdf.multi_cell(0, 4, "Green rows: confirmed by the reviewer; orange: flagged by a check; grey: dropped.",
                   new_x="LMARGIN", new_y="NEXT")
    rows = []
    for r in report.table:
        status = r["status"] + (("\n" + ", ".join(r["flags"])) if r["flags"] else "")
        fill = "dropped" if r["status"] == "dropped" else "confirmed" if r["status"] == "confirmed" else "flagged" if r["flags"] else None
        lag = "—" if r["lag"] is None else f"{r['lag']:.1f} s"
        when = format_clock(r["src_start"] if r["src_start"] is not None else r["tgt_start"])
        rows.append(([str(r["index"]), when, r["source"], _target_text(r), lag, status], fill))
    _table(pdf, (9, 12, 64, 64, 12, 21), ("Bead", "Time", "Source", "Interpretation", "Lag", "Status"), rows)
    return bytes(pdf.output())


def write_report_pdf(report: Any, path: str | Path) -> None:
    """Write :func:`report_pdf_bytes` to ``path`` atomically."""
    from sialign.core.atomic import atomic_write_bytes

    atomic_write_bytes(path, report_pdf_bytes(report))
