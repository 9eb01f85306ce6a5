"""Fixtures the command-line tests share."""

from __future__ import annotations

from pathlib import Path

import pytest

from sialign.embed import models_registry as mr


@pytest.fixture
def model_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A model registry of this test's own: no user models, no bundled ones (a file may override it)."""
    monkeypatch.setenv(mr.ENV_MODEL_DIR, str(tmp_path / "user-models"))
    monkeypatch.setattr(mr, "bundled_model_dir", lambda: tmp_path / "bundled")
    return tmp_path / "user-models"
