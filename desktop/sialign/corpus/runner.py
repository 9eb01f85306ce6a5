"""Align a whole corpus: resumable, failures kept with their talk, in parallel or on Dask.

``CORPUS_DIR`` holds one project per talk (``<talk>.sialign``) and
``corpus.json``, the state file: per talk the digests of its input files and
of the parameters, its status (``done``, ``failed`` with the reader's
message, ``skipped`` with why), timings, summary figures and the digest of
the project file as written. A second run skips talks whose inputs and
parameters did not change, re-aligns the others, and never overwrites a
project that was edited since (its digest differs: a reviewer worked on it)
unless ``force`` is given — and then confirmed beads stay anchors and every
bead's review data is carried over (:mod:`sialign.core.carry`).

Work runs in this process (``jobs=1``), in ``jobs`` worker processes on this
machine (each loads its models once), or on Dask distributed
(``dask="local:N"`` starts a LocalCluster, ``dask="tcp://host:port"``
connects to a running scheduler, e.g. one started by dask-jobqueue on a Slurm
cluster). The state is written after every talk, so an interrupted run
resumes where it stopped.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sialign.core.errors import InputError, SialignError
from sialign.core.file_kind import PROJECT_SUFFIX
from sialign.core.params import AlignParams
from sialign.core.plurals import count_noun
from sialign.core.progress import StopFn
from sialign.core.stored_files import remember_chosen
from sialign.corpus.manifest import TalkSpec, read_manifest

if TYPE_CHECKING:
    from sialign.core.model import Project

log = logging.getLogger(__name__)

STATE_FILE = "corpus.json"
STATE_FORMAT = 1


def file_digest(path: str | Path) -> str:
    """SHA-256 of a file's bytes (hex)."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def params_digest(params: AlignParams, filters: Sequence[str]) -> str:
    """A digest of what decides an alignment besides the inputs."""
    data = json.dumps({"params": params.to_dict(), "filters": sorted(filters)}, sort_keys=True)
    return hashlib.sha256(data.encode("utf-8")).hexdigest()[:16]


@dataclass
class TalkRecord:
    """One talk's entry in ``corpus.json``."""

    talk: str
    status: str = "pending"  # done | failed | skipped | pending
    message: str = ""
    inputs: dict[str, str] = field(default_factory=dict)
    params: str = ""
    project: str = ""  # digest of the project file as written
    seconds: float = 0.0
    summary: dict[str, Any] = field(default_factory=dict)
    split: str = ""
    interpreter: str = ""
    updated: str = ""

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> TalkRecord:
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in names})


class CorpusState:
    """``corpus.json`` in a corpus folder: records per talk, written atomically after each change."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self.path = self.folder / STATE_FILE
        self.records: dict[str, TalkRecord] = {}
        self.manifest = ""
        if self.path.exists():
            try:
                data = json.loads(self.path.read_text(encoding="utf-8"))
                if not isinstance(data, dict) or not isinstance(data.get("talks"), dict):
                    raise ValueError("no 'talks' table")
                self.manifest = str(data.get("manifest", ""))
                self.records = {k: TalkRecord.from_dict(v) for k, v in data["talks"].items() if isinstance(v, dict)}
            except (OSError, ValueError, TypeError) as exc:
                raise InputError(
                    self.path, f"the corpus state file is damaged ({exc})",
                    hint="delete it to align every talk again (projects already written stay)",
                ) from None

    def project_path(self, talk: str) -> Path:
        return self.folder / f"{talk}{PROJECT_SUFFIX}"

    def reviewed(self, talk: str) -> bool:
        """Whether the talk's project changed since this runner wrote it (a reviewer edited it)."""
        record = self.records.get(talk)
        path = self.project_path(talk)
        if record is None or not record.project or not path.exists():
            return False
        return file_digest(path) != record.project

    def save(self) -> None:
        from sialign.core.atomic import atomic_write_text

        self.folder.mkdir(parents=True, exist_ok=True)
        data = {
            "format": STATE_FORMAT,
            "manifest": self.manifest,
            "talks": {k: r.to_dict() for k, r in sorted(self.records.items())},
        }
        atomic_write_text(self.path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")


# ------------------------------------------------------------------ one talk
@dataclass(frozen=True)
class TalkJob:
    """What a worker needs to align one talk (picklable: it travels to worker processes)."""

    spec: TalkSpec
    out_dir: str
    params: dict[str, Any]
    filters: tuple[str, ...]
    inputs: dict[str, str]
    params_digest: str
    carry_from_existing: bool = False
    # The run's process when the worker runs on this machine: the worker ends
    # with it (parent_guard); None on a remote Dask cluster.
    parent_pid: int | None = None


@dataclass
class TalkOutcome:
    """What a worker sends back."""

    talk: str
    ok: bool
    message: str
    record: TalkRecord


def _read_talk(spec: TalkSpec) -> Any:
    """The talk's project, read through the one use case that builds talks from files."""
    from sialign.workflows.talks import TalkFiles, read_talk

    metadata: dict[str, Any] = dict(spec.extra)
    if spec.interpreter:
        metadata["interpreter"] = spec.interpreter
    if spec.split:
        metadata["split"] = spec.split
    return read_talk(
        TalkFiles(
            source=spec.source,
            target=spec.target,
            reference=spec.reference,
            source_language=spec.src_lang or None,
            target_language=spec.tgt_lang or None,
            source_audio=str(spec.source_audio) if spec.source_audio is not None else None,
            target_audio=str(spec.target_audio) if spec.target_audio is not None else None,
            talk_id=spec.talk,
            metadata=metadata,
        )
    )


def summary_figures(project: Project) -> dict[str, Any]:
    """Beads, confirmed, dropped, flagged, low confidence, omissions and median ear-voice span of a project.

    The figures of :func:`sialign.core.bead_summary.bead_summary`, as the status bar and ``sialign align`` show them.
    """
    from sialign.core.bead_summary import bead_summary

    alignment = project.alignment
    if alignment is None:
        return {}
    summary = bead_summary(project)
    median = summary.median_evs
    return {
        "beads": summary.beads,
        "confirmed": summary.confirmed,
        "dropped": summary.dropped,
        "flagged": summary.flagged,
        "low_confidence": summary.low_confidence,
        "omissions": summary.omissions,
        "median_evs": round(median, 3) if median is not None else None,
        "source_segments": len(project.source),
        "target_segments": len(project.target),
        "embedder": alignment.embedder,
    }


def run_talk_job(job: TalkJob) -> TalkOutcome:
    """Read, align, filter and save one talk; a bad file fails this talk only (never raises)."""
    from sialign.core.parent_guard import ORPHAN_EXIT, exit_with_parent, parent_gone
    from sialign.io.project_file import load_project
    from sialign.workflows.aligning import align_talk
    from sialign.workflows.outputs import save

    exit_with_parent(job.parent_pid)
    started = time.perf_counter()
    spec = job.spec
    record = TalkRecord(talk=spec.talk, inputs=dict(job.inputs), params=job.params_digest, split=spec.split,
                        interpreter=spec.interpreter)
    path = Path(job.out_dir) / f"{spec.talk}{PROJECT_SUFFIX}"
    try:
        _check_visible(job)
        params = AlignParams.from_dict(job.params)
        project = _read_talk(spec)
        previous = None
        if job.carry_from_existing and path.exists():
            old = load_project(path)
            same_inputs = old.source.texts() == project.source.texts() and old.target.texts() == project.target.texts()
            if same_inputs:
                project = old  # its segments, edits and confirmed beads stay
            else:
                previous = old.alignment
        aligned = align_talk(project, params, filters=job.filters, carry_from=previous)
        if parent_gone(job.parent_pid):
            os._exit(ORPHAN_EXIT)  # the run was killed: its corpus folder is not ours to write any more
        save(project, path)
        record.project = file_digest(path)
        record.summary = summary_figures(project)
        record.summary["timings"] = aligned.result.timings
        record.status = "done"
        if job.carry_from_existing and aligned.carried.carried:
            record.message = f"re-aligned; review data carried over for {count_noun(aligned.carried.carried, 'bead')}"
    except SialignError as exc:
        record.status, record.message = "failed", str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    except MemoryError:
        record.status, record.message = "failed", "ran out of memory"
    except Exception as exc:  # a bug must not stop the other talks; say what it was
        log.exception("talk %s: internal error", spec.talk)
        record.status, record.message = "failed", f"internal error: {type(exc).__name__}: {exc}"
    record.seconds = round(time.perf_counter() - started, 3)
    log.info("talk %s: %s in %.2f s%s", spec.talk, record.status, record.seconds,
             f" ({record.message})" if record.message else "")
    record.updated = datetime.now(UTC).isoformat(timespec="seconds")
    return TalkOutcome(spec.talk, record.status == "done", record.message, record)


def _check_visible(job: TalkJob) -> None:
    """Fail the talk, saying why, when this worker cannot see its files or its corpus folder.

    The client sends absolute paths; a Dask worker on another machine sees
    them only through a filesystem shared with the client.
    """
    import socket

    where = f"on worker host {socket.gethostname()}"
    share = "the Dask workers need the client's files at the same absolute paths (a shared filesystem)"
    for p in job.spec.inputs():
        if not p.exists():
            raise InputError(p, f"not visible {where}", hint=share)
    if not Path(job.out_dir).is_dir():
        raise InputError(Path(job.out_dir), f"the corpus folder is not visible {where}", hint=share)


def _worker_init(threads: int, parent_pid: int) -> None:
    from sialign.core.parent_guard import exit_with_parent

    # Each worker process encodes on its share of the cores (the encoder
    # would otherwise start one thread per core in every worker).
    os.environ["SIALIGN_ENCODER_THREADS"] = str(max(1, threads))
    # A killed run takes its workers with it (they would otherwise finish
    # their talks and write into the corpus folder behind a resumed run).
    exit_with_parent(parent_pid)


# ------------------------------------------------------------------ the corpus
@dataclass
class CorpusReport:
    """What :func:`align_corpus` did."""

    done: list[str] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    seconds: float = 0.0
    interrupted: bool = False

    @property
    def total(self) -> int:
        return len(self.done) + len(self.failed) + len(self.skipped)


ProgressHook = Callable[[int, int, str, str], None]  # (finished, total, talk, status line)


def _plan(
    specs: list[TalkSpec], state: CorpusState, params: AlignParams, filters: Sequence[str], force: bool
) -> tuple[list[TalkJob], list[tuple[str, str]], list[tuple[str, str]]]:
    """Which talks to align; which to skip (and why); which fail before starting (missing files)."""
    digest = params_digest(params, filters)
    jobs: list[TalkJob] = []
    skipped: list[tuple[str, str]] = []
    failed: list[tuple[str, str]] = []
    for spec in specs:
        try:
            inputs = {str(p): file_digest(p) for p in spec.inputs()}
        except OSError as exc:
            missing = next((p for p in spec.inputs() if not p.exists()), None)
            what = f"{missing}: no such file (manifest line {spec.line})" if missing is not None else str(exc)
            state.records[spec.talk] = TalkRecord(
                talk=spec.talk, status="failed", message=what, split=spec.split, interpreter=spec.interpreter,
                updated=datetime.now(UTC).isoformat(timespec="seconds"),
            )
            failed.append((spec.talk, what))
            continue
        record = state.records.get(spec.talk)
        reviewed = state.reviewed(spec.talk)
        if reviewed and not force:
            # Re-aligning it anyway (force) keeps the review data; the front end says how.
            skipped.append((spec.talk, "reviewed since it was aligned: kept"))
            continue
        exists = state.project_path(spec.talk).exists()
        if (
            not force and record is not None and record.status == "done" and exists
            and record.inputs == inputs and record.params == digest
        ):
            skipped.append((spec.talk, "unchanged"))
            continue
        jobs.append(TalkJob(spec, str(state.folder), params.to_dict(), tuple(filters), inputs, digest,
                            carry_from_existing=exists))
    return jobs, skipped, failed


def _run_local(jobs: list[TalkJob], workers: int) -> Iterator[TalkOutcome]:
    if workers <= 1:
        for job in jobs:
            yield run_talk_job(job)
        return
    import concurrent.futures as cf
    import multiprocessing

    from sialign.core.machine import usable_cores

    threads = max(1, usable_cores() // workers)
    context = multiprocessing.get_context("spawn")  # no inherited threads or Qt state
    me = os.getpid()
    with cf.ProcessPoolExecutor(workers, mp_context=context, initializer=_worker_init, initargs=(threads, me)) as pool:
        futures = [pool.submit(run_talk_job, dataclasses.replace(job, parent_pid=me)) for job in jobs]
        try:
            for future in cf.as_completed(futures):
                yield future.result()
        except BaseException:
            for future in futures:
                future.cancel()
            raise


def _run_dask(jobs: list[TalkJob], address: str) -> Iterator[TalkOutcome]:
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        if getattr(sys, "frozen", False):  # the installers leave Dask out (packaging/sialign.spec)
            raise SialignError(
                "a Dask cluster: this installation has no Dask — run the talks in processes on this machine, or install "
                "SI Aligner with pip and its cluster extra (pip install 'sialign[cluster]') where the cluster runs",
                settings=("dask", "jobs"),
            ) from None
        raise SialignError(
            "a Dask cluster needs Dask distributed: pip install 'sialign[cluster]' (or dask[distributed])", settings=("dask",)
        ) from None
    cluster = None
    if address == "local" or address.startswith("local:"):
        count = int(address.split(":", 1)[1]) if ":" in address else 2
        if count < 1:
            raise SialignError(f"Dask cluster {address}: the number of local workers must be at least 1", settings=("dask",))
        from sialign.core.machine import usable_cores

        cluster = LocalCluster(
            # No dashboard: dashboard_address=None still opens Dask's HTTP
            # server on port 8787 (and warns when that port is taken). Port 0
            # takes any free port, on this machine only.
            n_workers=count, threads_per_worker=1, processes=True, dashboard_address="127.0.0.1:0",
            scheduler_kwargs={"dashboard": False},
            env={"SIALIGN_ENCODER_THREADS": str(max(1, usable_cores() // count))},
        )
        client = Client(cluster)
    else:
        try:
            client = Client(address, timeout="20s")
        except OSError as exc:
            raise SialignError(f"Dask cluster {address}: no Dask scheduler answers there ({exc})", settings=("dask",)) from None
    # The processes of a LocalCluster are this process's children: they end
    # with it. A remote cluster's workers belong to whoever started them.
    parent = os.getpid() if cluster is not None else None
    try:
        futures = [client.submit(run_talk_job, dataclasses.replace(job, parent_pid=parent), pure=False,
                                 key=f"sialign-{job.spec.talk}") for job in jobs]
        try:
            for future in as_completed(futures):
                yield future.result()
        except BaseException:
            client.cancel(futures)
            raise
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def align_corpus(
    manifest: str | Path,
    out_dir: str | Path,
    params: AlignParams | None = None,
    *,
    filters: Sequence[str] = (),
    jobs: int = 1,
    dask: str | None = None,
    force: bool = False,
    progress: ProgressHook | None = None,
    should_stop: StopFn | None = None,
) -> CorpusReport:
    """Align every talk of ``manifest`` into ``out_dir`` (see the module docstring).

    Args:
        manifest: the TSV/CSV listing the talks.
        out_dir: the corpus folder (created when missing).
        params: alignment parameters (defaults: :class:`AlignParams`).
        filters: fine-grained filters to apply after aligning (``intra``, ``inter``).
        jobs: worker processes on this machine (1: this process).
        dask: ``"local:N"`` or a scheduler address; overrides ``jobs``.
        force: re-align unchanged and reviewed talks too (review data is carried).
        progress: called after each talk with (finished, total, talk, status line).
        should_stop: checked after each talk; True stops the run like Ctrl+C
            (talks finished so far are kept; the next run resumes).

    Returns:
        The report; ``interrupted`` when Ctrl+C stopped it (the state is saved).
    """
    started = time.perf_counter()
    params = params or AlignParams()
    from sialign.workflows.filtering import check_filter_names

    check_filter_names(filters)
    # Every path is absolute before it travels: a worker (a Dask one in
    # another folder, or on another machine) resolves nothing against its own
    # current folder.
    specs = read_manifest(Path(manifest).absolute())
    # The manifest is the user's list: the projects made from it may name its files (wherever they are).
    remember_chosen(p for spec in specs for p in (*spec.inputs(), spec.source_audio, spec.target_audio))
    state = CorpusState(Path(os.path.abspath(out_dir)))
    state.manifest = str(Path(manifest).resolve())
    todo, skipped, failed_early = _plan(specs, state, params, filters, force)
    report = CorpusReport(skipped=list(skipped), failed=list(failed_early))
    for talk, why in skipped:
        record = state.records.setdefault(talk, TalkRecord(talk=talk))
        if why != "unchanged":
            record.message = why
    state.save()
    total = len(specs)
    finished = 0
    for talk, why in skipped:
        finished += 1
        if progress is not None:
            progress(finished, total, talk, f"skipped ({why.split(':')[0]})")
    for talk, why in failed_early:
        finished += 1
        if progress is not None:
            progress(finished, total, talk, f"FAILED: {why}")
    # Nothing to do starts no worker processes and no cluster (a resumed run
    # with everything done costs only the digests).
    if not todo:
        runner: Iterator[TalkOutcome] = iter(())
    elif dask:
        runner = _run_dask(todo, dask)
    else:
        runner = _run_local(todo, min(max(1, int(jobs)), len(todo)))
    try:
        for outcome in runner:
            state.records[outcome.talk] = outcome.record
            state.save()
            finished += 1
            if outcome.ok:
                report.done.append(outcome.talk)
                line = f"done in {outcome.record.seconds:.1f} s"
            else:
                report.failed.append((outcome.talk, outcome.message))
                line = f"FAILED: {outcome.message}"
            if progress is not None:
                progress(finished, total, outcome.talk, line)
            if should_stop is not None and should_stop():
                report.interrupted = True
                break
    except KeyboardInterrupt:
        report.interrupted = True
        state.save()
    report.seconds = round(time.perf_counter() - started, 3)
    return report


def corpus_status(folder: str | Path) -> list[dict[str, Any]]:
    """One row per talk of a corpus folder: status, figures, reviewed or not, failure message."""
    state = CorpusState(folder)
    if not state.path.exists():
        raise InputError(Path(folder), f"no {STATE_FILE} here", hint="align a corpus into it first: sialign corpus align MANIFEST -o FOLDER")
    rows = []
    for talk, record in sorted(state.records.items()):
        rows.append({
            "talk": talk, "status": record.status, "reviewed": state.reviewed(talk), "split": record.split,
            "interpreter": record.interpreter, "message": record.message, "seconds": record.seconds, **record.summary,
        })
    return rows
