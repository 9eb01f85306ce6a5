"""Readers at the size limit and encoding detection (run on demand, not by pytest).

    .venv/bin/python tests/benchmarks/bench_io.py [--size-mb 49] [--out tests/benchmarks/out/io_report.json]

Measures:

1. Peak memory of :func:`sialign.io.readers.read_transcript` for every
   reader on a file just under the 50 MB limit, each in a fresh process:
   ordinary files of each format, and the hostile shapes of issue 12 (one
   49 MB quoted TextGrid string, 47 MB of short CR-separated lines, 47 MB of
   one-cell TSV rows, a deep EAF reference chain). Peak = the process's
   maximum resident memory minus its resident memory just before reading
   (the interpreter and imports), from /proc/self/status (Linux). Target: at most 10 × the file size.
2. Encoding detection on the generated 65-sample set
   (``tests/io/encoding_samples.py``): the count now and, when git can show
   it, the count of the detector before issue 12 (commit afdfae4).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
DESKTOP = REPO / "desktop"
BEFORE_COMMIT = "afdfae4"

# Two sentences per segment (about 270 bytes in UTF-8): a 49 MB file then
# holds about 180,000 segments, below the readers' 300,000-segment bound;
# the hostile shapes below test that bound and the line bound.
JA_LINE = "えー、今日は皆さんに、パンの焼き方についてお話ししたいと思います。それでは始めましょう。" * 2
EN_LINE = "Good morning everyone, today I would like to talk to you about how bread is baked, so let us begin. " * 2


def _fill(size: int, piece: Callable[[int], str]) -> str:
    parts: list[str] = []
    total = 0
    k = 0
    while total < size:
        p = piece(k)
        parts.append(p)
        total += len(p.encode("utf-8"))
        k += 1
    return "".join(parts)


def _clock(seconds: float, sep: str) -> str:
    ms = int(round(seconds * 1000))
    return f"{ms // 3_600_000:02d}:{ms // 60_000 % 60:02d}:{ms // 1000 % 60:02d}{sep}{ms % 1000:03d}"


def make_files(folder: Path, size: int) -> dict[str, Path]:
    """Files of every format (and the hostile shapes) of about ``size`` bytes."""
    files: dict[str, str] = {}
    files["txt"] = _fill(size, lambda k: f"{k} {JA_LINE}\n")
    files["tsv"] = "start\tend\ttext\n" + _fill(size, lambda k: f"{k}.0\t{k}.5\t{JA_LINE}\n")
    files["srt"] = _fill(size, lambda k: f"{k + 1}\n{_clock(k, ',')} --> {_clock(k + 0.5, ',')}\n{JA_LINE}\n\n")
    files["vtt"] = "WEBVTT\n\n" + _fill(size, lambda k: f"{_clock(k, '.')} --> {_clock(k + 0.5, '.')}\n<v Speaker>{EN_LINE}\n\n")
    head = 'File type = "ooTextFile"\nObject class = "TextGrid"\n\nxmin = 0\nxmax = 1e6\ntiers? <exists>\nsize = 1\nitem []:\n'
    body = _fill(size, lambda k: f'        intervals [{k + 1}]:\n            xmin = {k}\n            xmax = {k + 1}\n            text = "{JA_LINE}"\n')
    n = body.count("intervals [")
    files["textgrid"] = head + f'    item [1]:\n        class = "IntervalTier"\n        name = "t"\n        xmin = 0\n        xmax = {n}\n        intervals: size = {n}\n' + body
    slots = []
    annotations = []
    total = 300
    k = 0
    while total < size:
        slots.append(f'<TIME_SLOT TIME_SLOT_ID="ts{2 * k}" TIME_VALUE="{k * 1000}"/><TIME_SLOT TIME_SLOT_ID="ts{2 * k + 1}" TIME_VALUE="{k * 1000 + 500}"/>\n')
        annotations.append(
            f'<ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="a{k}" TIME_SLOT_REF1="ts{2 * k}" TIME_SLOT_REF2="ts{2 * k + 1}">'
            f"<ANNOTATION_VALUE>{JA_LINE}</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION>\n"
        )
        total += len(slots[-1].encode()) + len(annotations[-1].encode())
        k += 1
    files["eaf"] = (
        '<?xml version="1.0" encoding="UTF-8"?>\n<ANNOTATION_DOCUMENT FORMAT="3.0" VERSION="3.0">\n<HEADER TIME_UNITS="milliseconds"/>\n<TIME_ORDER>\n'
        + "".join(slots)
        + '</TIME_ORDER>\n<TIER TIER_ID="t" LINGUISTIC_TYPE_REF="lt">\n'
        + "".join(annotations)
        + "</TIER>\n</ANNOTATION_DOCUMENT>\n"
    )
    # Hostile shapes of issue 12.
    long_string = "ab" * (size // 2 - 200)
    files["hostile-textgrid-one-string"] = head + (
        '    item [1]:\n        class = "IntervalTier"\n        name = "t"\n        xmin = 0\n        xmax = 1\n'
        f'        intervals: size = 1\n        intervals [1]:\n            xmin = 0\n            xmax = 1\n            text = "{long_string}"\n'
    )
    files["hostile-txt-short-cr-lines"] = "a\r" * (size // 2)
    files["hostile-tsv-one-cell-rows"] = "x\n" * (size // 2)
    files["hostile-srt-tiny-captions"] = _fill(size, lambda k: f"{_clock(k, ',')} --> {_clock(k, ',')}\nx\n\n")
    paths = {}
    ext = {"txt": ".txt", "tsv": ".tsv", "srt": ".srt", "vtt": ".vtt", "textgrid": ".TextGrid", "eaf": ".eaf"}
    for name, text in files.items():
        kind = name.split("-")[1] if name.startswith("hostile") else name
        path = folder / f"{name}{ext[kind]}"
        path.write_text(text, encoding="utf-8")
        paths[name] = path
    return paths


_CHILD = r"""
import json, sys, time
from sialign.io.readers import read_transcript
from sialign.core.errors import InputError
def status_kb(key):
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0
before = status_kb("VmRSS")
t0 = time.perf_counter()
try:
    doc = read_transcript(sys.argv[1], strict=False)
    outcome = f"{len(doc)} segments"
except InputError as exc:
    outcome = "refused: " + str(exc).split(": ", 1)[-1][:120]
wall = time.perf_counter() - t0
# VmHWM, not ru_maxrss: ru_maxrss keeps the parent's peak across fork+exec.
peak = status_kb("VmHWM")
print(json.dumps({"before_kb": before, "peak_kb": peak, "wall_s": wall, "outcome": outcome}))
"""


def measure(path: Path) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": str(DESKTOP)}
    done = subprocess.run([sys.executable, "-c", _CHILD, str(path)], capture_output=True, text=True, env=env, timeout=900)
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit {done.returncode}"}
    result = json.loads(done.stdout)
    size = path.stat().st_size
    extra = (result["peak_kb"] - result["before_kb"]) * 1024
    return {
        "file_mb": round(size / 2**20, 1),
        "peak_over_baseline_mb": round(extra / 2**20, 1),
        "ratio": round(extra / size, 2),
        "wall_s": round(result["wall_s"], 2),
        "outcome": result["outcome"],
        "meets_10x": extra <= 10 * size,
    }


def encoding_counts() -> dict[str, object]:
    sys.path.insert(0, str(REPO / "tests" / "io"))
    sys.path.insert(0, str(DESKTOP))
    from encoding_samples import score

    from sialign.io.encoding import decode_bytes

    now, wrong_now = score(lambda d: decode_bytes(d).text)
    report: dict[str, object] = {"samples": 65, "right_now": now, "wrong_now": wrong_now}
    try:
        old_source = subprocess.run(
            ["git", "-C", str(REPO), "show", f"{BEFORE_COMMIT}:desktop/sialign/io/encoding.py"], capture_output=True, text=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return report
    import types

    module = types.ModuleType("old_encoding")
    sys.modules["old_encoding"] = module  # dataclasses look their module up
    exec(compile(old_source, "old_encoding.py", "exec"), module.__dict__)
    before, wrong_before = score(lambda d: module.decode_bytes(d).text)
    report.update({"right_before": before, "wrong_before": wrong_before, "before_commit": BEFORE_COMMIT})
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=float, default=49.0, help="size of each generated file")
    parser.add_argument("--out", type=Path, default=HERE / "out" / "io_report.json")
    parser.add_argument("--only", nargs="*", help="reader names to run (txt, tsv, ..., hostile-...)")
    args = parser.parse_args()
    report: dict[str, object] = {"load_average": os.getloadavg()[0], "started": time.strftime("%Y-%m-%d %H:%M:%S")}
    report["encoding"] = encoding_counts()
    print(f"encoding detection: {report['encoding']}", flush=True)
    readers: dict[str, object] = {}
    with tempfile.TemporaryDirectory() as tmp:
        files = make_files(Path(tmp), int(args.size_mb * 2**20))
        for name, path in files.items():
            if args.only and name not in args.only:
                continue
            readers[name] = measure(path)
            print(f"{name:28} {readers[name]}", flush=True)
    report["readers"] = readers
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    ok = all(isinstance(r, dict) and r.get("meets_10x") for r in readers.values())
    print("all readers within 10x the file size" if ok else "SOME READER EXCEEDS 10x THE FILE SIZE")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
