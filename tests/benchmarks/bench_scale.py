"""The learned second pass on long documents: its cost by size, the 5,000 × 6,300 book with and without it.

    .venv/bin/python tests/benchmarks/bench_scale.py [--parts sizes,dev] [--copies 1,2,4,11] [--data DIR]

Writes ``tests/benchmarks/out/scale.json`` and ``scale.md`` and prints each
part as it finishes. The machine is shared: every figure records the load
average it ran under. Only the dev sets in ``../shared/data`` are read.

Parts:

* ``sizes``: the Text+Berg dev book (468 × 554 sentences) repeated 1, 2, 4
  and 11 times, each copy's sentences numbered so that no text repeats (11
  copies: 5,148 × 6,094, the "5,000 × 6,300 end to end" book of RESULTS.md,
  built as ``bench_multilingual.py --parts book`` builds it). Each size is
  aligned in a fresh process from an empty vector cache, once with the first
  pass alone (``learned_score=False``) and once with the defaults (second pass
  on), the two processes back to back: wall and CPU seconds, the part of the
  second run spent in the second pass (its run vectors, i.e. the vectors of
  every run of up to 4 sentences *and* of the sentences themselves, which the
  first pass then reads from the cache; the typical cosine; its DP; the bead
  confidences), what the second pass adds (with minus alone, also as a share
  of the first pass alone), peak resident memory of each process; strict and
  lax bead F1 against the dev gold repeated as often as the book.
* ``dev``: the default settings on Text+Berg dev, MAC dev (pooled), EPTIC dev (text only and
  with timestamps, pooled strict F1) and AHC-SI dev (acc@0.8 without and with
  the reference), with a digest of every bead, so that two versions of the
  code can be compared exactly (run this file from each).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
DATA = REPO.parent / "shared" / "data"
OUT = HERE / "out"
PARTS = ["sizes", "dev"]
COPIES = (1, 2, 4, 11)

sys.path.insert(0, str(REPO / "desktop"))


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


# ------------------------------------------------------------------ one size, in its own process
def _book(data: Path, copies: int) -> tuple[Any, list[tuple[list[int], list[int]]]]:
    from sialign.core.model import Document, Project
    from sialign.evaluate import load_textberg

    doc = load_textberg(data / "textberg-dev")
    n, m = len(doc.source), len(doc.target)
    source = [f"{c + 1}. {t}" for c in range(copies) for t in doc.source]
    target = [f"{c + 1}. {t}" for c in range(copies) for t in doc.target]
    gold = [([i + c * n for i in s], [j + c * m for j in t]) for c in range(copies) for s, t in doc.gold]
    project = Project(talk_id="book", source=Document.from_texts(source, "de"), target=Document.from_texts(target, "fr"))
    return project, gold


def _timer(module: Any, name: str, spent: dict[str, float]) -> None:
    """Add the seconds spent in ``module.name`` to ``spent[name]``."""
    original = getattr(module, name)

    def timed(*args: Any, **kw: Any) -> Any:
        started = time.perf_counter()
        try:
            return original(*args, **kw)
        finally:
            spent[name] = spent.get(name, 0.0) + time.perf_counter() - started

    setattr(module, name, timed)


def child(data: Path, copies: int, learned: bool, lift_limit: bool = False) -> dict[str, Any]:
    """One alignment of the repeated book from an empty vector cache (run in a fresh process).

    ``lift_limit``: no size limit on the second pass (to measure a version of the code that had one).
    """
    from sialign.align import learned_pass, pipeline
    from sialign.core.params import AlignParams
    from sialign.embed.models import load_embedder
    from sialign.evaluate import alignment_positions, bead_f1

    if lift_limit:
        for name in ("LEARNED_PASS_MAX_SEGMENTS", "LEARNED_PASS_MAX_MB"):
            if hasattr(pipeline, name):
                setattr(pipeline, name, float("inf"))

    project, gold = _book(data, copies)
    started = time.perf_counter()
    load_embedder("use-multilingual")
    encoder_load = time.perf_counter() - started
    spent: dict[str, float] = {}
    for name in ("_learned_pass_spans", "_refine", "_set_confidences"):
        _timer(pipeline, name, spent)
    if hasattr(learned_pass, "typical_cosine"):
        _timer(learned_pass, "typical_cosine", spent)
    skipped: list[str] = []
    handler_log = pipeline.log.info

    def note(message: str, *args: Any) -> None:
        if "second pass skipped" in message:
            skipped.append(message % args)
        handler_log(message, *args)

    pipeline.log.info = note  # type: ignore[method-assign]
    load_before = load_average()
    wall, cpu = time.perf_counter(), time.process_time()
    result = pipeline.align_project(project, AlignParams(learned_score=learned))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    f = bead_f1(alignment_positions(result.alignment, project.source, project.target), gold)
    second = sum(spent.values())
    return {
        "size": f"{len(project.source)} x {len(project.target)}",
        "second pass": "on" if learned and not skipped else ("skipped: " + skipped[0] if skipped else "off"),
        "encoder_load_s": round(encoder_load, 2),
        "embedding_s": result.timings["embedding"],
        "aligning_s": result.timings["aligning"],
        "total_s": round(wall, 2),
        "total_cpu_s": round(cpu, 2),
        "outside_second_pass_s": round(wall - second, 2),
        "second_pass_s": round(second, 2),
        "second_pass_parts_s": {
            "run vectors": round(spent.get("_learned_pass_spans", 0.0), 2),
            "typical cosine": round(spent.get("typical_cosine", 0.0), 2),
            "DP": round(spent.get("_refine", 0.0), 2),
            "confidences": round(spent.get("_set_confidences", 0.0), 2),
        },
        "peak_rss_MB": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "strict F1": round(f["f1_strict"], 4),
        "lax F1": round(f["f1_lax"], 4),
        "load": f"{load_before} → {load_average()}",
    }


def sizes(data: Path, copies: tuple[int, ...], lift_limit: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for count in copies:
        row: dict[str, Any] = {}
        for learned in (False, True):
            command = [sys.executable, str(Path(__file__).resolve()), "--child", f"{count},{int(learned)},{int(lift_limit)}",
                       "--data", str(data)]
            with tempfile.TemporaryDirectory(prefix="sialign-scale-") as cache:  # an empty vector cache, removed after
                done = subprocess.run(command, capture_output=True, text=True, check=False,
                                      env={**os.environ, "SIALIGN_CACHE_DIR": cache})
            if done.returncode != 0:
                raise SystemExit(f"{count} copies, second pass {learned}: {done.stderr[-2000:]}")
            row["with second pass" if learned else "first pass alone"] = json.loads(done.stdout.strip().splitlines()[-1])
        first, both = row["first pass alone"], row["with second pass"]
        row["second pass adds (with - alone)"] = {
            "wall_s": round(both["total_s"] - first["total_s"], 2),
            "cpu_s": round(both["total_cpu_s"] - first["total_cpu_s"], 2),
            "wall, share of the first pass": round((both["total_s"] - first["total_s"]) / first["total_s"], 2),
            "cpu, share of the first pass": round((both["total_cpu_s"] - first["total_cpu_s"]) / first["total_cpu_s"], 2),
            "peak_rss_MB": round(both["peak_rss_MB"] - first["peak_rss_MB"], 1),
        }
        out[f"{count} copies ({first['size']})"] = row
        print(json.dumps({count: row}, indent=1, ensure_ascii=False), flush=True)
    return out


# ------------------------------------------------------------------ dev sets
def _metrics(data: Path) -> Any:
    spec = importlib.util.spec_from_file_location("metrics", data.parent / "tools" / "metrics.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def dev(data: Path) -> dict[str, Any]:
    from sialign.align.pipeline import align_project
    from sialign.evaluate import alignment_positions, automatic_targets, lcs_accuracy, load_mac, load_textberg
    from sialign.evaluate.datasets import load_ahcsi, load_eptic

    metrics = _metrics(data)
    out: dict[str, Any] = {"load": load_average()}

    def positions(project: Any) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
        result = align_project(project)
        return [(tuple(s), tuple(t)) for s, t in alignment_positions(result.alignment, project.source, project.target)]

    def digest(hyps: Any) -> str:
        return hashlib.sha1(json.dumps(hyps).encode()).hexdigest()[:12]

    def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
        started = time.perf_counter()
        return fn(), round(time.perf_counter() - started, 1)

    book = load_textberg(data / "textberg-dev")
    hyp, seconds = timed(lambda: positions(book.project()))
    gold = [(tuple(s), tuple(t)) for s, t in book.gold]
    out["Text+Berg dev, strict F1"] = {"value": round(metrics.bead_scores([hyp], [gold])["strict_f1"], 4),
                                       "beads": digest(hyp), "seconds": seconds}
    books = load_mac(data / "mac-dev")
    hyps, seconds = timed(lambda: [positions(b.project()) for b in books])
    golds = [[(tuple(s), tuple(t)) for s, t in b.gold] for b in books]
    out["MAC dev, pooled strict F1"] = {"value": round(metrics.bead_scores(hyps, golds)["strict_f1"], 4),
                                        "beads": digest(hyps), "seconds": seconds}
    speeches = load_eptic(data / "eptic-dev")
    golds = [[(tuple(s), tuple(t)) for s, t in sp.gold] for sp in speeches]
    for label, times in (("text only", False), ("timestamps", True)):
        hyps, seconds = timed(lambda: [positions(sp.project(times=times)) for sp in speeches])
        out[f"EPTIC dev {label}, pooled strict F1"] = {
            "value": round(metrics.bead_scores(hyps, golds)["strict_f1"], 4), "beads": digest(hyps), "seconds": seconds,
        }
    talks = load_ahcsi(data / "ahcsi-dev" / "dev.true.tsv")
    for label, reference in (("no reference", False), ("reference", True)):
        pairs: list[tuple[str, str]] = []
        beads = []
        started = time.perf_counter()
        for talk in talks:
            project = talk.project()
            if not reference:
                project.reference = None
            alignment = align_project(project).alignment
            beads.append([(b.src, b.tgt) for b in alignment.beads])
            pairs += list(zip(automatic_targets(project, alignment, include_dropped=True), talk.manual))
        out[f"AHC-SI dev {label}, acc@0.8"] = {
            "value": round(lcs_accuracy(pairs)["acc@0.8"], 4), "beads": digest(beads),
            "seconds": round(time.perf_counter() - started, 1),
        }
    out["load_end"] = load_average()
    return out


# ------------------------------------------------------------------ report
def markdown(report: dict[str, Any]) -> str:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_multilingual import json_markdown

    return json_markdown("The learned second pass on long documents", report)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--parts", default=",".join(PARTS), help=f"comma-separated subset of {', '.join(PARTS)}")
    parser.add_argument("--copies", default=",".join(map(str, COPIES)), help="sizes of the book, in copies of the dev book")
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--out", type=Path, default=OUT / "scale.json")
    parser.add_argument("--lift-limit", action="store_true", help="no size limit on the second pass")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        copies, learned, lift = (int(x) for x in args.child.split(","))
        print(json.dumps(child(args.data, copies, bool(learned), bool(lift)), ensure_ascii=False), flush=True)
        return {}
    parts = [p.strip() for p in args.parts.split(",") if p.strip()]
    unknown = set(parts) - set(PARTS)
    if unknown:
        parser.error(f"unknown part(s): {', '.join(sorted(unknown))}")
    if not args.data.is_dir():
        parser.error(f"{args.data}: the shared data folder is not there")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    report: dict[str, Any] = json.loads(args.out.read_text()) if args.out.exists() else {}
    for part in parts:
        print(f"== {part} (load {load_average()})", flush=True)
        if part == "sizes":
            report[part] = sizes(args.data, tuple(int(c) for c in args.copies.split(",")), args.lift_limit)
        else:
            with tempfile.TemporaryDirectory(prefix="sialign-scale-") as cache:
                os.environ["SIALIGN_CACHE_DIR"] = cache  # the dev sets from an empty vector cache
                report[part] = dev(args.data)
                from sialign.embed.cache import close_shared_caches

                close_shared_caches()
        print(json.dumps(report[part], indent=2, ensure_ascii=False), flush=True)
        args.out.write_text(json.dumps(report, indent=2, ensure_ascii=False))
        args.out.with_suffix(".md").write_text(markdown(report))
    return report


if __name__ == "__main__":
    main()
