"""The Linux bundle's one program: started as `sialign` it is the command line, under any other name the desktop app."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

PACKAGING = Path(__file__).resolve().parents[2] / "packaging"


def _launch():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("sialign_launch", PACKAGING / "launch.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("argv0", "cli"), [
    ("/opt/sialign/sialign", True), ("/usr/bin/sialign", True), ("sialign", True), (r"C:\SI\sialign.exe", True),
    ("/opt/sialign/sialign-gui", False), ("./sialign-gui", False), ("/tmp/.mount_SI_Aligner/AppRun", False), ("", False),
])
def test_the_name_decides(argv0: str, cli: bool) -> None:
    path = argv0.replace("\\", "/") if argv0.startswith("C:") else argv0
    assert _launch().runs_command_line(path) is cli


def test_started_as_sialign_it_runs_the_command_line(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    launch = _launch()
    monkeypatch.setattr(sys, "argv", ["/opt/sialign/sialign", "--version"])
    try:
        code = launch.main()
    except SystemExit as done:  # argparse's --version may end the program itself
        code = done.code
    assert code in (0, None) and capsys.readouterr().out.startswith("sialign ")


def test_the_spec_builds_one_program_on_linux_and_build_sh_links_the_other() -> None:
    spec = (PACKAGING / "sialign.spec").read_text(encoding="utf-8")
    assert 'ONE_PROGRAM = sys.platform.startswith("linux")' in spec
    assert 'ENTRIES = ["launch"] if ONE_PROGRAM else ["launch_gui", "launch_cli"]' in spec
    build = (PACKAGING / "build.sh").read_text(encoding="utf-8")
    assert 'ln -s sialign-gui "$DIST/sialign"' in build
