"""Every top-level window and dialog fits a laptop screen with its largest realistic content; the rest scrolls."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QRect, QSettings
from PySide6.QtWidgets import QMessageBox, QWidget

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "review"))
from example_renditions import example_rendition

pytestmark = [pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints")]
EXAMPLES = Path(__file__).resolve().parents[3] / "resources" / "examples"

# 1280 × 800 and 1366 × 768 screens less a 30-pixel panel.
SCREENS = {"1280x800": QRect(0, 30, 1280, 770), "1366x768": QRect(0, 30, 1366, 738)}


@pytest.fixture(params=sorted(SCREENS))
def screen(request, monkeypatch, qapp, desktop_font):
    """The fake laptop screen, the application's screen rule installed (as ``make_application`` does) and a desktop font."""
    from sialign.gui.common import screen_fit
    from sialign.gui.main.window_layout import WindowLayout

    area = SCREENS[request.param]
    monkeypatch.setattr(screen_fit, "available_area", lambda widget: QRect(area))
    monkeypatch.setattr(WindowLayout, "free_area", lambda self: QRect(area))
    rule = screen_fit.install_screen_fit(qapp)
    yield area
    qapp.removeEventFilter(rule)
    rule.setParent(None)


def _fits(qtbot: Any, window: QWidget, area: QRect) -> None:
    window.show()
    qtbot.waitExposed(window)
    frame = window.frameGeometry()
    assert area.contains(frame), f"{type(window).__name__} at {frame} does not fit {area}"
    hint = window.minimumSizeHint()
    assert hint.width() <= area.width() and hint.height() <= area.height(), f"minimum size {hint} exceeds {area}"


def _new_talk(qtbot: Any, tmp_path: Path) -> QWidget:
    from sialign.gui.dialogs.new_talk_dialog import NewTalkDialog

    dialog = NewTalkDialog()
    _new_talk_fields(dialog)
    return dialog


def _new_talk_fields(dialog: Any) -> None:
    """A source, an interpretation and a reference (three previews), both recordings and an interpreter."""
    for field, name in ((dialog.source, "talk.en.srt"), (dialog.target, "talk.ja.srt"),
                        (dialog.reference, "talk.ref.ja.txt"), (dialog.source_audio, "talk.en.ogg"),
                        (dialog.target_audio, "talk.ja.ogg")):
        field.set_path(str(EXAMPLES / name))
    dialog.interpreter.setText("I-03")


def _new_talk_with_errors(qtbot: Any, tmp_path: Path) -> QWidget:
    dialog = _new_talk(qtbot, tmp_path)
    missing = tmp_path / ("a folder with a long name " * 4) / "talk.ja.srt"
    dialog.target.set_path(str(missing))
    dialog.accept()  # the problems show under the fields and above the buttons
    return dialog


def _compare(qtbot: Any, tmp_path: Path) -> QWidget:
    from sialign.gui.windows.compare_window import CompareWindow

    window = CompareWindow([example_rendition(1), example_rendition(2)], ["", ""])
    qtbot.waitUntil(lambda: window.comparison is not None, timeout=20000)
    return window


def _corpus(qtbot: Any, tmp_path: Path) -> QWidget:
    from sialign.corpus import align_corpus
    from sialign.gui.windows.corpus_window import CorpusWindow

    for name in ("talk.en.srt", "talk.ja.srt"):
        shutil.copy(EXAMPLES / name, tmp_path / name)
    manifest = tmp_path / "manifest.tsv"
    rows = "".join(f"talk{i:02d}\ttalk.en.srt\ttalk.ja.srt\n" for i in range(3))
    manifest.write_text("talk\tsource\ttarget\n" + rows, encoding="utf-8")
    align_corpus(manifest, tmp_path / "corpus")
    return CorpusWindow(tmp_path / "corpus")


def _export(qtbot: Any, tmp_path: Path) -> QWidget:
    from sialign.gui.dialogs.export_dialog import ExportDialog

    return ExportDialog(example_rendition(1), str(tmp_path / "talk.tsv"), None, QSettings())


def _properties(qtbot: Any, tmp_path: Path) -> QWidget:
    from sialign.gui.dialogs.project_properties import ProjectPropertiesDialog

    return ProjectPropertiesDialog(example_rendition(1))


def _report(qtbot: Any, tmp_path: Path) -> QWidget:
    from sialign.gui.dialogs.report_dialog import ReportDialog

    dialog = ReportDialog(example_rendition(1))
    qtbot.waitUntil(lambda: dialog.report is not None and not dialog.runner.busy, timeout=20000)
    return dialog


def _split(qtbot: Any, tmp_path: Path) -> QWidget:
    from sialign.gui.dialogs.split_bead import SplitBeadDialog

    project = example_rendition(1)
    assert project.alignment is not None
    longest = max(range(len(project.alignment.beads)), key=lambda i: len(project.alignment.beads[i].tgt))
    return SplitBeadDialog(project, longest)


def _preferences(qtbot: Any, tmp_path: Path) -> QWidget:
    from sialign.gui.dialogs.preferences import Preferences, PreferencesDialog

    return PreferencesDialog(Preferences())


def _models(qtbot: Any, tmp_path: Path) -> QWidget:
    from sialign.embed import models_registry as mr
    from sialign.gui.dialogs.model_settings import ModelSettingsDialog

    return ModelSettingsDialog(None, registry=mr.ModelRegistry())


def _new_corpus(qtbot: Any, tmp_path: Path) -> QWidget:
    from sialign.gui.dialogs.new_corpus_dialog import NewCorpusDialog

    for i in range(40):  # a folder of forty talks: the table scrolls
        for suffix in ("en.srt", "ja.srt", "en.ogg"):
            (tmp_path / f"speech_{i:02d}.{suffix}").write_text("", encoding="utf-8")
    dialog = NewCorpusDialog()
    dialog.set_folder(str(tmp_path))
    return dialog


def _alignment_settings(qtbot: Any, tmp_path: Path) -> QWidget:
    from sialign.gui.dialogs.alignment_settings import AlignmentSettingsDialog

    return AlignmentSettingsDialog(example_rendition(1))


WINDOWS: dict[str, Callable[[Any, Path], QWidget]] = {
    "new talk": _new_talk, "new talk with errors": _new_talk_with_errors, "compare": _compare,
    "corpus": _corpus, "export": _export, "properties": _properties, "report": _report, "split bead": _split,
    "preferences": _preferences, "models": _models, "new corpus": _new_corpus,
    "alignment settings": _alignment_settings,
}


@pytest.mark.parametrize("name", sorted(WINDOWS))
def test_every_window_and_dialog_fits_the_screen(qtbot, screen, tmp_path, monkeypatch, name) -> None:
    from sialign.embed import models_registry as mr

    monkeypatch.setenv(mr.ENV_MODEL_DIR, str(tmp_path / "user-models"))
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Discard)
    window = WINDOWS[name](qtbot, tmp_path)
    qtbot.addWidget(window)
    _fits(qtbot, window, screen)


def test_the_main_window_and_its_shortcuts_fit_the_screen(qtbot, screen, session, monkeypatch) -> None:
    from sialign.gui.dialogs.shortcuts_dialog import ShortcutsDialog
    from sialign.gui.main.main_window import MainWindow

    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Discard)
    window = MainWindow(session)
    qtbot.addWidget(window)
    _fits(qtbot, window, screen)
    dialog = ShortcutsDialog(window.shortcuts, window)
    qtbot.addWidget(dialog)
    _fits(qtbot, dialog, screen)


def test_new_talk_with_three_previews_keeps_its_buttons_on_screen(qtbot, screen, tmp_path) -> None:
    """The fields scroll; Interpreter id and rank are reached by scrolling, Create and Cancel never leave the dialog."""
    dialog = _new_talk(qtbot, tmp_path)
    qtbot.addWidget(dialog)
    _fits(qtbot, dialog, screen)
    assert all(f.preview.isVisible() for f in (dialog.source, dialog.target, dialog.reference))
    bottom = dialog.buttons.mapTo(dialog, dialog.buttons.rect().bottomLeft()).y()
    assert bottom <= dialog.height()
    dialog.fields.ensureWidgetVisible(dialog.rank)
    assert dialog.rank.visibleRegion().boundingRect().height() == dialog.rank.height()


def test_a_dialog_growing_for_a_message_stays_on_the_screen(qtbot, screen, tmp_path) -> None:
    dialog = _new_talk(qtbot, tmp_path)
    qtbot.addWidget(dialog)
    _fits(qtbot, dialog, screen)
    dialog.source.set_path(str(tmp_path / "gone.srt"))
    dialog.accept()
    assert screen.contains(dialog.frameGeometry())


def test_the_application_installs_the_screen_rule(qapp, monkeypatch) -> None:
    from sialign.gui import resources
    from sialign.gui.app import make_application
    from sialign.gui.common.screen_fit import ScreenFit

    # The CJK font fallback is global and would change the sizes other tests measure.
    monkeypatch.setattr(resources, "install_cjk_font_fallback", lambda app: "Noto Sans CJK JP")
    icon = qapp.windowIcon()
    app = make_application([])
    qapp.setWindowIcon(icon)
    rule = app.findChild(ScreenFit)  # type: ignore[attr-defined]
    assert rule is not None
    qapp.removeEventFilter(rule)
    rule.setParent(None)


def test_new_talk_grows_with_its_previews_up_to_the_screen(qtbot, screen, tmp_path) -> None:
    from sialign.gui.dialogs.new_talk_dialog import NewTalkDialog

    dialog = NewTalkDialog()
    qtbot.addWidget(dialog)
    _fits(qtbot, dialog, screen)
    empty = dialog.height()
    _new_talk_fields(dialog)
    assert dialog.height() > empty + 100  # the previews show without scrolling as far as the screen allows
    assert screen.contains(dialog.frameGeometry())
