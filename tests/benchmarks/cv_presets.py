"""Are the first pass's presets overfitted? Leave-one-document-out over the knobs tuned on the dev sets.

    .venv/bin/python tests/benchmarks/cv_presets.py [--sets textberg,eptic,ahcsi] [--pieces 6]

DESIGN.md §5 "Validate as if unseen". The first pass's cost knobs
(``align/costs.py`` ``PRESETS``, and the ``AlignParams`` defaults
``lexical_weight``, ``pivot_weight``, ``time_weight``) were set on the dev
sets. Here the candidates are the shipped settings and every setting with
one knob moved one step either way (as they were tuned: one knob at a
time). Every document is aligned by the first pass alone
(``learned_score=False``; ``--embedder lexical`` for the lexical embedder)
with every candidate; for each held-out document
the candidate that scores best on the *other* documents of its kind of
target (sentences: the Text+Berg pieces and the EPTIC speeches, the mean of
the two sets' pooled figures, each EPTIC speech text only and timed pooled
together; chunks: the AHC-SI talks, with and without
the reference) is the one it is scored with. Ties go to the shipped
setting. The book is aligned whole and each of its ``--pieces`` chapter
pieces scored on its own beads; an EPTIC speech text only and timed, an
AHC-SI talk with and without the reference, are one document.

Figures: ``../shared/tools/metrics.py`` (pooled strict F1) and acc@0.8
(AHC-SI). Writes ``tests/benchmarks/out/cv_presets.json`` and prints a
markdown table (in-sample = the shipped setting).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cv_bead_score as C  # it also puts the package on the path

DATA, OUT, SETS = C.DATA, C.OUT, C.SETS
# One knob at a time around the shipped value (costs.PRESETS and AlignParams' defaults).
GRIDS: dict[str, dict[str, list[float]]] = {
    "sentences": {
        "skip_penalty": [0.75, 1.5],
        "src_size_penalty": [0.5, 1.0],
        "tgt_size_penalty": [0.5, 1.0],
        "length_weight": [0.2, 0.6],
        "lexical_weight": [0.15, 0.5],
        "time_weight": [0.01, 0.05],
    },
    "chunks": {
        "skip_penalty": [1.5, 3.0],
        "omission_skip": [0.8, 1.25],
        "src_size_penalty": [1.5, 3.0],
        "tgt_size_penalty": [0.2, 0.5],
        "length_weight": [0.05, 0.2],
        "pivot_weight": [0.3, 0.7],
    },
}


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def documents(sets: list[str], pieces: int) -> list[tuple[C.Item, Any]]:
    """(item, project maker) for every scored variant of every dev document."""
    import train_bead_score as T

    from sialign.evaluate import load_textberg
    from sialign.evaluate.datasets import load_ahcsi, load_eptic
    from sialign.evaluate.folds import split_gold

    out: list[tuple[C.Item, Any]] = []
    if "textberg" in sets:
        doc = load_textberg(DATA / "textberg-dev")
        gold = [(tuple(s), tuple(t)) for s, t in doc.gold]
        for piece in split_gold(gold, pieces, len(doc.source), len(doc.target)):
            out.append((C.Item(f"textberg/{piece.index}", "textberg", "sentences", "textberg", piece.gold, gold, piece),
                        doc.project))
    if "eptic" in sets:
        for speech in load_eptic(DATA / "eptic-dev"):
            gold = [(tuple(s), tuple(t)) for s, t in speech.gold]
            for times in (False, True):
                key = speech.name + ("/timed" if times else "")
                out.append((C.Item(f"eptic/{speech.name}", "eptic timed" if times else "eptic", "sentences", key, gold, gold),
                            lambda sp=speech, tm=times: sp.project(times=tm)))
    if "ahcsi" in sets:
        for talk in load_ahcsi(DATA / "ahcsi-dev" / "dev.true.tsv"):
            gold = T.ahcsi_gold(talk)
            for reference in (False, True):
                key = f"ahcsi/{talk.name}" + ("/ref" if reference else "")
                out.append((C.Item(f"ahcsi/{talk.name}", "ahcsi reference" if reference else "ahcsi", "chunks", key, gold,
                                   gold, talk=talk, reference=reference), C.ahcsi_project(talk, reference)))
    return out


def candidates(units: str) -> list[tuple[str, dict[str, float]]]:
    """The shipped setting first, then each knob moved one step."""
    out: list[tuple[str, dict[str, float]]] = [("shipped", {})]
    for knob, values in GRIDS[units].items():
        out += [(f"{knob}={v:g}", {knob: v}) for v in values]
    return out


def align_first(make: Any, units: str, knobs: dict[str, float], embedder: str = "auto") -> C.Gold:
    from sialign.align.pipeline import align_project
    from sialign.core.params import AlignParams

    params = AlignParams(target_units=units, learned_score=False, embedder=embedder, **knobs)  # type: ignore[arg-type]
    result = align_project(make(), params)
    return [(tuple(b.src), tuple(b.tgt)) for b in result.alignment.beads]


def set_score(items: list[C.Item], hyps: list[C.Gold], metrics: Any) -> float:
    """Mean over the sets of their pooled figures (as ``cv_bead_score`` chooses a weight)."""
    by_set: dict[str, list[int]] = {}
    for k, it in enumerate(items):
        # A document's variants (EPTIC timed, AHC-SI with the reference) pool with their set.
        by_set.setdefault(it.set.split()[0], []).append(k)
    values = [C.score([items[k] for k in ks], [hyps[k] for k in ks], metrics) for ks in by_set.values()]
    return sum(values) / len(values)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    from bench_peers import _metrics

    from sialign.evaluate.folds import leave_one_out

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument("--pieces", type=int, default=6)
    parser.add_argument("--embedder", default="auto", help="auto (the built-in encoder) or lexical")
    args = parser.parse_args(argv)
    sets = [s for s in args.sets.split(",") if s]
    metrics = _metrics()
    t0 = time.perf_counter()
    report: dict[str, Any] = {"embedder": args.embedder, "load_start": load(), "rows": {}, "chosen": {}}
    docs = documents(sets, args.pieces)
    for units in ("sentences", "chunks"):
        members = [(it, mk) for it, mk in docs if it.units == units]
        if not members:
            continue
        items = [it for it, _ in members]
        cands = candidates(units)
        hyps: dict[str, list[C.Gold]] = {}
        whole: dict[tuple[str, str], C.Gold] = {}  # the book is aligned once per candidate
        for name, knobs in cands:
            column = []
            for it, mk in members:
                if (it.key, name) not in whole:
                    whole[(it.key, name)] = align_first(mk, units, knobs, args.embedder)
                column.append(whole[(it.key, name)])
            hyps[name] = column
            print(f"{units} {name}: {set_score(items, column, metrics):.4f}  (load {load()})", flush=True)
        # Leave one document out: the candidate best on the others, ties to the earlier (shipped first).
        cv: list[C.Gold] = [[] for _ in items]
        chosen: dict[str, str] = {}
        for doc, train, test in leave_one_out([it.doc for it in items]):
            train_items = [items[k] for k in train]
            best = max(cands, key=lambda c: (round(set_score(train_items, [hyps[c[0]][k] for k in train], metrics), 6),
                                             -cands.index(c)))[0]
            chosen[doc] = best
            for k in test:
                cv[k] = hyps[best][k]
        report["chosen"][units] = chosen
        for set_name in dict.fromkeys(it.set for it in items):
            ks = [k for k, it in enumerate(items) if it.set == set_name]
            row = {name: round(C.score([items[k] for k in ks], [hyps[name][k] for k in ks], metrics), 4) for name, _ in cands}
            row["cv"] = round(C.score([items[k] for k in ks], [cv[k] for k in ks], metrics), 4)
            row["best_in_sample"] = max((n for n in row if n != "cv"), key=lambda n: (row[n], n == "shipped"))
            report["rows"][set_name] = row
            if set_name == "textberg":
                for k in ks:
                    report["rows"][items[k].doc] = {
                        "shipped": round(C.score([items[k]], [hyps["shipped"][k]], metrics), 4),
                        "cv": round(C.score([items[k]], [cv[k]], metrics), 4), "chosen": chosen[items[k].doc]}
    report["load_end"], report["seconds"] = load(), round(time.perf_counter() - t0, 1)
    OUT.mkdir(exist_ok=True)
    name = "cv_presets.json" if args.embedder == "auto" else f"cv_presets_{args.embedder}.json"
    (OUT / name).write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
    print("\n| set | first pass, shipped presets (in-sample) | first pass, presets chosen leave-one-document-out (CV) | best single candidate in-sample |")
    print("|---|---|---|---|")
    for set_name, row in report["rows"].items():
        if "best_in_sample" in row:
            print(f"| {set_name} | {row['shipped']:.3f} | {row['cv']:.3f} | {row['best_in_sample']} "
                  f"{row[row['best_in_sample']]:.3f} |")
        else:
            print(f"| … {set_name} | {row['shipped']:.3f} | {row['cv']:.3f} | (chosen: {row['chosen']}) |")
    for units, chosen in report["chosen"].items():
        counts: dict[str, int] = {}
        for name in chosen.values():
            counts[name] = counts.get(name, 0) + 1
        print(f"{units}: chosen " + ", ".join(f"{n} ×{c}" for n, c in sorted(counts.items(), key=lambda x: -x[1])))
    print(f"{report['seconds']} s, load {report['load_start']} -> {report['load_end']}")
    return report


if __name__ == "__main__":
    main()
