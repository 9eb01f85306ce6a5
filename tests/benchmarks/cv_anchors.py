"""Words both sides share (names, numbers, identical words) as evidence for the second pass, cross-validated (issue 34).

    .venv/bin/python tests/benchmarks/cv_anchors.py [--variants all] [--pieces 6]

On the Text+Berg dev book most of the sentences the second pass leaves out
wrongly are fragments of lists and bibliographies whose names stand in the
French beside them ("Reist ." in "… H. von Gunten-A.Reist ."; "- Heinrich
Roiss :" in "- H. Roiss , Erste Besteigung …"). The encoder's vector of a
two-word fragment says little; the first pass's lexical signal (character
n-grams, ``AlignParams.lexical_weight``) is a cosine, diluted by the longer
target. This measures whether the words themselves help, each way cross-validated
as ``cv_text_kind.py`` does (``text_kind`` auto; every fold's weights fitted
without the held-out document, the interpretation set with its own offsets):

- ``every learned 1-0 kept``: the vote as it was before the test below (every
  sentence the learned path leaves out stays out); the variants after it start
  from there;
- ``omission share, words``: a skip feature, the share of the segment's words
  (4 letters or more, or with a digit) found among the other side's segments
  near it (the window the skip features' best partner is sought in); both
  skip models refitted with it;
- ``omission share, names``: the same for capitalised words after the first
  and words with a digit only;
- ``bead agreement``: a match feature, 2 × the words shared between the bead's
  two sides / all their words (0 where they have none); the match model refitted;
- ``bead agreement + found outside``: also log(1 + the bead's words found in the
  segments just outside it on the other side), a boundary on the wrong side;
- ``as shipped``: no refit; the vote keeps a learned 1-0 bead only where fewer
  than half of its sentence's words stand in the 3 target segments either side
  of it (``learned_pass.found_nearby``, set before any run, not fitted);
- ``found 1-0 out of the vote``: as shipped, and such a bead is not even a
  candidate of the vote (taken off the learned path before it votes).

Figures: pooled strict F1 (``../shared/tools/metrics.py``) of the book (and by
piece) and of EPTIC text only / timed, CV and in-sample, and EPTIC's omitted
sentences. Captures are the cached ones of ``cv_bead_score.py``
(``tmp/cache/cv``); each variant's training examples are cached apart. Writes
``tests/benchmarks/out/cv_anchors.json``.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "desktop"))
sys.path.insert(0, str(HERE))

import cv_bead_score as C  # noqa: E402

_WORD = re.compile(r"\w+")
VARIANTS = ["every learned 1-0 kept", "omission share, words", "omission share, names", "bead agreement",
            "bead agreement + found outside", "as shipped", "found 1-0 out of the vote"]


def words(text: str, kind: str = "words") -> set[str]:
    """The words of ``text`` that may stand unchanged in a translation.

    ``kind`` "words": ``learned_pass.shared_words`` (every word of 4 letters or
    more and every token with a digit, case-folded); "names": capitalised words
    after the first and tokens with a digit.
    """
    from sialign.align.learned_pass import shared_words

    if kind != "names":
        return set(shared_words(text))
    return {w.casefold() for k, w in enumerate(_WORD.findall(text))
            if (len(w) >= 2 and any(c.isdigit() for c in w)) or (k > 0 and len(w) >= 3 and w[0].isupper())}


class Shared:
    """The words of a capture's two sides and, for every source × target pair, how many they share.

    ``block(i0, i1, j0, j1)`` sums the shared counts of source ``i0..i1-1`` ×
    target ``j0..j1-1`` (arrays broadcast; bounds clipped) from a 2-D prefix sum.
    """

    def __init__(self, source: list[str], target: list[str], kind: str) -> None:
        self.src = [words(t, kind) for t in source]
        self.tgt = [words(t, kind) for t in target]
        self.n, self.m = len(self.src), len(self.tgt)
        where: dict[str, list[int]] = {}
        for j, ws in enumerate(self.tgt):
            for w in ws:
                where.setdefault(w, []).append(j)
        counts = np.zeros((self.n, self.m))
        for i, ws in enumerate(self.src):
            for w in ws:
                for j in where.get(w, ()):
                    counts[i, j] += 1
        self.prefix = np.zeros((self.n + 1, self.m + 1))
        self.prefix[1:, 1:] = counts.cumsum(0).cumsum(1)
        self.src_cum = np.concatenate(([0], np.cumsum([len(w) for w in self.src])))
        self.tgt_cum = np.concatenate(([0], np.cumsum([len(w) for w in self.tgt])))

    def block(self, i0: Any, i1: Any, j0: Any, j1: Any) -> np.ndarray:
        i0, i1 = np.clip(i0, 0, self.n), np.clip(i1, 0, self.n)
        j0, j1 = np.clip(j0, 0, self.m), np.clip(j1, 0, self.m)
        p = self.prefix
        return p[i1, j1] - p[i0, j1] - p[i1, j0] + p[i0, j0]  # type: ignore[no-any-return]


_SHARED: dict[int, Shared] = {}


def _shared_of(first: Any) -> Shared:
    return _SHARED[id(getattr(first, "_first", first))]


def _install(variant: str) -> Callable[[], None]:
    """Patch ``learned_pass`` for ``variant``; returns the function that undoes it."""
    from sialign.align import learned_pass as LP

    saved = {name: getattr(LP, name) for name in ("SKIP_FEATURES", "match_features", "found_nearby", "vote_paths")}
    saved_skip, saved_match = LP.BeadFeatures._skip_features, LP.BeadFeatures.match

    def undo() -> None:
        for name, value in saved.items():
            setattr(LP, name, value)
        LP.BeadFeatures._skip_features, LP.BeadFeatures.match = saved_skip, saved_match  # type: ignore[method-assign]

    if variant not in VARIANTS:
        raise SystemExit(f"unknown variant {variant!r}; one of {VARIANTS}")
    if variant not in ("as shipped", "found 1-0 out of the vote"):
        LP.found_nearby = lambda bead, src_words, tgt_words: False  # type: ignore[assignment]
    if variant == "found 1-0 out of the vote":
        def vote(paths: Any, minority: float = LP.VOTE_MINORITY, kept: Any = ()) -> Any:
            # The learned path's 1-0 beads not kept are those whose words stand beside them.
            found = {bead for bead in paths[1] if bead[1] and not bead[3]} - set(kept)
            return saved["vote_paths"]([paths[0], [b for b in paths[1] if b not in found], *paths[2:]], minority, kept)

        LP.vote_paths = vote  # type: ignore[assignment]
    if variant.startswith("omission share"):
        LP.SKIP_FEATURES = [*saved["SKIP_FEATURES"], "found_share"]

        def skip_features(self: Any, side: str, band: Any) -> np.ndarray:
            base = saved_skip(self, side, band)
            shared = _shared_of(self.first)
            mine, other = (shared.src, shared.tgt) if side == "src" else (shared.tgt, shared.src)
            share = np.zeros(len(mine))
            for k, ws in enumerate(mine):
                if not ws:
                    continue
                lo, hi = LP.skip_window(band, side, k, len(other))  # where the skip features' best partner is sought
                near = set().union(*other[lo:hi]) if hi > lo else set()
                share[k] = len(ws & near) / len(ws)
            return np.vstack([base, share[None, :]])

        LP.BeadFeatures._skip_features = skip_features  # type: ignore[method-assign]
    elif variant.startswith("bead agreement"):
        outside = variant.endswith("found outside")
        names = ["words_agree", *(["words_outside"] if outside else [])]
        LP.match_features = lambda units: saved["match_features"](units) + names  # type: ignore[assignment]

        def match(self: Any, a: int, b: int, i: np.ndarray, j: np.ndarray, first_cost: np.ndarray,
                  shared: Any = None) -> np.ndarray:
            base = saved_match(self, a, b, i, j, first_cost, shared)
            s = _shared_of(self.first)
            inside = s.block(i - a, i, j - b, j)
            total = (s.src_cum[np.clip(i, 0, s.n)] - s.src_cum[np.clip(i - a, 0, s.n)]
                     + s.tgt_cum[np.clip(j, 0, s.m)] - s.tgt_cum[np.clip(j - b, 0, s.m)])
            rows = [np.where(total > 0, np.minimum(2 * inside / np.maximum(total, 1), 1.0), 0.0)]
            if outside:
                beyond = (s.block(i - a, i, j, j + 1) + s.block(i - a, i, j - b - 1, j - b)
                          + s.block(i, i + 1, j - b, j) + s.block(i - a - 1, i - a, j - b, j))
                rows.append(np.log1p(beyond))
            return np.concatenate([base, np.stack(rows)])

        LP.BeadFeatures.match = match  # type: ignore[method-assign]
    return undo


def run_variant(variant: str, items: list[C.Item], metrics: Any) -> dict[str, Any]:
    """Fit every fold under ``variant`` and score the book and EPTIC (CV and in-sample)."""
    undo = _install(variant)
    cached = C._cached
    tag = "examples-anchors-" + re.sub(r"\W+", "_", variant) + "-"
    C._ALIGNED.clear()
    C._FEATURES.clear()
    if variant.startswith(("omission share", "bead agreement")):
        C._cached = lambda name, make: cached(name.replace("examples-", tag, 1) if name.startswith("examples-") else name, make)
    try:
        fits = C.auto_fits(items)
        out: dict[str, Any] = {}
        for group in ("textberg", "eptic", "eptic timed"):
            members = [it for it in items if it.set == group and it.scored]
            for how in ("CV", "in-sample"):
                hyps = [fits.aligned(it, how == "in-sample") for it in members]
                row: dict[str, Any] = {"pooled": round(C.score(members, hyps, metrics), 4)}
                if group == "textberg":
                    row["pieces"] = [round(C.score([it], [h], metrics), 3) for it, h in zip(members, hyps)]
                else:
                    sc = metrics.bead_scores(hyps, [it.gold for it in members])
                    row["omitted sentences"] = (f"{round(sc['omission_r'] * sc['omissions_gold'])} of {sc['omissions_gold']} found, "
                                                f"{sc['omissions_flagged']} flagged (precision {sc['omission_p']:.2f})")
                out[f"{group}, {how}"] = row
        if variant.startswith(("omission share", "bead agreement")):
            added = ("found_share", "words_agree", "words_outside")
            out["weights of the new features (combined set; interpretation set)"] = {
                part: [round(raw[part][k], 2) for raw in (fits.combined, fits.interpretation) for k in added if k in raw[part]]
                for part in ("match", "omission", "addition")}
        return out
    finally:
        C._cached = cached
        undo()
        C._ALIGNED.clear()
        C._FEATURES.clear()


def main(argv: list[str] | None = None) -> dict[str, Any]:
    from bench_peers import _metrics

    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--variants", default="all", help=f"separated by semicolons (the names hold commas), or all: {VARIANTS}")
    parser.add_argument("--pieces", type=int, default=6, help="chapter-sized pieces the dev book is cut into")
    args = parser.parse_args(argv)
    variants = VARIANTS if args.variants == "all" else [v.strip() for v in args.variants.split(";")]
    started = time.perf_counter()
    report: dict[str, Any] = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "load at start": C.load()}
    all_items, sources = C.items_for(["textberg", "eptic"], args.pieces)
    items = [it for it in all_items if it.units == "sentences"]
    metrics = _metrics()
    for variant in variants:
        kind = "names" if variant.endswith("names") else "words"
        _SHARED.clear()
        for it in items:
            if it.key.startswith("textberg-"):  # a training run of the book: textberg-a0-a1-b0-b1
                a0, a1, b0, b1 = map(int, it.key.split("-")[1:])
                src, tgt = sources["textberg"][0][a0:a1], sources["textberg"][1][b0:b1]
            else:
                src, tgt = sources["textberg" if it.key == "textberg" else it.key.split("/timed")[0]]
            _SHARED[id(C.seen_of(it)["first"])] = Shared(list(src), list(tgt), kind)
        report[variant] = run_variant(variant, items, metrics)
        print(variant, report[variant], file=sys.stderr, flush=True)
    return C.write_report("cv_anchors", report, started)


if __name__ == "__main__":
    main()
