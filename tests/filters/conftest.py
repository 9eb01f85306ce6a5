"""GiNZA once per test session: it costs seconds and ~1.8 GB to load."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture(scope="session")
def ginza() -> Any:
    from sialign.text import ginza_nlp

    return ginza_nlp()
