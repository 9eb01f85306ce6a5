"""``sialign demo``: the whole pipeline, headless, on the bundled example talk.

Reads the example talk (English source captions, a Japanese interpretation, the reference
translation and both audio tracks), aligns it through the reference translation with the
ear-voice-span prior, applies the fine-grained filters, prints a summary (beads, dropped, flags,
median ear-voice span, embedder, timings) and the first rows, and writes a parallel TSV and a
.sialign project (open it in the desktop app) into the output folder.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from sialign.cli.progress import add_quiet
from sialign.core.file_kind import PROJECT_SUFFIX

HELP = "align the bundled example talk headless and print what came out (no display needed)"

def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-o", "--output", metavar="DIR", default="sialign-demo", help="folder for the TSV and the project")
    parser.add_argument("--example", metavar="DIR", help="another example folder (default: the bundled one)")
    parser.add_argument("--model", metavar="PATH|NAME|lexical", default="auto", help="embedder for the source ↔ target signal (auto: the default model, else use-multilingual for en→ja)")
    parser.add_argument("--no-filters", action="store_true", help="skip the fine-grained filters (they load GiNZA, a few seconds)")
    parser.add_argument("--rows", type=int, default=8, metavar="N", help="beads to print")
    add_quiet(parser)


def run(args: argparse.Namespace) -> int:
    from sialign.cli.progress import console_progress, end_progress
    from sialign.core.params import AlignParams
    from sialign.workflows.aligning import align_talk
    from sialign.workflows.filtering import FINE_FILTERS
    from sialign.workflows.outputs import export, summary_lines
    from sialign.workflows.talks import example_folder, load_example

    started = time.perf_counter()
    folder = example_folder(args.example)
    project = load_example(folder)
    print(f"example talk from {folder}")
    params = AlignParams(embedder=args.model, pivot=True, time_prior=True)
    progress = console_progress(args.quiet)
    filters = set() if args.no_filters else set(FINE_FILTERS)
    aligned = align_talk(project, params, filters=filters, progress=progress)
    end_progress(progress)
    for line in summary_lines(project, aligned.result.timings, rows=args.rows):
        print(line)
    gold = sorted(folder.glob("*.gold.align"))
    if gold:
        from sialign.evaluate import alignment_positions, bead_f1, read_beads

        assert project.alignment is not None
        scores = bead_f1(alignment_positions(project.alignment, project.source, project.target), read_beads(gold[0]))
        print(f"agreement with {gold[0].name}: strict F1 {scores['f1_strict']:.3f}, lax F1 {scores['f1_lax']:.3f}")
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    tsv = out / f"{project.talk_id}.tsv"
    written = export(project, tsv)
    project_path = out / f"{project.talk_id}{PROJECT_SUFFIX}"
    export(project, project_path)
    print(f"wrote {written} and the project to {project_path} ({time.perf_counter() - started:.1f} s in all)")
    return 0
