"""The Debian package: built from a stand-in bundle folder, installed and removed under a scratch root."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BUILD_DEB = REPO / "packaging" / "deb" / "build_deb.sh"

pytestmark = pytest.mark.skipif(
    shutil.which("dpkg-deb") is None or shutil.which("dpkg") is None, reason="needs dpkg and dpkg-deb (Debian/Ubuntu)"
)


def stand_in_bundle(folder: Path, variant: str = "full") -> Path:
    """A folder shaped like packaging/build.sh's output, with shell scripts for the two programs."""
    (folder / "_internal" / "resources").mkdir(parents=True)
    for name in ("sialign", "sialign-gui"):
        program = folder / name
        program.write_text(f'#!/bin/sh\necho "{name} $*"\n', encoding="utf-8")
        program.chmod(0o755)
    (folder / "_internal" / "resources" / "data.txt").write_text("data\n", encoding="utf-8")
    (folder / "install-desktop-entry.sh").write_text("#!/bin/sh\n", encoding="utf-8")
    (folder / "BUILD_VARIANT").write_text(variant + "\n", encoding="utf-8")
    return folder


def build(bundle: Path, out: Path) -> Path:
    env = {**os.environ, "SIALIGN_DEB_VERSION": "1.2.3", "SIALIGN_DEB_ARCH": "amd64"}
    done = subprocess.run(["bash", str(BUILD_DEB), str(bundle), str(out)], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    debs = list(out.glob("*.deb"))
    assert len(debs) == 1
    return debs[0]


def dpkg(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    # --root keeps the database (ROOT/var/lib/dpkg) and the files inside the scratch root;
    # the package's dependencies are system libraries the scratch root cannot have.
    command = ["dpkg", f"--root={root}", "--force-depends", "--force-not-root", "--log=/dev/null", *args]
    return subprocess.run(command, capture_output=True, text=True)


def test_deb_installs_programs_menu_entry_type_and_icons_and_removes_them(tmp_path: Path) -> None:
    deb = build(stand_in_bundle(tmp_path / "bundle"), tmp_path / "out")
    assert deb.name == "sialign_1.2.3_amd64.deb"
    info = subprocess.run(["dpkg-deb", "--field", str(deb), "Package", "Version", "Depends"], capture_output=True, text=True, check=True).stdout
    assert "Package: sialign\n" in info and "Version: 1.2.3\n" in info and "libxcb-cursor0" in info
    listing = subprocess.run(["dpkg-deb", "--contents", str(deb)], capture_output=True, text=True, check=True).stdout
    assert " root/root " in listing and "install-desktop-entry.sh" not in listing

    root = tmp_path / "root"
    for sub in ("info", "updates", "triggers"):
        (root / "var" / "lib" / "dpkg" / sub).mkdir(parents=True)
    (root / "var" / "lib" / "dpkg" / "status").touch()
    done = dpkg(root, "-i", str(deb))
    assert done.returncode == 0, done.stdout + done.stderr

    for name in ("sialign", "sialign-gui"):
        link = root / "usr" / "bin" / name
        assert link.is_symlink() and os.readlink(link) == f"/opt/sialign/{name}"
        program = root / "opt" / "sialign" / name
        assert os.access(program, os.X_OK)
        assert subprocess.run([str(program), "--version"], capture_output=True, text=True).stdout == f"{name} --version\n"
    assert (root / "opt" / "sialign" / "_internal" / "resources" / "data.txt").read_text(encoding="utf-8") == "data\n"
    entry = (root / "usr" / "share" / "applications" / "sialign.desktop").read_text(encoding="utf-8")
    assert entry == (REPO / "packaging" / "sialign.desktop").read_text(encoding="utf-8")
    assert "Exec=sialign-gui %f" in entry
    mime = root / "usr" / "share" / "mime" / "packages" / "sialign.xml"
    assert mime.read_bytes() == (REPO / "packaging" / "sialign-mime.xml").read_bytes()
    assert (root / "usr" / "share" / "icons" / "hicolor" / "256x256" / "apps" / "sialign.png").is_file()
    assert (root / "usr" / "share" / "icons" / "hicolor" / "scalable" / "apps" / "sialign.svg").is_file()
    status = dpkg(root, "-s", "sialign")
    assert "Status: install ok installed" in status.stdout

    done = dpkg(root, "-r", "sialign")
    assert done.returncode == 0, done.stdout + done.stderr
    left = [p for p in root.rglob("*") if p.is_file() and "var/lib/dpkg" not in p.as_posix()]
    assert left == []
    assert not (root / "usr" / "bin" / "sialign").is_symlink() and not (root / "opt" / "sialign").exists()


def test_lean_bundle_becomes_the_lean_package(tmp_path: Path) -> None:
    deb = build(stand_in_bundle(tmp_path / "bundle", variant="lean"), tmp_path / "out")
    assert deb.name == "sialign-lean_1.2.3_amd64.deb"
    fields = subprocess.run(["dpkg-deb", "--field", str(deb), "Conflicts"], capture_output=True, text=True, check=True).stdout
    assert fields.strip() == "sialign"


def test_a_folder_without_the_programs_is_refused(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    done = subprocess.run(["bash", str(BUILD_DEB), str(tmp_path / "empty"), str(tmp_path / "out")], capture_output=True, text=True)
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "has no sialign and sialign-gui programs" in done.stderr
