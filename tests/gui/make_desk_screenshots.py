"""Screenshots of the dialogs that must fit a laptop screen: whole-screen grabs at the screen's size.

Run once per screen size under a real X server:

    xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python tests/gui/make_desk_screenshots.py
    xvfb-run -a -s "-screen 0 1920x1080x24" .venv/bin/python tests/gui/make_desk_screenshots.py

Writes ``resources/screenshots/<W>x<H>/``: ``new_talk.png`` (*File → New talk…*
with a source, an interpretation and a reference, so three previews, and the
audio), ``compare_window.png`` (*File → Compare renditions…* on the example
talk's two renditions) and ``new_corpus.png`` (*File → New corpus…* on a folder
of talks). Each is a grab of the whole screen, so it shows that the window fits.
Settings and files go to a temporary folder.
"""

from __future__ import annotations

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


def main() -> int:
    tmp = Path(tempfile.mkdtemp(prefix="sialign-desk-shots-"))
    os.environ["XDG_CONFIG_HOME"] = str(tmp / "config")
    os.environ.setdefault("SIALIGN_CACHE_DIR", str(tmp / "cache"))
    from sialign.gui.app import make_application

    app = make_application(sys.argv[:1])
    from example_renditions import example_rendition

    from sialign.gui.dialogs.new_corpus_dialog import NewCorpusDialog
    from sialign.gui.dialogs.new_talk_dialog import NewTalkDialog
    from sialign.gui.windows.compare_window import CompareWindow

    screen = app.primaryScreen()  # type: ignore[attr-defined]
    size = screen.geometry()
    out = REPO / "resources" / "screenshots" / f"{size.width()}x{size.height()}"
    out.mkdir(parents=True, exist_ok=True)

    dialog = NewTalkDialog()
    dialog.show()
    for field, name in ((dialog.source, "talk.en.srt"), (dialog.target, "talk.ja.srt"),
                        (dialog.reference, "talk.ref.ja.txt"), (dialog.source_audio, "talk.en.ogg"),
                        (dialog.target_audio, "talk.ja.ogg")):
        field.set_path(str(EXAMPLES / name))
    _settle(app)
    _save(screen.grabWindow(0), out, "new_talk.png")
    dialog.close()

    window = CompareWindow([example_rendition(1), example_rendition(2)], ["", ""])
    window.show()
    _wait(app, window.runner)
    _settle(app, 600)
    _save(screen.grabWindow(0), out, "compare_window.png")
    window.close()

    corpus = NewCorpusDialog()
    corpus.show()
    corpus.set_folder(str(_talk_folder(tmp / "talks")))
    corpus.inter.setChecked(True)
    _settle(app)
    _save(screen.grabWindow(0), out, "new_corpus.png")
    corpus.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
