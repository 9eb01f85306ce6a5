"""``sialign convert`` — convert a transcript between formats.

Read a transcript in any supported format and encoding and write it in another format (UTF-8). The
output format comes from --to or the output file's extension. Timed formats (srt, vtt, TextGrid,
eaf) need a timed input; txt and tsv put each segment on one line.
"""

from __future__ import annotations

import argparse
import sys

from sialign.cli.cmd_info import add_reading_options, read_as_asked
from sialign.core.plurals import count_noun

HELP = "convert a transcript between txt, tsv, srt, vtt, TextGrid and eaf"
# The names the usage line gives the two files (for messages that name them).
ARGUMENT_NAMES = {"input": "IN", "output": "OUT"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("input", metavar="IN", help="the transcript to read")
    parser.add_argument("output", metavar="OUT", help="the file to write (replaced atomically)")
    parser.add_argument("--to", dest="to_format", help="output format: txt, tsv, srt, vtt, textgrid, eaf (default: from OUT's extension)")
    parser.add_argument("--from", dest="from_format", help="input format instead of detecting it")
    add_reading_options(parser, language_help="language code instead of guessing it (also names the output tier)")
    parser.add_argument("--tier-name", help="tier name in a TextGrid/EAF output (default: the language)")


def run(args: argparse.Namespace) -> int:
    from sialign.io.writers import transcript_format_for, write_transcript
    from sialign.workflows.outputs import check_output_folder

    out_format = transcript_format_for(args.output, args.to_format)
    check_output_folder(args.output, "OUT")
    doc = read_as_asked(args.input, args, args.from_format)
    n = write_transcript(doc, args.output, format=out_format, tier_name=args.tier_name)
    print(f"Wrote {count_noun(n, 'segment')} to {args.output} ({out_format}, from {doc.format} in {doc.encoding})", file=sys.stderr)
    return 0
