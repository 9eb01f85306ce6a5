"""How long the booth's window cannot react while a session records and recognises: the engine in the app's process
against the engine in its own worker process (run on demand, not by pytest).

    .venv/bin/python tests/benchmarks/bench_booth_stall.py [--seconds 60] [--busy 1] [--modes threads,process]
        [--repeat 1] [--report tests/benchmarks/RESULTS_practice.md]

In the real app window (offscreen), *Practice → New session…* is given the
example talk as *A source recording…* (``talk.en.ogg`` with ``talk.en.srt``,
copied to a scratch folder, where the session's files go), Japanese, and the
multilingual Whisper base model the tests use (``tests/whisper_models.py``);
Start is given the first ``--seconds`` of the interpretation
(``talk.ja.ogg``), fed at real time as if it came from the microphone
(``BoothWindow.start(rendition=...)``): the live recogniser and aligner run as
in a session. Then Stop, and the full pass lands in the main window.

Each mode is one run: ``threads`` is the engine on threads of the app's process
(``in_process=True``: what the booth did before), ``process`` the engine in the
session's worker process (the booth's way now), ``idle`` the same window with no
session for as long (what the machine's load alone does to the beats).
``--busy N`` starts N busy-loop processes for the whole run (the load of
another program on the other core).

A 10-ms QTimer on the GUI thread beats throughout (as ``tests/gui/heartbeat.py``
does); the gaps between beats are the time the window could not react:

1. recording: from Start until the rendition has been fed (model loading included);
2. finishing: from Stop until the full pass has landed, without the two moments
   the main window installs a project (the live one, then the full pass: the
   main window's own work, as when a project is opened; timed apart).

For each phase: the longest gap, the 99th percentile, the median and the gaps
over 100 ms; for the longest, how much of it the GUI thread spent running
(little: it was waiting, for the interpreter lock or for a CPU) and how much
garbage collection ran in the app's process meanwhile. The main window's background models (doubt, matrix colours) are
held off, as in the booth's GUI test: their effect is measured in their own tests.
Writes ``tests/benchmarks/out/booth_stall.json``; ``--report`` appends a section.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "desktop"))
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "tests" / "gui"))
EXAMPLES = REPO / "resources" / "examples"
OUT = REPO / "tests" / "benchmarks" / "out" / "booth_stall.json"
BEAT_MS = 10
LONG_S = 0.1


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _figures(gaps: list[float]) -> dict[str, Any]:
    from sialign.workflows.practice import percentile

    if not gaps:
        return {"beats": 0}
    return {"beats": len(gaps) + 1, "longest_ms": round(max(gaps) * 1000, 1),
            "p99_ms": round(percentile(gaps, 99) * 1000, 1), "median_ms": round(statistics.median(gaps) * 1000, 1),
            "over_100ms": sum(g > LONG_S for g in gaps)}


def _wait(app: Any, done: Any, timeout_s: float) -> bool:
    """Run the event loop (never spinning the GUI thread) until ``done()`` or the timeout."""
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    check = QTimer()
    check.setInterval(20)
    deadline = time.monotonic() + timeout_s
    check.timeout.connect(lambda: loop.quit() if done() or time.monotonic() > deadline else None)
    check.start()
    loop.exec()
    check.stop()
    return bool(done())


def _renice(pid: int | None, nice: int) -> None:
    """Give every thread of process ``pid`` the niceness ``nice`` (Linux: niceness is per thread)."""
    if not pid:
        return
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            if os.getpriority(os.PRIO_PROCESS, int(task.name)) < nice:
                os.setpriority(os.PRIO_PROCESS, int(task.name), nice)
        except (OSError, ValueError):
            pass


def run_mode(app: Any, mode: str, scratch: Path, rendition: Path, model: Path, seconds: float,
             nice_engine: int = 0) -> dict[str, Any]:
    from PySide6.QtCore import QTimer

    from sialign.gui.common.session import ProjectSession
    from sialign.gui.filters.doubt import DoubtService
    from sialign.gui.main.main_window import MainWindow
    from sialign.gui.matrix.similarity_service import SimilarityService

    DoubtService._start = lambda self: None  # type: ignore[method-assign]
    SimilarityService.schedule = lambda self: None  # type: ignore[method-assign]
    window = MainWindow(ProjectSession())
    window.resize(1280, 800)
    window.show()
    practice = window.practice
    installing: list[tuple[float, float]] = []
    for name in ("install_live", "apply_full_pass"):
        real = getattr(practice, name)

        def timed(*args: Any, real: Any = real) -> Any:
            began = time.perf_counter()
            try:
                return real(*args)
            finally:
                installing.append((began, time.perf_counter()))

        setattr(practice, name, timed)
    practice.booth_options = {"in_process": mode == "threads", "models_fn": lambda: ([("whisper-base", model)], "whisper-base")}
    booth = practice.new_session()
    events: list[tuple[float, str]] = []  # when the window handled each of the session's events (not the ticks)
    handle = booth._on_event

    def on_event(event: Any) -> None:
        began = time.perf_counter()
        handle(event)
        if type(event).__name__ not in ("Ticked", "Progressed"):
            events.append((began, f"{type(event).__name__} ({(time.perf_counter() - began) * 1000:.0f} ms)"))

    booth._on_event = on_event  # type: ignore[method-assign]
    booth.talk_kind.setCurrentIndex(2)  # a source recording, with its transcript
    booth.talk_path.setText(str(scratch / "talk.en.ogg"))
    booth.transcript_path.setText(str(scratch / "talk.en.srt"))
    booth.src_lang.setEditText("en")
    booth.tgt_lang.setEditText("ja")
    _wait(app, lambda: False, 1.0)

    beats: list[float] = []
    ran: list[float] = []  # the GUI thread's own CPU time at each beat: a long gap it did not spend running was a wait
    heartbeat = QTimer()
    heartbeat.setInterval(BEAT_MS)

    def beat() -> None:
        beats.append(time.perf_counter())
        ran.append(time.thread_time())

    heartbeat.timeout.connect(beat)
    collecting: list[float] = []
    collections: list[tuple[float, float]] = []  # (start, seconds) of the garbage collector's passes in this process

    def on_gc(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collecting[:] = [time.perf_counter()]
        elif collecting:
            collections.append((collecting[0], time.perf_counter() - collecting[0]))

    gc.callbacks.append(on_gc)
    load_before = _load()
    cpu_before = os.times()
    heartbeat.start()
    t_start = time.perf_counter()
    if mode == "idle":  # the same window and load, no session: what the machine alone does to the beats
        _wait(app, lambda: False, seconds)
        fed, state_at_stop, rendered = True, "recording", 0
        t_stop = t_end = time.perf_counter()
    else:
        booth.start(rendition, speed=1.0)
        renice = QTimer()
        if nice_engine and mode == "process":  # an experiment: the engine's process yields to the window
            renice.timeout.connect(lambda: _renice(getattr(booth.session, "pid", None), nice_engine))
            renice.start(200)
        fed = _wait(app, lambda: booth.state != "preparing" and booth.session is not None
                    and (booth.state != "recording" or booth.session.status().elapsed_s >= seconds - 0.2
                         or "whole rendition has been fed" in booth.status.text()), seconds + 300)
        t_stop = time.perf_counter()
        state_at_stop = booth.state
        rendered = booth.live_model.counts.get("rendered", 0)
        booth.stop()
        _wait(app, lambda: booth.state in ("done", "idle"), 900)
        t_end = time.perf_counter()
    heartbeat.stop()
    gc.callbacks.remove(on_gc)
    cpu = os.times()
    load_after = _load()

    def kept(a: float, b: float) -> list[int]:
        return [k for k in range(len(beats) - 1) if a <= beats[k] and beats[k + 1] <= b
                and not any(beats[k] <= end and beats[k + 1] >= began for began, end in installing)]

    def gaps(a: float, b: float) -> list[float]:
        return [beats[k + 1] - beats[k] for k in kept(a, b)]

    def longest_at(a: float, b: float) -> str:
        """When the longest gap began (seconds into the phase), the event the window had handled last before it,
        how much of it the GUI thread spent running, and the garbage collection within it."""
        indices = kept(a, b)
        if not indices:
            return ""
        k = max(indices, key=lambda i: beats[i + 1] - beats[i])
        x, y = beats[k], beats[k + 1]
        before = [name for t, name in events if t <= y]
        collected = sum(seconds for t, seconds in collections if x <= t <= y)
        return (f"{x - a:.1f} s in, after {before[-1] if before else 'no event'}; the GUI thread ran "
                f"{(ran[k + 1] - ran[k]) * 1000:.0f} ms of it, garbage collection {collected * 1000:.0f} ms")

    def long_collections(a: float, b: float) -> list[float]:
        return [round(seconds * 1000, 1) for t, seconds in collections if a <= t <= b and seconds > 0.02]

    result = {
        "mode": mode, "fed_s": seconds, "nice_engine": nice_engine if mode == "process" else 0,
        "ok": fed and state_at_stop == "recording" and (booth.state == "done" or mode == "idle"),
        "state": booth.state, "status": booth.status.text(), "rendered_live": rendered,
        "recording": _figures(gaps(t_start, t_stop)), "finishing": _figures(gaps(t_stop, t_end)),
        "recording_longest_at": longest_at(t_start, t_stop), "finishing_longest_at": longest_at(t_stop, t_end),
        "recording_gc_over_20ms": long_collections(t_start, t_stop),
        "recording_s": round(t_stop - t_start, 1), "finishing_s": round(t_end - t_stop, 1),
        "installing_ms": [round((end - began) * 1000) for began, end in installing],
        "gui_process_cpu_s": round((cpu.user - cpu_before.user) + (cpu.system - cpu_before.system), 1),
        "load_before": load_before, "load_after": load_after,
    }
    window.session.mark_saved()
    booth.close()
    window.close()
    _wait(app, lambda: False, 1.0)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="seconds of the interpretation fed (default 60)")
    parser.add_argument("--busy", type=int, default=1, help="busy-loop processes running meanwhile (default 1)")
    parser.add_argument("--modes", default="idle,threads,process",
                        help="idle (no session: the machine alone), threads (the engine in the app's process), "
                             "process (in its own)")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each mode, alternated")
    parser.add_argument("--nice-engine", type=int, default=0,
                        help="an experiment: renice the session's process to N (Linux), as if it ran at a lower priority")
    parser.add_argument("--report", type=Path, help="append a section with the figures to this Markdown file")
    args = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

    import soundfile as sf

    from sialign.gui.app import make_application
    from whisper_models import multilingual_whisper_folder

    model = multilingual_whisper_folder()
    scratch = Path(tempfile.mkdtemp(prefix="booth-stall-"))
    for name in ("talk.en.ogg", "talk.en.srt"):
        shutil.copy(EXAMPLES / name, scratch / name)
    data, rate = sf.read(str(EXAMPLES / "talk.ja.ogg"), dtype="float32")
    rendition = scratch / "rendition.ja.wav"
    sf.write(str(rendition), data[: int(args.seconds * rate)], rate)
    app = make_application([sys.argv[0]])
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.busy)]
    runs: list[dict[str, Any]] = []
    try:
        for _ in range(args.repeat):
            for mode in args.modes.split(","):
                run = run_mode(app, mode, scratch, rendition, model, args.seconds, args.nice_engine)
                print(json.dumps(run, ensure_ascii=False), flush=True)
                runs.append(run)
    finally:
        for process in busy:
            process.kill()
            process.wait()
        shutil.rmtree(scratch, ignore_errors=True)
    command = "QT_QPA_PLATFORM=offscreen .venv/bin/python tests/benchmarks/bench_booth_stall.py " + " ".join(sys.argv[1:])
    report = {"command": command, "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores",
              "busy_loops": args.busy, "seconds": args.seconds, "runs": runs,
              "when": time.strftime("%Y-%m-%d %H:%M")}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
    if args.report:
        with args.report.open("a", encoding="utf-8") as fh:
            fh.write(markdown(report))
    return 0 if all(r["ok"] for r in runs) else 1


def markdown(report: dict[str, Any]) -> str:
    lines = [
        "", f"## {report['when'][:10]}: the GUI thread with the engine in the app's process and in its own process",
        "",
        f"`{report['command']}` ({report['machine']}, shared; {report['busy_loops']} busy-loop process(es) running "
        f"throughout). The first {report['seconds']:.0f} s of `talk.ja.ogg` fed at real time into the booth of the real "
        "app window (offscreen), Whisper base, then Stop and the full pass. Gaps between the beats of a 10-ms QTimer on "
        "the GUI thread; *finishing* leaves out the main window's installing of the two projects (timed apart).",
        "",
        "| engine | load (1/5/15 min) before → after | recording: longest / p99 / median gap | gaps > 100 ms | "
        "finishing: longest / p99 | gaps > 100 ms | installing | GUI process CPU |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for run in report["runs"]:
        rec, fin = run["recording"], run["finishing"]
        name = {"idle": "none (window idle)", "threads": "app's process (threads)"}.get(run["mode"], "own worker process")
        if run.get("nice_engine"):
            name += f" at nice {run['nice_engine']}"
        lines.append(
            f"| {name} | {run['load_before']} → {run['load_after']} | {rec.get('longest_ms')} / {rec.get('p99_ms')} / "
            f"{rec.get('median_ms')} ms | {rec.get('over_100ms')} of {rec.get('beats')} | {fin.get('longest_ms')} / "
            f"{fin.get('p99_ms')} ms | {fin.get('over_100ms')} of {fin.get('beats')} | "
            f"{', '.join(str(ms) for ms in run['installing_ms'])} ms | {run['gui_process_cpu_s']} s |")
    lines += ["", "The longest gap of each run:", ""]
    for run in report["runs"]:
        lines.append(f"- {run['mode']}: recording {run['recording'].get('longest_ms')} ms, {run['recording_longest_at']}"
                     + (f"; finishing {run['finishing'].get('longest_ms')} ms, {run['finishing_longest_at']}"
                        if run["mode"] != "idle" else ""))
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
