"""Recipes for the AppImage, the Windows installer and the macOS app, checked as far as this machine can."""

from __future__ import annotations

import plistlib
import re
import subprocess
import sys
from pathlib import Path

import pytest
from tests.packaging.test_deb import stand_in_bundle

REPO = Path(__file__).resolve().parents[2]
PACKAGING = REPO / "packaging"


def test_info_plist_declares_the_project_document_type() -> None:
    with (PACKAGING / "macos" / "Info.plist").open("rb") as fh:
        info = plistlib.load(fh)
    assert info["CFBundleIdentifier"] == "org.sialign.SIAligner"
    exported = {t["UTTypeIdentifier"]: t for t in info["UTExportedTypeDeclarations"]}
    project = exported["org.sialign.project"]
    assert project["UTTypeTagSpecification"]["public.filename-extension"] == ["sialign"]
    assert project["UTTypeTagSpecification"]["public.mime-type"] == ["application/x-sialign-project"]
    (document,) = info["CFBundleDocumentTypes"]
    assert document["LSItemContentTypes"] == ["org.sialign.project"] and document["CFBundleTypeRole"] == "Editor"
    # The spec's BUNDLE step reads this very file.
    spec = (PACKAGING / "sialign.spec").read_text(encoding="utf-8")
    assert 'PACKAGING / "macos" / "Info.plist"' in spec and 'name="SI Aligner.app"' in spec


def iss_sections(text: str) -> dict[str, list[str]]:
    sections: dict[str, list[str]] = {}
    current = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        match = re.fullmatch(r"\[(\w+)\]", line)
        if match:
            current = match.group(1)
            assert current not in sections, f"section [{current}] twice"
            sections[current] = []
        elif current:
            sections[current].append(line)
    return sections


def test_inno_setup_script_has_start_menu_association_and_uninstaller() -> None:
    text = (PACKAGING / "windows" / "sialign.iss").read_text(encoding="utf-8")
    sections = iss_sections(text)
    assert {"Setup", "Tasks", "Files", "Icons", "Registry", "Run", "Code"} <= sections.keys()
    setup = dict(line.split("=", 1) for line in sections["Setup"])
    assert setup["ChangesAssociations"] == "yes" and setup["UninstallDisplayIcon"] == r"{app}\sialign-gui.exe"
    assert (PACKAGING / "windows" / setup["SetupIconFile"].replace("\\", "/")).resolve() == REPO / "resources" / "icons" / "sialign.ico"
    assert any(r'Source: "{#BundleDir}\*"' in line and "recursesubdirs" in line for line in sections["Files"])
    icons = "\n".join(sections["Icons"])
    assert r'Name: "{group}\SI Aligner"; Filename: "{app}\sialign-gui.exe"' in icons and "{uninstallexe}" in icons
    registry = "\n".join(sections["Registry"])
    assert r'Subkey: "Software\Classes\.sialign"; ValueType: string; ValueName: ""; ValueData: "SIAligner.Project"' in registry
    assert r'ValueData: """{app}\sialign-gui.exe"" ""%1"""' in registry
    # Every preprocessor variable the workflow passes has a default.
    for name in ("AppVersion", "BundleDir", "OutputDir", "Variant"):
        assert f"#ifndef {name}" in text and "{#" + name + "}" in text
    code = "\n".join(sections["Code"])
    assert code.count("begin") == code.count("end;") + code.count("end.")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="AppImages are Linux programs")
def test_appimage_appdir_runs_both_programs(tmp_path: Path) -> None:
    bundle = stand_in_bundle(tmp_path / "bundle")
    done = subprocess.run(
        ["bash", str(PACKAGING / "appimage" / "build_appimage.sh"), "--appdir-only", str(bundle), str(tmp_path / "out")],
        capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stderr
    appdir = tmp_path / "out" / "SIAligner.AppDir"
    for name in ("sialign.desktop", "sialign.png", ".DirIcon", "usr/share/mime/packages/sialign.xml"):
        assert (appdir / name).exists(), name
    assert not (appdir / "usr" / "lib" / "sialign" / "install-desktop-entry.sh").exists()
    apprun = str(appdir / "AppRun")
    assert subprocess.run([apprun, "project.sialign"], capture_output=True, text=True).stdout == "sialign-gui project.sialign\n"
    assert subprocess.run([apprun, "cli", "--version"], capture_output=True, text=True).stdout == "sialign --version\n"
