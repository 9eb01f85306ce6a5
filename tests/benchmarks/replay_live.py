"""Run the live chunker and aligner again on the recognition of a recorded live session, with other settings.

A real-time run of ``bench_practice.py --trace TRACE.json`` records what each
live update was given: how many words were committed by then (with their
times), the recognition frontier, the last pause and the recording clock. The
recogniser is the slow and noisy part (each run recognises differently);
replaying its output makes the live alignment's own choices comparable on one
and the same recognition, in seconds:

    .venv/bin/python tests/benchmarks/replay_live.py tests/benchmarks/out/trace.json \\
        --revise-window 20 10 6 --lag-window 10 6

For each combination it prints the final beads' latency (median, p90), the
latency when each final bead was first shown, the span accuracy of the live
alignment (``../shared/tools/spanacc.py``), and, as a ceiling, the span
accuracy of the offline aligner on the same committed words
(``--offline``: chunked as the live chunker does at the end, aligned once).
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "desktop"))
sys.path.insert(0, str(REPO / "tests" / "benchmarks"))

from bench_practice import EXAMPLES, _spanacc, _stats, first_final_latencies  # noqa: E402


def replay(trace: dict[str, Any], *, revise_window: float, lag_window: float, embedder: Any, source: Any,
           first_only: bool = False) -> tuple[Any, Any]:
    """(the live aligner after the replay, its LiveResult) with these windows."""
    from sialign.booth.live import LiveAligner, LiveResult
    from sialign.transcribe.recognise import Word

    words = [Word(t, s, e) for t, s, e in trace["words"]]

    class _Silent:
        def transcribe(self, samples: Any, prompt: str) -> Any:  # pragma: no cover - never called
            raise RuntimeError("replay only")

    live = LiveAligner(source, tgt_lang="ja", model=None, transcriber=_Silent(), embedder=embedder,
                       lag_window_s=lag_window, revise_window_s=revise_window)
    live.aligner.prepare()
    live.chunker.prepare()
    state = SimpleNamespace(committed=[], paused_at=None, committed_until_s=0.0, audio_end_s=0.0)
    live.recogniser = state  # type: ignore[assignment]
    for step in trace["updates"]:
        state.committed = words[: step["words"]]
        state.paused_at = step["paused_at"]
        state.committed_until_s = state.audio_end_s = step["frontier"]
        now = step["now"]
        live.recording_now = lambda now=now: now  # type: ignore[method-assign]
        live._update(final=step["final"])
    result = LiveResult(words=words, target=live.target, beads=list(live.beads), events=list(live.events), model="")
    return live, result


def offline(trace: dict[str, Any], source: Any, embedder: Any, work: Path, talk: Path) -> str:
    """Span accuracy of the committed words chunked once and aligned offline (``sialign align``'s pipeline)."""
    from sialign.booth.incremental import LiveChunker
    from sialign.core.params import AlignParams
    from sialign.transcribe.recognise import Word
    from sialign.workflows.aligning import compute_alignment
    from sialign.workflows.outputs import export
    from sialign.workflows.talks import talk_from_documents

    words = [Word(t, s, e) for t, s, e in trace["words"]]
    chunker = LiveChunker("ja")
    chunker.prepare()
    target, _ = chunker.update(words, final=True)
    project = talk_from_documents(source, target, source_path=source.path or "", target_path="")
    project.alignment = compute_alignment(project, AlignParams()).alignment
    path = work / "offline.sialign"
    export(project, path)
    return _spanacc(path, talk)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("trace", type=Path)
    parser.add_argument("--revise-window", type=float, nargs="+", default=[20.0])
    parser.add_argument("--lag-window", type=float, nargs="+", default=[10.0])
    parser.add_argument("--pending-ramp", type=float, nargs="+", default=[None],
                        help="seconds over which a waiting sentence's cost grows (incremental.PENDING_RAMP_S)")
    parser.add_argument("--offline", action="store_true", help="also align the committed words once, offline")
    parser.add_argument("--out", type=Path, help="write the rows as JSON here")
    args = parser.parse_args()

    from sialign.embed.choice import choose_embedder
    from sialign.embed.models import load_embedder
    from sialign.workflows.outputs import export
    from sialign.workflows.practice import live_project, practice_source

    trace = json.loads(args.trace.read_text(encoding="utf-8"))
    talk = Path(trace.get("talk") or EXAMPLES)
    source, src_audio = practice_source(talk / "talk.en.srt", src_lang="en", src_audio=talk / "talk.en.ogg")
    embedder = load_embedder(choose_embedder("auto", "en", "ja").spec)
    rows = []
    with tempfile.TemporaryDirectory(prefix="replay-live-") as tmp:
        work = Path(tmp)
        if args.offline:
            print(f"offline, same words: {offline(trace, source, embedder, work, talk)}")
        import sialign.booth.incremental as incremental

        shipped_ramp = incremental.PENDING_RAMP_S
        for revise, lag, ramp in itertools.product(args.revise_window, args.lag_window, args.pending_ramp):
            incremental.PENDING_RAMP_S = shipped_ramp if ramp is None else ramp
            began = time.perf_counter()
            _live, result = replay(trace, revise_window=revise, lag_window=lag, embedder=embedder, source=source)
            path = work / f"live-{revise}-{lag}.sialign"
            export(live_project(source, result, recording=Path(trace["rendition"]), src_audio=src_audio), path)
            row = {"revise_window": revise, "lag_window": lag, "pending_ramp": incremental.PENDING_RAMP_S, "final": _stats(result.latencies()),
                   "first_final": _stats(first_final_latencies(result)), "events": len(result.events),
                   "span": _spanacc(path, talk), "seconds": round(time.perf_counter() - began, 1)}
            rows.append(row)
            print(f"revise {revise:5.1f} lag {lag:5.1f} ramp {incremental.PENDING_RAMP_S:4.1f}: final {row['final']['median']} / {row['final']['p90']} s, "
                  f"first final {row['first_final']['median']} / {row['first_final']['p90']} s, "
                  f"{row['events']} events, {row['span']} ({row['seconds']} s)")
    if args.out:
        args.out.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
