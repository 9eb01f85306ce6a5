"""Variants of the second pass on sentence targets, cross-validated (issue 34 §1: never lose to the first pass on a book piece).

    .venv/bin/python tests/benchmarks/cv_second_pass_variants.py [--sets textberg,eptic] [--tgt-runs 5]

Every sentence document (the Text+Berg dev book's six chapter pieces, each
EPTIC dev speech text only and timed) is aligned by the second pass with the
bead score refitted without it (``cv_bead_score.fit_weights``, leave one
document out; the fold weights are cached under ``tmp/cache/cv``), in each of
these variants (nothing refitted for a variant but the runs):

- ``learned in-sample``: fitted on every document, the held-out one included;
- ``learned``: the second pass as shipped (cross-validated, as every column below);
- ``no vote``: the learned score's path alone, without the vote that ends the
  shipped second pass on sentence targets (``learned_pass.VOTE``);
- ``penalty β``: β added to every bead's cost (fewer, longer beads);
- ``probability``: the DP sums −log P(bead right) = softplus(−log-odds)
  instead of −log-odds (a confident bead no longer pays for splitting);
- ``stretch λ``: where the two paths part and meet again, the first
  path's stretch is kept when the learned score prefers the second's by
  fewer log-odds than λ × the first pass's preference for its own (its
  cost units; :func:`keep_surer_stretches`);
- ``1-0 +x``: x log-odds added to every omission (1-0) cost, so that fewer
  source lines are left out (a written translation leaves few);
- ``stretch chosen``: λ chosen for each held-out document among the values above
  by the other documents' cross-validated scores (mean of the sets' pooled
  figures), never by its own.

``--tgt-runs 5`` encodes target runs of up to 5 sentences instead of
``RUNS["sentences"]``' 4 (captures and folds cached apart, in
``tmp/cache/cv-runs5``), so a 1-5 bead can be produced.

``--cost 4,5`` instead times the first alignment of the dev book (default
settings, neutral weights, each in a fresh process from an empty vector
cache, twice in turn) with target runs of 4 and of 5 sentences.

Figures: ``../shared/tools/metrics.py`` strict F1, pooled per set and per
book piece; the first pass beside. Writes ``tests/benchmarks/out/cv_variants.json``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "desktop"))
sys.path.insert(0, str(HERE))

import cv_bead_score as C  # noqa: E402

PENALTIES = [0.5, 1.0, 2.0]
TRUSTS = [0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 4.0]
OMISSION_SHIFTS = [1.0, 2.0, 4.0]
Path_ = list[tuple[int, int, int, int]]


def variants() -> dict[str, dict[str, Any]]:
    """Name -> how the second pass is changed: ``penalty`` (per bead), ``probability`` or ``trust`` (λ)."""
    out: dict[str, dict[str, Any]] = {"learned": {}, "no vote": {"vote": False}}
    out.update({f"penalty {p}": {"penalty": p} for p in PENALTIES})
    out["probability"] = {"probability": True}
    out.update({f"stretch {t}": {"trust": t} for t in TRUSTS})
    out.update({f"1-0 +{x}": {"omission": x} for x in OMISSION_SHIFTS})
    return out


def _points(path: Path_) -> list[tuple[int, int]]:
    return [(0, 0)] + [(i0 + a, j0 + b) for i0, a, j0, b in path]


def differing_stretches(first: Path_, second: Path_) -> list[tuple[int, int, int, int]]:
    """Where two paths over the same window part: (first's beads from, to, second's beads from, to), half-open,
    between consecutive lattice points both paths pass through."""
    at_first = {point: k for k, point in enumerate(_points(first))}
    at_second = {point: k for k, point in enumerate(_points(second))}
    shared = sorted(set(at_first) & set(at_second))
    out = []
    for start, stop in zip(shared, shared[1:]):
        f0, f1, s0, s1 = at_first[start], at_first[stop], at_second[start], at_second[stop]
        if first[f0:f1] != second[s0:s1]:
            out.append((f0, f1, s0, s1))
    return out


def stretch_costs(costs: Any, beads: Path_) -> tuple[float, float]:
    """The learned (``LearnedCosts``) and the first pass's summed costs of ``beads`` (window coordinates;
    the learned one inf where a bead is beyond the learned score's runs)."""
    learned = first = 0.0
    window = costs.f.first
    for i0, a, j0, b in beads:
        i, j = np.array([i0 + a]), np.array([j0 + b])
        first += float(window.bead_cost(a, b, i, j)[0])
        if a == 0:
            learned += float(costs.settings.skip * costs.tgt_skip_scale[j0])
        elif b == 0:
            learned += float(costs.omission_cost[i0]) if a == 1 else math.inf
        elif a > costs.max_src or b > costs.max_tgt:
            learned = math.inf
        else:
            learned += float(costs.band_costs([(a, b)], i, j[None, :])[0, 0, 0])
    return learned, first


def keep_surer_stretches(first: Path_, second: Path_, costs: Any, trust: float) -> Path_:
    """``second`` with each stretch where it departs from ``first`` replaced by the first's when the learned
    score's preference for the second (log-odds) is below ``trust`` times the first pass's for the first."""
    out: Path_ = []
    done = 0
    for f0, f1, s0, s1 in differing_stretches(first, second):
        learned_1, first_1 = stretch_costs(costs, first[f0:f1])
        learned_2, first_2 = stretch_costs(costs, second[s0:s1])
        out.extend(second[done:s0])
        keep = math.isfinite(learned_1) and learned_1 - learned_2 < trust * (first_2 - first_1)
        out.extend(first[f0:f1] if keep else second[s0:s1])
        done = s1
    out.extend(second[done:])
    return out


def run_variant(seen: dict[str, Any], features: Any, weights: Any, change: dict[str, Any]) -> Path_:
    """The second pass over a capture with ``change`` applied (the learned log-odds patched for the
    per-bead penalty and the probability objective; 1-0 and 0-1 offsets are added after)."""
    from sialign.align import learned_pass as LP

    original, vote = LP.log_odds, LP.VOTE
    if "vote" in change:
        LP.VOTE = {"sentences": change["vote"]}
    if "omission" in change:
        weights = replace(weights, omission_offset=weights.omission_offset + change["omission"])
    if "penalty" in change:
        LP.log_odds = lambda w, f: original(w, f) - change["penalty"]  # type: ignore[assignment]
    elif change.get("probability"):
        LP.log_odds = lambda w, f: -np.logaddexp(0.0, -original(w, f))  # type: ignore[assignment]
    try:
        path = seen["path"]
        max_src, max_tgt = seen["limits"]
        second = LP.second_pass(seen["first"], seen["src_spans"], seen["tgt_spans"], seen["src_chars"], seen["tgt_chars"],
                                path, weights, max_src, max_tgt, features=features)
        if "trust" in change:
            band = LP.path_band(path, seen["first"].n_src, seen["first"].n_tgt)
            costs = LP.LearnedCosts(features, weights, band, *seen["limits"])
            second = keep_surer_stretches(path, second, costs, change["trust"])
    finally:
        LP.log_odds, LP.VOTE = original, vote  # type: ignore[assignment]
    return second  # type: ignore[no-any-return]


def _use_runs(tgt_runs: int) -> None:
    """Encode target runs of up to ``tgt_runs`` sentences; the shipped weights name the shipped runs' shapes,
    so the aligner runs with neutral ones (their values do not change what it computes, only the path)."""
    import train_bead_score as T

    from sialign.align import learned_pass as LP

    LP.RUNS["sentences"] = (LP.RUNS["sentences"][0], tgt_runs)
    neutral = LP.BeadScoreWeights.from_dict(T.bootstrap_weights()["sentences"], "sentences")
    shipped = LP.shipped_weights
    LP.shipped_weights = lambda units="sentences": neutral if units == "sentences" else shipped(units)  # type: ignore[assignment]


def cost_child(tgt_runs: int) -> dict[str, Any]:
    """One first alignment of the dev book with target runs of ``tgt_runs`` (run in a fresh process)."""
    import os
    import resource

    from sialign.align.pipeline import align_project
    from sialign.core.params import AlignParams
    from sialign.evaluate import load_textberg

    _use_runs(tgt_runs)
    project = load_textberg(C.DATA / "textberg-dev").project()
    load_before, wall, cpu = os.getloadavg()[0], time.perf_counter(), time.process_time()
    align_project(project, AlignParams(target_units="sentences"))
    return {"target runs": tgt_runs, "wall s": round(time.perf_counter() - wall, 2), "CPU s": round(time.process_time() - cpu, 2),
            "peak MB": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
            "load": f"{load_before:.1f} -> {os.getloadavg()[0]:.1f}"}


def cost(runs: list[int], repeats: int = 2) -> list[dict[str, Any]]:
    import os
    import subprocess
    import tempfile

    rows = []
    for _ in range(repeats):
        for tgt_runs in runs:
            with tempfile.TemporaryDirectory(prefix="sialign-runs-") as cache:
                done = subprocess.run([sys.executable, __file__, "--cost-child", str(tgt_runs)], capture_output=True, text=True,
                                      check=True, env={**os.environ, "SIALIGN_CACHE_DIR": cache})
            rows.append(json.loads(done.stdout.strip().splitlines()[-1]))
            print(json.dumps(rows[-1]), flush=True)
    return rows


def main(argv: list[str] | None = None) -> dict[str, Any]:
    from bench_peers import _metrics

    from sialign.align import learned_pass as LP
    from sialign.evaluate.folds import leave_one_out

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="textberg,eptic")
    parser.add_argument("--book-only", action="store_true",
                        help="hold out and score the book's pieces only (the other sets still train every fold)")
    parser.add_argument("--variants", default="", help="comma-separated columns to run (default: all)")
    parser.add_argument("--cost", default="", help="time the dev book's first alignment with these target runs")
    parser.add_argument("--cost-child", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--tgt-runs", type=int, default=0, help="target runs encoded (default: RUNS['sentences'])")
    args = parser.parse_args(argv)
    if args.cost_child:
        print(json.dumps(cost_child(args.cost_child)))
        return {}
    if args.cost:
        timings = cost([int(x) for x in args.cost.split(",")])
        C.OUT.mkdir(exist_ok=True)
        (C.OUT / "cv_variants_cost.json").write_text(json.dumps(timings, indent=1), encoding="utf-8")
        return {"cost": timings}
    if args.tgt_runs:
        C.CACHE = C.CACHE.with_name(f"cv-runs{args.tgt_runs}")
        _use_runs(args.tgt_runs)
    sets = args.sets.split(",")
    started = time.perf_counter()
    report: dict[str, Any] = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "load at start": C.load(),
                              "sets": sets, "target runs": LP.RUNS["sentences"][1]}
    metrics = _metrics()
    items, _ = C.items_for(sets, 6)
    S = [it for it in items if it.units == "sentences"]
    docs = [it.doc for it in S]
    held = "textberg" if args.book_only else ""  # held out and scored: documents whose name starts so

    def make_folds() -> dict[str, Any]:
        full = C.fit_weights(S, "sentences")
        out = {"__full__": full}
        for name, train, _test in leave_one_out(docs):
            if name.startswith(held):
                out[name] = C.fit_weights([S[i] for i in train], "sentences", start=full)
        return out

    folds = C._cached("expfolds-" + "_".join(sets) + held, make_folds)
    report["captured and fitted s"] = round(time.perf_counter() - started, 1)
    columns = variants()
    if args.variants:
        columns = {name: columns[name] for name in args.variants.split(",")}
    hyps: dict[str, list[Any]] = {c: [None] * len(S) for c in ["first", "learned in-sample", *columns]}
    for name, _train, test in leave_one_out(docs):
        for i in test:
            item = S[i]
            if not item.scored or not name.startswith(held):
                continue
            hyps["first"][i] = C.aligned(item, None)
            # Fitted on every document, this one included.
            hyps["learned in-sample"][i] = C.aligned(item, LP.BeadScoreWeights.from_dict(folds["__full__"], "sentences"))
            seen = C.seen_of(item)
            if item.key not in C._FEATURES:
                C._FEATURES[item.key] = C._memo_features(seen)
            weights = LP.BeadScoreWeights.from_dict(folds[name], "sentences")
            for column, change in columns.items():
                hyps[column][i] = C.path_beads(run_variant(seen, C._FEATURES[item.key], weights, change))
    report["aligned s"] = round(time.perf_counter() - started, 1)
    scored = [i for i, it in enumerate(S) if it.scored and it.doc.startswith(held)]

    def objective(members: list[int], column: str) -> float:
        values = []
        for set_name in dict.fromkeys(S[i].set for i in members):
            rows = [i for i in members if S[i].set == set_name]
            values.append(C.score([S[i] for i in rows], [hyps[column][i] for i in rows], metrics))
        return float(np.mean(values))

    candidates = [c for c in ["learned"] + [f"stretch {t}" for t in TRUSTS] if c in columns]
    chosen: dict[str, str] = {}
    hyps["stretch chosen"] = [None] * len(S)
    for name, train, test in leave_one_out(docs):
        if not name.startswith(held):
            continue
        best = max(candidates, key=lambda c: objective([i for i in train if i in scored], c))
        chosen[name] = best
        for i in test:
            hyps["stretch chosen"][i] = hyps[best][i]
    report["chosen"] = dict(Counter(chosen.values()))
    table: dict[str, dict[str, float]] = {}
    for set_name in dict.fromkeys(S[i].set for i in scored):
        rows = [i for i in scored if S[i].set == set_name]
        table[set_name] = {c: round(C.score([S[i] for i in rows], [h[i] for i in rows], metrics), 3) for c, h in hyps.items()}
        if set_name == "textberg":
            for i in rows:
                table[S[i].doc] = {c: round(C.score([S[i]], [h[i]], metrics), 3) for c, h in hyps.items()}
    report["table"] = table
    report["load at end"] = C.load()
    report["total s"] = round(time.perf_counter() - started, 1)
    C.OUT.mkdir(exist_ok=True)
    suffix = (f"-runs{args.tgt_runs}" if args.tgt_runs else "") + ("-book" if args.book_only else "")
    (C.OUT / f"cv_variants{suffix}.json").write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
    print(f"{'row':16s} " + " ".join(f"{c[:14]:>14s}" for c in hyps))
    for row, values in table.items():
        print(f"{row:16s} " + " ".join(f"{values[c]:14.3f}" for c in hyps))
    print(json.dumps({k: v for k, v in report.items() if k != "table"}))
    return report


if __name__ == "__main__":
    main()
