"""Leave-one-document-out cross-validation of the second pass (DESIGN.md §5: validate as if unseen).

    .venv/bin/python tests/benchmarks/cv_bead_score.py [--sets textberg,eptic,ahcsi] [--pieces 6]

Documents: the Text+Berg dev book cut at gold bead boundaries into ``--pieces``
chapter-sized pieces (``sialign.evaluate.folds.split_gold``), each EPTIC dev
speech (aligned text only and with its timestamps: two items of one
document), each AHC-SI dev talk (with and without the reference). For every
document, the bead score is fitted on all the others
(``train_bead_score.fit_logistic``, as the shipped fit), and the held-out
document is aligned with that fold's weights; the book is aligned whole and
each piece scored on its own beads. Every weight of the combination
(``learned_weight`` on Bertalign's base) is chosen for a held-out document by
the other documents' cross-validated scores, never by its own.

Columns: the first pass alone; the shipped weights (in-sample for what they
were fitted on); the learned score refitted on every document (in-sample)
and by fold (cross-validated); Bertalign's unlearned score of the exact
concatenations in the same band, plus ``w`` × the learned log-odds; and
Bertalign's own two passes with the same encoder (``peers.bertalign_align``).
Figures: ``../shared/tools/metrics.py`` (strict F1, pooled), AHC-SI acc@0.8
(LCS, DESIGN.md §5). Captures (the first pass's tables and the concatenation
vectors) and the training examples are cached per document under
``tmp/cache/cv`` in the repository, so a rerun refits and realigns in seconds
to minutes; ``--fresh`` drops the cache. Writes ``tests/benchmarks/out/cv.json``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import pickle
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
DATA = REPO.parent / "shared" / "data"
CACHE = REPO / "tmp" / "cache" / "cv"
OUT = HERE / "out"
sys.path.insert(0, str(REPO / "desktop"))
sys.path.insert(0, str(HERE))

import train_bead_score as T  # noqa: E402

Gold = list[tuple[tuple[int, ...], tuple[int, ...]]]
SETS = ["textberg", "eptic", "ahcsi"]
WEIGHT_GRID = [0.0, 0.02, 0.05, 0.1, 0.2, 0.5]


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


@dataclass
class Item:
    """One aligned variant of one document."""

    doc: str  # held out together
    set: str  # the row it is scored in
    units: str
    key: str  # cache key of its capture
    gold: Gold  # gold beads scored (the piece's, for the book)
    full_gold: Gold  # gold of the whole capture (training examples)
    piece: Any = None  # sialign.evaluate.folds.Piece or None
    talk: Any = None  # AHC-SI: the talk (LCS accuracy)
    reference: bool = False
    train: bool = True  # its examples join the fit of every other document's fold
    scored: bool = True  # it is aligned and scored


def begin(doc: str | None, argv: list[str] | None, flags: dict[str, str] | None = None) -> tuple[argparse.Namespace, Any, float, dict[str, Any]]:
    """The start of a sentence-set script: its arguments (``--pieces`` and the on/off ``flags``, name -> help),
    the metrics, the start time and the report's first lines (date, load)."""
    from bench_peers import _metrics

    parser = argparse.ArgumentParser(description=(doc or "").splitlines()[0])
    parser.add_argument("--pieces", type=int, default=6, help="chapter-sized pieces the dev book is cut into")
    for flag, text in (flags or {}).items():
        parser.add_argument(flag, action="store_true", help=text)
    args = parser.parse_args(argv)
    metrics = _metrics()
    return args, metrics, time.perf_counter(), {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "load at start": load()}


def write_report(name: str, report: dict[str, Any], started: float) -> dict[str, Any]:
    """Add the load and the time taken to ``report``, write it to ``out/NAME.json`` and print it."""
    report["load at end"] = load()
    report["total s"] = round(time.perf_counter() - started, 1)
    OUT.mkdir(exist_ok=True)
    (OUT / f"{name}.json").write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
    print(json.dumps(report, indent=1, ensure_ascii=False))
    return report


def _cached(name: str, make: Callable[[], Any]) -> Any:
    path = CACHE / f"{name}.pkl"
    if path.is_file():
        with path.open("rb") as fh:
            return pickle.load(fh)
    value = make()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    with tmp.open("wb") as fh:
        pickle.dump(value, fh, protocol=pickle.HIGHEST_PROTOCOL)
    tmp.replace(path)
    return value


_SEEN: dict[str, Any] = {}


def seen_of(item: Item, project: Callable[[], Any] | None = None) -> Any:
    if item.key not in _SEEN:
        if project is None:
            raise KeyError(item.key)
        make = project
        seen = _cached("capture-" + item.key.replace("/", "_"), lambda: T.capture(make(), item.units))
        if seen.get("words") is None or seen.get("names") is None:
            # A capture cached before the second pass read the words and names both sides share.
            from sialign.align.learned_pass import shared_names, shared_words

            made = make()
            for name, of in (("words", shared_words), ("names", shared_names)):
                seen[name] = ([of(s.text) for s in made.source.segments], [of(s.text) for s in made.target.segments])
        _SEEN[item.key] = seen
    return _SEEN[item.key]


def ahcsi_project(talk: Any, reference: bool) -> Callable[[], Any]:
    """A maker of the AHC-SI talk's project, with or without its reference translation."""

    def project() -> Any:
        p = talk.project()
        if not reference:
            p.reference = None
        return p

    return project


def items_for(sets: list[str], pieces: int) -> tuple[list[Item], dict[str, Any]]:
    from sialign.core.model import Document, Project
    from sialign.evaluate import load_textberg
    from sialign.evaluate.datasets import load_ahcsi, load_eptic
    from sialign.evaluate.folds import split_gold

    items: list[Item] = []
    sources: dict[str, Any] = {}  # capture key -> (source, target) for the peer
    if "textberg" in sets:
        doc = load_textberg(DATA / "textberg-dev")
        gold = [(tuple(s), tuple(t)) for s, t in doc.gold]
        sources["textberg"] = (doc.source, doc.target)
        for piece in split_gold(gold, pieces, len(doc.source), len(doc.target)):
            # Scored on the whole book aligned at once; trained on the piece's runs of
            # train_bead_score.TEXTBERG_PIECE beads aligned on their own, as the shipped fit.
            item = Item(f"textberg/{piece.index}", "textberg", "sentences", "textberg", piece.gold, gold, piece, train=False)
            seen_of(item, doc.project)
            items.append(item)
            for start in range(0, len(piece.gold), T.TEXTBERG_PIECE):
                run = piece.gold[start : start + T.TEXTBERG_PIECE]
                src_ids = [x for s_, _ in run for x in s_]
                tgt_ids = [x for _, t_ in run for x in t_]
                if not src_ids or not tgt_ids:
                    continue
                a0, a1, b0, b1 = min(src_ids), max(src_ids) + 1, min(tgt_ids), max(tgt_ids) + 1
                local = [(tuple(x - a0 for x in s_), tuple(x - b0 for x in t_)) for s_, t_ in run]
                key = f"textberg-{a0}-{a1}-{b0}-{b1}"
                item = Item(f"textberg/{piece.index}", "textberg training", "sentences", key, local, local, scored=False)
                seen_of(item, lambda a0=a0, a1=a1, b0=b0, b1=b1: Project(
                    talk_id=f"textberg-{a0}", source=Document.from_texts(doc.source[a0:a1], "de"),
                    target=Document.from_texts(doc.target[b0:b1], "fr")))
                items.append(item)
    if "mac" in sets:
        from sialign.evaluate import load_mac

        for book in load_mac(DATA / "mac-dev"):
            gold = [(tuple(s), tuple(t)) for s, t in book.gold]
            sources[book.name] = (book.source, book.target)
            item = Item(book.name, "mac", "sentences", book.name, gold, gold)
            seen_of(item, book.project)
            items.append(item)
    if "eptic" in sets:
        for speech in load_eptic(DATA / "eptic-dev"):
            gold = [(tuple(s), tuple(t)) for s, t in speech.gold]
            sources[speech.name] = (speech.source, speech.target)
            for times in (False, True):
                key = speech.name + ("/timed" if times else "")
                item = Item(f"eptic/{speech.name}", "eptic timed" if times else "eptic", "sentences", key, gold, gold)
                seen_of(item, lambda sp=speech, tm=times: sp.project(times=tm))
                items.append(item)
    if "ahcsi" in sets:
        for talk in load_ahcsi(DATA / "ahcsi-dev" / "dev.true.tsv"):
            gold = T.ahcsi_gold(talk)
            sources["ahcsi/" + talk.name] = (talk.source, talk.target)
            for reference in (False, True):
                key = f"ahcsi/{talk.name}" + ("/ref" if reference else "")
                project = ahcsi_project(talk, reference)
                item = Item(f"ahcsi/{talk.name}", "ahcsi reference" if reference else "ahcsi", "chunks", key, gold, gold,
                            talk=talk, reference=reference)
                seen_of(item, project)
                items.append(item)
    return items, sources


def item_examples(item: Item) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """The item's training examples (only those inside its piece, for the book)."""
    data, at = _cached("examples-" + item.key.replace("/", "_"), lambda: T.examples_at(seen_of(item), item.full_gold))
    if item.piece is None:
        return data  # type: ignore[no-any-return]
    out = {}
    for kind, (X, y) in data.items():
        span = item.piece.tgt if kind == "addition" else item.piece.src
        keep = (at[kind] >= span.start) & (at[kind] < span.stop)
        out[kind] = (X[keep], y[keep])
    return out


def fit_logistic(X: np.ndarray, y: np.ndarray, start: np.ndarray | None, l2: float = 1.0) -> np.ndarray:
    """``train_bead_score.fit_logistic``'s optimum, by Newton's method from ``start`` (a fold starts from the full fit)."""
    return T.fit_logistic(X, y, l2, start=start)


def fit_weights(train: list[Item], units: str, sentence_skips: dict[str, Any] | None = None,
                start: dict[str, Any] | None = None, l2: float | dict[str, float] = 1.0,
                offsets: tuple[float, float] | None = None) -> dict[str, Any]:
    """The bead score fitted on ``train`` as ``train_bead_score`` fits it (quietly); ``l2``: its penalty (or one per model);
    ``offsets``: the sentence set's 1-0 / 0-1 offsets (default the combined set's; :func:`interpretation_offsets`)."""
    from sialign.align import learned_pass

    kinds = ["match", "omission", "addition"] if units == "sentences" else ["match"]
    weights: dict[str, Any] = {}
    train = [it for it in train if it.train]
    for kind in kinds:
        parts = [item_examples(it)[kind] for it in train]
        X = np.concatenate([x for x, _ in parts])
        y = np.concatenate([t for _, t in parts]).astype(np.float64)
        w = fit_logistic(X, y, None if start is None else np.array(list(start[kind].values())),
                         l2[kind] if isinstance(l2, dict) else l2)
        names = learned_pass.match_features(units) if kind == "match" else learned_pass.SKIP_FEATURES
        weights[kind] = {name: float(v) for name, v in zip(names, w)}
    if units == "sentences":
        weights["omission_offset"], weights["addition_offset"] = offsets or (T.OMISSION_OFFSET, T.ADDITION_OFFSET)
        weights["first_pass_omissions"] = False
    else:
        assert sentence_skips is not None
        weights["omission"], weights["addition"] = sentence_skips["omission"], sentence_skips["addition"]
        weights["omission_offset"], weights["addition_offset"] = T.CHUNK_OMISSION_OFFSET, T.CHUNK_ADDITION_OFFSET
        weights["first_pass_omissions"] = True
    return weights


def interpretation_offsets() -> tuple[float, float]:
    """The interpretation weight set's 1-0 / 0-1 offsets, as ``train_bead_score`` ships them."""
    return T.INTERPRETATION_OMISSION_OFFSET, T.INTERPRETATION_ADDITION_OFFSET


def interpretation_fits(items: list[Item]) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """The interpretation set as ``train_bead_score`` ships it (its own offsets), fitted on the EPTIC speeches of
    ``items``: on all of them, and for each speech on the others (name -> weights)."""
    from sialign.evaluate.folds import leave_one_out

    eptic = [it for it in items if it.doc.startswith("eptic/")]
    full = fit_weights(eptic, "sentences", offsets=interpretation_offsets())
    folds = {name: fit_weights([eptic[i] for i in train], "sentences", start=full, offsets=interpretation_offsets())
             for name, train, _ in leave_one_out([it.doc for it in eptic])}
    return full, folds


@dataclass
class AutoFits:
    """The two sentence weight sets as ``text_kind`` auto picks them for each document: fitted on every
    document (in-sample) and leaving each out (name -> weights)."""

    combined: dict[str, Any]
    combined_folds: dict[str, dict[str, Any]]
    interpretation: dict[str, Any]
    interpretation_folds: dict[str, dict[str, Any]]

    def raw(self, item: Item, in_sample: bool = False) -> dict[str, Any]:
        if auto_text_kind(item) == "interpretation":
            return self.interpretation if in_sample else self.interpretation_folds[item.doc]
        return self.combined if in_sample else self.combined_folds[item.doc]

    def aligned(self, item: Item, in_sample: bool = False) -> Gold:
        """The item aligned by the second pass with the weights ``auto`` gives it, held out unless ``in_sample``."""
        from sialign.align.learned_pass import BeadScoreWeights

        return aligned(item, BeadScoreWeights.from_dict(self.raw(item, in_sample), "sentences"))


def auto_fits(items: list[Item]) -> AutoFits:
    """:class:`AutoFits` of the sentence ``items`` (the combined set on all of them, the interpretation set on EPTIC's)."""
    from sialign.evaluate.folds import leave_one_out

    full = fit_weights(items, "sentences")
    folds = {name: fit_weights([items[i] for i in train], "sentences", start=full)
             for name, train, _ in leave_one_out([it.doc for it in items])}
    return AutoFits(full, folds, *interpretation_fits(items))


def path_beads(path: list[tuple[int, int, int, int]]) -> Gold:
    return [(tuple(range(i0, i0 + a)), tuple(range(j0, j0 + b))) for i0, a, j0, b in path]


class _MemoFirst:
    """The first pass's window costs, each block of rows computed once (the DP asks for the same blocks every time)."""

    def __init__(self, first: Any) -> None:
        self._first, self._memo = first, {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self._first, name)

    def band_costs(self, types: list[tuple[int, int]], rows: np.ndarray, j_grid: np.ndarray) -> np.ndarray:
        key = (tuple(types), int(rows[0]), j_grid.shape, int(j_grid[0, 0]))
        if key not in self._memo:
            self._memo[key] = self._first.band_costs(types, rows, j_grid)
        return self._memo[key]  # type: ignore[no-any-return]


def _memo_features(seen: dict[str, Any]) -> Any:
    """``BeadFeatures`` of a capture whose candidate features are computed once for every set of weights."""
    from sialign.align.learned_pass import BeadFeatures

    class Memo(BeadFeatures):
        def match(self, a: int, b: int, i: np.ndarray, j: np.ndarray, first_cost: np.ndarray,
                  shared: dict[tuple[int, int, int, int], np.ndarray] | None = None) -> np.ndarray:
            key = ("m", a, b, int(i.flat[0]), i.shape, int(j.flat[0]))
            if key not in memo:
                memo[key] = super().match(a, b, i, j, first_cost, shared)
            return memo[key]

        def skips(self, side: str, band: Any) -> np.ndarray:
            if ("s", side) not in memo:
                memo[("s", side)] = super().skips(side, band)
            return memo[("s", side)]

    memo: dict[Any, np.ndarray] = {}
    return Memo(seen["src_spans"], seen["tgt_spans"], seen["src_chars"], seen["tgt_chars"], _MemoFirst(seen["first"]))


_FEATURES: dict[str, Any] = {}
_ALIGNED: dict[tuple[str, str], Gold] = {}


def joins(item: Item, kind: str | None = None) -> bool:
    """Whether the second pass joins the beads a name crosses for ``item`` as the pipeline does
    (``learned_pass.JOIN_CROSSED`` of the weight set its text kind takes; ``kind`` None: what auto makes of it)."""
    from sialign.align.learned_pass import JOIN_CROSSED, weight_set

    return bool(JOIN_CROSSED.get(weight_set(item.units, kind or auto_text_kind(item))))


def realign(item: Item, weights: Any, max_src: int | None = None, join: bool | None = None) -> Gold:
    """The whole capture aligned by the second pass with ``weights`` (``max_src``: fewer source segments a bead), not cached.

    ``join``: whether beads a name crosses are joined (None: as :func:`joins` says under auto).
    For callers that also change module settings the weights do not hold (the reference bonus); :func:`aligned` caches.
    """
    from sialign.align.learned_pass import second_pass

    seen = seen_of(item)
    join = joins(item) if join is None else join
    # The candidates' features are kept between calls (they do not depend on the weights).
    if item.key not in _FEATURES:
        _FEATURES[item.key] = _memo_features(seen)
    most_src, most_tgt = seen["limits"]
    path = second_pass(seen["first"], seen["src_spans"], seen["tgt_spans"], seen["src_chars"], seen["tgt_chars"],
                       seen["path"], weights, most_src if max_src is None else min(most_src, max_src), most_tgt,
                       features=_FEATURES[item.key], words=seen.get("words"), names=seen["names"] if join else None)
    return path_beads(path)


def aligned(item: Item, weights: Any, join: bool | None = None) -> Gold:
    """The whole capture aligned by the second pass with ``weights`` (None: the first pass; ``join``: see :func:`realign`)."""
    join = joins(item) if join is None else join
    tag = "first" if weights is None else hashlib.sha1(json.dumps(weights.to_dict(), sort_keys=True).encode()).hexdigest()
    if weights is not None and join:
        tag += "+joined"
    if (item.key, tag) not in _ALIGNED:
        _ALIGNED[(item.key, tag)] = path_beads(seen_of(item)["path"]) if weights is None else realign(item, weights, join=join)
    return _ALIGNED[(item.key, tag)]


_AUTO_KIND: dict[str, str] = {}
_SPEECHES: dict[str, Any] = {}


def auto_text_kind(item: Item) -> str:
    """What ``text_kind="auto"`` makes of a sentence item's project (``pipeline.resolve_text_kind``): an EPTIC
    speech as captured (text only or timed), the book; ``"translation"`` for MAC's books (one sentence a line, no
    times) and chunk items (their weights do not depend on it)."""
    from sialign.align.pipeline import resolve_text_kind
    from sialign.core.params import AlignParams
    from sialign.evaluate import load_textberg
    from sialign.evaluate.datasets import load_eptic

    if item.key not in _AUTO_KIND:
        if item.doc.startswith("eptic/"):
            if not _SPEECHES:
                _SPEECHES.update({sp.name: sp for sp in load_eptic(DATA / "eptic-dev")})
            # The speech is the item's document; its key may carry a variant ("/timed", "/timed+120", "/ref").
            project = _SPEECHES[item.doc.removeprefix("eptic/")].project(times="/timed" in item.key)
        elif item.doc.startswith("textberg"):
            project = load_textberg(DATA / "textberg-dev").project()
        else:
            return "translation"
        _AUTO_KIND[item.key] = resolve_text_kind(AlignParams(), project)
    return _AUTO_KIND[item.key]


def scored_beads(item: Item, beads: Gold) -> Gold:
    from sialign.evaluate.folds import beads_in

    return beads_in(item.piece, beads) if item.piece is not None else beads


def score(items: list[Item], hyps: list[Gold], metrics: Any) -> float:
    """Pooled strict F1 (sentence sets) or acc@0.8 (AHC-SI) of ``hyps`` for ``items``."""
    if not items:
        return float("nan")
    if items[0].units == "chunks":
        from sialign.core.model import Alignment, Bead
        from sialign.evaluate import automatic_targets, lcs_accuracy

        pairs: list[tuple[str, str]] = []
        for item, hyp in zip(items, hyps):
            project = item.talk.project()
            if not item.reference:
                project.reference = None
            alignment = Alignment(beads=[Bead(src=s, tgt=t) for s, t in hyp])
            pairs += list(zip(automatic_targets(project, alignment, include_dropped=True), item.talk.manual))
        return float(lcs_accuracy(pairs)["acc@0.8"])
    return float(metrics.bead_scores([scored_beads(it, h) for it, h in zip(items, hyps)], [it.gold for it in items])["strict_f1"])


def bertalign_peer(item: Item, sources: dict[str, Any], encode: Any) -> Gold:
    from peers import bertalign_align

    base = item.key.removesuffix("/timed").removesuffix("/ref")
    src, tgt = sources[base]
    return _cached("bertalign-" + base.replace("/", "_"), lambda: bertalign_align(src, tgt, encode))  # type: ignore[no-any-return]


def main(argv: list[str] | None = None) -> dict[str, Any]:
    from bench_peers import _encoder, _metrics

    from sialign.align.learned_pass import BeadScoreWeights, shipped_weights, weight_set
    from sialign.evaluate.folds import leave_one_out

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument("--pieces", type=int, default=6, help="chapter-sized pieces the dev book is cut into")
    parser.add_argument("--grid", default=",".join(map(str, WEIGHT_GRID)), help="learned weights tried on Bertalign's base")
    parser.add_argument("--fresh", action="store_true", help="drop the cached captures first")
    args = parser.parse_args(argv)
    if args.fresh and CACHE.is_dir():
        for path in CACHE.glob("*.pkl"):
            path.unlink()
    metrics = _metrics()
    started = time.perf_counter()
    report: dict[str, Any] = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "load at start": load()}
    items, sources = items_for(args.sets.split(","), args.pieces)
    report["captured s"] = round(time.perf_counter() - started, 1)
    grid = [float(x) for x in args.grid.split(",")]
    encode = _encoder()
    sentence_items = [it for it in items if it.units == "sentences"]
    chunk_items = [it for it in items if it.units == "chunks"]
    # The sentence fit on every sentence document gives the chunk models their skip models (as shipped).
    t0 = time.perf_counter()
    full = {"sentences": fit_weights(sentence_items, "sentences") if sentence_items else None}
    # The chunk models take their skip models from the sentence fit (the shipped one when no sentence set runs).
    sentence_skips = full["sentences"] or json.loads((REPO / "desktop/sialign/align/bead_score.json").read_text(encoding="utf-8"))["sentences"]
    if chunk_items:
        full["chunks"] = fit_weights(chunk_items, "chunks", sentence_skips)
    report["full fit s"] = round(time.perf_counter() - t0, 2)

    def weights_of(raw: dict[str, Any], units: str, base: str = "learned", w: float = 1.0) -> Any:
        return replace(BeadScoreWeights.from_dict(raw, units), base=base, learned_weight=w)

    # hyps[column][k]: the beads of item k
    hyps: dict[str, list[Gold]] = {c: [[] for _ in items] for c in ["first", "shipped", "learned in-sample", "learned CV",
                                                                   "Bertalign peer"]}
    for w in grid:
        hyps[f"base + {w} learned, in-sample"] = [[] for _ in items]
        hyps[f"base + {w} learned, CV"] = [[] for _ in items]
    t0 = time.perf_counter()
    for k, item in enumerate(items):
        if not item.scored:
            continue
        hyps["first"][k] = aligned(item, None)
        # What the product scores the item with under text_kind="auto" (a speech with timestamps or hesitations
        # is an interpretation).
        shipped = shipped_weights(weight_set(item.units, auto_text_kind(item)))
        hyps["shipped"][k] = aligned(item, shipped)
        hyps["learned in-sample"][k] = aligned(item, weights_of(full[item.units], item.units))
        for w in grid:
            hyps[f"base + {w} learned, in-sample"][k] = aligned(item, weights_of(full[item.units], item.units, "bertalign", w))
        hyps["Bertalign peer"][k] = bertalign_peer(item, sources, encode)
    report["in-sample s"] = round(time.perf_counter() - t0, 1)
    t0 = time.perf_counter()
    fold_weights: dict[str, dict[str, Any]] = {}
    for group in (sentence_items, chunk_items):
        if not group:
            continue
        for name, train, test in leave_one_out([it.doc for it in group]):
            units = group[0].units
            raw = fit_weights([group[i] for i in train], units, sentence_skips if units == "chunks" else None,
                              start=full[units])
            fold_weights[name] = raw
            print(f"fold {name}: {time.perf_counter() - t0:.0f} s, load {load()}", file=sys.stderr, flush=True)
            for i in (i for i in test if group[i].scored):
                k = items.index(group[i])
                hyps["learned CV"][k] = aligned(group[i], weights_of(raw, units))
                for w in grid:
                    hyps[f"base + {w} learned, CV"][k] = aligned(group[i], weights_of(raw, units, "bertalign", w))
    report["CV s"] = round(time.perf_counter() - t0, 1)
    def objective(chosen_items: list[Item], column: list[Gold]) -> float:
        """The mean over the scored sets of each set's pooled figure."""
        sets = dict.fromkeys(it.set for it in chosen_items)
        values = []
        for set_name in sets:
            members = [it for it in chosen_items if it.set == set_name]
            values.append(score(members, [column[items.index(it)] for it in members], metrics))
        return float(np.mean(values))

    # The learned weight on the base, chosen for each held-out document by the other documents' CV scores.
    chosen: dict[str, float] = {}
    hyps["new default, CV"] = [[] for _ in items]
    for group in (sentence_items, chunk_items):
        if not group:
            continue
        for name, train, test in leave_one_out([it.doc for it in group]):
            others = [group[i] for i in train if group[i].scored]
            best = max(grid, key=lambda w: (objective(others, hyps[f"base + {w} learned, CV"]), -w))
            chosen[name] = best
            for i in (i for i in test if group[i].scored):
                k = items.index(group[i])
                hyps["new default, CV"][k] = hyps[f"base + {best} learned, CV"][k]
    report["chosen learned weight"] = {w: sum(1 for v in chosen.values() if v == w) for w in grid}
    # Scores: per set pooled, and per piece of the book.
    table: dict[str, dict[str, float]] = {}
    for set_name in dict.fromkeys(it.set for it in items if it.scored):
        members = [k for k, it in enumerate(items) if it.set == set_name]
        table[set_name] = {c: round(score([items[k] for k in members], [h[k] for k in members], metrics), 3) for c, h in hyps.items()}
        if set_name == "textberg":
            for k in members:
                table[items[k].doc] = {c: round(score([items[k]], [h[k]], metrics), 3) for c, h in hyps.items()}
    report["table"] = table
    report["chosen per document"] = chosen
    report["load at end"] = load()
    report["total s"] = round(time.perf_counter() - started, 1)
    OUT.mkdir(exist_ok=True)
    (OUT / "cv.json").write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
    print(json.dumps(report, indent=1, ensure_ascii=False))
    return report


if __name__ == "__main__":
    main()
