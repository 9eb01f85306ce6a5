from __future__ import annotations

import os
import stat

import pytest

from sialign.io.atomic import atomic_open, atomic_write_text


def test_atomic_write_replaces_file(tmp_path) -> None:
    target = tmp_path / "out.tsv"
    target.write_text("old")
    atomic_write_text(target, "new")
    assert target.read_text() == "new"
    assert [p.name for p in tmp_path.iterdir()] == ["out.tsv"]


def test_atomic_open_keeps_old_file_on_error(tmp_path) -> None:
    target = tmp_path / "out.tsv"
    target.write_text("good")
    with pytest.raises(RuntimeError):
        with atomic_open(target) as fh:
            fh.write("half")
            raise RuntimeError("crash mid-export")
    assert target.read_text() == "good"
    assert [p.name for p in tmp_path.iterdir()] == ["out.tsv"]


def test_atomic_write_uses_umask_not_private_mode(tmp_path) -> None:
    old = os.umask(0o022)
    try:
        atomic_write_text(tmp_path / "new.txt", "x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == 0o644


def test_atomic_write_keeps_existing_mode(tmp_path) -> None:
    target = tmp_path / "kept.txt"
    target.write_text("x")
    target.chmod(0o640)
    atomic_write_text(target, "y")
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
