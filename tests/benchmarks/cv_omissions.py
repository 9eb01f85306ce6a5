"""Omitted sentences and the shown probabilities, cross-validated (issue 34 §1; DESIGN.md §5: validate as if unseen).

    .venv/bin/python tests/benchmarks/cv_omissions.py [--pieces 6] [--show-false] [--parts omissions|interpretation,chunks,features]

Builds on ``cv_bead_score.py`` (its captures and training examples, cached
under ``tmp/cache/cv``): the documents are the Text+Berg dev book cut into
``--pieces`` chapter-sized pieces and the 58 EPTIC dev speeches (text only and
timed: two items of one document, held out together). For every document the
sentence bead score is refitted on all the others (``cv_bead_score.fit_weights``,
as the shipped fit: the book's other pieces in runs of 25 beads and the other
speeches).

**Offsets.** The 1-0 and 0-1 decision offsets (``omission_offset``,
``addition_offset``) are not fitted by the logistic models; the shipped ones
were chosen on the dev sets in-sample. Here every document is aligned with its
fold's weights at every offset pair of the grid; the pair used for a held-out
document is then chosen by a stated criterion on the *other* documents'
cross-validated alignments, never on its own:

- ``f1``: the mean of the three pooled strict F1s (EPTIC text only, EPTIC
  timed, the book's pieces), as ``cv_bead_score`` chooses its weight;
- ``precision P``: the most omissions found (recall, EPTIC text and timed
  pooled) among the pairs whose omission precision is ≥ P and whose mean
  strict F1 is at most ``F1_TOLERANCE`` below that of the shipped pair
  (ties: the higher strict F1); the shipped pair when none qualifies.

**Calibration.** The probability a reader sees (``BeadScoreWeights.calibrated``,
Platt scaling of a bead's log-odds, one for beads and one for 1-0 / 0-1
beads) is fitted on the beads of the aligned training talks. Here it is
fitted as ``train_bead_score.calibrate`` fits it and scored on held-out
documents: the Brier score and the expected calibration error (10 bins) of
the shown probabilities of each held-out path's beads (right = a gold bead),
against the same figures in-sample.

``--parts interpretation``: the offsets of the interpretation weight set
(``WEIGHT_SETS["interpretation"]``, fitted on the EPTIC speeches alone), which
``text_kind="auto"`` gives the speeches it takes for interpretations (56 of
the 58 text only, by their hesitations, and every timed one). Each such speech
is aligned with that set refitted on the other speeches, at every pair of
``OMISSION_GRID`` × ``INTERPRETATION_ADDITION_GRID``; the pair for a held-out
speech is chosen by the criteria above on the other speeches' cross-validated
alignments (the mean of EPTIC's text-only and timed pooled strict F1, or the
most omissions found at a precision), never on its own. The speeches ``auto``
scores with the combined set keep it (as the shipped second pass), so the
pooled figures are those of all 58 under ``auto``.

``--parts chunks``: the chunk 0-1 offset (``train_bead_score.CHUNK_ADDITION_OFFSET``)
chosen leave one talk out on AHC-SI dev (acc@0.8). ``--parts features``:
omission features tried beside ``SKIP_FEATURES``, each scored by the average
precision of the omission model's held-out ranking (leave one speech out on
EPTIC). These write ``out/cv_omissions_<parts>.json``.

Figures by ``../shared/tools/metrics.py`` (strict F1 and omissions, pooled).
Writes ``tests/benchmarks/out/cv_omissions.json``; ``--show-false`` prints the
false omissions of the chosen cross-validated alignments with their text.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import cv_bead_score as C  # noqa: E402

OMISSION_GRID = [0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0]
ADDITION_GRID = [0.5, 1.0, 1.5, 2.0]
PRECISIONS = [0.65, 0.7, 0.75]
F1_TOLERANCE = 0.002
CAL_BINS = 10

Pair = tuple[float, float]


def fold_fits(items: list[C.Item], full: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each sentence document's fold weights (fitted without it), cached under ``tmp/cache/cv``."""
    from sialign.align.learned_pass import SKIP_FEATURES, match_features
    from sialign.evaluate.folds import leave_one_out

    tag = hashlib.sha1(json.dumps([match_features("sentences"), SKIP_FEATURES, sorted({it.key for it in items})]).encode()).hexdigest()[:12]

    def make() -> dict[str, dict[str, Any]]:
        out = {}
        t0 = time.perf_counter()
        for name, train, _test in leave_one_out([it.doc for it in items]):
            out[name] = C.fit_weights([items[i] for i in train], "sentences", start=full)
            print(f"fold {name}: {time.perf_counter() - t0:.0f} s, load {C.load()}", file=sys.stderr, flush=True)
        return out

    return C._cached(f"omission-folds-{tag}", make)  # type: ignore[no-any-return]


def with_offsets(raw: dict[str, Any], pair: Pair) -> Any:
    from sialign.align.learned_pass import BeadScoreWeights

    return replace(BeadScoreWeights.from_dict(raw, "sentences"), omission_offset=pair[0], addition_offset=pair[1])


def figures(items: list[C.Item], hyps: list[C.Gold], metrics: Any) -> dict[str, Any]:
    """Per set: pooled strict F1 and (EPTIC) omission precision / recall / counts."""
    out: dict[str, Any] = {}
    for set_name in ("eptic", "eptic timed", "textberg"):
        ks = [k for k, it in enumerate(items) if it.set == set_name]
        if not ks:
            continue
        s = metrics.bead_scores([C.scored_beads(items[k], hyps[k]) for k in ks], [items[k].gold for k in ks])
        row = {"strict_f1": round(s["strict_f1"], 4)}
        if set_name != "textberg":
            found = round(s["omission_r"] * s["omissions_gold"])
            row.update(omission_p=round(s["omission_p"], 3), omission_r=round(s["omission_r"], 3),
                       found=found, gold=s["omissions_gold"], flagged=s["omissions_flagged"])
        out[set_name] = row
    return out


def counts(item: C.Item, hyp: C.Gold) -> np.ndarray:
    """(strict hits of hyp, hyp beads, gold hits, gold beads, omissions found, flagged, gold) of one item,
    as ``metrics.bead_scores`` counts them (pooled figures are sums of these)."""
    hyp = C.scored_beads(item, hyp)
    gset, hset = set(item.gold), set(hyp)
    both_h = [b for b in hyp if b[0] and b[1]]
    both_g = [b for b in item.gold if b[0] and b[1]]
    g_om = {x for s, t in item.gold if s and not t for x in s}
    h_om = {x for s, t in hyp if s and not t for x in s}
    return np.array([sum(b in gset for b in both_h), len(both_h), sum(b in hset for b in both_g), len(both_g),
                     len(g_om & h_om), len(h_om), len(g_om)], dtype=np.float64)


def _f1(c: np.ndarray) -> float:
    p, r = c[0] / max(c[1], 1), c[2] / max(c[3], 1)
    return 2 * p * r / (p + r) if p + r else 0.0


def objective(items: list[C.Item], table: np.ndarray) -> tuple[float, float, float]:
    """(mean strict F1 of the three sets, omission precision, recall) of ``items`` from their ``counts`` rows."""
    f1s = [_f1(table[[k for k, it in enumerate(items) if it.set == s]].sum(axis=0))
           for s in ("eptic", "eptic timed", "textberg") if any(it.set == s for it in items)]
    om = table[[k for k, it in enumerate(items) if it.set.startswith("eptic")]].sum(axis=0)
    return float(np.mean(f1s)), om[4] / max(om[5], 1), om[4] / max(om[6], 1)


def choose(items: list[C.Item], by_pair: dict[Pair, np.ndarray], criterion: str, shipped: Pair) -> Pair:
    """The offset pair ``criterion`` picks on ``items`` (the other documents) from their ``counts`` by pair."""
    score = {pair: objective(items, table) for pair, table in by_pair.items()}
    if criterion == "f1":
        return max(by_pair, key=lambda p: (round(score[p][0], 6), p == shipped))
    floor = float(criterion.split()[-1])
    best, best_key = shipped, None
    for pair, (f1, precision, recall) in score.items():
        if precision < floor or f1 < score[shipped][0] - F1_TOLERANCE:
            continue
        key = (recall, round(f1, 6))
        if best_key is None or key > best_key:
            best, best_key = pair, key
    return best


def omission_breakdown(items: list[C.Item], hyps: list[C.Gold]) -> dict[str, Any]:
    """Omissions found / flagged / gold (EPTIC text only) at a speech's first or last sentence vs inside it, by
    direction, and how many false ones the gold puts in a bead with a neighbouring source sentence."""
    out: dict[str, Any] = {}

    def add(key: str, found: int, flagged: int, gold_n: int) -> None:
        row = out.setdefault(key, {"found": 0, "flagged": 0, "gold": 0})
        row["found"] += found
        row["flagged"] += flagged
        row["gold"] += gold_n

    merged = 0
    for it, hyp in zip(items, hyps):
        if it.set != "eptic":
            continue
        n = max(x for s, _ in it.gold for x in s) + 1
        g = {x for s, t in it.gold if s and not t for x in s}
        h = {x for s, t in hyp if s and not t for x in s}
        for place, keep in (("first or last sentence", {0, n - 1}), ("inside the speech", set(range(1, n - 1)))):
            add(place, len(g & h & keep), len(h & keep), len(g & keep))
        add(it.key.split("/")[0], len(g & h), len(h), len(g))
        merged += sum(1 for x in h - g for s, t in it.gold if x in s and len(s) > 1 and t)
    for row in out.values():
        row["precision"] = round(row["found"] / max(row["flagged"], 1), 3)
        row["recall"] = round(row["found"] / max(row["gold"], 1), 3)
    out["false omissions the gold joins to a neighbouring sentence's rendering"] = merged
    return out


def path_spans(beads: C.Gold) -> list[tuple[int, int, int, int]]:
    spans: list[tuple[int, int, int, int]] = []
    i = j = 0
    for s, t in beads:
        i0 = s[0] if s else i
        j0 = t[0] if t else j
        spans.append((i0, len(s), j0, len(t)))
        i, j = i0 + len(s), j0 + len(t)
    return spans


_PLAIN: dict[str, Any] = {}


def path_log_odds(item: C.Item, weights: Any, beads: C.Gold) -> list[tuple[float, bool, bool]]:
    """(log-odds as a reader's probability is computed from them, is a 1-0/0-1 bead, is a gold bead) per bead of the path
    (as ``explain.bead_confidences``: the skip features over the band around this path)."""
    from sialign.align.learned_pass import BeadFeatures, log_odds, path_band

    seen = C.seen_of(item)
    first = seen["first"]
    if item.key not in _PLAIN:
        _PLAIN[item.key] = BeadFeatures(seen["src_spans"], seen["tgt_spans"], seen["src_chars"], seen["tgt_chars"], first)
    features = _PLAIN[item.key]
    spans = path_spans(beads)
    band = path_band(spans, first.n_src, first.n_tgt)
    skips = {side: features.skips(side, band) for side in ("src", "tgt")}
    golden = set(item.gold) if item.piece is None else set(item.full_gold)
    keep = C.scored_beads(item, beads)
    out = []
    for (i0, a, j0, b), bead in zip(spans, beads):
        if bead not in keep:
            continue
        if a == 0 or b == 0:
            w, offset = (weights.omission, weights.omission_offset) if b == 0 else (weights.addition, weights.addition_offset)
            value = float(log_odds(w, skips["src" if b == 0 else "tgt"][:, i0 if b == 0 else j0])) - offset
        elif a > features.src.shape[0] or b > features.tgt.shape[0]:
            continue
        else:
            ii, jj = np.array([i0 + a]), np.array([j0 + b])
            value = float(log_odds(weights.match, features.match(a, b, ii, jj, first.bead_cost(a, b, ii, jj)))[0])
        if np.isfinite(value):
            out.append((value, a == 0 or b == 0, bead in golden))
    return out


def platt(rows: list[tuple[float, bool, bool]]) -> dict[str, tuple[float, float]]:
    """``train_bead_score.calibrate``'s Platt scaling of these rows (none below its minimum count)."""
    import train_bead_score as T

    out = {}
    for kind, skip in (("bead", False), ("skip", True)):
        sel = [(lo, ok) for lo, sk, ok in rows if sk == skip]
        if len(sel) < T.CALIBRATION_MIN:
            continue
        X = np.array([[1.0, lo] for lo, _ in sel])
        y = np.array([float(ok) for _, ok in sel])
        b, a = T.fit_logistic(X, y, l2=0.01)
        out[kind] = (float(a), float(b))
    return out


def calibration_scores(rows: list[tuple[float, float, bool, bool]]) -> dict[str, Any]:
    """Brier score, ECE (10 equal-width bins) and mean probability vs share right, for (p, log-odds, skip, right) rows."""
    out: dict[str, Any] = {}
    for kind, sel in (("all", rows), ("bead", [r for r in rows if not r[2]]), ("skip", [r for r in rows if r[2]])):
        if not sel:
            continue
        p = np.array([r[0] for r in sel])
        y = np.array([float(r[3]) for r in sel])
        bins = np.minimum((p * CAL_BINS).astype(int), CAL_BINS - 1)
        ece = sum(abs(p[bins == k].mean() - y[bins == k].mean()) * (bins == k).sum() for k in range(CAL_BINS) if (bins == k).any()) / len(p)
        # Ranking: the chance that a right bead reads higher than a wrong one (ties half).
        right, wrong = p[y == 1], p[y == 0]
        auc = float((right[:, None] > wrong[None, :]).mean() + 0.5 * (right[:, None] == wrong[None, :]).mean()) if len(right) and len(wrong) else float("nan")
        base = float(y.mean())
        out[kind] = {"n": len(sel), "brier": round(float(np.mean((p - y) ** 2)), 4), "ece": round(float(ece), 4),
                     "auc": round(auc, 3), "brier of the share right as a constant": round(base * (1 - base), 4),
                     "mean p": round(float(p.mean()), 3), "share right": round(float(y.mean()), 3)}
    return out


def shown(cal: dict[str, tuple[float, float]], lo: float, skip: bool) -> float:
    a, b = cal.get("skip" if skip else "bead", (1.0, 0.0))
    return float(1.0 / (1.0 + np.exp(-np.clip(a * lo + b, -50, 50))))


CHUNK_ADDITION_GRID = [1.0, 2.0, 3.0, 5.0, 8.0]
INTERPRETATION_ADDITION_GRID = ADDITION_GRID + [2.5, 3.0, 4.0]


def interpretation_offsets(metrics: Any) -> dict[str, Any]:
    """The interpretation set's 1-0 / 0-1 offsets chosen leave one speech out on EPTIC dev under ``text_kind="auto"``
    (the module docstring, ``--parts interpretation``)."""
    import train_bead_score as T

    from sialign.align.learned_pass import shipped_weights
    from sialign.evaluate.folds import leave_one_out

    items = [it for it in C.items_for(["textberg", "eptic"], 6)[0] if it.units == "sentences"]
    eptic = [it for it in items if it.doc.startswith("eptic/")]
    interp_full = C.fit_weights(eptic, "sentences")
    interp_folds = fold_fits(eptic, interp_full)
    combined_folds = fold_fits(items, C.fit_weights(items, "sentences"))
    kinds = {it.key: C.auto_text_kind(it) for it in eptic}
    shipped = shipped_weights("interpretation")
    assert shipped is not None
    shipped_pair = (shipped.omission_offset, shipped.addition_offset)
    combined_pair = (T.OMISSION_OFFSET, T.ADDITION_OFFSET)
    pairs = [(o, a) for o in OMISSION_GRID for a in INTERPRETATION_ADDITION_GRID]

    def hyp(it: C.Item, pair: Pair, fold: bool = True) -> C.Gold:
        if kinds[it.key] != "interpretation":  # the combined set, as shipped
            return C.aligned(it, with_offsets(combined_folds[it.doc], combined_pair))
        return C.aligned(it, with_offsets(interp_folds[it.doc] if fold else interp_full, pair))

    cv = {p: [hyp(it, p) for it in eptic] for p in pairs}
    ins = {p: [hyp(it, p, fold=False) for it in eptic] for p in pairs}
    cv_counts = {p: np.array([counts(it, h) for it, h in zip(eptic, cv[p])]) for p in pairs}
    ins_counts = {p: np.array([counts(it, h) for it, h in zip(eptic, ins[p])]) for p in pairs}
    out: dict[str, Any] = {
        "speeches auto takes as written translations (text only; the combined set)":
            sorted(k for k, v in kinds.items() if v != "interpretation"),
        "shipped offsets": list(shipped_pair),
        "first pass": figures(eptic, [C.aligned(it, None) for it in eptic], metrics),
        "shipped offsets, CV": figures(eptic, cv[shipped_pair], metrics),
        f"the combined set's offsets ({combined_pair[0]} / {combined_pair[1]}), CV": figures(eptic, cv[combined_pair], metrics),
        "grid, CV (each pair fixed for every speech)": {f"{o} / {a}": figures(eptic, cv[(o, a)], metrics) for o, a in pairs},
    }
    out["omissions by place and direction (CV, shipped offsets)"] = omission_breakdown(eptic, cv[shipped_pair])
    docs = [it.doc for it in eptic]
    for criterion in ["f1"] + [f"precision {p}" for p in PRECISIONS]:
        hyps: list[C.Gold] = [[] for _ in eptic]
        chosen: dict[str, int] = {}
        for _name, train, test in leave_one_out(docs):
            pair = choose([eptic[i] for i in train], {p: cv_counts[p][train] for p in pairs}, criterion, shipped_pair)
            chosen[f"{pair[0]} / {pair[1]}"] = chosen.get(f"{pair[0]} / {pair[1]}", 0) + 1
            for i in test:
                hyps[i] = cv[pair][i]
        in_pair = choose(eptic, ins_counts, criterion, shipped_pair)
        out[f"chosen by {criterion}"] = {
            "CV (the pair chosen on the other speeches)": figures(eptic, hyps, metrics), "pairs chosen (speeches)": chosen,
            "pair chosen on every speech (in-sample)": list(in_pair), "that pair, CV": figures(eptic, cv[in_pair], metrics),
            "that pair, in-sample": figures(eptic, ins[in_pair], metrics),
        }
        print(f"{criterion}: {json.dumps(out[f'chosen by {criterion}'])}", file=sys.stderr, flush=True)
    return out
CANDIDATE_FEATURES = ["length relative to the speech's median", "a neighbour matches the best partner better",
                      "first or last sentence", "best partner's best source minus this cosine", "a 1-0 of the first pass"]


def candidate_features(item: C.Item) -> np.ndarray:
    """(n, 5) omission features tried beside ``SKIP_FEATURES`` (see ``CANDIDATE_FEATURES``)."""
    seen = C.seen_of(item)
    src, tgt = seen["src_spans"][0], seen["tgt_spans"][0]
    n = len(src)
    log_chars = np.log1p(seen["src_chars"].astype(np.float64))
    sims = src @ tgt.T
    best, partner = sims.max(axis=1), sims.argmax(axis=1)
    claimed = np.array([max((sims[q, partner[k]] for q in (k - 1, k + 1) if 0 <= q < n), default=best[k] - 1.0) - best[k]
                        for k in range(n)])
    edge = np.zeros(n)
    edge[[0, n - 1]] = 1.0
    first_skip = np.zeros(n)
    for i0, a, _j0, b in seen["path"]:
        if b == 0:
            first_skip[i0 : i0 + a] = 1.0
    return np.stack([log_chars - np.median(log_chars), claimed, edge, sims.max(axis=0)[partner] - best, first_skip], axis=1)


def omission_features() -> dict[str, float]:
    """Average precision of the omission model's held-out ranking of EPTIC source sentences (leave one speech
    out, text and timed), with the shipped features and with each candidate feature added."""
    import train_bead_score as T

    from sialign.evaluate.folds import leave_one_out

    items = [it for it in C.items_for(["eptic"], 1)[0]]
    data = []
    for it in items:
        X, y = C.item_examples(it)["omission"]
        data.append((X, candidate_features(it)[: len(y)], y.astype(np.float64)))

    def held_out_ap(cols: list[int]) -> float:
        scores, labels = [], []
        for _name, train, test in leave_one_out([it.doc for it in items]):
            w = T.fit_logistic(np.concatenate([np.hstack([data[i][0], data[i][1][:, cols]]) for i in train]),
                               np.concatenate([data[i][2] for i in train]))
            for i in test:
                scores.append(np.hstack([data[i][0], data[i][1][:, cols]]) @ w)
                labels.append(data[i][2])
        s, y = np.concatenate(scores), np.concatenate(labels)
        y = y[np.argsort(-s)]
        precision = np.cumsum(y) / np.arange(1, len(y) + 1)
        return round(float((precision * y).sum() / max(y.sum(), 1)), 3)

    out = {"shipped features": held_out_ap([])}
    for k, name in enumerate(CANDIDATE_FEATURES):
        out["+ " + name] = held_out_ap([k])
    out["+ all five"] = held_out_ap(list(range(len(CANDIDATE_FEATURES))))
    return out


def chunk_offsets(metrics: Any) -> dict[str, Any]:
    """The chunk 0-1 offset (``train_bead_score.CHUNK_ADDITION_OFFSET``) chosen leave one talk out on AHC-SI dev.

    For each held-out talk: the chunk bead model refitted on the other three
    talks (with and without the reference; the skip models are the shipped
    sentence ones, as in the shipped fit), the talk aligned at every offset of
    the grid, and the offset chosen by the other talks' cross-validated
    acc@0.8 (mean of without and with the reference)."""
    import json as _json

    from sialign.align.learned_pass import WEIGHTS_FILE, BeadScoreWeights
    from sialign.evaluate.folds import leave_one_out

    items, _ = C.items_for(["ahcsi"], 1)
    sentence_skips = _json.loads(WEIGHTS_FILE.read_text(encoding="utf-8"))["sentences"]
    full = C.fit_weights(items, "chunks", sentence_skips)
    hyps: dict[str, dict[float, list[C.Gold]]] = {"CV": {}, "in-sample": {}}
    fold_raw = {name: C.fit_weights([items[i] for i in train], "chunks", sentence_skips, start=full)
                for name, train, _test in leave_one_out([it.doc for it in items])}
    for offset in CHUNK_ADDITION_GRID:
        hyps["CV"][offset] = [C.aligned(it, replace(BeadScoreWeights.from_dict(fold_raw[it.doc], "chunks"), addition_offset=offset))
                              for it in items]
        hyps["in-sample"][offset] = [C.aligned(it, replace(BeadScoreWeights.from_dict(full, "chunks"), addition_offset=offset))
                                     for it in items]

    def acc(members: list[int], column: list[C.Gold]) -> dict[str, float]:
        return {tag: round(C.score([items[k] for k in members if items[k].reference == ref],
                                   [column[k] for k in members if items[k].reference == ref], metrics), 3)
                for tag, ref in (("no reference", False), ("reference", True))}

    everyone = list(range(len(items)))
    out: dict[str, Any] = {f"{kind}, offset {o}": acc(everyone, col) for kind in hyps for o, col in hyps[kind].items()}
    chosen_col: list[C.Gold] = [[] for _ in items]
    chosen: dict[str, float] = {}
    for name, train, test in leave_one_out([it.doc for it in items]):
        best = max(CHUNK_ADDITION_GRID, key=lambda o: (float(np.mean(list(acc(train, hyps["CV"][o]).values()))), o == 3.0))
        chosen[name] = best
        for i in test:
            chosen_col[i] = hyps["CV"][best][i]
    out["CV, offset chosen on the other talks"] = acc(everyone, chosen_col)
    out["chosen per talk"] = chosen
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    from bench_peers import _metrics

    from sialign.align.learned_pass import shipped_weights
    from sialign.evaluate.folds import leave_one_out

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pieces", type=int, default=6, help="chapter-sized pieces the dev book is cut into")
    parser.add_argument("--show-false", action="store_true", help="print the false omissions of the chosen CV alignments")
    parser.add_argument("--parts", default="omissions", help="omissions (EPTIC and the book: offsets, calibration), interpretation (the interpretation set's "
                        "offsets), chunks (AHC-SI's 0-1 offset), "
                        "features (omission features tried)")
    args = parser.parse_args(argv)
    metrics = _metrics()
    if "omissions" not in args.parts:
        report = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "load at start": C.load()}
        started = time.perf_counter()
        if "chunks" in args.parts:
            report["chunk addition offset, AHC-SI acc@0.8"] = chunk_offsets(metrics)
        if "interpretation" in args.parts:
            report["interpretation set's offsets, EPTIC under auto"] = interpretation_offsets(metrics)
        if "features" in args.parts:
            report["omission features, held-out average precision"] = omission_features()
        report["load at end"], report["total s"] = C.load(), round(time.perf_counter() - started, 1)
        C.OUT.mkdir(exist_ok=True)
        (C.OUT / f"cv_omissions_{args.parts.replace(',', '_')}.json").write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
        print(json.dumps(report, indent=1, ensure_ascii=False))
        return report
    started = time.perf_counter()
    report: dict[str, Any] = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "load at start": C.load()}
    all_items, sources = C.items_for(["textberg", "eptic"], args.pieces)
    items = [it for it in all_items if it.units == "sentences"]
    scored = [it for it in items if it.scored]
    t0 = time.perf_counter()
    full = C.fit_weights(items, "sentences")
    folds = fold_fits(items, full)
    report["fits s"] = round(time.perf_counter() - t0, 1)
    shipped_w = shipped_weights("sentences")
    assert shipped_w is not None
    shipped_pair = (shipped_w.omission_offset, shipped_w.addition_offset)
    pairs = [(o, a) for o in OMISSION_GRID for a in ADDITION_GRID]
    t0 = time.perf_counter()
    cv: dict[Pair, list[C.Gold]] = {}
    ins: dict[Pair, list[C.Gold]] = {}
    for pair in pairs:
        cv[pair] = [C.aligned(it, with_offsets(folds[it.doc], pair)) for it in scored]
        ins[pair] = [C.aligned(it, with_offsets(full, pair)) for it in scored]
    shipped_hyps = [C.aligned(it, shipped_w) for it in scored]
    first_hyps = [C.aligned(it, None) for it in scored]
    report["aligned s"] = round(time.perf_counter() - t0, 1)
    report["shipped offsets"] = list(shipped_pair)
    report["first pass"] = figures(scored, first_hyps, metrics)
    report["shipped weights (bead_score.json), in-sample for most"] = figures(scored, shipped_hyps, metrics)
    report["grid, in-sample (refitted on every document)"] = {f"{o} / {a}": figures(scored, ins[(o, a)], metrics) for o, a in pairs}
    report["grid, CV (each pair fixed for every document)"] = {f"{o} / {a}": figures(scored, cv[(o, a)], metrics) for o, a in pairs}
    # Offsets chosen for each held-out document on the others' CV alignments.
    docs = [it.doc for it in scored]
    cv_counts = {p: np.array([counts(it, h) for it, h in zip(scored, cv[p])]) for p in pairs}
    ins_counts = {p: np.array([counts(it, h) for it, h in zip(scored, ins[p])]) for p in pairs}
    chosen_hyps: dict[str, list[C.Gold]] = {}
    chosen_pairs: dict[str, dict[str, Pair]] = {}
    for criterion in ["f1"] + [f"precision {p}" for p in PRECISIONS]:
        hyps: list[C.Gold] = [[] for _ in scored]
        chosen_pairs[criterion] = {}
        for name, train, test in leave_one_out(docs):
            others = [scored[i] for i in train]
            pair = choose(others, {p: cv_counts[p][train] for p in pairs}, criterion, shipped_pair)
            chosen_pairs[criterion][name] = pair
            for i in test:
                hyps[i] = cv[pair][i]
        chosen_hyps[criterion] = hyps
        if len(set(chosen_pairs[criterion].values())) == 1:
            only = next(iter(chosen_pairs[criterion].values()))
            assert all(h == c for h, c in zip(hyps, cv[only])), criterion
        # And in-sample: the criterion on every document's in-sample alignments.
        in_pair = choose(scored, ins_counts, criterion, shipped_pair)
        chosen_count: dict[str, int] = {}
        for pair in chosen_pairs[criterion].values():
            chosen_count[f"{pair[0]} / {pair[1]}"] = chosen_count.get(f"{pair[0]} / {pair[1]}", 0) + 1
        report[f"chosen by {criterion}"] = {
            "CV": figures(scored, hyps, metrics), "pairs chosen (documents)": chosen_count,
            "in-sample pair": list(in_pair), "in-sample": figures(scored, ins[in_pair], metrics),
        }
        print(f"{criterion}: CV {report[f'chosen by {criterion}']['CV']} pairs {chosen_count}", file=sys.stderr, flush=True)
    report["omissions by place and direction (CV, shipped offsets)"] = omission_breakdown(scored, cv[shipped_pair])
    # Calibration: Platt scaling fitted as shipped (the training documents' paths with their weights), scored held out.
    t0 = time.perf_counter()
    rows_full = {k: path_log_odds(it, with_offsets(full, shipped_pair), ins[shipped_pair][k]) for k, it in enumerate(scored)}
    cal_full = platt([r for rows in rows_full.values() for r in rows])
    in_rows = [(shown(cal_full, lo, sk), lo, sk, ok) for rows in rows_full.values() for lo, sk, ok in rows]
    rows_cv = {k: path_log_odds(it, with_offsets(folds[it.doc], shipped_pair), cv[shipped_pair][k]) for k, it in enumerate(scored)}
    cv_rows, cv_rows_oos, cv_rows_const = [], [], []
    for _name, train, test in leave_one_out(docs):
        # As shipped: fitted on the training documents' paths with (nearly) their own weights, the full fit's
        # (one document of 64 apart from the fold's); and fitted on the other documents' held-out paths.
        cal = platt([r for i in train for r in rows_full[i]])
        cal_oos = platt([r for i in train for r in rows_cv[i]])
        for i in test:
            cv_rows += [(shown(cal, lo, sk), lo, sk, ok) for lo, sk, ok in rows_cv[i]]
            cv_rows_oos += [(shown(cal_oos, lo, sk), lo, sk, ok) for lo, sk, ok in rows_cv[i]]
        # One probability per kind: the share of right beads (skips) on the other documents' paths.
        share = {sk: float(np.mean([ok for j in train for _lo, s_, ok in rows_full[j] if s_ == sk])) for sk in (False, True)}
        for i in test:
            cv_rows_const += [(share[sk], lo, sk, ok) for lo, sk, ok in rows_cv[i]]
    shipped_rows = [(float(shipped_w.calibrated(lo, sk)), lo, sk, ok) for k, it in enumerate(scored)
                    for lo, sk, ok in path_log_odds(it, shipped_w, shipped_hyps[k])]
    report["calibration"] = {
        "in-sample (fit and paths on every document)": calibration_scores(in_rows),
        "CV (Platt fitted on the other documents' in-sample paths, as shipped)": calibration_scores(cv_rows),
        "CV (Platt fitted on the other documents' held-out paths)": calibration_scores(cv_rows_oos),
        "CV, one constant per kind (the other documents' share right)": calibration_scores(cv_rows_const),
        "shipped weights and calibration (in-sample for most)": calibration_scores(shipped_rows),
        "uncalibrated log-odds, held out": calibration_scores([(shown({}, lo, sk), lo, sk, ok) for _, lo, sk, ok in cv_rows]),
        "full-fit Platt (a, b)": {k: [round(v[0], 4), round(v[1], 4)] for k, v in cal_full.items()},
    }
    report["calibration s"] = round(time.perf_counter() - t0, 1)
    if args.show_false:
        crit = f"precision {PRECISIONS[0]}"
        for k, it in enumerate(scored):
            if it.set != "eptic":
                continue
            src, _tgt = sources[it.key]
            g = {x for s, t in it.gold if s and not t for x in s}
            for s, t in chosen_hyps[crit][k]:
                if s and not t and s[0] not in g:
                    gold_bead = next(((gs, gt) for gs, gt in it.gold if s[0] in gs), None)
                    print(f"FALSE {it.key} src {s[0]} (gold {gold_bead}): {src[s[0]]}")
                    if gold_bead:
                        print(f"      gold target: {' | '.join(_tgt[x] for x in gold_bead[1])}")
            for x in sorted(g):
                if not any(s and not t and x in s for s, t in chosen_hyps[crit][k]):
                    print(f"MISSED {it.key} src {x}: {src[x]}")
    report["load at end"] = C.load()
    report["total s"] = round(time.perf_counter() - started, 1)
    C.OUT.mkdir(exist_ok=True)
    (C.OUT / "cv_omissions.json").write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
    print(json.dumps({k: v for k, v in report.items() if not k.startswith("grid")}, indent=1, ensure_ascii=False))
    return report


if __name__ == "__main__":
    main()
