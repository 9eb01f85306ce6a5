"""Does anything the aligner measures tell right beads from wrong ones on recognised talks? (run on demand)

    .venv/bin/python tests/benchmarks/spoken_confidence.py --words-cache DIR [--talk-dir DIR ...]

Each talk (the example's two renditions, and the talks ``spoken_talks.py`` writes) is aligned from its
recognised words (``bench_recordings.py --words-cache`` keeps them) with the settings a talk from recordings
gets. A bead is right when its target span matches the gold rendition of the source sentences it covers with
IoU >= 0.5 (``../shared/tools/spanacc.py``'s matching, bead by bead). Printed: per talk, the ROC AUC of the
bead's cost (lower is better), of its number of target chunks, and of its lag's distance from the talk's
median lag, and the share of right beads. ``sialign.core.bead_summary.cost_threshold_for`` cites it.
"""
import argparse
import ast
import dataclasses
import re
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[1] / "desktop"))
sys.path.insert(0, str(HERE.parent))
EXAMPLES = HERE.parents[1] / "resources" / "examples"


def srt_times(p: Path) -> list[tuple[float, float]]:
    out = []
    for b in open(p, encoding="utf-8-sig").read().strip().split("\n\n"):
        lines = b.splitlines()

        def t(x: str) -> float:
            h, m, s = x.strip().replace(",", ".").split(":")
            return int(h) * 3600 + int(m) * 60 + float(s)

        a, b2 = lines[1].split("-->")
        out.append((t(a), t(b2)))
    return out


def gold_spans(folder: Path, ja_srt: Path, gold_align: Path) -> tuple[list[tuple[float, float]], dict]:
    ts, tj = srt_times(folder / "talk.en.srt"), srt_times(ja_srt)
    gold = {}
    for line in open(gold_align):
        m = re.match(r"^(\[[^\]]*\])\s*:\s*(\[[^\]]*\])", line.strip())
        s, t = ast.literal_eval(m.group(1)), ast.literal_eval(m.group(2))
        for x in s:
            gold[x] = (min(tj[k][0] for k in t), max(tj[k][1] for k in t)) if t else None
    return ts, gold


def iou(a: tuple[float, float], b: tuple[float, float]) -> float:
    inter = max(0.0, min(a[1], b[1]) - max(a[0], b[0]))
    union = max(a[1], b[1]) - min(a[0], b[0])
    return inter / union if union > 0 else 0.0


def auc(scores: list[float], right: list[int]) -> float:
    s, y = np.asarray(scores, float), np.asarray(right)
    pos, neg = s[y == 1], s[y == 0]
    if not pos.size or not neg.size:
        return float("nan")
    return float(np.mean([(p > n) + 0.5 * (p == n) for p in pos for n in neg]))


def beads_of(name: str, folder: Path, ja_audio: str, ja_srt: str, gold_align: str, cache: Path, model: Path) -> list[dict]:
    import bench_recordings as B

    from sialign.workflows.aligning import align_params, align_talk
    from sialign.workflows.talks import talk_from_documents

    src, _ = B._transcribe(folder / "talk.en.ogg", "source", "en", model, 2, cache)
    tgt, _ = B._transcribe(folder / ja_audio, "interpretation", "ja", model, 2, cache)
    ts, gold = gold_spans(folder, folder / ja_srt, folder / gold_align)
    project = talk_from_documents(dataclasses.replace(src), dataclasses.replace(tgt), source_path=str(folder / "talk.en.ogg"),
                                  target_path=str(folder / ja_audio), source_language="en", target_language="ja")
    align_talk(project, align_params(project))
    median = (project.alignment.info.get("lag") or {}).get("median") or 0.0
    rows = []
    for bead in project.alignment.beads:
        if not bead.src or not bead.tgt:
            continue
        ss = [project.source.get(i) for i in bead.src]
        tt = [project.target.get(j) for j in bead.tgt]
        h = (min(s.start for s in ss), max(s.end for s in ss))
        ht = (min(t.start for t in tt), max(t.end for t in tt))
        spans = []
        for i, g in enumerate(ts):
            short = max(1e-6, min(g[1] - g[0], h[1] - h[0]))
            if max(0.0, min(g[1], h[1]) - max(g[0], h[0])) >= 0.5 * short and gold.get(i):
                spans.append(gold[i])
        if not spans:
            continue
        gspan = (min(s[0] for s in spans), max(s[1] for s in spans))
        rows.append({"talk": name, "cost": bead.cost, "chunks": len(bead.tgt), "lag_off": abs(ht[0] - h[0] - median),
                     "right": int(iou(ht, gspan) >= 0.5)})
    return rows


def main() -> None:
    from whisper_models import multilingual_whisper_folder

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--words-cache", type=Path, required=True, help="bench_recordings.py's --words-cache folder")
    parser.add_argument("--talk-dir", type=Path, nargs="*", default=[], help="talks written by spoken_talks.py")
    args = parser.parse_args()
    model = multilingual_whisper_folder()
    cases = [("example 1", EXAMPLES, "talk.ja.ogg", "talk.ja.srt", "talk.gold.align", args.words_cache / "example"),
             ("example 2", EXAMPLES, "rendition2/talk.ja2.ogg", "rendition2/talk.ja2.srt", "rendition2/talk.gold.align",
              args.words_cache / "example")]
    cases += [(f.name, f, "talk.ja.ogg", "talk.ja.srt", "talk.gold.align", args.words_cache / f.name) for f in args.talk_dir]
    rows = [r for case in cases for r in beads_of(*case, model)]
    print("| talk | beads | right | AUC of −cost | AUC of chunks | AUC of −lag offset |")
    print("|---|---|---|---|---|---|")
    for name in [c[0] for c in cases] + ["pooled"]:
        part = rows if name == "pooled" else [r for r in rows if r["talk"] == name]
        y = [r["right"] for r in part]
        print(f"| {name} | {len(part)} | {np.mean(y):.2f} | {auc([-r['cost'] for r in part], y):.2f} | "
              f"{auc([r['chunks'] for r in part], y):.2f} | {auc([-r['lag_off'] for r in part], y):.2f} |")


if __name__ == "__main__":
    main()
