"""Word links inside beads: quality on the word-alignment dev sets and speed (run on demand, not by pytest).

    .venv/bin/python tests/benchmarks/bench_links.py

For each dev pair (``../shared/data/word-align-dev/``: ja–en KFTT, en–fr Hansards, zh–en Tsinghua,
half of each public test set) the built-in linker (:mod:`sialign.links`) draws links on the given
tokens; precision (against sure + possible links), recall (against sure links) and AER are printed
beside the published figures of fast_align, eflomal (both trained on hundreds of thousands of
sentences) and awesome-align (fine-tuned mBERT). When eflomal is installed, a second row per pair:
eflomal trained on the dev sentences themselves (no gold links) with the encoder's links as priors,
as ``sialign links --aligner eflomal`` does; its sampler is random, so its figures vary by a few
thousandths between runs. Speed: a 500-bead "talk" (the first 500 dev pairs,
ja–en then zh–en) [≤ 10 s] and one bead on demand with the encoder loaded [≤ 0.1 s]. The load
average is printed beside the timings: the machine is shared.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "desktop"))
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


def main() -> int:
    from sialign.embed.multilingual import MultilingualEncoder
    from sialign.links import ALIGNER_NAME, EFLOMAL_NAME, WordLinker, eflomal_available, eflomal_links, read_pairs

    if not DATA.is_dir():
        print(f"{DATA}: the word-alignment dev data is missing; set SIALIGN_SHARED to the shared folder", file=sys.stderr)
        return 2
    print(f"load average {os.getloadavg()[0]:.2f} (2 cores)")
    linker = WordLinker(MultilingualEncoder())
    print(f"aligner {ALIGNER_NAME}")
    print(f"{'pair':<6} {'P':>6} {'R':>6} {'AER':>6} {'time s':>7}   published AER: fast_align / eflomal / awesome-align")
    all_pairs = []
    for name, src, tgt in PAIRS:
        pairs = read_pairs(DATA / f"{name}.src-tgt")
        gold = read_gold(DATA / f"{name}.gold")
        start = time.perf_counter()
        hyp = linker.link(pairs, src, tgt)
        elapsed = time.perf_counter() - start
        p, r, aer = scores(hyp, gold)
        pub = PUBLISHED[name]
        print(f"{src}-{tgt:<3} {p:6.3f} {r:6.3f} {aer:6.3f} {elapsed:7.1f}   "
              f"{pub['fast_align']:.3f} / {pub['eflomal']:.3f} / {pub['awesome-align']:.3f}"
              f"   {'below' if aer < pub['fast_align'] else 'NOT below'} fast_align")
        if eflomal_available():
            start = time.perf_counter()
            refined = eflomal_links(pairs, hyp)
            elapsed_e = time.perf_counter() - start
            p, r, aer = scores(refined, gold)
            print(f"{'':<6} {p:6.3f} {r:6.3f} {aer:6.3f} {elapsed_e:7.1f}   ({EFLOMAL_NAME}; time after the encoder)"
                  f"   {'below' if aer < pub['fast_align'] else 'NOT below'} fast_align,"
                  f" {'below' if aer < pub['eflomal'] else 'NOT below'} eflomal")
        all_pairs.append((name, src, tgt, pairs))
    talk = [(p, s, t) for name, s, t, pairs in all_pairs if name in ("jaen", "zhen") for p in pairs][:500]
    start = time.perf_counter()
    for s_lang in ("ja", "zh"):
        linker.link([p for p, s, _ in talk if s == s_lang], s_lang, "en")
    talk_s = time.perf_counter() - start
    one = all_pairs[0][3][5]
    times = []
    for _ in range(5):
        start = time.perf_counter()
        linker.link([one], "ja", "en")
        times.append(time.perf_counter() - start)
    print(f"500-bead talk: {talk_s:.1f} s [<= 10 s]; one bead ({len(one[0])} x {len(one[1])} tokens): "
          f"median {sorted(times)[2] * 1000:.0f} ms [<= 100 ms]; load average {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
