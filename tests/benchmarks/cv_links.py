"""Word links and the Rendered share, cross-validated (run on demand, not by pytest).

    .venv/bin/python tests/benchmarks/cv_links.py [--folds 5] [--skip-rendered] [--eflomal RUNS]

DESIGN.md §5 "Validate as if unseen": every number of :class:`sialign.links.LinkParams` was set by looking
at the word-alignment dev sets (``../shared/data/word-align-dev/``, the dev halves). Here each is chosen
again, for each held-out block of sentences, on the *other* sentences only, and the held-out block is
scored with what they chose:

* **folds**: each pair's dev sentences are cut into ``--folds`` contiguous blocks (5 by default: lines
  1–58, 59–116, … of the ja–en set). For fold k the numbers are chosen on the other four blocks of all
  three pairs together (one setting for every pair, as the product ships one), scored by the mean of the
  three pairs' AER there; the held-out block is linked with that choice. The held-out blocks' links are
  put together and scored as one set: the cross-validated AER, beside the shipped defaults' AER on the
  same sentences (in-sample: the defaults were chosen on them). A second choice per pair (each pair's
  numbers chosen on its own other blocks) says whether per-language numbers would help.
* **leave one pair out**: the numbers are chosen on the two other pairs' whole dev sets and the held-out
  pair is scored (the dictionary bonus, which touches ja–en only, then has nothing to choose by and stays
  at its shipped value).
* **how numbers are chosen**: one knob at a time, as they were tuned, in the order temperature,
  threshold, the weights of the word alone / ±1 / ±2 views, distortion, anchor bonus, dictionary bonus;
  each among a small grid around the shipped value (:data:`KNOBS`; the weight rows are those of
  RESULTS.md), the other knobs at the values chosen so far. Ties go to the shipped value.
* **Rendered share** (``bench_rendered.py``'s measure on its cut sets: en→ja, en→fr, en→zh with a third of
  each target cut out): the two paraphrase thresholds chosen jointly (``paraphrase_slot`` ×
  ``paraphrase_any``, :data:`RENDERED_GRID`) by the errors on the other blocks — content words shown "not
  rendered" that the gold renders plus words the gold leaves unrendered that are not shown, as a share of
  each set's content words, mean over the three sets.

The encoder is deterministic, so every figure here is the same on every run; the context windows of each
set are encoded once and reused for every setting (the links are the product's own
:meth:`~sialign.links.WordLinker.link_with_paraphrase`, checked against a fresh linker for the defaults).
``--eflomal RUNS``: also eflomal seeded by the encoder's links of each fold's choice (trained on all the
pair's sentences, which uses no gold), ``RUNS`` runs each; eflomal's sampler has no seed option, so its
figures vary by a few thousandths between runs. ``--knobs temperature,threshold``: choose only those (the
others stay shipped). ``--rendered-with-chosen-links``: the Rendered share's links drawn with the numbers
chosen on all the sentences instead of the shipped ones (what the app would show with them). ``--eflomal-knobs PAIR`` (with ``--eflomal RUNS``): eflomal on
that pair seeded by the shipped links with each number chosen on all the sentences set alone (in-sample, a
diagnosis of which number moves eflomal). AER by ``../shared/tools/metrics.py`` exactly as
``bench_links.py`` computes it. Writes ``tests/benchmarks/out/cv_links.json`` (with ``--knobs``: ``cv_links-KNOB-….json``; ``…-chosen-links.json``); the load average is printed.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "desktop"))
sys.path.insert(0, str(HERE))

from bench_links import DATA, PAIRS, read_gold, shared_aer  # noqa: E402

from sialign.links import LinkParams  # noqa: E402

OUT = HERE / "out"
SHIPPED = LinkParams()
# Knobs in the order they were tuned, each with its grid around the shipped value.
KNOBS: tuple[tuple[str, tuple[Any, ...]], ...] = (
    ("temperature", (0.02, 0.03, 0.04, 0.05, 0.06, 0.08)),
    ("threshold", (0.05, 0.1, 0.15, 0.2, 0.25)),
    ("weights", ((0.5, 0.3, 0.2), (0.55, 0.25, 0.2), (0.6, 0.2, 0.2), (0.65, 0.15, 0.2), (0.7, 0.15, 0.15),
                 (0.8, 0.1, 0.1), (0.7, 0.3, 0.0), (0.7, 0.0, 0.3))),
    ("distortion", (0.1, 0.15, 0.2, 0.25, 0.3)),
    ("anchor", (0.2, 0.3, 0.4, 0.5)),
    ("dictionary", (0.1, 0.15, 0.2, 0.3)),
)
RENDERED_GRID: tuple[tuple[float, float], ...] = tuple(
    (slot, anywhere) for slot in (0.3, 0.35, 0.4, 0.45, 0.5) for anywhere in (0.5, 0.55, 0.6, 0.65, 0.7)
)


def folds(n: int, k: int) -> list[range]:
    """``k`` contiguous blocks of ``range(n)``, as even as can be (the first ones shorter)."""
    return [range(n * f // k, n * (f + 1) // k) for f in range(k)]


def others(n: int, held: range) -> list[int]:
    """The rows of ``range(n)`` outside ``held``."""
    return [r for r in range(n) if r not in held]


def choose(score: Callable[[LinkParams], float], knobs: Sequence[tuple[str, Sequence[Any]]] = KNOBS,
           start: LinkParams = SHIPPED) -> tuple[LinkParams, dict[str, Any]]:
    """One pass of one-knob-at-a-time choice: each knob's grid value of least ``score``, the others as chosen so far.

    Scores are compared to 6 decimals; a tie goes to the starting value, then to the earlier grid value.

    Returns:
        The chosen parameters and, per knob, the value chosen.
    """
    current = start
    chosen: dict[str, Any] = {}
    for name, grid in knobs:
        shipped = getattr(start, name)

        def key(value: Any, name: str = name, shipped: Any = shipped) -> tuple[float, bool]:
            return round(score(dataclasses.replace(current, **{name: value})), 6), value != shipped

        best = min(grid, key=key)
        current = dataclasses.replace(current, **{name: best})
        chosen[name] = best
    return current, chosen


class _CachedSpans:
    """The encoder, with each ``encode_spans`` call's result kept (the same sides are read for every setting)."""

    def __init__(self, encoder: Any) -> None:
        self.encoder = encoder
        self._spans: dict[int, Any] = {}

    def encode(self, texts: Any, **kwargs: Any) -> Any:
        return self.encoder.encode(texts, **kwargs)

    def encode_spans(self, texts: Sequence[str], spans: Sequence[Sequence[tuple[int, int]]], **kwargs: Any) -> Any:
        key = hash((tuple(texts), tuple(tuple(s) for s in spans)))
        if key not in self._spans:
            self._spans[key] = self.encoder.encode_spans(texts, spans, **kwargs)
        return self._spans[key]


@dataclasses.dataclass
class Pair:
    """One dev pair: its token lists, gold lines and (for Japanese) GiNZA facts."""

    name: str
    src: str
    tgt: str
    pairs: list[tuple[list[str], list[str]]]
    gold: list[str]
    facts: Any


class Links:
    """Links of each dev pair under any :class:`LinkParams`, kept per setting."""

    def __init__(self, encoder: Any, pairs: list[Pair]) -> None:
        from sialign.links import WordLinker

        self.linker = WordLinker(_CachedSpans(encoder))
        self.pairs = {p.name: p for p in pairs}
        self._hyp: dict[tuple[str, LinkParams], list[list[tuple[int, int]]]] = {}

    def hyp(self, name: str, params: LinkParams) -> list[list[tuple[int, int]]]:
        key = (name, params)
        if key not in self._hyp:
            p = self.pairs[name]
            self.linker.params = params
            self._hyp[key] = [links for links, _ in self.linker.link_with_paraphrase(p.pairs, p.src, p.tgt, facts=p.facts)]
        return self._hyp[key]

    def aer(self, name: str, params: LinkParams, rows: Sequence[int] | None = None) -> float:
        p = self.pairs[name]
        value = shared_aer(self.hyp(name, params), p.gold, range(len(p.gold)) if rows is None else rows)
        if value is None:
            raise SystemExit(f"{DATA.parents[1] / 'tools' / 'metrics.py'}: missing; the AER must come from the shared metrics")
        return value


def _load() -> float:
    return round(os.getloadavg()[0], 2)


def _short(chosen: dict[str, Any]) -> str:
    """The knobs that differ from the shipped values, as ``name=value``; "shipped" when none."""
    diff = [f"{k}={'/'.join(str(x) for x in v) if isinstance(v, tuple) else v}" for k, v in chosen.items()
            if v != getattr(SHIPPED, k)]
    return ", ".join(diff) or "shipped"


def cv_links(links: Links, k: int, eflomal_runs: int, knobs: Sequence[tuple[str, Sequence[Any]]] = KNOBS) -> dict[str, Any]:
    """In-sample and cross-validated AER per pair (folds joint and per pair, leave one pair out)."""
    names = list(links.pairs)
    size = {n: len(links.pairs[n].gold) for n in names}
    blocks = {n: folds(size[n], k) for n in names}
    report: dict[str, Any] = {"folds": k, "blocks": {n: [[b.start + 1, b.stop] for b in blocks[n]] for n in names}}

    def mean_aer(rows: Mapping[str, Sequence[int]]) -> Callable[[LinkParams], float]:
        return lambda params: sum(links.aer(n, params, r) for n, r in rows.items()) / len(rows)

    # In-sample: the defaults, and the numbers chosen on all the sentences (what tuning on the dev sets gives).
    tuned_all, tuned_all_knobs = choose(mean_aer({n: range(size[n]) for n in names}), knobs)
    report["shipped"] = {n: links.aer(n, SHIPPED) for n in names}
    report["chosen on all (in-sample)"] = {"knobs": tuned_all_knobs, "aer": {n: links.aer(n, tuned_all) for n in names}}
    print(f"in-sample: shipped {_fmt(report['shipped'])}; chosen on all ({_short(tuned_all_knobs)}) "
          f"{_fmt(report['chosen on all (in-sample)']['aer'])}   load {_load()}", flush=True)

    for view in ("joint", "per pair"):
        rows_out: dict[str, list[dict[str, Any]]] = {n: [] for n in names}
        cv_hyp: dict[str, list[Any]] = {n: [None] * size[n] for n in names}
        chosen_params: dict[str, list[LinkParams]] = {n: [] for n in names}
        for f in range(k):
            if view == "joint":
                params, chosen = choose(mean_aer({n: others(size[n], blocks[n][f]) for n in names}), knobs)
                per = {n: (params, chosen) for n in names}
            else:
                per = {n: choose(mean_aer({n: others(size[n], blocks[n][f])}), knobs) for n in names}
            for n in names:
                params, chosen = per[n]
                held = blocks[n][f]
                hyp = links.hyp(n, params)
                for r in held:
                    cv_hyp[n][r] = hyp[r]
                chosen_params[n].append(params)
                rows_out[n].append({"fold": f + 1, "knobs": chosen, "held-out AER": links.aer(n, params, held),
                                    "shipped there": links.aer(n, SHIPPED, held)})
            if view == "joint":
                print(f"  fold {f + 1} ({view}) chooses {_short(per[names[0]][1])}: held out "
                      + ", ".join(f"{n} {rows_out[n][-1]['held-out AER']:.4f} (shipped {rows_out[n][-1]['shipped there']:.4f})"
                                  for n in names) + f"   load {_load()}", flush=True)
            else:
                for n in names:
                    print(f"  fold {f + 1} ({view}, {n}) chooses {_short(per[n][1])}: held out "
                          f"{rows_out[n][-1]['held-out AER']:.4f} (shipped {rows_out[n][-1]['shipped there']:.4f})", flush=True)
        cv = {n: _aer_of(cv_hyp[n], links.pairs[n].gold) for n in names}
        report[f"folds, {view}"] = {"cv aer": cv, "by fold": rows_out}
        print(f"{k}-fold CV ({view}): {_fmt(cv)}  against shipped in-sample {_fmt(report['shipped'])}", flush=True)
        if eflomal_runs and view == "joint":
            report[f"folds, {view}"]["eflomal"] = cv_eflomal(links, blocks, chosen_params, eflomal_runs)

    lopo: dict[str, Any] = {}
    for n in names:
        params, chosen = choose(mean_aer({m: range(size[m]) for m in names if m != n}), knobs)
        lopo[n] = {"knobs": chosen, "aer": links.aer(n, params)}
        print(f"leave {n} out: chooses {_short(chosen)}; {n} scores {lopo[n]['aer']:.4f} "
              f"(shipped {report['shipped'][n]:.4f})", flush=True)
    report["leave one pair out"] = lopo
    return report


def cv_eflomal(links: Links, blocks: dict[str, list[range]], chosen: dict[str, list[LinkParams]], runs: int) -> dict[str, Any]:
    """eflomal seeded by the shipped encoder links and by each fold's choice: AER of the held-out blocks, per run."""
    from sialign.links import eflomal_available, eflomal_links

    if not eflomal_available():
        print("  eflomal is not installed: no eflomal rows")
        return {}
    out: dict[str, Any] = {}
    for n, p in links.pairs.items():
        shipped_runs, cv_runs = [], []
        for _ in range(runs):
            shipped_runs.append(_aer_of(eflomal_links(p.pairs, links.hyp(n, SHIPPED), p.src, p.tgt, SHIPPED), p.gold))
            hyp: list[Any] = [None] * len(p.gold)
            trained: dict[LinkParams, list[Any]] = {}
            for params, held in zip(chosen[n], blocks[n]):
                if params not in trained:  # folds that chose the same numbers share one eflomal run
                    trained[params] = eflomal_links(p.pairs, links.hyp(n, params), p.src, p.tgt, params)
                for r in held:
                    hyp[r] = trained[params][r]
            cv_runs.append(_aer_of(hyp, p.gold))
        out[n] = {"shipped runs": shipped_runs, "cv runs": cv_runs}
        print(f"  eflomal {n}: shipped {' / '.join(f'{x:.4f}' for x in shipped_runs)}; "
              f"CV {' / '.join(f'{x:.4f}' for x in cv_runs)}   load {_load()}", flush=True)
    return out


def eflomal_by_knob(links: Links, name: str, knobs: dict[str, Any], runs: int) -> dict[str, Any]:
    """eflomal on one pair seeded by the shipped links with one knob at a time set to its value in ``knobs``.

    A diagnosis, in-sample (all the pair's sentences): which of the chosen numbers moves eflomal's AER.
    """
    from sialign.links import eflomal_links

    p = links.pairs[name]
    out: dict[str, Any] = {}
    for knob, value in [("shipped", None), *((k, v) for k, v in knobs.items() if v != getattr(SHIPPED, k)), ("all", None)]:
        if knob == "shipped":
            params = SHIPPED
        elif knob == "all":
            params = dataclasses.replace(SHIPPED, **knobs)
        else:
            params = dataclasses.replace(SHIPPED, **{knob: value})
        hyp = links.hyp(name, params)
        found = [_aer_of(eflomal_links(p.pairs, hyp, p.src, p.tgt, params), p.gold) for _ in range(runs)]
        out[knob] = {"value": value, "encoder": links.aer(name, params), "eflomal runs": found}
        print(f"  {name} {knob}{'' if value is None else f'={value}'}: encoder {out[knob]['encoder']:.4f}, "
              f"eflomal {' / '.join(f'{x:.4f}' for x in found)}   load {_load()}", flush=True)
    return out


def _aer_of(hyp: list[Any], gold: list[str]) -> float:
    value = shared_aer(hyp, gold)
    assert value is not None
    return value


def _fmt(values: dict[str, float]) -> str:
    return " / ".join(f"{n} {v:.4f}" for n, v in values.items())


# --- the Rendered share -------------------------------------------------------------------------------


def cv_rendered(encoder: Any, k: int, base: LinkParams = SHIPPED) -> dict[str, Any]:
    """The two paraphrase thresholds chosen on the other blocks of the cut sets, scored on the held-out block.

    ``base``: the numbers the links are drawn with (the shipped ones, or those chosen for the links).
    """
    from bench_rendered import _states, cut_target

    from sialign.links import WordLinker, read_pairs

    linker = WordLinker(_CachedSpans(encoder))
    sets: dict[str, Any] = {}
    for name, s, t in PAIRS:
        pairs = read_pairs(DATA / f"{name}.src-tgt")
        gold = [possible for _, possible in read_gold(DATA / f"{name}.gold")]
        if s != "en":  # the sets are cut with English as the source, as in the app
            pairs, gold, s, t = [(b, a) for a, b in pairs], [{(j, i) for i, j in g} for g in gold], t, s
        cut_pairs, cut_gold, omitted = cut_target(pairs, gold)
        sets[f"{s}-{t}"] = (s, t, cut_pairs, cut_gold, omitted)

    # Per set, per setting, per sentence: (false "not rendered", true omissions kept, omissions, content words).
    counts: dict[tuple[str, tuple[float, float]], list[tuple[int, int, int, int]]] = {}
    for slot, anywhere in RENDERED_GRID:
        linker.params = dataclasses.replace(base, paraphrase_slot=slot, paraphrase_any=anywhere)
        for key, (s, t, cut_pairs, cut_gold, omitted) in sets.items():
            states = _states(linker, cut_pairs, s, t)
            rows = []
            for st, left, gone in zip(states, cut_gold, omitted):
                judged = [(i in left, state) for i, state in st.items() if i in left or i in gone]
                rows.append((sum(1 for g, x in judged if g and x == "not found"),
                             sum(1 for g, x in judged if not g and x == "not found"),
                             sum(1 for g, _ in judged if not g), len(judged)))
            counts[(key, (slot, anywhere))] = rows
    print(f"  rendered: {len(RENDERED_GRID)} settings drawn   load {_load()}", flush=True)

    def total(key: str, setting: tuple[float, float], rows: Sequence[int]) -> dict[str, int]:
        got = [counts[(key, setting)][r] for r in rows]
        return {"false not rendered": sum(x[0] for x in got), "omissions kept": sum(x[1] for x in got),
                "omissions": sum(x[2] for x in got), "content words": sum(x[3] for x in got)}

    def error(setting: tuple[float, float], rows: Mapping[str, Sequence[int]]) -> float:
        share = 0.0
        for key, r in rows.items():
            c = total(key, setting, r)
            share += (c["false not rendered"] + c["omissions"] - c["omissions kept"]) / max(1, c["content words"])
        return share / len(rows)

    shipped = (SHIPPED.paraphrase_slot, SHIPPED.paraphrase_any)
    size = {key: len(v[2]) for key, v in sets.items()}
    blocks = {key: folds(size[key], k) for key in sets}

    def pick(rows: Mapping[str, Sequence[int]]) -> tuple[float, float]:
        return min(RENDERED_GRID, key=lambda g: (round(error(g, rows), 6), g != shipped))

    everything = {key: range(size[key]) for key in sets}
    on_all = pick(everything)
    report: dict[str, Any] = {
        "links drawn with": dataclasses.asdict(base),
        "grid": [list(g) for g in RENDERED_GRID],
        "shipped": {key: total(key, shipped, everything[key]) for key in sets},
        "chosen on all (in-sample)": {"thresholds": list(on_all), **{key: total(key, on_all, everything[key]) for key in sets}},
        "by fold": [],
    }
    cv: dict[str, dict[str, int]] = {key: {} for key in sets}
    for f in range(k):
        setting = pick({key: others(size[key], blocks[key][f]) for key in sets})
        row: dict[str, Any] = {"fold": f + 1, "thresholds": list(setting)}
        for key in sets:
            held = total(key, setting, blocks[key][f])
            row[key] = {"chosen": held, "shipped": total(key, shipped, blocks[key][f])}
            for name, value in held.items():
                cv[key][name] = cv[key].get(name, 0) + value
        report["by fold"].append(row)
        print(f"  rendered fold {f + 1} chooses slot {setting[0]} / anywhere {setting[1]}", flush=True)
    report["cv"] = cv
    for key in sets:
        a, b, c = report["shipped"][key], cv[key], report["chosen on all (in-sample)"][key]
        print(f"  {key} cut: false not rendered / omissions kept of {a['omissions']}: shipped {a['false not rendered']} / "
              f"{a['omissions kept']}; CV {b['false not rendered']} / {b['omissions kept']}; chosen on all "
              f"({on_all[0]} / {on_all[1]}) {c['false not rendered']} / {c['omissions kept']}", flush=True)
    return report


def main() -> int:
    from sialign.embed.multilingual import MultilingualEncoder
    from sialign.links import WordLinker, japanese_facts, read_pairs

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folds", type=int, default=5, help="contiguous blocks per pair (default 5)")
    parser.add_argument("--skip-rendered", action="store_true", help="word links only")
    parser.add_argument("--eflomal", type=int, default=0, metavar="RUNS", help="also eflomal, RUNS runs each (default: none)")
    parser.add_argument("--rendered-with-chosen-links", action="store_true",
                        help="draw the Rendered share's links with the numbers chosen on all sentences, not the shipped ones")
    parser.add_argument("--knobs", help="only these knobs, comma-separated (default: all, in the order of KNOBS)")
    parser.add_argument("--eflomal-knobs", metavar="PAIR", choices=[name for name, _, _ in PAIRS],
                        help="also eflomal on PAIR (jaen, enfr, zhen) with one chosen number at a time")
    args = parser.parse_args()
    names = args.knobs.split(",") if args.knobs else [name for name, _ in KNOBS]
    unknown = sorted(set(names) - {name for name, _ in KNOBS})
    if unknown:
        parser.error(f"--knobs: unknown {', '.join(unknown)}; choose among {', '.join(name for name, _ in KNOBS)}")
    knobs = [(name, grid) for name, grid in KNOBS if name in names]
    if not DATA.is_dir():
        print(f"{DATA}: the word-alignment dev data is missing; set SIALIGN_SHARED to the shared folder", file=sys.stderr)
        return 2
    start, load = time.perf_counter(), _load()
    print(f"load average {load:.2f} (2 cores shared)", flush=True)
    encoder = MultilingualEncoder()
    pairs = []
    for name, s, t in PAIRS:
        tokens = read_pairs(DATA / f"{name}.src-tgt")
        gold = (DATA / f"{name}.gold").read_text(encoding="utf-8").splitlines()
        pairs.append(Pair(name, s, t, tokens, gold, japanese_facts(tokens, s, t)))
    links = Links(encoder, pairs)
    for p in pairs:  # the cached path draws the product's links
        fresh = WordLinker(encoder).link(p.pairs, p.src, p.tgt)
        if fresh != links.hyp(p.name, SHIPPED):
            raise SystemExit(f"{p.name}: the cached links differ from a fresh linker's")
    report: dict[str, Any] = {"load before": load, "knobs": names, "links": cv_links(links, args.folds, args.eflomal, knobs)}
    if args.eflomal_knobs:
        on_all = report["links"]["chosen on all (in-sample)"]["knobs"]
        print(f"eflomal on {args.eflomal_knobs}, seeded by the shipped links with one chosen number at a time:")
        report["eflomal by knob"] = eflomal_by_knob(links, args.eflomal_knobs, on_all, max(1, args.eflomal))
    if not args.skip_rendered:
        base = SHIPPED
        if args.rendered_with_chosen_links:
            base = dataclasses.replace(SHIPPED, **report["links"]["chosen on all (in-sample)"]["knobs"])
            print(f"Rendered share with the links of the numbers chosen on all sentences ({_short(dataclasses.asdict(base))}):")
        report["rendered"] = cv_rendered(encoder, args.folds, base)
    report["load after"], report["s"] = _load(), round(time.perf_counter() - start, 1)
    print(f"{report['s']:.0f} s; load average {load} -> {report['load after']}")
    OUT.mkdir(parents=True, exist_ok=True)
    stem = "cv_links" + (f"-{'-'.join(names)}" if args.knobs else "") + ("-chosen-links" if args.rendered_with_chosen_links else "")
    (OUT / f"{stem}.json").write_text(json.dumps(report, indent=2, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
