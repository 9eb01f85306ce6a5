"""Desktop integration files (issue 12): the entry validates, .sialign is a MIME type, icons install."""

from __future__ import annotations

import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PACKAGING = REPO / "packaging"
MIME_NS = "{http://www.freedesktop.org/standards/shared-mime-info}"


def entry() -> dict[str, str]:
    lines = (PACKAGING / "sialign.desktop").read_text(encoding="utf-8").splitlines()
    return dict(line.split("=", 1) for line in lines if "=" in line and not line.startswith("#"))


def test_desktop_entry_declares_the_project_type() -> None:
    values = entry()
    assert values["Version"] == "1.0"
    assert values["MimeType"] == "application/x-sialign-project;"
    assert values["Icon"] == "sialign"
    main_categories = {"AudioVideo", "Audio", "Video", "Development", "Education", "Game", "Graphics", "Network", "Office", "Science", "Settings", "System", "Utility"}
    assert len([c for c in values["Categories"].split(";") if c in main_categories]) == 1


def test_desktop_entry_validates() -> None:
    validator = shutil.which("desktop-file-validate")
    if validator is None:
        pytest.skip("desktop-file-validate is not installed (Debian: desktop-file-utils)")
    done = subprocess.run([validator, str(PACKAGING / "sialign.desktop")], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout == "" and done.stderr == "", done.stdout + done.stderr


def test_mime_type_xml_names_the_glob_and_the_content() -> None:
    root = ET.parse(PACKAGING / "sialign-mime.xml").getroot()
    mime = root.find(f"{MIME_NS}mime-type")
    assert mime is not None and mime.get("type") == "application/x-sialign-project"
    assert "*.sialign" in [g.get("pattern") for g in mime.iter(f"{MIME_NS}glob")]
    match = next(mime.iter(f"{MIME_NS}match"))
    assert match.get("value") == '"format": "sialign-project"'


def test_install_script_installs_entry_icons_and_type(tmp_path: Path) -> None:
    bundle = tmp_path / "bundle"
    bundle.mkdir()
    for name in ("sialign.desktop", "sialign-mime.xml", "install-desktop-entry.sh"):
        shutil.copy(PACKAGING / name, bundle / name)
    for name in ("sialign.png", "sialign.svg"):
        shutil.copy(REPO / "resources" / "icons" / name, bundle / name)
    gui = bundle / "sialign-gui"
    gui.write_text("#!/bin/sh\n", encoding="utf-8")
    gui.chmod(0o755)
    data = tmp_path / "data"
    env = {**os.environ, "XDG_DATA_HOME": str(data)}
    done = subprocess.run(["sh", str(bundle / "install-desktop-entry.sh")], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    installed = (data / "applications" / "sialign.desktop").read_text(encoding="utf-8")
    assert f'Exec="{gui}" %f' in installed and "MimeType=application/x-sialign-project;" in installed
    assert (data / "icons" / "hicolor" / "scalable" / "apps" / "sialign.svg").is_file()
    assert (data / "icons" / "hicolor" / "256x256" / "apps" / "sialign.png").is_file()
    assert (data / "mime" / "packages" / "sialign-mime.xml").is_file()
    if shutil.which("update-mime-database"):
        globs = (data / "mime" / "globs2").read_text(encoding="utf-8")
        assert "application/x-sialign-project:*.sialign" in globs
    done = subprocess.run(["sh", str(bundle / "install-desktop-entry.sh"), "--remove"], capture_output=True, text=True, env=env)
    assert done.returncode == 0
    assert not (data / "applications" / "sialign.desktop").exists()
    assert not (data / "mime" / "packages" / "sialign-mime.xml").exists()


def test_application_sets_its_desktop_file_name(qapp: object) -> None:
    from PySide6.QtGui import QGuiApplication

    from sialign.gui.app import DESKTOP_FILE_NAME, make_application

    make_application(["sialign-gui"])
    assert QGuiApplication.desktopFileName() == DESKTOP_FILE_NAME == (PACKAGING / "sialign.desktop").stem
