"""The review report of one rendition: data, self-contained HTML, and PDF.

:func:`build_report` gathers everything a trainer hands a trainee (header,
summary figures with explanations, two charts, omissions and additions,
flagged beads with reasons, the whole bilingual table); :func:`report_html`
and :func:`write_pdf` (:mod:`sialign.review.pdf`) lay it out. Qt-free: the
CLI and the app's *Export report…* call the same functions.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sialign.core.errors import SialignError
from sialign.core.model import Project, machine_transcript_note
from sialign.core.plurals import count_noun
from sialign.io.output_formats import OutputFormats
from sialign.review.charts import Chart, chart_svg, coverage_chart, evs_chart
from sialign.review.figures import Figure, RenditionFigures, bead_row, format_clock, rendition_figures

if TYPE_CHECKING:
    from sialign.review.terms import TermCheck

REPORT_FORMATS = ("html", "pdf")


@dataclass
class Report:
    """What a report shows, independent of the output format.

    Attributes:
        title: ``"Review report — <talk>"``.
        header: (label, value) pairs: talk, languages, interpreter, rank, durations, embedder, dates.
        figures: the rendition's figures (numbers and curves).
        summary: :meth:`RenditionFigures.summary`.
        charts: the EVS chart and the coverage chart.
        omissions / additions: rows of :func:`bead_row` for 1-0 and 0-1 beads.
        flagged: (row, reasons) for every flagged bead (a check failed on it).
        dropped_pairs: (row, reasons) for the other beads dropped with both sides (reviewer, cost).
        table: one :func:`bead_row` per bead, in order.
        terms: the glossary check (:func:`sialign.review.terms.check_terms`), when a glossary was given.
    """

    title: str
    header: list[tuple[str, str]]
    figures: RenditionFigures
    summary: list[Figure]
    charts: list[Chart]
    omissions: list[dict[str, Any]] = field(default_factory=list)
    additions: list[dict[str, Any]] = field(default_factory=list)
    flagged: list[tuple[dict[str, Any], tuple[str, ...]]] = field(default_factory=list)
    dropped_pairs: list[tuple[dict[str, Any], tuple[str, ...]]] = field(default_factory=list)
    table: list[dict[str, Any]] = field(default_factory=list)
    terms: TermCheck | None = None


def build_report(project: Project, *, today: _dt.date | None = None, terms: TermCheck | None = None) -> Report:
    """Collect the report of ``project`` (with a terms section when ``terms`` is given).

    Raises:
        SialignError: the project has no alignment yet (with what to do).
    """
    if project.alignment is None or not project.alignment.beads:
        where = f"{project.path}: " if project.path else ""
        raise SialignError(f"{where}the project has no alignment yet — align it first", settings=("align",))
    fig = rendition_figures(project)
    beads = project.alignment.beads
    omission_starts = [project.source.get(beads[k].src[0]).start for k in fig.omissions]
    charts = [evs_chart(fig, omission_starts), coverage_chart(fig)] if len(fig.evs) else [coverage_chart(fig)]
    table = [bead_row(project, k) for k in range(len(beads))]
    date = (today or _dt.date.today()).isoformat()
    created = fig.created[:10] if fig.created else "—"
    rank = fig.rank or "not given"
    header = [
        ("Talk", fig.talk),
        ("Languages", f"{fig.src_lang} → {fig.tgt_lang}"),
        ("Interpreter", f"{fig.interpreter} (rank: {rank})"),
        ("Duration", f"speech {format_clock(fig.src_duration)}, interpretation {format_clock(fig.tgt_duration)}"),
        ("Size", f"{count_noun(fig.n_sentences, 'source sentence')}, {count_noun(fig.n_chunks, 'interpretation chunk')}, {count_noun(fig.n_beads, 'bead')}"),
        ("Reference", "written reference translation" if project.reference is not None else "none"),
        ("Embedder", fig.embedder or "—"),
        ("Aligned / reported", f"{created} / {date}"),
    ]
    # A transcript made by a speech model (New talk → Transcribe…) says so: its errors are not the interpreter's.
    for side, label in (("src", "Source transcript"), ("tgt", "Interpretation transcript")):
        if note := machine_transcript_note(project.metadata, side):
            header.insert(6, (label, note))
    return Report(
        title=f"Review report — {fig.talk}",
        header=header,
        figures=fig,
        summary=fig.summary(),
        charts=charts,
        omissions=[{**table[k], **neighbour_renditions(beads, table, k)} for k in fig.omissions],
        additions=[table[k] for k in fig.additions],
        flagged=[(table[f.bead], f.reasons) for f in fig.flagged],
        dropped_pairs=[(table[f.bead], f.reasons) for f in fig.dropped_pairs],
        table=table,
        terms=terms,
    )


def neighbour_renditions(beads: list[Any], table: list[dict[str, Any]], k: int) -> dict[str, str]:
    """``before`` / ``after``: the renditions of the nearest beads before and after bead ``k`` ("" at the ends).

    What a trainer reads beside a sentence left out: where the interpreter was just before and just after it.
    """
    found: dict[str, str] = {"before": "", "after": ""}
    for key, order in (("before", range(k - 1, -1, -1)), ("after", range(k + 1, len(beads)))):
        for q in order:
            if beads[q].src and beads[q].tgt:
                found[key] = str(table[q]["target"])
                break
    return found


# ---- HTML -----------------------------------------------------------------
_CSS = """
body{font-family:"Noto Sans CJK JP","Noto Sans JP","IPAexGothic","Hiragino Sans","Yu Gothic UI",Meiryo,sans-serif;
 margin:24px auto;max-width:1000px;color:#222;line-height:1.4}
h1{font-size:22px;margin-bottom:4px} h2{font-size:17px;border-bottom:1px solid #ccc;margin-top:28px}
table{border-collapse:collapse;width:100%;font-size:13px} td,th{border:1px solid #ddd;padding:3px 6px;vertical-align:top;text-align:left}
th{background:#f3f3f3} .num{text-align:right;white-space:nowrap} .expl{color:#555}
table.header td:first-child{width:160px;color:#555} .summary td:nth-child(2){font-weight:bold;white-space:nowrap}
tr.confirmed td{background:#e8f5e9} tr.dropped td{color:#888;background:#f4f4f4} tr.flagged td{background:#fff3e0}
.note{color:#1a5fb4} .pe{color:#26a269} .trim{color:#999;text-decoration:line-through}
.legend span{display:inline-block;padding:0 6px;margin-right:6px;border:1px solid #ddd}
@media print{body{margin:0;max-width:none} h2{page-break-after:avoid} tr{page-break-inside:avoid}}
"""


def _e(value: object) -> str:
    return escape("" if value is None else str(value))


def _lag(row: dict[str, Any]) -> str:
    return "—" if row["lag"] is None else f"{row['lag']:.1f} s"


def _row_class(row: dict[str, Any]) -> str:
    if row["status"] == "dropped":
        return "dropped"
    if row["status"] == "confirmed":
        return "confirmed"
    return "flagged" if row["flags"] else "auto"


def _target_cell(row: dict[str, Any]) -> str:
    out = _e(row["target"])
    if row["trimmed"]:
        out += f' <span class="trim" title="trimmed filler">{_e(row["trimmed"])}</span>'
    if row["post_edit"] is not None:
        out += f'<div class="pe">post-edit: {_e(row["post_edit"])}</div>'
    return out


def report_html(report: Report, *, chart_markup: Callable[[int, Chart], str] | None = None, max_rows: int | None = None) -> str:
    """The report as one self-contained HTML page (inline CSS and SVG, nothing fetched).

    Args:
        report: from :func:`build_report`.
        chart_markup: how to show chart ``i`` (default: inline SVG); the
            app's preview passes image references it has rendered.
        max_rows: show at most this many rows of each list and of the
            bilingual table (the preview of a long talk), with a line saying
            how many are left out.
    """
    p: list[str] = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
                    f"<title>{_e(report.title)}</title><style>{_CSS}</style></head><body>",
                    f"<h1>{_e(report.title)}</h1>", '<table class="header">']
    p.extend(f"<tr><td>{_e(k)}</td><td>{_e(v)}</td></tr>" for k, v in report.header)

    def cut(items: list[Any]) -> list[Any]:
        return items if max_rows is None else items[:max_rows]

    def more(items: list[Any]) -> str:
        left = len(items) - len(cut(items))
        return f"<p>… and {left} more in the saved report.</p>" if left else ""

    # What was left out comes first: it is what a trainer reads first.
    p.append(f"</table><h2>Omissions ({len(report.omissions)})</h2>")
    p.append(_omission_table(cut(report.omissions)) + more(report.omissions))
    p.append("<h2>Summary</h2><table class=\"summary\">")
    p.extend(f'<tr><td>{_e(f.label)}</td><td>{_e(f.text)}</td><td class="expl">{_e(f.explanation)}</td></tr>' for f in report.summary)
    p.append("</table><h2>Over the talk</h2>")
    p.append('<p class="expl">Each dot is one rendition: when the speaker started the sentence, and how many seconds later '
             "you started interpreting it. The grey line is your median lag, the blue band the middle half of your lags; "
             "red dots are unusual lags, red dashed lines sentences left out.</p>")
    markup = chart_markup or (lambda _i, c: chart_svg(c))
    p.extend(f"<div>{markup(i, c)}</div>" for i, c in enumerate(report.charts))

    p.append(f"<h2>Additions ({len(report.additions)})</h2>")
    p.append(_simple_table(cut(report.additions), "target", "Interpretation without a source", "tgt_start", "at") + more(report.additions))
    for title, items, explanation in (
        ("Flagged beads", report.flagged, "A check failed on these beads."),
        ("Other dropped pairings", report.dropped_pairs, "Dropped by the reviewer or for their cost, with no failed check."),
    ):
        p.append(f"<h2>{title} ({len(items)})</h2>")
        if not items:
            p.append("<p>None.</p>")
            continue
        p.append(f'<p class="expl">{explanation}</p>')
        p.append("<table><tr><th>Bead</th><th>Source</th><th>Interpretation</th><th>Why</th></tr>")
        for row, reasons in cut(items):
            why = "<br>".join(_e(r) for r in reasons)
            p.append(f'<tr><td class="num">{row["index"]}</td><td>{_e(row["source"])}</td><td>{_target_cell(row)}</td><td>{why}</td></tr>')
        p.append("</table>" + more(items))
    if report.terms is not None:
        p.append(terms_html(report.terms, cut))
    p.append("<h2>The whole talk</h2>")
    p.append('<p class="legend"><span style="background:#e8f5e9">confirmed</span><span style="background:#fff3e0">flagged</span>'
             '<span style="background:#f4f4f4;color:#888">dropped</span><span>not reviewed</span>'
             '<span class="trim">trimmed filler</span><span class="pe">post-edit</span><span class="note">note</span></p>')
    p.append("<table><tr><th>Bead</th><th>Time</th><th>Source</th><th>Interpretation</th><th>Lag</th><th>Status</th></tr>")
    rows = report.table if max_rows is None else report.table[:max_rows]
    for row in rows:
        status = _e(row["status"]) + (f"<br>{_e(', '.join(row['flags']))}" if row["flags"] else "")
        if row["reason"]:
            status += f'<br><span class="expl">{_e(row["reason"])}</span>'
        note = f'<div class="note">note: {_e(row["note"])}</div>' if row["note"] else ""
        p.append(f'<tr class="{_row_class(row)}"><td class="num">{row["index"]}</td>'
                 f'<td class="num">{format_clock(row["src_start"] if row["src_start"] is not None else row["tgt_start"])}</td>'
                 f'<td>{_e(row["source"])}</td><td>{_target_cell(row)}{note}</td>'
                 f'<td class="num">{_lag(row)}</td><td>{status}</td></tr>')
    p.append("</table>")
    if len(rows) < len(report.table):
        p.append(f"<p>… and {len(report.table) - len(rows)} more beads in the saved report.</p>")
    p.append("</body></html>")
    return "\n".join(p)


_VERDICT_CLASS = {"rendered as expected": "confirmed", "rendered otherwise": "flagged", "not rendered": "dropped"}


def terms_html(check: TermCheck, cut: Callable[[list[Any]], list[Any]] = lambda items: items) -> str:
    """The report's terms section: a summary line, how terms were matched, and one row per occurrence."""
    from pathlib import Path as _Path

    out = [f"<h2>Terms ({_e(_Path(check.glossary).name)})</h2>",
           f"<p>{_e(check.summary())}.</p>",
           f'<p class="expl">Source terms matched by {_e(check.matching)}; what the interpreter said is read from the '
           f"word links ({_e(check.aligner)}).</p>"]
    if check.hits:
        out.append("<table><tr><th>Bead</th><th>Time</th><th>Term</th><th>Verdict</th><th>What was said</th><th>Accepted</th></tr>")
        for h in cut(check.hits):
            said = _e(h.said) + (f' <span class="expl">({_e(h.note)})</span>' if h.note else "")
            out.append(f'<tr class="{_VERDICT_CLASS[h.verdict]}"><td class="num">{h.bead + 1}</td>'
                       f'<td class="num">{format_clock(h.time) if h.time is not None else "—"}</td><td>{_e(h.found)}</td>'
                       f"<td>{_e(h.verdict)}</td><td>{said}</td><td>{_e(' / '.join(h.accepted))}</td></tr>")
        out.append("</table>")
        left = len(check.hits) - len(cut(check.hits))
        if left:
            out.append(f"<p>… and {left} more in the saved report.</p>")
    if check.missing:
        out.append(f"<p>Never in the source: {_e(', '.join(check.missing))}.</p>")
    return "".join(out)


def _omission_table(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "<p>None: every sentence was rendered.</p>"
    out = ["<table><tr><th>Sentence</th><th>at</th><th>Source sentence not interpreted</th><th>Rendition before</th>"
           "<th>Rendition after</th><th>Bead</th></tr>"]
    out.extend(f'<tr><td class="num">{r["sentence"] or "—"}</td><td class="num">{format_clock(r["src_start"])}</td>'
               f'<td>{_e(r["source"])}</td><td class="expl">{_e(r["before"])}</td><td class="expl">{_e(r["after"])}</td>'
               f'<td class="num">{r["index"]}</td></tr>' for r in rows)
    out.append("</table>")
    return "".join(out)


def _simple_table(rows: list[dict[str, Any]], text_key: str, heading: str, time_key: str, time_heading: str) -> str:
    if not rows:
        return "<p>None.</p>"
    out = [f"<table><tr><th>Sentence</th><th>{time_heading}</th><th>{_e(heading)}</th><th>Bead</th></tr>"]
    out.extend(f'<tr><td class="num">{r["sentence"] or "—"}</td><td class="num">{format_clock(r[time_key])}</td>'
               f'<td>{_e(r[text_key])}</td><td class="num">{r["index"]}</td></tr>' for r in rows)
    out.append("</table>")
    return "".join(out)


# A report is HTML or PDF, told from its extension (REPORT_FILES.format_of(path)).
REPORT_FILES = OutputFormats("a report", {".html": "html", ".htm": "html", ".pdf": "pdf"}, example="report")


def write_report(project: Project, path: str | Path, *, today: _dt.date | None = None, terms: TermCheck | None = None) -> Report:
    """Write the report of ``project`` to ``path`` (format from the extension), atomically; ``terms`` adds the terms section.

    Raises:
        SialignError: no alignment, an unknown extension, or no CJK font for a PDF.
    """
    fmt = REPORT_FILES.format_of(path)
    report = build_report(project, today=today, terms=terms)
    if fmt == "html":
        from sialign.core.atomic import atomic_write_text

        atomic_write_text(path, report_html(report))
    else:
        from sialign.review.pdf import write_report_pdf

        write_report_pdf(report, path)
    return report
