"""``sialign align``: align a source transcript with its interpretation and write the result.

Coarse alignment (NAIST-SIC-Aligned §4.1.1, vecalign): source sentences are grouped with runs of
target chunks by a dynamic programme over n:m beads (1-0 and 0-1 included). Beads costing more than
the drop threshold, or with an empty side, are kept with status 'dropped' and a reason. With --ref
(a reference translation, one line per source segment) the target is compared with the reference in
the target language (pivot mode). When both transcripts carry timestamps (SRT, VTT, TextGrid, EAF,
timed TSV) an ear-voice-span prior penalises beads whose interpretation starts before the source or
lags too far behind. The output format follows the extension of -o: .tsv, .jsonl, .tmx, .align
(vecalign's format, 0-based line positions, dropped beads included) or .sialign (a project to review
in the desktop app).

SRC and TGT may also be recordings (WAV, FLAC, OGG, MP3, M4A...): each is transcribed with a local
Whisper model (--whisper-model, default: the default speech model of 'sialign models'), the source
into sentences and the interpretation into chunks, and the talk is aligned on the recordings'
shared clock (a lag window fitted to the interpreter, no learned second pass; see
docs/transcription.md). A transcript and a recording can be mixed.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from sialign.cli.progress import console_progress, end_progress
from sialign.cli.project_args import add_write_guard, write_guard

if TYPE_CHECKING:
    from sialign.core.model import Project
    from sialign.core.params import AlignParams
    from sialign.core.progress import ProgressFn

HELP = "align a source transcript with an interpretation (or translation) and write TSV, JSONL, TMX, .align or a project"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from sialign.io.export_formats import ALIGNMENT_FORMATS

    parser.add_argument("source", metavar="SRC", help="source transcript (txt, tsv, srt, vtt, TextGrid, eaf) or recording (wav, flac, ogg, mp3...)")
    parser.add_argument("target", metavar="TGT", help="interpretation/translation transcript or recording")
    parser.add_argument("-o", "--output", metavar="OUT", required=True, help="output file: .tsv, .jsonl, .tmx, .align or .sialign; '-' writes to standard output (with -f)")
    parser.add_argument("-f", "--format", choices=list(ALIGNMENT_FORMATS), help="export format instead of OUT's extension")
    parser.add_argument("--ref", metavar="REF", help="reference translation of the source, one line per source segment (pivot mode)")
    parser.add_argument("--src-lang", metavar="LANG", help="source language code, e.g. en (default: guessed from the text)")
    parser.add_argument("--tgt-lang", metavar="LANG", help="target language code, e.g. ja (default: guessed from the text)")
    parser.add_argument("--src-tier", metavar="TIER", help="TextGrid/EAF tier or TSV column of the source text")
    parser.add_argument("--tgt-tier", metavar="TIER", help="TextGrid/EAF tier or TSV column of the target text")
    for side, name in (("src", "source transcript"), ("tgt", "target transcript"), ("ref", "reference translation")):
        parser.add_argument(f"--{side}-encoding", metavar="ENCODING",
                            help=f"text encoding of the {name} instead of detecting it (utf-8, cp932, gb18030, iso-2022-jp…)")
    parser.add_argument("--src-audio", metavar="AUDIO",
                        help="the speaker's recording, attached to a .sialign output (the app plays it and shows the ear-voice span)")
    parser.add_argument("--tgt-audio", metavar="AUDIO", help="the interpreter's recording, attached to a .sialign output")
    parser.add_argument("--whisper-model", metavar="NAME|DIR",
                        help="Whisper model that transcribes a recording given as SRC or TGT (default: the default speech model)")
    add_alignment_options(parser)
    parser.add_argument("--allow-overlaps", action="store_true", help="accept captions whose times overlap")
    parser.add_argument("--filters", metavar="LIST", help="after aligning, apply filters: intra, inter, learned or a list such as intra,inter")
    parser.add_argument("--talk-id", metavar="NAME", help="talk name written into exports (default: the name both transcripts share, else their folder's name)")
    parser.add_argument("--rows", type=int, default=5, metavar="N", help="beads to print after the summary")
    parser.add_argument("-q", "--quiet", action="store_true", help="print nothing but errors")
    add_write_guard(parser)


def add_alignment_options(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """The options :func:`params_from_args` reads (shared with ``sialign corpus align``)."""
    parser.add_argument(
        "--model",
        metavar="PATH|NAME|lexical",
        help="embedder: 'use-multilingual' (built-in multilingual encoder), 'lexical' (built-in character "
        "n-grams) or a sentence-transformers model folder/name found offline (default: the default model of "
        "'sialign models', else use-multilingual when it covers both languages, else lexical)",
    )
    parser.add_argument("--max-src", type=int, metavar="N", help="most source segments in one bead (default 4)")
    parser.add_argument("--max-tgt", type=int, metavar="N", help="most target segments in one bead (default 12)")
    parser.add_argument("--drop-threshold", type=float, metavar="X", help="beads costing more are marked dropped (default 1.0)")
    parser.add_argument("--candidates", choices=["fast", "exact"], help="multi-segment vectors: sums of members (fast) or encoded concatenations (exact)")
    parser.add_argument("--method", choices=["beads", "segment"], help="beads: n:m beads with skips; segment: every source segment gets one target span")
    parser.add_argument("--target-units", choices=["auto", "chunks", "sentences"], help="cost preset: interpreter chunks or translated sentences")
    parser.add_argument(
        "--text-kind",
        choices=["auto", "interpretation", "translation"],
        help="what the target is: the learned second pass scores sentence targets with weights fitted on interpreted "
        "speeches (interpretation) or on a written translation and speeches together (translation); auto: an "
        "interpretation when both sides have timestamps or the target has a recording, else a translation",
    )
    parser.add_argument("--time-prior", action=argparse.BooleanOptionalAction, default=None, help="use timestamps (ear-voice span) when both sides have them")
    parser.add_argument("--evs", nargs=2, type=float, metavar=("MIN", "MAX"), help="plausible lag window of the interpretation, seconds (default -1 10)")
    parser.add_argument("--pivot", action=argparse.BooleanOptionalAction, default=None, help="with --ref: align through the reference translation")
    parser.add_argument(
        "--pivot-weight",
        type=float,
        metavar="W",
        help="with --ref: share of the reference ↔ target costs; the rest is source ↔ target with --model. "
        "Each reference line counts only as far as it matches its source line (blank or shifted lines fall back "
        "to the direct signal); 1.0 uses the pivot alone (default 0.5)",
    )
    parser.add_argument(
        "--peel",
        type=float,
        metavar="X",
        help="split off edge source sentences of n:m beads whose own cost against the bead's target is at least X "
        "(1 = unrelated) as omissions: finds more omissions at some cost in accuracy (off by default; try 1.0)",
    )


def params_from_args(args: argparse.Namespace, base: AlignParams | None = None) -> AlignParams:
    """AlignParams with the options given on the command line applied."""
    import dataclasses

    from sialign.cli.usage import usage_error
    from sialign.core.errors import ParamsError
    from sialign.core.params import AlignParams

    params = base or AlignParams()
    changes: dict[str, Any] = {
        "embedder": args.model,
        "max_src": args.max_src,
        "max_tgt": args.max_tgt,
        "drop_threshold": args.drop_threshold,
        "candidates": args.candidates,
        "method": args.method,
        "target_units": args.target_units,
        "text_kind": args.text_kind,
        "time_prior": args.time_prior,
        "pivot": args.pivot,
        "pivot_weight": args.pivot_weight,
        "peel_threshold": getattr(args, "peel", None),
    }
    if args.evs is not None:
        changes["evs_min"], changes["evs_max"] = args.evs
    changes = {k: v for k, v in changes.items() if v is not None}
    try:
        return dataclasses.replace(params, **changes)
    except ParamsError as exc:  # AlignParams validates; name the option that was given
        if exc.field in ("evs_min", "evs_max") and args.evs is not None:
            usage_error(f"--evs MIN MAX needs MIN < MAX, not {args.evs[0]} {args.evs[1]}")
        usage_error(f"--{exc.field.replace('_', '-')} {exc.problem}")


def parse_filters(text: str | None) -> set[str]:
    """The filter names of ``--filters`` (empty when not given), read by ``workflows.filtering.parse_filter_names``."""
    if not text:
        return set()
    from sialign.cli.usage import usage_error
    from sialign.core.errors import FilterNameError
    from sialign.workflows.filtering import parse_filter_names

    try:
        return set(parse_filter_names(text))
    except FilterNameError as exc:
        usage_error(f"--filters: {exc}")


def audio_argument(args: argparse.Namespace, side: str) -> str | None:
    """``--src-audio`` / ``--tgt-audio`` as given, refused up front when it names no audio file."""
    value = getattr(args, f"{side}_audio", None)
    if not value:
        return None
    from sialign.audio.decode import audio_file_problem
    from sialign.cli.usage import usage_error

    problem = audio_file_problem(value)
    if problem:
        usage_error(f"--{side}-audio {value}: {problem}")
    return str(value)


def build_project(args: argparse.Namespace) -> Project:
    """Read the transcripts named on the command line into a project (warning when an encoding looks wrong)."""
    from sialign.workflows.talks import TalkFiles, encoding_doubts, read_talk

    files = TalkFiles(
        source=args.source,
        target=args.target,
        reference=args.ref,
        source_language=args.src_lang,
        target_language=args.tgt_lang,
        source_tier=args.src_tier,
        target_tier=args.tgt_tier,
        source_encoding=args.src_encoding,
        target_encoding=args.tgt_encoding,
        reference_encoding=args.ref_encoding,
        talk_id=args.talk_id,
        strict=not args.allow_overlaps,
        source_audio=audio_argument(args, "src"),
        target_audio=audio_argument(args, "tgt"),
    )
    project = read_talk(files)
    for setting, line in [] if getattr(args, "quiet", False) else encoding_doubts(files):
        print(f"sialign align: warning: {line} (--{setting.replace('_', '-')})", file=sys.stderr)
    return project


def build_project_from_recordings(args: argparse.Namespace, progress: ProgressFn | None) -> Project:
    """Transcribe the recordings among SRC and TGT (a transcript side is read as usual) into a new project."""
    import time

    from sialign.cli.usage import usage_error
    from sialign.io.readers import read_transcript
    from sialign.workflows.recordings import is_recording, talk_from_recordings

    if args.ref:
        usage_error("--ref cannot be combined with a recording as SRC or TGT yet: transcribe the recording "
                    "first (`sialign transcribe`), then align the transcripts with --ref")
    sides: dict[str, Any] = {}
    for side, value in (("src", args.source), ("tgt", args.target)):
        if value == "-" or not is_recording(value):
            sides[side] = read_transcript(value, language=getattr(args, f"{side}_lang"), tier=getattr(args, f"{side}_tier"),
                                          encoding=getattr(args, f"{side}_encoding"), strict=not args.allow_overlaps)
        else:
            if getattr(args, f"{side}_audio", None):
                usage_error(f"--{side}-audio: the {'source' if side == 'src' else 'target'} is a recording already ({value})")
            from sialign.audio.decode import audio_file_problem

            if problem := audio_file_problem(value):
                usage_error(f"{value}: {problem}")
            sides[side] = value
    started = time.perf_counter()
    talk = talk_from_recordings(
        sides["src"], sides["tgt"], src_lang=args.src_lang, tgt_lang=args.tgt_lang,
        source_audio=audio_argument(args, "src"), target_audio=audio_argument(args, "tgt"),
        model=args.whisper_model, talk_id=args.talk_id or _recordings_talk_id(args), progress=progress,
    )
    end_progress(progress)
    if not args.quiet and talk.transcriptions:
        heard = ", ".join(
            f"the {'source' if side == 'src' else 'interpretation'} into {len(t.document)} "
            f"{'sentences' if side == 'src' else 'chunks'} ({t.recognition.duration:.0f} s, language {t.recognition.language})"
            for side, t in talk.transcriptions.items()
        )
        model = talk.model.name if talk.model else "?"
        print(f"Transcribed {heard} with Whisper {model} in {time.perf_counter() - started:.0f} s.", file=sys.stderr)
    for side, doubt in talk.language_doubts.items():
        option = "--src-lang" if side == "src" else "--tgt-lang"
        print(f"sialign align: warning: {doubt}: if the language is wrong, correct {option} and align again", file=sys.stderr)
    return talk.project


def _recordings_talk_id(args: argparse.Namespace) -> str:
    from sialign.workflows.talks import talk_id_from_path

    return talk_id_from_path(args.source, args.target)


def run(args: argparse.Namespace) -> int:
    from sialign.cli.usage import usage_error
    from sialign.workflows.aligning import align_params, align_talk
    from sialign.workflows.outputs import check_output_folder, check_output_name, export, summary_lines
    from sialign.workflows.recordings import is_recording

    stdin_sides = [name for name, value in (("SRC", args.source), ("TGT", args.target), ("--ref", args.ref)) if value == "-"]
    if len(stdin_sides) > 1:
        usage_error(f"{' and '.join(stdin_sides)} are both '-': standard input is one stream, not two files — save all but one side to a file")
    fmt = getattr(args, "format", None)
    check_output_name(args.output, fmt, project=True)
    check_output_folder(args.output)
    filters = parse_filters(args.filters)
    params = params_from_args(args)
    progress = console_progress(args.quiet)
    if is_recording(args.source) or is_recording(args.target):
        project = build_project_from_recordings(args, progress)
        params = params_from_args(args, align_params(project))
    else:
        project = build_project(args)
    aligned = align_talk(project, params, filters=filters, progress=progress)
    end_progress(progress)
    written = export(project, args.output, format=fmt, **write_guard(args))
    if written.why:
        # Said even with -q: an empty file from two non-empty transcripts looks like a failure.
        print(f"sialign align: warning: wrote no bead to {written.path}: {written.why}; to write the dropped beads, "
              "save a project (-o NAME.sialign) and export it with --include-dropped", file=sys.stderr)
    if not args.quiet:
        # With -o - standard output carries the export: the summary goes to stderr.
        stream = sys.stderr if args.output == "-" else sys.stdout
        for line in summary_lines(project, aligned.result.timings, rows=args.rows, filters=filters):
            print(line, file=stream)
        print(f"wrote {written}", file=sys.stderr)
    return 0
