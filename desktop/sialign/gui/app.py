"""``sialign-gui`` — start the desktop application.

    sialign-gui                      an empty window (File → New talk…)
    sialign-gui talk.sialign         open a saved project
    sialign-gui --example            open the bundled example talk and align it
    sialign-gui --smoke-test         open the example, align, export TSV, check it, exit
                                     (works headless: QT_QPA_PLATFORM=offscreen)
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

import sialign
from sialign.core.errors import SialignError
from sialign.core.file_kind import PROJECT_SUFFIX
from sialign.core.model import Project
from sialign.gui.common.error_words import error_text

if TYPE_CHECKING:
    from PySide6.QtCore import QObject
    from PySide6.QtWidgets import QApplication

    from sialign.gui.main.main_window import MainWindow

SMOKE_TIMEOUT_S = 600
# The desktop entry installed by packaging/install-desktop-entry.sh, without ".desktop".
DESKTOP_FILE_NAME = "sialign"


def load_example_project(folder: Path | None = None) -> Project:
    """The bundled example talk (or the talk in ``folder``) as an unaligned project.

    The same reader as ``sialign demo``: the Japanese transcript without
    "ref" in its name is the interpretation, the one with "ref" the reference
    translation, the other the source; audio files named like a transcript
    are attached to it.
    """
    from sialign.workflows.talks import example_folder, load_example

    # A new talk has no file: Save asks where, never over the bundled files.
    return load_example(folder if folder is not None else example_folder(None))


def preload_engine() -> None:
    """Import the alignment, filter and file modules now, before the window shows.

    Their first import (SciPy, the project file and writers) takes about a
    second and would otherwise happen in the middle of the first alignment,
    where importing C extensions holds the interpreter lock long enough to
    freeze the window for a few hundred milliseconds. Torch and
    sentence-transformers stay lazy: they load in the worker with the model.
    The speech models are looked up (a split one joined) on a background thread.
    """
    from sialign.workflows.aligning import load_aligner
    from sialign.workflows.filtering import load_filters

    load_aligner()
    load_filters()
    # A speech model installed in parts is joined on a thread of its own, not when a dialog first lists it.
    from sialign.workflows.speech import prepare_speech_models_in_background

    prepare_speech_models_in_background()


def install_error_dialog(window: object) -> None:
    """Show unexpected errors raised in the GUI thread as a dialog, not a traceback on a console.

    The details go to the error log; the project is autosaved so that a
    restart can offer it back.
    """
    import traceback

    from PySide6.QtWidgets import QMessageBox

    from sialign.gui.main.main_window import MainWindow, error_log_path

    assert isinstance(window, MainWindow)
    previous = sys.excepthook

    def hook(exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        if issubclass(exc_type, KeyboardInterrupt):
            previous(exc_type, exc, tb)
            return
        window._log_error("".join(traceback.format_exception(exc_type, exc, tb)))
        if isinstance(exc, SialignError):
            message = error_text(exc)
        else:
            message = (
                f"Something unexpected went wrong: {exc_type.__name__}: {exc}\n\n"
                f"Your work is autosaved. Details were written to {error_log_path()}."
            )
            window.files.autosave()
        QMessageBox.warning(window, "SI Aligner", message)

    sys.excepthook = hook


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sialign-gui",
        description="SI Aligner desktop application: align a talk with its interpretation, review, export.",
    )
    parser.add_argument("--version", action="version", version=f"sialign-gui {sialign.__version__}")
    parser.add_argument("project", nargs="?", help="a .sialign project to open")
    parser.add_argument("--example", action="store_true", help="open the bundled example talk and align it")
    parser.add_argument(
        "--smoke-test",
        action="store_true",
        help="open the example, align it, export TSV to a temporary file, check it and exit (0 = passed)",
    )
    parser.add_argument(
        "--with-filters",
        action="store_true",
        help="with --smoke-test: also score the filters in the separate scoring process (loads GiNZA there)",
    )
    return parser


def make_application(argv: Sequence[str]) -> QApplication:
    """The QApplication with name, icon, style and a CJK-capable font."""
    from PySide6.QtCore import QCoreApplication
    from PySide6.QtWidgets import QApplication

    from sialign.gui.resources import app_icon, install_cjk_font_fallback

    QCoreApplication.setOrganizationName("sialign")
    QCoreApplication.setApplicationName("SI Aligner")
    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication(list(argv))
    # Ties the windows to packaging/sialign.desktop (Wayland app id, taskbar
    # grouping, the icon the desktop shows).
    app.setDesktopFileName(DESKTOP_FILE_NAME)
    app.setWindowIcon(app_icon())
    if sys.platform.startswith("linux") and app.style().objectName().lower() == "windows":
        app.setStyle("Fusion")
    # Every window and dialog is cut to its screen; contents scroll instead.
    from sialign.gui.common.screen_fit import install_screen_fit

    install_screen_fit(app)
    family = install_cjk_font_fallback(app)
    if family is None:
        print(
            "sialign-gui: no Japanese font found; Japanese text will show as boxes. "
            "Install one (Debian/Ubuntu: sudo apt install fonts-noto-cjk).",
            file=sys.stderr,
        )
    return app


def run_smoke_test(window: object, *, timeout_s: float = SMOKE_TIMEOUT_S, with_filters: bool = False) -> int:
    """Open the example in ``window``, align, export TSV, check the file; 0 when all worked.

    With ``with_filters`` the beads are also scored in the scoring process the
    Filters panel uses: the check that a frozen build can start that process
    and load GiNZA in it.
    """
    from PySide6.QtCore import QEventLoop, QTimer

    from sialign.core.model import BeadStatus
    from sialign.gui.dialogs.export_dialog import FORMATS, ExportOptions, export
    from sialign.gui.main.main_window import MainWindow

    assert isinstance(window, MainWindow)
    errors: list[str] = []
    window.show_error = lambda title, message: errors.append(f"{title}: {message}")  # type: ignore[method-assign]
    t0 = time.monotonic()
    try:
        project = load_example_project()
    except SialignError as exc:
        print(f"smoke test: FAILED: {exc}", file=sys.stderr)
        return 1
    window.session.set_project(project, modified=True)
    loop = QEventLoop()
    finished: list[bool] = []
    def on_finished() -> None:
        finished.append(True)
        loop.quit()

    window.runner.finished.connect(on_finished)
    QTimer.singleShot(int(timeout_s * 1000), loop.quit)
    if not window.align():
        print(f"smoke test: FAILED: alignment did not start: {errors}", file=sys.stderr)
        return 1
    loop.exec()
    if not finished:
        window.cancel_task()
        window.runner.wait(5000)
        print(f"smoke test: FAILED: alignment took longer than {timeout_s:.0f} s", file=sys.stderr)
        return 1
    alignment = window.session.project.alignment
    if errors or alignment is None or not alignment.beads:
        print(f"smoke test: FAILED: no alignment ({'; '.join(errors) or 'empty result'})", file=sys.stderr)
        return 1
    aligned_s = time.monotonic() - t0
    with tempfile.TemporaryDirectory(prefix="sialign-smoke-") as scratch:
        out = Path(scratch) / "example.tsv"
        rows = export(window.session.project, ExportOptions(str(out), FORMATS[0], False, False))
        lines = out.read_text(encoding="utf-8").splitlines()
    expected = sum(1 for b in alignment.beads if b.status is not BeadStatus.DROPPED)
    header = lines[0].split("\t") if lines else []
    problems = []
    if header[:1] != ["talk"] or "source" not in header or "target" not in header:
        problems.append(f"unexpected header {header}")
    if rows != expected or len(lines) - 1 != rows:
        problems.append(f"{rows} rows reported, {len(lines) - 1} in the file, {expected} beads not dropped")
    problems += _smoke_audio_and_reopen(window)
    if problems:
        print("smoke test: FAILED: " + "; ".join(problems), file=sys.stderr)
        return 1
    if with_filters:
        from sialign.gui.common.workers import snapshot
        from sialign.workflows.filtering import compute_scores

        t1 = time.monotonic()
        try:
            scores = compute_scores(snapshot(window.session.project))
        except SialignError as exc:
            print(f"smoke test: FAILED: filter scoring: {exc}", file=sys.stderr)
            return 1
        if not scores.matches(alignment.beads):
            print("smoke test: FAILED: filter scores do not match the beads", file=sys.stderr)
            return 1
        print(f"smoke test: scored {len(alignment.beads)} beads in the scoring process in {time.monotonic() - t1:.1f} s")
    print(
        f"smoke test: passed — {len(project.source)} × {len(project.target)} segments, "
        f"{len(alignment.beads)} beads, {rows} TSV rows, aligned in {aligned_s:.1f} s "
        f"(embedder {alignment.embedder or '?'})"
    )
    return 0


def _smoke_audio_and_reopen(window: object) -> list[str]:
    """Decode the example's two audio tracks, save the aligned project, open it again; problems found.

    The check that a build carries the audio decoders (Ogg Vorbis through
    libsndfile) and that a saved project with audio opens with its tracks.
    """
    import copy

    from sialign.audio.decode import load_audio, resolve_audio_path
    from sialign.gui.main.main_window import MainWindow
    from sialign.workflows.outputs import save
    from sialign.workflows.talks import load_project

    assert isinstance(window, MainWindow)
    project = window.session.project
    problems: list[str] = []
    tracks = [(side, doc.audio_path) for side, doc in (("source", project.source), ("interpretation", project.target))]
    for side, raw in tracks:
        path = resolve_audio_path(raw, project.path)
        if path is None:
            problems.append(f"the example's {side} has no audio")
            continue
        try:
            track = load_audio(path)
        except (SialignError, OSError) as exc:
            problems.append(f"{side} audio {path.name}: {exc}")
            continue
        if track.duration <= 0:
            problems.append(f"{side} audio {path.name} decoded empty")
    with tempfile.TemporaryDirectory(prefix="sialign-smoke-") as scratch:
        saved = Path(scratch) / f"example{PROJECT_SUFFIX}"
        try:
            save(copy.deepcopy(project), saved)  # a copy: saving makes the file the project's own
            again = load_project(saved)
        except (SialignError, OSError) as exc:
            return problems + [f"saving and reopening the project: {exc}"]
        if again.alignment is None or len(again.alignment.beads) != len(project.alignment.beads if project.alignment else []):
            problems.append("the reopened project lost its beads")
        for side, doc in (("source", again.source), ("interpretation", again.target)):
            path = resolve_audio_path(doc.audio_path, again.path)
            if path is None or not path.is_file():
                problems.append(f"the reopened project lost its {side} audio ({doc.audio_path})")
    if not problems:
        print(f"smoke test: audio decoded ({', '.join(Path(raw or '').name for _, raw in tracks)}); project saved and reopened with its audio")
    return problems


def install_file_open_handler(app: QApplication, window: MainWindow) -> QObject:
    """Open the project files the system hands over (macOS: a double-clicked ``.sialign``).

    macOS starts the app without a path and sends a ``QFileOpenEvent`` for
    each file the user opened with it (Finder, the Dock, "Open With"); Linux
    and Windows pass the path on the command line instead. Returns the
    filter (kept alive by the application, its parent).
    """
    from PySide6.QtCore import QEvent, QObject
    from PySide6.QtGui import QFileOpenEvent

    from sialign.gui.main.main_window import MainWindow

    assert isinstance(window, MainWindow)

    class FileOpenHandler(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if event.type() != QEvent.Type.FileOpen or not isinstance(event, QFileOpenEvent):
                return False
            path = event.file() or event.url().toLocalFile()
            if not path:
                return False
            if window.runner.busy:
                window.statusBar().showMessage(
                    f"Not opened {Path(path).name}: wait for the running task to end (or cancel it), then open it again.", 10000
                )
            else:
                window.files.open_path(path)
            return True

    handler = FileOpenHandler(app)
    app.installEventFilter(handler)
    return handler


def main(argv: Sequence[str] | None = None) -> int:
    import multiprocessing

    # First of all: in a frozen program the scoring process (spawn) starts
    # this executable again, and this turns that start into the child's loop
    # instead of a second window. Without freezing it does nothing.
    multiprocessing.freeze_support()
    args = build_parser().parse_args(argv)
    if args.smoke_test and not os.environ.get("QT_QPA_PLATFORM") and not os.environ.get("DISPLAY") and not sys.platform.startswith(("win", "darwin")):
        # Headless CI: nothing to show, render offscreen.
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    app = make_application(sys.argv[:1])
    from sialign.workflows.filtering import stop_scoring as shutdown_scoring_process

    # GiNZA's 1.8 GB go with the window, not at interpreter exit.
    app.aboutToQuit.connect(shutdown_scoring_process)
    preload_engine()
    from sialign.gui.main.main_window import MainWindow

    window = MainWindow()
    if args.smoke_test:
        code = run_smoke_test(window, with_filters=args.with_filters)
        window.session.mark_saved()  # nothing to keep from a smoke test
        window.files.discard_current_autosave()
        window.close()
        return code
    install_error_dialog(window)
    install_file_open_handler(app, window)
    window.show()
    if args.project:
        window.files.open_path(args.project, ask_save=False)
    elif args.example:
        window.files.open_example()
    else:
        window.files.offer_untitled_recovery()
    return int(app.exec())


if __name__ == "__main__":
    sys.exit(main())
