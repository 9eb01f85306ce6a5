"""SudachiDict small against core: what the lean installer's smaller dictionary costs (run on demand).

    .venv/bin/python tests/benchmarks/bench_sudachi.py [--data ../shared/data] [--out tests/benchmarks/out/sudachi.json]

The lean installer carries SudachiDict small (118 MB installed) instead of
core (207 MB). Each dictionary is measured in its own process
(``SIALIGN_SUDACHI_DICT``), on the AHC-SI dev files:

1. the intra filter against ``auto_intra_label`` (``bench_text.intra_agreement``:
   agreement, ROC AUC of α/γ/η) — the content-word filter's figures;
2. Japanese chunking where it relies on GiNZA: each interpreter line with its
   punctuation removed (as a machine transcript often comes), cut by
   :func:`sialign.text.chunk_japanese` at bunsetsu boundaries, scored against
   the cuts the interpreter's own punctuation made (boundary precision,
   recall, F1 over character offsets);
3. words per line and GiNZA's load time.

Installs needed: ``pip install sudachidict_small==20260723`` (the release that
still accepts the SudachiPy GiNZA 5 asks for) beside core.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))
DICTIONARIES = ("core", "small")
PUNCT = re.compile(r"[、。？！?!,，.．｡､…‥]+")


def _cuts(text: str) -> tuple[str, set[int]]:
    """The text without punctuation and the offsets (in that text) where the punctuation cut it."""
    out: list[str] = []
    cuts: set[int] = set()
    pos = 0
    for piece in PUNCT.split(text):
        out.append(piece)
        pos += len(piece)
        cuts.add(pos)
    plain = "".join(out)
    cuts.discard(len(plain))
    cuts.discard(0)
    return plain, cuts


def chunk_boundaries(tsv: Path, column: str, max_chars: int) -> dict[str, Any]:
    """Bunsetsu chunking of unpunctuated lines against the interpreter's punctuation."""
    from sialign.text import chunk_japanese

    with open(tsv, encoding="utf-8", newline="") as fh:
        rows = [r[column] for r in csv.DictReader(fh, delimiter="\t") if r[column].strip()]
    hits = predicted = gold = 0
    for text in rows:
        plain, wanted = _cuts(text)
        if not plain.strip():
            continue
        doc = chunk_japanese(plain, max_chars=max_chars)
        got: set[int] = set()
        offset = 0
        for seg in doc.segments:
            offset = plain.find(seg.text, offset) + len(seg.text)
            got.add(offset)
        got.discard(len(plain))
        hits += len(got & wanted)
        predicted += len(got)
        gold += len(wanted)
    precision = hits / predicted if predicted else 0.0
    recall = hits / gold if gold else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"lines": len(rows), "max_chars": max_chars, "cuts_made": predicted, "punctuation_cuts": gold,
            "precision": round(precision, 4), "recall": round(recall, 4), "f1": round(f1, 4)}


def measure(data: Path) -> dict[str, Any]:
    """All figures for the dictionary of this process."""
    from bench_text import intra_agreement

    from sialign.text.japanese import ginza_nlp, sudachi_dictionary

    began = time.perf_counter()
    nlp = ginza_nlp()
    loaded = time.perf_counter() - began
    ahcsi = data / "ahcsi-dev"
    with open(ahcsi / "dev.true.tsv", encoding="utf-8", newline="") as fh:
        lines = [r["manual_si_tgt"] for r in csv.DictReader(fh, delimiter="\t")]
    words = sum(len(nlp(t)) for t in lines)
    intra = intra_agreement(ahcsi / "dev.intra.tsv")
    return {
        "dictionary": sudachi_dictionary(),
        "ginza_load_s": round(loaded, 2),
        "words_per_line": round(words / len(lines), 2),
        "intra": {k: v for k, v in intra.items() if not isinstance(v, list)},
        "chunking": {
            "dev.true manual_si_tgt, 20": chunk_boundaries(ahcsi / "dev.true.tsv", "manual_si_tgt", 20),
            "dev.true manual_si_tgt, 40": chunk_boundaries(ahcsi / "dev.true.tsv", "manual_si_tgt", 40),
            "dev.intra si_tgt, 20": chunk_boundaries(ahcsi / "dev.intra.tsv", "si_tgt", 20),
        },
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    parser.add_argument("--out", type=Path, default=REPO / "tests" / "benchmarks" / "out" / "sudachi.json")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)  # measure this process's dictionary
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(measure(args.data), ensure_ascii=False))
        return 0
    report: dict[str, Any] = {"load": os.getloadavg()}
    for name in DICTIONARIES:
        env = dict(os.environ, SIALIGN_SUDACHI_DICT=name, PYTHONPATH=str(REPO / "desktop"))
        run = subprocess.run([sys.executable, __file__, "--one", "--data", str(args.data)], env=env,
                             capture_output=True, text=True, check=True)
        report[name] = json.loads(run.stdout.strip().splitlines()[-1])
        print(name, json.dumps(report[name], ensure_ascii=False, indent=1), flush=True)
    report["load_after"] = os.getloadavg()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")
    print("written", args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
