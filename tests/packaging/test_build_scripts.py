"""build.sh's machine checks and the smoke test's TSV header (issue 26)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PACKAGING = REPO / "packaging"
sys.path.insert(0, str(PACKAGING))

from tsv_header import HeaderNotFound, parallel_tsv_columns  # noqa: E402
from tsv_header import main as tsv_header_main  # noqa: E402


def fake_build_env(tmp_path: Path, ldconfig_lines: list[str]) -> dict[str, str]:
    """A PATH with an ``ldconfig`` printing ``ldconfig_lines`` and a venv whose python accepts anything."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    listing = tmp_path / "ldconfig.txt"
    listing.write_text("".join(line + "\n" for line in ldconfig_lines), encoding="utf-8")
    ldconfig = bin_dir / "ldconfig"
    ldconfig.write_text(f"#!/bin/sh\ncat '{listing}'\n", encoding="utf-8")
    ldconfig.chmod(0o755)
    venv_bin = tmp_path / "venv" / "bin"
    venv_bin.mkdir(parents=True)
    python = venv_bin / "python"
    python.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")  # imports succeed, torch.version.cuda is ""
    python.chmod(0o755)
    return {**os.environ, "PATH": f"{bin_dir}:/usr/bin:/bin", "SIALIGN_VENV": str(tmp_path / "venv")}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the PortAudio check runs on Linux only")
def test_portaudio_check_survives_a_long_ldconfig_listing(tmp_path: Path) -> None:
    # PortAudio first, then far more than a pipe buffer: `ldconfig -p | grep -q`
    # under pipefail failed here (grep exits, ldconfig dies of SIGPIPE).
    lines = ["\tlibportaudio.so.2 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libportaudio.so.2"]
    lines += [f"\tlibfiller{i}.so.1 (libc6,x86-64) => /usr/lib/libfiller{i}.so.1" for i in range(20000)]
    env = fake_build_env(tmp_path, lines)
    for _ in range(3):
        done = subprocess.run(["bash", str(PACKAGING / "build.sh"), "--check"], capture_output=True, text=True, env=env)
        assert done.returncode == 0, done.stderr
        assert "ready" in done.stdout


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the PortAudio check runs on Linux only")
def test_missing_portaudio_is_one_clear_line(tmp_path: Path) -> None:
    env = fake_build_env(tmp_path, ["\tlibc.so.6 (libc6,x86-64) => /lib/x86_64-linux-gnu/libc.so.6"])
    done = subprocess.run(["bash", str(PACKAGING / "build.sh"), "--check"], capture_output=True, text=True, env=env)
    assert done.returncode == 1
    assert done.stderr.strip() == (
        "build.sh: libportaudio.so.2 not found — install it (Debian/Ubuntu: apt-get install libportaudio2)"
    )


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fakes a Linux build environment")
def test_lean_build_refuses_a_bundled_model(tmp_path: Path) -> None:
    env = fake_build_env(tmp_path, ["\tlibportaudio.so.2 => /usr/lib/libportaudio.so.2"])
    done = subprocess.run(
        ["bash", str(PACKAGING / "build.sh"), "--lean", "--model", str(tmp_path), "--check"],
        capture_output=True, text=True, env=env,
    )
    assert done.returncode == 1 and "--lean cannot bundle a model" in done.stderr


def test_smoke_test_header_is_the_export_code_header() -> None:
    from sialign.io.writers import PARALLEL_TSV_COLUMNS

    assert parallel_tsv_columns() == PARALLEL_TSV_COLUMNS
    done = subprocess.run([sys.executable, str(PACKAGING / "tsv_header.py")], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout == "\t".join(PARALLEL_TSV_COLUMNS) + "\n"


def test_header_reader_follows_a_changed_export_code(tmp_path: Path) -> None:
    writers = tmp_path / "writers.py"
    writers.write_text('BASE = ("a", "b")\nOTHER = compute()\nPARALLEL_TSV_COLUMNS = BASE + ("c",) + ("d",)\n', encoding="utf-8")
    assert parallel_tsv_columns(writers) == ("a", "b", "c", "d")


def test_header_reader_says_when_it_cannot_follow(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    writers = tmp_path / "writers.py"
    writers.write_text("PARALLEL_TSV_COLUMNS = tuple(make_columns())\n", encoding="utf-8")
    with pytest.raises(HeaderNotFound):
        parallel_tsv_columns(writers)
    assert tsv_header_main(["tsv_header.py", str(writers)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "update packaging/tsv_header.py" in err


def test_smoke_test_has_no_copied_header() -> None:
    text = (PACKAGING / "smoke_test.sh").read_text(encoding="utf-8")
    assert "packaging/tsv_header.py" in text
    assert "talk\\tsrc_ids" not in text and "NF != 11" not in text


def test_build_script_has_no_breakable_ldconfig_pipe() -> None:
    text = (PACKAGING / "build.sh").read_text(encoding="utf-8")
    assert "ldconfig -p 2>/dev/null | grep" not in text and "set -euo pipefail" in text
