"""Benchmark: opening and editing a 5,000-bead timed talk in the audio panel and in the main window.

    .venv/bin/python tests/benchmarks/bench_gui.py [--beads 5000] [--repeat 3] [--no-window]

A synthetic talk (one-to-one beads, times on both sides, no audio files) is
opened, one bead selected, then a script of edits applied through the
session and undone, as a reviewer would. For each edit we measure the CPU
time the process spends from ``session.apply`` through the following
200 ms of event loop (the views' deferred redraws and paints included; an
idle event loop costs ~0) and, with a 5 ms QTimer heartbeat running, the
longest gap between heartbeats: the longest time the window could not react
(the design rule is ~50 ms). Opening is measured the same way. Three set-ups:

1. ``audio_panel``: the waveform views and the lag plot alone;
2. ``main_window``: the whole window (table, matrix, bead panel, audio dock,
   lag dock);
3. ``matrix_zoom``: in the whole window, mouse-wheel notches on the
   alignment matrix (in, then out), uncoloured (no similarity yet) and
   coloured (a random similarity grid): wall time from the wheel event to
   the repainted matrix (the target is under 0.3 s per notch).

Writes ``tests/benchmarks/out/gui_report.json`` and prints it. Runs under
``QT_QPA_PLATFORM=offscreen`` unless a display is set.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "tests" / "benchmarks" / "out" / "gui_report.json"


def big_timed_project(n: int) -> Any:
    from sialign.core.model import Alignment, Bead, Document, Project

    source = Document.from_texts([f"Sentence number {i} about topic {i % 17}." for i in range(n)], "en",
                                 [(2.0 * i, 2.0 * i + 1.5) for i in range(n)])
    target = Document.from_texts([f"文 {i} 番、話題 {i % 17}。" for i in range(n)], "ja",
                                 [(2.0 * i + 1.0 + 0.2 * (i % 8), 2.0 * i + 2.5) for i in range(n)])
    return Project(talk_id="big", source=source, target=target,
                   alignment=Alignment([Bead((i,), (i,), cost=(i % 100) / 100) for i in range(n)]))


def edit_script(n: int) -> list[tuple[str, Any]]:
    """(name, edit) pairs a reviewer makes around the middle of the talk."""
    from sialign.core import edits
    from sialign.core.model import BeadStatus

    mid = n // 2
    return [
        ("confirm", edits.SetStatus((mid,), BeadStatus.CONFIRMED)),
        ("label", edits.SetLabels(mid, True, None)),
        ("segment times", edits.SetSegmentTimes("tgt", mid, 2.0 * mid + 1.1, 2.0 * mid + 2.4)),
        ("merge beads", edits.MergeBeads(mid)),
        ("split segment", edits.SplitSegment("src", mid + 10, 4)),
        ("post-edit", edits.SetPostEdit(mid, "訂正した訳")),
    ]


class Heartbeat:
    """A 5 ms timer on the GUI thread; the longest gap between its ticks is the longest freeze."""

    def __init__(self) -> None:
        from PySide6.QtCore import QTimer

        self.timer = QTimer()
        self.timer.setInterval(5)
        self.timer.timeout.connect(self._tick)
        self.last = 0.0
        self.longest = 0.0

    def _tick(self) -> None:
        now = time.perf_counter()
        self.longest = max(self.longest, now - self.last)
        self.last = now

    def start(self) -> None:
        self.last = time.perf_counter()
        self.longest = 0.0
        self.timer.start()

    def stop(self) -> float:
        self.timer.stop()
        return self.longest


def idle(app: Any, ms: int = 200) -> None:
    """Run the event loop for ``ms`` without spinning (the views' deferred redraws and paints happen here)."""
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def measure(app: Any, make_view: Callable[[Any], Any], n: int, repeat: int) -> dict[str, Any]:
    from sialign.gui.common.session import ProjectSession

    session = ProjectSession()
    view = make_view(session)
    view.resize(1440, 900)
    view.show()
    idle(app, 100)
    beat = Heartbeat()
    opens, open_gaps = [], []
    colouring: list[float] = []
    per_edit: dict[str, list[float]] = {}
    gaps: dict[str, list[float]] = {}
    for _ in range(repeat):
        project = big_timed_project(n)
        beat.start()
        t0 = time.process_time()
        opened_at = time.perf_counter()
        session.set_project(project)
        idle(app, 400)
        opens.append(time.process_time() - t0)
        open_gaps.append(beat.stop())
        colours = getattr(view, "colours", None)
        if colours is not None:
            # The main window colours the matrix in the background after
            # opening (once per project): edits are measured after it.
            while colours.busy:
                idle(app, 50)
            colouring.append(time.perf_counter() - opened_at)
        session.select_bead(n // 2)
        idle(app)
        for name, edit in edit_script(n):
            beat.start()
            t0 = time.process_time()
            if not session.apply(edit):
                raise SystemExit(f"edit refused: {name}")
            idle(app)
            per_edit.setdefault(name, []).append(time.process_time() - t0)
            gaps.setdefault(name, []).append(beat.stop())
        beat.start()
        t0 = time.process_time()
        while session.undo_stack.canUndo():
            session.undo_stack.undo()
        idle(app)
        per_edit.setdefault("undo all", []).append(time.process_time() - t0)
        gaps.setdefault("undo all", []).append(beat.stop())
    view.close()
    edits_ms = {k: round(1000 * statistics.median(v), 1) for k, v in per_edit.items()}
    return {
        "open_cpu_s": round(statistics.median(opens), 3),
        # The first opening encodes every sentence; later ones of the same texts read the vector cache.
        **({"matrix_colours_after_open_s": {"first": round(colouring[0], 2),
                                            "again_median": round(statistics.median(colouring[1:] or colouring), 2)}}
           if colouring else {}),
        "open_longest_freeze_ms": round(1000 * statistics.median(open_gaps), 1),
        "edit_cpu_ms": edits_ms,
        "edit_cpu_ms_max": max(v for k, v in edits_ms.items() if k != "undo all"),
        "edit_longest_freeze_ms": {k: round(1000 * statistics.median(v), 1) for k, v in gaps.items()},
    }


def measure_zoom(app: Any, n: int, notches: int = 4) -> dict[str, Any]:
    """Seconds per mouse-wheel notch on the matrix of an ``n``-bead talk, uncoloured and coloured."""
    import numpy as np
    from PySide6.QtCore import QPoint, QPointF, Qt
    from PySide6.QtGui import QWheelEvent

    from sialign.align.result import SimilarityGrid
    from sialign.gui.main.main_window import MainWindow

    window = MainWindow()
    window.resize(1440, 900)
    window.show()
    window.session.set_project(big_timed_project(n))
    idle(app, 300)
    out: dict[str, Any] = {}
    for label in ("uncoloured", "coloured"):
        project = window.session.project
        grid = None
        if label == "coloured":
            rng = np.random.default_rng(0)
            grid = SimilarityGrid(rng.random((n, n), dtype=np.float32), project.source.ids(), project.target.ids())
        window.matrix.set_project(project, grid)
        idle(app, 200)
        viewport = window.matrix.graphics.viewport()
        centre = QPointF(viewport.width() / 2, viewport.height() / 2)
        times = []
        for k in range(2 * notches):
            delta = 120 if k < notches else -120
            event = QWheelEvent(centre, QPointF(viewport.mapToGlobal(centre.toPoint())), QPoint(0, 0), QPoint(0, delta),
                                Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase,
                                False)
            t0 = time.perf_counter()
            app.sendEvent(viewport, event)
            app.processEvents()
            viewport.repaint()
            app.processEvents()
            times.append(time.perf_counter() - t0)
        out[label] = {"median_s": round(statistics.median(times), 3), "max_s": round(max(times), 3)}
    window.session.mark_saved()
    window.close()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--beads", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement (medians are reported)")
    parser.add_argument("--no-window", action="store_true", help="measure the audio panel only")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    if not os.environ.get("DISPLAY"):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    scratch = Path(tempfile.mkdtemp(prefix="sialign-bench-gui-"))
    os.environ["SIALIGN_AUTOSAVE_DIR"] = str(scratch / "autosave")
    os.environ["SIALIGN_CACHE_DIR"] = str(scratch / "cache")

    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication, QMessageBox

    app = QApplication.instance() or QApplication(sys.argv[:1])
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(scratch / "settings"))
    from sialign.audio.player import Player
    from sialign.core.errors import AudioUnavailable
    from sialign.gui.audio.audio_panel import AudioPanel

    def no_device() -> Any:
        raise AudioUnavailable("benchmark: no output device")

    report: dict[str, Any] = {
        "beads": args.beads,
        "repeat": args.repeat,
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                    "load_1min": round(os.getloadavg()[0], 2)},
    }
    report["audio_panel"] = measure(app, lambda s: AudioPanel(s, player=Player(output_factory=no_device)),
                                    args.beads, args.repeat)
    print("audio panel:", json.dumps(report["audio_panel"]), flush=True)
    if not args.no_window:
        from sialign.gui.main.main_window import MainWindow

        # Closing a modified window asks first: the benchmark discards.
        QMessageBox.question = lambda *a, **k: QMessageBox.StandardButton.Discard  # type: ignore[method-assign]
        report["main_window"] = measure(app, lambda s: MainWindow(s), args.beads, args.repeat)
        print("main window:", json.dumps(report["main_window"]), flush=True)
        report["matrix_zoom"] = measure_zoom(app, args.beads)
        print("matrix zoom per wheel notch:", json.dumps(report["matrix_zoom"]), flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
