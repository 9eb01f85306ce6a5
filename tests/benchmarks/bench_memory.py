"""Peak memory of the CLI on very large inputs (run on demand, not by pytest; heavy: minutes, GBs).

    nice .venv/bin/python tests/benchmarks/bench_memory.py [--folder DIR] [--cap-gb 8] [--skip-100k]
        [--out tests/benchmarks/out/memory_report.json]

Each case runs ``sialign`` in a fresh process under an address-space cap
(``--cap-gb``, so a run that would take the machine down fails instead) and
reports its peak resident memory (``ru_maxrss`` of the child, Linux), wall
time, exit status and the last line it printed:

1. ``sialign info`` on one-line files of 1, 10 and 50 MB (random words; a
   transcript on one line). Target: at most 5.5 × the file, plus the
   interpreter.
2. ``sialign align`` of two 100,000-line documents (the second a shuffle of
   the first), lexical model. Target: a result within a few GB, or a clean
   one-line refusal before anything large is allocated.
3. ``sialign align`` of 100,000 lines against 95 of them, lexical model.
   Target: a few GB at most, and a result of 0 written beads says why.

The inputs are generated (seeded) in ``--folder`` (a temporary folder by
default) and kept there when given.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
DESKTOP = REPO / "desktop"


def _words(rng: random.Random) -> list[str]:
    return [f"w{i}" for i in range(5000)] + ["river", "water", "bread", "talk", "today"]


def make_inputs(folder: Path) -> dict[str, Path]:
    """The one-line files and the 100,000-line documents (made once per folder)."""
    rng = random.Random(5)
    words = _words(rng)
    paths: dict[str, Path] = {}
    for mb in (1, 10, 50):
        path = folder / f"line{mb}.txt"
        if not path.exists():
            target = mb * 1000 * 1000
            parts: list[str] = []
            total = 0
            while total < target:
                w = rng.choice(words)
                parts.append(w)
                total += len(w) + 1
            path.write_text(" ".join(parts)[: target - 1] + "\n", encoding="utf-8")
        paths[f"line{mb}"] = path
    big, shuffled, small = folder / "big.txt", folder / "big2.txt", folder / "small95.txt"
    if not (big.exists() and shuffled.exists() and small.exists()):
        lines = [" ".join(rng.choice(words) for _ in range(rng.randint(5, 15))) + "." for _ in range(100_000)]
        big.write_text("\n".join(lines) + "\n", encoding="utf-8")
        rng.shuffle(lines)
        shuffled.write_text("\n".join(lines) + "\n", encoding="utf-8")
        small.write_text("\n".join(lines[:95]) + "\n", encoding="utf-8")
    paths.update(big=big, big2=shuffled, small95=small)
    return paths


def run_case(argv: list[str], cap_bytes: int, cwd: Path) -> dict[str, object]:
    """One CLI run in a fresh, capped process: peak RSS (MB), seconds, exit status, last output line."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (cap_bytes, cap_bytes))

    env = dict(os.environ, PYTHONPATH=str(DESKTOP), SIALIGN_CACHE_DIR=str(cwd / "cache"))
    log = cwd / "run.log"
    started = time.perf_counter()
    with open(log, "wb") as out:
        # The child reports its own VmHWM: getrusage of a child counts the
        # parent's resident memory at fork (the generated inputs) as well.
        child = subprocess.run([sys.executable, "-c", _PEAK_OF_CLI, *argv], cwd=cwd, env=env, preexec_fn=limit,
                               stdout=out, stderr=subprocess.STDOUT)
    seconds = time.perf_counter() - started
    lines = [line for line in log.read_text(encoding="utf-8", errors="replace").splitlines() if line.strip()]
    peaks = [line for line in lines if line.startswith("PEAK_KB ")]
    lines = [line for line in lines if not line.startswith(("PEAK_KB ", "EXIT "))]
    exits = [line for line in log.read_text(encoding="utf-8", errors="replace").splitlines() if line.startswith("EXIT ")]
    return {
        "argv": " ".join(argv), "exit": int(exits[-1].split()[1]) if exits else child.returncode,
        "seconds": round(seconds, 1), "peak_rss_mb": round(int(peaks[-1].split()[1]) / 1024, 1) if peaks else None,
        "last_line": lines[-1] if lines else "",
    }


_PEAK_OF_CLI = """
import runpy, sys
sys.argv = ["sialign"] + sys.argv[1:]
code = 0
try:
    runpy.run_module("sialign", run_name="__main__")
except SystemExit as exc:
    code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
except MemoryError:
    code = 137
sys.stdout.flush()
sys.stderr.flush()
with open("/proc/self/status") as fh:
    print("PEAK_KB", next(line for line in fh if line.startswith("VmHWM")).split()[1])
print("EXIT", code)
sys.exit(code)
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--folder", type=Path, help="where the inputs are generated (kept); a temporary folder by default")
    parser.add_argument("--cap-gb", type=float, default=8.0, help="address-space cap per run, GB")
    parser.add_argument("--skip-100k", action="store_true", help="only the one-line files (the 100,000-line runs take minutes)")
    parser.add_argument("--only-100k", action="store_true", help="only the 100,000-line runs")
    parser.add_argument("--out", type=Path, default=HERE / "out" / "memory_report.json")
    args = parser.parse_args()
    folder = args.folder or Path(tempfile.mkdtemp(prefix="sialign-bench-memory-"))
    folder.mkdir(parents=True, exist_ok=True)
    paths = make_inputs(folder)
    cap = int(args.cap_gb * 1e9)
    cases: list[tuple[str, list[str], float]] = [
        (f"info, one line of {mb} MB", ["info", str(paths[f"line{mb}"])], paths[f"line{mb}"].stat().st_size / 1e6)
        for mb in (1, 10, 50)
    ] if not args.only_100k else []
    if not args.skip_100k:
        cases += [
            ("align 100k x 95 lines, lexical", ["align", str(paths["big"]), str(paths["small95"]), "--model", "lexical",
                                                 "-o", str(folder / "o95.tsv")], paths["big"].stat().st_size / 1e6),
            ("align 100k x 100k lines, lexical", ["align", str(paths["big"]), str(paths["big2"]), "--model", "lexical",
                                                   "-o", str(folder / "o100k.tsv")], 2 * paths["big"].stat().st_size / 1e6),
        ]
    load = os.getloadavg()
    results = []
    print(f"load average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; cap {args.cap_gb:g} GB per run")
    print("| case | input MB | peak RSS MB | × input | seconds | exit | last line |\n|---|---|---|---|---|---|---|")
    for name, argv, size_mb in cases:
        result = run_case(argv, cap, folder)
        result.update(case=name, input_mb=round(size_mb, 1))
        results.append(result)
        ratio = float(result["peak_rss_mb"]) / max(size_mb, 1e-9)  # type: ignore[arg-type]
        print(f"| {name} | {size_mb:.1f} | {result['peak_rss_mb']} | {ratio:.1f} | {result['seconds']} | {result['exit']} | "
              f"{str(result['last_line'])[:160]} |", flush=True)
    end = os.getloadavg()
    print(f"load average at end: {end[0]:.2f} {end[1]:.2f} {end[2]:.2f}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"load_start": load, "load_end": end, "cap_gb": args.cap_gb, "results": results},
                                   indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
