"""``sialign info`` — show what SI Aligner reads from a transcript file.

Read a transcript (txt, tsv, srt, vtt, TextGrid, eaf) exactly as the aligner would and report its
format, encoding, language, number of segments, whether it is timed, its time span and its first
segments. A file that cannot be read gets a message naming the line and the fix.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from sialign.core.plurals import count_noun

if TYPE_CHECKING:
    from sialign.core.model import Document

HELP = "show how a transcript file is read: format, encoding, language, segments, times"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="the transcript file")
    parser.add_argument("--format", help="read as this format instead of detecting it (txt, tsv, srt, vtt, textgrid, eaf)")
    add_reading_options(parser)
    parser.add_argument("--lines", type=int, default=5, metavar="N", help="how many segments to show")
    parser.add_argument("--json", action="store_true", help="print the facts as JSON")


def add_reading_options(parser: argparse.ArgumentParser, *, language_help: str = "") -> None:
    """The options that say how to read a transcript instead of detecting it (``sialign info`` and ``convert``)."""
    parser.add_argument("--tier", help="TextGrid/EAF tier (name or 1-based number) or TSV text column")
    parser.add_argument("--encoding", help="text encoding instead of detecting it (utf-8, cp932, euc_jp, utf-16...)")
    parser.add_argument("--language", help=language_help or "language code instead of guessing it from the text")
    parser.add_argument("--allow-overlaps", action="store_true", help="accept captions whose times overlap")


def read_as_asked(path: str, args: argparse.Namespace, format: str | None) -> Document:
    """The transcript at ``path``, read in ``format`` (None: detected) with the options of :func:`add_reading_options`."""
    from sialign.io.readers import read_transcript

    return read_transcript(path, format=format, language=args.language, tier=args.tier, encoding=args.encoding, strict=not args.allow_overlaps)


def _clock(seconds: float | None) -> str:
    from sialign.io.timecodes import format_vtt_time

    return "?" if seconds is None else format_vtt_time(seconds)


def run(args: argparse.Namespace) -> int:
    from sialign.io.readers import FORMAT_NAMES, list_tiers

    doubts: list[str] = []
    if args.encoding is None:
        from sialign.workflows.talks import transcript_encoding_doubts

        # Before the document is read, so that the two readings of a big file are never in memory together.
        doubts = [f"{line} (--encoding)" for line in transcript_encoding_doubts(args.file)]
    doc = read_as_asked(args.file, args, args.format)
    warnings = list(doc.warnings)
    if args.encoding is None:
        # The reader's own note of the same doubt is said once, by the line that also says what to do.
        warnings = [w for w in warnings if not any(w.split(": ", 1)[-1] in d for d in doubts)] + doubts
    timed = sum(1 for s in doc.segments if s.has_time)
    starts = [s.start for s in doc.segments if s.start is not None]
    first_start = min(starts) if starts else None
    tiers = list_tiers(args.file, encoding=args.encoding) if doc.format in ("textgrid", "eaf", "tsv") else []
    shown = doc.segments[: max(args.lines, 0)]
    if args.json:
        facts = {
            "file": args.file,
            "format": doc.format,
            "encoding": doc.encoding,
            "language": doc.language,
            "language_guessed": args.language is None,
            "segments": len(doc),
            "timed_segments": timed,
            "start": first_start,
            "end": doc.duration,
            "characters": sum(len(s.text) for s in doc.segments),
            "tiers": tiers,
            "warnings": warnings,
            "first": [s.to_dict() for s in shown],
        }
        print(json.dumps(facts, ensure_ascii=False, indent=2))
        return 0
    assert doc.format is not None
    for warning in warnings:
        print(f"sialign info: warning: {warning}", file=sys.stderr)
    print(f"File:       {args.file}")
    print(f"Format:     {FORMAT_NAMES[doc.format]}")
    if tiers:
        print(f"{'Columns:' if doc.format == 'tsv' else 'Tiers:':<12}{', '.join(tiers)}")
    print(f"Encoding:   {doc.encoding}")
    print(f"Language:   {doc.language}{' (guessed from the text)' if args.language is None else ''}")
    print(f"Segments:   {len(doc)}  ({sum(len(s.text) for s in doc.segments)} characters)")
    if timed == 0:
        print("Timed:      no")
    else:
        print(f"Timed:      {'yes' if timed == len(doc) else 'partly'} ({timed} of {count_noun(len(doc), 'segment')})")
        end = doc.duration
        span = f"{_clock(first_start)} – {_clock(end)}"
        if end is not None and first_start is not None:
            span += f"  (duration {end - first_start:.1f} s)"
        print(f"Span:       {span}")
    print(f"First {len(shown)} segment(s):")
    width = len(str(max((s.line or 0) for s in shown))) if shown else 1
    for seg in shown:
        times = f"[{_clock(seg.start)} → {_clock(seg.end)}] " if seg.has_time else ""
        # Only the start is shown: splitting a whole one-line transcript into
        # words would take ten times its size in memory.
        text = " ".join(seg.text[:200].split())
        if len(text) > 70 or len(seg.text) > 200:
            text = text[:69] + "…"
        print(f"  line {str(seg.line).rjust(width)}: {times}{text}")
    return 0
