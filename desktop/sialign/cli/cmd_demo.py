"""``sialign demo``: the whole pipeline, headless, on the bundled example talk."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

NAME = "demo"
HELP = "align the bundled example talk headless and print what came out (no display needed)"
DESCRIPTION = (
    "Reads the example talk (English source captions, a Japanese interpretation, the reference "
    "translation and both audio tracks), aligns it through the reference translation with the "
    "ear-voice-span prior, applies the fine-grained filters, prints a summary (beads, dropped, flags, "
    "median ear-voice span, embedder, timings) and the first rows, and writes a parallel TSV and a "
    ".sialign project (open it in the desktop app) into the output folder."
)
ORDER = 90

TRANSCRIPT_SUFFIXES = (".srt", ".vtt", ".tsv", ".textgrid", ".eaf", ".txt")
AUDIO_SUFFIXES = (".wav", ".flac", ".ogg", ".mp3")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-o", "--output", metavar="DIR", default="sialign-demo", help="folder for the TSV and the project")
    parser.add_argument("--example", metavar="DIR", help="another example folder (default: the bundled one)")
    parser.add_argument("--model", metavar="PATH|NAME|lexical", default="auto", help="embedder for the source ↔ target signal (auto: the default model, else use-multilingual for en→ja)")
    parser.add_argument("--no-filters", action="store_true", help="skip the fine-grained filters (they load GiNZA, a few seconds)")
    parser.add_argument("--rows", type=int, default=8, metavar="N", help="beads to print")


def example_folder(explicit: str | None) -> Path:
    """The example folder: ``explicit``, else ``resources/examples`` of a frozen build or the checkout."""
    from sialign.core.errors import InputError

    if explicit:
        folder = Path(explicit)
        if not folder.is_dir():
            raise InputError(folder, "no such folder", hint="give the folder holding the example transcripts")
        return folder
    roots = []
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:
        roots += [Path(frozen) / "resources" / "examples", Path(frozen) / "examples"]
    roots.append(Path(__file__).resolve().parents[3] / "resources" / "examples")
    for root in roots:
        if root.is_dir():
            return root
    raise InputError(None, "the example talk is not installed", hint="reinstall SI Aligner or run 'sialign align' on your own files")


def _audio_beside(path: Path) -> str | None:
    stem = path.name.split(".")[0] + "." + path.name.split(".")[1] if path.name.count(".") >= 2 else path.stem
    for suffix in AUDIO_SUFFIXES:
        for candidate in (path.with_suffix(suffix), path.parent / f"{stem}{suffix}"):
            if candidate.is_file():
                return str(candidate)
    return None


def load_example(folder: Path):  # type: ignore[no-untyped-def]
    """Read the example: the Japanese transcript named without "ref" is the interpretation,
    the one with "ref" the reference translation, the other one the source."""
    from sialign.core.errors import InputError
    from sialign.core.model import Project
    from sialign.io.readers import read_transcript

    found = []
    for path in sorted(folder.iterdir()):
        if path.is_file() and path.suffix.lower() in TRANSCRIPT_SUFFIXES and not path.name.lower().startswith(("readme", "license")):
            found.append((path, read_transcript(path)))
    sources = [(p, d) for p, d in found if d.language != "ja"]
    targets = [(p, d) for p, d in found if d.language == "ja" and "ref" not in p.name.lower()]
    references = [(p, d) for p, d in found if d.language == "ja" and "ref" in p.name.lower()]
    if not sources or not targets:
        raise InputError(folder, "the example folder needs a source transcript and a Japanese interpretation transcript")
    (src_path, source), (tgt_path, target) = sources[0], targets[0]
    source.audio_path = _audio_beside(src_path)
    target.audio_path = _audio_beside(tgt_path)
    reference = references[0][1] if references else None
    talk_id = src_path.name.split(".")[0] or "example"
    return Project(talk_id=talk_id, source=source, target=target, reference=reference, metadata={"example": True})


def run(args: argparse.Namespace) -> int:
    from sialign.align.pipeline import align_project
    from sialign.cli.cmd_align import apply_named_filters, console_progress, summary_lines
    from sialign.core.params import AlignParams
    from sialign.io.project_file import save_project
    from sialign.io.writers import write_alignment

    started = time.perf_counter()
    folder = example_folder(args.example)
    project = load_example(folder)
    print(f"example talk from {folder}")
    params = AlignParams(embedder=args.model, pivot=True, time_prior=True)
    progress = console_progress(False)
    result = align_project(project, params, progress=progress)
    project.alignment = result.alignment
    project.params = params.to_dict()
    if not args.no_filters:
        apply_named_filters(project, {"intra", "inter"}, progress=progress)
    if progress is not None:
        print(file=sys.stderr)
    for line in summary_lines(project, result.timings, rows=args.rows):
        print(line)
    gold = sorted(folder.glob("*.gold.align"))
    if gold:
        from sialign.evaluate import alignment_positions, bead_f1, read_beads

        scores = bead_f1(alignment_positions(project.alignment, project.source, project.target), read_beads(gold[0]))
        print(f"agreement with {gold[0].name}: strict F1 {scores['f1_strict']:.3f}, lax F1 {scores['f1_lax']:.3f}")
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    tsv = out / f"{project.talk_id}.tsv"
    rows = write_alignment(project, tsv)
    project_path = out / f"{project.talk_id}.sialign"
    save_project(project, project_path)
    print(f"wrote {rows} beads to {tsv} and the project to {project_path} ({time.perf_counter() - started:.1f} s in all)")
    return 0
