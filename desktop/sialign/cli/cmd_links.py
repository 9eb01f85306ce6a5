"""``sialign links``: word links of pre-tokenised sentence pairs (the word aligners' shared interface).

Reads ``source ||| target`` lines, tokens separated by spaces, and writes one line per pair of
0-based ``i-j`` links (the Pharaoh format of fast_align, eflomal and awesome-align), on the tokens
exactly as given. Links come from the built-in multilingual encoder: no training, nothing
downloaded. With --aligner eflomal (the default 'auto' when the eflomal package is installed and
there are at least --min-corpus pairs) the encoder's links seed eflomal, trained on the pairs
themselves. FILE '-' reads standard input. Standard error names the aligner used.
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
    parser.add_argument(
        "--aligner", choices=("auto", "encoder", "eflomal"), default="auto",
        help="encoder: the built-in encoder's links; eflomal: those links as priors of eflomal trained on the pairs; "
        "auto: eflomal when installed and the file has at least --min-corpus pairs",
    )
    parser.add_argument("--min-corpus", type=int, default=100, metavar="N", help="fewest pairs for --aligner auto to train eflomal")


def run(args: argparse.Namespace) -> int:
    import sys

    from sialign.core.atomic import atomic_write_text
    from sialign.core.languages import normalise_language
    from sialign.workflows.outputs import check_output_folder
    from sialign.workflows.word_links import link_pairs

    src_lang, tgt_lang = normalise_language(args.src_lang), normalise_language(args.tgt_lang)
    if args.output:
        check_output_folder(args.output)
    if args.pairs == "-":
        done = link_pairs("<standard input>", src_lang, tgt_lang, text=sys.stdin.read(), aligner=args.aligner, min_corpus=args.min_corpus)
    else:
        done = link_pairs(args.pairs, src_lang, tgt_lang, aligner=args.aligner, min_corpus=args.min_corpus)
    counted = f"{done.pairs} pair{'' if done.pairs == 1 else 's'}"
    if args.output:
        atomic_write_text(args.output, done.text)
        print(f"links of {counted} written to {args.output} (aligner {done.aligner})", file=sys.stderr)
    else:
        sys.stdout.write(done.text)
        print(f"links of {counted} (aligner {done.aligner})", file=sys.stderr)
    return 0
