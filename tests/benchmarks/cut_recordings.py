"""What was left out, from the interpreter's recording: the example talk with renditions cut out of the audio.

The booth's full pass, and a talk made from its recordings, align the source transcript with a speech
model's transcript of the interpreter's recording. This cuts the renditions of chosen sentences out of the
recording itself (their chunks' time spans, from the example's timed transcript, are silenced), transcribes
the cut recording with the Whisper base model, and aligns it as the booth's full pass does
(:func:`sialign.workflows.practice.practice_project`), with the omission decision on and off.

The truth: the cut sentences, and the example's two real omissions (sentences 11 and 29). Whisper's
chunks are not the gold's, so only the left-out sentences are scored (omission precision and recall, as
``../shared/tools/metrics.py`` counts them on the source side).

    .venv/bin/python tests/benchmarks/cut_recordings.py [--out tests/benchmarks/RESULTS_cut_recordings.md]

Nothing is fitted here: the decision is the one fitted on cut transcripts (``cv_cut_omissions.py``).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "desktop"))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from cut_renditions import CUT_PATTERNS, EXAMPLE, Gold, choose_cuts  # noqa: E402

MARGIN_S = 0.05  # silence a little around each removed chunk, as a cut in an editor would


def cut_recording(audio: Path, spans: list[tuple[float, float]], out: Path) -> None:
    """``audio`` with ``spans`` (seconds) silenced, written as a WAV."""
    import numpy as np
    import soundfile as sf

    samples, rate = sf.read(str(audio), always_2d=True)
    for start, end in spans:
        a, b = max(0, int((start - MARGIN_S) * rate)), min(len(samples), int((end + MARGIN_S) * rate))
        samples[a:b] = 0.0
    sf.write(str(out), samples.astype(np.float32), rate)


def variants() -> list[tuple[str, set[int], list[tuple[float, float]], set[int]]]:
    """(pattern, cut sentences, silenced spans, sentences left out in truth) for the uncut talk and each cut pattern."""
    from sialign.evaluate.beads import read_beads
    from sialign.io.readers import read_transcript

    src = read_transcript(EXAMPLE / "talk.en.srt")
    tgt = read_transcript(EXAMPLE / "talk.ja.srt")
    gold: Gold = [(tuple(s), tuple(t)) for s, t in read_beads(EXAMPLE / "talk.gold.align")]
    n = len(src)
    by_src = {s[0]: ts for s, ts in gold if len(s) == 1}
    renders = [[tgt.segments[j].text for j in by_src.get(i, ())] for i in range(n)]
    words = [len(s.text.split()) for s in src.segments]
    real = {x for s, t in gold if s and not t for x in s}
    out = []
    for pattern in ("none", *CUT_PATTERNS):
        cut = set() if pattern == "none" else set(choose_cuts(n, pattern, renders, words))
        removed = sorted({t for s, ts in gold if s and any(i in cut for i in s) for t in ts})
        spans = [(float(tgt.segments[j].start or 0.0), float(tgt.segments[j].end or 0.0)) for j in removed]
        truth = real | {i for s, _ in gold if s and any(i2 in cut for i2 in s) for i in s}
        out.append((pattern, cut, spans, truth))
    return out


def left_out(project: Any) -> set[int]:
    """Source positions of the project's 1-0 beads that are omissions (not sentences never reached)."""
    pos = {s.id: i for i, s in enumerate(project.source.segments)}
    return {pos[i] for b in project.alignment.beads if b.omission for i in b.src}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "tests" / "benchmarks" / "RESULTS_cut_recordings.md"))
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args(argv)

    import copy

    from sialign.align import pipeline
    from sialign.io.readers import read_transcript
    from sialign.workflows.aligning import align_params, align_talk
    from sialign.workflows.recordings import talk_from_recordings
    from whisper_models import multilingual_whisper_folder

    model = multilingual_whisper_folder()
    started = time.perf_counter()
    load = os.getloadavg()
    source = read_transcript(EXAMPLE / "talk.en.srt")
    source.audio_path = str(EXAMPLE / "talk.en.ogg")
    decide = pipeline.decide_omissions
    rows = []
    with tempfile.TemporaryDirectory(prefix="sialign-cut-recordings-") as scratch:
        for pattern, cut, spans, truth in variants():
            recording = Path(scratch) / f"talk.ja.{pattern}.wav"
            cut_recording(EXAMPLE / "talk.ja.ogg", spans, recording)
            t0 = time.perf_counter()
            talk = talk_from_recordings(copy.deepcopy(source), recording, src_lang="en", tgt_lang="ja",
                                        source_audio=EXAMPLE / "talk.en.ogg", model=model, talk_id="talk", threads=args.threads)
            heard = time.perf_counter() - t0
            found: dict[str, set[int]] = {}
            for label, decision in (("off", lambda model, shapes, words, units, pivot=False: (list(shapes), {})),
                                    ("on", decide)):
                project = copy.deepcopy(talk.project)
                pipeline.decide_omissions = decision  # type: ignore[assignment]
                try:
                    align_talk(project, align_params(project))
                finally:
                    pipeline.decide_omissions = decide
                found[label] = left_out(project)
            rows.append((pattern, len(cut), len(spans), len(talk.project.target), truth, found, heard))
            print(f"{pattern}: {len(cut)} cut ({len(spans)} chunks silenced), {len(talk.project.target)} Whisper chunks "
                  f"in {heard:.0f} s; truth {sorted(truth)}; off {sorted(found['off'])}; on {sorted(found['on'])}", flush=True)
    elapsed = time.perf_counter() - started

    def pr(hyp: set[int], gold: set[int]) -> tuple[float, float, int, int, int]:
        tp, fp, fn = len(hyp & gold), len(hyp - gold), len(gold - hyp)
        return (tp / (tp + fp) if tp + fp else 0.0), (tp / (tp + fn) if tp + fn else 0.0), tp, fp, fn

    lines = [
        "# What was left out, from the interpreter's recording (the example talk, cut recordings)",
        "",
        f"`tests/benchmarks/cut_recordings.py`: {elapsed:.0f} s, load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at start "
        "(2 cores). The renditions of the cut sentences are silenced in `talk.ja.ogg` (their chunks' spans from "
        "`talk.ja.srt`, ±50 ms); Whisper base transcribes the cut recording; the booth's full pass aligns it with "
        "`talk.en.srt` (`talk_from_recordings` + `align_talk`, the recording settings). Truth: the cut sentences "
        "and the real omissions 11 and 29 (1-based). Omission decision off (the recording settings before) and on.",
        "",
        "| variant | cut | Whisper chunks | truth | off: P / R | **on: P / R** | on: found, false, missed |",
        "|---|---|---|---|---|---|---|",
    ]
    totals = {"off": [0, 0, 0], "on": [0, 0, 0]}
    for pattern, n_cut, _spans, chunks, truth, found, _heard in rows:
        cells = []
        for label in ("off", "on"):
            p, r, tp, fp, fn = pr(found[label], truth)
            totals[label] = [totals[label][0] + tp, totals[label][1] + fp, totals[label][2] + fn]
            cells.append((p, r, tp, fp, fn))
        (p0, r0, *_), (p1, r1, tp, fp, fn) = cells
        lines.append(f"| {pattern} | {n_cut} | {chunks} | {len(truth)} | {p0:.2f} / {r0:.2f} | **{p1:.2f} / {r1:.2f}** | "
                     f"{tp}, {fp} ({', '.join(str(i + 1) for i in sorted(found['on'] - truth)) or '–'}), "
                     f"{fn} ({', '.join(str(i + 1) for i in sorted(truth - found['on'])) or '–'}) |")
    for label in ("off", "on"):
        tp, fp, fn = totals[label]
        p = tp / (tp + fp) if tp + fp else 0.0
        r = tp / (tp + fn) if tp + fn else 0.0
        lines.append(f"| all, decision {label} | | | {tp + fn} | | {p:.2f} / {r:.2f} | {tp}, {fp}, {fn} |")
    Path(args.out).write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
