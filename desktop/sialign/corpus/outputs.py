"""Corpus-level outputs: one export file for all talks, talk-level splits, pooled evaluation."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from sialign.core.errors import InputError, SialignError
from sialign.core.plurals import count_noun
from sialign.core.progress import ProgressFn, StopFn, check_stop
from sialign.corpus.runner import CorpusState

SPLITS_FILE = "splits.json"


def _done_talks(state: CorpusState, split: str | None) -> list[str]:
    talks = [t for t, r in sorted(state.records.items()) if r.status == "done" and state.project_path(t).exists()]
    if split is None:
        return talks
    assigned = load_splits(state.folder)
    return [t for t in talks if (assigned.get(t) or state.records[t].split) == split]


def _load(state: CorpusState, talk: str) -> Any:
    from sialign.io.project_file import load_project

    return load_project(state.project_path(talk))


def export_talks(folder: str | Path, split: str | None = None) -> list[str]:
    """The talks a corpus export writes: the aligned ones (their project is there), of ``split`` when given, by name.

    Raises:
        SialignError: there is none, with why (no talk aligned, the corpus
            not split yet, none in that split).
    """
    state = CorpusState(folder)
    talks = _done_talks(state, split)
    if not talks:
        if split and not load_splits(state.folder) and not any(r.split for r in state.records.values()):
            raise SialignError(f"{folder}: no talk is assigned to a split yet — split the corpus first (or give the "
                               f"manifest a 'split' column), then export split {split!r}", settings=("split_corpus",))
        raise SialignError(f"{folder}: no aligned talk{f' in split {split!r}' if split else ''} to export")
    return talks


def split_names(folder: str | Path) -> list[str]:
    """The splits the talks of a corpus folder are in (``splits.json``, else the manifest's column), sorted."""
    state = CorpusState(folder)
    assigned = load_splits(state.folder)
    return sorted({assigned.get(t) or r.split for t, r in state.records.items()} - {""})


def corpus_files(folder: str | Path, named: str = "the corpus folder") -> list[tuple[str, Path]]:
    """The files a corpus folder stands on, to keep an output off them: its state file, manifest and talks' projects.

    ``(what, path)`` pairs for :func:`sialign.workflows.outputs.check_not_an_input`,
    each talk's transcripts and recordings included; ``named`` is how the
    messages name the folder. Nothing for a folder without a readable state file.
    """
    from sialign.corpus.runner import STATE_FILE
    from sialign.io.project_file import PROJECT_SUFFIX
    from sialign.workflows.outputs import project_files

    found: list[tuple[str, Path]] = []
    folder = Path(folder).expanduser()
    state_path = folder / STATE_FILE
    if not state_path.is_file():
        return found
    found.append((f"the corpus state file of {named}", state_path))
    try:
        data = json.loads(state_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return found
    if not isinstance(data, dict):
        return found
    manifest = data.get("manifest")
    if isinstance(manifest, str) and manifest:
        found.append((f"the manifest of {named}", Path(manifest)))
    talks = data.get("talks")
    for talk in talks if isinstance(talks, dict) else {}:
        project = folder / f"{talk}{PROJECT_SUFFIX}"
        if project.is_file():
            found.append((f"talk {talk}'s project in {named}", project))
            found.extend((f"{what} of talk {talk} in {named}", file) for what, file in project_files(project))
    return found


def export_corpus(
    folder: str | Path, output: str | Path, fmt: str, *, split: str | None = None, only_confirmed: bool = False,
    progress: ProgressFn | None = None, should_stop: StopFn | None = None, option: str = "-o",
) -> tuple[int, int]:
    """Write every aligned talk's beads into one file, the talk's id on each row.

    The one corpus export of ``sialign corpus export`` and the corpus
    window's *Export…*. Each talk's rows are those of its own export
    (:func:`sialign.io.writers.talk_rows`).

    Args:
        folder: the corpus folder.
        output: the file to write (atomically: it is replaced only when every talk is in).
        fmt: ``tsv`` (the parallel TSV with its header once), ``tsv2``
            (source<TAB>target), ``jsonl`` or ``tmx``.
        split: only talks of this split (``splits.json``, else the manifest's column).
        only_confirmed: only confirmed beads.
        progress: ``progress(fraction, message)`` before each talk is read.
        should_stop: asked before each talk; True stops with
            :class:`~sialign.core.errors.AlignmentCancelled`, ``output`` untouched.
        option: how messages name ``output`` (``-o``, ``The export``).

    Returns:
        (talks, rows) written.

    Raises:
        SialignError: an unknown format, or no talk to export (:func:`export_talks`).
        OutputError: the folder of ``output`` does not exist, or the file cannot be written.
        OutputIsInputError: ``output`` is one of the files the corpus stands on.
    """
    from sialign.io.export_formats import POOLED_FORMATS
    from sialign.workflows.outputs import check_not_an_input, export_many

    if fmt not in POOLED_FORMATS:
        raise SialignError(f"format {fmt!r}: corpus exports are {', '.join(POOLED_FORMATS)}")
    talks = export_talks(folder, split)
    check_not_an_input(output, corpus_files(folder), option)
    state = CorpusState(folder)

    def projects() -> Iterator[Any]:
        # One talk in memory at a time: the projects are read as the writer asks for them.
        for k, talk in enumerate(talks):
            check_stop(should_stop)
            if progress is not None:
                progress(k / len(talks), f"{talk} ({k + 1}/{len(talks)})")
            yield _load(state, talk)

    return export_many(projects(), output, fmt, only_confirmed=only_confirmed, option=option)


def load_splits(folder: str | Path) -> dict[str, str]:
    """talk → split from ``splits.json`` of a corpus folder (empty when not split yet)."""
    path = Path(folder) / SPLITS_FILE
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return {str(k): str(v) for k, v in data.get("talks", {}).items()}
    except (OSError, ValueError, AttributeError) as exc:
        raise InputError(path, f"the splits file is damaged ({exc})", hint="run sialign corpus split again") from None


def split_corpus(
    folder: str | Path, *, dev: int, test: int, exclude: Sequence[str] = (), seed: int = 0
) -> dict[str, list[str]]:
    """Assign whole talks to train / dev / test, keeping excluded talks out of all three.

    NAIST-SIC-Aligned kept the talks of MuST-C's dev and test sets out of its
    training data: an exclusion list does that here. Talks whose manifest row
    names a split keep it; the rest are drawn at random (``seed``).

    Returns:
        split → talks; also written to ``splits.json``.
    """
    from sialign.core.atomic import atomic_write_text

    if dev < 0 or test < 0:
        raise SialignError(f"the dev and test talks must be 0 or more, not {dev} and {test}", settings=("dev", "test"))
    state = CorpusState(folder)
    talks = [t for t, r in sorted(state.records.items()) if r.status == "done"]
    excluded = set(exclude)
    fixed = {t: state.records[t].split for t in talks if state.records[t].split and t not in excluded}
    free = [t for t in talks if t not in excluded and t not in fixed]
    need_dev = max(dev - sum(1 for s in fixed.values() if s == "dev"), 0)
    need_test = max(test - sum(1 for s in fixed.values() if s == "test"), 0)
    if need_dev + need_test > len(free):
        raise SialignError(
            f"{folder}: {count_noun(len(free), 'talk')} are free to assign, but {dev} dev and {test} test talks need {need_dev + need_test}",
            settings=("dev", "test"),
        )
    rng = random.Random(seed)
    rng.shuffle(free)
    assigned = dict(fixed)
    for talk in free[:need_dev]:
        assigned[talk] = "dev"
    for talk in free[need_dev : need_dev + need_test]:
        assigned[talk] = "test"
    for talk in free[need_dev + need_test :]:
        assigned[talk] = "train"
    for talk in sorted(excluded & set(talks)):
        assigned[talk] = "excluded"
    atomic_write_text(Path(folder) / SPLITS_FILE, json.dumps({"seed": seed, "talks": assigned}, indent=1, sort_keys=True) + "\n")
    out: dict[str, list[str]] = {}
    for talk, name in sorted(assigned.items()):
        out.setdefault(name, []).append(talk)
    return out


def read_exclusions(path: str | Path) -> list[str]:
    """Talk names, one per line ('#' starts a comment)."""
    try:
        lines = Path(path).read_text(encoding="utf-8-sig").splitlines()
    except OSError as exc:
        raise InputError(Path(path), f"cannot read the exclusion list ({exc.strerror or exc})") from None
    return [line.split("#", 1)[0].strip() for line in lines if line.split("#", 1)[0].strip()]


def evaluate_corpus(folder: str | Path, gold_dir: str | Path) -> dict[str, Any]:
    """Pooled bead F1 over the talks that have gold ``<talk>.align`` files in ``gold_dir``.

    Gold files are in vecalign's format over the talk's segments (0-based).
    Returns the pooled strict/lax scores, the talks scored and those without gold.
    """
    from sialign.evaluate import alignment_positions, bead_f1_many, read_beads

    state = CorpusState(folder)
    gold_dir = Path(gold_dir)
    if not gold_dir.is_dir():
        raise InputError(gold_dir, "no such folder", hint="give the folder holding <talk>.align gold files")
    pairs = []
    scored: list[str] = []
    missing: list[str] = []
    for talk in _done_talks(state, None):
        gold_path = gold_dir / f"{talk}.align"
        if not gold_path.exists():
            missing.append(talk)
            continue
        project = _load(state, talk)
        hyp = alignment_positions(project.alignment, project.source, project.target)
        pairs.append((hyp, read_beads(gold_path)))
        scored.append(talk)
    if not pairs:
        raise SialignError(f"{gold_dir}: no gold <talk>.align file matches an aligned talk of {folder}")
    scores = bead_f1_many(pairs)
    return {"talks": scored, "without_gold": missing, **{k: round(v, 4) for k, v in scores.items()}}
