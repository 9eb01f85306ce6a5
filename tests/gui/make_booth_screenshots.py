"""Take the screenshots of a practice-booth session on the example talk (Practice → New session…).

Run under a real X server at 1280×800 (the booth is for trainers' and students' laptops too):

    xvfb-run -a -s "-screen 0 1280x800x24" sh -c 'openbox & sleep 1; .venv/bin/python tests/gui/make_booth_screenshots.py'

Writes to ``resources/screenshots/``:

- ``booth-ready-1280x800.png``: the booth before Start, with a headset whose round trip was calibrated;
- ``booth-recording-1280x800.png``: the booth 1 min 40 s into the talk, the live table grown to there
  (rendered sentences, sentence 12 left out and shown amber, the rest not reached yet), the microphone's level
  and the clock;
- ``booth-after-stop-1280x800.png``: the main window after Stop, the full pass installed as one undoable step
  (Edit → Undo shows the live beads again), with the booth's Report and Compare buttons;
- ``booth-done-1280x800.png``: the booth after Stop;
- ``booth-reviewed-1280x800.png``: the booth after *Review a recorded rendition…* of the example's interpretation.

No sound card and no real-time recognition here: the stream is the tests' fake duplex stream whose
microphone is the example's interpretation track, and the live updates and the full pass are what a
perfect recogniser would give (the interpretation transcript ``talk.ja.srt`` with the gold alignment),
so the pictures show the window, not the recogniser's accuracy.
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from make_screenshots import OUT, _save, _settle, open_window

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"
RECORDING_AT_S = 100.0
LAG_S = 3.2  # how long after the end of its last word a live bead shows


def gold_layout() -> list[tuple[list[int], list[int]]]:
    """(source positions, target positions) of each bead of the example's gold alignment."""
    import ast

    beads = []
    for line in (EXAMPLES / "talk.gold.align").read_text(encoding="utf-8").splitlines():
        src, tgt = line.split(":")
        beads.append((list(ast.literal_eval(src)), list(ast.literal_eval(tgt))))
    return beads


def live_update_at(t: float, source: Any, target: Any, layout: list[tuple[list[int], list[int]]]) -> Any:
    """What the live view shows ``t`` seconds into the session (a perfect recogniser, LAG_S behind the words)."""
    from sialign.booth.live import LiveBead, LiveUpdate
    from sialign.core.model import Document

    src_segs, tgt_segs = source.segments, target.segments
    beads, shown = [], []
    for i, (src, tgt) in enumerate(layout):
        src_ids = tuple(src_segs[p].id for p in src)
        end = max((tgt_segs[j].end or 0.0 for j in tgt), default=math.nan)
        src_end = max((src_segs[p].end or 0.0 for p in src), default=0.0)
        if tgt and end + LAG_S <= t:
            beads.append(LiveBead(i, src_ids, tuple(tgt_segs[j].id for j in tgt), end + LAG_S, LAG_S + 0.1 * (i % 5), "rendered"))
            shown.extend(tgt)
        elif not tgt and src_end + 8.0 <= t:
            beads.append(LiveBead(i, src_ids, (), src_end + 8.0, math.nan, "unrendered"))
        else:
            beads.append(LiveBead(i, src_ids, (), math.nan, math.nan, "pending"))
    doc = Document(language="ja", segments=[tgt_segs[j] for j in sorted(shown)])
    return LiveUpdate(beads, doc, t - LAG_S, [i for i, b in enumerate(beads) if b.state != "pending"][-2:])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=OUT, help="folder for the PNG files")
    args = parser.parse_args(argv)

    import os

    import numpy as np

    os.environ["SIALIGN_DATA_DIR"] = tempfile.mkdtemp(prefix="sialign-booth-data-")  # the calibration shown is this one's
    from audio_fakes import FakeDuplexFactory
    from booth_fakes import FakeLiveFactory, fake_whisper_folder
    from sialign.booth import headset_latency
    from sialign.booth.recorder import AudioDevice, BoothDevices, BoothRecorder, read_mono
    from sialign.core.model import Alignment, Bead, Project
    from sialign.gui.app import load_example_project
    from sialign.io.project_file import save_project

    app, window = open_window()
    scratch = Path(tempfile.mkdtemp(prefix="sialign-booth-shots-"))
    example = load_example_project()
    layout = gold_layout()
    target = example.target
    talk = Project(talk_id="talk", source=example.source, target=example.target.__class__(language="ja"),
                   metadata={"speaker": "example"})
    talk.source.audio_path = str(EXAMPLES / "talk.en.ogg")
    talk.path = str(scratch / "talk.sialign")
    save_project(talk, talk.path)
    window.files.open_path(talk.path, ask_save=False)
    _settle(app)

    rate = 16000
    interpretation = read_mono(EXAMPLES / "talk.ja.ogg", rate)
    streams = FakeDuplexFactory(latency=(0.012, 0.024),
                                microphone=lambda first, n: np.resize(interpretation[first : first + n], n))
    live = FakeLiveFactory()
    model = fake_whisper_folder(scratch / "whisper-base", ("en", "ja"))

    def recorder(source: Path | None, out: Path, **kwargs: Any) -> BoothRecorder:
        return BoothRecorder(source, out, stream_factory=streams, samplerate=rate, output_channels=2, **kwargs)

    def full_pass(source: Any, recording: Path, *, tgt_lang: str, model: Path, live: Any, src_audio: Any,
                  progress: Any = None, should_stop: Any = None) -> Project:
        from sialign.core.model import MACHINE_TRANSCRIPT_KEYS
        from sialign.workflows.practice import live_summary

        doc = target.__class__(language=tgt_lang, segments=list(target.segments), audio_path=str(recording), format="whisper")
        ids_s, ids_t = source.ids(), doc.ids()
        beads = [Bead(tuple(ids_s[p] for p in s), tuple(ids_t[j] for j in t)) for s, t in layout]
        return Project(talk_id="talk", source=source, target=doc, alignment=Alignment(beads=beads, embedder="usem3"),
                       metadata={MACHINE_TRANSCRIPT_KEYS["tgt"]: "machine transcript, not corrected", "speech_model": str(model),
                                 "practice": {"recording": str(recording), "live": live_summary(live, source)}})

    headset = BoothDevices(inputs=[AudioDevice(4, "USB Headset: Audio (hw:2,0)", "ALSA", 1, 48000.0, 0.008, 0.03, True)],
                           outputs=[AudioDevice(4, "USB Headset: Audio (hw:2,0)", "ALSA", 2, 48000.0, 0.012, 0.04, True)])
    headset_latency.keep(headset_latency.Calibration("USB Headset: Audio (hw:2,0)", "USB Headset: Audio (hw:2,0)", 48000, 0.142,
                                             0.020, 6, 6, 0.001, "2026-12-07T19:40:00"))
    window.practice.booth_options = {"recorder_factory": recorder, "live_factory": live, "practice_fn": full_pass,
                                     "models_fn": lambda: ([("whisper-base", model)], "whisper-base"),
                                     "devices_fn": lambda: headset}
    booth = window.practice.new_session()
    booth.setGeometry(app.primaryScreen().availableGeometry())
    _settle(app, 400)
    args.out.mkdir(parents=True, exist_ok=True)
    _save(booth.grab(), args.out, "booth-ready-1280x800.png")
    print(f"ready: round trip {booth.latency_label.text()}")
    booth.start()
    while booth.state == "preparing":  # the session is prepared, then started
        _settle(app, 100)
    stream = streams.streams[0]
    aligner = live.made[0]
    for k in range(int(RECORDING_AT_S * 10)):
        stream.pump(rate // 10)
        if k % 50 == 49:
            aligner.push(live_update_at((k + 1) / 10, talk.source, target, layout))
            app.processEvents()
    _settle(app, 400)
    booth._tick()
    _settle(app, 300)
    _save(booth.grab(), args.out, "booth-recording-1280x800.png")
    print(f"recording: {booth.elapsed.text()}, {booth.live_summary.text()}")

    for _ in range(10):  # a last second, then Stop
        stream.pump(rate // 10)
    aligner.push(live_update_at(RECORDING_AT_S + 1, talk.source, target, layout))
    booth.stop()
    while booth.state == "finishing":  # the live pass ends, then the full pass runs (two workers)
        _settle(app, 200)
    window.raise_()
    window.activateWindow()
    _settle(app, 800)
    _save(window.grab(), args.out, "booth-after-stop-1280x800.png")
    print(f"after stop: {booth.status.text()} | undo: {window.session.undo_stack.undoText()}")
    _save(booth.grab(), args.out, "booth-done-1280x800.png")
    window.session.mark_saved()
    booth.review_recording(str(EXAMPLES / "talk.ja.ogg"))
    while booth.state == "reviewing":
        _settle(app, 200)
    _settle(app, 400)
    _save(booth.grab(), args.out, "booth-reviewed-1280x800.png")
    print(f"reviewed: {booth.status.text()} | {booth.live_summary.text()}")
    window.session.mark_saved()
    booth.close()
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
