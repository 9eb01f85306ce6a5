"""``sialign evs``: ear-voice span per talk and per interpreter.

For every bead with times on both sides, the start lag (interpretation start minus source start) and
end lag; per talk the median, interquartile range and outliers (1.5 IQR beyond the quartiles), then
a comparison of interpreters (project metadata 'interpreter') pooled over their talks.
"""

from __future__ import annotations

import argparse
import json
import math
from typing import Any

HELP = "ear-voice span (interpreter lag) statistics of one or more projects"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("projects", nargs="+", metavar="PROJECT.sialign", help="project files")
    parser.add_argument("--include-dropped", action="store_true", help="also count beads marked dropped")
    parser.add_argument("--json", metavar="PATH", help="also write all numbers as JSON to PATH ('-' for stdout only)")


def _fmt(value: float | None) -> str:
    return "—" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:+.2f}"


def run(args: argparse.Namespace) -> int:
    from sialign.core.errors import SialignError
    from sialign.evaluate.evs import compare_interpreters, file_labels, interpreter_label, talk_labels
    from sialign.review.figures import lag_summary
    from sialign.workflows.outputs import check_output_folder
    from sialign.workflows.talks import load_project

    if args.json and args.json != "-":
        check_output_folder(args.json, "--json")
    projects = [load_project(path) for path in args.projects]
    files = file_labels(args.projects)
    talks = talk_labels(projects, files)  # "talk (ex.sialign)" where talk ids repeat
    names = [interpreter_label(project, file) for project, file in zip(projects, files)]
    talk_w = max([24, *(len(t) for t in talks)])
    who_w = max([14, *(len(n) for n in names)])
    report: dict[str, Any] = {"talks": [], "interpreters": []}
    to_stdout_only = args.json == "-"
    lines: list[str] = []
    lines.append("Ear-voice span per talk (seconds; start lag = interpretation start − source start)")
    lines.append(f"{'talk':<{talk_w}} {'interpreter':<{who_w}} {'beads':>5} {'median':>7} {'Q1':>7} {'Q3':>7} {'IQR':>6} "
                 f"{'end med':>7} {'outliers':>8}")
    timed = 0
    for path, project, talk, name in zip(args.projects, projects, talks, names):
        lags = lag_summary(project, include_dropped=args.include_dropped)
        records, start, end = lags.table.records(), lags.start, lags.end
        timed += len(records)
        if start is None:
            lines.append(f"{talk:<{talk_w}} {name:<{who_w}} {0:>5}   no bead has times on both sides")
        else:
            lines.append(
                f"{talk:<{talk_w}} {name:<{who_w}} {start.n:>5} {_fmt(start.median):>7} {_fmt(start.q1):>7} "
                f"{_fmt(start.q3):>7} {start.iqr:>6.2f} {_fmt(end.median if end else None):>7} {len(start.outliers):>8}"
            )
            if start.outliers:
                shown = ", ".join(str(i + 1) for i in start.outliers[:20])
                more = f" and {len(start.outliers) - 20} more" if len(start.outliers) > 20 else ""
                lines.append(f"{'':<{talk_w}}   outlying beads (1-based): {shown}{more}")
        report["talks"].append({
            "project": str(path), "talk": project.talk_id, "interpreter": name,
            "start": start.to_dict() if start else None, "end": end.to_dict() if end else None,
            "records": [r.__dict__ for r in records],
        })
    comparison = compare_interpreters(projects, include_dropped=args.include_dropped, files=files)
    lines.append("")
    lines.append("Per interpreter (all their beads pooled)")
    lines.append(f"{'interpreter':<{who_w}} {'talks':>5} {'beads':>6} {'median':>7} {'IQR':>6} {'end med':>7}  talk medians")
    for entry in comparison:
        s, e = entry.start, entry.end
        medians = ", ".join(_fmt(m) for m in entry.per_talk_median)
        lines.append(
            f"{entry.interpreter:<{who_w}} {len(entry.talks):>5} {s.n if s else 0:>6} {_fmt(s.median if s else None):>7} "
            f"{(f'{s.iqr:.2f}' if s else '—'):>6} {_fmt(e.median if e else None):>7}  {medians}"
        )
        report["interpreters"].append({
            "interpreter": entry.interpreter, "talks": entry.talks,
            "start": s.to_dict() if s else None, "end": e.to_dict() if e else None,
            "per_talk_median": [None if math.isnan(m) else m for m in entry.per_talk_median],
        })
    if to_stdout_only:
        print(json.dumps(report, ensure_ascii=False, indent=1, default=str))
    else:
        print("\n".join(lines))
        if args.json:
            from sialign.core.atomic import atomic_write_text

            atomic_write_text(args.json, json.dumps(report, ensure_ascii=False, indent=1, default=str))
    if timed == 0:
        raise SialignError(
            "no bead has times on both sides, so there is no ear-voice span to measure — load transcripts with "
            "timestamps (SRT, VTT, TextGrid, EAF or TSV with start/end columns) for both the source and the interpretation"
        )
    return 0
