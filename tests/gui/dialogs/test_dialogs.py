"""Small dialogs: split a bead, preferences kept in QSettings."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QDialogButtonBox

from sialign.gui.dialogs.preferences import Preferences, PreferencesDialog
from sialign.gui.dialogs.split_bead import SplitBeadDialog

# Qt warnings fail these tests (as in pyqtgraph's suite): a warning about threads or
# timers is a bug. The offscreen platform's note about size hints is not.
pytestmark = [pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints")]


def test_dialogs_split_bead_preview_and_counts(qtbot, project) -> None:
    dialog = SplitBeadDialog(project, 1)  # bead 2: one source sentence, two target chunks
    qtbot.addWidget(dialog)
    assert dialog.counts() == (1, 1)
    assert "今日は、" in dialog.first.text() and "水についてお話しします。" in dialog.second.text()
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert ok.isEnabled()
    dialog.tgt_count.setValue(2)  # everything in the first half: not a split
    assert not ok.isEnabled() and "at least one segment" in dialog.problem.text()
    dialog.src_count.setValue(0)
    assert ok.isEnabled() and dialog.counts() == (0, 2)


def test_dialogs_preferences_round_trip(qtbot, tmp_path) -> None:
    settings = QSettings(str(tmp_path / "prefs.ini"), QSettings.Format.IniFormat)
    assert Preferences.load(settings) == Preferences()
    dialog = PreferencesDialog(Preferences())
    qtbot.addWidget(dialog)
    dialog.low.setValue(0.45)
    dialog.autosave.setValue(0)
    prefs = dialog.preferences()
    assert prefs == Preferences(low_confidence=0.45, autosave_minutes=0)
    prefs.save(settings)
    settings.sync()
    assert Preferences.load(QSettings(str(tmp_path / "prefs.ini"), QSettings.Format.IniFormat)) == prefs


def test_dialogs_preferences_survive_garbage(tmp_path) -> None:
    settings = QSettings(str(tmp_path / "prefs.ini"), QSettings.Format.IniFormat)
    settings.setValue("prefs/low_confidence", "not a number")
    assert Preferences.load(settings) == Preferences()
