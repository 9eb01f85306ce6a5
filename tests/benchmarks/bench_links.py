"""Word links inside beads: quality on the word-alignment dev sets and speed (run on demand, not by pytest).

    .venv/bin/python tests/benchmarks/bench_links.py [--speed-only] [--previous]

For each dev pair (``../shared/data/word-align-dev/``: ja–en KFTT, en–fr Hansards, zh–en Tsinghua,
half of each public test set) the built-in linker (:mod:`sialign.links`) draws links on the given
tokens; precision (against sure + possible links), recall (against sure links) and AER are printed
beside the published figures of fast_align, eflomal (both trained on hundreds of thousands of
sentences) and awesome-align (fine-tuned mBERT). When eflomal is installed, a second row per pair:
eflomal trained on the dev sentences themselves (no gold links) with the encoder's links as priors,
as ``sialign links --aligner eflomal`` does; its sampler is random, so its figures vary by a few
thousandths between runs.

Speed, with the encoder and GiNZA loaded: a 500-bead "talk" (the ja–en then zh–en dev pairs as
running text: tokens joined, tokenised again with :func:`sialign.links.tokenize`, linked by a new
linker) [≤ 10 s], and one bead on demand, tokenised and linked, by the linker that linked the talk
and by a new one [≤ 0.1 s]. ``--previous`` also times the talk with each context window encoded as
a text of its own (the method before ``encode_spans``, weights 0.5 / 0.3 / 0.2); the talk is also timed
without the Japanese lexicon (``LinkParams(japanese=False)``: no GiNZA facts, dictionary or romaji). The machine is
shared: the load average is printed and recorded beside every timing. Writes
``tests/benchmarks/out/links.json``.

AER is computed by ``../shared/tools/metrics.py`` (the independent checks' code) where it is there, else
by :func:`scores`. ``--ablation`` (ja–en only) draws the links again with each part of the Japanese
treatment of :mod:`sialign.links` left out or alone (romaji anchors, the dictionary bonus, function
words attached to their word), and the dictionary bonus at 0.1 / 0.2 / 0.3; eflomal's figure is the mean
of three runs, and for the dictionary bonus a 2-fold split of the dev half (first and second half of the
lines) says which weight each half would choose and what it scores on the other half.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "desktop"))
OUT = Path(__file__).resolve().parent / "out"
DATA = Path(os.environ.get("SIALIGN_SHARED", ROOT.parent / "shared")) / "data" / "word-align-dev"
PAIRS = (("jaen", "ja", "en"), ("enfr", "en", "fr"), ("zhen", "zh", "en"))
# Published AER on these test sets (fast_align, eflomal: Östling & Tiedemann 2016 / awesome-align's
# paper tables; awesome-align: Dou & Neubig 2021, fine-tuned mBERT).
PUBLISHED = {
    "jaen": {"fast_align": 0.511, "eflomal": 0.475, "awesome-align": 0.374},
    "enfr": {"fast_align": 0.105, "eflomal": 0.082, "awesome-align": 0.041},
    "zhen": {"fast_align": 0.381, "eflomal": 0.287, "awesome-align": 0.134},
}


def read_gold(path: Path) -> list[tuple[set[tuple[int, int]], set[tuple[int, int]]]]:
    """(sure, possible ∪ sure) 0-based links per line of a gold file (1-based ``i-j`` / ``ipj``)."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        sure, possible = set(), set()
        for tok in line.split():
            sep = "p" if "p" in tok else "-"
            i, j = tok.split(sep)
            (possible if sep == "p" else sure).add((int(i) - 1, int(j) - 1))
        out.append((sure, possible | sure))
    return out


def scores(hyp: list[list[tuple[int, int]]], gold: list[tuple[set[tuple[int, int]], set[tuple[int, int]]]]) -> tuple[float, float, float]:
    """Precision, recall and AER (Och & Ney 2003) over a corpus."""
    a = s = a_s = a_p = 0
    for links, (sure, possible) in zip(hyp, gold):
        found = set(links)
        a, s = a + len(found), s + len(sure)
        a_s, a_p = a_s + len(found & sure), a_p + len(found & possible)
    return a_p / max(1, a), a_s / max(1, s), 1 - (a_s + a_p) / max(1, a + s)


def shared_aer(hyp: list[list[tuple[int, int]]], gold_path: Path | list[str], rows: Sequence[int] | None = None) -> float | None:
    """AER by the independent checks' ``metrics.py`` (None when it is not there), over ``rows`` of the gold or all.

    ``gold_path``: the gold file, or its lines.
    """
    tools = DATA.parents[1] / "tools"
    if not (tools / "metrics.py").is_file():
        return None
    if str(tools) not in sys.path:
        sys.path.insert(0, str(tools))
    import metrics  # type: ignore[import-not-found]

    from sialign.links import format_pharaoh

    gold = gold_path if isinstance(gold_path, list) else gold_path.read_text(encoding="utf-8").splitlines()
    rows = rows if rows is not None else range(len(gold))
    return float(metrics.aer([format_pharaoh(hyp[k]) for k in rows], [gold[k] for k in rows]))


def ablation(encoder: Any, runs: int = 3) -> dict[str, Any]:
    """ja–en AER (encoder; eflomal, mean of ``runs``) with parts of the Japanese treatment left out, and a 2-fold check."""
    import contextlib
    from unittest import mock

    from sialign.links import (
        LinkParams,
        WordLinker,
        eflomal_aligner,
        eflomal_available,
        eflomal_links,
        encoder_links,
        japanese,
        read_pairs,
    )

    # Where each step left out is looked up when links are drawn.
    looked_up = {"function_word_heads": (encoder_links, eflomal_aligner), "romaji_matches": (japanese,)}

    pairs = read_pairs(DATA / "jaen.src-tgt")
    gold = DATA / "jaen.gold"
    half = len(pairs) // 2
    folds = (range(0, half), range(half, len(pairs)))
    linker = WordLinker(encoder)
    none: Any = lambda *args, **kwargs: set()  # noqa: E731
    heads: Any = lambda *args, **kwargs: {}  # noqa: E731
    default = LinkParams()
    variants: list[tuple[str, LinkParams, dict[str, Any]]] = [
        ("none (before)", LinkParams(japanese=False), {}),
        ("romaji anchors alone", LinkParams(dictionary=0.0), {"function_word_heads": heads}),
        ("dictionary alone", default, {"romaji_matches": none, "function_word_heads": heads}),
        ("function words attached alone", LinkParams(dictionary=0.0), {"romaji_matches": none}),
        ("romaji + dictionary", default, {"function_word_heads": heads}),
        ("all but the dictionary", LinkParams(dictionary=0.0), {}),
        ("all (default, dictionary 0.15)", default, {}),
        ("all, dictionary 0.1", LinkParams(dictionary=0.1), {}),
        ("all, dictionary 0.2", LinkParams(dictionary=0.2), {}),
        ("all, dictionary 0.3", LinkParams(dictionary=0.3), {}),
    ]
    out: dict[str, Any] = {}
    for label, params, off in variants:
        linker.params = params
        with contextlib.ExitStack() as patched:
            for name, stand_in in off.items():
                for module in looked_up[name]:
                    patched.enter_context(mock.patch.object(module, name, stand_in))
            hyp = linker.link(pairs, "ja", "en")
            row: dict[str, Any] = {"encoder": shared_aer(hyp, gold), "encoder folds": [shared_aer(hyp, gold, f) for f in folds]}
            if eflomal_available():
                refined = [eflomal_links(pairs, hyp, "ja" if params.japanese else None, "en", params) for _ in range(runs)]
                row["eflomal runs"] = [shared_aer(r, gold) for r in refined]
                row["eflomal folds"] = [sum(shared_aer(r, gold, f) or 0.0 for r in refined) / runs for f in folds]
        out[label] = row
        efl = row.get("eflomal runs") or []
        print(f"  {label:<32} encoder {row['encoder']:.4f}   eflomal {sum(efl) / max(1, len(efl)):.4f} "
              f"({' / '.join(f'{x:.4f}' for x in efl)})   folds {' / '.join(f'{x:.4f}' for x in row.get('eflomal folds', []))}",
              flush=True)
    weights = {label: float(label.rsplit(" ", 1)[1].strip(")")) for label, _, _ in variants if "dictionary 0." in label}
    for k, (fit, held) in enumerate(((0, 1), (1, 0))):
        key = "eflomal folds" if eflomal_available() else "encoder folds"
        best = min(weights, key=lambda label: out[label][key][fit])
        out[f"fold {k + 1}"] = {"chosen on half": fit + 1, "weight": weights[best], "AER on the other half": out[best][key][held]}
        print(f"  2-fold: half {fit + 1} chooses dictionary {weights[best]}; half {held + 1} scores {out[best][key][held]:.4f} "
              f"(default 0.15 there: {out['all (default, dictionary 0.15)'][key][held]:.4f}; "
              f"before: {out['none (before)'][key][held]:.4f})")
    return out


def reversed_jaen(encoder: Any, pairs: list[tuple[list[str], list[str]]]) -> dict[str, Any]:
    """AER of the ja–en set linked the other way round (English source, Japanese target: the app's usual case)."""
    import re
    import tempfile

    from sialign.links import WordLinker, eflomal_available, eflomal_links

    flipped = [(t, s) for s, t in pairs]
    text = (DATA / "jaen.gold").read_text(encoding="utf-8")
    gold = [re.sub(r"(\d+)([-p])(\d+)", r"\3\2\1", line) for line in text.splitlines()]
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "enja.gold").write_text("\n".join(gold) + "\n", encoding="utf-8")
        gold_sets = read_gold(Path(folder) / "enja.gold")
    hyp = WordLinker(encoder).link(flipped, "en", "ja")
    p, r, aer = scores(hyp, gold_sets)
    row: dict[str, Any] = {"P": round(p, 4), "R": round(r, 4), "AER": round(_checked(aer, shared_aer(hyp, gold)), 4)}
    print(f"en-ja  {p:6.3f} {r:6.3f} {row['AER']:6.3f}            (the ja-en set the other way round)")
    if eflomal_available():
        refined = eflomal_links(flipped, hyp, "en", "ja")
        p, r, aer = scores(refined, gold_sets)
        row["eflomal"] = {"P": round(p, 4), "R": round(r, 4), "AER": round(_checked(aer, shared_aer(refined, gold)), 4)}
        print(f"{'':<6} {p:6.3f} {r:6.3f} {row['eflomal']['AER']:6.3f}")
    return row


def _checked(own: float, shared: float | None) -> float:
    """The shared metrics' AER where there is one (it must agree with :func:`scores`)."""
    if shared is not None and abs(shared - own) > 1e-9:
        raise SystemExit(f"AER disagrees with ../shared/tools/metrics.py: {own} against {shared}")
    return shared if shared is not None else own


def _load() -> float:
    return round(os.getloadavg()[0], 2)


class _WindowsAsTexts:
    """The encoder without ``encode_spans``: the linker encodes each context window as a text."""

    def __init__(self, encoder: Any) -> None:
        self.encoder = encoder

    def encode(self, texts: Any, **kwargs: Any) -> Any:
        return self.encoder.encode(texts, **kwargs)


def speed(encoder: Any, all_pairs: list[tuple[str, str, str, list]], previous: bool) -> dict[str, Any]:
    """Seconds for a 500-bead talk and for one bead on demand, each with the load average."""
    from sialign.links import UNSPACED, LinkParams, WordLinker, tokenize
    from sialign.text.japanese import ginza_nlp

    start = time.perf_counter()
    ginza_nlp()
    ginza_s = time.perf_counter() - start

    def running(tokens: list[str], lang: str) -> str:
        return ("" if lang in UNSPACED else " ").join(tokens)

    beads = [
        (running(src, s), running(tgt, t), s, t)
        for name, s, t, pairs in all_pairs if name in ("jaen", "zhen") for src, tgt in pairs
    ][:500]

    def talk(linker: Any) -> tuple[float, float]:
        start = time.perf_counter()
        groups: dict[tuple[str, str], list] = {}
        for src, tgt, s, t in beads:
            groups.setdefault((s, t), []).append(([w for w, _, _ in tokenize(src, s)], [w for w, _, _ in tokenize(tgt, t)]))
        tokenised = time.perf_counter() - start
        for (s, t), pairs in groups.items():
            linker.link(pairs, s, t)
        return time.perf_counter() - start, tokenised

    def bead(linker: Any, k: int = 5, repeats: int = 7) -> float:
        src, tgt, s, t = beads[k]
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            linker.link([([w for w, _, _ in tokenize(src, s)], [w for w, _, _ in tokenize(tgt, t)])], s, t)
            times.append(time.perf_counter() - start)
        return sorted(times)[repeats // 2]

    out: dict[str, Any] = {"ginza load s": round(ginza_s, 2), "beads": len(beads)}
    linker = WordLinker(encoder)
    load = _load()
    talk_s, tokenise_s = talk(linker)
    out["talk s"] = {"s": round(talk_s, 2), "tokenising s": round(tokenise_s, 2), "load before": load, "load after": _load()}
    load = _load()
    kept = bead(linker)
    out["bead ms, words kept"] = {"ms": round(kept * 1000, 1), "load before": load, "load after": _load()}
    load = _load()
    new = sorted(bead(WordLinker(encoder), repeats=1) for _ in range(7))[3]
    out["bead ms, new linker"] = {"ms": round(new * 1000, 1), "load before": load, "load after": _load()}
    src, tgt, s, t = beads[5]
    out["bead tokens"] = [len(tokenize(src, s)), len(tokenize(tgt, t))]
    load = _load()
    plain_s, _ = talk(WordLinker(encoder, LinkParams(japanese=False)))
    out["talk s, without the Japanese lexicon"] = {"s": round(plain_s, 2), "load before": load, "load after": _load()}
    if previous:
        load = _load()
        old_s, _ = talk(WordLinker(_WindowsAsTexts(encoder), LinkParams(weights=(0.5, 0.3, 0.2))))
        out["talk s, windows as texts"] = {"s": round(old_s, 2), "load before": load, "load after": _load()}
    return out


def main() -> int:
    import argparse
    import json

    from sialign.embed.multilingual import MultilingualEncoder
    from sialign.links import ALIGNER_NAME, EFLOMAL_NAME, WordLinker, eflomal_available, eflomal_links, read_pairs

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--speed-only", action="store_true", help="skip the AER of the dev sets")
    parser.add_argument("--previous", action="store_true", help="also time the talk with each window encoded as a text")
    parser.add_argument("--ablation", action="store_true", help="ja-en with parts of the Japanese treatment left out, and a 2-fold check")
    args = parser.parse_args()
    if not DATA.is_dir():
        print(f"{DATA}: the word-alignment dev data is missing; set SIALIGN_SHARED to the shared folder", file=sys.stderr)
        return 2
    print(f"load average {_load():.2f} (2 cores)")
    encoder = MultilingualEncoder()
    report: dict[str, Any] = {"aligner": ALIGNER_NAME, "aer": {}}
    if args.ablation:
        print("ja-en ablation (AER: encoder; eflomal mean of 3 runs (runs); eflomal per half of the lines)")
        report["ablation"] = ablation(encoder)
    print(f"aligner {ALIGNER_NAME}")
    all_pairs = []
    for name, src, tgt in PAIRS:
        pairs = read_pairs(DATA / f"{name}.src-tgt")
        all_pairs.append((name, src, tgt, pairs))
        if args.speed_only:
            continue
        if len(all_pairs) == 1:
            print(f"{'pair':<6} {'P':>6} {'R':>6} {'AER':>6} {'time s':>7}   published AER: fast_align / eflomal / awesome-align")
        gold = read_gold(DATA / f"{name}.gold")
        start = time.perf_counter()
        hyp = WordLinker(encoder).link(pairs, src, tgt)
        elapsed = time.perf_counter() - start
        p, r, aer = scores(hyp, gold)
        aer = _checked(aer, shared_aer(hyp, DATA / f"{name}.gold"))
        row: dict[str, Any] = {"P": round(p, 4), "R": round(r, 4), "AER": round(aer, 4), "s": round(elapsed, 2), "load": _load()}
        pub = PUBLISHED[name]
        print(f"{src}-{tgt:<3} {p:6.3f} {r:6.3f} {aer:6.3f} {elapsed:7.1f}   "
              f"{pub['fast_align']:.3f} / {pub['eflomal']:.3f} / {pub['awesome-align']:.3f}"
              f"   {'below' if aer < pub['fast_align'] else 'NOT below'} fast_align")
        if eflomal_available():
            start = time.perf_counter()
            refined = eflomal_links(pairs, hyp, src, tgt)
            elapsed_e = time.perf_counter() - start
            p, r, aer = scores(refined, gold)
            aer = _checked(aer, shared_aer(refined, DATA / f"{name}.gold"))
            row[EFLOMAL_NAME] = {"P": round(p, 4), "R": round(r, 4), "AER": round(aer, 4), "s": round(elapsed_e, 2)}
            print(f"{'':<6} {p:6.3f} {r:6.3f} {aer:6.3f} {elapsed_e:7.1f}   ({EFLOMAL_NAME}; time after the encoder)"
                  f"   {'below' if aer < pub['fast_align'] else 'NOT below'} fast_align,"
                  f" {'below' if aer < pub['eflomal'] else 'NOT below'} eflomal")
        report["aer"][name] = row
        if name == "jaen":
            report["aer"]["enja"] = reversed_jaen(encoder, pairs)
    report["speed"] = speed(encoder, all_pairs, args.previous)
    sp = report["speed"]
    print(f"500-bead talk: {sp['talk s']['s']:.2f} s [<= 10 s] (tokenising {sp['talk s']['tokenising s']:.2f} s; "
          f"load {sp['talk s']['load before']} -> {sp['talk s']['load after']})")
    plain = sp["talk s, without the Japanese lexicon"]
    print(f"  the same without the Japanese lexicon (romaji, dictionary, function words): {plain['s']:.2f} s "
          f"(load {plain['load before']} -> {plain['load after']})")
    if "talk s, windows as texts" in sp:
        old = sp["talk s, windows as texts"]
        print(f"  the same with each window encoded as a text: {old['s']:.2f} s (load {old['load before']} -> {old['load after']})")
    for key in ("bead ms, words kept", "bead ms, new linker"):
        print(f"one bead ({sp['bead tokens'][0]} x {sp['bead tokens'][1]} tokens), {key.split(', ')[1]}: median "
              f"{sp[key]['ms']:.0f} ms [<= 100 ms] (load {sp[key]['load before']} -> {sp[key]['load after']})")
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "links.json").write_text(json.dumps(report, indent=2, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
