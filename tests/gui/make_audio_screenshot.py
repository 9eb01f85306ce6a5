"""Screenshot of the audio panel on the example talk → resources/screenshots/audio_panel.png.

Run under a real X server so fonts and antialiasing match a desktop:

    xvfb-run -a -s "-screen 0 1440x900x24" .venv/bin/python tests/gui/make_audio_screenshot.py

The example talk (resources/examples/: SRT transcripts, espeak-ng audio and the
intended alignment) is opened with its gold beads, one bead is selected so the
link between its source and interpretation spans shows, and the panel is
grabbed once both waveforms are drawn.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "resources" / "examples"
OUT = REPO / "resources" / "screenshots" / "audio_panel.png"


def example_project() -> object:
    from sialign.core.model import Alignment, Bead, Project
    from sialign.evaluate.beads import read_beads
    from sialign.io.readers import read_transcript

    source = read_transcript(EXAMPLES / "talk.en.srt", language="en")
    target = read_transcript(EXAMPLES / "talk.ja.srt", language="ja")
    source.audio_path = str(EXAMPLES / "talk.en.ogg")
    target.audio_path = str(EXAMPLES / "talk.ja.ogg")
    src_ids, tgt_ids = source.ids(), target.ids()
    beads = [Bead(tuple(src_ids[i] for i in s), tuple(tgt_ids[j] for j in t))
             for s, t in read_beads(EXAMPLES / "talk.gold.align")]
    return Project(talk_id="what-bread-taught-me", source=source, target=target,
                   alignment=Alignment(beads, embedder="gold"), metadata={"interpreter": "example"})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--bead", type=int, default=6, help="0-based bead to select")
    parser.add_argument("--window", type=float, nargs=2, default=(18.0, 50.0), metavar=("START", "END"),
                        help="visible time range in seconds")
    args = parser.parse_args(argv)
    os.environ.setdefault("SIALIGN_CACHE_DIR", tempfile.mkdtemp(prefix="sialign-shot-"))
    # A machine without a sound card: ALSA's null device stands in, so the
    # panel shows its normal (playable) state rather than the no-device note.
    alsa_conf = Path(tempfile.gettempdir()) / "sialign-shot-alsa-null.conf"
    if "ALSA_CONFIG_PATH" not in os.environ and Path("/usr/share/alsa/alsa.conf").exists():
        alsa_conf.write_text('</usr/share/alsa/alsa.conf>\npcm.!default { type plug slave.pcm "null" }\n')
        os.environ["ALSA_CONFIG_PATH"] = str(alsa_conf)

    from PySide6.QtWidgets import QApplication

    from sialign.gui.audio.audio_panel import AudioPanel
    from sialign.gui.common.session import ProjectSession

    app = QApplication.instance() or QApplication(sys.argv)
    session = ProjectSession(example_project())  # type: ignore[arg-type]
    panel = AudioPanel(session)
    panel.setWindowTitle("SI Aligner — audio")
    panel.resize(1400, 560)
    panel.splitter.setSizes([1000, 400])
    panel.show()
    panel.wait_for_envelopes(60)
    for _ in range(50):
        app.processEvents()
    if any(panel.envelopes[s] is None for s in ("src", "tgt")):
        print("waveforms did not load:", panel.source_view.message_text(), panel.target_view.message_text(), file=sys.stderr)
        return 1
    session.select_bead(args.bead)
    panel.source_view.setXRange(*args.window, padding=0)
    for _ in range(50):
        app.processEvents()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    image = panel.grab().toImage()
    if not image.save(str(args.out), "PNG", 9):
        print(f"could not write {args.out}", file=sys.stderr)
        return 1
    print(f"{args.out} {args.out.stat().st_size // 1024} KB, bead {args.bead + 1}: {panel.link.label()}")
    print(panel.evs_view.stats_label.text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
