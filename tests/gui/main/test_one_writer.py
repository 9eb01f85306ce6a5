"""One writer per project in the app: it holds the project it has open; a second instance gets a read-only copy.

Two app instances once confirmed beads 0–2 and 10–12 and both saved: the file kept only the last. With the
app open, ``filter`` flagged 12 beads and the app's next Save removed them all.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox

from sialign.core.edits import SetStatus
from sialign.core.model import BeadStatus
from sialign.core.params import AlignParams
from sialign.io.project_file import load_project, save_project
from sialign.io.project_lock import holder_of, lock_path

pytestmark = [pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints")]

DESKTOP = Path(__file__).resolve().parents[3] / "desktop"
ENV = {**os.environ, "PYTHONPATH": str(DESKTOP) + os.pathsep + os.environ.get("PYTHONPATH", "")}

HOLD = """
import sys
from sialign.io.project_lock import acquire
lock = acquire(sys.argv[1], "SI Aligner")
print("held", flush=True)
sys.stdin.read()
"""


def test_the_app_holds_its_project_and_a_command_is_refused(qtbot, window, tmp_path, monkeypatch) -> None:
    target = tmp_path / "talk.sialign"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    window.act.save.trigger()
    holder = None
    assert lock_path(target).is_file() and holder_of(target) is holder  # held by this process
    before = target.read_bytes()
    # Another process (a command line) is refused while the window holds the project.
    copy = tmp_path / "copy.sialign"
    held = load_project(target)
    held.params = AlignParams(target_units="chunks")  # the fixture's interpretation is in chunks (re-aligned as such)
    save_project(held, copy)
    run = subprocess.run([sys.executable, "-m", "sialign", "realign", str(copy), "-o", str(target), "--model", "lexical"],
                         capture_output=True, text=True, env=ENV, timeout=120)
    assert run.returncode == 75, run.stderr
    assert "open in SI Aligner" in run.stderr and f"process {os.getpid()}" in run.stderr
    assert target.read_bytes() == before
    # Closing the window gives the project back.
    window.session.mark_saved()
    window.close()
    assert not lock_path(target).exists()


def test_a_project_held_elsewhere_opens_as_a_read_only_copy(qtbot, window, tmp_path, monkeypatch) -> None:
    target = tmp_path / "talk.sialign"
    save_project(window.session.project, target)
    before = target.read_bytes()
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(target)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True, env=ENV)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
        told: list[str] = []
        monkeypatch.setattr(QMessageBox, "information", lambda parent, title, text, *a: told.append(text))
        errors: list[str] = []
        monkeypatch.setattr(window, "show_error", lambda title, message: errors.append(message))
        assert window.files.open_path(str(target), ask_save=False)
        assert told and f"process {proc.pid}" in told[0] and "read-only copy" in told[0]
        assert window.session.project.path is None
        assert "read-only copy" in window.windowTitle() and "SI Aligner (process" in window.windowTitle()
        # The copy still reads its transcripts (their paths no longer depend on the held file's folder).
        assert len(window.session.project.source) > 0
        window.session.apply(SetStatus((0,), BeadStatus.CONFIRMED))
        # Save asks for a name; the held file is refused, another one is written.
        monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
        assert not window.files.save()
        assert errors and "is open in SI Aligner" in errors[-1]
        assert target.read_bytes() == before
        other = tmp_path / "mine.sialign"
        monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(other), ""))
        assert window.files.save()
        assert load_project(other).alignment.beads[0].status is BeadStatus.CONFIRMED
        assert "read-only" not in window.windowTitle() and lock_path(other).is_file()
    finally:
        proc.kill()
        proc.wait()
