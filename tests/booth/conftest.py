"""The booth tests' fixtures: the live chunker does not load GiNZA up front (the engine tests' chunks never need it)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from sialign.booth.incremental import LiveChunker


@pytest.fixture(autouse=True)
def real_chunker_prepare(monkeypatch: pytest.MonkeyPatch) -> Callable[[LiveChunker], None]:
    """:meth:`LiveChunker.prepare` as it is (the tests of it call this); in every test the class's own is a no-op."""
    real = LiveChunker.prepare
    monkeypatch.setattr(LiveChunker, "prepare", lambda self: None)
    return real
