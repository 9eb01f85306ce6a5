"""SI Aligner beside its peers on every dev set, with the same built-in encoder.

    .venv/bin/python tests/benchmarks/bench_peers.py [--sets textberg,mac,eptic,ahcsi]

Rows: SI Aligner with its defaults (text only, and with timestamps where a set
has them), Bertalign's two-pass algorithm and vecalign's cost and DP with SI
Aligner's built-in encoder (``peers.bertalign_align``, ``peers.vecalign_align``;
on MAC also Bertalign's own code, ``bertalign_code.py``, where a checkout is there),
SI Aligner's first pass alone, and SI Aligner with the lexical embedder. Figures
are computed by ``../shared/tools/metrics.py`` (bead F1 and omissions, pooled)
and the LCS accuracy of DESIGN.md §5 (AHC-SI). Writes
``tests/benchmarks/out/peers.json`` and ``peers.md``; only the dev sets in
``../shared/data`` are read.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
DATA = REPO.parent / "shared" / "data"
OUT = HERE / "out"
sys.path.insert(0, str(REPO / "desktop"))
sys.path.insert(0, str(HERE))

SETS = ["textberg", "mac", "eptic", "ahcsi"]


def _metrics() -> Any:
    spec = importlib.util.spec_from_file_location("metrics", REPO.parent / "shared" / "tools" / "metrics.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _encoder() -> Any:
    from sialign.embed.cache import cached_encode, shared_cache
    from sialign.embed.models import load_embedder

    embedder = load_embedder("use-multilingual")

    def encode(texts: list[str]) -> Any:
        return cached_encode(embedder, texts, shared_cache())

    return encode


def _ours(project: Any, **kw: Any) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    from sialign.align.pipeline import align_project
    from sialign.core.params import AlignParams
    from sialign.evaluate import alignment_positions

    result = align_project(project, AlignParams(**kw))
    return [(tuple(s), tuple(t)) for s, t in alignment_positions(result.alignment, project.source, project.target)]


def _row(scores: dict[str, float], seconds: float) -> dict[str, Any]:
    return {
        "strict F1": round(scores["strict_f1"], 3), "lax F1": round(scores["lax_f1"], 3),
        "omission P": round(scores["omission_p"], 2), "omission R": round(scores["omission_r"], 2),
        "omissions": f"{round(scores['omission_r'] * scores['omissions_gold'])}/{scores['omissions_gold']} "
                     f"({scores['omissions_flagged']} flagged)",
        "seconds": round(seconds, 1),
    }


def textberg(metrics: Any, encode: Any) -> dict[str, Any]:
    from peers import bertalign_align, vecalign_align

    from sialign.evaluate import load_textberg

    doc = load_textberg(DATA / "textberg-dev")
    gold = [(tuple(s), tuple(t)) for s, t in doc.gold]
    out: dict[str, Any] = {"load": load()}
    runs = {
        "SI Aligner (default)": lambda: _ours(doc.project()),
        "Bertalign algorithm, same encoder": lambda: bertalign_align(doc.source, doc.target, encode),
        "vecalign algorithm, same encoder": lambda: vecalign_align(doc.source, doc.target, encode),
        "SI Aligner, first pass only": lambda: _ours(doc.project(), learned_score=False),
        "SI Aligner, lexical": lambda: _ours(doc.project(), embedder="lexical"),
    }
    for name, run in runs.items():
        started = time.perf_counter()
        hyp = run()
        out[name] = _row(metrics.bead_scores([hyp], [gold]), time.perf_counter() - started)
    return out


def mac(metrics: Any, encode: Any) -> dict[str, Any]:
    """MAC dev (six zh→en novels), pooled, with Bertalign's own code beside its restatement (when a checkout is there)."""
    from bertalign_code import bertalign_code_align, missing
    from peers import bertalign_align, vecalign_align

    from sialign.evaluate import load_mac

    books = load_mac(DATA / "mac-dev")
    golds = [[(tuple(s), tuple(t)) for s, t in book.gold] for book in books]
    out: dict[str, Any] = {"load": load()}
    runs: dict[str, Any] = {
        "SI Aligner (default)": lambda b: _ours(b.project()),
        "Bertalign algorithm, same encoder": lambda b: bertalign_align(b.source, b.target, encode),
        "vecalign algorithm, same encoder": lambda b: vecalign_align(b.source, b.target, encode),
        "SI Aligner, first pass only": lambda b: _ours(b.project(), learned_score=False),
    }
    why = missing()
    if why is None:
        runs["Bertalign's own code, same encoder"] = lambda b: bertalign_code_align(b.source, b.target, encode, "zh", "en")
    else:
        out["Bertalign's own code"] = why
    for name, run in runs.items():
        started = time.perf_counter()
        hyps = [run(book) for book in books]
        row = _row(metrics.bead_scores(hyps, golds), time.perf_counter() - started)
        row["per document strict F1"] = " / ".join(f"{metrics.bead_scores([h], [g])['strict_f1']:.3f}" for h, g in zip(hyps, golds))
        out[name] = row
    return out


def eptic(metrics: Any, encode: Any) -> dict[str, Any]:
    from peers import bertalign_align, vecalign_align

    from sialign.evaluate.datasets import load_eptic

    speeches = load_eptic(DATA / "eptic-dev")
    golds = [[(tuple(s), tuple(t)) for s, t in sp.gold] for sp in speeches]
    out: dict[str, Any] = {"speeches": len(speeches), "load": load()}
    runs = {
        "SI Aligner (default), text only": lambda sp: _ours(sp.project(times=False)),
        "SI Aligner (default), timestamps": lambda sp: _ours(sp.project(times=True)),
        "Bertalign algorithm, same encoder": lambda sp: bertalign_align(sp.source, sp.target, encode),
        "vecalign algorithm, same encoder": lambda sp: vecalign_align(sp.source, sp.target, encode),
        "SI Aligner, first pass only, text only": lambda sp: _ours(sp.project(times=False), learned_score=False),
        "SI Aligner, first pass only, timestamps": lambda sp: _ours(sp.project(times=True), learned_score=False),
        "SI Aligner, lexical, text only": lambda sp: _ours(sp.project(times=False), embedder="lexical"),
    }
    for name, run in runs.items():
        started = time.perf_counter()
        hyps = [run(sp) for sp in speeches]
        row = _row(metrics.bead_scores(hyps, golds), time.perf_counter() - started)
        directions = sorted({sp.direction for sp in speeches})
        row["per direction strict F1"] = {
            d: round(metrics.bead_scores([h for h, sp in zip(hyps, speeches) if sp.direction == d],
                                         [g for g, sp in zip(golds, speeches) if sp.direction == d])["strict_f1"], 3)
            for d in directions
        }
        out[name] = row
    return out


def ahcsi(metrics: Any, encode: Any) -> dict[str, Any]:
    from peers import bertalign_align, vecalign_align

    from sialign.align.pipeline import align_project
    from sialign.core.model import Alignment, Bead
    from sialign.core.params import AlignParams
    from sialign.evaluate import automatic_targets, lcs_accuracy
    from sialign.evaluate.datasets import load_ahcsi

    talks = load_ahcsi(DATA / "ahcsi-dev" / "dev.true.tsv")
    out: dict[str, Any] = {"talks": len(talks), "load": load()}

    def ours(talk: Any, reference: bool, **kw: Any) -> Any:
        project = talk.project()
        if not reference:
            project.reference = None
        return project, align_project(project, AlignParams(**kw)).alignment

    def peer(align: Any) -> Any:
        def run(talk: Any) -> Any:
            project = talk.project()
            beads = align(talk.source, talk.target, encode)
            return project, Alignment(beads=[Bead(src=tuple(s), tgt=tuple(t)) for s, t in beads])

        return run

    runs = {
        "SI Aligner (default), no reference": lambda t: ours(t, False),
        "SI Aligner (default), reference": lambda t: ours(t, True),
        "Bertalign algorithm, same encoder": peer(bertalign_align),
        # Beads of up to 7 chunks: vecalign's default (a + b <= 4) cannot hold a sentence's rendering.
        "vecalign algorithm (a + b <= 8), same encoder": peer(lambda s, t, e: vecalign_align(s, t, e, max_size=8)),
        "SI Aligner, first pass only, no reference": lambda t: ours(t, False, learned_score=False),
        "SI Aligner, first pass only, reference": lambda t: ours(t, True, learned_score=False),
        "SI Aligner, lexical, reference": lambda t: ours(t, True, embedder="lexical"),
    }
    for name, run in runs.items():
        started = time.perf_counter()
        pairs: list[tuple[str, str]] = []
        for talk in talks:
            project, alignment = run(talk)
            pairs += list(zip(automatic_targets(project, alignment, include_dropped=True), talk.manual))
        acc = lcs_accuracy(pairs)
        out[name] = {"acc@0.5": round(acc["acc@0.5"], 3), "acc@0.8": round(acc["acc@0.8"], 3),
                     "acc@0.9": round(acc["acc@0.9"], 3), "seconds": round(time.perf_counter() - started, 1)}
    return out


def markdown(report: dict[str, Any]) -> str:
    lines = [f"# Peers side by side ({report['date']}, load at start {report['load']})", ""]
    for name, part in report["sets"].items():
        lines += [f"## {name} (load {part.get('load')})", ""]
        rows = {k: v for k, v in part.items() if isinstance(v, dict)}
        columns = sorted({c for v in rows.values() for c in v if not isinstance(v[c], dict)}, key=list(next(iter(rows.values()))).index)
        lines += ["| aligner | " + " | ".join(columns) + " |", "|---" * (len(columns) + 1) + "|"]
        for k, v in rows.items():
            lines.append(f"| {k} | " + " | ".join(str(v.get(c, "")) for c in columns) + " |")
            if "per direction strict F1" in v:
                lines.append(f"| ↳ per direction | {v['per direction strict F1']} |" + " |" * (len(columns) - 1))
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default=",".join(SETS))
    args = parser.parse_args(argv)
    metrics, encode = _metrics(), _encoder()
    report: dict[str, Any] = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "load": load(), "sets": {}}
    for name in args.sets.split(","):
        report["sets"][name] = globals()[name](metrics, encode)
        print(json.dumps({name: report["sets"][name]}, indent=1, ensure_ascii=False), flush=True)
    OUT.mkdir(exist_ok=True)
    (OUT / "peers.json").write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
    (OUT / "peers.md").write_text(markdown(report), encoding="utf-8")
    return report


if __name__ == "__main__":
    main()
