"""The practice session driven by commands: in a worker process (the real engines) and on threads here (fakes).

The worker process is fed a recording as if it came from the microphone: its events arrive, and Stop, the full
pass and the save give what the session in this process gives for the same file; a crash in it and a step that
fails are each one line, never a hang; a cancel stops the full pass; closing it ends the process.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from booth_fakes import FakeLiveFactory, fake_practice, fake_whisper_folder, scripted_updates
from sialign.core.errors import SialignError
from sialign.core.model import Project
from sialign.workflows.booth import practice_talk
from sialign.workflows.practice_process import (
    ENGINE_NICE,
    Cancelled,
    Failed,
    Fed,
    FullPassed,
    LiveUpdated,
    PracticeProcess,
    PracticeThreads,
    Prepared,
    Progressed,
    Saved,
    SessionDriver,
    SessionEvent,
    SessionRecipe,
    Started,
    Stopped,
    Ticked,
)
from sialign.workflows.practice_session import PracticeSession, RenditionFile, SessionParts, TalkChoice

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"
CHUNKS = [("おはようございます。", 1.0, 2.0), ("水は大事です。", 3.0, 4.5), ("ありがとう。", 5.0, 5.8)]
LAYOUT = [((0,), (0,)), ((1,), (1,)), ((2,), (2,))]


@pytest.fixture(scope="module")
def rendition_clip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The first 8 s of the example interpretation (the first sentence and the start of the second)."""
    data, rate = sf.read(str(EXAMPLES / "talk.ja.ogg"), dtype="float32")
    path = tmp_path_factory.mktemp("clips") / "rendition.wav"
    sf.write(str(path), data[: int(8.0 * rate)], rate)
    return path


class Watch:
    """Polls a driver as a window's timer does, and keeps every event it gave (:attr:`seen`)."""

    def __init__(self, driver: SessionDriver) -> None:
        self.driver = driver
        self.seen: list[SessionEvent] = []
        self._taken: set[int] = set()

    def until(self, wanted: type, timeout_s: float = 120.0) -> SessionEvent:
        """The next event of type ``wanted`` not yet taken; a failure that comes first fails the test."""
        deadline = time.monotonic() + timeout_s
        while True:
            for k, event in enumerate(self.seen):
                if k in self._taken:
                    continue
                if isinstance(event, wanted):
                    self._taken.add(k)
                    return event
                if isinstance(event, Failed):
                    raise AssertionError(f"{event.step} failed: {event.message}\n{event.details}")
            if time.monotonic() > deadline:
                raise AssertionError(f"no {wanted.__name__} within {timeout_s} s; seen "
                                     f"{sorted({type(e).__name__ for e in self.seen})}")
            self.seen.extend(self.driver.poll())
            time.sleep(0.02)


def _comparable(project: Project) -> dict[str, object]:
    """A project without what differs between two runs of the same session (the live pass's timings, the paths)."""
    data = project.to_dict()
    for key in ("path", "history", "undo"):
        data.pop(key, None)
    if isinstance(data.get("alignment"), dict):  # when it was made and how long its stages took
        alignment = {k: v for k, v in data["alignment"].items() if k != "created"}
        alignment["info"] = {k: v for k, v in (alignment.get("info") or {}).items() if k != "timings"}
        data["alignment"] = alignment
    practice = dict(data.get("metadata", {}).get("practice") or {})
    practice.pop("live", None)
    data["metadata"] = {**data.get("metadata", {}), "practice": practice}
    return data


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return Path(f"/proc/{pid}/stat").exists() and Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] in "ZX"


def test_a_session_in_a_worker_process_gives_what_the_session_here_gives(
        whisper_multilingual: Path, rendition_clip: Path, tmp_path: Path) -> None:
    talk = practice_talk(EXAMPLES / "talk.en.srt", src_lang="en", src_audio=EXAMPLES / "talk.en.ogg")
    recipe = SessionRecipe(talk, "ja", whisper_multilingual, rendition=RenditionFile(rendition_clip, speed=0), threads=2)
    driver = PracticeProcess(recipe)
    assert driver.pid is not None and driver.pid != os.getpid() and driver.alive
    watch = Watch(driver)
    driver.prepare()
    driver.start()  # waits behind prepare in the worker
    prepared = watch.until(Prepared)
    assert isinstance(prepared, Prepared) and prepared.facts.recording == rendition_clip and prepared.facts.from_file
    if hasattr(os, "getpriority"):  # the engine yields the CPUs to the window when they are all busy
        assert os.getpriority(os.PRIO_PROCESS, driver.pid) == min(19, os.getpriority(os.PRIO_PROCESS, 0) + ENGINE_NICE)
    assert prepared.facts.source.texts() == talk.source.texts() and driver.facts == prepared.facts
    watch.until(Started)
    driver.feed()
    fed = watch.until(Fed)
    assert isinstance(fed, Fed) and fed.seconds == pytest.approx(8.0)
    driver.stop()
    stopped = watch.until(Stopped)
    assert isinstance(stopped, Stopped) and stopped.recorded is None
    assert stopped.project.alignment is not None and stopped.project.alignment.embedder == "live"
    assert stopped.project.metadata["practice"]["from_file"] is True
    updates = [e.update for e in watch.seen if isinstance(e, LiveUpdated)]
    assert updates and [b.event() for b in updates[-1].beads] == [b.event() for b in stopped.live.beads]
    assert any(isinstance(e, Ticked) for e in watch.seen) and driver.status().elapsed_s == pytest.approx(8.0)
    assert any(isinstance(e, Progressed) and e.step == "stop" for e in watch.seen)

    driver.full_pass()
    driver.cancel()  # stops it (at its next check, or before it began)
    cancelled = watch.until(Cancelled)
    assert isinstance(cancelled, Cancelled) and cancelled.step == "full_pass"
    driver.full_pass()
    final = watch.until(FullPassed)
    assert isinstance(final, FullPassed)
    driver.save(final.project, tmp_path / "apart.sialign")
    saved = watch.until(Saved)
    assert isinstance(saved, Saved) and saved.written.path == str(tmp_path / "apart.sialign")
    pid = driver.pid
    driver.close()
    deadline = time.monotonic() + 10
    while not _gone(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _gone(pid) and not driver.poll()  # closed: no failure said for it

    session = PracticeSession(talk, tgt_lang="ja", model=whisper_multilingual, rendition=RenditionFile(rendition_clip, speed=0),
                              threads=2)
    session.prepare()
    session.start()
    session.feed()
    session.stop()
    here = session.full_pass()
    assert _comparable(final.project) == _comparable(here)
    session.save(here, tmp_path / "here.sialign")
    import sialign

    assert _comparable(sialign.load(tmp_path / "apart.sialign")) == _comparable(sialign.load(tmp_path / "here.sialign"))


def test_a_worker_process_that_dies_is_one_line_and_no_hang(tmp_path: Path, rendition_clip: Path) -> None:
    talk = practice_talk(EXAMPLES / "talk.en.srt", src_lang="en")
    driver = PracticeProcess(SessionRecipe(talk, "ja", fake_whisper_folder(tmp_path / "whisper-base"),
                                           rendition=RenditionFile(rendition_clip)))
    driver.prepare()
    assert driver.pid is not None
    os.kill(driver.pid, signal.SIGKILL)
    watch = Watch(driver)
    began = time.monotonic()
    failed = watch.until(Failed, timeout_s=10)
    assert isinstance(failed, Failed) and failed.step == "prepare" and time.monotonic() - began < 5
    assert failed.message == f"the practice session's process stopped unexpectedly (exit code -{int(signal.SIGKILL)}), " \
                             "perhaps for lack of memory — close other programs and try again"
    assert not driver.poll()  # said once
    driver.close()


def test_a_step_that_fails_in_the_worker_process_is_said_as_here(tmp_path: Path) -> None:
    """The talk's file is missing: the same one-line error, with the same settings, as in this process."""
    model = fake_whisper_folder(tmp_path / "whisper-base")
    recipe = SessionRecipe(TalkChoice(project_file=str(tmp_path / "missing.sialign")), "ja", model)
    driver = PracticeProcess(recipe)
    driver.prepare()
    failed = Watch(driver).until(Failed, timeout_s=60)
    here = PracticeThreads(recipe)
    here.prepare()
    expected = Watch(here).until(Failed, timeout_s=10)
    assert isinstance(failed, Failed) and isinstance(expected, Failed)
    assert failed.step == expected.step == "prepare" and isinstance(failed.error, SialignError)
    assert failed.message == expected.message and "\n" not in failed.message and "missing.sialign" in failed.message
    assert failed.error.settings == getattr(expected.error, "settings", ())
    assert "Traceback" in failed.details
    driver.close(wait_s=5)
    assert not driver.alive


def test_threads_drive_a_session_of_fakes_in_order(tmp_path: Path) -> None:
    """The same commands on threads of this process, with engines a process could not take (fakes)."""
    live = FakeLiveFactory()
    talk = practice_talk(EXAMPLES / "talk.en.srt", src_lang="en")
    rendition = tmp_path / "student.wav"
    sf.write(str(rendition), np.zeros(4 * 16000, dtype=np.float32), 16000)
    driver = PracticeThreads(SessionRecipe(talk, "ja", tmp_path, rendition=RenditionFile(rendition, speed=0)),
                             parts=SessionParts(live=live, full_pass=fake_practice(CHUNKS, LAYOUT, seconds=2.0)))
    watch = Watch(driver)
    driver.prepare()
    driver.start()
    watch.until(Started, timeout_s=10)
    for update in scripted_updates(talk.source, CHUNKS, LAYOUT):
        live.made[0].push(update)
    driver.feed()
    watch.until(Fed, timeout_s=10)
    assert sum(isinstance(e, LiveUpdated) for e in watch.seen) == 3 and live.made[0].fed
    driver.stop()
    stopped = watch.until(Stopped, timeout_s=10)
    assert isinstance(stopped, Stopped) and len(stopped.project.alignment.beads) >= 3  # type: ignore[union-attr]
    driver.full_pass()
    threading.Event().wait(0.2)
    driver.cancel()  # the fake pass does not look: it ends, and its result is not given
    cancelled = watch.until(Cancelled, timeout_s=10)
    assert isinstance(cancelled, Cancelled) and cancelled.step == "full_pass"
    assert not any(isinstance(e, FullPassed) for e in watch.seen)
    driver.full_pass()
    driver.full_pass()
    driver.cancel()  # the first is running, the second has not begun: neither gives a result
    assert isinstance(watch.until(Cancelled, timeout_s=10), Cancelled)
    assert isinstance(watch.until(Cancelled, timeout_s=10), Cancelled)
    driver.full_pass()
    assert isinstance(watch.until(FullPassed, timeout_s=10), FullPassed)
    driver.close()
