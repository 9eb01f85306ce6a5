"""``sialign filter``: intra/inter-sentence filters and review flags on an aligned project."""

from __future__ import annotations

import argparse
import sys
from collections import Counter

NAME = "filter"
HELP = "trim filler chunks, score beads (alpha, gamma, eta) and flag omissions in an aligned project"
DESCRIPTION = (
    "Fine-grained filtering (NAIST-SIC-Aligned §4.1.2). Intra: the first/last target chunk of a bead "
    "is trimmed (kept, restorable) when it holds no content word. Inter: alpha = share of content words "
    "rendered, gamma = length ratio to the reference translation, eta = similarity to it (chrF, or "
    "embedding cosine with --embedder); beads failing a threshold are dropped with a reason (or only "
    "flagged with --flag-only). Confirmed beads are never dropped. Thresholds not given come from the "
    "project's saved filter settings; the ones used are saved back into the project."
)
ORDER = 40


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("project", metavar="PROJECT.sialign", help="an aligned project file")
    parser.add_argument("-o", "--output", metavar="OUT.sialign", help="write the result here (default: overwrite PROJECT)")
    parser.add_argument("--intra", action=argparse.BooleanOptionalAction, default=None, help="trim leading/trailing chunks without a content word")
    parser.add_argument("--alpha-min", type=float, metavar="X", help="least share of content words rendered (0..1)")
    parser.add_argument("--gamma-min", type=float, metavar="X", help="least length ratio target/reference")
    parser.add_argument("--gamma-max", type=float, metavar="X", help="most length ratio target/reference")
    parser.add_argument("--eta-min", type=float, metavar="X", help="least similarity target/reference (0..1)")
    parser.add_argument("--eta-metric", choices=["auto", "chrf", "cosine"], help="similarity for eta (auto: cosine with --embedder, else chrF)")
    parser.add_argument("--flag-only", action="store_true", help="flag failing beads for review instead of dropping them")
    parser.add_argument("--embedder", metavar="SPEC", help="'lexical' or a sentence-transformers model path/name, for eta by cosine and alpha by word alignment")
    parser.add_argument("--report", action="store_true", help="list every flagged, trimmed or dropped bead with its reasons")


def _params(args: argparse.Namespace, saved: dict) -> "FilterParams":  # noqa: F821
    import dataclasses

    from sialign.core.params import FilterParams

    params = FilterParams.from_dict(saved)
    changes = {
        "intra": args.intra,
        "alpha_min": args.alpha_min,
        "gamma_min": args.gamma_min,
        "gamma_max": args.gamma_max,
        "eta_min": args.eta_min,
        "eta_metric": args.eta_metric,
    }
    changes = {k: v for k, v in changes.items() if v is not None}
    if args.flag_only:
        changes["drop_failed"] = False
    return dataclasses.replace(params, **changes)


def run(args: argparse.Namespace) -> int:
    from sialign.core.edits import ReplaceBeads, apply_edit
    from sialign.core.errors import SialignError
    from sialign.core.model import BeadStatus, bead_text
    from sialign.filters import apply_filters, score_beads
    from sialign.io.project_file import load_project, save_project

    project = load_project(args.project)
    if project.alignment is None or not project.alignment.beads:
        raise SialignError(f"{args.project}: the project has no alignment yet — run 'sialign align' first")
    params = _params(args, project.filter_params)
    for name in ("alpha_min", "eta_min"):
        if not 0.0 <= getattr(params, name) <= 1.0:
            raise SialignError(f"--{name.replace('_', '-')} must be between 0 and 1, not {getattr(params, name)}")
    if params.gamma_min > params.gamma_max:
        raise SialignError(f"--gamma-min ({params.gamma_min}) is above --gamma-max ({params.gamma_max})")
    embedder = None
    if args.embedder:
        from sialign.embed import make_embedder  # type: ignore[attr-defined]

        embedder = make_embedder(args.embedder)
        if hasattr(embedder, "fit"):
            texts = project.target.texts() + (project.reference.texts() if project.reference is not None else [])
            embedder.fit(texts)

    def progress(fraction: float, message: str) -> None:
        if sys.stderr.isatty():
            print(f"\r{100 * fraction:5.1f}% {message[:60]:<60}", end="", file=sys.stderr, flush=True)

    scores = score_beads(project, embedder=embedder, content_pos=params.content_pos, progress=progress)
    before = [b.status for b in project.alignment.beads]
    beads = apply_filters(project, params, scores, progress=progress)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    apply_edit(project, ReplaceBeads(0, len(project.alignment.beads), tuple(beads), label="Apply filters"))
    project.filter_params = params.to_dict()
    save_project(project, args.output or args.project)

    failed = Counter(f.name for b in beads for f in b.flags if f.failed)
    newly = sum(1 for old, b in zip(before, beads) if b.status == BeadStatus.DROPPED and old != BeadStatus.DROPPED)
    restored = sum(1 for old, b in zip(before, beads) if old == BeadStatus.DROPPED and b.status != BeadStatus.DROPPED)
    trimmed = sum(1 for b in beads if b.trimmed)
    print(f"{len(beads)} beads: {trimmed} trimmed, {newly} newly dropped, {restored} restored "
          f"(alpha by {', '.join(sorted({d.method for row in scores.alpha_details for d in row if d})) or 'nothing'}; "
          f"{'reference translation present' if scores.has_reference else 'no reference translation: gamma and eta not measured'})")
    for name, count in sorted(failed.items()):
        print(f"  {name:<18} {count:>5} beads flagged")
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
    print(f"saved {args.output or args.project}", file=sys.stderr)
    return 0
