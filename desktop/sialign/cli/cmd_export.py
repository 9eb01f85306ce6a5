"""``sialign export`` — write a project's alignment as a parallel corpus.

Write the alignment of a .sialign project. tsv: the parallel TSV (talk, ids, times, cost, status,
source, target; tabs and line breaks escaped); tsv2: source<TAB>target for MT toolkits; jsonl: one
bead per line with every field; tmx: TMX 1.4; align: vecalign's [i, j]:[k]:cost with 0-based
positions; textgrid/eaf: Praat/ELAN files with aligned source, target and bead tiers;
srt-source/srt-target/vtt-source/vtt-target: subtitles of one side, one cue per bead, at the times
of its text (a .srt or .vtt output needs -f to say which side). Dropped beads are left out unless
--include-dropped. --links (tsv, jsonl) adds each bead's word links as 0-based i-j pairs (Pharaoh):
a last 'links' column of the TSV, whose tokens are sialign.links.tokenize's of the source and
target columns; in JSONL 'links' with the token lists 'src_tokens' and 'tgt_tokens'. Links the
project lacks are drawn first (built-in encoder, nothing downloaded); the project file is not
changed (the app stores links in it).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from sialign.cli.project_args import add_write_guard, write_guard
from sialign.core.plurals import count_noun

if TYPE_CHECKING:
    from sialign.core.model import Project

HELP = "export a project's aligned beads as TSV, two-column TSV, JSONL, TMX, vecalign, TextGrid, EAF or one side's SRT/VTT subtitles"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("project", metavar="PROJECT", help="a project file (.sialign)")
    from sialign.io.export_formats import ALIGNMENT_FORMATS

    parser.add_argument("-f", "--format", choices=sorted(ALIGNMENT_FORMATS), help="output format (default: from -o's extension, else tsv)")
    parser.add_argument("-o", "--output", metavar="OUT", help="output file (default: the project's name with the format's extension)")
    parser.add_argument("--only-confirmed", action="store_true", help="export confirmed beads only")
    parser.add_argument("--include-dropped", action="store_true", help="also export dropped beads")
    parser.add_argument("--two-column", action="store_true", help="with tsv: write source<TAB>target only (same as -f tsv2)")
    parser.add_argument("--links", action="store_true",
                        help="with tsv or jsonl: add each bead's word links as 0-based i-j token pairs (those the project lacks are drawn first)")
    add_write_guard(parser)


def run(args: argparse.Namespace) -> int:
    from sialign.io.export_formats import ALIGNMENT_FILES, SUBTITLE_SUFFIXES, export_format, export_path
    from sialign.io.writers import alignment_format_for
    from sialign.workflows.outputs import check_output_folder, check_output_name, export
    from sialign.workflows.talks import load_project

    fmt = args.format
    if args.output:
        check_output_name(args.output, fmt, project=False)
    if fmt is None and args.output:
        if Path(args.output).suffix.lower() in SUBTITLE_SUFFIXES:
            alignment_format_for(args.output)  # raises: subtitles need their side chosen, never a TSV under that name
        fmt = ALIGNMENT_FILES.format_or_none(args.output)
    fmt = fmt or "tsv"
    if args.two_column and fmt == "tsv":
        fmt = "tsv2"
    output = args.output or str(export_path(Path(args.project), export_format(fmt)))
    check_output_folder(output)
    if args.links and fmt not in ("tsv", "jsonl"):
        from sialign.cli.usage import usage_error

        usage_error(f"--links works with -f tsv or jsonl, not {fmt}")
    project = load_project(args.project)
    if args.links:
        _draw_links(project)
    written = export(project, output, format=fmt, only_confirmed=args.only_confirmed, include_dropped=args.include_dropped,
                     links=args.links, **write_guard(args))
    total = len(project.alignment.beads) if project.alignment is not None else 0
    print(f"Wrote {written.beads} of {count_noun(total, 'bead')} to {output} ({fmt})"
          + (f": {written.why} (--include-dropped writes them)" if written.why and not args.include_dropped else ""),
          file=sys.stderr)
    return 0


def _draw_links(project: Project) -> None:
    """Draw the word links the project lacks (the project file is left as it is)."""
    from sialign.workflows.word_links import update_word_links

    drawn = update_word_links(project)
    if drawn:
        print(f"drew the word links of {count_noun(drawn, 'bead')}", file=sys.stderr)
