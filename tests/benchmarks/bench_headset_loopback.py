"""Where the booth's recording sits on the talk's clock, through a real sound server looped back on itself.

Without a microphone, a headset is simulated by a sound server whose output is
recorded again: PulseAudio with a null sink as the default output and its
monitor as the default input (reached through ALSA's ``pulse`` device). The
booth's recorder plays the example talk there and records the "microphone",
which hears exactly what was played, one round trip later. After the
recorder's correction, the recording should equal the talk on its own clock:
this measures how far apart they are (cross-correlation of the two, in ms),
for each of ``--runs`` sessions, once with the latency the devices report and
once with a round trip measured by the calibration just before.

Set-up (Debian): ``apt-get install pulseaudio libasound2-plugins pulseaudio-utils``, then
``pulseaudio -D --exit-idle-time=-1 -n --load="module-null-sink sink_name=booth" --load=module-native-protocol-unix``,
``pactl set-default-sink booth; pactl set-default-source booth.monitor``.

    .venv/bin/python tests/benchmarks/bench_headset_loopback.py --device pulse --runs 5 --seconds 8
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "desktop"))

from sialign.audio.mono import read_mono  # noqa: E402
from sialign.booth import calibration  # noqa: E402
from sialign.booth.recorder import BoothRecorder  # noqa: E402

TALK = REPO / "resources" / "examples" / "talk.en.ogg"


def offset_ms(recorded: np.ndarray, talk: np.ndarray, rate: int, search_s: float = 0.3) -> float:
    """How much later than the talk the recording is (ms; negative: earlier), by cross-correlation over 2-6 s."""
    a, b = int(2 * rate), int(6 * rate)
    ref = talk[a:b].astype(np.float64)
    lag = int(search_s * rate)
    window = recorded[a - lag : b + lag].astype(np.float64)
    score = np.correlate(window, ref, mode="valid")
    return (int(np.argmax(score)) - lag) / rate * 1000


def session(device: str, seconds: float, round_trip_s: float | None, folder: Path, name: str) -> tuple[float, float, str]:
    """Record ``seconds`` of the talk played through ``device``; (offset in ms, correction used in ms, source)."""
    rec = BoothRecorder(TALK, folder / f"{name}.wav", input_device=device, output_device=device, round_trip_s=round_trip_s)
    rec.prepare()
    rec.start()
    deadline = time.monotonic() + seconds + 5
    while rec.elapsed_s < seconds and time.monotonic() < deadline:
        time.sleep(0.05)
    result = rec.stop()
    rate = result.samplerate
    recorded = read_mono(result.path, rate)
    talk = read_mono(TALK, rate)
    return offset_ms(recorded, talk, rate), result.latency_s * 1000, result.latency_source


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--device", default="pulse", help="the looped-back device (input and output)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--out", type=Path, default=REPO / "tests" / "benchmarks" / "out" / "headset_loopback.json")
    args = parser.parse_args()
    os.environ.setdefault("SIALIGN_DATA_DIR", tempfile.mkdtemp(prefix="sialign-loopback-"))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for run in range(args.runs):
            try:
                cal = calibration.measure(input_device=args.device, output_device=args.device)
                measured: float | None = cal.round_trip_s
                said = cal.summary()
            except calibration.AudioUnavailable as exc:
                measured, said = None, str(exc)
            reported = session(args.device, args.seconds, None, folder, f"reported{run}")
            calibrated = session(args.device, args.seconds, measured, folder, f"calibrated{run}") if measured is not None else None
            rows.append({"run": run, "calibration": said, "round_trip_ms": None if measured is None else measured * 1000,
                         "reported": {"offset_ms": reported[0], "correction_ms": reported[1]},
                         "calibrated": None if calibrated is None else {"offset_ms": calibrated[0], "correction_ms": calibrated[1]}})
            print(f"run {run}: {said}")
            print(f"   reported correction {reported[1]:.1f} ms → recording {reported[0]:+.1f} ms from the talk")
            if calibrated is not None:
                print(f"   calibrated correction {calibrated[1]:.1f} ms → recording {calibrated[0]:+.1f} ms from the talk")
    for kind in ("reported", "calibrated"):
        offsets = [abs(r[kind]["offset_ms"]) for r in rows if r[kind] is not None]
        if offsets:
            print(f"{kind}: |offset| median {statistics.median(offsets):.1f} ms, most {max(offsets):.1f} ms over {len(offsets)} sessions")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"device": args.device, "seconds": args.seconds, "load": os.getloadavg(), "runs": rows},
                                   indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
