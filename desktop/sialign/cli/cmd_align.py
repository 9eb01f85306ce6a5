"""``sialign align``: align a source transcript with its interpretation and write the result."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sialign.core.model import Project
    from sialign.core.params import AlignParams

NAME = "align"
HELP = "align a source transcript with an interpretation (or translation) and write TSV, JSONL, TMX, .align or a project"
DESCRIPTION = (
    "Coarse alignment (NAIST-SIC-Aligned §4.1.1, vecalign): source sentences are grouped with runs of target chunks by a "
    "dynamic programme over n:m beads (1-0 and 0-1 included). Beads costing more than the drop threshold, "
    "or with an empty side, are kept with status 'dropped' and a reason. With --ref (a reference "
    "translation, one line per source segment) the target is compared with the reference in the target "
    "language (pivot mode). When both transcripts carry timestamps (SRT, VTT, TextGrid, EAF, timed TSV) "
    "an ear-voice-span prior penalises beads whose interpretation starts before the source or lags "
    "too far behind. The output format follows the extension of -o: .tsv, .jsonl, .tmx, .align "
    "(vecalign's format, 0-based line positions, dropped beads included) or .sialign (a project to "
    "review in the desktop app)."
)
ORDER = 20

FILTER_NAMES = ("intra", "inter")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("source", metavar="SRC", help="source transcript (txt, tsv, srt, vtt, TextGrid, eaf)")
    parser.add_argument("target", metavar="TGT", help="interpretation/translation transcript")
    parser.add_argument("-o", "--output", metavar="OUT", required=True, help="output file: .tsv, .jsonl, .tmx, .align or .sialign; '-' writes to standard output (with -f)")
    parser.add_argument("-f", "--format", choices=["tsv", "tsv2", "jsonl", "tmx", "align", "textgrid", "eaf"], help="export format instead of OUT's extension")
    parser.add_argument("--ref", metavar="REF", help="reference translation of the source, one line per source segment (pivot mode)")
    parser.add_argument("--src-lang", metavar="LANG", help="source language (default: guessed from the script)")
    parser.add_argument("--tgt-lang", metavar="LANG", help="target language (default: guessed from the script)")
    parser.add_argument("--src-tier", metavar="TIER", help="TextGrid/EAF tier or TSV column of the source text")
    parser.add_argument("--tgt-tier", metavar="TIER", help="TextGrid/EAF tier or TSV column of the target text")
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
    parser.add_argument("--allow-overlaps", action="store_true", help="accept captions whose times overlap")
    parser.add_argument("--filters", metavar="LIST", help="after aligning, apply fine-grained filters: intra, inter or intra,inter")
    parser.add_argument("--talk-id", metavar="NAME", help="talk name written into exports (default: the source file name)")
    parser.add_argument("--rows", type=int, default=5, metavar="N", help="beads to print after the summary")
    parser.add_argument("-q", "--quiet", action="store_true", help="print nothing but errors")


def params_from_args(args: argparse.Namespace, base: AlignParams | None = None) -> AlignParams:
    """AlignParams with the options given on the command line applied."""
    import dataclasses

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
        "time_prior": args.time_prior,
        "pivot": args.pivot,
        "pivot_weight": args.pivot_weight,
        "peel_threshold": getattr(args, "peel", None),
    }
    if args.evs is not None:
        changes["evs_min"], changes["evs_max"] = args.evs
    changes = {k: v for k, v in changes.items() if v is not None}
    for name in ("max_src", "max_tgt"):
        if name in changes and changes[name] < 1:
            raise_error(f"--{name.replace('_', '-')} must be at least 1, not {changes[name]}")
    if args.pivot_weight is not None and not 0.0 <= args.pivot_weight <= 1.0:
        raise_error(f"--pivot-weight must be between 0 and 1, not {args.pivot_weight}")
    if args.evs is not None and args.evs[0] >= args.evs[1]:
        raise_error(f"--evs MIN MAX needs MIN < MAX, not {args.evs[0]} {args.evs[1]}")
    return dataclasses.replace(params, **changes)


def raise_error(message: str) -> None:
    from sialign.core.errors import SialignError

    raise SialignError(message)


def parse_filters(text: str | None) -> set[str]:
    """The filter names of ``--filters`` (empty when not given)."""
    if not text:
        return set()
    names = {part.strip().lower() for part in text.split(",") if part.strip()}
    unknown = names - set(FILTER_NAMES)
    if unknown:
        raise_error(f"--filters: unknown filter(s) {', '.join(sorted(unknown))} — use intra, inter or intra,inter")
    return names


def console_progress(quiet: bool):  # type: ignore[no-untyped-def]
    """A progress callback drawing one line on a terminal's stderr (silent otherwise)."""
    if quiet or not sys.stderr.isatty():
        return None

    def show(fraction: float, message: str) -> None:
        print(f"\r{100 * fraction:5.1f}% {message[:60]:<60}", end="", file=sys.stderr, flush=True)

    return show


def apply_named_filters(project: Project, names: set[str], progress: Any = None) -> None:
    """Run the fine-grained filters named in ``names`` on the project's alignment (one undoable edit)."""
    import dataclasses

    from sialign.core.edits import ReplaceBeads, apply_edit
    from sialign.core.params import FilterParams
    from sialign.filters import apply_filters

    assert project.alignment is not None
    params = FilterParams.from_dict(project.filter_params)
    if "intra" not in names:
        params = dataclasses.replace(params, intra=False, drop_contentless=False)
    if "inter" not in names:
        # Thresholds that nothing fails: the inter-sentence scores are still
        # computed and shown, no bead is flagged by them.
        params = dataclasses.replace(params, alpha_min=0.0, gamma_min=0.0, gamma_max=1e9, eta_min=0.0)
    beads = apply_filters(project, params, progress=progress)
    apply_edit(project, ReplaceBeads(0, len(project.alignment.beads), tuple(beads), label="Apply filters"))
    project.filter_params = params.to_dict()


def summary_lines(project: Project, timings: dict[str, float], rows: int = 5) -> list[str]:
    """A readable summary of the project's alignment: counts, embedder, EVS, timings and the first rows."""
    from sialign.audio.evs import compute_evs, evs_stats
    from sialign.core.model import BeadStatus, bead_text

    alignment = project.alignment
    assert alignment is not None
    counts = alignment.counts()
    kinds: dict[str, int] = {}
    for bead in alignment.beads:
        kinds[bead.kind] = kinds.get(bead.kind, 0) + 1
    common = ", ".join(f"{k}: {v}" for k, v in sorted(kinds.items(), key=lambda kv: -kv[1])[:6])
    lines = [
        f"talk {project.talk_id}: {len(project.source)} source segments, {len(project.target)} target segments"
        + (f", reference of {len(project.reference)} lines" if project.reference is not None else ""),
        f"embedder: {alignment.embedder}"
        + (f" ({alignment.info['embedder_note'].split(' — ', 1)[1]})" if " — " in alignment.info.get("embedder_note", "") else ""),
        f"beads: {counts['total']} ({counts['auto']} auto, {counts['confirmed']} confirmed, {counts['dropped']} dropped, "
        f"{counts['flagged']} flagged); shapes {common}",
    ]
    dropped = [b for b in alignment.beads if b.status is BeadStatus.DROPPED]
    reasons: dict[str, int] = {}
    for bead in dropped:
        key = "cost above the drop threshold" if bead.reason.startswith("cost") else bead.reason
        reasons[key] = reasons.get(key, 0) + 1
    if reasons:
        lines.append("dropped: " + "; ".join(f"{v} × {k}" for k, v in sorted(reasons.items(), key=lambda kv: -kv[1])))
    flag_counts: dict[str, int] = {}
    for bead in alignment.beads:
        for flag in bead.failed_flags:
            flag_counts[flag.name] = flag_counts.get(flag.name, 0) + 1
    if flag_counts:
        lines.append("flags: " + ", ".join(f"{k} {v}" for k, v in sorted(flag_counts.items())))
    info = alignment.info
    lag = info.get("lag")
    if lag and lag.get("note"):
        lines.append(lag["note"])
    lines.append(
        f"settings: {info.get('target_units', '?')} preset, time prior {'on' if info.get('time_prior') else 'off'}, "
        f"{'pivot through the reference' if any(s['name'] == 'pivot' for s in info.get('signals', [])) else 'direct'}"
    )
    stats = evs_stats(compute_evs(project))
    if stats is not None:
        lines.append(f"ear-voice span: median {stats.median:.2f} s (IQR {stats.q1:.2f}–{stats.q3:.2f} s, {stats.n} beads)")
    t = timings
    lines.append(f"timings: embedding {t['embedding']:.2f} s, aligning {t['aligning']:.2f} s, total {t['total']:.2f} s")
    shown = 0
    for k, bead in enumerate(alignment.beads):
        if shown >= rows:
            break
        src = bead_text(bead, project.source, "src")
        tgt = bead_text(bead, project.target, "tgt")
        cost = f"{bead.cost:.2f}" if bead.cost is not None else "-"
        lines.append(f"  #{k + 1:<3} {bead.kind:<4} {cost:>5} {bead.status.value:<9} {src[:48]:<48} | {tgt[:40]}")
        shown += 1
    return lines


def build_project(args: argparse.Namespace) -> Project:
    """Read the transcripts named on the command line into a project."""
    from sialign.core.model import Project
    from sialign.io.readers import read_transcript

    strict = not args.allow_overlaps
    source = read_transcript(args.source, language=args.src_lang, tier=args.src_tier, strict=strict)
    target = read_transcript(args.target, language=args.tgt_lang, tier=args.tgt_tier, strict=strict)
    reference = None
    if args.ref:
        reference = read_transcript(args.ref, language=args.tgt_lang or target.language, strict=strict)
    return Project(
        talk_id=args.talk_id or Path(args.source).name.split(".")[0],
        source=source,
        target=target,
        reference=reference,
    )


def write_output(project: Project, output: str, format: str | None = None) -> str:
    """Write the project (``.sialign``) or its alignment (any export format); returns what was written."""
    from sialign.io.project_file import PROJECT_SUFFIX, save_project
    from sialign.io.writers import write_alignment

    if format is None and Path(output).suffix.lower() == PROJECT_SUFFIX:
        save_project(project, output)
        return f"project {output}"
    rows = write_alignment(project, output, format=format)
    return f"{rows} beads to {output}"


def run(args: argparse.Namespace) -> int:
    from sialign.align.pipeline import align_project
    from sialign.io.writers import ALIGNMENT_EXTENSIONS

    suffix = Path(args.output).suffix.lower()
    fmt = getattr(args, "format", None)
    if fmt is None and suffix != ".sialign" and suffix not in ALIGNMENT_EXTENSIONS:
        raise_error(f"-o {args.output}: name the output .tsv, .jsonl, .tmx, .align or .sialign, or choose a format with -f")
    filters = parse_filters(args.filters)
    params = params_from_args(args)
    project = build_project(args)
    progress = console_progress(args.quiet)
    result = align_project(project, params, progress=progress)
    project.alignment = result.alignment
    project.params = params.to_dict()
    if filters:
        apply_named_filters(project, filters, progress=progress)
    if progress is not None:
        print(file=sys.stderr)
    written = write_output(project, args.output, fmt)
    if not args.quiet:
        # With -o - standard output carries the export: the summary goes to stderr.
        stream = sys.stderr if args.output == "-" else sys.stdout
        for line in summary_lines(project, result.timings, rows=args.rows):
            print(line, file=stream)
        print(f"wrote {written}", file=sys.stderr)
    return 0
