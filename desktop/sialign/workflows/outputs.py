"""Writing what came out: a project or an export, and a readable summary of an alignment."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sialign.core.errors import ProjectBusyError
from sialign.core.plurals import count_noun

if TYPE_CHECKING:
    from sialign.core.model import Project

log = logging.getLogger(__name__)


def check_output_folder(output: str, option: str = "-o") -> None:
    """Refuse, before any work, an output whose folder does not exist (a mistyped path is never created)."""
    from sialign.core.errors import OutputError

    if output == "-":
        return
    folder = Path(output).expanduser().parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise OutputError(output, f"the folder {folder} {what}", hint=f"create it first or give {option} a path in an existing folder")


def same_file(a: str | Path, b: str | Path) -> bool:
    """Whether two paths name one file: the same path, a hard link or a symbolic link to it.

    ``os.path.samefile`` where both exist (it follows links and compares the
    device and inode); the resolved paths otherwise (a file that does not
    exist yet is no other file).
    """
    import os

    first, second = Path(a).expanduser(), Path(b).expanduser()
    try:
        return os.path.samefile(first, second)
    except OSError:  # one of them does not exist, or cannot be looked at (a link loop): compare the names
        return os.path.realpath(first) == os.path.realpath(second)


def check_not_an_input(output: str | Path, inputs: Iterable[tuple[str, str | Path | None]], option: str = "-o") -> None:
    """Refuse, before any work, an output that is one of the files the command reads.

    Args:
        output: the file about to be written (``-`` is standard output, never an input).
        inputs: ``(what, path)`` pairs: how to name each input (``PROJECT``, ``the project's source transcript``) and its path.
        option: how the caller names ``output``.

    Raises:
        OutputIsInputError: ``output`` and an input are the same file.
    """
    import os

    from sialign.core.errors import OutputIsInputError

    if str(output) in ("", "-"):
        return
    for what, path in inputs:
        if path is None or str(path) in ("", "-"):
            continue
        if same_file(output, path):
            shown = f"{output}" if os.path.abspath(output) == os.path.abspath(path) else f"{output} (the same file as {path})"
            raise OutputIsInputError(
                f"{option} {shown} is {what}: writing it would destroy what is read — "
                "choose another output file; nothing was written"
            )


def project_inputs(project: Project) -> list[tuple[str, str | Path | None]]:
    """The files a project stands on, to keep an output off them: the project file, its transcripts and recordings."""
    from sialign.core.paths import resolve_project_path

    found: list[tuple[str, str | Path | None]] = [("the project file", project.path)]
    for name, doc in (("source", project.source), ("interpretation", project.target), ("reference", project.reference)):
        if doc is None:
            continue
        found.append((f"the project's {name} transcript", resolve_project_path(doc.path, project.path)))
        found.append((f"the project's {name} recording", resolve_project_path(doc.audio_path, project.path)))
    return found


def project_files(project_file: str | Path) -> list[tuple[str, Path]]:
    """The transcripts and recordings a saved project names, read from its file without loading the project.

    ``(what, path)`` pairs (``the source transcript``, ``the interpretation recording``…); stored
    paths are resolved against the project's folder. Nothing for a file that is no readable project.
    """
    import json

    from sialign.core.paths import resolve_project_path

    try:
        with open(project_file, encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError, RecursionError):
        return []
    body = data.get("project") if isinstance(data, dict) else None
    if not isinstance(body, dict):
        return []
    found: list[tuple[str, Path]] = []
    for key, name in (("source", "source"), ("target", "interpretation"), ("reference", "reference")):
        doc = body.get(key)
        if not isinstance(doc, dict):
            continue
        for field, what in (("path", "transcript"), ("audio_path", "recording")):
            raw = doc.get(field)
            if isinstance(raw, str) and raw:
                try:
                    resolved = resolve_project_path(raw, str(project_file))
                except (OSError, ValueError):
                    continue
                if resolved is not None:
                    found.append((f"the {name} {what}", Path(resolved)))
    return found


def check_output_name(output: str, format: str | None, *, project: bool) -> None:
    """Refuse an output whose name says no format (``x.docx``, ``out``) when no format is chosen with -f.

    ``project``: a ``.sialign`` project may be written too (``align``). Standard
    output (``-``) takes the default format.
    """
    from sialign.core.errors import OutputNameError
    from sialign.core.file_kind import PROJECT_SUFFIX
    from sialign.io.export_formats import ALIGNMENT_EXTENSIONS, EXPORT_FORMATS, SUBTITLE_SUFFIXES

    suffix = Path(output).suffix.lower()
    if format is not None or output == "-" or suffix in ALIGNMENT_EXTENSIONS or suffix in SUBTITLE_SUFFIXES:
        return
    if project and suffix == PROJECT_SUFFIX:
        return
    # The suffixes that name a format alone, from the registry (subtitles also need their side).
    names = list(dict.fromkeys(f.suffix for f in EXPORT_FORMATS if f.by_suffix)) + ([PROJECT_SUFFIX] if project else [])
    raise OutputNameError(f"-o {output}: name the output {', '.join(names[:-1])} or {names[-1]}, or choose a format with -f")


def check_project_output(output: str, command: str, option: str = "-o") -> None:
    """Refuse, before any work, an output that is not a ``.sialign`` project or whose folder does not exist.

    For the commands that write a project back (``realign``, ``filter``): a
    ``z.tsv`` would otherwise hold project JSON under a TSV's name.
    """
    from sialign.core.errors import OutputError
    from sialign.core.file_kind import PROJECT_SUFFIX, is_project_file

    if not is_project_file(output):
        raise OutputError(
            output,
            f"sialign {command} writes a project, so {option} must end in {PROJECT_SUFFIX}",
            hint="for a TSV, JSONL, TMX… export the project afterwards with 'sialign export'",
        )
    check_output_folder(output, option)


def save(project: Project, path: str | Path, *, app: bool = False, force: bool = False,
         discard_recovery: bool = False, program: str = "a sialign command") -> Written:
    """Write the project file ``path`` (atomically; its transcript and audio paths made relative to it).

    The one way a front end writes a project (the app's Save, ``filter``,
    ``realign``, corpus mode); :func:`export` writes one too when its output
    ends in ``.sialign``.

    A project has one writer at a time (:mod:`sialign.io.project_lock`), and
    its edit journal and autosave belong to the desktop app. The app
    (``app=True``) holds the lock while the project is open and clears its
    own recovery files after a save. A command (``program`` names it) takes
    the lock while it writes, leaves the recovery files alone, and refuses
    while they hold review newer than the file.

    Args:
        force: write although another program holds the project.
        discard_recovery: write although the app's unsaved review stands beside the file (it is removed).

    Raises:
        ProjectBusyError: the project is held by another program, or has unsaved review (nothing written).
        OutputError / OSError: the file cannot be written (the old one is left as it was).
    """
    from sialign.io.project_file import save_project
    from sialign.io.project_lock import acquire

    if app:
        save_project(project, path)
        return Written(str(path))
    lock = None
    try:
        lock = acquire(path, program)
    except ProjectBusyError:
        if not force:
            raise
    try:
        check_no_unsaved_review(path, discard=discard_recovery)
        save_project(project, path)
    finally:
        if lock is not None:
            lock.release()
    return Written(str(path))


def check_no_unsaved_review(path: str | Path, *, discard: bool = False) -> None:
    """Refuse to overwrite a project whose autosave or edit journal holds review the file does not.

    Those are the app's recovery files (after a crash, or while it is open
    with unsaved edits); with ``discard`` they are removed instead.

    Raises:
        ProjectBusyError: there is unsaved review, and ``discard`` is False.
    """
    import time

    from sialign.io.project_file import discard_autosave, find_unsaved_work

    if not Path(path).is_file():
        work = None
    else:
        try:
            work = find_unsaved_work(path)
        except (OSError, ValueError):
            work = None
    if work is None:
        return
    if discard:
        discard_autosave(path)
        log.warning("%s: the app's unsaved review was discarded", path)
        return
    what = (f"{count_noun(work.edits, 'unsaved edit')}" if work.autosave is None
            else "an autosave newer than the file" + (f" and {count_noun(work.edits, 'later edit')}" if work.edits else ""))
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(work.when))
    raise ProjectBusyError(
        f"{path}: SI Aligner holds review of this project that is not saved ({what}, last change {when}) — "
        "open the project in the app to recover and save it, or write the project anyway and lose that review; "
        "nothing was written",
        settings=("discard_recovery",),
    )


@dataclass(frozen=True)
class Written:
    """What :func:`export` wrote: ``beads`` rows of an export, or the project itself (None).

    ``why`` says why an export of an aligned talk holds no bead ("" otherwise).
    """

    path: str
    beads: int | None = None
    why: str = ""

    def __str__(self) -> str:
        return f"project {self.path}" if self.beads is None else f"{count_noun(self.beads, 'bead')} to {self.path}"


def export(
    project: Project,
    output: str | Path,
    *,
    format: str | None = None,
    only_confirmed: bool = False,
    include_dropped: bool = False,
    two_column: bool = False,
    links: bool = False,
    option: str = "-o",
    force: bool = False,
    discard_recovery: bool = False,
    program: str = "a sialign command",
) -> Written:
    """Write the project (a ``.sialign`` output without a format) or its alignment in any export format.

    The one way every front end writes a talk out (``sialign align -o``,
    ``sialign export``, the desktop app's Export, ``sialign.export``).

    Args:
        project: an aligned project (or any project, for a ``.sialign`` output).
        output: the file, or ``-`` for standard output; its folder must exist.
        format: an export format (:data:`sialign.io.export_formats.EXPORT_FORMATS`); from the extension when None.
        only_confirmed / include_dropped / two_column: which beads, and ``tsv`` as two columns.
        links: the stored word links too (``tsv`` and ``jsonl``; see :func:`~sialign.io.writers.write_alignment`).
        option: how the caller names ``output`` in a message (``-o``, ``export()``).
        force / discard_recovery / program: for a ``.sialign`` output, as :func:`save`.

    Raises:
        OutputError: the folder of ``output`` does not exist.
        OutputIsInputError: ``output`` is the project's file (unless a project is written), a transcript or a recording of it.
        ExportError: no alignment, or an unknown format.
        ProjectBusyError: a ``.sialign`` output is held by another program or has unsaved review.
    """
    from sialign.core.file_kind import is_project_file
    from sialign.io.writers import write_alignment

    check_output_folder(str(output), option)
    writes_project = format is None and is_project_file(output)
    # Saving a project over its own file is a save; anything else over a file the talk stands on destroys it.
    check_not_an_input(output, project_inputs(project)[1 if writes_project else 0 :], option)
    if writes_project:
        return save(project, output, force=force, discard_recovery=discard_recovery, program=program)
    rows = write_alignment(project, output, format=format, only_confirmed=only_confirmed,
                           include_dropped=include_dropped, two_column=two_column, links=links)
    log.info("wrote %d beads to %s", rows, output)
    why = empty_export_reason(project, only_confirmed=only_confirmed, include_dropped=include_dropped) if rows == 0 else ""
    return Written(str(output), rows, why)


def export_many(projects: Iterable[Project], output: str | Path, format: str, *, only_confirmed: bool = False,
                option: str = "-o") -> tuple[int, int]:
    """Write many talks into one export file (a corpus), one talk at a time; returns (talks, rows) written.

    The pooled twin of :func:`export`, on the same format registry: ``format``
    is one of :data:`sialign.io.export_formats.POOLED_FORMATS` (``tsv``,
    ``tsv2``, ``jsonl``, ``tmx``), every row or unit carries its talk's id,
    and the file is replaced atomically once every talk is in.

    Raises:
        OutputError: the folder of ``output`` does not exist.
        ExportError: ``format`` holds one talk per file.
    """
    from sialign.io.writers import write_pooled

    check_output_folder(str(output), option)
    talks, rows = write_pooled(projects, output, format, only_confirmed=only_confirmed)
    log.info("wrote %d rows of %d talks to %s", rows, talks, output)
    return talks, rows


def empty_export_reason(project: Project, *, only_confirmed: bool = False, include_dropped: bool = False) -> str:
    """Why an export of ``project`` with these options holds no bead, in one line ("" when it holds some)."""
    from sialign.core.model import BeadStatus

    alignment = project.alignment
    if alignment is None:
        return "the talk is not aligned"
    beads = alignment.beads
    if not beads:
        return "the alignment has no bead: both documents are empty"
    dropped = [b for b in beads if b.status is BeadStatus.DROPPED]
    confirmed = [b for b in beads if b.status is BeadStatus.CONFIRMED]
    if only_confirmed and not confirmed and len(dropped) < len(beads):
        return f"none of the {count_noun(len(beads), 'bead')} is confirmed yet, and only confirmed beads were asked for"
    if include_dropped or len(dropped) < len(beads):
        return ""
    reasons: dict[str, int] = {}
    for bead in dropped:
        key = "cost above the drop threshold" if bead.reason.startswith("cost") else (bead.reason.split(":")[0] or "dropped")
        reasons[key] = reasons.get(key, 0) + 1
    listed = "; ".join(f"{v:,} × {k}" for k, v in sorted(reasons.items(), key=lambda kv: -kv[1])[:3])
    matched = sum(1 for b in beads if b.src and b.tgt)
    what = ("no source segment was matched with a target segment: check that the two files are the same talk and "
            "its interpretation" if not matched else
            f"even the {count_noun(matched, 'matched bead')} cost more than the drop threshold")
    return f"all {count_noun(len(beads), 'bead')} are dropped ({listed}) — {what}"


# The summary names this many bead shapes (1-1, 2-1…), the most frequent.
SHAPES_SHOWN = 6


def summary_lines(project: Project, timings: dict[str, float], rows: int = 5, filters: Iterable[str] = ()) -> list[str]:
    """A readable summary of the project's alignment: counts, embedder, EVS, timings and the first rows.

    ``filters``: the fine-grained filters that ran (``intra``, ``inter``); those
    the target language does not suit get one line saying they were not applied.
    """
    from sialign.core.bead_summary import bead_summary
    from sialign.core.model import BeadStatus, bead_text

    alignment = project.alignment
    assert alignment is not None
    summary = bead_summary(project)
    kinds: dict[str, int] = {}
    for bead in alignment.beads:
        kinds[bead.kind] = kinds.get(bead.kind, 0) + 1
    ranked = sorted(kinds.items(), key=lambda kv: -kv[1])
    common = ", ".join(f"{k}: {v}" for k, v in ranked[:SHAPES_SHOWN])
    if len(ranked) > SHAPES_SHOWN:
        rest = ranked[SHAPES_SHOWN:]
        beads = sum(v for _, v in rest)
        common += f" and {beads} bead{'s' if beads != 1 else ''} of {len(rest)} rarer shape{'s' if len(rest) != 1 else ''}"
    lines = [
        f"talk {project.talk_id}: {count_noun(len(project.source), 'source segment')}, {count_noun(len(project.target), 'target segment')}"
        + (f", reference of {len(project.reference)} lines" if project.reference is not None else ""),
        f"embedder: {alignment.embedder}"
        + (f" ({alignment.info['embedder_note'].split(' — ', 1)[1]})" if " — " in alignment.info.get("embedder_note", "") else ""),
        f"beads: {summary.beads} ({summary.auto} auto, {summary.confirmed} confirmed, {summary.dropped} dropped, "
        f"{summary.flagged} flagged, {summary.low_confidence} low confidence); shapes {common}",
    ]
    dropped = [b for b in alignment.beads if b.status is BeadStatus.DROPPED]
    reasons: dict[str, int] = {}
    for bead in dropped:
        key = "cost above the drop threshold" if bead.reason.startswith("cost") else bead.reason.split(":")[0]
        reasons[key] = reasons.get(key, 0) + 1
    if reasons:
        lines.append("dropped: " + "; ".join(f"{v} × {k}" for k, v in sorted(reasons.items(), key=lambda kv: -kv[1])))
    if summary.flags:
        lines.append("flags: " + ", ".join(f"{k} {v}" for k, v in summary.flags))
    ran = set(filters)
    if ran:
        from sialign.filters.languages import skipped_filters, skipped_note

        parts = {"intra": {"intra"}, "inter": {"alpha", "gamma", "eta"}}
        wanted = set().union(*(parts.get(name, {name}) for name in ran))
        skipped = {k: v for k, v in skipped_filters(project).items() if k in wanted}
        if skipped:
            lines.append(skipped_note(skipped))
    info = alignment.info
    lag = info.get("lag")
    if lag and lag.get("note"):
        lines.append(lag["note"])
    lines.append(
        f"settings: {info.get('target_units', '?')} preset, "
        + (f"{info['text_kind']}, " if info.get("text_kind") else "")
        + f"time prior {'on' if info.get('time_prior') else 'off'}, "
        f"{'pivot through the reference' if any(s['name'] == 'pivot' for s in info.get('signals', [])) else 'direct'}"
        + (f", learned weights: {info['bead_score']}" if info.get("bead_score") else "")
    )
    stats = summary.evs
    if stats is not None:
        lines.append(f"ear-voice span: median {stats.median:.2f} s (IQR {stats.q1:.2f}–{stats.q3:.2f} s, {count_noun(stats.n, 'bead')})")
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


__all__ = ["Written", "check_no_unsaved_review", "check_output_folder", "check_output_name", "check_project_output", "export", "summary_lines"]
