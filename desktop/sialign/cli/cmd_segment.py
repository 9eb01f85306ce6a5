"""``sialign segment``: cut a transcript into sentences or interpreter chunks.

Japanese is cut into chunks after 、。？！ and, above --max-chars, at bunsetsu boundaries (GiNZA); other
languages into sentences by a rule-based splitter (abbreviations, numbers, quotes). --captions first
rebuilds sentences from subtitle captions (joined until strong punctuation; --pivot takes the
sentence ends from a synchronised caption file in another language). Times are kept: a piece cut
inside a timed line gets a proportional time. Output: one segment per line (TSV start/end/text when
times are known).
"""

from __future__ import annotations

import argparse

from sialign.core.plurals import count_noun

HELP = "split a transcript into sentences (English...) or chunks (Japanese interpretation), losslessly"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="transcript (txt, tsv, srt, vtt, TextGrid, eaf)")
    parser.add_argument("--lang", required=True, metavar="LANG", help="language of the transcript, e.g. ja or en")
    parser.add_argument("-o", "--output", metavar="OUT", help="write here (.txt or .tsv); default: standard output")
    parser.add_argument("--max-chars", type=int, default=40, help="longest Japanese chunk before a bunsetsu cut")
    parser.add_argument("--captions", action="store_true", help="rebuild sentences from captions first")
    parser.add_argument("--pivot", metavar="FILE", help="caption file whose punctuation decides sentence ends (with --captions)")
    parser.add_argument("--pivot-lang", default="en", metavar="LANG", help="language of --pivot")
    parser.add_argument("--tier", help="tier (TextGrid/EAF) or column (TSV) to read")


def run(args: argparse.Namespace) -> int:
    import sys

    from sialign.cli.usage import usage_error
    from sialign.core.atomic import atomic_write_text
    from sialign.io.readers import read_transcript
    from sialign.text import chunk_japanese, rebuild_captions, split_sentences
    from sialign.workflows.outputs import check_output_folder

    if args.pivot and not args.captions:
        usage_error("--pivot only makes sense with --captions")
    if args.output:
        check_output_folder(args.output)
    doc = read_transcript(args.file, language=args.lang, tier=args.tier)
    doc.language = args.lang
    if args.captions:
        pivot = read_transcript(args.pivot, language=args.pivot_lang) if args.pivot else None
        doc = rebuild_captions(doc, pivot=pivot)
    if args.lang.split("-")[0].lower() == "ja":
        result = chunk_japanese(doc, max_chars=args.max_chars)
    else:
        result = split_sentences(doc, args.lang)
    with_times = result.has_times
    as_tsv = with_times and (args.output is None or args.output.lower().endswith(".tsv"))
    lines = []
    for seg in result.segments:
        text = " ".join(seg.text.split())
        lines.append(f"{seg.start:.3f}\t{seg.end:.3f}\t{text}" if as_tsv else text)
    out = "\n".join(lines) + ("\n" if lines else "")
    if args.output:
        atomic_write_text(args.output, out)
        print(f"{count_noun(len(result), 'segment')} written to {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(out)
    return 0
