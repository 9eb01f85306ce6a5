"""``sialign compare`` — renditions of one source side by side; interpreters pooled over talks."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sialign.core.file_kind import PROJECT_SUFFIX
from sialign.core.plurals import count_noun

NAME = "compare"
HELP = "compare several renditions (interpreters, a translation) of the same source, and interpreters over talks"
DESCRIPTION = (
    "Projects whose source transcripts hold the same sentences (checked by content) are lined up sentence by "
    "sentence: each rendition's text, lag and flags, with the sentences where they disagree most (one omits, "
    "another renders) listed first. -o writes it as self-contained HTML or as TSV (one row per source sentence). "
    "The per-interpreter table (coverage, omissions per 100 sentences, median ear-voice span, compression, "
    "fillers per minute, rank) pools each interpreter's projects and is printed; with --pooled the projects may "
    "come from different talks and only that table is written. A folder stands for the .sialign files in it."
)
ORDER = 74


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("projects", nargs="+", metavar="PROJECT", help="aligned project files (.sialign) or folders holding them")
    parser.add_argument("-o", "--output", metavar="OUT", help="compare.html or compare.tsv (default: print only)")
    parser.add_argument("--pooled", action="store_true",
                        help="projects of different talks: only the per-interpreter table (no source check)")


def expand_projects(items: list[str]) -> list[str]:
    """The project files named by ``items``; a folder stands for its ``*.sialign`` files (sorted)."""
    from sialign.core.errors import SialignError

    paths: list[str] = []
    for item in items:
        path = Path(item)
        if path.is_dir():
            found = sorted(str(p) for p in path.glob(f"*{PROJECT_SUFFIX}"))
            if not found:
                raise SialignError(f"{item}: the folder holds no .sialign project — give project files or a folder of them")
            paths.extend(found)
        else:
            paths.append(item)
    return paths


def run(args: argparse.Namespace) -> int:
    from sialign.core.atomic import atomic_write_text
    from sialign.review.compare import (
        COMPARE_FILES,
        compare_renditions,
        comparison_html,
        comparison_tsv,
        interpreter_lines,
        interpreter_table,
        interpreters_html,
        interpreters_tsv,
    )
    from sialign.workflows.outputs import check_output_folder
    from sialign.workflows.talks import load_project

    fmt = COMPARE_FILES.format_of(args.output) if args.output else None
    if args.output:
        check_output_folder(args.output)
    paths = expand_projects(args.projects)
    projects = [load_project(p) for p in paths]
    if args.pooled:
        rows = interpreter_table(projects)
        print("\n".join(interpreter_lines(rows)))
        if args.output:
            atomic_write_text(args.output, interpreters_html(rows) if fmt == "html" else interpreters_tsv(rows))
            print(f"Wrote {count_noun(len(rows), 'interpreter')} pooled over {count_noun(len(projects), 'project')} to {args.output}", file=sys.stderr)
        return 0
    comparison = compare_renditions(projects, paths)
    dis = comparison.disagreements()
    print(f"{comparison.talk}: {count_noun(len(comparison.rows), 'source sentence')}, {count_noun(len(comparison.names), 'rendition')} "
          f"({', '.join(comparison.names)}), {count_noun(len(dis), 'sentence')} where they disagree")
    for row in dis[:10]:
        print(f"  sentence {row.number}: {row.why}")
    if len(dis) > 10:
        print(f"  … and {len(dis) - 10} more")
    print()
    print("\n".join(interpreter_lines(comparison.interpreters)))
    if args.output:
        atomic_write_text(args.output, comparison_html(comparison) if fmt == "html" else comparison_tsv(comparison))
        print(f"Wrote the comparison to {args.output}", file=sys.stderr)
    return 0
