"""Nothing a reviewer or a student made is lost between files and processes (data safety, round 2, findings 1–4).

1. The booth never records over a file: ``practice --record`` once recorded over the talk's own recording.
2. A command that writes a project leaves the app's autosave and journal alone, and refuses (exit 75) while
   they hold review the file does not.
3. A project has one writer: a command refuses (exit 75, naming the holder) while another process holds it.
4. An output is compared with every file the command stands on: the transcripts and recordings a project
   names, and a corpus folder's state, manifest, projects and transcripts.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from tests.cli.test_cli_output_over_input import _refused

from sialign.cli.main import EXIT_BUSY, EXIT_USAGE, main
from sialign.core.errors import ProjectBusyError
from sialign.io.project_file import autosave_path, journal_path, load_project, save_autosave
from sialign.io.project_lock import acquire, holder_of, lock_path

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"
DESKTOP = Path(__file__).resolve().parents[2] / "desktop"


@pytest.fixture
def talk(tmp_path: Path) -> dict[str, Path]:
    for name in ("talk.en.srt", "talk.ja.srt", "talk.en.ogg"):
        shutil.copy(EXAMPLES / name, tmp_path / name)
    project = tmp_path / "v.sialign"
    assert main(["align", str(tmp_path / "talk.en.srt"), str(tmp_path / "talk.ja.srt"), "--model", "lexical", "-q",
                 "--src-audio", str(tmp_path / "talk.en.ogg"), "-o", str(project)]) == 0
    return {"src": tmp_path / "talk.en.srt", "tgt": tmp_path / "talk.ja.srt", "audio": tmp_path / "talk.en.ogg",
            "project": project, "folder": tmp_path}


def _align_over(talk: dict[str, Path], *extra: str) -> int:
    return main(["align", str(talk["src"]), str(talk["tgt"]), "--model", "lexical", "-q", "-o", str(talk["project"]), *extra])


# -- 1. the booth never records over a file ------------------------------------------------------------------------
def test_recording_over_the_talks_own_recording_is_refused(talk: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    before = talk["audio"].read_bytes()
    code = main(["practice", str(talk["src"]), "--src-audio", str(talk["audio"]), "--src-lang", "en", "--tgt-lang", "ja",
                 "--record", "--recording", str(talk["audio"]), "-o", str(talk["folder"] / "s.sialign")])
    assert code == EXIT_USAGE
    assert talk["audio"].read_bytes() == before
    err = capsys.readouterr().err
    assert "--recording" in err and "SRC_AUDIO" in err and "nothing was written" in err


class _FakeRecorder:
    """Stands in for the booth's recorder: notes where it was asked to record, and ends at once."""

    made: list[Path] = []

    def __init__(self, source_audio: Path | None, out_path: Path, **kwargs: Any) -> None:
        _FakeRecorder.made.append(out_path)
        self.out_path = out_path
        self.source_finished = True
        self.recording = False
        self.error = ""
        self.level_dbfs = -120.0
        self.elapsed_s = 0.0
        self.source_duration_s = 0.0
        self.paused = False
        self.dropped_blocks = 0

    def prepare(self, should_stop: Any = None) -> None:
        pass

    def start(self) -> None:
        self.recording = True

    def stop(self) -> Any:
        self.recording = False
        return SimpleNamespace(path=self.out_path)


@pytest.mark.parametrize("named", [False, True])
def test_the_default_or_named_recording_never_replaces_a_file(talk: dict[str, Path], monkeypatch: pytest.MonkeyPatch,
                                                              named: bool) -> None:
    """``-o talk.en.sialign`` once recorded into ``talk.en.wav``, the talk's own recording."""
    import sialign.booth.recorder as recorder
    from booth_fakes import FakeLiveFactory
    from sialign.cli import cmd_practice
    from sialign.workflows.booth import practice_talk
    from sialign.workflows.practice_session import Microphone, PracticeSession, SessionParts

    monkeypatch.setattr(recorder, "BoothRecorder", _FakeRecorder)
    _FakeRecorder.made.clear()
    own = talk["folder"] / "talk.en.wav"
    own.write_bytes(b"the talk's recording")
    args = SimpleNamespace(recording=str(own) if named else None, quiet=True)
    got = cmd_practice._recording_path(args, talk["folder"] / "talk.en.sialign")
    session = PracticeSession(practice_talk(talk["src"], src_lang="en", src_audio=talk["audio"]), tgt_lang="ja",
                              model=talk["folder"], rendition=Microphone(got), parts=SessionParts(live=FakeLiveFactory()))
    session.prepare()
    session.start()
    cmd_practice._record(args, session)
    assert _FakeRecorder.made == [got] and session.recording_path == got
    assert got != own and not got.exists() and got.parent == own.parent
    assert got.name.startswith("talk.en.practice-") and got.suffix == ".wav"
    assert own.read_bytes() == b"the talk's recording"


def test_a_free_name_is_kept_as_asked(tmp_path: Path) -> None:
    from sialign.workflows.booth import free_recording_path

    wanted = tmp_path / "session.wav"
    assert free_recording_path(wanted) == wanted
    wanted.write_bytes(b"x")
    first = free_recording_path(wanted, when=0)
    first.write_bytes(b"y")
    second = free_recording_path(wanted, when=0)
    assert len({wanted, first, second}) == 3 and second.name.endswith("-2.wav")


# -- 2. the app's recovery files belong to the app ----------------------------------------------------------------
def _unsaved_review(project_path: Path) -> Path:
    """An autosave newer than the file, as the app leaves it after a crash with edits not saved."""
    from sialign.core.model import BeadStatus

    project = load_project(project_path)
    assert project.alignment is not None
    project.alignment.beads[0].status = BeadStatus.CONFIRMED
    written = save_autosave(project)
    later = time.time() + 5
    os.utime(written, (later, later))
    return written


def test_a_command_refuses_to_overwrite_unsaved_review(talk: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    autosave = _unsaved_review(talk["project"])
    before = talk["project"].read_bytes()
    assert _align_over(talk) == EXIT_BUSY
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--discard-recovery" in err and "not saved" in err
    assert talk["project"].read_bytes() == before and autosave.is_file()
    # The reviewer's choice: lose it on purpose.
    assert _align_over(talk, "--discard-recovery") == 0
    assert not autosave.exists()


def test_filter_over_its_project_keeps_the_review_the_app_journalled(talk: dict[str, Path],
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """6 edits in the app, kill -9, then ``filter p -o p``: the edits were gone without a word."""
    autosave = _unsaved_review(talk["project"])
    assert main(["filter", str(talk["project"]), "-o", str(talk["project"]), "--no-intra"]) == EXIT_BUSY
    assert autosave.is_file()
    assert "SI Aligner holds review" in capsys.readouterr().err


def test_a_command_leaves_recovery_files_that_hold_nothing_newer(talk: dict[str, Path]) -> None:
    """``align -o talk.sialign`` once deleted the journal and autosave beside it."""
    project = load_project(talk["project"])
    autosave = save_autosave(project)
    earlier = time.time() - 60
    os.utime(autosave, (earlier, earlier))
    journal = journal_path(talk["project"])
    journal.write_text("", encoding="utf-8")
    assert _align_over(talk) == 0
    assert autosave.is_file() and journal.is_file()
    assert autosave == autosave_path(talk["project"])


# -- 3. one writer at a time -----------------------------------------------------------------------------------------
HOLD = """
import sys
from sialign.io.project_lock import acquire
lock = acquire(sys.argv[1], "SI Aligner")
print("held", flush=True)
sys.stdin.read()
"""


@pytest.fixture
def held(talk: dict[str, Path]):  # type: ignore[no-untyped-def]
    """Another process holds the project, as a second app instance would."""
    env = {**os.environ, "PYTHONPATH": str(DESKTOP) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(talk["project"])], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
    yield proc
    if proc.poll() is None:
        proc.kill()
    proc.wait()


def test_a_command_refuses_a_project_another_process_holds(talk: dict[str, Path], held: subprocess.Popen[str],
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    before = talk["project"].read_bytes()
    assert _align_over(talk) == EXIT_BUSY
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "is open in SI Aligner" in err and f"process {held.pid}" in err
    assert talk["project"].read_bytes() == before
    holder = holder_of(talk["project"])
    assert holder is not None and holder.pid == held.pid
    with pytest.raises(ProjectBusyError, match="open in SI Aligner"):
        acquire(talk["project"], "sialign test")
    assert _align_over(talk, "--force") == 0


def test_a_lock_left_by_a_dead_process_is_taken_over(talk: dict[str, Path], held: subprocess.Popen[str]) -> None:
    held.kill()
    held.wait()
    assert lock_path(talk["project"]).is_file()  # left behind by kill -9
    assert holder_of(talk["project"]) is None
    assert _align_over(talk) == 0
    assert not lock_path(talk["project"]).exists()  # released after the write


def test_the_lock_is_shared_within_one_process(talk: dict[str, Path]) -> None:
    """The app holds its project open; its own Save (and a second open of the same file) is no second writer."""
    first = acquire(talk["project"], "SI Aligner")
    second = acquire(talk["project"], "SI Aligner")
    assert second is first and holder_of(talk["project"]) is None
    second.release()
    assert first.held and lock_path(talk["project"]).is_file()
    first.release()
    assert not first.held and not lock_path(talk["project"]).exists()


# -- 4. every file a command stands on is an input -----------------------------------------------------------------
def test_evs_json_over_a_transcript_or_recording_the_project_names(talk: dict[str, Path],
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    p = str(talk["project"])
    err = _refused(["evs", p, "--json", str(talk["tgt"])], talk["tgt"], capsys)
    assert "interpretation transcript named by the input PROJECT" in err
    _refused(["evs", p, "--json", str(talk["audio"])], talk["audio"], capsys)


def test_project_reports_over_the_transcripts_they_read(talk: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    p = str(talk["project"])
    glossary = talk["folder"] / "glossary.tsv"
    glossary.write_text("water\t水\n", encoding="utf-8")
    _refused(["terms", p, str(glossary), "-o", str(talk["src"])], talk["src"], capsys)
    _refused(["project-tags", p, "-o", str(talk["tgt"])], talk["tgt"], capsys)
    other = talk["folder"] / "w.sialign"
    shutil.copy(talk["project"], other)
    _refused(["compare", p, str(other), "-o", str(talk["tgt"])], talk["tgt"], capsys)


def test_practice_events_over_the_projects_files(talk: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    base = ["practice", str(talk["project"]), "--src-lang", "en", "--tgt-lang", "ja", "--record", "-o",
            str(talk["folder"] / "s.sialign")]
    _refused([*base, "--events", str(talk["tgt"])], talk["tgt"], capsys)
    _refused([*base, "--events", str(talk["audio"])], talk["audio"], capsys)


@pytest.fixture
def corpus(tmp_path: Path) -> dict[str, Path]:
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("talk.en.srt", "talk.ja.srt"):
        shutil.copy(EXAMPLES / name, folder / name)
    manifest = tmp_path / "manifest.tsv"
    manifest.write_text("talk\tsource\ttarget\nwater\tin/talk.en.srt\tin/talk.ja.srt\n", encoding="utf-8")
    out = tmp_path / "corpus"
    assert main(["corpus", "align", str(manifest), "-o", str(out), "--model", "lexical", "--jobs", "1"]) == 0
    return {"manifest": manifest, "out": out, "src": folder / "talk.en.srt", "project": out / "water.sialign"}


def test_corpus_export_over_the_corpus_own_files(corpus: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    out = str(corpus["out"])
    err = _refused(["corpus", "export", out, "-o", str(corpus["out"] / "corpus.json")], corpus["out"] / "corpus.json", capsys)
    assert "corpus state file" in err
    _refused(["corpus", "export", out, "-o", str(corpus["manifest"])], corpus["manifest"], capsys)
    _refused(["corpus", "export", out, "-o", str(corpus["project"])], corpus["project"], capsys)
    _refused(["corpus", "export", out, "-o", str(corpus["src"])], corpus["src"], capsys)
    # The corpus still reads.
    assert main(["corpus", "status", out]) == 0
