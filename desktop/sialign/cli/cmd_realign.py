"""``sialign realign``: align a reviewed project again without losing the reviewer's work."""

from __future__ import annotations

import argparse
import sys

from sialign.cli.progress import add_quiet, console_progress, end_progress
from sialign.cli.project_args import add_project_and_output, add_write_guard, write_guard
from sialign.core.plurals import count_noun

NAME = "realign"
HELP = "align a project again, keeping confirmed beads as anchors and every bead's review data"
DESCRIPTION = (
    "Aligns the project's source and target again with its saved parameters (or the options given). "
    "Confirmed beads stay fixed anchors (--all re-aligns them too); every new bead with the same segments "
    "as an old one keeps that bead's notes, labels, post-edit, trimmed chunks, filter flags and a "
    "reviewer's or filter's drop. When the new alignment groups some reviewed segments differently, their "
    "review data cannot be carried: the command lists them and changes nothing unless --force is given "
    "(--dry-run only reports). The re-alignment is recorded in the project's history."
)
ORDER = 25

# -o may name PROJECT itself: rewriting the project in place is what the command does without -o.
IN_PLACE = ("project",)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_project_and_output(parser)
    add_quiet(parser)
    parser.add_argument("--all", action="store_true", help="re-align confirmed beads too (their review data is still carried)")
    add_write_guard(parser, force_help="apply even when some review data cannot be carried, or while SI Aligner or "
                    "another command holds the project open")
    parser.add_argument("--dry-run", action="store_true", help="report what would change; write nothing")
    parser.add_argument(
        "--model", metavar="PATH|NAME|lexical",
        help="embedder for this run (default: the project's; it is saved as the project's from now on)",
    )


def run(args: argparse.Namespace) -> int:
    import dataclasses

    from sialign.core.errors import SialignError
    from sialign.workflows.aligning import align_params, align_talk
    from sialign.workflows.outputs import check_project_output, save
    from sialign.workflows.talks import load_project

    if args.output:
        check_project_output(args.output, "realign")
    project = load_project(args.project)
    if project.alignment is None:
        raise SialignError(f"{args.project}: the project is not aligned yet — run `sialign align` first")
    before = len(project.alignment.beads)
    params = align_params(project)
    if args.model:
        params = dataclasses.replace(params, embedder=args.model)
    progress = console_progress(args.quiet)
    aligned = align_talk(project, params, keep_confirmed=not args.all, progress=progress,
                         accept=lambda carried: not args.dry_run and (args.force or not carried.lost))
    end_progress(progress)
    report = aligned.carried
    print(f"{count_noun(len(aligned.result.alignment.beads), 'bead')} (before {before}): {report.summary()}")
    for item in report.lost[:20]:
        print(f"  left behind: {item.describe()}")
    if len(report.lost) > 20:
        print(f"  … and {len(report.lost) - 20} more")
    if args.dry_run:
        print("dry run: nothing written", file=sys.stderr)
        return 0
    if aligned.edit is None:
        raise SialignError(
            f"{args.project}: re-aligning would leave the review data of {count_noun(len(report.lost), 'bead')} behind; "
            "nothing was written — review them, or run again with --force"
        )
    target = args.output or args.project
    save(project, target, **write_guard(args))
    print(f"saved {target}", file=sys.stderr)
    return 0
