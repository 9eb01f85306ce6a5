"""``sialign explain``: why the aligner scored a bead as it did.

For each bead asked (1-based, as the app and the table count), the learned bead score's probability
that the bead is right (for a 1-0 bead: that the sentence has no rendering) and the features that
made it, largest share first: similarity of the whole runs, the margin over the neighbours, length
agreement, the first pass's cost, the shape, the lag. The talk's vectors come from the vector cache
when it holds them; the project is not changed.
"""

from __future__ import annotations

import argparse
import json

HELP = "show why the learned bead score placed a bead (its features and their shares)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("project", metavar="PROJECT.sialign", help="an aligned project file")
    parser.add_argument("beads", metavar="BEAD", nargs="+", type=_bead_number,
                        help="bead numbers as the app shows them (1 = the first bead); a range like 3-7")
    parser.add_argument("--top", type=int, default=6, metavar="N", help="features to list per bead")
    parser.add_argument("--json", action="store_true", help="print every feature of every bead as JSON")


def _bead_number(text: str) -> list[int]:
    try:
        if "-" in text.strip("-"):
            first, last = (int(x) for x in text.split("-", 1))
            numbers = list(range(first, last + 1))
        else:
            numbers = [int(text)]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a bead number or range: {text!r} (e.g. 12 or 3-7)") from None
    if not numbers or min(numbers) < 1:
        raise argparse.ArgumentTypeError(f"bead numbers start at 1: {text!r}")
    return numbers


def run(args: argparse.Namespace) -> int:
    from sialign.workflows.explaining import explain_beads
    from sialign.workflows.talks import load_project

    project = load_project(args.project)
    indices = [n - 1 for group in args.beads for n in group]
    count = len(project.alignment.beads) if project.alignment is not None else 0
    if count and max(indices) >= count:
        from sialign.cli.usage import UsageError

        raise UsageError(f"there is no bead {max(indices) + 1}: {args.project} has {count} beads")
    explanations = explain_beads(project, indices)
    if args.json:
        print(json.dumps([
            {
                "bead": e.index + 1, "shape": e.shape, "model": e.model,
                "probability": None if e.note else round(e.probability, 4),
                # False: the probability is the share right of such beads, the same whatever the score.
                "probability_follows_score": None if e.note else not e.flat,
                "log_odds": None if e.note else round(e.log_odds, 4), "offset": e.offset, "note": e.note,
                "features": [{"name": c.name, "value": round(c.value, 4), "weight": round(c.weight, 4),
                              "share": round(c.amount, 4)} for c in e.contributions],
            }
            for e in explanations
        ], indent=1, ensure_ascii=False))
        return 0
    for e in explanations:
        print("\n".join(e.lines(args.top)))
    return 0
