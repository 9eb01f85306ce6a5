"""Speed on whole books: SI Aligner beside Bertalign's own code with the same encoder, and the second pass's share.

    .venv/bin/python tests/benchmarks/bench_speed_books.py [--books book11,mac] [--repeats 2] [--data DIR]
    .venv/bin/python tests/benchmarks/bench_speed_books.py --report    # the table of the last run again

Two books:

* ``book11``: the Text+Berg dev book (468 × 554 sentences) repeated 11 times,
  each copy's sentences numbered (5,148 × 6,094, German → French), built by
  ``bench_scale._book``;
* ``mac``: the six MAC dev documents (Chinese → English) pooled into one
  document a side, the gold beads shifted with them (1,463 × 1,951).

Every alignment runs in a fresh process from an empty vector cache of its own
(``SIALIGN_CACHE_DIR``, as ``bench_scale.py`` runs its sizes), the encoder
loaded before the clock starts: SI Aligner with its defaults
(``align_project(project, AlignParams())``, embedder "auto", i.e. the built-in
``use-multilingual``), Bertalign's own code (``bertalign_code.py``, a checkout
beside this one) with that encoder through the vector cache as
``bench_peers._encoder`` gives it, and SI Aligner's first pass alone
(``learned_score=False``). The three alternate, ``--repeats`` rounds of each.
Per run: wall and CPU seconds of the process (user + system, every thread),
strict and lax F1 by ``../shared/tools/metrics.py``. Per book: the mean of the
rounds, the speed ratio (Bertalign's wall over SI Aligner's) and the second
pass's share of the CPU, ``(with - without) / without``. The machine is shared:
the load average is recorded at the start and end of every run.

Writes ``tests/benchmarks/out/speed_books.json`` and prints a markdown table.
Only the dev sets in ``../shared/data`` are read.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
DATA = REPO.parent / "shared" / "data"
OUT = HERE / "out"
BOOKS = ["book11", "mac"]
TOOLS = ["SI Aligner", "Bertalign's code", "SI Aligner, first pass alone"]

sys.path.insert(0, str(REPO / "desktop"))
sys.path.insert(0, str(HERE))

Beads = list[tuple[tuple[int, ...], tuple[int, ...]]]


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _metrics(data: Path) -> Any:
    spec = importlib.util.spec_from_file_location("metrics", data.parent / "tools" / "metrics.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ------------------------------------------------------------------ the books
def book(data: Path, name: str) -> tuple[list[str], list[str], str, str, Beads]:
    """(source, target, source language, target language, gold beads) of book ``name``."""
    if name == "book11":
        from bench_scale import _book

        project, gold = _book(data, 11)
        return ([s.text for s in project.source.segments], [s.text for s in project.target.segments], "de", "fr",
                [(tuple(s), tuple(t)) for s, t in gold])
    if name == "mac":
        from sialign.evaluate import load_mac

        source: list[str] = []
        target: list[str] = []
        pooled: Beads = []
        for doc in load_mac(data / "mac-dev"):
            n, m = len(source), len(target)
            pooled += [(tuple(i + n for i in s), tuple(j + m for j in t)) for s, t in doc.gold]
            source += doc.source
            target += doc.target
        return source, target, "zh", "en", pooled
    raise ValueError(f"unknown book {name}")


# ------------------------------------------------------------------ one run, in its own process
def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def child(data: Path, name: str, tool: str) -> dict[str, Any]:
    """One alignment of book ``name`` by ``tool`` (one of ``TOOLS``), from the empty cache the parent gives."""
    from sialign.embed.models import load_embedder

    source, target, src_lang, tgt_lang, gold = book(data, name)
    embedder = load_embedder("use-multilingual")  # loaded before the clock starts, for every tool
    if tool == "Bertalign's code":
        from bertalign_code import _load, bertalign_code_align

        from sialign.embed.cache import cached_encode, shared_cache

        _load()  # its modules (torch, numba) imported before the clock starts

        def encode(texts: list[str]) -> Any:
            return cached_encode(embedder, texts, shared_cache())

        def run() -> Beads:
            return bertalign_code_align(source, target, encode, src_lang, tgt_lang)
    else:
        from sialign.align.pipeline import align_project
        from sialign.core.model import Document, Project
        from sialign.core.params import AlignParams
        from sialign.evaluate import alignment_positions

        project = Project(talk_id=name, source=Document.from_texts(source, src_lang),
                          target=Document.from_texts(target, tgt_lang))
        params = AlignParams() if tool == "SI Aligner" else AlignParams(learned_score=False)

        def run() -> Beads:
            result = align_project(project, params)
            return [(tuple(s), tuple(t)) for s, t in alignment_positions(result.alignment, project.source, project.target)]

    load_before = load_average()
    wall, cpu = time.perf_counter(), _cpu()
    hyp = run()
    wall, cpu = time.perf_counter() - wall, _cpu() - cpu
    scores = _metrics(data).bead_scores([hyp], [gold])
    return {
        "size": f"{len(source)} x {len(target)}",
        "wall_s": round(wall, 2),
        "cpu_s": round(cpu, 2),
        "strict F1": round(scores["strict_f1"], 4),
        "lax F1": round(scores["lax_f1"], 4),
        "load": f"{load_before} → {load_average()}",
    }


def fresh(data: Path, name: str, tool: str) -> dict[str, Any]:
    """:func:`child` in a fresh process with an empty vector cache of its own (removed after)."""
    command = [sys.executable, str(Path(__file__).resolve()), "--child", f"{name},{TOOLS.index(tool)}", "--data", str(data)]
    with tempfile.TemporaryDirectory(prefix="sialign-speed-") as cache:
        done = subprocess.run(command, capture_output=True, text=True, check=False,
                              env={**os.environ, "SIALIGN_CACHE_DIR": cache})
    if done.returncode != 0:
        raise SystemExit(f"{name}, {tool}: {done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


# ------------------------------------------------------------------ one book
def measure(data: Path, name: str, repeats: int) -> dict[str, Any]:
    runs: dict[str, list[dict[str, Any]]] = {tool: [] for tool in TOOLS}
    for _ in range(repeats):
        for tool in TOOLS:
            runs[tool].append(fresh(data, name, tool))
            print(f"  {name}, {tool}: {json.dumps(runs[tool][-1], ensure_ascii=False)}", flush=True)

    def mean(tool: str, key: str) -> float:
        return round(statistics.fmean(r[key] for r in runs[tool]), 2)

    ours, peer, alone = TOOLS
    return {
        "size": runs[ours][0]["size"],
        "runs": runs,
        "mean": {tool: {"wall_s": mean(tool, "wall_s"), "cpu_s": mean(tool, "cpu_s"),
                        "strict F1": runs[tool][0]["strict F1"]} for tool in TOOLS},
        "speed ratio (Bertalign's wall / SI Aligner's)": round(mean(peer, "wall_s") / mean(ours, "wall_s"), 2),
        "speed ratio, CPU": round(mean(peer, "cpu_s") / mean(ours, "cpu_s"), 2),
        "second pass share of the CPU ((with - without) / without)":
            round((mean(ours, "cpu_s") - mean(alone, "cpu_s")) / mean(alone, "cpu_s"), 2),
        "second pass share of the wall": round((mean(ours, "wall_s") - mean(alone, "wall_s")) / mean(alone, "wall_s"), 2),
    }


def markdown(report: dict[str, Any]) -> str:
    lines = [
        f"Load average {report['load']} at the start, {report['load_end']} at the end; "
        f"means of {report['repeats']} runs each, every run a fresh process from an empty vector cache.",
        "",
        "| Book | Size | Tool | Wall s (runs) | CPU s (runs) | Strict F1 | Bertalign / SI, wall | Bertalign / SI, CPU "
        "| Second pass share of CPU |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, row in report["books"].items():
        for tool in TOOLS:
            m, runs = row["mean"][tool], row["runs"][tool]
            first = tool == TOOLS[0]
            ratio = row["speed ratio (Bertalign's wall / SI Aligner's)"] if first else ""
            ratio_cpu = row["speed ratio, CPU"] if first else ""
            share = row["second pass share of the CPU ((with - without) / without)"] if first else ""
            walls = ", ".join(f"{r['wall_s']:.1f}" for r in runs)
            cpus = ", ".join(f"{r['cpu_s']:.1f}" for r in runs)
            lines.append(f"| {name} | {row['size']} | {tool} | {m['wall_s']:.1f} ({walls}) | {m['cpu_s']:.1f} ({cpus}) "
                         f"| {m['strict F1']} | {ratio} | {ratio_cpu} | {share} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--books", default=",".join(BOOKS), help=f"comma-separated subset of {', '.join(BOOKS)}")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--out", type=Path, default=OUT / "speed_books.json")
    parser.add_argument("--report", action="store_true", help="print the table of the last run (--out) and stop")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.report:
        last: dict[str, Any] = json.loads(args.out.read_text(encoding="utf-8"))
        print(markdown(last), flush=True)
        return last
    if args.child:
        name, tool = args.child.split(",")
        print(json.dumps(child(args.data, name, TOOLS[int(tool)]), ensure_ascii=False), flush=True)
        return {}
    names = [b.strip() for b in args.books.split(",") if b.strip()]
    unknown = set(names) - set(BOOKS)
    if unknown:
        parser.error(f"unknown book(s): {', '.join(sorted(unknown))}")
    if not args.data.is_dir():
        parser.error(f"{args.data}: the shared data folder is not there")
    from bertalign_code import missing

    why = missing()
    if why:
        parser.error(why)
    report: dict[str, Any] = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "load": load_average(),
                              "cores": os.cpu_count(), "repeats": args.repeats, "books": {}}
    for name in names:
        print(f"== {name} (load {load_average()})", flush=True)
        report["books"][name] = measure(args.data, name, args.repeats)
    report["load_end"] = load_average()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
    print(markdown(report), flush=True)
    return report


if __name__ == "__main__":
    main()
