"""Corpus-mode throughput: talks per minute with 1 and 2 workers and on a Dask LocalCluster; resumed runs.

    .venv/bin/python tests/benchmarks/bench_corpus.py [--talks 200] [--filters-sample 10]

Builds a synthetic corpus by resampling the dev talks (AHC-SI dev and EPTIC
dev in ``../shared/data``): each synthetic talk is a random stretch of 60–100%
of a dev talk's sentences with their gold renderings, written as plain
transcripts into a temporary folder. The vector cache is turned off, so every
talk pays for its own encoding as a new talk would. Reports talks/minute for
``--jobs 1``, ``--jobs 2`` and ``--dask local:2``, peak memory per worker,
the time of a resumed run with nothing to do, the cost of the default
filters on a sample, and the projected time for 831 TED-sized talks
(≈ 100 sentences, ≈ 300 chunks). Writes ``out/corpus.json``. The machine's
load average is recorded: on a shared 2-core machine the parallel figures
are only meaningful when it is idle.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
DATA = REPO.parent / "shared" / "data"
OUT = HERE / "out"
sys.path.insert(0, str(REPO / "desktop"))


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def base_talks(data: Path) -> list[tuple[str, list[str], list[list[str]], str, str]]:
    """(name, source sentences, rendering per sentence (list of chunks), src_lang, tgt_lang) of every dev talk."""
    from sialign.evaluate.datasets import chunk_after_punctuation, load_ahcsi, load_eptic

    talks = []
    for talk in load_ahcsi(data / "ahcsi-dev" / "dev.true.tsv"):
        talks.append((talk.name, talk.source, [chunk_after_punctuation(m) for m in talk.manual], "en", "ja"))
    for speech in load_eptic(data / "eptic-dev"):
        rendering: list[list[str]] = [[] for _ in speech.source]
        for src, tgt in speech.gold:
            if src:
                rendering[src[0]].extend(speech.target[j] for j in tgt)
        talks.append((speech.name.replace("/", "_"), speech.source, rendering, speech.src_lang, speech.tgt_lang))
    return talks


def build_corpus(folder: Path, count: int, seed: int = 0) -> tuple[Path, int, int]:
    """Write ``count`` resampled talks and their manifest; returns (manifest, sentences, chunks)."""
    rng = np.random.default_rng(seed)
    bases = base_talks(DATA)
    rows = ["talk\tsource\ttarget\tsrc_lang\ttgt_lang"]
    sentences = chunks = 0
    for k in range(count):
        name, source, rendering, src_lang, tgt_lang = bases[k % len(bases)]
        n = len(source)
        length = max(2, int(round(n * rng.uniform(0.6, 1.0))))
        start = int(rng.integers(0, n - length + 1))
        src = source[start : start + length]
        tgt = [c for r in rendering[start : start + length] for c in r]
        if not tgt:
            tgt = ["…"]
        (folder / f"t{k:04d}.src.txt").write_text("\n".join(src) + "\n", encoding="utf-8")
        (folder / f"t{k:04d}.tgt.txt").write_text("\n".join(tgt) + "\n", encoding="utf-8")
        rows.append(f"t{k:04d}\tt{k:04d}.src.txt\tt{k:04d}.tgt.txt\t{src_lang}\t{tgt_lang}")
        sentences += len(src)
        chunks += len(tgt)
    manifest = folder / "manifest.tsv"
    manifest.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return manifest, sentences, chunks


def run_config(manifest: Path, out: Path, **kw: Any) -> dict[str, Any]:
    from sialign.corpus import align_corpus

    load = load_average()
    started, cpu = time.perf_counter(), time.process_time()
    report = align_corpus(manifest, out, **kw)
    wall = time.perf_counter() - started
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    resumed_start = time.perf_counter()
    again = align_corpus(manifest, out, **kw)
    resumed = time.perf_counter() - resumed_start
    return {
        "load": load,
        "talks": report.total,
        "aligned": len(report.done),
        "failed": len(report.failed),
        "wall_s": round(wall, 1),
        "cpu_s_this_process": round(time.process_time() - cpu, 1),
        "talks_per_min": round(60 * len(report.done) / wall, 1),
        "resumed_run_s": round(resumed, 2),
        "resumed_share_of_first": round(resumed / wall, 4),
        "resumed_skipped": len(again.skipped),
        "maxrss_children_MB": round(children.ru_maxrss / 1024, 1),
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--talks", type=int, default=200)
    parser.add_argument("--filters-sample", type=int, default=10, help="talks aligned with the default filters (GiNZA)")
    parser.add_argument("--configs", default="jobs1,jobs2,dask2")
    args = parser.parse_args(argv)
    os.environ["SIALIGN_VECTOR_CACHE"] = "off"
    report: dict[str, Any] = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "cpus": os.cpu_count()}
    with tempfile.TemporaryDirectory(prefix="sialign-corpus-bench-") as tmp:
        folder = Path(tmp)
        manifest, sentences, chunks = build_corpus(folder, args.talks)
        report["corpus"] = {"talks": args.talks, "sentences": sentences, "chunks": chunks}
        print(json.dumps(report["corpus"]), flush=True)
        configs = {"jobs1": {"jobs": 1}, "jobs2": {"jobs": 2}, "dask2": {"dask": "local:2"}}
        for name in args.configs.split(","):
            result = run_config(manifest, folder / f"out-{name}", **configs[name])
            report[name] = result
            print(name, json.dumps(result), flush=True)
        if args.filters_sample:
            sample = folder / "sample.tsv"
            lines = manifest.read_text(encoding="utf-8").splitlines()
            # Japanese targets: the intra filter's GiNZA pass is the expensive part.
            ja = [line for line in lines[1:] if line.endswith("\tja")][: args.filters_sample]
            sample.write_text("\n".join([lines[0], *ja]) + "\n", encoding="utf-8")
            plain = run_config(sample, folder / "sample-plain", jobs=1)
            filtered = run_config(sample, folder / "sample-filters", jobs=1, filters=("intra", "inter"))
            report["filters sample (ja targets, jobs 1)"] = {"without": plain, "with intra,inter": filtered}
            print("filters", json.dumps(report["filters sample (ja targets, jobs 1)"]), flush=True)
    # Projection: 831 talks of ~100 sentences and ~300 chunks, from the measured
    # per-segment rate (resampled talks are smaller than TED talks).
    per_talk_segments = (sentences + chunks) / args.talks
    ted_segments = 100 + 300
    projections = {}
    for name in ("jobs1", "jobs2", "dask2"):
        if name in report:
            minutes_per_talk = 1 / report[name]["talks_per_min"]
            projections[name] = round(831 * minutes_per_talk * ted_segments / per_talk_segments, 1)
    filters = report.get("filters sample (ja targets, jobs 1)")
    if filters:
        extra = filters["with intra,inter"]["wall_s"] - filters["without"]["wall_s"]
        n = filters["without"]["aligned"] or 1
        projections["filters, extra minutes on 1 worker"] = round(831 * extra / n / 60, 1)
    report["projected minutes for 831 TED-sized talks"] = projections
    if "jobs1" in report and "jobs2" in report:
        report["speed-up 2 workers / 1"] = round(report["jobs2"]["talks_per_min"] / report["jobs1"]["talks_per_min"], 2)
    report["load_end"] = load_average()
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "corpus.json").write_text(json.dumps(report, indent=2))
    print(json.dumps(report, indent=2))
    return report


if __name__ == "__main__":
    main()
