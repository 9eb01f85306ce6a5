"""``sialign terms``: how each glossary term of the source was rendered in the interpretation.

The glossary is a text file with one source term per line and its accepted renderings after
tabs ('sourdough starter<TAB>サワー種<TAB>発酵種'; lines starting with # are comments). Terms
are found in the source by lemma (English: rule-based lemmas, since no English tagger ships
offline; Japanese: GiNZA) and each occurrence is judged with the bead's word links: rendered as
expected (an accepted rendering is there), rendered otherwise (the linked interpretation words
are shown) or not rendered. The output is TSV (default, standard output) or JSON (-o x.json).
"""

from __future__ import annotations

import argparse
import sys

HELP = "check a glossary's terms: rendered as expected, otherwise (what was said) or not rendered"
ORDER = 73  # after report in the help list


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("project", metavar="PROJECT", help="an aligned project file (.sialign)")
    parser.add_argument("glossary", metavar="GLOSSARY.tsv", help="source term<TAB>accepted rendering<TAB>another… per line")
    parser.add_argument("-o", "--output", metavar="OUT", help="report.tsv or report.json (default: TSV on standard output)")


def run(args: argparse.Namespace) -> int:
    from sialign.review.terms import TERMS_FILES, check_terms, read_glossary, terms_tsv, write_terms
    from sialign.workflows.outputs import check_output_folder
    from sialign.workflows.talks import load_project

    if args.output:
        TERMS_FILES.format_of(args.output)  # an unknown extension fails before anything is read
        check_output_folder(args.output)
    glossary = read_glossary(args.glossary)
    project = load_project(args.project)
    check = check_terms(project, glossary)
    if args.output:
        write_terms(check, args.output)
    else:
        sys.stdout.write(terms_tsv(check))
    where = f" — written to {args.output}" if args.output else ""
    print(f"{len(glossary.entries)} glossary terms, {check.summary()}{where} (matching: {check.matching}; links: {check.aligner})",
          file=sys.stderr)
    return 0
