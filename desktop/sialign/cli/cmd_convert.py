"""``sialign convert`` — convert a transcript between formats.

Read a transcript in any supported format and encoding and write it in another format (UTF-8). The
output format comes from --to or the output file's extension. Timed formats (srt, vtt, TextGrid,
eaf) need a timed input; txt and tsv put each segment on one line.
"""

from __future__ import annotations

import argparse
import sys

HELP = "convert a transcript between txt, tsv, srt, vtt, TextGrid and eaf"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("input", metavar="IN", help="the transcript to read")
    parser.add_argument("output", metavar="OUT", help="the file to write (replaced atomically)")
    parser.add_argument("--to", dest="to_format", help="output format: txt, tsv, srt, vtt, textgrid, eaf (default: from OUT's extension)")
    parser.add_argument("--from", dest="from_format", help="input format instead of detecting it")
    parser.add_argument("--tier", help="TextGrid/EAF tier (name or 1-based number) or TSV column to read")
    parser.add_argument("--encoding", help="input encoding instead of detecting it")
    parser.add_argument("--language", help="language code instead of guessing it (also names the output tier)")
    parser.add_argument("--tier-name", help="tier name in a TextGrid/EAF output (default: the language)")
    parser.add_argument("--allow-overlaps", action="store_true", help="accept input captions whose times overlap")


def run(args: argparse.Namespace) -> int:
    from sialign.io.readers import read_transcript
    from sialign.io.writers import transcript_format_for, write_transcript

    out_format = transcript_format_for(args.output, args.to_format)
    strict = not args.allow_overlaps
    doc = read_transcript(args.input, format=args.from_format, language=args.language, tier=args.tier, encoding=args.encoding, strict=strict)
    n = write_transcript(doc, args.output, format=out_format, tier_name=args.tier_name)
    print(f"Wrote {n} segments to {args.output} ({out_format}, from {doc.format} in {doc.encoding})", file=sys.stderr)
    return 0
