"""Do the priors help? Timestamps (EPTIC dev) and the reference translation (AHC-SI dev), cross-validated.

    .venv/bin/python tests/benchmarks/cv_priors.py [--sets eptic,ahcsi] [--grid 0,0.5,1,2,4,8]

DESIGN.md §5 "Validate as if unseen": every document (an EPTIC speech, an
AHC-SI talk) is aligned by the second pass with bead-score weights fitted on
the *other* documents of its set (``cv_bead_score.fit_weights``, as the
shipped fit), and every number chosen here is chosen for a held-out document
by the other documents' scores, never by its own.

- EPTIC: each speech text only and with its timestamps (two items of one
  document, held out together); pooled strict F1 (``../shared/tools/metrics.py``)
  overall and by direction, and how far the lag dated from the text
  (``signals.estimate_lag``) is from the gold beads' median lag. With
  ``--offsets``, every timed speech again with its interpretation's clock
  moved by each offset (a track that lags by minutes, or whose clip starts
  mid-speech), aligned with the same fold weights: the figure must not drop.
- AHC-SI: each talk without and with the reference translation; acc@0.8 by
  talk and pooled, for each bonus the second pass gives the first pass's
  beads where the reference vouches for them (``learned_pass.REFERENCE_KEEP_LOGODDS``,
  scaled per bead by the reference's trust and its agreement with the
  direct signal, ``LearnedCosts.keep_first``); the bonus for a held-out talk
  is the one that scores best on the other three talks (ties: the smaller),
  the shipped one the best on all four.

Captures are cached under ``tmp/cache/cv`` (shared with ``cv_bead_score.py``).
Writes ``tests/benchmarks/out/cv_priors.json``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
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

GRID = [0.0, 0.5, 1.0, 2.0, 4.0, 8.0]


def _second_pass(item: C.Item, raw: dict[str, Any]) -> C.Gold:
    from sialign.align.learned_pass import BeadScoreWeights

    return C.realign(item, BeadScoreWeights.from_dict(raw, item.units))


def _folds(items: list[C.Item], units: str, skips: dict[str, Any] | None) -> tuple[dict[str, Any], dict[str, Any]]:
    from sialign.evaluate.folds import leave_one_out

    full = C.fit_weights(items, units, skips)
    folds = {name: C.fit_weights([items[i] for i in train], units, skips, start=full)
             for name, train, _ in leave_one_out([it.doc for it in items])}
    return full, folds


def _moved(speech: Any, offset: float) -> Any:
    """The speech's project with timestamps, the interpretation's clock moved by ``offset`` seconds."""
    from sialign.core.model import Document

    project = speech.project(times=True)
    times = [(start + offset, end + offset) for start, end in speech.target_times]
    project.target = Document.from_texts(speech.target, speech.tgt_lang, times)
    return project


def eptic(metrics: Any, offsets: list[float]) -> dict[str, Any]:
    from sialign.align.costs import BeadCostModel
    from sialign.align.signals import estimate_lag
    from sialign.evaluate.datasets import load_eptic

    items, _ = C.items_for(["eptic"], 1)
    full, folds = _folds(items, "sentences", None)
    hyps = {it.key: _second_pass(it, folds[it.doc]) for it in items}
    moved: dict[float, list[C.Item]] = {}
    for speech in load_eptic(C.DATA / "eptic-dev"):
        if speech.source_times is None or speech.target_times is None:
            continue
        gold = [(tuple(s), tuple(t)) for s, t in speech.gold]
        for offset in offsets:
            item = C.Item(f"eptic/{speech.name}", "eptic moved", "sentences", f"{speech.name}/timed{offset:+g}", gold, gold)
            C.seen_of(item, lambda sp=speech, off=offset: _moved(sp, off))
            hyps[item.key] = _second_pass(item, folds[item.doc])
            moved.setdefault(offset, []).append(item)
    in_sample = {it.key: _second_pass(it, full) for it in items}

    def f1(chosen: list[C.Item], source: dict[str, C.Gold]) -> float:
        return round(float(metrics.bead_scores([source[it.key] for it in chosen], [it.gold for it in chosen])["strict_f1"]), 4)

    text = [it for it in items if not it.key.endswith("/timed")]
    timed = [it for it in items if it.key.endswith("/timed")]
    out: dict[str, Any] = {
        "first pass": {"text": f1(text, {it.key: C.path_beads(C.seen_of(it)["path"]) for it in items}),
                       "timed": f1(timed, {it.key: C.path_beads(C.seen_of(it)["path"]) for it in items})},
        "CV": {"text": f1(text, hyps), "timed": f1(timed, hyps)},
        "in-sample": {"text": f1(text, in_sample), "timed": f1(timed, in_sample)},
        "by direction, CV": {},
    }
    for direction in sorted({it.doc.split("/")[1] for it in items}):
        pick = [it for it in text if it.doc.split("/")[1] == direction], [it for it in timed if it.doc.split("/")[1] == direction]
        out["by direction, CV"][direction] = {"text": f1(pick[0], hyps), "timed": f1(pick[1], hyps),
                                              "speeches": len(pick[0])}
    errors, inside, off = [], [], 0
    for it in timed:
        model = C.seen_of(it)["first"].model
        if model.src_starts is None:
            off += 1  # no timestamps, or the prior was dropped
            continue
        lags = np.array([model.tgt_starts[t[0]] - model.src_starts[s[0]] for s, t in it.gold if s and t])
        # The talk's lag as the aligner dates it from the text alone, against the gold beads' median lag.
        text_only = BeadCostModel(model.signals, model.max_src, model.max_tgt, dataclasses.replace(model.settings, time_weight=0.0),
                                  None, None, model.src_lengths, model.tgt_lengths)
        dated = estimate_lag(text_only, model.src_starts, model.tgt_starts, model.settings).median
        errors.append(abs(float(dated) - float(np.median(lags))) if dated is not None else float("nan"))
        window = (model.settings.evs_min, model.settings.evs_max)
        inside.append(float(np.mean((lags >= window[0]) & (lags <= window[1]))))
    for offset, members in moved.items():
        same = [next(it for it in timed if it.doc == m.doc) for m in members]
        out[f"interpretation clock moved {offset:+g} s, CV: timed as recorded / moved"] = [f1(same, hyps), f1(members, hyps)]
    out["time prior on"] = len(errors)
    out["time prior off or no timestamps"] = off
    found = np.array([e for e in errors if np.isfinite(e)])
    out["|lag dated by estimate_lag - gold median lag| s, median / 90th / max"] = [
        round(float(np.median(found)), 2), round(float(np.percentile(found, 90)), 2), round(float(np.max(found)), 2)]
    out["gold lags inside the applied window, mean / min share"] = [round(float(np.mean(inside)), 3), round(float(np.min(inside)), 3)]
    return out


def ahcsi(metrics: Any, grid: list[float]) -> dict[str, Any]:
    from sialign.align import learned_pass

    items, _ = C.items_for(["ahcsi"], 1)
    skips = json.loads((REPO / "desktop/sialign/align/bead_score.json").read_text(encoding="utf-8"))["sentences"]
    full, folds = _folds(items, "chunks", skips)
    shipped = dict(learned_pass.REFERENCE_KEEP_LOGODDS)
    hyps: dict[tuple[float, str, str], C.Gold] = {}
    try:
        for bonus in grid:
            learned_pass.REFERENCE_KEEP_LOGODDS = {"chunks": bonus}
            for it in items:
                if it.reference or bonus == grid[0]:
                    hyps[(bonus, "CV", it.key)] = _second_pass(it, folds[it.doc])
                    hyps[(bonus, "in-sample", it.key)] = _second_pass(it, full)
    finally:
        learned_pass.REFERENCE_KEEP_LOGODDS = shipped

    def acc(chosen: list[C.Item], beads: list[C.Gold]) -> float:
        return round(C.score(chosen, beads, metrics), 3)

    plain = [it for it in items if not it.reference]
    ref = [it for it in items if it.reference]
    first = {it.key: C.path_beads(C.seen_of(it)["path"]) for it in items}
    chosen: dict[str, float] = {}
    picked: dict[str, C.Gold] = {}
    for it in ref:
        others = [o for o in ref if o.doc != it.doc]
        best = max(grid, key=lambda g: (acc(others, [hyps[(g, "CV", o.key)] for o in others]), -g))
        chosen[it.doc] = best
        picked[it.key] = hyps[(best, "CV", it.key)]
    out: dict[str, Any] = {
        "first pass": {"no reference": acc(plain, [first[it.key] for it in plain]), "reference": acc(ref, [first[it.key] for it in ref])},
        "CV, no reference": acc(plain, [hyps[(grid[0], "CV", it.key)] for it in plain]),
        "CV, reference, by bonus": {g: acc(ref, [hyps[(g, "CV", it.key)] for it in ref]) for g in grid},
        "in-sample, reference, by bonus": {g: acc(ref, [hyps[(g, "in-sample", it.key)] for it in ref]) for g in grid},
        "bonus chosen per talk": chosen,
        "bonus chosen on all talks": max(grid, key=lambda g: (acc(ref, [hyps[(g, "CV", it.key)] for it in ref]), -g)),
        "CV, reference, bonus chosen on the other talks": acc(ref, [picked[it.key] for it in ref]),
        "by talk": {},
    }
    for it in plain:
        with_ref = next(r for r in ref if r.doc == it.doc)
        out["by talk"][it.doc] = {
            "first pass no reference / reference": [acc([it], [first[it.key]]), acc([with_ref], [first[with_ref.key]])],
            "CV no reference": acc([it], [hyps[(grid[0], "CV", it.key)]]),
            "CV reference, no bonus": acc([with_ref], [hyps[(grid[0], "CV", with_ref.key)]]),
            "CV reference, chosen bonus": acc([with_ref], [picked[with_ref.key]]),
            "sentences": len(it.talk.source),
        }
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    from bench_peers import _metrics

    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sets", default="eptic,ahcsi")
    parser.add_argument("--offsets", default="120,-30", help="seconds the interpretation's clock is moved (EPTIC; '' for none)")
    parser.add_argument("--grid", default=",".join(map(str, GRID)), help="reference bonuses tried (log-odds per unit of trust)")
    args = parser.parse_args(argv)
    metrics = _metrics()
    started = time.perf_counter()
    report: dict[str, Any] = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "load at start": C.load()}
    sets = args.sets.split(",")
    if "eptic" in sets:
        report["eptic"] = eptic(metrics, [float(x) for x in args.offsets.split(",") if x.strip()])
    if "ahcsi" in sets:
        report["ahcsi"] = ahcsi(metrics, [float(x) for x in args.grid.split(",")])
    return C.write_report("cv_priors", report, started)


if __name__ == "__main__":
    main()
