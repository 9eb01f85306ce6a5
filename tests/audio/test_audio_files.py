"""Audio paths: resolving them against the project file, and refusing what is not a regular file."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sialign.audio.decode import audio_file_problem, load_audio, resolve_audio_path
from sialign.core.errors import InputError, OutsideAllowedFolders
from sialign.core.stored_files import allow


def test_resolve_audio_path(tmp_path: Path) -> None:
    assert resolve_audio_path(None, tmp_path / "p.sialign") is None
    assert resolve_audio_path("a.wav", tmp_path / "p.sialign") == tmp_path / "a.wav"
    # A project never saved was read from no file: its paths were chosen in this session.
    assert resolve_audio_path(str(tmp_path / "b.wav"), None) == tmp_path / "b.wav"
    # A saved one reads only its own folder and the allowed ones.
    with pytest.raises(OutsideAllowedFolders, match="'source.audio_path' names /elsewhere/a.wav, outside"):
        resolve_audio_path("../../../../../../../../elsewhere/a.wav", tmp_path / "p.sialign", "source.audio_path")
    allow(["/"])
    assert resolve_audio_path("/elsewhere/a.wav", tmp_path / "p.sialign") == Path("/elsewhere/a.wav")


def test_audio_file_problem_names_the_kind(tmp_path: Path) -> None:
    (tmp_path / "f.wav").write_bytes(b"x")
    assert audio_file_problem(tmp_path / "f.wav") == ""
    assert "no such file" in audio_file_problem(tmp_path / "nope.wav")
    assert "folder" in audio_file_problem(tmp_path)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_load_audio_refuses_a_named_pipe_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "live.wav"
    os.mkfifo(fifo)
    assert "named pipe" in audio_file_problem(fifo)
    with pytest.raises(InputError, match="named pipe") as info:
        load_audio(fifo)  # opening it would wait for a writer forever
    assert "\n" not in str(info.value) and "live.wav" in str(info.value)


def test_load_audio_missing_file_says_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="locate the recording and set it in the project") as info:
        load_audio(tmp_path / "moved.wav")
    assert "audio settings" not in str(info.value) and info.value.settings == ("project_files",)
