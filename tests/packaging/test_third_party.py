"""packaging/third_party.py lists what a bundle carries with each licence, the bundled Whisper model included."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

PACKAGING = Path(__file__).resolve().parents[2] / "packaging"


def _module():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("third_party", PACKAGING / "third_party.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["third_party"] = module
    spec.loader.exec_module(module)
    return module


def test_lists_the_carried_distributions_with_their_licences(tmp_path: Path) -> None:
    third_party = _module()
    for name in ("numpy", "faster_whisper", "sudachipy", "not_a_package_here"):
        (tmp_path / "_internal" / name).mkdir(parents=True)
    assert third_party.main([str(tmp_path), "--whisper", "whisper-base"]) == 0
    text = (tmp_path / "THIRD-PARTY-LICENSES.md").read_text(encoding="utf-8")
    rows = {line.split(" | ")[0].lstrip("| "): line for line in text.splitlines() if line.startswith("| ")}
    assert "MIT" in rows["faster-whisper"] and "Apache-2.0" in rows["SudachiPy"] and "BSD" in rows["numpy"]
    assert "not_a_package_here" not in text
    assert "| MIT | resources/models/whisper-base: the speech model |" in text
    assert "LGPL-3.0" in rows["Qt 6 (through PySide6)"]


def test_no_whisper_row_without_a_bundled_model_and_a_missing_folder_is_refused(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    third_party = _module()
    (tmp_path / "_internal" / "numpy").mkdir(parents=True)
    assert third_party.main([str(tmp_path)]) == 0
    assert "Whisper" not in (tmp_path / "THIRD-PARTY-LICENSES.md").read_text(encoding="utf-8")
    assert third_party.main([str(tmp_path / "nothing")]) == 2
    assert "no such folder" in capsys.readouterr().err
