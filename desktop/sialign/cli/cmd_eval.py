"""``sialign eval``: score an alignment against a gold standard (docs/algorithms.md: Measuring quality).

bead-f1: HYP is a vecalign-format .align file (or a .sialign project), GOLD a .align file; prints
strict and lax precision, recall and F1 (1-0/0-1 beads do not count toward recall). lcs: GOLD is an
AHC-SI *.true.tsv; the talk's source is its eng_src rows and its target the manual_si_tgt texts
concatenated and cut after each 、。？！. HYP is a .align file whose positions refer to those sentences
and chunks, a parallel .tsv written by 'sialign align' (src_ids are the sentence positions; rows not
in the file, e.g. dropped beads, count as unaligned), or a .sialign project. Each source sentence's
automatic span F^a is the target of the bead holding it (the whole bead's target for n:1 beads); it
is correct when LCS(F^a, F^m) / |F^m| > ε, LCS being the longest common substring in characters
(NAIST-SIC-Aligned eq. 1).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, NoReturn

from sialign.core.file_kind import PROJECT_SUFFIX, is_project_file
from sialign.core.plurals import count_noun

HELP = "score an alignment against gold beads (strict/lax F1) or AHC-SI gold spans (LCS accuracy)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("hypothesis", metavar="HYP", help="the alignment to score (.align, .tsv or .sialign)")
    parser.add_argument("gold", metavar="GOLD", help="gold beads (.align) or an AHC-SI gold file (.tsv)")
    parser.add_argument("--metric", choices=["bead-f1", "lcs"], help="default: bead-f1 for a .align GOLD, lcs for a .tsv GOLD")
    parser.add_argument("--talk", metavar="NAME", help="lcs: the AHC-SI talk HYP aligns (default: HYP's talk, or the only talk)")
    parser.add_argument("--eps", nargs="+", type=float, default=[0.5, 0.8, 0.9], metavar="E", help="lcs thresholds ε")
    parser.add_argument("--json", action="store_true", help="print the scores as JSON")


def _error(message: str) -> NoReturn:
    from sialign.core.errors import SialignError

    raise SialignError(message)


def _require_beads(beads: list[Any], path: str, role: str) -> None:
    """An empty or beadless alignment scores nothing: refuse it, naming the file (exit 2)."""
    if not any(src or tgt for src, tgt in beads):
        _error(f"{path}: the {role} alignment holds no bead — give a .align file with one [i]:[j] bead per line"
               + (" or an aligned project" if role == "system" else ""))


def bead_f1_scores(hyp_path: str, gold_path: str) -> dict[str, float]:
    """Strict/lax P/R/F1 of a .align or .sialign hypothesis against .align gold beads."""
    from sialign.evaluate import alignment_positions, bead_f1, read_beads

    gold = read_beads(gold_path)
    _require_beads(gold, gold_path, "gold")
    if is_project_file(hyp_path):
        from sialign.workflows.talks import load_project

        project = load_project(hyp_path)
        if project.alignment is None:
            _error(f"{hyp_path}: the project has no alignment — run 'sialign align' first")
        assert project.alignment is not None
        hyp = alignment_positions(project.alignment, project.source, project.target)
    else:
        hyp = read_beads(hyp_path)
    _require_beads(hyp, hyp_path, "system")
    return bead_f1(hyp, gold)


def _choose_talk(talks: list[Any], wanted: str | None, gold_path: str) -> Any:
    names = [t.name for t in talks]
    if wanted is not None:
        for talk in talks:
            if talk.name == wanted:
                return talk
        _error(f"{gold_path}: no talk named {wanted!r} — it has {', '.join(names)}")
    if len(talks) == 1:
        return talks[0]
    _error(f"{gold_path} holds {count_noun(len(talks), 'talk')} ({', '.join(names)}); choose one with --talk")


def automatic_spans(hyp_path: str, talk: Any) -> list[str]:
    """F^a for each source sentence of ``talk`` read from a .align, .tsv or .sialign hypothesis."""
    suffix = Path(hyp_path).suffix.lower()
    n = len(talk.source)
    if suffix == PROJECT_SUFFIX:
        from sialign.evaluate import automatic_targets
        from sialign.workflows.talks import load_project

        project = load_project(hyp_path)
        if len(project.source) != n:
            _error(f"{hyp_path}: the project has {count_noun(len(project.source), 'source segment')}, talk {talk.name} has {count_noun(n, 'sentence')}")
        return automatic_targets(project)
    spans = [""] * n
    if suffix == ".tsv":
        from sialign.io.read_exports import read_parallel_tsv

        rows = read_parallel_tsv(hyp_path)
        if not rows:
            _error(f"{hyp_path}: the system alignment holds no bead — give a TSV written by 'sialign align'")
        for number, row in enumerate(rows, start=2):
            for i in row.src_ids:
                if not 0 <= i < n:
                    _error(f"{hyp_path}, line {number}: source id {i} is outside talk {talk.name}'s {count_noun(n, 'sentence')}")
                spans[i] = row.target
        return spans
    from sialign.evaluate import read_beads

    chunks = talk.target
    beads = read_beads(hyp_path)
    _require_beads(beads, hyp_path, "system")
    for number, (src, tgt) in enumerate(beads, start=1):
        if any(not 0 <= j < len(chunks) for j in tgt) or any(not 0 <= i < n for i in src):
            _error(f"{hyp_path}, line {number}: positions outside talk {talk.name} ({count_noun(n, 'sentence')}, {count_noun(len(chunks), 'chunk')})")
        text = "".join(chunks[j] for j in tgt)
        for i in src:
            spans[i] = text
    return spans


def _hypothesis_talk(hyp_path: str) -> str | None:
    """The talk a hypothesis names: the project's talk id or the TSV's talk column."""
    suffix = Path(hyp_path).suffix.lower()
    if suffix == PROJECT_SUFFIX:
        from sialign.workflows.talks import load_project

        return load_project(hyp_path).talk_id
    if suffix == ".tsv":
        from sialign.io.read_exports import read_parallel_tsv

        talks = {row.talk for row in read_parallel_tsv(hyp_path) if row.talk}
        return talks.pop() if len(talks) == 1 else None
    return None


def lcs_scores(hyp_path: str, gold_path: str, talk_name: str | None, eps: list[float]) -> dict[str, Any]:
    """LCS accuracy of a hypothesis over one AHC-SI talk."""
    from sialign.evaluate import lcs_accuracy, load_ahcsi

    talks = load_ahcsi(gold_path)
    if talk_name is None:
        named = _hypothesis_talk(hyp_path)
        if named in {t.name for t in talks}:
            talk_name = named
    talk = _choose_talk(talks, talk_name, gold_path)
    spans = automatic_spans(hyp_path, talk)
    scores: dict[str, Any] = {"talk": talk.name}
    scores.update(lcs_accuracy(list(zip(spans, talk.manual)), eps))
    return scores


def run(args: argparse.Namespace) -> int:
    for path in (args.hypothesis, args.gold):
        if not Path(path).is_file():
            _error(f"{path}: no such file")
    metric = args.metric or ("lcs" if Path(args.gold).suffix.lower() == ".tsv" else "bead-f1")
    if metric == "bead-f1":
        scores: dict[str, Any] = bead_f1_scores(args.hypothesis, args.gold)
    else:
        scores = lcs_scores(args.hypothesis, args.gold, args.talk, args.eps)
    if args.json:
        print(json.dumps(scores, indent=2, ensure_ascii=False))
        return 0
    if metric == "bead-f1":
        print(f"{'':8}{'precision':>10}{'recall':>10}{'F1':>10}")
        for kind in ("strict", "lax"):
            print(f"{kind:8}{scores['precision_' + kind]:10.3f}{scores['recall_' + kind]:10.3f}{scores['f1_' + kind]:10.3f}")
    else:
        print(f"talk {scores['talk']}: {int(scores['n'])} sentences, mean LCS ratio {scores['mean']:.3f}")
        for e in args.eps:
            print(f"  accuracy at ε={e:g}: {scores[f'acc@{e:g}']:.3f}")
    return 0
