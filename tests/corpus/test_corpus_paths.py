"""Paths in corpus mode and in saved projects: absolute before they travel, relative to the project file when saved."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sialign.audio.decode import resolve_audio_path
from sialign.core.params import AlignParams
from sialign.corpus import align_corpus, corpus_status, read_manifest
from sialign.corpus.runner import TalkJob, params_digest, run_talk_job
from sialign.io.project_file import load_project, save_project

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"
DESKTOP = Path(__file__).resolve().parents[2] / "desktop"


@pytest.fixture
def small_corpus(tmp_path: Path) -> Path:
    """Two short talks with audio, listed in ``tmp/talks/manifest.tsv`` with relative paths."""
    folder = tmp_path / "talks"
    folder.mkdir()
    en = (EXAMPLES / "talk.en.srt").read_text(encoding="utf-8").split("\n\n")
    ja = (EXAMPLES / "talk.ja.srt").read_text(encoding="utf-8").split("\n\n")
    (folder / "first.en.srt").write_text("\n\n".join(en[:8]) + "\n", encoding="utf-8")
    (folder / "first.ja.srt").write_text("\n\n".join(ja[:22]) + "\n", encoding="utf-8")
    (folder / "second.en.srt").write_text("\n\n".join(en[20:28]) + "\n", encoding="utf-8")
    (folder / "second.ja.srt").write_text("\n\n".join(ja[55:75]) + "\n", encoding="utf-8")
    audio = folder / "audio"
    audio.mkdir()
    shutil.copy(EXAMPLES / "talk.en.ogg", audio / "first.en.ogg")
    (folder / "manifest.tsv").write_text(
        "talk\tsource\ttarget\tsource_audio\n"
        "first\tfirst.en.srt\tfirst.ja.srt\taudio/first.en.ogg\n"
        "second\tsecond.en.srt\tsecond.ja.srt\t\n",
        encoding="utf-8",
    )
    return folder / "manifest.tsv"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_for_port(port: int, process: subprocess.Popen[bytes], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the Dask scheduler exited with {process.returncode}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise AssertionError(f"no Dask scheduler on port {port} after {seconds} s")


def test_corpus_manifest_paths_are_absolute_even_for_a_relative_manifest(small_corpus: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(small_corpus.parent.parent)
    talks = read_manifest(Path("talks") / "manifest.tsv")
    assert all(t.source.is_absolute() and t.target.is_absolute() for t in talks)
    assert talks[0].source_audio == small_corpus.parent / "audio" / "first.en.ogg"


def test_corpus_project_paths_are_relative_to_the_project_file(small_corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Relative manifest and output folder, run from a third folder: the saved
    # project must still find its transcripts and audio from its own folder.
    monkeypatch.chdir(tmp_path)
    report = align_corpus(Path("talks") / "manifest.tsv", Path("runs") / "out")
    assert sorted(report.done) == ["first", "second"], report.failed
    project_file = tmp_path / "runs" / "out" / "first.sialign"
    project = load_project(project_file)
    assert project.source.audio_path == os.path.join("..", "..", "talks", "audio", "first.en.ogg")
    assert project.source.path == os.path.join("..", "..", "talks", "first.en.srt")
    monkeypatch.chdir(small_corpus.parent / "audio")  # opening from anywhere resolves against the project
    assert resolve_audio_path(project.source.audio_path, project.path) == small_corpus.parent / "audio" / "first.en.ogg"


def test_save_as_rebases_relative_paths(small_corpus: Path, tmp_path: Path) -> None:
    align_corpus(small_corpus, tmp_path / "out")
    project = load_project(tmp_path / "out" / "first.sialign")
    (tmp_path / "deeper" / "copy").mkdir(parents=True)
    save_project(project, tmp_path / "deeper" / "copy" / "first.sialign")
    again = load_project(tmp_path / "deeper" / "copy" / "first.sialign")
    assert resolve_audio_path(again.source.audio_path, again.path) == small_corpus.parent / "audio" / "first.en.ogg"
    assert again.source.audio_path == os.path.join("..", "..", "talks", "audio", "first.en.ogg")


def test_eaf_export_resolves_audio_against_the_project_folder(small_corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sialign

    align_corpus(small_corpus, tmp_path / "out")
    project = sialign.load(tmp_path / "out" / "first.sialign")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    sialign.export(project, "first.eaf")
    text = (elsewhere / "first.eaf").read_text(encoding="utf-8")
    expected = (small_corpus.parent / "audio" / "first.en.ogg").as_uri()
    assert f'MEDIA_URL="{expected}"' in text
    assert "elsewhere" not in text.split("MEDIA_URL=")[1].split(" ")[0]


def test_worker_that_cannot_see_a_file_fails_the_talk_saying_so(tmp_path: Path) -> None:
    spec = read_manifest_one(tmp_path)
    job = TalkJob(spec, str(tmp_path), AlignParams().to_dict(), (), {}, params_digest(AlignParams(), ()))
    outcome = run_talk_job(job)
    assert not outcome.ok
    assert "not visible on worker host" in outcome.message and "shared filesystem" in outcome.message
    assert "src.srt" in outcome.message


def read_manifest_one(tmp_path: Path):  # type: ignore[no-untyped-def]
    (tmp_path / "m.tsv").write_text("talk\tsource\ttarget\nt\t/nonexistent/share/src.srt\t/nonexistent/share/tgt.srt\n", encoding="utf-8")
    return read_manifest(tmp_path / "m.tsv")[0]


@pytest.mark.slow
def test_corpus_local_dask_cluster_stays_quiet_when_the_dashboard_port_is_taken(
    small_corpus: Path, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("distributed")
    blocker = socket.socket()
    try:
        blocker.bind(("", 8787))
        blocker.listen()
    except OSError:
        pass  # already taken by something else: the case under test
    import warnings

    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            report = align_corpus(small_corpus, tmp_path / "out", dask="local:1")
    finally:
        blocker.close()
    assert sorted(report.done) == ["first", "second"]
    captured = capfd.readouterr()
    # Dask says "Port 8787 is already in use" as a warning (and, under -q, on stderr).
    said = captured.err + captured.out + "\n".join(str(w.message) for w in caught)
    assert "8787" not in said and "dashboard" not in said.lower()


@pytest.mark.slow
def test_corpus_on_a_real_scheduler_with_a_worker_in_another_folder(small_corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`dask scheduler` + `dask worker` started in other folders; relative manifest and relative -o on the client."""
    pytest.importorskip("distributed")
    dask_cli = Path(sys.executable).with_name("dask")
    if not dask_cli.exists():
        pytest.skip("the dask command is not installed")
    port = _free_port()
    env = dict(os.environ, PYTHONPATH=str(DESKTOP), SIALIGN_ENCODER_THREADS="1")
    scheduler_dir, worker_dir, client_dir = tmp_path / "sched", tmp_path / "worker", tmp_path
    scheduler_dir.mkdir()
    worker_dir.mkdir()
    scheduler = subprocess.Popen(
        [str(dask_cli), "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
        cwd=scheduler_dir, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    worker = None
    try:
        _wait_for_port(port, scheduler, 60)
        worker = subprocess.Popen(
            [str(dask_cli), "worker", f"tcp://127.0.0.1:{port}", "--nthreads", "1", "--nworkers", "1",
             "--no-dashboard", "--host", "127.0.0.1", "--local-directory", str(worker_dir / "dask")],
            cwd=worker_dir, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        monkeypatch.chdir(client_dir)
        report = align_corpus(Path("talks") / "manifest.tsv", "out", dask=f"tcp://127.0.0.1:{port}")
        assert sorted(report.done) == ["first", "second"], report.failed
        assert (client_dir / "out" / "first.sialign").exists() and (client_dir / "out" / "second.sialign").exists()
        assert not list(worker_dir.glob("**/*.sialign")) and not list(scheduler_dir.glob("**/*.sialign"))
        assert {row["talk"]: row["status"] for row in corpus_status("out")} == {"first": "done", "second": "done"}
        again = align_corpus(Path("talks") / "manifest.tsv", "out", dask=f"tcp://127.0.0.1:{port}")
        assert again.done == [] and sorted(t for t, _ in again.skipped) == ["first", "second"]
    finally:
        for process in (worker, scheduler):
            if process is not None:
                process.terminate()
        for process in (worker, scheduler):
            if process is not None:
                try:
                    process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(timeout=10)


def test_corpus_export_of_a_split_before_splitting_says_what_to_run(small_corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from sialign.cli.main import main

    align_corpus(small_corpus, tmp_path / "out")
    code = main(["corpus", "export", str(tmp_path / "out"), "--split", "train", "-o", str(tmp_path / "train.tsv")])
    err = capsys.readouterr().err
    assert code != 0 and f"{tmp_path / 'out'}: no talk is assigned to a split yet — split the corpus first" in err
    assert err.rstrip().endswith("(sialign corpus split FOLDER)")  # the command line's way to split it
    assert main(["corpus", "split", str(tmp_path / "out"), "--dev", "1"]) == 0
    assert main(["corpus", "export", str(tmp_path / "out"), "--split", "train", "-o", str(tmp_path / "train.tsv")]) == 0


def test_corpus_help_describes_its_folders(capsys: pytest.CaptureFixture[str]) -> None:
    from sialign.cli.main import main

    assert main(["corpus", "eval", "-h"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "CORPUS_DIR the corpus folder" in out and "named <talk>.align" in out
