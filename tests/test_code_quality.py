"""The linters configured in pyproject.toml run clean: ruff (likely bugs) and mypy (types).

Both read their settings from pyproject.toml; a finding fails the test with
the tools' own report.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def _run(module: str, *args: str) -> subprocess.CompletedProcess[str]:
    pytest.importorskip(module)
    env = dict(os.environ, PYTHONPATH=str(REPO / "desktop"))
    return subprocess.run([sys.executable, "-m", module, *args], capture_output=True, text=True, cwd=REPO, env=env)


def test_ruff_is_clean() -> None:
    run = _run("ruff", "check", "--no-cache", "desktop", "tests", "packaging", "resources")
    assert run.returncode == 0, run.stdout[-5000:] + run.stderr[-2000:]


@pytest.mark.slow
def test_mypy_is_clean() -> None:
    run = _run("mypy")
    assert run.returncode == 0, run.stdout[-5000:] + run.stderr[-2000:]


def test_mypy_types_every_function_and_is_strictest_where_the_model_the_use_cases_and_the_formats_live() -> None:
    """Every function of the package is typed; core/, workflows/ and io/ also keep no "type: ignore" that silences nothing."""
    import tomllib

    settings = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    overrides = settings.get("overrides", [])
    typed = {m for o in overrides if o.get("disallow_untyped_defs") for m in o["module"]}
    assert settings.get("disallow_untyped_defs") or "sialign.*" in typed, typed
    no_stale_ignores = {m for o in overrides if o.get("warn_unused_ignores") for m in o["module"]}
    assert {"sialign.core.*", "sialign.workflows.*", "sialign.io.*"} <= no_stale_ignores, no_stale_ignores


def test_ruff_sorts_imports_and_keeps_the_current_spelling() -> None:
    """Import sorting (I), the Python 3.11 spelling (UP) and no relative imports (TID) stay selected."""
    import tomllib

    lint = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["ruff"]["lint"]
    assert {"I", "UP", "TID"} <= set(lint["select"]) | set(lint.get("extend-select", []))


def _literals_outside(pattern: str, allowed: set[str]) -> list[str]:
    import re

    found = []
    for path in sorted((REPO / "desktop" / "sialign").rglob("*.py")):
        rel = path.relative_to(REPO / "desktop").as_posix()
        if rel in allowed:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(pattern, line) and not line.lstrip().startswith("#"):
                found.append(f"{rel}:{number}: {line.strip()}")
    return found


def test_the_audio_suffixes_and_the_project_suffix_are_listed_once() -> None:
    """One registry each (core/file_kind.py): a second list drifts (a dialog that hid .MP3)."""
    assert _literals_outside(r"""["']\.(wav|flac|ogg|mp3)["'].*["']\.(wav|flac|ogg|mp3)["']|\*\.wav""",
                             {"sialign/core/file_kind.py", "sialign/booth/recorder.py", "sialign/io/tier_files.py"}) == []
    # ".sialign", "*.sialign" and f"{talk}.sialign" alike (a metavar such as "PROJECT.sialign" is help text).
    assert _literals_outside(r"""["'*}]\.sialign["']""", {"sialign/core/file_kind.py"}) == []
    from sialign.core.file_kind import AUDIO_SUFFIXES, audio_file_filter, is_media

    assert all(f"*{s}" in audio_file_filter() and f"*{s.upper()}" in audio_file_filter() for s in AUDIO_SUFFIXES)
    assert is_media("talk.ja.M4A") and is_media("a.wav") and not is_media("talk.ja.srt")


def test_docstrings_cite_only_documents_in_the_repository() -> None:
    """No module or page points its reader to a design document or numbered paper that is not shipped with the code."""
    import re

    pattern = re.compile(r"DESIGN\.md|\bseeds?/|\b[Ss]eed \d{3}\b")
    files = [*(REPO / "desktop" / "sialign").rglob("*.py"), *(REPO / "docs").rglob("*.md"), REPO / "README.md"]
    found = [f"{path.relative_to(REPO)}:{n}" for path in files
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if pattern.search(line)]
    assert found == []
