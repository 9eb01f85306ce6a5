"""How strongly the learned bead score is regularised, chosen as if unseen (DESIGN.md §5, issue 34 §1).

    .venv/bin/python tests/benchmarks/cv_l2.py [--grid 1,10,100,1000,1000s,10000s] [--pieces 6] [--report-only]

``train_bead_score.fit_logistic`` fits every model of the learned second pass
by Newton's method with an L2 penalty (1 in the shipped fit, on tens of
thousands of candidate examples). For each penalty of ``--grid`` every
document is left out in turn (a chapter-sized piece of the Text+Berg dev
book, an EPTIC dev speech text only and timed together, an AHC-SI dev talk
with and without the reference), the weight set ``text_kind="auto"`` used
for it on 2026-11-28 (before a speech's hesitations counted) is refitted on the other documents with that penalty, and the
held-out document is aligned with it (``cv_bead_score.py``'s machinery):

* the book and EPTIC text only: the ``sentences`` set (book + speeches);
* EPTIC timed: the ``interpretation`` set (the speeches alone);
* AHC-SI: the ``chunks`` set's bead model (Bertalign's base + 0.2 × the
  learned part, one source sentence per bead, as shipped); its 1-0 / 0-1
  models stay the sentence fit's with the shipped penalty.

Then a nested choice: for each held-out document the penalty is the one
with the best cross-validated figure on the *other* documents (sentence
targets: the mean of the book's, EPTIC text only's and EPTIC timed's pooled
figures; chunks: the mean of AHC-SI without and with the reference; ties to
the shipped 1), and the document is scored with that penalty's fold.

Each penalty's held-out alignments are cached under ``tmp/cache/cv`` (so
several processes may run parts of the grid; ``--report-only`` reads what is
there). Figures: ``../shared/tools/metrics.py`` pooled strict F1, acc@0.8
(AHC-SI). Writes ``tests/benchmarks/out/cv_l2.json``.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO / "desktop"))
sys.path.insert(0, str(HERE))

import cv_bead_score as C  # noqa: E402

GRID = "1,10,100,1000,1000s,10000s"  # as measured in RESULTS.md
SHIPPED_L2 = 1.0
ROWS = {"textberg": "sentences", "eptic": "sentences", "eptic timed": "sentences", "ahcsi": "chunks", "ahcsi reference": "chunks"}


def row_of(item: C.Item) -> str:
    return "eptic timed" if item.set == "eptic" and item.key.endswith("/timed") else item.set


def held_out(items: list[C.Item], l2: Any, full_sentences: dict[str, Any], tag: str) -> list[C.Gold]:
    """Every scored item aligned with the weights fitted without its document at penalty ``l2`` (or one per model)."""
    from sialign.align.learned_pass import BeadScoreWeights
    from sialign.evaluate.folds import leave_one_out

    path = C.CACHE / f"l2-{tag}.pkl"
    if path.is_file():
        with path.open("rb") as fh:
            return pickle.load(fh)  # type: ignore[no-any-return]
    t0 = time.perf_counter()
    hyps: list[C.Gold] = [[] for _ in items]
    sentence = [it for it in items if it.units == "sentences"]
    eptic = [it for it in sentence if it.doc.startswith("eptic/")]
    chunks = [it for it in items if it.units == "chunks"]
    shipped_chunks = json.loads((REPO / "desktop/sialign/align/bead_score.json").read_text(encoding="utf-8"))["chunks"]
    for name, train, test in leave_one_out([it.doc for it in sentence]):
        raw = C.fit_weights([sentence[i] for i in train], "sentences", start=full_sentences, l2=l2)
        weights = BeadScoreWeights.from_dict(raw, "sentences")
        for i in test:
            item = sentence[i]
            if item.scored and row_of(item) != "eptic timed":
                hyps[items.index(item)] = C.aligned(item, weights)
    print(f"l2 {tag} sentences: {time.perf_counter() - t0:.0f} s, load {C.load()}", file=sys.stderr, flush=True)
    for name, train, test in leave_one_out([it.doc for it in eptic]):
        raw = C.fit_weights([eptic[i] for i in train], "sentences", start=full_sentences, l2=l2)
        weights = BeadScoreWeights.from_dict(raw, "sentences")
        for i in test:
            if row_of(eptic[i]) == "eptic timed":
                hyps[items.index(eptic[i])] = C.aligned(eptic[i], weights)
    print(f"l2 {tag} interpretation: {time.perf_counter() - t0:.0f} s, load {C.load()}", file=sys.stderr, flush=True)
    for name, train, test in leave_one_out([it.doc for it in chunks]):
        raw = C.fit_weights([chunks[i] for i in train], "chunks", full_sentences,
                            l2=l2["match"] if isinstance(l2, dict) else l2)
        raw.update(base=shipped_chunks["base"], learned_weight=shipped_chunks["learned_weight"], max_src=shipped_chunks["max_src"])
        weights = BeadScoreWeights.from_dict(raw, "chunks")
        for i in test:
            hyps[items.index(chunks[i])] = C.aligned(chunks[i], weights)
    print(f"l2 {tag} chunks: {time.perf_counter() - t0:.0f} s, load {C.load()}", file=sys.stderr, flush=True)
    tmp = path.with_suffix(".tmp")
    with tmp.open("wb") as fh:
        pickle.dump(hyps, fh, protocol=pickle.HIGHEST_PROTOCOL)
    tmp.replace(path)
    return hyps


def main(argv: list[str] | None = None) -> dict[str, Any]:
    from bench_peers import _metrics

    from sialign.evaluate.folds import leave_one_out

    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--grid", default=GRID, help="L2 penalties tried (Ns: N per example of the bead model)")
    parser.add_argument("--pieces", type=int, default=6, help="chapter-sized pieces the dev book is cut into")
    parser.add_argument("--report-only", action="store_true", help="report the penalties already cached, fit nothing")
    args = parser.parse_args(argv)
    metrics = _metrics()
    started = time.perf_counter()
    report: dict[str, Any] = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "load at start": C.load()}
    items, _ = C.items_for(["textberg", "eptic", "ahcsi"], args.pieces)
    # "1000s": 1000 for the bead model, the 1-0 / 0-1 models the same penalty per example.
    tags = [f"{float(x.rstrip('s')):g}" + ("s" if x.endswith("s") else "") for x in args.grid.split(",")]
    if args.report_only:
        tags = [t for t in tags if (C.CACHE / f"l2-{t}.pkl").is_file()]
    sentence = [it for it in items if it.units == "sentences"]
    full_sentences = C.fit_weights(sentence, "sentences")  # the shipped penalty: the folds' start, the chunks' skips
    report["examples"] = {kind: int(sum(len(C.item_examples(it)[kind][1]) for it in sentence if it.train))
                          for kind in ("match", "omission", "addition")}
    report["examples"]["chunk match"] = int(sum(len(C.item_examples(it)["match"][1]) for it in items if it.units == "chunks"))
    hyps: dict[str, list[C.Gold]] = {"first": [C.aligned(it, None) if it.scored else [] for it in items]}
    n = report["examples"]
    for tag in tags:
        x = float(tag.rstrip("s"))
        l2 = {kind: x * n[kind] / n["match"] for kind in ("match", "omission", "addition")} if tag.endswith("s") else x
        hyps[tag] = held_out(items, l2, full_sentences, tag)
    scored = [k for k, it in enumerate(items) if it.scored]

    def figure(members: list[int], column: list[C.Gold]) -> float:
        return C.score([items[k] for k in members], [column[k] for k in members], metrics)

    # The nested choice: each document's penalty chosen on the other documents' CV figures.
    chosen: dict[str, str] = {}
    hyps["nested"] = [[] for _ in items]
    for units in ("sentences", "chunks"):
        group = [k for k in scored if items[k].units == units]
        rows = [r for r, u in ROWS.items() if u == units]
        for name, train, test in leave_one_out([items[k].doc for k in group]):
            others = [group[i] for i in train]

            def objective(l2: str, others: list[int] = others, rows: list[str] = rows) -> float:
                values = [figure([k for k in others if row_of(items[k]) == r], hyps[l2]) for r in rows
                          if any(row_of(items[k]) == r for k in others)]
                return float(np.mean(values))

            best = max(tags, key=lambda t: (round(objective(t), 6), t == f"{SHIPPED_L2:g}"))
            chosen[name] = best
            for i in test:
                hyps["nested"][group[i]] = hyps[best][group[i]]
    table: dict[str, dict[str, float]] = {}
    for row in ROWS:
        members = [k for k in scored if row_of(items[k]) == row]
        table[row] = {c: round(figure(members, h), 4) for c, h in hyps.items()}
        if row == "textberg":
            for k in members:
                table[items[k].doc] = {c: round(figure([k], h), 4) for c, h in hyps.items()}
    report["table"] = table
    report["chosen per document"] = chosen
    report["chosen counts"] = {t: sum(1 for v in chosen.values() if v == t) for t in tags}
    return C.write_report("cv_l2", report, started)


if __name__ == "__main__":
    main()
