"""Benchmark: peak envelopes of a 60-minute 48 kHz stereo recording, and the GUI staying responsive meanwhile.

    .venv/bin/python tests/benchmarks/bench_audio.py [--minutes 60] [--format wav|flac] [--no-gui]

Generates the recording in a temporary folder (speech-like noise, PCM 16-bit),
then measures:

1. ``compute_envelopes`` once, streaming the file: wall time, real-time
   factor, peak Python/numpy memory (tracemalloc) and the growth of the
   process's peak RSS — the point is that memory stays flat however long the
   file is;
2. reading the pyramid back from the disk cache (the second opening of a project);
3. the audio panel opening the recording: envelopes computed on its worker
   thread while a 10 ms QTimer heartbeat runs on the GUI thread; the longest
   gap between heartbeats is how long the window could not react.

Writes ``tests/benchmarks/out/audio_report.json`` and prints it.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import numpy as np
import soundfile as sf

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "tests" / "benchmarks" / "out" / "audio_report.json"
RATE = 48000


def make_recording(path: Path, minutes: float, fmt: str) -> float:
    """Write ``minutes`` of 48 kHz stereo speech-like noise; returns seconds spent."""
    t0 = time.perf_counter()
    rng = np.random.default_rng(0)
    # Ten seconds of material with syllable-rate loudness and pauses, varied per block
    # by a random gain so the envelope is not periodic.
    block_s = 10
    t = np.arange(block_s * RATE) / RATE
    shape = 0.3 * (0.5 + 0.5 * np.abs(np.sin(2 * np.pi * 2.5 * t))) * (np.sin(2 * np.pi * 0.23 * t) > -0.3)
    noise = rng.standard_normal((block_s * RATE, 2)) * shape[:, None]
    noise = noise.clip(-1, 1).astype(np.float32)
    blocks = int(np.ceil(minutes * 60 / block_s))
    subtype = "PCM_16"
    with sf.SoundFile(path, "w", samplerate=RATE, channels=2, subtype=subtype, format=fmt.upper()) as fh:
        for k in range(blocks):
            fh.write(noise * np.float32(0.4 + 0.6 * rng.random()))
    return time.perf_counter() - t0


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def bench_library(path: Path, cache_dir: Path) -> dict[str, object]:
    from sialign.audio.decode import load_audio
    from sialign.audio.envelope import compute_envelopes, load_envelopes

    track = load_audio(path)
    rss_before = peak_rss_mb()
    tracemalloc.start()
    t0 = time.perf_counter()
    pyramid = compute_envelopes(track)
    compute_s = time.perf_counter() - t0
    _, traced_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss_after = peak_rss_mb()
    levels = [{"block_frames": lv.block, "blocks": len(lv)} for lv in pyramid.levels]
    pyramid_bytes = sum(lv.mins.nbytes + lv.maxs.nbytes for lv in pyramid.levels)

    load_envelopes(track, cache_dir=cache_dir)  # fill the cache
    t0 = time.perf_counter()
    load_envelopes(track, cache_dir=cache_dir)
    cached_s = time.perf_counter() - t0

    # What the view asks for when it shows the whole hour 1,400 pixels wide, and 10 s of it.
    t0 = time.perf_counter()
    for _ in range(100):
        pyramid.visible(0.0, track.duration, 1400)
        pyramid.visible(1800.0, 1810.0, 1400)
    visible_ms = (time.perf_counter() - t0) * 1000 / 200
    decoded_mb = track.frames * track.channels * 4 / 2**20
    return {
        "file": {"format": track.format, "subtype": track.subtype, "samplerate": track.samplerate,
                 "channels": track.channels, "duration_s": round(track.duration, 1),
                 "size_mb": round(track.size / 2**20, 1), "decoded_float32_mb": round(decoded_mb, 1)},
        "compute_s": round(compute_s, 2),
        "realtime_factor": round(track.duration / compute_s, 1),
        "peak_traced_mb": round(traced_peak / 2**20, 1),
        "peak_rss_growth_mb": round(rss_after - rss_before, 1),
        "pyramid_mb": round(pyramid_bytes / 2**20, 2),
        "levels": levels,
        "cached_load_s": round(cached_s, 3),
        "visible_query_ms": round(visible_ms, 3),
    }


def bench_gui(path: Path, cache_dir: Path) -> dict[str, object]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QElapsedTimer, QTimer
    from PySide6.QtWidgets import QApplication

    from sialign.audio.player import Player
    from sialign.core.errors import AudioUnavailable
    from sialign.core.model import Document, Project
    from sialign.gui.audio.audio_panel import AudioPanel
    from sialign.gui.common.session import ProjectSession

    def no_device() -> object:
        raise AudioUnavailable("benchmark: no playback")

    app = QApplication.instance() or QApplication(sys.argv)
    source = Document.from_texts(["one hour"], "en", [(0.0, 3600.0)])
    source.audio_path = str(path)
    project = Project(talk_id="bench", source=source, target=Document.from_texts(["x"], "ja", [(1.0, 3599.0)]))
    gaps: list[float] = []
    clock = QElapsedTimer()
    clock.start()
    last = [clock.nsecsElapsed()]

    at: list[float] = []

    def beat() -> None:
        now = clock.nsecsElapsed()
        gaps.append((now - last[0]) / 1e6)
        at.append(time.perf_counter())
        last[0] = now

    # The window is already open (empty project) when the user opens the long recording.
    session = ProjectSession()
    panel = AudioPanel(session, player=Player(output_factory=no_device), cache_dir=cache_dir)
    panel.resize(1400, 500)
    panel.show()
    settle = time.perf_counter()
    while time.perf_counter() - settle < 0.5:
        app.processEvents()
        time.sleep(0.005)
    heartbeat = QTimer()
    heartbeat.setInterval(10)
    heartbeat.timeout.connect(beat)
    heartbeat.start()
    t0 = time.perf_counter()
    last[0] = clock.nsecsElapsed()
    session.set_project(project)
    construct_s = time.perf_counter() - t0
    while panel.envelopes["src"] is None and time.perf_counter() - t0 < 600:
        app.processEvents()
        time.sleep(0.002)
    loaded_s = time.perf_counter() - t0
    # Keep beating a little after the waveform appears: drawing it counts too.
    while time.perf_counter() - t0 < loaded_s + 0.3:
        app.processEvents()
        time.sleep(0.002)
    heartbeat.stop()
    arr = np.array(gaps) if gaps else np.zeros(1)
    # When the long gaps happened, relative to set_project and to the waveform appearing:
    # a gap while the worker runs means it held the GIL; one at the end is the first draw.
    long_gaps = [{"ms": round(g, 1), "at_s": round(a - t0, 2)} for g, a in zip(gaps, at) if g > 50]
    panel.close()
    return {
        "set_project_returned_s": round(construct_s, 3),
        "waveform_shown_after_s": round(loaded_s, 2),
        "heartbeats": int(arr.size),
        "heartbeat_interval_ms": 10,
        "max_gap_ms": round(float(arr.max()), 1),
        "p99_gap_ms": round(float(np.percentile(arr, 99)), 1),
        "median_gap_ms": round(float(np.median(arr)), 1),
        "gaps_over_50ms": long_gaps[:20],
        "loaded": panel.envelopes["src"] is not None,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=60.0)
    parser.add_argument("--format", choices=("wav", "flac"), default="wav")
    parser.add_argument("--no-gui", action="store_true", help="skip the responsiveness run")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="sialign-bench-audio-") as tmp:
        folder = Path(tmp)
        path = folder / f"talk.{args.format}"
        generate_s = make_recording(path, args.minutes, args.format)
        report: dict[str, object] = {
            "benchmark": "audio envelopes",
            "machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                        "load_avg_1min": round(os.getloadavg()[0], 2)},
            "generate_s": round(generate_s, 1),
        }
        report["library"] = bench_library(path, folder / "cache-lib")
        if not args.no_gui:
            # A fresh cache folder, so the panel really computes (not reads) the envelopes.
            report["gui"] = bench_gui(path, folder / "cache-gui")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(report, indent=2))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
