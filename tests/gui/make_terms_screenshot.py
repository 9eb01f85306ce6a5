"""Screenshot of Review → Check terms… on the example talk and its glossary.

Run under a real X server so fonts and styles are the ones users see:

    xvfb-run -a -s "-screen 0 1280x800x24" sh -c 'openbox & sleep 1; .venv/bin/python tests/gui/make_terms_screenshot.py'

Aligns the example talk with the default embedder, checks
``resources/examples/talk.glossary.tsv`` (GiNZA and the built-in encoder's
word links), clicks the first occurrence rendered otherwise, and writes
``resources/screenshots/check_terms.png`` (the dialog) and
``resources/screenshots/<W>x<H>/check_terms.png`` (the whole screen: the
window as the app opens it, the dialog over it). Settings and autosaves go
to a temporary folder.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "resources" / "screenshots"
sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_screenshots import _save, _settle, _wait, open_window  # noqa: E402


def main() -> int:
    from sialign.gui.app import load_example_project

    app, window = open_window()
    window.session.set_project(load_example_project(), modified=True)
    window.align()
    _wait(app, window.runner)
    window.terms.ask_glossary = lambda: str(REPO / "resources" / "examples" / "talk.glossary.tsv")
    window.act.check_terms.trigger()
    _wait(app, window.runner)
    _settle(app, 600)
    dialog = window.terms.dialog
    assert dialog is not None
    table = dialog.table
    row = next(r for r in range(table.rowCount()) if table.item(r, 3).text() != "rendered as expected")
    table.setCurrentCell(row, 2)
    geometry = window.frameGeometry()
    dialog.move(geometry.right() - dialog.frameGeometry().width() - 24, geometry.bottom() - dialog.frameGeometry().height() - 24)
    _settle(app, 800)
    _save(dialog.grab(), OUT, "check_terms.png")
    screen = app.primaryScreen()
    size = screen.size()
    folder = OUT / f"{size.width()}x{size.height()}"
    folder.mkdir(parents=True, exist_ok=True)
    _save(screen.grabWindow(0), folder, "check_terms.png")
    print(f"{dialog.summary.text()} Bead {window.session.selected_bead + 1} selected.")
    window.session.mark_saved()
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
