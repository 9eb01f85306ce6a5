"""Beads a name crosses: how often the second pass's result splits where a name says it should not, held out (issue 34 §1).

    .venv/bin/python tests/benchmarks/cv_crossed.py [--pieces 6]

Every sentence document of the dev sets (a chapter-sized piece of the
Text+Berg book, an EPTIC speech text only and timed) is aligned as
``cv_text_kind.py`` aligns it held out (``text_kind`` auto, the weights fitted
without it), three ways: the voted path as it was (nothing joined); joined as
shipped (``learned_pass.join_crossed`` where ``JOIN_CROSSED`` says so for the
weight set auto takes: the book and the two speeches auto takes for written
translations); and joined everywhere (the interpretation set too). Two
neighbouring beads are joined where a name or a number (``shared_names``)
crosses the boundary between them: one bead's source holds it, the other's
target, and neither of the other two sides (a sentence left out joins the
neighbour whose target names it); the joined bead keeps to the second pass's
runs. Nothing is fitted.

Reported: pooled strict F1 (``../shared/tools/metrics.py``) per set and per
book piece, with the first pass's; each join made by the "everywhere" variant
by what the gold says of it (the joined bead is a gold bead; both parts were
gold beads, so the join is wrong; neither); and, as a check on the premise,
how many of the gold's own neighbouring beads a name crosses. Variants
(scored where the shipped join applies): joined beads up to 5 or 8 segments
a side instead of the runs' 4, and any word of ``shared_words`` (4 letters
or more, lower case too) instead of names. A second written translation, with ``--translations``: each EPTIC dev
speech's source against its official written translation (``ref.txt``, one
line per source sentence), aligned by the pipeline with the shipped weights
and ``text_kind`` translation, with and without the joins (the references
are in no fit): how many documents the joins change, and how many pairs of
neighbouring lines a name crosses. The strict F1 against line-against-line
beads (a line "-" a 1-0) is approximate: the file's line alignment repeats a
translated line where a spoken line has none of its own. Writes
``tests/benchmarks/out/cv_crossed.json``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "desktop"))
sys.path.insert(0, str(HERE))

import cv_bead_score as C  # noqa: E402

Bead4 = tuple[int, int, int, int]
# Variants of the shipped join: (most segments a side of a joined bead, the words that cross).
VARIANTS = {"joined up to 5 a side": (5, "names"), "joined up to 8 a side": (8, "names"),
            "any shared word crosses": (4, "words")}


def as_path(beads: C.Gold) -> list[Bead4]:
    """Beads (src ids, tgt ids) in path order as (src_start, n_src, tgt_start, n_tgt)."""
    out: list[Bead4] = []
    i = j = 0
    for src, tgt in beads:
        out.append((i, len(src), j, len(tgt)))
        i, j = i + len(src), j + len(tgt)
    return out


def written_translations(metrics: Any) -> dict[str, Any]:
    """EPTIC dev's sources against their official translations, line against line, with and without the joins."""
    from sialign.align import learned_pass
    from sialign.align.learned_pass import crossing, shared_names
    from sialign.align.pipeline import align_project
    from sialign.core.model import Document, Project
    from sialign.core.params import AlignParams
    from sialign.evaluate.datasets import load_eptic

    hyps: dict[str, list[C.Gold]] = {"joined (as shipped)": [], "nothing joined": []}
    golds: list[C.Gold] = []
    pairs = crossed = 0
    for speech in load_eptic(C.DATA / "eptic-dev"):
        if speech.reference is None:
            continue
        lines = [line for line in speech.reference if line]
        gold: C.Gold = []
        k = 0
        for i, line in enumerate(speech.reference):
            gold.append(((i,), (k,) if line else ()))
            k += bool(line)
        golds.append(gold)
        src_names, tgt_names = [shared_names(t) for t in speech.source], [shared_names(t) for t in lines]
        ones = [(s[0], 1, t[0], 1) for s, t in gold if t]
        neighbours = [(x, y) for x, y in zip(ones, ones[1:]) if (x[0] + 1, x[2] + 1) == (y[0], y[2])]
        pairs += len(neighbours)
        crossed += sum(1 for x, y in neighbours if crossing(x, y, src_names, tgt_names))
        project = Project(source=Document.from_texts(speech.source, speech.src_lang), target=Document.from_texts(lines, speech.tgt_lang))
        shipped = dict(learned_pass.JOIN_CROSSED)
        for way, join in (("joined (as shipped)", shipped), ("nothing joined", {})):
            learned_pass.JOIN_CROSSED.clear()
            learned_pass.JOIN_CROSSED.update(join)
            try:
                result = align_project(project, AlignParams(target_units="sentences", text_kind="translation"))
            finally:
                learned_pass.JOIN_CROSSED.clear()
                learned_pass.JOIN_CROSSED.update(shipped)
            hyps[way].append([(tuple(b.src), tuple(b.tgt)) for b in result.alignment.beads])
    out: dict[str, Any] = {f"strict F1 against the lines, {way}": round(metrics.bead_scores(h, golds)["strict_f1"], 4)
                           for way, h in hyps.items()}
    out["speeches"] = len(golds)
    out["documents whose beads the joins change"] = sum(1 for a, b in zip(*hyps.values()) if set(a) != set(b))
    out["line pairs a name crosses"] = f"{crossed} of {pairs}"
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    from sialign.align.learned_pass import BeadScoreWeights, crossing, join_crossed

    args, metrics, started, report = C.begin(__doc__, argv, {"--translations": "also EPTIC's sources against their written translations"})
    all_items, _ = C.items_for(["textberg", "eptic"], args.pieces)
    fitted = [it for it in all_items if it.units == "sentences"]
    fits = C.auto_fits(fitted)
    items = [it for it in fitted if it.scored]

    def group(item: C.Item) -> str:
        return "textberg" if item.doc.startswith("textberg") else ("eptic timed" if item.key.endswith("/timed") else "eptic text only")

    ways = ("first pass", "nothing joined", "joined as shipped", "joined everywhere", *VARIANTS)
    hyps: dict[tuple[str, str], list[C.Gold]] = {}
    members: dict[str, list[C.Item]] = {}
    pieces: dict[str, dict[str, float]] = {}
    joins: dict[str, dict[str, list[str]]] = {}
    gold_crossed: dict[str, list[int]] = {}
    changed: dict[str, list[str]] = {}
    for item in items:
        g = group(item)
        members.setdefault(g, []).append(item)
        seen = C.seen_of(item)
        weights = BeadScoreWeights.from_dict(fits.raw(item), "sentences")
        plain = C.aligned(item, weights, join=False)
        caps = (min(seen["limits"][0], seen["src_spans"].shape[0]), min(seen["limits"][1], seen["tgt_spans"].shape[0]))
        src_names, tgt_names = seen["names"]
        everywhere = C.path_beads(join_crossed(as_path(plain), src_names, tgt_names, *caps))
        by_way = {"first pass": C.aligned(item, None), "nothing joined": plain,
                  "joined as shipped": C.aligned(item, weights), "joined everywhere": everywhere}
        for variant, (cap, kind) in VARIANTS.items():
            src_of, tgt_of = seen[kind]
            joined = join_crossed(as_path(plain), src_of, tgt_of, cap, cap) if C.joins(item) else as_path(plain)
            by_way[variant] = C.path_beads(joined)
        scored = {way: C.scored_beads(item, h) for way, h in by_way.items()}
        for way, h in scored.items():
            hyps.setdefault((g, way), []).append(h)
        if set(scored["joined as shipped"]) != set(scored["nothing joined"]):
            changed.setdefault(g, []).append(item.key)
        if g == "textberg":
            pieces[item.doc] = {way: round(C.score([item], [scored[way]], metrics), 4) for way in ways}
        gold = set(item.gold)
        made = set(scored["joined everywhere"]) - set(scored["nothing joined"])
        tally = joins.setdefault(g, {"joined bead is gold": [], "both parts were gold (wrong join)": [], "one part was gold": [], "neither": []})
        plain_scored = set(scored["nothing joined"])
        for src, tgt in sorted(made):
            parts = [b for b in plain_scored if set(b[0]) <= set(src) and set(b[1]) <= set(tgt) and (b[0] or b[1])]
            right = sum(1 for b in parts if b in gold)
            kind = ("joined bead is gold" if (src, tgt) in gold else "both parts were gold (wrong join)" if right >= 2
                    else "one part was gold" if right == 1 else "neither")
            tally[kind].append(f"{item.key}: {list(src)} -> {list(tgt)}")
        # The premise: how many pairs of the gold's own neighbouring beads a name crosses.
        gold_path: list[Bead4] = []
        for src, tgt in item.gold:  # in path order; a one-sided bead stands where the last one ended
            i_end, j_end = (gold_path[-1][0] + gold_path[-1][1], gold_path[-1][2] + gold_path[-1][3]) if gold_path else (0, 0)
            gold_path.append((src[0] if src else i_end, len(src), tgt[0] if tgt else j_end, len(tgt)))
        pairs = [(x, y) for x, y in zip(gold_path, gold_path[1:]) if (x[0] + x[1], x[2] + x[3]) == (y[0], y[2])]
        crossed = sum(1 for x, y in pairs if crossing(x, y, *seen["names"]))
        counts = gold_crossed.setdefault(g, [0, 0])
        counts[0] += crossed
        counts[1] += len(pairs)
    report["pooled strict F1"] = {g: {way: round(C.score(its, hyps[(g, way)], metrics), 4) for way in ways}
                                  for g, its in members.items()}
    report["book pieces"] = pieces
    report["joins made everywhere, by the gold"] = {g: {k: len(v) for k, v in t.items()} for g, t in joins.items()}
    report["joins (everywhere)"] = joins
    report["gold neighbours a name crosses"] = {g: f"{c} of {n}" for g, (c, n) in gold_crossed.items()}
    report["documents whose beads the shipped join changes"] = {g: len(v) for g, v in changed.items()}
    report["auto takes as a translation (items)"] = sorted(it.key for it in items if C.joins(it))
    if args.translations:
        report["EPTIC sources against their written translations"] = written_translations(metrics)
    return C.write_report("cv_crossed", report, started)


if __name__ == "__main__":
    main()
