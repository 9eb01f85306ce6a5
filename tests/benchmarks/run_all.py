"""Run the benchmarks and write tests/benchmarks/out/report.json and report.md.

    packaging/dev.sh bench [--parts ...] [--no-model] [--align-only]

The alignment benchmarks (bench_align.py: Text+Berg bead F1, AHC-SI LCS
accuracy, speed and memory) run in this process and make the report; the
other bench_*.py scripts of this folder (text, audio) then run one after the
other with their own defaults and write their own reports next to it.
Parts not run this time are kept from the previous report (each part
records the load average it ran under); ``--fresh`` starts over. Nothing
here is part of the test suite (pytest does not collect this folder).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
OUT = HERE / "out"
REPO = HERE.parents[1]

TARGETS = {
    "textberg lexical strict F1": ">= 0.75",
    "ahcsi pivot acc@0.8": ">= 0.90",
    "large dp wall s": "< 10 (after embedding)",
    "large memory MB": "< 2000",
    "talk realign cached wall s": "< 0.5",
    "fast vs exact speed-up": ">= 5x, no F1 loss",
}


def _fmt(value: Any, digits: int = 3) -> str:
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def _row(*cells: Any) -> str:
    """One row of a Markdown table."""
    return "| " + " | ".join(str(cell) for cell in cells) + " |"


def _table_head(title: str, columns: tuple[str, ...], *intro: str) -> list[str]:
    """A part's heading, its paragraphs of introduction and the head of its table."""
    lines = [f"## {title}", ""]
    for paragraph in intro:
        lines += [paragraph, ""]
    return lines + [_row(*columns), "|" + "---|" * len(columns)]


def markdown(report: dict[str, Any], meta: dict[str, Any]) -> str:
    """The report as Markdown: one table per part, then the targets."""
    lines = ["# Alignment benchmarks", ""]
    lines.append(
        f"Run {meta['date']} on {meta['machine']} ({meta['cpus']} CPUs, shared), Python {meta['python']}; "
        f"load average at start {meta['load_start']}, at end {meta['load_end']}. Wall times on a loaded "
        "machine are inflated; CPU (process) times are given beside them."
    )
    lines.append("")
    tb = report.get("textberg")
    if tb:
        lines += _table_head(
            "Text+Berg dev (bead F1)",
            ("embedder", "strict P", "strict R", "strict F1", "lax F1", "embedding s", "DP s"),
            f"Document: {tb['document']}. Load {tb.get('load', '?')}.",
        )
        for name, r in tb.items():
            if isinstance(r, dict) and "f1_strict" in r:
                t = r.get("timings", {})
                lines.append(_row(
                    name, _fmt(r["precision_strict"]), _fmt(r["recall_strict"]), f"**{_fmt(r['f1_strict'])}**",
                    _fmt(r["f1_lax"]), t.get("embedding", ""), t.get("aligning", ""),
                ))
        lines.append("")
    ah = report.get("ahcsi")
    if ah:
        lines += _table_head(
            "AHC-SI dev (LCS accuracy, pivot mode, lexical)",
            ("method", "dropped beads", "ε=0.5", "ε=0.8", "ε=0.9", "mean s"),
            f"{ah['talks']} talks, {ah['sentences']} sentences. 'aligned': every bead's target counts (the alignment itself); "
            "'exported': dropped beads (cost above 1.0) count as unaligned, as in a TSV export.",
        )
        for method in ("pivot, beads", "pivot, segment"):
            for label, key in (("aligned", "dropped count as aligned"), ("exported", "dropped count as unaligned")):
                r = ah[method][key]
                lines.append(_row(method, label, _fmt(r["acc@0.5"]), f"**{_fmt(r['acc@0.8'])}**", _fmt(r["acc@0.9"]), _fmt(r["mean"])))
        lines.append("")
        for method in ("pivot, beads", "pivot, segment"):
            r = ah[method]
            if "dropped n:m beads" in r:
                lines.append(f"{method}: {r['dropped n:m beads']} n:m beads dropped for cost above 1.0, {r['dropped n:m beads correct at 0.8']} of them correct at ε = 0.8.")
        lines.append("")
        lines.append("Per talk (beads, aligned, ε=0.8): " + ", ".join(f"{k} {v}" for k, v in ah["pivot, beads"]["acc@0.8 per talk (aligned)"].items()))
        lines.append("")
    om = report.get("omission")
    if om:
        lines += _table_head(
            "Omissions (AHC-SI dev with renderings removed; example talk)",
            ("data", "1-0 cost", "omitted", "1-0 beads", "hits", "precision", "recall", "acc@0.8 rendered, aligned", "exported"),
            f"Synthetic: each of the 4 AHC-SI dev talks with the gold interpretation of a random 5–10% of its sentences removed "
            f"before the chunks are cut, seeds {om['seeds']} ({om['cases']} talks); pivot mode, lexical. A 1-0 bead for a removed "
            "sentence (or one whose gold rendering is empty) is a hit. LCS accuracy at ε = 0.8 over the other sentences. Load "
            f"{om.get('load', '?')}.",
        )
        for key, r in om.items():
            if isinstance(r, dict) and "precision" in r:
                data, _, cost = key.partition(", ")
                lines.append(_row(
                    data, cost, r["omitted"], r["hypothesised 1-0"], r["hits"], _fmt(r["precision"]), f"**{_fmt(r['recall'])}**",
                    _fmt(r["lcs rendered (aligned)"]["acc@0.8"]), _fmt(r["lcs rendered (exported)"]["acc@0.8"]),
                ))
        lines.append("")
        for key, r in om.items():
            if isinstance(r, dict) and "f1_strict" in r:
                lines.append(
                    f"- {key}: strict F1 **{_fmt(r['f1_strict'])}** (lax {_fmt(r['f1_lax'])}) against talk.gold.align; "
                    f"1-0 beads at {r['hypothesised 1-0']} (gold: {r['gold 1-0']})"
                )
        lines.append("")
    tk = report.get("talk")
    if tk:
        lines += _table_head(
            f"Speed: one talk of {tk['size']} (the AHC-SI dev talks joined)",
            ("mode", "embedding s", "DP s", "total wall s", "total CPU s", "segments/s", "peak traced MB", "re-align cached wall s", "CPU s"),
        )
        for mode in ("pivot (lexical)", "direct (lexical)"):
            r = tk[mode]
            lines.append(_row(
                mode, r["embedding_s"], r["dp_s"], r["total_wall_s"], r["total_cpu_s"], r["segments_per_s"],
                r["peak_traced_MB"], f"**{r['realign_cached_wall_s']}**", r["realign_cached_cpu_s"],
            ))
        lines += ["", f"Peak resident memory of the benchmark process: {tk['maxrss_MB']} MB.", ""]
    lg = report.get("large")
    if lg:
        lines += [f"## Speed: synthetic pair {lg.get('size', '')}", ""]
        if "error" in lg:
            lines += ["```", lg["error"], "```", ""]
        else:
            lines += [
                f"Alignment after embedding: **{lg['dp_wall_s']} s wall** ({lg['dp_cpu_s']} s CPU), {lg['segments_per_s']} segments/s; "
                f"DP levels (n_src, n_tgt, cells searched): {lg['levels']}; peak traced memory {lg['peak_traced_MB']} MB, "
                f"peak resident memory of the process **{lg['maxrss_MB']} MB**; beads equal to the generated gold: {lg['beads_correct']}; "
                f"load during the run {lg['load']}.",
                "",
            ]
    fe = report.get("fast-exact")
    if fe:
        lines += _table_head(
            "Fast vs exact multi-segment candidates (Text+Berg, all-MiniLM-L6-v2, 4 x 4 beads)",
            ("mode", "strict F1", "lax F1", "embedding s", "DP s", "total wall s", "CPU s"),
        )
        for mode in ("fast", "exact"):
            r = fe[mode]
            lines.append(_row(mode, _fmt(r["f1_strict"]), _fmt(r["f1_lax"]), r["timings"]["embedding"], r["timings"]["aligning"], r["wall_s"], r["cpu_s"]))
        ov = fe["vecalign overlaps up to 8: encoding"]
        lines += [
            "",
            f"Encoding vecalign-style overlaps of up to 8 sentences ({ov['texts']} texts) alone takes {ov['wall_s']} s wall ({ov['cpu_s']} s CPU). "
            f"Speed-up of fast mode: **{fe['speed-up fast vs exact (wall)']}x** over exact runs of up to 4, "
            f"**{fe['speed-up fast vs overlaps up to 8 (wall)']}x** over overlaps of up to 8. Load {fe['load_before']} → {fe['load_after']}.",
            "",
        ]
    lines += ["## Targets", ""]
    lines += [f"- {k}: {v}" for k, v in TARGETS.items()]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--parts", help="alignment parts to run (bench_align.py --parts)")
    parser.add_argument("--no-model", action="store_true", help="skip the parts that need all-MiniLM-L6-v2")
    parser.add_argument("--align-only", action="store_true", help="do not run the other bench_*.py scripts")
    parser.add_argument("--fresh", action="store_true", help="drop the parts of an earlier report that were not run now")
    parser.add_argument("--render-only", action="store_true", help="only rewrite report.md from report.json")
    args = parser.parse_args()
    sys.path.insert(0, str(HERE))
    if args.render_only:
        saved = json.loads((OUT / "report.json").read_text(encoding="utf-8"))
        meta = saved.pop("meta")
        (OUT / "report.md").write_text(markdown(saved, meta), encoding="utf-8")
        print(f"wrote {OUT / 'report.md'}")
        return 0
    import bench_align

    OUT.mkdir(exist_ok=True)
    meta = {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "machine": platform.platform(),
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "load_start": bench_align.load_average(),
    }
    argv = (["--parts", args.parts] if args.parts else []) + (["--no-model"] if args.no_model else [])
    report = bench_align.main(argv)
    meta["load_end"] = bench_align.load_average()
    previous = OUT / "report.json"
    if previous.is_file() and not args.fresh:
        # Parts run earlier (the slow model parts, say) stay in the report.
        earlier = json.loads(previous.read_text(encoding="utf-8"))
        earlier.pop("meta", None)
        report = {**earlier, **report}
    (OUT / "report.json").write_text(json.dumps({"meta": meta, **report}, indent=2, ensure_ascii=False), encoding="utf-8")
    (OUT / "report.md").write_text(markdown(report, meta), encoding="utf-8")
    print(f"wrote {OUT / 'report.json'} and {OUT / 'report.md'}")
    status = 0
    if not args.align_only:
        for script in sorted(HERE.glob("bench_*.py")):
            if script.name == "bench_align.py":
                continue
            print(f"== {script.name}", flush=True)
            status |= subprocess.run([sys.executable, str(script)], cwd=REPO).returncode
    return status


if __name__ == "__main__":
    sys.exit(main())
