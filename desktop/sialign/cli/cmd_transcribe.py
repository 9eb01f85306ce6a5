"""``sialign transcribe`` — a recording to a timed transcript with a local Whisper model.

Recognise the speech of AUDIO with a Whisper model folder in CTranslate2 format (faster-whisper;
CPU int8, a GPU when there is one), with word times and a voice-activity filter, then cut the words
into sentences (--role source) or interpreter chunks (--role interpretation) as 'sialign segment'
does. The model is a local folder (--model DIR, a name added with 'sialign models add DIR', or the
default Whisper model); nothing is downloaded. Ctrl+C writes what was recognised so far.
Output by -o's extension: .srt .vtt .tsv .eaf .TextGrid .txt; without -o a TSV (start, end, text)
on standard output.
"""

from __future__ import annotations

import argparse
import sys

HELP = "transcribe a recording with a local Whisper model (offline; SRT/VTT/TSV/EAF with times)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("audio", metavar="AUDIO", help="the recording (WAV, FLAC, OGG, MP3; M4A or a video where PyAV is installed, as in a pip install, not in the installers)")
    parser.add_argument("--language", metavar="LANG", help="spoken language, e.g. en or ja (default: detected by a multilingual model; English for an English-only one)")
    parser.add_argument("--model", metavar="NAME|DIR", help="Whisper model folder, or the name of one added with 'sialign models add' (default: the default Whisper model)")
    parser.add_argument("--role", choices=("source", "interpretation"), default="source",
                        help="source: cut into sentences; interpretation: Japanese into chunks (other languages into sentences)")
    parser.add_argument("-o", "--output", metavar="OUT", help="write here (.srt .vtt .tsv .eaf .TextGrid .txt); default: TSV on standard output")
    parser.add_argument("--device", choices=("auto", "cpu", "cuda"), default="auto", help="where to run the model (auto: a CUDA GPU when there is one, else the CPU with int8)")
    parser.add_argument("--threads", type=int, metavar="N", help="CPU threads (default: the cores, at most 4)")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress line")


def run(args: argparse.Namespace) -> int:
    from sialign.cli.main import EXIT_INTERRUPTED
    from sialign.cli.progress import console_progress, end_progress
    from sialign.io.writers import transcript_format_for, write_transcript
    from sialign.workflows.outputs import check_output_folder
    from sialign.workflows.recordings import language_doubt, transcribe_recording

    out = args.output or "-"
    fmt = transcript_format_for(out, None if args.output else "tsv")
    check_output_folder(out)
    progress = console_progress(args.quiet)
    # The recogniser is checked before the model folder is looked for (a build without one says so first);
    # Ctrl+C keeps what was recognised, and the language is this command's --language whatever the role.
    result = transcribe_recording(args.audio, role=args.role, language=args.language, model=args.model,
                                  device=args.device, threads=args.threads, keep_partial=True, language_setting="language",
                                  progress=progress)
    end_progress(progress)
    heard = result.recognition
    doubt = language_doubt(args.audio, args.language, heard.heard, heard.heard_probability)
    if doubt:
        print(f"sialign transcribe: warning: {doubt}: if the language is wrong, correct --language and transcribe it "
              "again", file=sys.stderr)
    n = write_transcript(result.document, out, format=fmt)
    where = "standard output" if out == "-" else out
    if heard.interrupted:
        print(f"sialign transcribe: interrupted at {heard.done_until:.1f} s of {heard.duration:.1f} s; "
              f"wrote the {n} segments recognised so far to {where}", file=sys.stderr)
        return EXIT_INTERRUPTED
    print(f"Wrote {n} segments ({len(heard.words)} words, language {heard.language}) to {where}; "
          f"{heard.duration:.1f} s of audio in {heard.seconds:.1f} s (real-time factor {heard.real_time_factor:.2f}).",
          file=sys.stderr)
    return 0
