"""Screenshots of the dialogs that must fit a laptop screen: whole-screen grabs at the screen's size.

Run once per screen size under a real X server:

    xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python tests/gui/make_desk_screenshots.py
    xvfb-run -a -s "-screen 0 1920x1080x24" .venv/bin/python tests/gui/make_desk_screenshots.py

Writes ``resources/screenshots/<W>x<H>/``: ``new_talk.png`` (*File → New talk…*
with a source, an interpretation and a reference, so three previews, and the
audio), ``compare_window.png`` (*File → Compare renditions…* on the example
talk's two renditions), ``new_corpus.png`` (*File → New corpus…* on a folder
of talks) and ``corpus_export.png`` (the corpus window of five aligned talks,
one failed, with *Export…* open: the train split's sentence pairs). Each is a grab of the
whole screen, so it shows that the window fits. Name shots (``new_talk
corpus_export``) to take only those. Settings and files go to a temporary
folder.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "resources" / "examples"
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(REPO / "tests" / "review"))
from make_screenshots import _save, _settle, _wait  # noqa: E402


def _talk_folder(folder: Path) -> Path:
    """A folder of talks as a linguist keeps them: language-named files with audio, and one folder per talk."""
    folder.mkdir(parents=True)
    for talk in ("ted_0412", "ted_0977", "eptic_en_017", "eptic_en_018", "water"):
        for name, suffix in (("talk.en.srt", "en.srt"), ("talk.ja.srt", "ja.srt"), ("talk.en.ogg", "en.ogg"),
                             ("talk.ja.ogg", "ja.ogg")):
            shutil.copy(EXAMPLES / name, folder / f"{talk}.{suffix}")
    shutil.copy(EXAMPLES / "talk.ref.ja.txt", folder / "water.ref.ja.txt")
    speech = folder / "speech_03"
    speech.mkdir()
    shutil.copy(EXAMPLES / "talk.en.srt", speech / "src.srt")
    shutil.copy(EXAMPLES / "talk.ja.srt", speech / "tgt.srt")
    return folder


def _corpus(folder: Path) -> Path:
    """A corpus of five talks cut from the example (one that fails to read), aligned and split into train and dev."""
    from sialign.corpus import align_corpus
    from sialign.corpus.outputs import split_corpus

    folder.mkdir(parents=True)
    en = (EXAMPLES / "talk.en.srt").read_text(encoding="utf-8").split("\n\n")
    ja = (EXAMPLES / "talk.ja.srt").read_text(encoding="utf-8").split("\n\n")
    cuts = {"ted_0412": (slice(None), slice(None)), "ted_0977": (slice(0, 12), slice(0, 33)),
            "eptic_en_017": (slice(20, None), slice(55, None)), "eptic_en_018": (slice(6, 24), slice(15, 66))}
    rows = ["talk\tsource\ttarget\tinterpreter"]
    for talk, (src, tgt) in cuts.items():
        (folder / f"{talk}.en.srt").write_text("\n\n".join(en[src]).strip() + "\n", encoding="utf-8")
        (folder / f"{talk}.ja.srt").write_text("\n\n".join(ja[tgt]).strip() + "\n", encoding="utf-8")
        rows.append(f"{talk}\t{talk}.en.srt\t{talk}.ja.srt\t{'A' if talk.startswith('ted') else 'B'}")
    (folder / "water.en.srt").write_bytes(b"\x00\x01 not captions")
    rows.append("water\twater.en.srt\tted_0412.ja.srt\tA")
    (folder / "manifest.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    corpus = folder / "corpus"
    align_corpus(folder / "manifest.tsv", corpus)
    split_corpus(corpus, dev=1, test=0, seed=1)
    return corpus


SHOTS = ("new_talk", "compare_window", "new_corpus", "corpus_export")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("shots", nargs="*", metavar="SHOT", help=f"only these ({', '.join(SHOTS)})")
    shots = set(parser.parse_args(argv).shots or SHOTS)
    if shots - set(SHOTS):
        parser.error(f"no shot {', '.join(sorted(shots - set(SHOTS)))}: choose from {', '.join(SHOTS)}")
    tmp = Path(tempfile.mkdtemp(prefix="sialign-desk-shots-"))
    os.environ["XDG_CONFIG_HOME"] = str(tmp / "config")
    os.environ.setdefault("SIALIGN_CACHE_DIR", str(tmp / "cache"))
    from sialign.gui.app import make_application

    app = make_application(sys.argv[:1])
    from example_renditions import example_rendition

    from sialign.gui.dialogs.corpus_export_dialog import CorpusExportDialog
    from sialign.gui.dialogs.new_corpus_dialog import NewCorpusDialog
    from sialign.gui.dialogs.new_talk_dialog import NewTalkDialog
    from sialign.gui.windows.compare_window import CompareWindow
    from sialign.gui.windows.corpus_window import CorpusWindow

    screen = app.primaryScreen()  # type: ignore[attr-defined]
    size = screen.geometry()
    out = REPO / "resources" / "screenshots" / f"{size.width()}x{size.height()}"
    out.mkdir(parents=True, exist_ok=True)

    if "new_talk" in shots:
        dialog = NewTalkDialog()
        dialog.show()
        for field, name in ((dialog.source, "talk.en.srt"), (dialog.target, "talk.ja.srt"),
                            (dialog.reference, "talk.ref.ja.txt"), (dialog.source_audio, "talk.en.ogg"),
                            (dialog.target_audio, "talk.ja.ogg")):
            field.set_path(str(EXAMPLES / name))
        _settle(app)
        _save(screen.grabWindow(0), out, "new_talk.png")
        dialog.close()

    if "compare_window" in shots:
        window = CompareWindow([example_rendition(1), example_rendition(2)], ["", ""])
        window.show()
        _wait(app, window.runner)
        _settle(app, 600)
        _save(screen.grabWindow(0), out, "compare_window.png")
        window.close()

    if "new_corpus" in shots:
        corpus = NewCorpusDialog()
        corpus.show()
        corpus.set_folder(str(_talk_folder(tmp / "talks")))
        corpus.inter.setChecked(True)
        _settle(app)
        _save(screen.grabWindow(0), out, "new_corpus.png")
        corpus.close()

    if "corpus_export" in shots:
        corpus_window = CorpusWindow(_corpus(tmp / "corpus_talks"))
        corpus_window.show()
        _settle(app)
        export = CorpusExportDialog(corpus_window.folder, corpus_window)
        export.format_box.setCurrentIndex(export.format_box.findData("tsv2"))
        export.split_box.setCurrentText("train")
        export.show()
        _settle(app, 600)
        _save(screen.grabWindow(0), out, "corpus_export.png")
        export.close()
        corpus_window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
