"""The reference translation as a voter of the second pass, cross-validated (issue 34 §2: a reference that helps).

    .venv/bin/python tests/benchmarks/cv_reference_vote.py [--parts ahcsi,eptic]

With a reference translation (one line per source sentence, in the target's
language) the first pass already mixes the pivot signal (reference ↔
target) with the direct one; the learned second pass reads the direct
concatenations alone. Here the reference enters the second pass's vote
(``learned_pass.vote_paths``) as a path of its own: Bertalign's unlearned
score (margin × length agreement) of the exact concatenations of the
*reference's* runs with the target's, searched in the same band. Compared,
for every document aligned with its reference, each with the bead score
fitted without it (leave one document out, ``cv_bead_score.fit_weights``;
AHC-SI: the chunk score as shipped, fitted on the other three talks; EPTIC:
the set ``text_kind="auto"`` gives the speech, as shipped — the
interpretation set (with its own offsets) fitted on the other speeches for
the 56 with hesitations, the combined set fitted on the book's pieces and
the other speeches for the other two):

- ``first``: the first pass (with the pivot);
- ``learned``: the learned score's path alone;
- ``shipped``: what the second pass gives today (sentences: the vote of the
  first, learned and direct Bertalign paths; chunks: the learned path);
- ``vote pivot``: the vote of the first, the learned and the reference's
  Bertalign path (the learned 1-0 beads kept, as shipped);
- ``vote 4``: the vote of all four paths;
- and, for comparison, the same documents without their reference (shipped).

EPTIC also gets ``keep bonus b``: the shipped second pass with the chunks'
reference bonus (``learned_pass.REFERENCE_KEEP_LOGODDS``, the first path's
beads made cheaper by b log-odds × the reference's trust × its agreement
with the direct signal; ``LearnedCosts.keep_first``) applied to sentence
targets too, b in ``KEEP_BONUSES``, and b chosen for each held-out speech by
the other speeches' pooled figure.

AHC-SI: acc@0.8 (DESIGN.md §5), by talk and pooled; EPTIC: pooled strict
F1 (``../shared/tools/metrics.py``), and by direction. Nothing is chosen on
the held-out document. Writes ``tests/benchmarks/out/cv_reference_vote.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO / "desktop"))
sys.path.insert(0, str(HERE))

import cv_bead_score as C  # noqa: E402

KEEP_BONUSES = [0.5, 1.0, 2.0, 4.0, 8.0]


def keep_bonus_columns(items: list[C.Item], weights: list[Any], hyps: dict[str, list[C.Gold]], metrics: Any) -> dict[str, int]:
    """Add ``keep bonus b`` columns (and ``keep bonus chosen``, b picked leave one speech out, 0 = shipped among
    the candidates) to ``hyps``; returns how often each b was chosen."""
    from sialign.align import learned_pass
    from sialign.evaluate.folds import leave_one_out

    shipped = learned_pass.REFERENCE_KEEP_LOGODDS
    try:
        for bonus in KEEP_BONUSES:
            learned_pass.REFERENCE_KEEP_LOGODDS = {**shipped, "sentences": bonus}
            hyps[f"keep bonus {bonus}"] = [C.realign(it, w) for it, w in zip(items, weights)]
    finally:
        learned_pass.REFERENCE_KEEP_LOGODDS = shipped
    columns = {0.0: hyps["shipped"], **{b: hyps[f"keep bonus {b}"] for b in KEEP_BONUSES}}
    chosen: dict[str, int] = {}
    picked: list[C.Gold] = [[] for _ in items]
    for _name, train, test in leave_one_out([it.doc for it in items]):
        best = max(columns, key=lambda b: (round(C.score([items[i] for i in train], [columns[b][i] for i in train], metrics), 6), -b))
        chosen[str(best)] = chosen.get(str(best), 0) + 1
        for i in test:
            picked[i] = columns[best][i]
    hyps["keep bonus chosen"] = picked
    return chosen


def reference_runs(reference: list[str], target: list[str], runs: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """(runs, n, dim) unit vectors of the reference's runs and (n,) its lines' character lengths."""
    from sialign.embed.base import l2_normalise_rows
    from sialign.embed.models import load_embedder
    from sialign.embed.pairs import encode_pair

    texts = [" ".join(t.split()) for t in reference]
    _, _, spans, _ = encode_pair(load_embedder("use-multilingual"), texts, [" ".join(t.split()) for t in target],
                                 candidates="exact", max_side=runs[0], max_other=runs[1], same_language=True)
    assert spans is not None
    flat = l2_normalise_rows(np.asarray(spans, dtype=np.float32).reshape(-1, spans.shape[-1]).copy())
    return flat.reshape(spans.shape), np.array([len(t) for t in texts], dtype=np.float64)


def paths(item: C.Item, weights: Any, pivot: tuple[np.ndarray, np.ndarray]) -> dict[str, list[tuple[int, int, int, int]]]:
    """The first, learned, direct Bertalign and reference Bertalign paths of one captured document."""
    from sialign.align import learned_pass as LP

    seen = C.seen_of(item)
    if item.key not in C._FEATURES:
        C._FEATURES[item.key] = C._memo_features(seen)
    features = C._FEATURES[item.key]
    first = seen["path"]
    n, m = seen["first"].n_src, seen["first"].n_tgt
    max_src, max_tgt = seen["limits"]
    if weights.max_src:
        max_src = min(max_src, weights.max_src)
    band = LP.path_band(first, n, m)
    unlearned = replace(weights, base="bertalign", learned_weight=0.0)
    ref_features = LP.BeadFeatures(pivot[0], seen["tgt_spans"], pivot[1], seen["tgt_chars"], seen["first"])
    with LP.one_blas_thread():
        direct = LP.LearnedCosts(features, unlearned, band, max_src, max_tgt)
        through = LP.LearnedCosts(ref_features, unlearned, band, max_src, max_tgt)
        mixed = LP.LearnedCosts(features, unlearned, band, max_src, max_tgt)
        mixed.band_costs = lambda types, rows, j: 0.5 * (direct.band_costs(types, rows, j) + through.band_costs(types, rows, j))  # type: ignore[method-assign]
        return {
            "first": first,
            "learned": LP._best_path(features, weights, band, first, max_src, max_tgt, None),
            "direct": LP.banded_dp(direct, band).beads,
            "pivot": LP.banded_dp(through, band).beads,
            "mixed": LP.banded_dp(mixed, band).beads,
        }


def variants(p: dict[str, list[tuple[int, int, int, int]]], units: str) -> dict[str, list[tuple[int, int, int, int]]]:
    from sialign.align.learned_pass import vote_paths

    kept = [b for b in p["learned"] if b[1] and not b[3]] if units == "sentences" else []
    shipped = vote_paths([p["first"], p["learned"], p["direct"]], kept=kept) if units == "sentences" else p["learned"]
    return {
        "first": p["first"], "learned": p["learned"], "shipped": shipped,
        "vote pivot": vote_paths([p["first"], p["learned"], p["pivot"]], kept=kept),
        "vote 4": vote_paths([p["first"], p["learned"], p["direct"], p["pivot"]], kept=kept),
        "vote mixed": vote_paths([p["first"], p["learned"], p["mixed"]], kept=kept),
        "mixed alone": p["mixed"],
        "pivot alone": p["pivot"],
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    from bench_peers import _metrics
    from cv_priors import _folds

    from sialign.align.learned_pass import BeadScoreWeights, shipped_weights
    from sialign.evaluate.datasets import load_eptic

    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--parts", default="ahcsi,eptic")
    args = parser.parse_args(argv)
    metrics = _metrics()
    started = time.perf_counter()
    report: dict[str, Any] = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "load at start": C.load()}
    if "ahcsi" in args.parts:
        items, _ = C.items_for(["ahcsi"], 1)
        skips = json.loads((REPO / "desktop/sialign/align/bead_score.json").read_text(encoding="utf-8"))["sentences"]
        _full, folds = _folds(items, "chunks", skips)
        chunk = shipped_weights("chunks")
        assert chunk is not None
        rows: dict[str, dict[str, C.Gold]] = {}
        plain: dict[str, C.Gold] = {}
        for item in items:
            weights = replace(BeadScoreWeights.from_dict(folds[item.doc], "chunks"), base=chunk.base,
                              learned_weight=chunk.learned_weight, max_src=chunk.max_src)
            if not item.reference:
                plain[item.doc] = C.path_beads(paths(item, weights, (C.seen_of(item)["src_spans"], C.seen_of(item)["src_chars"]))["learned"])
                continue
            talk = item.talk
            pivot = reference_runs(list(talk.reference), list(talk.target), (2, 10))
            rows[item.doc] = {k: C.path_beads(v) for k, v in variants(paths(item, weights, pivot), "chunks").items()}
        ref_items = [it for it in items if it.reference]
        plain_items = [it for it in items if not it.reference]
        table: dict[str, dict[str, float]] = {}
        for it in ref_items:
            table[it.doc] = {k: round(C.score([it], [v], metrics), 3) for k, v in rows[it.doc].items()}
            table[it.doc]["no reference"] = round(C.score([next(p for p in plain_items if p.doc == it.doc)], [plain[it.doc]], metrics), 3)
        table["pooled"] = {k: round(C.score(ref_items, [rows[it.doc][k] for it in ref_items], metrics), 3) for k in rows[ref_items[0].doc]}
        table["pooled"]["no reference"] = round(C.score(plain_items, [plain[it.doc] for it in plain_items], metrics), 3)
        report["AHC-SI acc@0.8 with the reference (CV)"] = table
        print(json.dumps(table, indent=1), flush=True)
    if "eptic" in args.parts:
        items, _ = C.items_for(["textberg", "eptic"], 6)
        sentences = [it for it in items if it.units == "sentences"]
        fits = C.auto_fits(sentences)
        speeches = {s.name: s for s in load_eptic(C.DATA / "eptic-dev")}
        hyps: dict[str, list[C.Gold]] = {}
        ref_items, ref_weights = [], []
        for name, speech in speeches.items():
            if speech.reference is None:
                continue
            gold = [(tuple(s), tuple(t)) for s, t in speech.gold]
            item = C.Item(f"eptic/{name}", "eptic reference", "sentences", name + "/ref", gold, gold, train=False)
            C.seen_of(item, lambda sp=speech: sp.project(times=False, reference=True))
            ref_items.append(item)
            plain = next(it for it in items if it.key == name)
            # The reference changes nothing in what auto reads (hesitations, timestamps, a recording).
            weights = BeadScoreWeights.from_dict(fits.raw(plain), "sentences")
            pivot = reference_runs(list(speech.reference), list(speech.target), (4, 4))
            ref_weights.append(weights)
            for k, v in variants(paths(item, weights, pivot), "sentences").items():
                hyps.setdefault(k, []).append(C.path_beads(v))
            hyps.setdefault("no reference (shipped)", []).append(C.aligned(plain, weights))
        report["EPTIC speeches with a reference"] = len(ref_items)
        report["EPTIC keep bonus chosen (speeches)"] = keep_bonus_columns(ref_items, ref_weights, hyps, metrics)
        table = {"pooled": {k: round(C.score(ref_items, v, metrics), 4) for k, v in hyps.items()}}
        for direction in sorted({it.key.split("/")[0] for it in ref_items}):
            idx = [k for k, it in enumerate(ref_items) if it.key.startswith(direction + "/")]
            table[direction] = {k: round(C.score([ref_items[i] for i in idx], [v[i] for i in idx], metrics), 3) for k, v in hyps.items()}
        report["EPTIC strict F1 with the reference (CV)"] = table
        print(json.dumps(table, indent=1), flush=True)
    return C.write_report("cv_reference_vote", report, started)


if __name__ == "__main__":
    main()
