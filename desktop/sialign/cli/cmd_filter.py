"""``sialign filter``: intra/inter-sentence filters and review flags on an aligned project.

Fine-grained filtering (NAIST-SIC-Aligned §4.1.2). Intra: the first/last target chunk of a bead is
trimmed (kept, restorable) when it holds no content word. Inter: alpha = share of content words
rendered, gamma = length ratio to the reference translation, eta = similarity to it (chrF, or
embedding cosine with --embedder); beads failing a threshold are dropped with a reason (or only
flagged with --flag-only). --rendered-min flags (never drops) beads whose share of source content
words with a word link is below it ("partly rendered"; the links are drawn and stored first). Confirmed beads are never dropped. Thresholds not given come from the
project's saved filter settings; the ones used are saved back into the project. Learned filter
(--learned): a logistic regression trained on the confirmed beads (while few are, also the
unreviewed ones, most of which are right) against corrupted copies of them and the beads the
reviewer dropped or corrected gives every bead a doubt (probability it is wrong), written into the
project and the JSONL export; beads above --doubt-max are dropped (or flagged with --flag-only).
--learned-from adds the confirmed beads of other projects (files or corpus folders) to the training
data.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from typing import TYPE_CHECKING

from sialign.cli.progress import add_quiet, console_progress, end_progress
from sialign.cli.project_args import add_project_and_output, add_write_guard, write_guard
from sialign.core.doubt import count_above
from sialign.core.plurals import count_noun

if TYPE_CHECKING:
    from sialign.core.model import Project
    from sialign.core.params import FilterParams
    from sialign.workflows.filtering import Filtered

HELP = "trim filler chunks, score beads (alpha, gamma, eta) and flag omissions in an aligned project"

# -o may name PROJECT itself: rewriting the project in place is what the command does without -o.
IN_PLACE = ("project",)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_project_and_output(parser)
    add_write_guard(parser)
    add_quiet(parser)
    parser.add_argument("--intra", action=argparse.BooleanOptionalAction, default=None, help="trim leading/trailing chunks without a content word")
    parser.add_argument("--alpha-min", type=float, metavar="X", help="least share of content words rendered (0..1)")
    parser.add_argument("--gamma-min", type=float, metavar="X", help="least length ratio target/reference")
    parser.add_argument("--gamma-max", type=float, metavar="X", help="most length ratio target/reference")
    parser.add_argument("--eta-min", type=float, metavar="X", help="least similarity target/reference (0..1)")
    parser.add_argument("--eta-metric", choices=["auto", "chrf", "cosine"], help="similarity for eta (auto: cosine with --embedder, else chrF)")
    parser.add_argument("--rendered-min", type=float, metavar="X",
                        help="flag beads as 'partly rendered' when under this share of source content words has a word link (0..1; 0: off); draws the links the project lacks")
    parser.add_argument("--flag-only", action="store_true", help="flag failing beads for review instead of dropping them")
    parser.add_argument("--embedder", metavar="SPEC", help="'lexical' or a sentence-transformers model path/name, for eta by cosine and alpha by word alignment")
    parser.add_argument("--report", action="store_true", help="list every flagged, trimmed or dropped bead with its reasons")
    learned = parser.add_argument_group("learned filter (doubt)")
    learned.add_argument("--learned", action="store_true", help="also score every bead's doubt with a model trained on the reviewed beads")
    learned.add_argument("--learned-only", action="store_true", help="only the learned filter: skip intra/alpha/gamma/eta (no GiNZA)")
    learned.add_argument("--doubt-max", type=float, metavar="P", help="flag or drop beads whose doubt is above P (0..1; None: the project's setting, at first 0.8)")
    learned.add_argument("--learned-from", nargs="+", metavar="PATH",
                         help="train on the confirmed beads of these projects too (.sialign files or corpus folders); implies --learned")


def _params(args: argparse.Namespace, saved: FilterParams) -> FilterParams:
    import dataclasses


    params = saved
    changes = {
        "intra": args.intra,
        "alpha_min": args.alpha_min,
        "gamma_min": args.gamma_min,
        "gamma_max": args.gamma_max,
        "eta_min": args.eta_min,
        "eta_metric": args.eta_metric,
        "doubt_max": args.doubt_max,
        "rendered_min": args.rendered_min,
    }
    changes = {k: v for k, v in changes.items() if v is not None}
    if args.flag_only:
        changes["drop_failed"] = False
    from sialign.cli.usage import usage_error
    from sialign.core.errors import ParamsError

    try:
        return dataclasses.replace(params, **changes)
    except ParamsError as exc:  # FilterParams validates; an option given out of range is a wrong argument
        problem = exc.problem.replace(exc.other, f"--{exc.other.replace('_', '-')}") if exc.other else exc.problem
        usage_error(f"--{exc.field.replace('_', '-')} {problem}")


def _learned_line(done: Filtered) -> str:
    """A summary line of what the learned filter did."""
    assert done.doubt is not None and done.learned is not None and done.params is not None
    result, params = done.doubt, done.params
    above = count_above(result, params.doubt_max)
    newly, restored = done.learned_drops()
    good, wrong = result.counts
    seconds = sum(result.seconds.values())
    return (f"doubt: trained on {result.source} ({good} good, {wrong} wrong examples) in {seconds:.2f} s; "
            f"{count_noun(above, 'bead')} above {params.doubt_max:g}, {newly} newly dropped, {restored} restored")


def _report_doubt(project: Project) -> None:
    from sialign.core.model import bead_text

    assert project.alignment is not None
    ranked = sorted(
        ((f.score, k, b) for k, b in enumerate(project.alignment.beads) for f in b.flags if f.name == "doubt" and f.score is not None),
        key=lambda t: -t[0],
    )
    print("\nmost doubtful beads:")
    for score, k, b in ranked[:20]:
        print(f"  #{k + 1} [{b.kind}] doubt {score:.2f} {b.status.value}: {bead_text(b, project.source, 'src')[:60]}")


def run(args: argparse.Namespace) -> int:
    from sialign.core.errors import SialignError
    from sialign.core.model import BeadStatus, bead_text
    from sialign.workflows.filtering import FINE_FILTERS, apply_filters
    from sialign.workflows.outputs import check_project_output, save
    from sialign.workflows.talks import load_project

    if args.output:
        check_project_output(args.output, "filter")
    project = load_project(args.project)
    if project.alignment is None or not project.alignment.beads:
        raise SialignError(f"{args.project}: the project has no alignment yet — run 'sialign align' first")
    params = _params(args, project.filter_params)
    use_learned = bool(args.learned or args.learned_only or args.learned_from)
    others = []
    if args.learned_from:
        from sialign.workflows.filtering import learning_projects

        others = learning_projects(args.learned_from, besides=args.project)
    names = ([] if args.learned_only else list(FINE_FILTERS)) + (["learned"] if use_learned else [])
    progress = console_progress(args.quiet)
    done = apply_filters(project, names, params=params, embedder=args.embedder, others=others, progress=progress)
    end_progress(progress)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    save(project, args.output or args.project, **write_guard(args))
    if args.learned_only:
        print(_learned_line(done))
        if args.report:
            _report_doubt(project)
        print(f"saved {args.output or args.project}")
        return 0

    assert done.fine is not None and done.scores is not None
    beads, scores = done.fine, done.scores
    failed = Counter(f.name for b in beads for f in b.flags if f.failed)
    newly, restored = done.fine_drops()
    trimmed = sum(1 for b in beads if b.trimmed)
    print(f"{count_noun(len(beads), 'bead')}: {trimmed} trimmed, {newly} newly dropped, {restored} restored "
          f"(alpha by {', '.join(sorted({d.method for row in scores.alpha_details for d in row if d})) or 'nothing'}; "
          f"{'reference translation present' if scores.has_reference else 'no reference translation: gamma and eta not measured'})")
    if done.skipped_note():
        print(done.skipped_note())
    for name, count in sorted(failed.items()):
        print(f"  {name:<18} {count:>5} {'bead' if count == 1 else 'beads'} flagged")
    if use_learned:
        print(_learned_line(done))
    if args.report:
        for k, b in enumerate(beads):
            reasons = [f.reason for f in b.flags if f.failed or f.name == "intra"]
            if not reasons and b.status != BeadStatus.DROPPED:
                continue
            tgt = bead_text(b, project.target, "tgt", use_post_edit=False)
            print(f"\n#{k + 1} [{b.kind}] {b.status.value}: {bead_text(b, project.source, 'src')[:80]}")
            print(f"    → {tgt[:80]}")
            for reason in reasons:
                print(f"    - {reason}")
    if args.report and use_learned:
        _report_doubt(project)
    print(f"saved {args.output or args.project}", file=sys.stderr)
    return 0
