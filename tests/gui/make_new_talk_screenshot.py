"""Take the screenshot of File → New talk… started from the example's two recordings (no transcript).

    xvfb-run -a -s "-screen 0 1280x800x24" sh -c 'openbox & sleep 1; .venv/bin/python tests/gui/make_new_talk_screenshot.py'

Writes ``resources/screenshots/1280x800/new_talk_recordings.png``: the speaker's and the interpreter's
recordings chosen, each with the language the speech model heard in it (the dev extra's Whisper base,
in a worker process, as the app does), and the interpretation's language box set from it.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from make_screenshots import OUT, _save, _settle, open_window

REPO = Path(__file__).resolve().parents[2]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=OUT / "1280x800", help="folder for the PNG file")
    args = parser.parse_args(argv)

    from sialign.gui.dialogs.new_talk_dialog import NewTalkDialog

    app, window = open_window()
    examples = REPO / "resources" / "examples"
    dialog = NewTalkDialog(window)
    heard: list[str] = []
    dialog._language_heard.connect(lambda key, *rest: heard.append(key))
    dialog.show()
    dialog.source_audio.set_path(str(examples / "talk.en.ogg"))
    dialog.target_audio.set_path(str(examples / "talk.ja.ogg"))
    deadline = time.monotonic() + 120
    while len(heard) < 2 and time.monotonic() < deadline:  # each recording's language, heard in a worker process
        _settle(app, 200)
    print(f"heard: {heard}")
    _settle(app, 1500)
    args.out.mkdir(parents=True, exist_ok=True)
    _save(dialog.grab(), args.out, "new_talk_recordings.png")
    dialog.close()
    window.session.mark_saved()
    window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
