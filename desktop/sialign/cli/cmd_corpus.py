"""``sialign corpus``: align, inspect, export, split and evaluate a whole corpus of talks."""

from __future__ import annotations

import argparse
import sys

from sialign.cli.progress import CountProgress
from sialign.core.plurals import count_noun

NAME = "corpus"
HELP = "align a whole corpus from a manifest (resumable, parallel, Dask), then status, export, split, eval"
DESCRIPTION = (
    "A manifest (TSV or CSV with a header: talk, source, target; optional reference, source_audio, "
    "target_audio, interpreter, src_lang, tgt_lang, split; paths relative to the manifest) lists the talks. "
    "'corpus align' writes CORPUS_DIR/<talk>.sialign and CORPUS_DIR/corpus.json (input and parameter digests, "
    "status, timings, figures). Running it again skips unchanged talks, re-aligns changed ones and never "
    "overwrites a talk a reviewer edited in the app unless --force (which keeps confirmed beads and review "
    "data). A bad file fails its talk only; the exit status is 1 when any talk failed. Ctrl+C stops cleanly; "
    "the next run resumes."
)
ORDER = 30


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from sialign.cli.cmd_align import add_alignment_options as align_options

    sub = parser.add_subparsers(dest="corpus_action", metavar="ACTION", required=True)
    fmt = parser.formatter_class
    p = sub.add_parser("align", help="align every talk of a manifest into a corpus folder", formatter_class=fmt)
    p.add_argument("manifest", metavar="MANIFEST", help="TSV/CSV listing the talks")
    p.add_argument("-o", "--output", metavar="CORPUS_DIR", required=True, help="the corpus folder (created when missing)")
    p.add_argument("--jobs", "-j", type=int, default=1, metavar="N", help="worker processes on this machine")
    p.add_argument("--dask", metavar="local[:N]|ADDRESS", help="run on Dask distributed: a LocalCluster of N workers, or a scheduler address (tcp://host:8786)")
    p.add_argument("--force", action="store_true", help="re-align unchanged and reviewed talks too (keeps confirmed beads and review data)")
    p.add_argument("--filters", metavar="LIST", help="after aligning, apply fine-grained filters: intra, inter or intra,inter")
    p.add_argument("--learned", action="store_true", help="then score every bead's doubt with the learned filter (trained on the talk) and drop the most doubtful")
    p.add_argument("-q", "--quiet", action="store_true", help="print nothing but errors and the summary")
    align_options(p.add_argument_group("alignment options (as in sialign align)"))

    s = sub.add_parser("status", help="one row per talk: beads, confirmed, dropped, flagged, median EVS, reviewed, failure", formatter_class=fmt)
    s.add_argument("folder", metavar="CORPUS_DIR", help="the corpus folder: what 'sialign corpus align -o' wrote (corpus.json and one <talk>.sialign per talk)")
    s.add_argument("--json", action="store_true", help="print JSON instead of a table")

    e = sub.add_parser("export", help="all talks' beads in one file, with the talk id on each row", formatter_class=fmt)
    e.add_argument("folder", metavar="CORPUS_DIR", help="the corpus folder: what 'sialign corpus align -o' wrote (corpus.json and one <talk>.sialign per talk)")
    from sialign.io.export_formats import POOLED_FORMATS

    e.add_argument("-f", "--format", choices=list(POOLED_FORMATS), default="tsv", help="output format")
    e.add_argument("-o", "--output", metavar="FILE", required=True, help="the file to write")
    e.add_argument("--split", metavar="NAME", help="only talks of this split (train, dev, test...): run 'sialign corpus split' first, or give the manifest a 'split' column")
    e.add_argument("--only-confirmed", action="store_true", help="only beads a reviewer confirmed")

    sp = sub.add_parser("split", help="assign whole talks to train/dev/test (splits.json)", formatter_class=fmt)
    sp.add_argument("folder", metavar="CORPUS_DIR", help="the corpus folder: what 'sialign corpus align -o' wrote (corpus.json and one <talk>.sialign per talk)")
    sp.add_argument("--dev", type=int, default=0, metavar="N", help="talks for dev")
    sp.add_argument("--test", type=int, default=0, metavar="N", help="talks for test")
    sp.add_argument("--exclude", metavar="FILE", help="talks to keep out of every split, one per line")
    sp.add_argument("--seed", type=int, default=0, metavar="S", help="random seed")

    ev = sub.add_parser("eval", help="pooled bead F1 over the talks with gold <talk>.align files", formatter_class=fmt)
    ev.add_argument("folder", metavar="CORPUS_DIR", help="the corpus folder: what 'sialign corpus align -o' wrote (corpus.json and one <talk>.sialign per talk)")
    ev.add_argument("gold", metavar="GOLD_DIR",
                    help="a folder of gold alignments named <talk>.align (vecalign's [i]:[j] lines, 0-based), one per talk "
                    "id of the manifest; talks without one are listed, not scored")


# Dask distributed's address schemes (distributed.comm.registry); a bare host:port is tcp.
DASK_SCHEMES = ("tcp", "tls", "ws", "wss", "ucx", "inproc")


def check_dask_address(address: str | None) -> None:
    """Refuse, before any work, a ``--dask`` value that is neither ``local[:N]`` nor a scheduler address."""
    from sialign.cli.usage import usage_error
    from sialign.core.errors import printable

    if address is None:
        return
    if address == "local" or address.startswith("local:"):
        count = address.partition(":")[2] or "2"
        if not count.isdigit() or not 1 <= int(count) <= 1024:
            usage_error(f"--dask {printable(address)}: local:N needs N local workers from 1 to 1024")
        return
    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "tcp", address
    if scheme not in DASK_SCHEMES or not rest.strip():
        usage_error(
            f"--dask {printable(address)}: not a scheduler address — give local, local:N or "
            f"{', '.join(s + '://HOST:PORT' for s in DASK_SCHEMES[:2])}"
        )


def check_corpus_folder(folder: str) -> None:
    """Refuse, before any work, a corpus folder that is a file or cannot be made or written (with what to do)."""
    import os
    from pathlib import Path

    from sialign.core.errors import OutputError

    path = Path(folder).expanduser()
    hint = "choose a folder for the corpus that you can write to (it is created when missing)"
    blocking = next((p for p in (path, *path.parents) if p.exists() and not p.is_dir()), None)
    if blocking is not None:
        raise OutputError(folder, f"{blocking} is a file, not a folder", hint=hint)
    existing = next(p for p in (path, *path.parents) if p.exists())
    if not os.access(existing, os.W_OK | os.X_OK):
        raise OutputError(folder, f"the folder {existing} is read-only", hint=hint)


def _align(args: argparse.Namespace) -> int:
    from sialign.cli.cmd_align import params_from_args, parse_filters
    from sialign.corpus.manifest import read_manifest
    from sialign.corpus.runner import align_corpus

    filters = sorted(parse_filters(args.filters)) + (["learned"] if args.learned else [])
    check_dask_address(args.dask)
    check_corpus_folder(args.output)
    params = params_from_args(args)
    total = len(read_manifest(args.manifest))
    progress = CountProgress(total, args.quiet)
    try:
        report = align_corpus(args.manifest, args.output, params, filters=filters, jobs=args.jobs, dask=args.dask,
                              force=args.force, progress=progress)
    finally:
        progress.close()
    unchanged = sum(1 for _, why in report.skipped if why == "unchanged")
    print(
        f"{count_noun(report.total, 'talk')}: {len(report.done)} aligned, {unchanged} unchanged, "
        f"{len(report.skipped) - unchanged} kept (reviewed), {len(report.failed)} failed, in {report.seconds:.1f} s"
    )
    for talk, why in report.failed:
        print(f"  failed: {talk}: {why}")
    for talk, why in report.skipped:
        if why != "unchanged":
            print(f"  kept: {talk}: {why} (--force re-aligns it, keeping review data)")
    if report.interrupted:
        print("stopped: run the same command again to resume", file=sys.stderr)
        return 130
    return 1 if report.failed else 0


def _status(args: argparse.Namespace) -> int:
    import json

    from sialign.corpus.runner import corpus_status

    rows = corpus_status(args.folder)
    if args.json:
        json.dump(rows, sys.stdout, indent=1, ensure_ascii=False)
        print()
        return 0
    header = ("TALK", "STATUS", "BEADS", "CONF", "DROP", "FLAG", "EVS", "REVIEWED", "NOTE")
    table = [header]
    for r in rows:
        evs = r.get("median_evs")
        table.append((
            r["talk"], r["status"], str(r.get("beads", "-")), str(r.get("confirmed", "-")), str(r.get("dropped", "-")),
            str(r.get("flagged", "-")), f"{evs:.1f}" if isinstance(evs, (int, float)) else "-",
            "yes" if r["reviewed"] else "", r["message"][:70],
        ))
    widths = [max(len(row[k]) for row in table) for k in range(len(header) - 1)]
    for row in table:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)) + "  " + row[-1])
    done = sum(1 for r in rows if r["status"] == "done")
    failed = sum(1 for r in rows if r["status"] == "failed")
    print(f"{count_noun(len(rows), 'talk')}: {done} aligned, {failed} failed, {sum(1 for r in rows if r['reviewed'])} reviewed")
    return 0


def run(args: argparse.Namespace) -> int:
    action = args.corpus_action
    if action == "align":
        return _align(args)
    if action == "status":
        return _status(args)
    if action == "export":
        from sialign.corpus.outputs import export_corpus
        from sialign.workflows.outputs import check_output_folder

        check_output_folder(args.output)
        talks, rows = export_corpus(args.folder, args.output, args.format, split=args.split, only_confirmed=args.only_confirmed)
        print(f"wrote {count_noun(rows, 'row')} of {count_noun(talks, 'talk')} to {args.output}", file=sys.stderr)
        return 0
    if action == "split":
        from sialign.corpus.outputs import read_exclusions, split_corpus

        exclude = read_exclusions(args.exclude) if args.exclude else []
        result = split_corpus(args.folder, dev=args.dev, test=args.test, exclude=exclude, seed=args.seed)
        for name in ("train", "dev", "test", "excluded"):
            if name in result:
                print(f"{name}: {count_noun(len(result[name]), 'talk')}")
        return 0
    if action == "eval":
        from sialign.corpus.outputs import evaluate_corpus

        scores = evaluate_corpus(args.folder, args.gold)
        print(f"{len(scores['talks'])} talks with gold ({len(scores['without_gold'])} without)")
        print(f"strict P {scores['precision_strict']:.3f} R {scores['recall_strict']:.3f} F1 {scores['f1_strict']:.3f}; "
              f"lax P {scores['precision_lax']:.3f} R {scores['recall_lax']:.3f} F1 {scores['f1_lax']:.3f}")
        return 0
    raise AssertionError(f"unhandled corpus action {action!r}")
