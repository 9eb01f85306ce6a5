"""The scoring process: results, progress, readable errors, cancellation, restarts, BeadScores by pickle.

Job functions live at module level here: the child imports this module by
name to run them (spawn), as it imports ``sialign.filters.remote`` for the
real ones.
"""

from __future__ import annotations

import os
import pickle
import time
from typing import Any

import numpy as np
import pytest

from river_talk import river_project
from sialign.core.errors import AlignmentCancelled, InputError, SialignError
from sialign.core.model import Alignment, Bead, BeadStatus, Document, Project
from sialign.filters import remote, score_beads
from sialign.filters.remote import RemoteTraceback, ScoringProcess, ScoringProcessDied, score_beads_in_process


# -- jobs the child runs -------------------------------------------------------
def job_add(a: int, b: int, *, progress: Any, should_stop: Any) -> int:
    progress(0.5, "adding")
    return a + b


def job_pid(*, progress: Any, should_stop: Any) -> int:
    return os.getpid()


def job_raise(kind: str, *, progress: Any, should_stop: Any) -> None:
    if kind == "input":
        raise InputError("talk.srt", "timestamp goes backwards", line=12)
    if kind == "cancelled":
        raise AlignmentCancelled()
    raise RuntimeError("boom")


def job_until_stopped(*, progress: Any, should_stop: Any) -> str:
    """Works until cancelled (checks every 10 ms), then says so."""
    for i in range(3000):
        if should_stop():
            raise AlignmentCancelled()
        progress(i / 3000, f"step {i}")
        time.sleep(0.01)
    return "not stopped"


def job_ignore_stop(seconds: float, *, progress: Any, should_stop: Any) -> str:
    progress(0.0, "busy")
    time.sleep(seconds)
    return "done"


def job_exit(*, progress: Any, should_stop: Any) -> None:
    os._exit(3)


# -- fixtures ------------------------------------------------------------------
@pytest.fixture(scope="module")
def process():
    p = ScoringProcess()
    yield p
    p.shutdown()


def _german_project() -> Project:
    project = river_project(3)
    project.alignment.beads[1].status = BeadStatus.CONFIRMED
    return project


def _assert_same_scores(a: Any, b: Any) -> None:
    for name in ("alpha", "gamma", "eta_chrf", "eta_cos", "target_units", "reference_units", "contentless",
                 "filter_dropped", "confirmed", "src_count", "tgt_count"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
    for name in ("signature", "content_pos", "trims", "alpha_details", "length_unit", "status", "has_reference"):
        assert getattr(a, name) == getattr(b, name), name


# -- tests ---------------------------------------------------------------------
def test_remote_bead_scores_survive_pickling() -> None:
    scores = score_beads(_german_project())
    copy = pickle.loads(pickle.dumps(scores))
    _assert_same_scores(scores, copy)
    assert copy.matches(_german_project().alignment.beads)


def test_remote_call_returns_value_and_relays_progress(process) -> None:
    seen: list[tuple[float, str]] = []
    assert process.call(job_add, 2, 3, progress=lambda f, m: seen.append((f, m))) == 5
    assert seen == [(0.5, "adding")]
    assert process.running
    # One process for the session: a second call finds the same child.
    assert process.call(job_pid) == process.pid != os.getpid()


@pytest.mark.parametrize(
    "kind, error_type, message",
    [
        # InputError cannot be rebuilt from its pickled args: it comes back as a SialignError, same text.
        ("input", SialignError, "talk.srt, line 12: timestamp goes backwards"),
        ("runtime", RuntimeError, "boom"),
        ("cancelled", AlignmentCancelled, "Cancelled by the user."),
    ],
)
def test_remote_errors_come_back_readable(process, kind, error_type, message) -> None:
    with pytest.raises(error_type) as info:
        process.call(job_raise, kind)
    assert str(info.value) == message
    if kind == "runtime":
        assert isinstance(info.value.__cause__, RemoteTraceback)
        assert "job_raise" in info.value.__cause__.text  # the child's own traceback, for the error log
    assert process.call(job_add, 1, 1) == 2  # the process goes on serving


def test_remote_cancel_stops_the_job_and_keeps_the_process(process) -> None:
    pid = process.call(job_pid)
    t0 = time.monotonic()
    with pytest.raises(AlignmentCancelled):
        process.call(job_until_stopped, should_stop=lambda: time.monotonic() - t0 > 0.3)
    assert time.monotonic() - t0 < 1.5
    assert process.call(job_pid) == pid


def test_remote_job_ignoring_cancel_is_terminated(process, monkeypatch) -> None:
    monkeypatch.setattr(remote, "CANCEL_GRACE_S", 0.3)
    pid = process.call(job_pid)
    t0 = time.monotonic()
    with pytest.raises(AlignmentCancelled):
        process.call(job_ignore_stop, 30.0, should_stop=lambda: time.monotonic() - t0 > 0.3)
    assert time.monotonic() - t0 < 5
    assert not process.running
    # The next job starts a fresh child.
    assert process.call(job_pid) not in (pid, None)


def test_remote_cancel_while_queued_returns_at_once(process) -> None:
    process.call(job_pid)
    process.warm_up(job_ignore_stop, 1.5)  # a long load the next call has to wait for
    t0 = time.monotonic()
    with pytest.raises(AlignmentCancelled):
        process.call(job_add, 1, 2, should_stop=lambda: time.monotonic() - t0 > 0.2)
    assert time.monotonic() - t0 < 1.0
    # The warm-up was not killed for it; the queued job was skipped, the next one runs.
    assert process.running
    assert process.call(job_add, 2, 2) == 4


def test_remote_child_death_is_a_readable_error_and_restarts(process) -> None:
    with pytest.raises(ScoringProcessDied, match="exit code 3"):
        process.call(job_exit)
    assert process.call(job_add, 3, 4) == 7


def test_remote_shutdown_stops_the_child() -> None:
    p = ScoringProcess()
    assert not p.running  # nothing starts before the first job
    p.call(job_pid)
    assert p.running
    t0 = time.monotonic()
    p.shutdown()
    assert time.monotonic() - t0 < 3
    assert not p.running
    p.shutdown()  # twice is fine


def test_remote_scores_match_in_process_scores(process) -> None:
    project = _german_project()
    fractions: list[float] = []
    scores = score_beads_in_process(project, progress=lambda f, m: fractions.append(f), process=process)
    _assert_same_scores(scores, score_beads(project))
    assert fractions and fractions[-1] == pytest.approx(1.0)


@pytest.mark.parametrize(
    "target_language, reference_language, reference_count, expected",
    [
        ("ja", None, 1, True),
        ("de", "ja", 1, True),
        ("ja-JP", None, 1, True),
        ("de", "de", 1, False),
        ("en", None, 1, False),
        ("de", "ja", 2, False),  # a reference that does not match the source is not used
    ],
)
def test_remote_needs_japanese(target_language, reference_language, reference_count, expected) -> None:
    project = Project(
        talk_id="t",
        source=Document.from_texts(["a"], language="en"),
        target=Document.from_texts(["b"], language=target_language),
        reference=Document.from_texts(["c"] * reference_count, language=reference_language) if reference_language else None,
    )
    assert remote.needs_japanese(project) is expected


@pytest.mark.slow
def test_remote_japanese_scoring_loads_ginza_in_the_child_only(process) -> None:
    import sys

    beads = [Bead(src=(0,), tgt=(0, 1), cost=0.2), Bead(src=(1,), tgt=(2,), cost=0.2)]
    project = Project(
        talk_id="water",
        source=Document.from_texts(["Today I want to talk about water.", "Thank you."], language="en"),
        target=Document.from_texts(["えー、", "今日は水についてお話しします。", "ありがとうございました。"], language="ja"),
        alignment=Alignment(beads=beads),
    )
    already_here = "spacy" in sys.modules
    messages: list[str] = []
    scores = score_beads_in_process(project, progress=lambda f, m: messages.append(m), process=process)
    assert scores.trims[0] == (0,)  # the filler chunk without a content word
    assert not scores.contentless.any()
    if not already_here:
        assert "spacy" not in sys.modules, "GiNZA was loaded in the test process, not the scoring process"
    t0 = time.monotonic()
    again = score_beads_in_process(project, process=process)
    assert time.monotonic() - t0 < 5, "GiNZA loads once per process"
    _assert_same_scores(scores, again)


def test_remote_child_does_not_rerun_the_programs_main(tmp_path) -> None:
    """Spawn re-imports the parent's main script in the child; the guarded ``main()`` must not run there.

    The script has the shape of the ``sialign-gui`` launcher pip writes (no
    ``.py``, ``main`` behind ``if __name__ == '__main__'``).
    """
    import subprocess
    import sys

    script = tmp_path / "sialign-gui-like"
    script.write_text(
        "import sys\n"
        "from sialign.gui.app import build_parser\n"
        "def main():\n"
        "    print('main ran', flush=True)\n"
        "    from sialign.filters.remote import ScoringProcess\n"
        "    p = ScoringProcess()\n"
        "    print('child answered', p.call(_job), flush=True)\n"
        "    p.shutdown()\n"
        "    return 0\n"
        "def _job(*, progress, should_stop):\n"
        "    return 'ok'\n"
        "if __name__ == '__main__':\n"
        "    sys.exit(main())\n",
        encoding="utf-8",
    )
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["main ran", "child answered ok"]


def test_remote_child_leaves_when_the_application_is_killed(tmp_path) -> None:
    """A killed application must not leave GiNZA's 1.8 GB behind in an orphaned child."""
    import signal
    import subprocess
    import sys

    script = tmp_path / "app.py"
    script.write_text(
        "import time\n"
        "from sialign.filters.remote import ScoringProcess\n"
        "def _job(*, progress, should_stop):\n"
        "    return 0\n"
        "if __name__ == '__main__':\n"
        "    p = ScoringProcess()\n"
        "    p.call(_job)\n"
        "    print(p.pid, flush=True)\n"
        "    time.sleep(60)\n",
        encoding="utf-8",
    )
    app = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        child = int(app.stdout.readline())
    finally:
        app.send_signal(signal.SIGKILL)
        app.wait(10)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            return
        # A zombie (no longer running, not yet reaped by init) has left too.
        try:
            with open(f"/proc/{child}/stat", encoding="ascii") as fh:
                if fh.read().split(")")[-1].split()[0] == "Z":
                    return
        except FileNotFoundError:
            return
        time.sleep(0.2)
    os.kill(child, signal.SIGKILL)
    pytest.fail("the scoring process outlived the killed application")
