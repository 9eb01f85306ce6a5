"""Small line/point charts described once, drawn as SVG (HTML) or on a PDF page.

A :class:`Chart` holds data in data units; :class:`Frame` maps them to a
rectangle in the output's units, so the SVG and the PDF drawing share the
layout arithmetic and differ only in the primitive calls.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

import numpy as np

from sialign.review.figures import RenditionFigures

COLOURS = {
    "lag": "#1f77b4",
    "outlier": "#d62728",
    "omission": "#d62728",
    "median": "#555555",
    "band": "#cfe0f3",
    "coverage": "#2ca02c",
    "grid": "#dddddd",
    "axis": "#333333",
}


@dataclass
class Series:
    """Points to draw: ``kind`` is ``"points"`` or ``"line"``; xs and ys have shape (n,)."""

    xs: Sequence[float]
    ys: Sequence[float]
    kind: str = "points"
    colour: str = COLOURS["lag"]
    label: str = ""


@dataclass
class Chart:
    """A chart in data units.

    Attributes:
        title / xlabel / ylabel: captions.
        series: drawn in order.
        vlines: (x, colour, label) vertical markers spanning the plot (omissions).
        hband: (y0, y1, colour) horizontal band (the interquartile range), or None.
        hlines: (y, colour, label) horizontal reference lines (the median).
        xlim / ylim: data ranges shown.
    """

    title: str
    xlabel: str
    ylabel: str
    series: list[Series] = field(default_factory=list)
    vlines: list[tuple[float, str, str]] = field(default_factory=list)
    hband: tuple[float, float, str] | None = None
    hlines: list[tuple[float, str, str]] = field(default_factory=list)
    xlim: tuple[float, float] = (0.0, 1.0)
    ylim: tuple[float, float] = (0.0, 1.0)
    yformat: str = "{:.0f}"


@dataclass(frozen=True)
class Frame:
    """The plot rectangle (left, top, width, height) of a chart in output units; y grows downwards."""

    left: float
    top: float
    width: float
    height: float
    xlim: tuple[float, float]
    ylim: tuple[float, float]

    def x(self, value: float) -> float:
        lo, hi = self.xlim
        return self.left + (value - lo) / ((hi - lo) or 1.0) * self.width

    def y(self, value: float) -> float:
        lo, hi = self.ylim
        return self.top + self.height - (value - lo) / ((hi - lo) or 1.0) * self.height


def nice_ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    """About ``count`` round tick values covering [lo, hi]."""
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
        return [lo]
    raw = (hi - lo) / max(count, 1)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    first = math.ceil(lo / step) * step
    ticks = []
    value = first
    while value <= hi + 1e-9:
        ticks.append(round(value, 10))
        value += step
    return ticks


def evs_chart(fig: RenditionFigures, project_source_starts: Sequence[float | None]) -> Chart:
    """Start lag of every timed bead over the talk, omissions as red vertical lines.

    Args:
        fig: the rendition's figures.
        project_source_starts: start time (s) of each omitted bead's first
            source sentence, same order as ``fig.omissions`` (None when untimed).
    """
    table = fig.evs
    xs = table.src_start.tolist()
    ys = table.start_lag.tolist()
    stats = fig.evs_start
    outliers = set(stats.outliers) if stats is not None else set()
    normal = [(x, y) for b, x, y in zip(table.bead.tolist(), xs, ys) if b not in outliers]
    odd = [(x, y) for b, x, y in zip(table.bead.tolist(), xs, ys) if b in outliers]
    chart = Chart("Ear-voice span over the talk", "time in the talk (min)", "lag (s)", yformat="{:.0f}")
    # Minutes on the x axis: talks run for minutes, lags are seconds.
    if stats is not None:
        chart.hband = (stats.q1, stats.q3, COLOURS["band"])
        chart.hlines.append((stats.median, COLOURS["median"], f"median {stats.median:.1f} s"))
    chart.series.append(Series([x / 60 for x, _ in normal], [y for _, y in normal], "points", COLOURS["lag"], "lag"))
    if odd:
        chart.series.append(Series([x / 60 for x, _ in odd], [y for _, y in odd], "points", COLOURS["outlier"], "outlier"))
    for start in project_source_starts:
        if start is not None:
            chart.vlines.append((start / 60, COLOURS["omission"], "omission"))
    all_x = [x / 60 for x in xs] + [v[0] for v in chart.vlines]
    chart.xlim = (0.0, max(all_x + [0.5]) * 1.03)
    lo = min(ys + [0.0])
    hi = max(ys + [1.0])
    chart.ylim = (math.floor(lo) - (1 if lo < 0 else 0), math.ceil(hi) + 1)
    return chart


def coverage_chart(fig: RenditionFigures, window: int = 5) -> Chart:
    """Coverage (:mod:`sialign.core.coverage`) in a moving window of ``window`` sentences, omitted sentences marked."""
    xs, ys = fig.coverage_curve(window)
    chart = Chart(f"Coverage along the talk ({window}-sentence window)", "source sentence", "coverage (%)")
    chart.series.append(Series(xs.tolist(), (100 * ys).tolist(), "line", COLOURS["coverage"], "coverage"))
    # Only what was left out: a pair a reviewer or its cost dropped is not an omission.
    for i in np.flatnonzero(fig.omitted):
        chart.vlines.append((float(i + 1), COLOURS["omission"], "omitted"))
    chart.xlim = (1.0, float(max(fig.n_sentences, 2)))
    chart.ylim = (0.0, 105.0)
    return chart


# ---- SVG ------------------------------------------------------------------
def chart_svg(chart: Chart, width: int = 720, height: int = 240) -> str:
    """The chart as a standalone ``<svg>`` element (no external references)."""
    frame = Frame(52, 26, width - 64, height - 64, chart.xlim, chart.ylim)
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'role="img" aria-label="{escape(chart.title)}" font-family="sans-serif" font-size="11">',
        f'<text x="{frame.left}" y="16" font-size="13" font-weight="bold">{escape(chart.title)}</text>',
    ]
    if chart.hband is not None:
        y0, y1, colour = chart.hband
        top, bottom = frame.y(max(y0, y1)), frame.y(min(y0, y1))
        out.append(f'<rect x="{frame.left:.1f}" y="{top:.1f}" width="{frame.width:.1f}" height="{bottom - top:.1f}" fill="{colour}"/>')
    for tick in nice_ticks(*chart.ylim):
        y = frame.y(tick)
        out.append(f'<line x1="{frame.left:.1f}" x2="{frame.left + frame.width:.1f}" y1="{y:.1f}" y2="{y:.1f}" stroke="{COLOURS["grid"]}"/>')
        out.append(f'<text x="{frame.left - 6:.1f}" y="{y + 4:.1f}" text-anchor="end">{escape(chart.yformat.format(tick))}</text>')
    for tick in nice_ticks(*chart.xlim, count=8):
        x = frame.x(tick)
        out.append(f'<text x="{x:.1f}" y="{frame.top + frame.height + 15:.1f}" text-anchor="middle">{tick:g}</text>')
    for x_value, colour, label in chart.vlines:
        x = frame.x(x_value)
        out.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{frame.top:.1f}" y2="{frame.top + frame.height:.1f}" '
                   f'stroke="{colour}" stroke-dasharray="4 3"><title>{escape(label)}</title></line>')
    for y_value, colour, label in chart.hlines:
        y = frame.y(y_value)
        out.append(f'<line x1="{frame.left:.1f}" x2="{frame.left + frame.width:.1f}" y1="{y:.1f}" y2="{y:.1f}" stroke="{colour}" stroke-width="1.5"/>')
        # The key sits on the title line, so it never hides a point.
        out.append(f'<text x="{frame.left + frame.width:.1f}" y="16" text-anchor="end" fill="{colour}">— {escape(label)}</text>')
    for series in chart.series:
        pts = [(frame.x(x), frame.y(y)) for x, y in zip(series.xs, series.ys) if math.isfinite(x) and math.isfinite(y)]
        if series.kind == "line" and pts:
            path = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
            out.append(f'<polyline points="{path}" fill="none" stroke="{series.colour}" stroke-width="2"/>')
        else:
            out.extend(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{series.colour}"/>' for x, y in pts)
    out.append(f'<rect x="{frame.left:.1f}" y="{frame.top:.1f}" width="{frame.width:.1f}" height="{frame.height:.1f}" fill="none" stroke="{COLOURS["axis"]}"/>')
    out.append(f'<text x="{frame.left + frame.width / 2:.1f}" y="{height - 6}" text-anchor="middle">{escape(chart.xlabel)}</text>')
    out.append(f'<text x="12" y="{frame.top + frame.height / 2:.1f}" text-anchor="middle" '
               f'transform="rotate(-90 12 {frame.top + frame.height / 2:.1f})">{escape(chart.ylabel)}</text>')
    out.append("</svg>")
    return "\n".join(out)


# ---- PDF (fpdf2) --------------------------------------------------------------
def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def draw_chart_pdf(pdf: Any, chart: Chart, left: float, top: float, width: float, height: float) -> None:
    """Draw ``chart`` with fpdf2 vector primitives in the box (mm) at ``left, top``.

    ``pdf`` is an ``fpdf.FPDF`` whose current font can print the captions.
    """
    frame = Frame(left + 12, top + 7, width - 16, height - 17, chart.xlim, chart.ylim)
    pdf.set_font_size(9)
    pdf.set_text_color(0, 0, 0)
    pdf.text(frame.left, top + 4, chart.title)
    pdf.set_font_size(7)
    if chart.hband is not None:
        y0, y1, colour = chart.hband
        pdf.set_fill_color(*_rgb(colour))
        a, b = frame.y(max(y0, y1)), frame.y(min(y0, y1))
        pdf.rect(frame.left, a, frame.width, b - a, style="F")
    pdf.set_line_width(0.15)
    for tick in nice_ticks(*chart.ylim):
        y = frame.y(tick)
        pdf.set_draw_color(*_rgb(COLOURS["grid"]))
        pdf.line(frame.left, y, frame.left + frame.width, y)
        label = chart.yformat.format(tick)
        pdf.text(frame.left - 1.5 - pdf.get_string_width(label), y + 1.0, label)
    for tick in nice_ticks(*chart.xlim, count=8):
        label = f"{tick:g}"
        pdf.text(frame.x(tick) - pdf.get_string_width(label) / 2, frame.top + frame.height + 3.5, label)
    for x_value, colour, _ in chart.vlines:
        pdf.set_draw_color(*_rgb(colour))
        with pdf.local_context(dash_pattern=dict(dash=1.2, gap=0.8)):
            x = frame.x(x_value)
            pdf.line(x, frame.top, x, frame.top + frame.height)
    for y_value, colour, label in chart.hlines:
        pdf.set_draw_color(*_rgb(colour))
        pdf.set_line_width(0.35)
        y = frame.y(y_value)
        pdf.line(frame.left, y, frame.left + frame.width, y)
        pdf.set_text_color(*_rgb(colour))
        key = f"— {label}"
        pdf.text(frame.left + frame.width - pdf.get_string_width(key), top + 4, key)
        pdf.set_text_color(0, 0, 0)
        pdf.set_line_width(0.15)
    for series in chart.series:
        pts = [(frame.x(x), frame.y(y)) for x, y in zip(series.xs, series.ys) if math.isfinite(x) and math.isfinite(y)]
        pdf.set_draw_color(*_rgb(series.colour))
        pdf.set_fill_color(*_rgb(series.colour))
        if series.kind == "line":
            pdf.set_line_width(0.5)
            pdf.polyline(pts)
            pdf.set_line_width(0.15)
        else:
            for x, y in pts:
                pdf.circle(x, y, 0.7, style="F")
    pdf.set_draw_color(*_rgb(COLOURS["axis"]))
    pdf.rect(frame.left, frame.top, frame.width, frame.height)
    pdf.text(frame.left + frame.width / 2 - pdf.get_string_width(chart.xlabel) / 2, top + height - 1, chart.xlabel)
    with pdf.rotation(90, left + 3, frame.top + frame.height / 2):
        pdf.text(left + 3 - pdf.get_string_width(chart.ylabel) / 2, frame.top + frame.height / 2, chart.ylabel)
