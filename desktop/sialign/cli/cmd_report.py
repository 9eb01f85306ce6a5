"""``sialign report`` — a printable review report of one rendition (HTML or PDF)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sialign.cli.project_args import add_project_and_output
from sialign.core.plurals import count_noun

NAME = "report"
HELP = "write a trainee's review report of one project as self-contained HTML or PDF"
DESCRIPTION = (
    "For one aligned project (a source talk and one interpretation): a header (talk, languages, interpreter "
    "and rank, durations, embedder, dates), summary figures each with a one-line explanation (coverage, "
    "omissions, additions, under/over-translation flags, median and interquartile ear-voice span, compression, "
    "speaking rate, fillers per minute, alignment confidence), the ear-voice span over the talk with omissions "
    "marked, coverage along the talk, the omissions and additions with their times, every flagged bead with its "
    "reasons, and the whole bilingual table with statuses, notes and post-edits. The format follows -o's "
    "extension: .html (one file, no network needed to view it) or .pdf (a CJK font is embedded)."
)
ORDER = 72


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_project_and_output(
        parser, project_metavar="PROJECT", project_help="an aligned project file (.sialign)",
        output_metavar="OUT", output_help="report.html or report.pdf (default: the project's name with .html)",
    )
    parser.add_argument("--interpreter", metavar="ID", help="interpreter id to print (default: the project's)")
    parser.add_argument("--rank", metavar="RANK", help="the interpreter's rank to print (default: the project's, if any)")
    parser.add_argument("--glossary", metavar="GLOSSARY.tsv",
                        help="add a terms section: how each term of this glossary was rendered (as in sialign terms)")


def run(args: argparse.Namespace) -> int:
    from sialign.review.figures import format_clock
    from sialign.review.report import REPORT_FILES, write_report
    from sialign.workflows.outputs import check_output_folder
    from sialign.workflows.talks import load_project, name_interpreter

    output = args.output or str(Path(args.project).with_suffix(".html"))
    REPORT_FILES.format_of(output)  # an unknown extension fails before the project is read
    check_output_folder(output)
    glossary = None
    if args.glossary:
        from sialign.review.terms import read_glossary

        glossary = read_glossary(args.glossary)  # a malformed glossary fails before the slow part
    project = load_project(args.project)
    name_interpreter(project, args.interpreter or None, args.rank or None)
    terms = None
    if glossary is not None:
        from sialign.review.terms import check_terms

        terms = check_terms(project, glossary)
    report = write_report(project, output, terms=terms)
    fig = report.figures
    # What was left out first, as the report lists it.
    for row in report.omissions:
        print(f"left out: sentence {row['sentence']} at {format_clock(row['src_start'])}: {row['source']}", file=sys.stderr)
    print(
        f"Wrote the report of {fig.talk} ({fig.interpreter}) to {output}: coverage "
        f"{report.summary[0].text}, {count_noun(len(fig.omissions), 'omission')}, {count_noun(len(fig.additions), 'addition')}, "
        f"{count_noun(len(report.flagged), 'flagged bead')}" + (f"; terms: {terms.summary()}" if terms is not None else ""),
        file=sys.stderr,
    )
    return 0
