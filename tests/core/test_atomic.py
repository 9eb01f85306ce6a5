from __future__ import annotations

import os
import stat

import pytest

from sialign.core.atomic import atomic_open, atomic_write_text


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


# ---------------------------------------------------------------------------
# Issue 12: kills, long names, links, special files, full disks


def test_atomic_killed_writer_temp_is_removed_by_next_write(tmp_path) -> None:
    import signal
    import subprocess
    import sys
    import time

    target = tmp_path / "out.tsv"
    code = (
        "import sys, time\n"
        "from sialign.core.atomic import atomic_open\n"
        "with atomic_open(sys.argv[1]) as fh:\n"
        "    fh.write('partial'); fh.flush(); print('writing', flush=True); time.sleep(60)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code, str(target)], stdout=subprocess.PIPE, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == b"writing"
        temps = [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
        assert len(temps) == 1
        # A live writer's temporary file is never removed by another write.
        atomic_write_text(tmp_path / "out.tsv", "other")
        assert temps[0].exists()
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    time.sleep(0.05)
    assert temps[0].exists()  # the kill left it behind
    atomic_write_text(target, "complete")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.tsv"]
    assert target.read_text() == "complete"


@pytest.mark.parametrize("length", [242, 250, 255])
def test_atomic_long_names(tmp_path, length: int) -> None:
    target = tmp_path / ("a" * (length - 4) + ".tsv")
    atomic_write_text(target, "x")
    assert target.read_text() == "x"
    assert [p.name for p in tmp_path.iterdir()] == [target.name]


def test_atomic_long_multibyte_name(tmp_path) -> None:
    target = tmp_path / ("字" * 83 + ".tx")  # 249 + 3 = 252 bytes
    atomic_write_text(target, "x")
    assert target.read_text() == "x"


def test_atomic_writes_through_symlink(tmp_path) -> None:
    real = tmp_path / "real.tsv"
    real.write_text("old")
    link = tmp_path / "link.tsv"
    link.symlink_to(real)
    atomic_write_text(link, "new")
    assert link.is_symlink()
    assert real.read_text() == "new"
    dangling = tmp_path / "dangling.tsv"
    dangling.symlink_to(tmp_path / "sub" / "made.tsv")
    atomic_write_text(dangling, "made")
    assert dangling.is_symlink() and (tmp_path / "sub" / "made.tsv").read_text() == "made"


def test_atomic_writes_directly_to_fifo(tmp_path) -> None:
    import threading

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    atomic_write_text(fifo, "through the pipe\n")
    reader.join(5)
    assert received == [b"through the pipe\n"]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_atomic_writes_directly_to_character_device() -> None:
    atomic_write_text("/dev/null", "discarded")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_atomic_dash_is_standard_output(capfd) -> None:
    atomic_write_text("-", "to stdout ✓\n")
    assert capfd.readouterr().out == "to stdout ✓\n"


def test_atomic_disk_full_is_one_line(tmp_path) -> None:
    from sialign.core.errors import OutputError

    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    link = tmp_path / "full.tsv"
    link.symlink_to("/dev/full")
    with pytest.raises(OutputError, match=r"full.tsv: cannot write the file \(No space left on device\) — the disk is full") as info:
        atomic_write_text(link, "x" * 100_000)
    assert isinstance(info.value, OSError)


@pytest.mark.parametrize(
    "errno_, hint",
    [(28, "the disk is full"), (30, "read-only"), (13, "no permission")],
)
def test_atomic_os_errors_name_the_target(tmp_path, monkeypatch, errno_: int, hint: str) -> None:
    from sialign.core.errors import OutputError

    def fail(*args, **kwargs):
        raise OSError(errno_, os.strerror(errno_), "/some/.out.tsv.abcdefgh.tmp")

    monkeypatch.setattr(os, "replace", fail)
    target = tmp_path / "out.tsv"
    with pytest.raises(OutputError) as info:
        atomic_write_text(target, "x")
    message = str(info.value)
    assert message.startswith(f"{target}: cannot write the file") and hint in message
    assert ".tmp" not in message and "\n" not in message
    assert [p.name for p in tmp_path.iterdir()] == []


def test_atomic_missing_parent_under_a_file(tmp_path) -> None:
    from sialign.core.errors import OutputError

    (tmp_path / "file").write_text("x")
    with pytest.raises(OutputError, match="check the path"):
        atomic_write_text(tmp_path / "file" / "out.tsv", "x")


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs Linux's /proc")
def test_atomic_write_into_a_folder_that_refuses_files_says_so() -> None:
    """/proc exists but takes no new files: the message must not claim the folder is missing."""
    from sialign.core.errors import OutputError

    with pytest.raises(OutputError) as caught:
        atomic_write_text("/proc/sialign_out.tsv", "x")
    message = str(caught.value)
    assert message.startswith("/proc/sialign_out.tsv: cannot write the file")
    assert "does not accept new files" in message and "does not exist" not in message
