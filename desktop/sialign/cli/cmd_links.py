"""``sialign links``: word links of pre-tokenised sentence pairs (the word aligners' shared interface).

Reads ``source ||| target`` lines, tokens separated by spaces, and writes one line per pair of
0-based ``i-j`` links (the Pharaoh format of fast_align, eflomal and awesome-align), on the tokens
exactly as given. Links come from the built-in multilingual encoder: no training, nothing
downloaded. FILE '-' reads standard input.
"""

from __future__ import annotations

import argparse

HELP = "word links of 'source ||| target' lines, written as 0-based i-j (Pharaoh format)"
ORDER = 6.5  # after eval in the help list


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--pairs", required=True, metavar="FILE", help="'source ||| target' lines, tokens separated by spaces ('-': standard input)")
    parser.add_argument("--src-lang", required=True, metavar="LANG", help="language of the source side, e.g. ja")
    parser.add_argument("--tgt-lang", required=True, metavar="LANG", help="language of the target side, e.g. en")
    parser.add_argument("-o", "--output", metavar="OUT", help="write the links here; default: standard output")


def run(args: argparse.Namespace) -> int:
    import sys

    from sialign.core.atomic import atomic_write_text
    from sialign.core.languages import normalise_language
    from sialign.links import WordLinker, format_pharaoh, read_pairs
    from sialign.workflows.outputs import check_output_folder

    src_lang, tgt_lang = normalise_language(args.src_lang), normalise_language(args.tgt_lang)
    if args.output:
        check_output_folder(args.output)
    if args.pairs == "-":
        pairs = read_pairs("<standard input>", sys.stdin.read())
    else:
        pairs = read_pairs(args.pairs)
    links = WordLinker().link(pairs, src_lang, tgt_lang)
    out = "".join(format_pharaoh(row) + "\n" for row in links)
    if args.output:
        atomic_write_text(args.output, out)
        print(f"links of {len(pairs)} pairs written to {args.output} (aligner {WordLinker.name})", file=sys.stderr)
    else:
        sys.stdout.write(out)
    return 0
