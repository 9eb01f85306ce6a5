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


def test_mypy_is_strict_where_the_model_the_use_cases_and_the_formats_live() -> None:
    """core/, workflows/ and io/ type every function and keep no "type: ignore" that silences nothing."""
    import tomllib

    settings = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    strict = [o for o in settings.get("overrides", []) if o.get("disallow_untyped_defs") and o.get("warn_unused_ignores")]
    covered = {m for o in strict for m in o["module"]}
    assert {"sialign.core.*", "sialign.workflows.*", "sialign.io.*"} <= covered, covered


def test_ruff_sorts_imports_and_keeps_the_current_spelling() -> None:
    """Import sorting (I), the Python 3.11 spelling (UP) and no relative imports (TID) stay selected."""
    import tomllib

    lint = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["ruff"]["lint"]
    assert {"I", "UP", "TID"} <= set(lint["select"]) | set(lint.get("extend-select", []))
