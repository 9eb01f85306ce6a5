"""Every cross-validated figure of RESULTS.md, rerun by one command (issue 47 §3).

    .venv/bin/python tests/benchmarks/cv_all.py [--only NAME,...] [--skip NAME,...] [--list] [--final]

Runs each cross-validation script below in its own process, one after the
other, with the arguments its RESULTS.md section names, and records how long
each took, the load, whether it ended cleanly, and the JSON report it wrote
(``tests/benchmarks/out/<report>.json``). Writes ``out/cv_all.json`` and
``out/cv_all.md`` (a line per script: seconds, load, report). Captures and
alignments the scripts cache (``tmp/cache/``) are kept between runs; delete
that folder for a run from scratch.

Every script leaves one document out at a time. ``cv_books.py`` also keeps a
last document of each book set and of EPTIC out of every fit and choice;
``--final`` asks it to align those once, with what was chosen (the issue's own
held-out check: run it once, at the end).

Only the dev sets in ``../shared/data`` are read.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
OUT = HERE / "out"


@dataclass(frozen=True)
class Run:
    """One cross-validated figure's script: its name, arguments, the report it writes and the RESULTS.md section."""

    name: str
    args: tuple[str, ...]
    report: str
    section: str


RUNS = [
    Run("books", ("cv_books.py",), "cv_books", "Written translations on two book sets"),
    Run("doubt perturbed", ("cv_doubt_perturbed.py",), "cv_doubt_perturbed", "The doubt trained on perturbations"),
    Run("doubt", ("cv_doubt.py", "--bead-score", "cv"), "cv_doubt-default-cv", "Omitted sentences… / Doubt"),
    Run("cut omissions", ("cv_cut_omissions.py",), "cv_cut_omissions", "Omissions: what was left out"),
    Run("text kind", ("cv_text_kind.py",), "cv_text_kind", "Interpretation or written translation"),
    Run("second pass variants", ("cv_second_pass_variants.py",), "cv_variants", "The second pass ends with a vote"),
    Run("crossed names", ("cv_crossed.py",), "cv_crossed", "Beads a name crosses"),
    Run("anchors", ("cv_anchors.py",), "cv_anchors", "Words both sides share"),
    Run("lag evidence", ("cv_lag_evidence.py",), "cv_lag_evidence", "Words both sides share, a bead's timing"),
    Run("omissions", ("cv_omissions.py",), "cv_omissions", "Omitted sentences, the 1-0 / 0-1 offsets"),
    Run("interpretation offsets", ("cv_omissions.py", "--parts", "interpretation"), "cv_omissions_interpretation",
        "The interpretation set's 1-0 / 0-1 offsets"),
    Run("reference vote", ("cv_reference_vote.py",), "cv_reference_vote", "The reference translation of EPTIC"),
    Run("priors", ("cv_priors.py",), "cv_priors", "Priors that should help"),
    Run("interpretation weights", ("cv_interp.py",), "cv_interp", "Interpreted talks: one source sentence a bead"),
    Run("bead score", ("cv_bead_score.py",), "cv", "Every quality row, in-sample and cross-validated"),
    Run("L2 penalty", ("cv_l2.py",), "cv_l2", "The learned score's L2 penalty"),
    Run("presets", ("cv_presets.py",), "cv_presets", "The first pass's presets"),
    Run("presets, lexical", ("cv_presets.py", "--embedder", "lexical"), "cv_presets_lexical", "The first pass's presets"),
    Run("word links", ("cv_links.py",), "cv_links", "Word links and the Rendered share"),
]


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def run_one(run: Run, final: bool) -> dict[str, Any]:
    """Run one script in its own process; its time, load, exit status and report."""
    args = list(run.args) + (["--final"] if final and run.name == "books" else [])
    report_path = OUT / f"{run.report}.json"
    before = report_path.stat().st_mtime if report_path.is_file() else None
    row: dict[str, Any] = {"command": " ".join(["tests/benchmarks/" + args[0], *args[1:]]), "section": run.section,
                           "load at start": load()}
    started = time.perf_counter()
    log = OUT / "cv_all_logs" / f"{run.name.replace(' ', '_')}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("w", encoding="utf-8") as out:
        done = subprocess.run([sys.executable, str(HERE / args[0]), *args[1:]], cwd=REPO, stdout=out, stderr=subprocess.STDOUT,
                              check=False)
    row["seconds"] = round(time.perf_counter() - started, 1)
    row["load at end"] = load()
    row["exit status"] = done.returncode
    row["log"] = str(log.relative_to(REPO))
    if report_path.is_file() and report_path.stat().st_mtime != before:
        row["report"] = json.loads(report_path.read_text(encoding="utf-8"))
    else:
        row["report"] = None
    return row


def markdown(rows: dict[str, dict[str, Any]], total: float) -> str:
    lines = ["| script | command | seconds | load start → end | ended |", "|---|---|---|---|---|"]
    for name, row in rows.items():
        ended = "ok" if row["exit status"] == 0 and row["report"] is not None else f"exit {row['exit status']}"
        lines.append(f"| {name} | `{row['command']}` | {row['seconds']} | {row['load at start']} → {row['load at end']} | {ended} |")
    lines.append(f"\nAll: {total:.0f} s.")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="comma-separated names to run (see --list)")
    parser.add_argument("--skip", default="", help="comma-separated names not to run")
    parser.add_argument("--list", action="store_true", help="list the scripts and stop")
    parser.add_argument("--final", action="store_true", help="cv_books.py aligns the kept-out documents (once, at the end)")
    args = parser.parse_args(argv)
    if args.list:
        for run in RUNS:
            print(f"{run.name:24s} tests/benchmarks/{' '.join(run.args)}")
        return 0
    only = {n.strip() for n in args.only.split(",") if n.strip()}
    skip = {n.strip() for n in args.skip.split(",") if n.strip()}
    unknown = (only | skip) - {run.name for run in RUNS}
    if unknown:
        parser.error(f"unknown names: {', '.join(sorted(unknown))} (see --list)")
    chosen = [run for run in RUNS if (not only or run.name in only) and run.name not in skip]
    OUT.mkdir(exist_ok=True)
    started = time.perf_counter()
    rows: dict[str, dict[str, Any]] = {}
    for run in chosen:
        print(f"{run.name}: tests/benchmarks/{' '.join(run.args)} (load {load()})", file=sys.stderr, flush=True)
        rows[run.name] = run_one(run, args.final)
        print(f"  {rows[run.name]['seconds']} s, exit {rows[run.name]['exit status']}", file=sys.stderr, flush=True)
    total = time.perf_counter() - started
    summary = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "total s": round(total, 1), "runs": rows}
    (OUT / "cv_all.json").write_text(json.dumps(summary, indent=1, ensure_ascii=False), encoding="utf-8")
    (OUT / "cv_all.md").write_text(markdown(rows, total), encoding="utf-8")
    print(markdown(rows, total))
    return 0 if all(row["exit status"] == 0 for row in rows.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
