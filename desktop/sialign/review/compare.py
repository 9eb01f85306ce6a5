"""Several renditions of one source, side by side, and interpreters pooled over talks.

Renditions are projects whose source transcripts hold the same sentences
(compared by content, whitespace runs folded): trainees, professionals, a
written translation. :func:`compare_renditions` lines them up per source
sentence (each rendition's text, lag and flags) and scores how much they
disagree, so the sentences one rendition omits and another renders come
first; :func:`interpreter_table` pools each interpreter's figures over any
projects (different talks welcome). Qt-free: ``sialign compare`` and the
app's *Compare renditions…* window share it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape
from pathlib import Path

import numpy as np

from sialign.core.errors import SialignError
from sialign.core.model import Project, bead_text
from sialign.core.plurals import count_noun
from sialign.io.output_formats import OutputFormats
from sialign.review.figures import (
    RenditionFigures,
    evs_offset_warning,
    format_clock,
    format_compression,
    rendition_figures,
)

COMPARE_FORMATS = ("html", "tsv")
# Lags of one sentence, each measured from its interpreter's median, further
# apart than this count as a (minor) disagreement.
LAG_SPREAD_SECONDS = 3.0


@dataclass(frozen=True)
class Cell:
    """One rendition of one source sentence.

    Attributes:
        text: the bead's target text (post-edit when there is one, trimmed fillers left out);
            empty for an omission; for the 2nd.. sentences of a many-sentence bead, empty
            too, with ``joined_to`` naming the first.
        bead: index of the bead holding the sentence (None without an alignment).
        lag: start lag of the bead in seconds (None without times).
        flags: names of the bead's failed checks.
        omitted: the sentence is in a 1-0 bead.
        joined_to: 1-based number of the sentence this one is rendered together with, or None.
        status: the bead's status.
        tgt_start / tgt_end: times of the rendition (for playback), None when unknown.
    """

    text: str
    bead: int | None
    lag: float | None
    flags: tuple[str, ...]
    omitted: bool
    joined_to: int | None
    status: str
    tgt_start: float | None
    tgt_end: float | None


@dataclass
class SentenceRow:
    """A source sentence with every rendition of it.

    Attributes:
        number: 1-based position in the source.
        source: the sentence text.
        src_start / src_end: its times (s) when known.
        cells: one per rendition, in the order of :attr:`Comparison.names`.
        disagreement: 2 when some renditions omit it and others render it,
            1 when only their flags differ or their lags, each measured from its
            interpreter's median, lie more than :data:`LAG_SPREAD_SECONDS` apart, else 0.
        why: what the renditions disagree on, in words.
    """

    number: int
    source: str
    src_start: float | None
    src_end: float | None
    cells: list[Cell]
    disagreement: int = 0
    why: str = ""


@dataclass
class InterpreterRow:
    """One interpreter's figures pooled over their projects.

    Attributes:
        interpreter / rank: id and rank (rank empty when no project gives one).
        talks: talk ids, one per project.
        sentences / rendered / omitted: source sentences in all, rendered, omitted.
        coverage: rendered / sentences (:mod:`sialign.core.coverage`).
        omissions_per_100: omitted sentences per 100 source sentences.
        evs_median: median start lag over all their timed beads (s).
        compression: summed target units over summed basis units (reference, else source).
        compression_text: the same for people (see :func:`sialign.review.figures.format_compression`).
        fillers_per_minute: trimmed filler chunks per minute of interpretation.
    """

    interpreter: str
    rank: str
    talks: list[str]
    sentences: int
    rendered: int
    omitted: int
    coverage: float | None
    omissions_per_100: float | None
    evs_median: float | None
    compression: float | None
    fillers_per_minute: float | None
    compression_text: str = "—"


@dataclass
class Comparison:
    """Renditions of one source side by side.

    Attributes:
        talk: the talk id of the first rendition.
        names: one label per rendition (interpreter id, else the file name).
        paths: the project files (empty strings for unsaved projects).
        projects: the projects, same order.
        figures: :func:`rendition_figures` of each.
        rows: one per source sentence.
        interpreters: :func:`interpreter_table` of the projects.
    """

    talk: str
    names: list[str]
    paths: list[str]
    projects: list[Project]
    figures: list[RenditionFigures]
    rows: list[SentenceRow] = field(default_factory=list)
    interpreters: list[InterpreterRow] = field(default_factory=list)

    def disagreements(self) -> list[SentenceRow]:
        """Rows with any disagreement, strongest first, then in talk order."""
        return sorted((r for r in self.rows if r.disagreement), key=lambda r: (-r.disagreement, r.number))


def _norm(text: str) -> str:
    return " ".join(text.split())


def check_same_source(projects: Sequence[Project], paths: Sequence[str]) -> None:
    """Raise unless every project's source transcript holds the same sentences as the first.

    Raises:
        SialignError: one line naming the differing file and the first sentence that differs.
    """
    if not projects:
        raise SialignError("no project to compare — give two or more .sialign files of the same talk")
    first = [_norm(s.text) for s in projects[0].source.segments]
    for project, path in zip(projects[1:], paths[1:]):
        other = [_norm(s.text) for s in project.source.segments]
        if other == first:
            continue
        at = next((i for i, (a, b) in enumerate(zip(first, other)) if a != b), min(len(first), len(other)))
        detail = (f"{count_noun(len(other), 'source sentence')} instead of {len(first)}" if at >= min(len(first), len(other))
                  else f"source sentence {at + 1} differs ({other[at][:40]!r} vs {first[at][:40]!r})")
        raise SialignError(f"{path}: its source transcript is not the one of {paths[0]} ({detail}) — "
                           "compare only renditions of the same source, or ask for the per-interpreter table alone",
                           settings=("pooled",))


def rendition_names(projects: Sequence[Project], paths: Sequence[str]) -> list[str]:
    """A short, unique label per rendition: the interpreter id, else (or when shared) the file name."""
    from sialign.evaluate.evs import interpreter_of

    names = []
    for project, path in zip(projects, paths):
        who = interpreter_of(project)
        stem = Path(path).stem if path else project.talk_id
        names.append(stem if who == "unknown" else who)
    for i, name in enumerate(names):
        if names.count(name) > 1:
            stem = Path(paths[i]).stem if paths[i] else f"{i + 1}"
            names[i] = f"{name} ({stem})" if stem != name else f"{name} ({i + 1})"
    return names


def _cells(project: Project) -> list[Cell]:
    """One cell per source sentence of ``project`` (see :class:`Cell`)."""
    from sialign.core.coverage import OMITTED, bead_state

    src, tgt = project.source, project.target
    positions = {s.id: i for i, s in enumerate(src.segments)}
    cells: list[Cell | None] = [None] * len(src)
    beads = project.alignment.beads if project.alignment is not None else []
    for k, bead in enumerate(beads):
        if not bead.src:
            continue
        s0 = src.get(bead.src[0]).start
        t0 = tgt.get(bead.tgt[0]).start if bead.tgt else None
        t1 = tgt.get(bead.tgt[-1]).end if bead.tgt else None
        lag = t0 - s0 if t0 is not None and s0 is not None else None
        flags = tuple(f.name for f in bead.failed_flags)
        text = bead_text(bead, tgt, "tgt") if bead.tgt else ""
        first = positions[bead.src[0]]
        for n, sid in enumerate(bead.src):
            cells[positions[sid]] = Cell(
                text=text if n == 0 else "", bead=k, lag=lag, flags=flags,
                omitted=bead_state(bead) == OMITTED,
                joined_to=None if n == 0 else first + 1, status=bead.status.value, tgt_start=t0, tgt_end=t1,
            )
    empty = Cell("", None, None, (), False, None, "", None, None)
    return [c if c is not None else empty for c in cells]


def _disagreement(cells: Sequence[Cell], names: Sequence[str], medians: Sequence[float | None]) -> tuple[int, str]:
    omitted = [n for c, n in zip(cells, names) if c.omitted]
    rendered = [n for c, n in zip(cells, names) if not c.omitted and c.bead is not None]
    if omitted and rendered:
        return 2, f"omitted by {', '.join(omitted)}; rendered by {', '.join(rendered)}"
    reasons = []
    flagged = [n for c, n in zip(cells, names) if c.flags and not c.omitted]
    if flagged and len(flagged) < len(cells) and rendered:
        reasons.append(f"flagged only for {', '.join(flagged)}")
    # Each interpreter against their own usual lag: one who always lags 5 s
    # does not disagree with one who lags 3 s, but falling 4 s further behind
    # than usual on this sentence does.
    late = [(c.lag - m, n) for c, n, m in zip(cells, names, medians) if c.lag is not None and m is not None and not c.omitted]
    if len(late) >= 2:
        lo, hi = min(late), max(late)
        if hi[0] - lo[0] > LAG_SPREAD_SECONDS:
            reasons.append(f"{hi[1]} {hi[0]:+.1f} s against their usual lag, {lo[1]} {lo[0]:+.1f} s")
    return (1, "; ".join(reasons)) if reasons else (0, "")


def compare_renditions(projects: Sequence[Project], paths: Sequence[str] | None = None) -> Comparison:
    """Line up ``projects`` (renditions of one source) sentence by sentence.

    Args:
        projects: two or more projects with identical source transcripts.
        paths: their files, for messages and labels (defaults to the projects' ``path``).

    Raises:
        SialignError: fewer than two projects, a source that differs, or a project without an alignment.
    """
    paths = list(paths) if paths is not None else [p.path or p.talk_id for p in projects]
    if len(projects) < 2:
        raise SialignError("comparing renditions needs two or more projects of the same source")
    check_same_source(projects, paths)
    for project, path in zip(projects, paths):
        if project.alignment is None:
            raise SialignError(f"{path}: the project has no alignment yet — align it first")
    names = rendition_names(projects, paths)
    per_project = [_cells(p) for p in projects]
    figures = [rendition_figures(p) for p in projects]
    medians = [f.evs_median for f in figures]
    rows = []
    for i, seg in enumerate(projects[0].source.segments):
        cells = [cells_of[i] for cells_of in per_project]
        level, why = _disagreement(cells, names, medians)
        rows.append(SentenceRow(i + 1, _norm(seg.text), seg.start, seg.end, cells, level, why))
    return Comparison(projects[0].talk_id, names, list(paths), list(projects), figures, rows, interpreter_table(projects, names))


def interpreter_table(projects: Sequence[Project], names: Sequence[str] | None = None) -> list[InterpreterRow]:
    """Each interpreter's figures pooled over their projects, sorted by rank (when given) then id.

    Args:
        projects: any projects (different talks welcome).
        names: the label of each project whose interpreter is not recorded
            (default: they pool as ``"unknown"``).
    """
    groups: dict[str, list[RenditionFigures]] = {}
    for i, project in enumerate(projects):
        fig = rendition_figures(project)
        key = fig.interpreter if fig.interpreter != "unknown" or names is None else names[i]
        groups.setdefault(key, []).append(fig)
    rows = []
    for name, figs in groups.items():
        sentences = sum(f.n_sentences for f in figs)
        rendered = sum(int(f.rendered.sum()) for f in figs)
        omitted = sum(f.omitted_sentences for f in figs)
        lags = np.concatenate([f.evs.start_lag for f in figs]) if figs else np.zeros(0)
        tgt_units = sum(f.tgt_units for f in figs)
        basis_units = sum(f.ref_units if f.compression_basis == "reference" else f.src_units for f in figs)
        # Fillers only from renditions the intra filter has seen (others have none counted, not zero).
        minutes = sum(f.tgt_duration or 0.0 for f in figs if f.filtered) / 60
        rank = next((f.rank for f in figs if f.rank), "")
        bases = {f.compression_basis for f in figs}
        basis = "reference" if bases == {"reference"} else "source"
        units = (figs[0].tgt_unit, figs[0].src_unit if basis == "source" else figs[0].tgt_unit)
        rows.append(InterpreterRow(
            interpreter=name, rank=rank, talks=[f.talk for f in figs], sentences=sentences, rendered=rendered,
            omitted=omitted, coverage=rendered / sentences if sentences else None,
            omissions_per_100=100 * omitted / sentences if sentences else None,
            evs_median=float(np.median(lags)) if lags.size else None,
            compression=tgt_units / basis_units if basis_units else None,
            fillers_per_minute=sum(f.fillers for f in figs if f.filtered) / minutes if minutes > 0 else None,
            compression_text=format_compression(tgt_units / basis_units if basis_units else None, basis, *units),
        ))
    return sorted(rows, key=lambda r: (r.rank == "", natural_key(r.rank), natural_key(r.interpreter)))


def natural_key(text: str) -> tuple[tuple[int, int | str], ...]:
    """A sort key that orders the numbers inside ids as numbers: ``"23"`` before ``"103"``, ``"I2"`` before ``"I10"``."""
    parts = re.split(r"(\d+)", text.casefold())
    return tuple((0, int(part)) if part.isdigit() else (1, part) for part in parts if part)


# ---- output -----------------------------------------------------------------
def format_figure(value: float | None, spec: str, suffix: str = "") -> str:
    return "—" if value is None or (isinstance(value, float) and math.isnan(value)) else format(value, spec) + suffix


def _evs_cell(median: float | None) -> str:
    """The EVS median as shown in a table: ``"-12.9 s !"`` when it says the timelines are offset."""
    return format_figure(median, ".1f", " s") + (" !" if evs_offset_warning(median) else "")


def interpreter_lines(rows: Sequence[InterpreterRow]) -> list[str]:
    """The per-interpreter table as aligned text lines (for the terminal), then a warning per offset timeline."""
    out = [f"{'interpreter':<16} {'rank':<6} {'talks':>5} {'sentences':>9} {'coverage':>8} {'omit/100':>8} "
           f"{'EVS med':>9} {'fill/min':>8}  compression"]
    for r in rows:
        out.append(f"{r.interpreter[:16]:<16} {(r.rank or '—')[:6]:<6} {len(r.talks):>5} {r.sentences:>9} "
                   f"{format_figure(None if r.coverage is None else 100 * r.coverage, '.0f', '%'):>8} {format_figure(r.omissions_per_100, '.1f'):>8} "
                   f"{_evs_cell(r.evs_median):>9} {format_figure(r.fillers_per_minute, '.1f'):>8}  {r.compression_text}")
    for r in rows:
        warning = evs_offset_warning(r.evs_median)
        if warning:
            out.append(f"! {r.interpreter}: {warning}.")
    return out


def _offset_notes_html(items: Sequence[tuple[str, float | None]]) -> str:
    notes = [f"<li>{escape(name)}: {escape(evs_offset_warning(median))}.</li>" for name, median in items if evs_offset_warning(median)]
    return f'<ul class="warn">{"".join(notes)}</ul>' if notes else ""


def _tsv_cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def comparison_tsv(comparison: Comparison) -> str:
    """One row per source sentence: number, time, source, disagreement, why, then text/lag/flags per rendition."""
    head = ["sentence", "src_start", "source", "disagreement", "why"]
    for name in comparison.names:
        head += [f"{name}:text", f"{name}:lag", f"{name}:flags"]
    lines = ["\t".join(_tsv_cell(h) for h in head)]
    for row in comparison.rows:
        cells = [str(row.number), "" if row.src_start is None else f"{row.src_start:.3f}", row.source, str(row.disagreement), row.why]
        for cell in row.cells:
            text = "(omitted)" if cell.omitted else (f"(with sentence {cell.joined_to})" if cell.joined_to else cell.text)
            cells += [text, "" if cell.lag is None else f"{cell.lag:.3f}", ",".join(cell.flags)]
        lines.append("\t".join(_tsv_cell(c) for c in cells))
    return "\n".join(lines) + "\n"


_CSS = """
body{font-family:"Noto Sans CJK JP","Noto Sans JP","IPAexGothic","Hiragino Sans","Yu Gothic UI",Meiryo,sans-serif;margin:20px;color:#222}
table{border-collapse:collapse;font-size:13px;width:100%} td,th{border:1px solid #ddd;padding:3px 6px;vertical-align:top;text-align:left}
th{background:#f3f3f3;position:sticky;top:0} .num{text-align:right;white-space:nowrap}
tr.d2 td{background:#ffe5e5} tr.d1 td{background:#fff6e0} .omit{color:#c01c28;font-weight:bold} .meta{color:#666;font-size:11px}
.joined{color:#888;font-style:italic} h2{font-size:17px;margin-top:26px} .warn{color:#a35200}
"""


def comparison_html(comparison: Comparison) -> str:
    """A self-contained HTML page: figures per rendition, the disagreements, the side-by-side table, interpreters."""
    e = escape
    p = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
         f"<title>Renditions compared — {e(comparison.talk)}</title><style>{_CSS}</style></head><body>",
         f"<h1>Renditions compared — {e(comparison.talk)}</h1>",
         "<table><tr><th>Rendition</th><th>File</th><th>Coverage</th><th>Omissions</th><th>Additions</th>"
         "<th>EVS median</th><th>Compression</th><th>Fillers/min</th></tr>"]
    for name, path, fig in zip(comparison.names, comparison.paths, comparison.figures):
        p.append(f"<tr><td>{e(name)}</td><td>{e(Path(path).name)}</td>"
                 f"<td class=num>{format_figure(None if fig.coverage is None else 100 * fig.coverage, '.0f', '%')}</td>"
                 f"<td class=num>{len(fig.omissions)}</td><td class=num>{len(fig.additions)}</td>"
                 f"<td class=num>{e(_evs_cell(fig.evs_median))}</td>"
                 f"<td class=num>{e(fig.compression_text)}</td>"
                 f"<td class=num>{format_figure(fig.fillers_per_minute, '.1f')}</td></tr>")
    p.append("</table>")
    p.append(_offset_notes_html(list(zip(comparison.names, (f.evs_median for f in comparison.figures)))))
    dis = comparison.disagreements()
    p.append(f"<h2>Where the renditions disagree ({len(dis)})</h2>")
    if dis:
        p.append("<ul>" + "".join(f'<li><a href="#s{r.number}">sentence {r.number}</a>: {e(r.why)} — {e(r.source[:80])}</li>' for r in dis) + "</ul>")
    else:
        p.append("<p>Nowhere: every sentence is rendered (or omitted) by all of them.</p>")
    p.append("<h2>Sentence by sentence</h2><table><tr><th>#</th><th>Time</th><th>Source</th>")
    p.extend(f"<th>{e(n)}</th>" for n in comparison.names)
    p.append("</tr>")
    for row in comparison.rows:
        p.append(f'<tr id="s{row.number}" class="d{row.disagreement}"><td class=num>{row.number}</td>'
                 f"<td class=num>{format_clock(row.src_start)}</td><td>{e(row.source)}</td>")
        for cell in row.cells:
            if cell.omitted:
                body = '<span class="omit">omitted</span>'
            elif cell.joined_to:
                body = f'<span class="joined">rendered with sentence {cell.joined_to}</span>'
            else:
                body = e(cell.text)
            meta = []
            if cell.lag is not None and not cell.omitted and not cell.joined_to:
                meta.append(f"lag {cell.lag:.1f} s")
            if cell.flags and not cell.omitted:
                meta.append(", ".join(cell.flags))
            p.append(f"<td>{body}" + (f'<div class="meta">{e(" · ".join(meta))}</div>' if meta else "") + "</td>")
        p.append("</tr>")
    p.append("</table><h2>Per interpreter</h2><table><tr><th>Interpreter</th><th>Rank</th><th>Talks</th><th>Sentences</th>"
             "<th>Coverage</th><th>Omissions per 100 sentences</th><th>EVS median</th><th>Compression</th><th>Fillers/min</th></tr>")
    for r in comparison.interpreters:
        p.append(_interpreter_html_row(r))
    p.append("</table>" + _offset_notes_html([(r.interpreter, r.evs_median) for r in comparison.interpreters]) + "</body></html>")
    return "\n".join(p)


def _interpreter_html_row(r: InterpreterRow) -> str:
    return (f"<tr><td>{escape(r.interpreter)}</td><td>{escape(r.rank or '—')}</td><td class=num>{len(r.talks)}</td>"
            f"<td class=num>{r.sentences}</td><td class=num>{format_figure(None if r.coverage is None else 100 * r.coverage, '.0f', '%')}</td>"
            f"<td class=num>{format_figure(r.omissions_per_100, '.1f')}</td><td class=num>{escape(_evs_cell(r.evs_median))}</td>"
            f"<td class=num>{escape(r.compression_text)}</td>"
            f"<td class=num>{format_figure(r.fillers_per_minute, '.1f')}</td></tr>")


def interpreters_html(rows: Sequence[InterpreterRow]) -> str:
    """Only the per-interpreter table, as a self-contained page (``--pooled``)."""
    head = ("<tr><th>Interpreter</th><th>Rank</th><th>Talks</th><th>Sentences</th><th>Coverage</th>"
            "<th>Omissions per 100 sentences</th><th>EVS median</th><th>Compression</th><th>Fillers/min</th></tr>")
    return ("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Interpreters pooled over talks</title>"
            f"<style>{_CSS}</style></head><body><h1>Interpreters pooled over talks</h1><table>{head}"
            + "".join(_interpreter_html_row(r) for r in rows) + "</table>"
            + _offset_notes_html([(r.interpreter, r.evs_median) for r in rows]) + "</body></html>")


def interpreters_tsv(rows: Sequence[InterpreterRow]) -> str:
    """The per-interpreter table as TSV (numbers unrounded, empty when unknown)."""
    def v(x: float | None) -> str:
        return "" if x is None else f"{x:.4f}"

    lines = ["interpreter\trank\ttalks\tsentences\tcoverage\tomissions_per_100\tevs_median\tcompression\tfillers_per_minute"]
    for r in rows:
        lines.append("\t".join([_tsv_cell(r.interpreter), _tsv_cell(r.rank), _tsv_cell(",".join(r.talks)), str(r.sentences),
                                v(r.coverage), v(r.omissions_per_100), v(r.evs_median), v(r.compression), v(r.fillers_per_minute)]))
    return "\n".join(lines) + "\n"


# A comparison is HTML or TSV, told from its extension (COMPARE_FILES.format_of(path)).
COMPARE_FILES = OutputFormats("a comparison", {".html": "html", ".htm": "html", ".tsv": "tsv", ".tab": "tsv"}, example="compare")
