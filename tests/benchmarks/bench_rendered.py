"""Rendered share: how many source words shown "not rendered" are rendered in the gold (run on demand, not by pytest).

    .venv/bin/python tests/benchmarks/bench_rendered.py

A trainer reads the orange words of the Word links tab (and the table's Rendered column) as what the
interpreter left out. Before: a content word without a word link was "not rendered". After: a content
word is linked, rendered by paraphrase (:func:`sialign.links.paraphrase_matches`) or not found, and only
"not found" is shown as not rendered. For each set the benchmark counts the content words shown "not
rendered" before and after, how many of them the gold renders (false omissions, lower is better), and how
many of the words the gold leaves unrendered are still shown (true omissions kept, higher is better).

Sets:

* the word-alignment dev sets (``../shared/data/word-align-dev/``: ja–en, en–fr, zh–en, each direction):
  a source word is rendered in the gold when it has a sure or possible gold link. These are translations:
  nearly everything is rendered, so almost every "not rendered" word is a false omission;
* the same sets with an omission cut out: in every pair of six or more target words a third of the target
  (a random contiguous span, seed 0) is deleted; source words whose gold links all fell in the cut are
  not rendered, the others with a gold link are. Source English (en→ja, en→fr, en→zh), as in the app;
* the example talk (``resources/examples``): its sentences paired by ``talk.gold.align``, tokenised and
  linked as the app does (GiNZA for Japanese), judged by ``data/example_not_rendered.tsv``.

Content words follow :func:`sialign.links.is_content_token` (parts of speech for Japanese only in the
example; the dev sets come pre-tokenised, so their Japanese and Chinese content words go by the
function-word lists). Writes ``tests/benchmarks/out/rendered.json``; the load average is printed.
"""

from __future__ import annotations

import ast
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "desktop"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
OUT = Path(__file__).resolve().parent / "out"
EXAMPLE = ROOT / "resources" / "examples"
JUDGED = Path(__file__).resolve().parent / "data" / "example_not_rendered.tsv"


def _count(rows: list[tuple[bool, str]]) -> dict[str, Any]:
    """Counts from (rendered in the gold, shown state) per content word."""
    out: dict[str, Any] = {"content words": len(rows), "gold not rendered": sum(1 for g, _ in rows if not g)}
    for name, shown in (("before", ("paraphrase", "not found")), ("after", ("not found",))):
        flagged = [g for g, s in rows if s in shown]
        out[name] = {
            "shown not rendered": len(flagged),
            "of which rendered in the gold": sum(flagged),
            "share rendered in the gold": round(sum(flagged) / len(flagged), 3) if flagged else None,
            "gold not rendered still shown": sum(1 for g in flagged if not g),
        }
    return out


def _states(linker: Any, pairs: list[tuple[list[str], list[str]]], lang: str, tgt_lang: str) -> list[dict[int, str]]:
    from sialign.core.word_links import BeadLinks
    from sialign.links import is_content_token

    content = [[i for i, t in enumerate(s) if is_content_token(t, lang)] for s, _ in pairs]
    drawn = linker.link_with_paraphrase(pairs, lang, tgt_lang, content)
    return [
        {i: BeadLinks(tuple((t, 0, 0) for t in s), tuple((t, 0, 0) for t in t_), tuple(links), tuple(c), tuple(para)).content_state(i) for i in c}
        for (s, t_), c, (links, para) in zip(pairs, content, drawn)
    ]


def cut_target(
    pairs: list[tuple[list[str], list[str]]], gold: list[set[tuple[int, int]]]
) -> tuple[list[tuple[list[str], list[str]]], list[set[int]], list[set[int]]]:
    """The omission test: in every pair of six or more target words a third of the target is cut out (seed 0).

    Returns:
        The cut pairs; per pair, the source words with a gold link left (rendered) and those whose
        gold links all fell in the cut (not rendered).
    """
    import numpy as np

    rng = np.random.default_rng(0)
    cut_pairs, cut_gold, omitted = [], [], []
    for (a, b), g in zip(pairs, gold):
        if len(b) < 6:
            continue
        size = max(2, len(b) // 3)
        at = int(rng.integers(0, len(b) - size + 1))
        kept = {j: k for k, j in enumerate(j for j in range(len(b)) if not at <= j < at + size)}
        cut_pairs.append((a, [b[j] for j in kept]))
        left = {i for i, j in g if j in kept}
        cut_gold.append(left)
        omitted.append({i for i, _ in g} - left)
    return cut_pairs, cut_gold, omitted


def dev_sets(encoder: Any) -> dict[str, Any]:
    from bench_links import DATA, PAIRS, read_gold

    from sialign.links import WordLinker, read_pairs

    report: dict[str, Any] = {}
    for name, s, t in PAIRS:
        pairs = read_pairs(DATA / f"{name}.src-tgt")
        gold = [possible for _, possible in read_gold(DATA / f"{name}.gold")]
        for direction in ("forward", "reversed"):
            if direction == "reversed":
                pairs, gold, s, t = [(b, a) for a, b in pairs], [{(j, i) for i, j in g} for g in gold], t, s
            start = time.perf_counter()
            states = _states(WordLinker(encoder), pairs, s, t)
            rows = [(i in {a for a, _ in g}, state) for st, g in zip(states, gold) for i, state in st.items()]
            report[f"{s}-{t}"] = {**_count(rows), "s": round(time.perf_counter() - start, 1)}
            if s != "en":
                continue
            # The omission test: a third of the target cut out.
            cut_pairs, cut_gold, omitted = cut_target(pairs, gold)
            states = _states(WordLinker(encoder), cut_pairs, s, t)
            rows = [(i in left, state) for st, left, gone in zip(states, cut_gold, omitted) for i, state in st.items()
                    if i in left or i in gone]
            report[f"{s}-{t} with a third of the target cut"] = _count(rows)
    return report


def example(encoder: Any) -> dict[str, Any]:
    from sialign.io.readers import read_transcript
    from sialign.links import WordLinker, link_bead_texts

    src = read_transcript(EXAMPLE / "talk.en.srt")
    tgt = read_transcript(EXAMPLE / "talk.ja.srt")
    judged: dict[int, set[str]] = {}
    for line in JUDGED.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or line.startswith("sentence\t") or not line.strip():
            continue
        number, words, _why = line.split("\t")
        judged[int(number)] = set(words.split())
    sentences, pairs = [], []
    for line in (EXAMPLE / "talk.gold.align").read_text(encoding="utf-8").splitlines():
        a, b = (ast.literal_eval(part) for part in line.split(":")[:2])
        if a and b:
            sentences.append(a[0] + 1)
            pairs.append((" ".join(src.segments[i].text for i in a), "".join(tgt.segments[j].text for j in b)))
    drawn = link_bead_texts(pairs, "en", "ja", WordLinker(encoder))
    rows, shown = [], []
    for number, links in zip(sentences, drawn):
        for i in links.content:
            word, state = links.src_tokens[i][0], links.content_state(i)
            rows.append((word not in judged.get(number, set()), state))
            if state != "linked":
                shown.append(f"{number}:{word}:{state}")
    return {**_count(rows), "words without a link (sentence:word:state)": shown}


def main() -> int:
    from sialign.embed.multilingual import MultilingualEncoder

    load = round(os.getloadavg()[0], 2)
    print(f"load average {load:.2f} (2 cores)")
    encoder = MultilingualEncoder()
    report: dict[str, Any] = {"load before": load, "sets": {}}
    from bench_links import DATA

    if DATA.is_dir():
        report["sets"].update(dev_sets(encoder))
    else:
        print(f"{DATA}: the word-alignment dev data is missing; set SIALIGN_SHARED to the shared folder", file=sys.stderr)
    report["sets"]["example talk en-ja"] = example(encoder)
    report["load after"] = round(os.getloadavg()[0], 2)
    print(f"{'set':<34} {'content':>7} | {'before: shown':>13} {'rendered':>9} | {'after: shown':>12} {'rendered':>9} |"
          f" gold not rendered: shown before / after")
    for name, row in report["sets"].items():
        b, a = row["before"], row["after"]
        print(f"{name:<34} {row['content words']:>7} | {b['shown not rendered']:>13} {b['of which rendered in the gold']:>5}"
              f" {b['share rendered in the gold'] or 0:>3.0%} | {a['shown not rendered']:>12} {a['of which rendered in the gold']:>5}"
              f" {a['share rendered in the gold'] or 0:>3.0%} | {b['gold not rendered still shown']} / "
              f"{a['gold not rendered still shown']} of {row['gold not rendered']}")
    print(f"load average after {report['load after']:.2f}")
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "rendered.json").write_text(json.dumps(report, indent=2, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
