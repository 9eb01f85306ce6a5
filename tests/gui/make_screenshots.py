"""Take the README's screenshots of the desktop app on the example talk.

Run under a real X server so fonts and styles are the ones users see:

    xvfb-run -a -s "-screen 0 1280x800x24" sh -c 'openbox & sleep 1; .venv/bin/python tests/gui/make_screenshots.py --out resources/screenshots/1280x800'

Writes ``resources/screenshots/main_window.png`` (the whole window with the
example aligned and filtered, a flagged bead selected),
``matrix_zoomed.png`` (the alignment matrix zoomed around that bead),
``evs_dock.png`` (the interpreter-lag tab beside it) and
``table_flags.png`` (the segment table showing the beads one check failed on),
``shortcuts.png`` (Help → Keyboard shortcuts…) and ``new_talk.png`` (File →
New talk… with the example's transcripts chosen). The window opens as the
app opens it on this screen: its default size, or maximised on a smaller
screen (with compact table rows).
Settings and autosaves go to a temporary folder, never the user's.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "resources" / "screenshots"
MAX_BYTES = 400_000


def _wait(app, runner, timeout_ms: int = 600_000) -> None:
    from PySide6.QtCore import QEventLoop, QTimer

    if not runner.busy:
        return
    loop = QEventLoop()
    runner.finished.connect(loop.quit)
    QTimer.singleShot(timeout_ms, loop.quit)
    loop.exec()
    if runner.busy:
        raise SystemExit("timed out waiting for the worker")


def _settle(app, ms: int = 400) -> None:
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()
    app.processEvents()


def _save(pixmap, out: Path, name: str) -> Path:
    """Save as PNG; if it is over the size limit, reduce the colours (UI shots have few)."""
    path = out / name
    pixmap.save(str(path), "PNG", 9)
    if path.stat().st_size > MAX_BYTES:
        from PySide6.QtCore import Qt
        from PySide6.QtGui import QImage

        image = pixmap.toImage().convertToFormat(QImage.Format.Format_Indexed8, Qt.ImageConversionFlag.ThresholdDither)
        image.save(str(path), "PNG", 9)
    print(f"{path}: {pixmap.width()}×{pixmap.height()}, {path.stat().st_size // 1024} KB")
    return path


def open_window() -> tuple[Any, Any]:
    """The application and a main window as a user first sees it, with settings and autosaves in a scratch folder.

    Audio plays into ALSA's null device (the X server used for screenshots has
    no sound card), so the audio panel shows as on a computer with speakers.
    """
    scratch = Path(tempfile.mkdtemp(prefix="sialign-shots-"))
    os.environ["SIALIGN_AUTOSAVE_DIR"] = str(scratch / "autosave")
    alsa = Path("/usr/share/alsa/alsa.conf")
    if "ALSA_CONFIG_PATH" not in os.environ and alsa.exists():
        conf = scratch / "alsa-null.conf"
        conf.write_text(f'<{alsa}>\npcm.!default {{ type plug slave.pcm "null" }}\n')
        os.environ["ALSA_CONFIG_PATH"] = str(conf)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")

    from PySide6.QtCore import QSettings

    from sialign.gui.app import make_application, preload_engine

    app = make_application(sys.argv[:1])
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(scratch / "settings"))
    preload_engine()
    from sialign.gui.main.main_window import MainWindow

    window = MainWindow()
    window.show()
    _settle(app, 600)
    window.panels.reset_layout()
    _settle(app)
    return app, window


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", default=None,
                        help="window size WxH (default: as the app opens it on this screen — its default size, "
                             "or maximised on a smaller screen)")
    parser.add_argument("--out", type=Path, default=OUT, help="folder for the PNG files")
    args = parser.parse_args(argv)
    out = args.out

    from PySide6.QtCore import Qt

    from sialign.core.model import BeadStatus
    from sialign.gui.app import load_example_project

    app, window = open_window()
    if args.size:
        window.setWindowState(window.windowState() & ~Qt.WindowState.WindowMaximized)
        window.resize(*(int(v) for v in args.size.split("x")))
        _settle(app)
        window.panels.reset_layout()
    _settle(app)

    window.session.set_project(load_example_project(), modified=True)
    window.align()
    _wait(app, window.runner)
    # Filters: score (GiNZA for the Japanese side), then apply the default thresholds.
    window.show_filters()
    window.filter_panel.compute_scores()
    _wait(app, window.runner)
    window.filter_panel.apply()
    _wait(app, window.runner)
    window.filter_dock.hide()
    # A review under way: the first beads confirmed, one labelled.
    from sialign.core.edits import SetLabels, SetStatus

    window.session.apply(SetStatus(tuple(range(6)), BeadStatus.CONFIRMED))
    window.session.apply(SetLabels(0, True, True, "clean"))
    beads = window.session.project.alignment.beads
    # A bead in the middle of the talk with a filter verdict shows the most.
    middle = [i for i in range(len(beads)) if len(beads) // 4 <= i]
    chosen = next(
        (i for i in middle if beads[i].failed_flags),
        next((i for i in middle if beads[i].status is BeadStatus.DROPPED or beads[i].trimmed), middle[0]),
    )
    window.session.select_bead(chosen)
    window.matrix.fit_to_window()
    _settle(app, 800)
    out.mkdir(parents=True, exist_ok=True)
    _save(window.grab(), out, "main_window.png")

    window.matrix.zoom_to_bead(chosen, context=10)
    _settle(app)
    _save(window.matrix_dock.grab(), out, "matrix_zoomed.png")

    # The lag plot shares the matrix's place as a tab.
    window.evs_dock.raise_()
    _settle(app)
    _save(window.evs_dock.grab(), out, "evs_dock.png")
    window.matrix_dock.raise_()

    # One check's own entry: the beads it failed on, dropped ones too (here the two omissions).
    window.table_panel.refresh_flag_filter()
    window.flag_filter.setCurrentIndex(max(window.flag_filter.findData("omission"), window.flag_filter.findData("any")))
    window.table.scrollToTop()
    _settle(app)
    _save(window.table_panel.grab(), out, "table_flags.png")
    window.flag_filter.setCurrentIndex(0)

    # Filters: a tab beside the matrix, the table keeps its width.
    window.show_filters()
    _settle(app)
    _save(window.grab(), out, "filters_open.png")
    window.matrix_dock.raise_()

    # Help → Keyboard shortcuts… (the list every command's key is changed in).
    from sialign.gui.dialogs.shortcuts_dialog import ShortcutsDialog

    shortcuts = ShortcutsDialog(window.shortcuts, window)
    shortcuts.resize(560, 520)
    shortcuts.show()
    _settle(app)
    _save(shortcuts.grab(), out, "shortcuts.png")
    shortcuts.close()

    # File → New talk… with the example's transcripts chosen: each shows its first lines as decoded.
    from sialign.gui.dialogs.new_talk_dialog import NewTalkDialog

    examples = REPO / "resources" / "examples"
    new_talk = NewTalkDialog(window)
    new_talk.source.set_path(str(examples / "talk.en.srt"))
    new_talk.target.set_path(str(examples / "talk.ja.srt"))
    new_talk.show()
    _settle(app)
    _save(new_talk.grab(), out, "new_talk.png")
    new_talk.close()

    # Settings → Alignment… (target units and the kind of target, with what "automatic" makes of this talk).
    from sialign.gui.dialogs.alignment_settings import AlignmentSettingsDialog

    settings = AlignmentSettingsDialog(window.session.project, window)
    settings.show()
    _settle(app)
    _save(settings.grab(), out, "alignment_settings.png")
    settings.close()

    counts = window.session.project.alignment.counts()
    print(
        f"{counts['total']} beads, {counts['flagged']} flagged, {counts['dropped']} dropped, "
        f"{sum(1 for b in beads if b.status is BeadStatus.CONFIRMED)} confirmed; bead {chosen + 1} selected"
    )
    window.session.mark_saved()
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
