"""Take the screenshots of word links in the bead panel, on the example talk.

Run under a real X server, once per screen size:

    xvfb-run -a -s "-screen 0 1280x800x24" sh -c 'openbox & sleep 1; .venv/bin/python tests/gui/make_links_screenshots.py'
    xvfb-run -a -s "-screen 0 1920x1080x24" sh -c 'openbox & sleep 1; .venv/bin/python tests/gui/make_links_screenshots.py'

Writes ``resources/screenshots/bead-links-WxH.png`` (W×H: the screen): the
main window as the app opens on that screen, the example aligned, its word
links drawn in the background, a partly rendered bead selected with the bead
panel's *Word links* tab open and one source word chosen.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_screenshots import OUT, _save, _settle, _wait, open_window


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=OUT, help="folder for the PNG file")
    args = parser.parse_args(argv)
    from sialign.core.word_links import links_of
    from sialign.gui.app import load_example_project

    app, window = open_window()
    window.session.set_project(load_example_project(), modified=True)
    window.align()
    _wait(app, window.runner)
    service = window.word_links
    service.update_now()
    _wait(app, service.runner)
    _settle(app)
    project = window.session.project
    beads = project.alignment.beads
    shares = [(k, links_of(project, b)) for k, b in enumerate(beads)]
    partly = [(k, bl) for k, bl in shares if bl is not None and bl.rendered_share is not None and 0.3 <= bl.rendered_share < 0.9
              and 8 <= len(bl.src_tokens) <= 20]
    chosen, links = partly[len(partly) // 2] if partly else next((k, bl) for k, bl in shares if bl is not None)
    window.session.select_bead(chosen)
    window.table.scrollTo(window.proxy.index(window.proxy.proxy_row_of(chosen), 0))
    window.inspector.tabs.setCurrentIndex(1)
    linked_words = sorted({i for i, _ in links.links if i in links.content})
    window.inspector.links_view.choose("src", linked_words[len(linked_words) // 2] if linked_words else 0)
    window.inspector.links_view.setFocus()
    _settle(app, 800)
    screen = app.primaryScreen().size()
    args.out.mkdir(parents=True, exist_ok=True)
    _save(window.grab(), args.out, f"bead-links-{screen.width()}x{screen.height()}.png")
    word = window.inspector.links_view.current()
    print(f"bead {chosen + 1}: rendered {links.rendered_share:.0%}, word {word}, "
          f"{len(links.links)} links; window {window.width()}×{window.height()}")
    window.session.mark_saved()
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
