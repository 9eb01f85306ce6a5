"""Live alignment of the example talk's interpretation fed at real time (run on demand, not by pytest).

    nice .venv/bin/python tests/benchmarks/bench_practice.py [--model DIR] [--speed 1] [--threads 2] [--beam 1]
        [--seconds S] [--out tests/benchmarks/out/practice.json] [--report tests/benchmarks/RESULTS_practice.md]

The interpretation ``resources/examples/talk.ja.ogg`` (168 s) is fed through the
live engine as if it came from the microphone (``feed_file`` at ``--speed`` ×
real time), against the source ``talk.en.srt`` (times on the shared clock),
with the multilingual Whisper base model (the dev extra's two wheels,
reassembled, unless --model names a folder), int8, ``--threads`` threads:

1. Bead latency: for each bead of the final live alignment with a rendition,
   the recording-clock time at which it was shown as it ended, minus the end
   of its last target word; median and 90th percentile (targets: median ≤ 5 s,
   p90 ≤ 10 s; stretch median ≤ 3.3 s). Also over every showing of a bead with
   a rendition (revisions included).
2. Audio: seconds fed, read by the recogniser, dropped; the passes and their times.
3. CPU use of the process (user + system seconds over wall seconds, in cores),
   the machine's load average before and after (other processes share the cores).
4. Span accuracy (``../shared/tools/spanacc.py``) of the live alignment, of the
   full pass at Stop, and of ``sialign align`` over the two manual transcripts.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
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
EXAMPLES = REPO / "resources" / "examples"
SPANACC = REPO.parent / "shared" / "tools" / "spanacc.py"


def _load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3]) if Path("/proc/loadavg").exists() else "?"


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _spanacc(project: Path, talk: Path = EXAMPLES) -> str:
    if not SPANACC.exists():
        return "(../shared/tools/spanacc.py not present)"
    env = dict(os.environ, PYTHONPATH=str(REPO / "desktop"))
    out = subprocess.run([sys.executable, str(SPANACC), str(talk), str(project)], capture_output=True, text=True, env=env, check=False)
    return (out.stdout.strip() or out.stderr.strip().splitlines()[-1]) if (out.stdout or out.stderr) else "?"


def _stats(values: list[float]) -> dict[str, float | int | None]:
    from sialign.workflows.practice import percentile

    if not values:
        return {"n": 0, "median": None, "p90": None, "max": None}
    return {"n": len(values), "median": round(statistics.median(values), 2), "p90": round(percentile(values, 90), 2),
            "max": round(max(values), 2)}


def _trace_passes(live: Any) -> list[dict[str, Any]]:
    """Record every recognition pass of ``live``: when it ran (wall and recording clock), what it read, what it took.

    faster-whisper's steps are timed by wrapping its methods in this process
    (voice-activity filter, log-Mel features, encoder, decoder, word timestamps).
    """
    import faster_whisper.transcribe as fw

    steps: dict[str, float] = {}

    def timed(owner: Any, name: str, key: str) -> None:
        original = getattr(owner, name)
        if getattr(original, "_traced", False):
            return

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                steps[key] = steps.get(key, 0.0) + time.perf_counter() - t0
                steps[key + "_calls"] = steps.get(key + "_calls", 0) + 1

        wrapper._traced = True  # type: ignore[attr-defined]
        setattr(owner, name, wrapper)

    timed(fw, "get_speech_timestamps", "vad")
    timed(fw.WhisperModel, "encode", "encode")
    timed(fw.WhisperModel, "generate_with_fallback", "decode")
    timed(fw.WhisperModel, "add_word_timestamps", "words")
    passes: list[dict[str, Any]] = []
    rec = live.recogniser
    transcriber = rec.transcriber
    original = transcriber.transcribe
    t0 = time.perf_counter()

    def transcribe(samples: Any, prompt: str) -> Any:
        steps.clear()
        began, arrived = time.perf_counter(), live.recording_now()
        if passes:  # what the previous pass committed, once its update was shown
            passes[-1]["committed"] = len(rec.committed)
        heard = original(samples, prompt)
        ended = time.perf_counter()
        passes.append({
            "wall_start": round(began - t0, 2), "pass_s": round(ended - began, 2),
            "arrived_s": round(arrived, 2), "buffer_from_s": round(rec.audio_end_s - rec.buffer_s, 2),
            "buffer_to_s": round(rec.audio_end_s, 2), "buffer_s": round(rec.buffer_s, 2),
            "backlog_s": round(arrived - rec.audio_end_s, 2), "heard": len(heard.words),
            "committed_before": len(rec.committed), "done_at_s": round(live.recording_now(), 2),
            **{k: round(v, 3) for k, v in steps.items()},
        })
        return heard

    transcriber.transcribe = transcribe
    return passes


def _pass_summary(passes: list[dict[str, Any]], words: list[Any]) -> dict[str, Any]:
    """Means and maxima of the traced passes, and how long after its end each word was committed.

    A word's commit delay is the recording-clock time at the end of the pass
    that committed it minus the word's end (the recogniser's share of a bead's latency).
    """
    out: dict[str, Any] = {"n": len(passes)}
    for key in ("pass_s", "buffer_s", "backlog_s", "vad", "encode", "decode", "words", "encode_calls"):
        values = [float(p.get(key, 0.0)) for p in passes]
        if values:
            out[key] = {"mean": round(statistics.mean(values), 2), "max": round(max(values), 2)}
    delays = []
    for p in passes:
        for word in words[p["committed_before"] : p.get("committed", p["committed_before"])]:
            delays.append(p["done_at_s"] - word.end)
    out["commit_delay_s"] = _stats(delays)
    return out


def first_final_latencies(result: Any) -> list[float]:
    """When each final bead was first shown as it ended (same sentences and chunks): the rest of its latency is
    the live alignment revising it meanwhile (to something else and back)."""
    out = []
    for bead in result.beads:
        if bead.tgt and not math.isnan(bead.latency_s):
            shown = [e["latency_s"] for e in result.events
                     if e["src"] == list(bead.src) and e["tgt"] == list(bead.tgt) and e["latency_s"] is not None]
            out.append(min(shown) if shown else bead.latency_s)
    return out


def _trace_updates(live: Any) -> list[dict[str, Any]]:
    """Record what each live update was given (committed words, the frontier, the pause, the clock), so that
    ``replay_live.py`` can run the live chunker and aligner again on the same recognition."""
    updates: list[dict[str, Any]] = []
    original = live._update

    def update(*, final: bool) -> None:
        rec = live.recogniser
        updates.append({"words": len(rec.committed), "final": final, "paused_at": rec.paused_at,
                        "frontier": rec.audio_end_s if final else rec.committed_until_s, "now": live.recording_now()})
        original(final=final)

    live._update = update
    return updates


def run(model: Path, speed: float, threads: int, beam: int, seconds: float | None, work: Path, *, live_only: bool = False,
        commit_after: float | None = None, pause_commit: bool = True, trace: Path | None = None,
        recogniser: dict[str, float] | None = None, talk: Path = EXAMPLES) -> dict[str, Any]:
    import soundfile as sf

    from sialign.booth.live import LiveAligner
    from sialign.booth.recorder import feed_file
    from sialign.workflows.outputs import export
    from sialign.workflows.practice import live_project, practice_project, practice_source

    rendition = talk / "talk.ja.ogg"
    if seconds:
        data, rate = sf.read(str(rendition), dtype="float32")
        rendition = work / "rendition.wav"
        sf.write(str(rendition), data[: int(seconds * rate)], rate)
    source, src_audio = practice_source(talk / "talk.en.srt", src_lang="en", src_audio=talk / "talk.en.ogg")
    report: dict[str, Any] = {"model": str(model), "speed": speed, "threads": threads, "beam_size": beam,
                              "cores": os.cpu_count(), "load_before": _load()}
    updates = []
    live = LiveAligner(source, tgt_lang="ja", model=model, speed=speed, threads=threads, beam_size=beam,
                       on_update=lambda u: updates.append(time.perf_counter()), pause_commit=pause_commit)
    report["pause_commit"] = pause_commit
    if commit_after is not None:
        live.recogniser.commit_after_s = commit_after if commit_after > 0 else None
    report["commit_after_s"] = live.recogniser.__dict__.get("commit_after_s")
    for name, value in (recogniser or {}).items():  # the streaming recogniser's settings (trim_s, prompt_chars...)
        setattr(live.recogniser, name, type(getattr(live.recogniser, name))(value))
        report[name] = value
    passes = _trace_passes(live)
    traced = _trace_updates(live)
    cpu0, wall0 = _cpu(), time.perf_counter()
    live.start()
    fed = feed_file(rendition, live.feed, speed=speed)
    fed_wall = time.perf_counter() - wall0
    result = live.finish()
    wall = time.perf_counter() - wall0
    cpu = _cpu() - cpu0
    report["load_after_live"] = _load()
    if trace is not None:
        trace.parent.mkdir(parents=True, exist_ok=True)
        trace.write_text(json.dumps({"rendition": str(rendition), "talk": str(talk), "speed": speed, "load": report["load_before"],
                                     "words": [[w.text, w.start, w.end] for w in result.words], "updates": traced},
                                    ensure_ascii=False), encoding="utf-8")
    final = result.latencies()
    first_final = first_final_latencies(result)
    every = [e["latency_s"] for e in result.events if e["tgt"] and e["latency_s"] is not None]
    report["live"] = {
        "audio_fed_s": round(fed, 2), "feed_wall_s": round(fed_wall, 2), "received_s": result.received_s,
        "read_s": result.processed_s, "dropped_s": round(result.received_s - result.processed_s, 3), "gap_s": result.gap_s,
        "finish_wall_s": round(wall - fed_wall, 2), "passes": result.passes, "recognition_s": result.recognition_s,
        "longest_pass_s": result.longest_pass_s, "alignment_s": result.alignment_s, "mean_pass_s": round(result.recognition_s / max(result.passes, 1), 2),
        "cpu_s": round(cpu, 1), "wall_s": round(wall, 1), "cpu_cores": round(cpu / wall, 2), "updates": len(updates),
        "events": len(result.events), "beads": len(result.beads),
        "pause_commits": live.recogniser.stats.pause_commits,
        "rendered": sum(1 for b in result.beads if b.src and b.tgt), "unrendered": sum(1 for b in result.beads if b.state == "unrendered"),
        "unrendered_sentences": [b.src[0] for b in result.beads if b.state == "unrendered"],
        "latency_final_beads": _stats(final), "latency_every_showing": _stats(every),
        "latency_first_final_showing": _stats(first_final),
        "pass_summary": _pass_summary(passes, result.words),
    }
    report["passes"] = passes
    report["events"] = result.events
    live_path = work / "live.sialign"
    export(live_project(source, result, recording=rendition, src_audio=Path(src_audio or "")), live_path)
    report["span_accuracy_live"] = _spanacc(live_path, talk)
    if live_only:
        report["load_after"] = _load()
        report["words"] = "".join(w.text for w in result.words)
        return report
    started = time.perf_counter()
    stop_project = practice_project(source, rendition, tgt_lang="ja", model=model, live=result,
                                    src_audio=Path(src_audio or ""), threads=threads)
    report["full_pass_s"] = round(time.perf_counter() - started, 1)
    stop_path = work / "stop.sialign"
    export(stop_project, stop_path)
    report["span_accuracy_stop"] = _spanacc(stop_path)
    assert stop_project.alignment is not None
    report["stop_unrendered"] = [b.src[0] for b in stop_project.alignment.beads if b.src and not b.tgt]
    manual = work / "manual.sialign"
    from sialign.cli.main import main

    main(["align", str(EXAMPLES / "talk.en.srt"), str(EXAMPLES / "talk.ja.srt"), "-q", "-o", str(manual)])
    report["span_accuracy_manual"] = _spanacc(manual)
    report["load_after"] = _load()
    report["words"] = "".join(w.text for w in result.words)
    return report


def write_report(report: dict[str, Any], path: Path, uptime: str) -> None:
    live = report["live"]
    lat, every, first = live["latency_final_beads"], live["latency_every_showing"], live["latency_first_final_showing"]
    ps = live["pass_summary"]
    delay = ps["commit_delay_s"]

    def step(key: str) -> Any:
        return ps.get(key, {}).get("mean", "?")

    lines = [
        "# Practice booth: live alignment at real time (tests/benchmarks/bench_practice.py)",
        "",
        f"The example talk's interpretation (`talk.ja.ogg`, {live['audio_fed_s']:.0f} s) fed through `LiveAligner` at "
        f"{report['speed']:g}× real time against `talk.en.srt`; Whisper base (multilingual, CTranslate2) int8, "
        f"{report['threads']} threads, beam {report['beam_size']}; the built-in multilingual encoder. Run with `nice`.",
        "",
        f"Machine: {report['cores']} cores shared with other workers; load average {report['load_before']} before, "
        f"{report['load_after_live']} after the live run, {report['load_after']} at the end; `uptime`: {uptime}",
        "",
        "| measure | value | target |",
        "|---|---|---|",
        f"| bead latency, median (final beads, n = {lat['n']}) | {lat['median']} s | ≤ 5 s (stretch ≤ 3.3 s) |",
        f"| bead latency, 90th percentile | {lat['p90']} s | ≤ 10 s |",
        f"| latency over every showing (n = {every['n']}): median / p90 | {every['median']} / {every['p90']} s | |",
        f"| audio fed / read / dropped | {live['received_s']} / {live['read_s']} / {live['dropped_s']} s | none dropped |",
        f"| latency when each final bead was first shown as it ended: median / p90 | {first['median']} / {first['p90']} s | |",
        f"| recogniser passes; mean / longest pass | {live['passes']}; {live['mean_pass_s']} / {live['longest_pass_s']} s | |",
        f"| a pass, mean: voice filter / encoder / decoder / word timestamps | {step('vad')} / {step('encode')} / {step('decode')} / {step('words')} s | |",
        f"| buffer read by a pass, mean / longest | {ps['buffer_s']['mean']} / {ps['buffer_s']['max']} s | |",
        f"| audio waiting when a pass began, mean / most | {ps['backlog_s']['mean']} / {ps['backlog_s']['max']} s | |",
        f"| a word's end to its commit (n = {delay['n']}): median / p90 | {delay['median']} / {delay['p90']} s | |",
        f"| chunking, embedding and aligning after the passes | {live['alignment_s']} s in all | |",
        f"| CPU of the process (live run) | {live['cpu_s']} s over {live['wall_s']} s wall = {live['cpu_cores']} cores | |",
        f"| after the feed ended, until the live result | {live['finish_wall_s']} s | |",
        f"| span accuracy, live alignment | {report['span_accuracy_live']} | |",
        f"| span accuracy, full pass at Stop ({report['full_pass_s']} s) | {report['span_accuracy_stop']} | |",
        f"| span accuracy, manual transcripts (`sialign align`) | {report['span_accuracy_manual']} | |",
        "",
        f"Live: {live['rendered']} beads with a rendition, sentences shown unrendered (0-based): {live['unrendered_sentences']}; "
        f"at Stop, 1-0 beads: {report['stop_unrendered']} (the example leaves out 11 and 29).",
        "",
    ]
    path.write_text("\n".join(lines), encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", type=Path, help="Whisper model folder (default: the dev extra's base model, reassembled)")
    parser.add_argument("--speed", type=float, default=1.0)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--beam", type=int, default=1)
    parser.add_argument("--seconds", type=float, help="only the first S seconds of the rendition")
    parser.add_argument("--out", type=Path, default=REPO / "tests" / "benchmarks" / "out" / "practice.json")
    parser.add_argument("--report", type=Path, help="write a Markdown report here")
    parser.add_argument("--live-only", action="store_true", help="skip the full pass at Stop and the manual alignment")
    parser.add_argument("--commit-after", type=float, help="seconds after which an unagreed word is committed (0: never)")
    parser.add_argument("--no-pause-commit", action="store_true",
                        help="commit only when passes agree, not at the end of a chunk that ended in a pause")
    parser.add_argument("--set", nargs="*", default=[], metavar="NAME=VALUE",
                        help="the streaming recogniser's settings, e.g. trim_s=10 prompt_chars=0 max_buffer_s=20")
    parser.add_argument("--talk-dir", type=Path, default=EXAMPLES,
                        help="a talk in the example's layout (talk.en.srt, talk.ja.ogg, talk.gold.align; spoken_talks.py)")
    parser.add_argument("--trace", type=Path, help="write the live updates' inputs here (for replay_live.py)")
    parser.add_argument("--code", type=Path, help="import sialign from this folder instead (another version's desktop/, to compare)")
    args = parser.parse_args()
    if args.code:
        sys.path.insert(0, str(args.code.resolve()))
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    with tempfile.TemporaryDirectory(prefix="bench-practice-") as tmp:
        work = Path(tmp)
        model = args.model
        if model is None:
            from whisper_models import multilingual_whisper_folder

            model = multilingual_whisper_folder()
        report = run(model, args.speed, args.threads, args.beam, args.seconds, work, live_only=args.live_only,
                     commit_after=args.commit_after, pause_commit=not args.no_pause_commit, trace=args.trace,
                     recogniser={k: float(v) for k, v in (item.split("=", 1) for item in args.set)},
                     talk=args.talk_dir)
    uptime = subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()
    report["uptime"] = uptime
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")
    print(json.dumps({k: v for k, v in report.items() if k not in ("words", "passes", "events")}, ensure_ascii=False, indent=1))
    if args.report and not args.live_only:
        write_report(report, args.report, uptime)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
