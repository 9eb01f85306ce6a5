"""kill -9 of a real app process between edits: opening the project again brings every edit back (the edit journal).

Each case runs the app in its own process (tests/gui/journal_driver.py, Qt
offscreen) on a project aligned from the example talk, applies edits through
the session as the views do, is killed with SIGKILL more than a second after
its last edit, and is started again on the same file.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sialign.cli.main import main as cli

REPO = Path(__file__).resolve().parents[2]
DRIVER = Path(__file__).with_name("journal_driver.py")
EXAMPLES = REPO / "resources" / "examples"

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="kills the app with SIGKILL")


@pytest.fixture(scope="module")
def aligned(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example talk aligned (lexical model) and saved: a project with 30-odd beads."""
    path = tmp_path_factory.mktemp("journal") / "talk.sialign"
    assert cli(["align", str(EXAMPLES / "talk.en.srt"), str(EXAMPLES / "talk.ja.srt"), "--model", "lexical", "-q", "-o", str(path)]) == 0
    return path


def _env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update({
        "PYTHONPATH": str(REPO / "desktop"), "QT_QPA_PLATFORM": "offscreen",
        "XDG_CONFIG_HOME": str(tmp_path / "config"), "HOME": str(tmp_path / "home"),
        "SIALIGN_AUTOSAVE_DIR": str(tmp_path / "autosave"), "SIALIGN_ENCODER_THREADS": "1",
    })
    return env


def _records(status: Path) -> list[dict]:
    if not status.exists():
        return []
    text = status.read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def _edit_then_kill(tmp_path: Path, project: Path, *extra: str) -> list[dict]:
    """Run the driver's edits, kill -9 it 1.2 s after the last one; the status records it wrote."""
    status = tmp_path / "edit-status.jsonl"
    app = subprocess.Popen([sys.executable, str(DRIVER), "edit", str(project), str(status), *extra],
                           env=_env(tmp_path), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and app.poll() is None and not any("done" in r for r in _records(status)):
            time.sleep(0.1)
        records = _records(status)
        assert app.poll() is None, f"the app exited: {app.stderr.read().decode()[-2000:] if app.stderr else ''}"
        assert any("done" in r for r in records), "the edits were not applied in time"
        last = max(r["time"] for r in records if "edit" in r)
        time.sleep(max(0.0, last + 1.2 - time.time()))
        os.kill(app.pid, signal.SIGKILL)
        app.wait(10)
    finally:
        if app.poll() is None:
            app.kill()
            app.wait(10)
    assert not any("warning" in r for r in records), records
    return records


def _recover(tmp_path: Path, project: Path, *extra: str) -> dict:
    status = tmp_path / "recover-status.jsonl"
    done = subprocess.run([sys.executable, str(DRIVER), "recover", str(project), str(status), *extra],
                          env=_env(tmp_path), capture_output=True, timeout=180)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    (record,) = [r for r in _records(status) if "fingerprint" in r]
    assert not any("warning" in r for r in _records(status)), _records(status)
    return record


def _copy(aligned: Path, tmp_path: Path) -> Path:
    project = tmp_path / "talk.sialign"
    project.write_bytes(aligned.read_bytes())
    return project


@pytest.mark.slow
def test_killed_app_gets_every_edit_back_from_the_saved_file_and_journal(aligned: Path, tmp_path: Path) -> None:
    """No autosave yet: the journal goes on from the saved file; reopening replays it (undo steps too)."""
    project = _copy(aligned, tmp_path)
    records = _edit_then_kill(tmp_path, project)
    last = [r for r in records if "edit" in r][-1]
    assert last["edit"] == 6
    files = sorted(p.name for p in tmp_path.glob("talk.sialign.*") if p.suffix != ".lock")  # a lock the kill left is taken over
    recovered = _recover(tmp_path, project, "--save")
    assert recovered["recovered"] and recovered["modified"]
    assert recovered["fingerprint"] == last["fingerprint"]
    assert recovered["undo"] == last["undo"]
    assert files == ["talk.sialign.journal"]  # no autosave was written: the file and the journal sufficed
    # Saved: the journal goes with the autosave.
    assert recovered["saved"] and recovered["left"] == []


@pytest.mark.slow
def test_killed_app_gets_every_edit_back_from_autosave_and_journal(aligned: Path, tmp_path: Path) -> None:
    """An autosave after two edits: the journal starts over there and holds only the later edits."""
    project = _copy(aligned, tmp_path)
    records = _edit_then_kill(tmp_path, project, "--autosave-after", "2")
    last = [r for r in records if "edit" in r][-1]
    journal_file = tmp_path / "talk.sialign.journal"
    journal = journal_file.read_text(encoding="utf-8") if journal_file.exists() else ""
    recovered = _recover(tmp_path, project)
    assert recovered["fingerprint"] == last["fingerprint"]
    assert recovered["undo"] == last["undo"]
    lines = [json.loads(line) for line in journal.splitlines()]
    mark = json.loads((tmp_path / "talk.sialign.autosave").read_text(encoding="utf-8"))["journal_mark"]
    assert lines[0]["base"] == {"autosave": mark}
    assert [line["op"] for line in lines[1:]] == ["do", "undo", "do", "do"]  # not the two edits before the autosave


@pytest.mark.slow
def test_killed_app_gets_every_edit_back_for_a_talk_never_saved(aligned: Path, tmp_path: Path) -> None:
    """A talk never saved journals from its first autosave: recovery at start-up brings the later edits back."""
    records = _edit_then_kill(tmp_path, aligned, "--untitled")
    last = [r for r in records if "edit" in r][-1]
    files = sorted(p.suffix for p in (tmp_path / "autosave").iterdir())
    recovered = _recover(tmp_path, aligned, "--untitled", "--save")
    assert recovered["recovered"]
    assert recovered["fingerprint"] == last["fingerprint"]
    assert recovered["undo"] == last["undo"]
    assert files == [".autosave", ".journal"]
    assert recovered["saved"] and recovered["left"] == [] and not list((tmp_path / "autosave").iterdir())
