"""``sialign retime`` — give a transcript without times the times of its recording.

Recognise AUDIO with a local Whisper model (as 'sialign transcribe'), align the transcript's words
to the recognised words (a DP over normalised words: case, punctuation and apostrophes ignored,
numbers compared as values), and give each segment the start of its first word and the end of its
last, interpolating across words the recogniser missed. The transcript's text and segments are kept
as they are. Then ear-voice span, the time prior and per-segment playback work for it.
"""

from __future__ import annotations

import argparse
import sys

from sialign.cli.progress import add_quiet

HELP = "time a transcript from its recording (word alignment to a local Whisper model's recognition)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("transcript", metavar="TRANSCRIPT", help="the transcript (txt, tsv, srt, vtt, TextGrid, eaf)")
    parser.add_argument("audio", metavar="AUDIO", help="its recording")
    parser.add_argument("-o", "--output", metavar="OUT", required=True, help="the timed transcript (.srt .vtt .tsv .eaf .TextGrid)")
    parser.add_argument("--language", metavar="LANG", help="language of the transcript and the recording, e.g. en (default: guessed from the transcript)")
    parser.add_argument("--model", metavar="NAME|DIR", help="Whisper model folder or name (default: the default Whisper model)")
    parser.add_argument("--tier", help="tier (TextGrid/EAF) or column (TSV) to read")
    parser.add_argument("--device", choices=("auto", "cpu", "cuda"), default="auto", help="where to run the model")
    parser.add_argument("--threads", type=int, metavar="N", help="CPU threads (default: the cores, at most 4)")
    add_quiet(parser)


def run(args: argparse.Namespace) -> int:
    from sialign.cli.progress import console_progress, end_progress
    from sialign.core.errors import AlignmentCancelled, SialignError
    from sialign.embed.models_registry import ModelRegistry
    from sialign.io.readers import read_transcript
    from sialign.io.writers import transcript_format_for, write_transcript
    from sialign.workflows.outputs import check_output_folder
    from sialign.workflows.retiming import retime_transcript

    fmt = transcript_format_for(args.output)
    check_output_folder(args.output)
    doc = read_transcript(args.transcript, language=args.language, tier=args.tier)
    model = ModelRegistry().whisper_folder(args.model)
    if not doc.segments:
        raise SialignError(f"{args.transcript}: the transcript holds no text to time.")
    progress = console_progress(args.quiet)
    try:
        timed, stats = retime_transcript(doc, args.audio, model, language=args.language, device=args.device,
                                         threads=args.threads, progress=progress)
    except AlignmentCancelled:
        raise KeyboardInterrupt from None
    finally:
        end_progress(progress)
    timed.audio_path = args.audio
    n = write_transcript(timed, args.output, format=fmt)
    print(f"Timed {n} segments ({stats.matched} of {stats.tokens} words found in the recording, "
          f"{stats.timed_from_words} segments timed from their own first and last word, the rest interpolated) "
          f"into {args.output}.", file=sys.stderr)
    return 0
