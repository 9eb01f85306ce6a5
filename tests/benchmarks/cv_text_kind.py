"""Interpretation or written translation: the weight set of each text kind, cross-validated (DESIGN.md §5).

    .venv/bin/python tests/benchmarks/cv_text_kind.py [--pieces 6]

Sentence targets are scored by the learned second pass with one of two weight
sets (``learned_pass.WEIGHT_SETS``): ``sentences``, fitted on the Text+Berg
dev book and the EPTIC dev speeches together, and ``interpretation``, fitted
on the EPTIC speeches alone (``train_bead_score.py``). ``AlignParams.text_kind``
picks one: ``"interpretation"`` and ``"translation"`` state it, ``"auto"``
takes the interpretation set where the talk has timestamps on both sides or a
recording (``pipeline.resolve_text_kind``), else the combined one.

Every document (an EPTIC speech, text only and with its timestamps held out
together; a chapter-sized piece of the book) is aligned with each set fitted
on the *other* documents (leave one document out, as ``cv_bead_score.py``),
and with the sets fitted on every document (in-sample). Pooled strict F1
(``../shared/tools/metrics.py``) for EPTIC text only / timed and for the book,
under ``auto`` and with each kind stated. Captures are cached under
``tmp/cache/cv`` (shared with ``cv_bead_score.py``). Writes
``tests/benchmarks/out/cv_text_kind.json``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO / "desktop"))
sys.path.insert(0, str(HERE))

import cv_bead_score as C  # noqa: E402


def main(argv: list[str] | None = None) -> dict[str, Any]:
    from sialign.align.learned_pass import BeadScoreWeights, shipped_weights

    args, metrics, started, report = C.begin(__doc__, argv)
    items, _ = C.items_for(["textberg", "eptic"], args.pieces)
    eptic = [it for it in items if it.doc.startswith("eptic/")]

    def weights(raw: dict[str, Any]) -> Any:
        return BeadScoreWeights.from_dict(raw, "sentences")

    # Each set fitted on every document it is fitted on (in-sample), then leaving each document out.
    fits = C.auto_fits(items)
    full = {"sentences": fits.combined, "interpretation": fits.interpretation}
    folds = {"sentences": fits.combined_folds, "interpretation": fits.interpretation_folds}
    print(f"fitted: {time.perf_counter() - started:.0f} s, load {C.load()}", file=sys.stderr, flush=True)

    def kind_set(item: C.Item, kind: str) -> str:
        """The weight set ``kind`` selects for the item (auto: what ``resolve_text_kind`` makes of its project)."""
        if kind == "auto":
            kind = C.auto_text_kind(item)
        return "interpretation" if kind == "interpretation" else "sentences"

    def hyp(item: C.Item, kind: str, how: str) -> C.Gold:
        name = kind_set(item, kind)
        join = C.joins(item, None if kind == "auto" else kind)  # names join beads as the kind's weight set says
        if how == "shipped":
            shipped = shipped_weights(name)
            assert shipped is not None, name
            return C.aligned(item, shipped, join)
        if how == "in-sample":
            return C.aligned(item, weights(full[name]), join)
        if name == "interpretation" and item.doc not in folds[name]:
            return C.aligned(item, weights(full[name]), join)  # never: the book is not in the interpretation fit
        return C.aligned(item, weights(folds[name][item.doc]), join)

    groups = {
        "eptic text only": [it for it in eptic if not it.key.endswith("/timed")],
        "eptic timed": [it for it in eptic if it.key.endswith("/timed")],
        "textberg": [it for it in items if it.set == "textberg"],
    }
    table: dict[str, dict[str, float]] = {}
    for group, members in groups.items():
        row: dict[str, float] = {"first pass": round(C.score(members, [C.aligned(it, None) for it in members], metrics), 4)}
        for how in ("CV", "in-sample", "shipped"):
            for kind in ("auto", "interpretation", "translation"):
                if group == "textberg" and kind == "interpretation" and how == "CV":
                    # The book is not in the interpretation fit: its in-sample figure is held out already.
                    continue
                row[f"{kind}, {how}"] = round(C.score(members, [hyp(it, kind, how) for it in members], metrics), 4)
        table[group] = row
        print(group, row, file=sys.stderr, flush=True)
    both = groups["eptic text only"] + groups["eptic timed"]
    table["eptic text only and timed"] = {
        f"{kind}, {how}": round(C.score(both, [hyp(it, kind, how) for it in both], metrics), 4)
        for how in ("CV", "in-sample", "shipped") for kind in ("auto", "interpretation", "translation")
    }
    report["table (pooled strict F1)"] = table
    # The sentences EPTIC's gold marks unrendered (1-0) that each way of choosing the weights finds.
    omissions: dict[str, dict[str, str]] = {}
    for group in ("eptic text only", "eptic timed"):
        members = groups[group]
        omissions[group] = {}
        for how in ("CV", "in-sample", "shipped"):
            for kind in ("auto", "interpretation", "translation"):
                sc = metrics.bead_scores([hyp(it, kind, how) for it in members], [it.gold for it in members])
                found = round(sc["omission_r"] * sc["omissions_gold"])
                omissions[group][f"{kind}, {how}"] = (f"{found} of {sc['omissions_gold']} found, {sc['omissions_flagged']} flagged "
                                                      f"(precision {sc['omission_p']:.2f}, recall {sc['omission_r']:.2f})")
        print(group, omissions[group], file=sys.stderr, flush=True)
    report["omitted sentences"] = omissions
    report["speeches"] = len(groups["eptic timed"])
    kinds = {it.key: C.auto_text_kind(it) for members in groups.values() for it in members}
    report["auto takes as an interpretation (items)"] = sum(1 for v in kinds.values() if v == "interpretation")
    report["auto takes as a translation (items)"] = sorted(k for k, v in kinds.items() if v != "interpretation")
    return C.write_report("cv_text_kind", report, started)


if __name__ == "__main__":
    main()
