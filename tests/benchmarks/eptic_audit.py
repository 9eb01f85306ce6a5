"""EPTIC dev's held-out figure against its gold and against the gold with the beads a reading of the texts found shifted replaced (issue 34).

    .venv/bin/python tests/benchmarks/eptic_audit.py --notes DIR

Every EPTIC dev speech is aligned text only and timed as ``cv_text_kind.py``
aligns it held out (``text_kind`` auto, the weights fitted without it). Where
that path and the gold differ, each disagreement (the smallest set of beads of
either that covers the same sentences) was read in the source and the
interpretation and judged A (by content the aligner's beads are right and the
gold's are not: the gold pairs a sentence with a segment that renders another),
B (both defensible: an unrendered "Thank you." joined or left out, a join or a
split each faithful to the content) or C (the gold is right). The notes are one
file per direction, ``DIR/<direction>.verdict.md``, one line per disagreement:
``speech | aligner beads | gold beads | verdict | reason``, beads written
``[i, ...] -> [j, ...]`` joined by ``;``. They quote the corpus, which may not be
copied into the project, so they are kept outside it.

Reported: the counts by verdict and direction, and the pooled strict F1
(``../shared/tools/metrics.py``) against the gold and against the gold with each
A disagreement's gold beads replaced by the aligner's (an A marked "mixed",
where the aligner is also wrong in part, keeps the gold). The second figure is
a reading, not a second gold: disagreements were read, agreements were not.
Writes ``tests/benchmarks/out/eptic_audit.json``.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "desktop"))
sys.path.insert(0, str(HERE))

import cv_bead_score as C  # noqa: E402

DIRECTIONS = ["en-fr", "en-it", "fr-en", "it-en", "pl-en"]


def parse_beads(text: str) -> C.Gold:
    """``"[1, 2] -> [3]; [4] -> []"`` as beads ((1, 2), (3,)), ((4,), ())."""
    beads = []
    for part in text.split(";"):
        if "->" not in part:
            raise ValueError(f"not a bead: {part!r}")
        src, tgt = part.split("->")
        beads.append((tuple(int(x) for x in re.findall(r"\d+", src)), tuple(int(x) for x in re.findall(r"\d+", tgt))))
    return beads


Note = tuple[str, str, C.Gold, C.Gold]  # speech, verdict, the aligner's beads, the gold's


def read_notes(folder: Path) -> dict[str, list[Note]]:
    """Per direction: (speech, verdict, aligner beads, gold beads) of each disagreement line."""
    notes: dict[str, list[Note]] = {}
    for direction in DIRECTIONS:
        path = folder / f"{direction}.verdict.md"
        if not path.is_file():
            raise SystemExit(f"{path}: no notes for {direction}; pass --notes the folder that holds <direction>.verdict.md")
        rows: list[Note] = []
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            cells = [c.strip() for c in line.split("|")]
            if len(cells) < 5 or "->" not in cells[1] or cells[3][:1] not in ("A", "B", "C"):
                continue
            try:
                rows.append((cells[0].split("/")[-1], cells[3], parse_beads(cells[1]), parse_beads(cells[2])))
            except ValueError as exc:
                raise SystemExit(f"{path}:{number}: {exc}") from None
        notes[direction] = rows
    return notes


def main(argv: list[str] | None = None) -> dict[str, Any]:
    from bench_peers import _metrics

    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--notes", type=Path, required=True, help="folder of <direction>.verdict.md")
    args = parser.parse_args(argv)
    notes = read_notes(args.notes)
    metrics = _metrics()
    started = time.perf_counter()
    report: dict[str, Any] = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "load at start": C.load()}
    all_items, _ = C.items_for(["textberg", "eptic"], 6)
    items = [it for it in all_items if it.units == "sentences"]
    fits = C.auto_fits(items)
    counts: dict[str, dict[str, list[int]]] = {}
    for direction, rows in notes.items():
        by: dict[str, list[int]] = {}
        for _, verdict, _, gold in rows:
            key = verdict.split()[0] + (" mixed" if "mixed" in verdict else "")
            by.setdefault(key, [0, 0])
            by[key][0] += 1
            by[key][1] += len(gold)
        counts[direction] = by
    report["disagreements by verdict: blocks, gold beads"] = counts
    for group in ("eptic", "eptic timed"):
        hyps, golds, audited, replaced = [], [], [], 0
        by_dir: dict[str, tuple[list[C.Gold], list[C.Gold], list[C.Gold]]] = {}
        for item in items:
            if item.set != group:
                continue
            hyp = fits.aligned(item)
            direction, speech = item.key.split("/")[:2]
            gold = list(item.gold)
            for name, verdict, aligner, theirs in notes[direction]:
                if name != speech or verdict != "A":
                    continue
                missing = [b for b in theirs if b not in gold]
                if missing:
                    raise SystemExit(f"{args.notes / (direction + '.verdict.md')}: {speech}: {missing} is not a gold bead")
                gold = [b for b in gold if b not in theirs] + list(aligner)
                replaced += len(theirs)
            hyps.append(hyp)
            golds.append(item.gold)
            audited.append(gold)
            d = by_dir.setdefault(direction, ([], [], []))
            d[0].append(hyp)
            d[1].append(item.gold)
            d[2].append(gold)
        a, b = metrics.bead_scores(hyps, golds), metrics.bead_scores(hyps, audited)
        report[group] = {
            "strict F1, gold / audited gold": [round(a["strict_f1"], 4), round(b["strict_f1"], 4)],
            "gold beads replaced": replaced,
            "omitted sentences precision / recall, gold": [round(a["omission_p"], 2), round(a["omission_r"], 2)],
            "… audited gold": [round(b["omission_p"], 2), round(b["omission_r"], 2)],
            "by direction, gold / audited gold": {
                d: [round(metrics.bead_scores(h, g)["strict_f1"], 3), round(metrics.bead_scores(h, g2)["strict_f1"], 3)]
                for d, (h, g, g2) in sorted(by_dir.items())},
        }
    return C.write_report("eptic_audit", report, started)


if __name__ == "__main__":
    main()
