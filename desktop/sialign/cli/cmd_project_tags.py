"""``sialign project-tags``: a tagged source's inline tags carried onto the interpretation.

The source transcript's tags (<i>…</i>, <b>, <term>, <font>, WebVTT's <c.class>) are read from the
tagged file (default: the file the project's source was read from; --tagged names a tagged copy
of it) and put around the interpretation words the tagged words are linked to; when they link
to several places the tag surrounds the smallest span covering them all (Ryu et al.'s Min-Max
projection). The output follows -o's extension: .srt or .vtt (the interpretation's chunks with the
tags), .jsonl (one record per bead with a tag: both texts plain and tagged, and every tag's
source and target spans) or .eaf (ELAN: source and target tiers, and a tier per tag name on each
side, each tag timed by where its words sit inside its chunk).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

NAME = "project-tags"
HELP = "carry the inline tags of a tagged source onto the interpretation (SRT, VTT, JSONL or ELAN)"
ORDER = 73.5


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("project", metavar="PROJECT", help="an aligned project file (.sialign)")
    parser.add_argument("-o", "--output", required=True, metavar="OUT", help="OUT.srt, OUT.vtt, OUT.jsonl or OUT.eaf")
    parser.add_argument("--tagged", metavar="FILE", help="the tagged source transcript (default: the project's source file)")


def run(args: argparse.Namespace) -> int:
    from sialign.review.tags import TAG_FILES, project_tags, write_projected_tags
    from sialign.workflows.outputs import check_output_folder
    from sialign.workflows.talks import load_project

    TAG_FILES.format_of(args.output)  # an unknown extension fails before anything is read
    check_output_folder(args.output)
    project = load_project(args.project)
    result = project_tags(project, args.tagged)
    count = write_projected_tags(project, result, args.output)
    what = {".jsonl": "records", ".eaf": "tag annotations"}.get(Path(args.output).suffix.lower(), "cues")
    print(f"{result.summary()}; wrote {count} {what} to {args.output} (links: {result.aligner})", file=sys.stderr)
    # Name every tag that did not make it, so that the user can place it by hand.
    for tag in result.tags:
        if tag.target is None:
            words = result.beads.get(tag.source.bead)
            text = words.src_text[tag.source.tag.start : tag.source.tag.end] if words is not None else ""
            why = f": {tag.reason}" if tag.reason else ""
            print(f"  not projected: <{tag.source.tag.name}>{text}</{tag.source.tag.name}> in bead {tag.source.bead + 1}{why}", file=sys.stderr)
    for name, text in result.lost:
        print(f"  not in the project's source: <{name}>{text}</{name}>", file=sys.stderr)
    return 0
