"""A killed corpus run takes its workers with it: none lives on, nothing more is written into the corpus folder."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from sialign.core import parent_guard

DESKTOP = Path(__file__).resolve().parents[2] / "desktop"

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the process table from /proc")


def _children() -> dict[int, list[int]]:
    """Parent pid -> child pids, from /proc."""
    table: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                fields = fh.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        table.setdefault(int(fields[1]), []).append(int(entry))
    return table


def _descendants(pid: int) -> set[int]:
    table = _children()
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in table.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def _alive(pid: int) -> bool:
    """Running (a zombie waiting to be reaped counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            state = fh.read().rsplit(b")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in (b"Z", b"X")


def _folder_state(folder: Path) -> dict[str, tuple[int, int]]:
    return {p.name: (p.stat().st_size, p.stat().st_mtime_ns) for p in folder.iterdir()} if folder.is_dir() else {}


def _slow_corpus(folder: Path, talks: int, lines: int) -> Path:
    """Talks of distinct random lines (no cached vectors), each taking seconds to align."""
    rng = random.Random(7)
    words = [f"w{i}" for i in range(2000)]
    rows = ["talk\tsource\ttarget"]
    for t in range(talks):
        text = [" ".join(rng.choice(words) for _ in range(rng.randint(4, 12))) + "." for _ in range(lines)]
        (folder / f"s{t}.txt").write_text("\n".join(text) + "\n", encoding="utf-8")
        (folder / f"t{t}.txt").write_text("\n".join(text[lines // 2:] + text[: lines // 2]) + "\n", encoding="utf-8")
        rows.append(f"talk{t}\ts{t}.txt\tt{t}.txt")
    manifest = folder / "manifest.tsv"
    manifest.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return manifest


@linux_only
@pytest.mark.slow
@pytest.mark.parametrize("how", [["--jobs", "2"], ["--dask", "local:2"]], ids=["jobs", "dask-local"])
def test_corpus_workers_end_when_the_run_is_killed(tmp_path: Path, how: list[str]) -> None:
    """kill -9 of `sialign corpus align --jobs 2` while both workers align: within 5 s no worker lives, no file changes."""
    if how[0] == "--dask":
        pytest.importorskip("distributed")
    # Many more talks than workers, so the run outlasts the wait below on a fast machine too
    # (a CI machine aligned four of these talks in under four seconds).
    manifest = _slow_corpus(tmp_path, talks=40, lines=1200)
    out = tmp_path / "corpus"
    env = dict(os.environ, PYTHONPATH=str(DESKTOP), SIALIGN_ENCODER_THREADS="1")
    run = subprocess.Popen(
        [sys.executable, "-m", "sialign", "corpus", "align", str(manifest), "-o", str(out), *how,
         "--model", "lexical", "-q"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    workers: set[int] = set()
    try:
        # Both workers started, loaded and are aligning their first talk.
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and run.poll() is None:
            workers = _descendants(run.pid)
            if len(workers) >= 2:
                break
            time.sleep(0.1)
        assert run.poll() is None and len(workers) >= 2, "the run did not start its workers"
        time.sleep(2.0)
        workers |= _descendants(run.pid)
        assert run.poll() is None, "the run ended before it could be killed: make the talks longer"
        os.kill(run.pid, signal.SIGKILL)
        run.wait(10)
        killed_at = time.monotonic()
        time.sleep(0.3)
        before = _folder_state(out)
        while time.monotonic() < killed_at + 5 and any(_alive(p) for p in workers):
            time.sleep(0.1)
        living = sorted(p for p in workers if _alive(p))
        assert not living, f"processes of the killed run still alive 5 s later: {living}"
        time.sleep(2.0)
        assert _folder_state(out) == before, "the corpus folder changed after the run was killed"
    finally:
        for pid in workers | _descendants(run.pid):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if run.poll() is None:
            run.kill()
            run.wait(10)


def test_parent_guard_sees_a_process_end(tmp_path: Path) -> None:
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        assert not parent_guard.parent_gone(child.pid)
    finally:
        child.kill()
        child.wait(10)
    assert parent_guard.parent_gone(child.pid)
    assert not parent_guard.parent_gone(os.getpid()) and not parent_guard.parent_gone(None)


@linux_only
def test_parent_guard_ends_a_worker_whose_parent_dies(tmp_path: Path) -> None:
    """A grandchild guarded on its parent ends when that parent is killed (the kernel's signal, or the watchdog)."""
    pid_file = tmp_path / "worker.pid"
    worker_script = tmp_path / "worker.py"
    worker_script.write_text(
        f"import os, sys, time\nsys.path.insert(0, {str(DESKTOP)!r})\n"
        "from sialign.core.parent_guard import exit_with_parent\n"
        f"exit_with_parent(os.getppid())\nopen({str(pid_file)!r}, 'w').write(str(os.getpid()))\ntime.sleep(60)\n",
        encoding="utf-8",
    )
    code = f"import subprocess, sys\nsubprocess.Popen([sys.executable, {str(worker_script)!r}]).wait()\n"
    parent = subprocess.Popen([sys.executable, "-c", code], start_new_session=True)
    worker = 0
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not (pid_file.exists() and pid_file.read_text()):
            time.sleep(0.05)
        worker = int(pid_file.read_text())
        assert _alive(worker)
        parent.kill()
        parent.wait(10)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and _alive(worker):
            time.sleep(0.05)
        assert not _alive(worker)
    finally:
        if worker and _alive(worker):
            os.kill(worker, signal.SIGKILL)
        if parent.poll() is None:
            parent.kill()
            parent.wait(10)


def test_parent_guard_watchdog_thread_alone_ends_the_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the kernel cannot help (macOS, Windows, a pid that is not the parent), the watchdog thread ends the worker."""
    ended = threading.Event()
    monkeypatch.setattr(parent_guard, "POLL_SECONDS", 0.05)
    monkeypatch.setattr(parent_guard, "_watched", None)
    monkeypatch.setattr(parent_guard.os, "_exit", lambda code: ended.set())
    monkeypatch.setattr(parent_guard, "_kill_me_with_parent", lambda: None)
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        parent_guard.exit_with_parent(child.pid)
        assert not ended.wait(0.3)
    finally:
        child.kill()
        child.wait(10)
    assert ended.wait(5)
