"""How well a bead's timing tells a wrong bead from a right one on EPTIC dev, by the speech's own lag or a local one (issue 34 §2).

    .venv/bin/python tests/benchmarks/cv_lag_evidence.py [--reach 4]

Every timed EPTIC dev speech is aligned as ``cv_text_kind.py`` aligns it held
out (``text_kind`` auto, the weights fitted without it). For each bead of its
path that joins both sides, the start lag (target start − source start) and
the end lag are compared with the speech's median start lag (one lag a
speech, as ``estimate_lag`` dates it) and with a local lag: the median lag of
the ``--reach`` beads either side of it on the same path, the bead itself
left out (an interpreter's ear-voice span drifts within a speech). Reported:
the ROC AUC with which each distance picks out the beads the gold does not
hold (0.5 is chance), and the medians for right and wrong beads. Writes
``tests/benchmarks/out/cv_lag_evidence.json``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "desktop"))
sys.path.insert(0, str(HERE))

import cv_bead_score as C  # noqa: E402


def auc(wrong: np.ndarray, score: np.ndarray) -> float:
    """ROC AUC of ``score`` (higher: more likely wrong) for the boolean labels ``wrong`` (ties count half)."""
    pos, neg = score[wrong], score[~wrong]
    if not len(pos) or not len(neg):
        return float("nan")
    greater = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
    return float(greater / (len(pos) * len(neg)))


def main(argv: list[str] | None = None) -> dict[str, Any]:
    from sialign.evaluate.datasets import load_eptic

    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--reach", type=int, default=4, help="beads either side whose lags make the local lag")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    report: dict[str, Any] = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "load at start": C.load()}
    all_items, _ = C.items_for(["textberg", "eptic"], 6)
    items = [it for it in all_items if it.units == "sentences"]
    fits = C.auto_fits(items)
    speeches = {s.name: s for s in load_eptic(C.DATA / "eptic-dev")}
    rows: list[tuple[bool, float, float, float, float]] = []
    for item in items:
        if item.set != "eptic timed":
            continue
        speech = speeches[item.key.split("/timed")[0]]
        if speech.source_times is None or speech.target_times is None:
            continue
        path = [b for b in fits.aligned(item) if b[0] and b[1]]
        gold = set(item.gold)
        starts = np.array([speech.target_times[t[0]][0] - speech.source_times[s[0]][0] for s, t in path])
        ends = np.array([speech.target_times[t[-1]][1] - speech.source_times[s[-1]][1] for s, t in path])
        if not len(path):
            continue
        overall = float(np.median(starts))
        for k, bead in enumerate(path):
            near = [x for x in range(max(0, k - args.reach), min(len(path), k + args.reach + 1)) if x != k]
            local_start = float(np.median(starts[near])) if near else overall
            local_end = float(np.median(ends[near])) if near else overall
            rows.append((bead not in gold, abs(starts[k] - overall), abs(starts[k] - local_start),
                         abs(ends[k] - local_end), abs(starts[k] - local_start) + abs(ends[k] - local_end)))
    table = np.array(rows, dtype=np.float64)
    wrong = table[:, 0].astype(bool)
    report["beads (both sides), wrong"] = [len(table), int(wrong.sum())]
    names = ["start, from the speech's lag", "start, from the local lag", "end, from the local lag",
             "start + end, from the local lag"]
    report["seconds off: AUC for wrong beads; median right / wrong"] = {
        name: [round(auc(wrong, table[:, c + 1]), 3), round(float(np.median(table[~wrong, c + 1])), 2),
               round(float(np.median(table[wrong, c + 1])), 2)]
        for c, name in enumerate(names)
    }
    return C.write_report("cv_lag_evidence", report, started)


if __name__ == "__main__":
    main()
