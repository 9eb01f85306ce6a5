"""Which Sudachi dictionary GiNZA opens: core when installed, else small (the lean installer's), or the one named."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest

from sialign.text import japanese
from sialign.text.japanese import LanguageToolUnavailable, sudachi_dictionary

DESKTOP = Path(__file__).resolve().parents[2] / "desktop"
needs_small = pytest.mark.skipif(find_spec("sudachidict_small") is None, reason="sudachidict_small is not installed (dev extra)")


def test_core_first_when_nothing_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(japanese.SUDACHI_ENV, raising=False)
    assert sudachi_dictionary() == "core"


def test_small_when_core_is_absent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(japanese.SUDACHI_ENV, raising=False)
    real = japanese.find_spec
    monkeypatch.setattr(japanese, "find_spec", lambda name: None if name == "sudachidict_core" else real(name))
    if real("sudachidict_small") is not None:
        assert sudachi_dictionary() == "small"
    monkeypatch.setattr(japanese, "find_spec", lambda name: None)
    with pytest.raises(LanguageToolUnavailable, match="none is installed — install it with: pip install sudachidict_core"):
        sudachi_dictionary()


@pytest.mark.parametrize(("value", "message"), [
    ("tiny", "'tiny' is not a Sudachi dictionary — use one of core, small, full"),
    ("full", "SudachiDict full is not installed — install it with: pip install sudachidict_full"),
])
def test_a_bad_choice_is_one_line(monkeypatch: pytest.MonkeyPatch, value: str, message: str) -> None:
    if value == "full" and find_spec("sudachidict_full") is not None:
        pytest.skip("SudachiDict full is installed here")
    monkeypatch.setenv(japanese.SUDACHI_ENV, value)
    with pytest.raises(LanguageToolUnavailable) as err:
        sudachi_dictionary()
    assert message in str(err.value) and "\n" not in str(err.value)


@needs_small
def test_ginza_splits_with_the_small_dictionary() -> None:
    """A fresh process: small has no entry for the compound 外国人参政権, so GiNZA's words change (and only then)."""
    code = (
        "from sialign.text.japanese import ginza_nlp, sudachi_dictionary\n"
        "print(sudachi_dictionary(), '|'.join(t.text for t in ginza_nlp()('外国人参政権について話します。')))\n"
    )
    seen = {}
    for name in ("core", "small"):
        env = dict(os.environ, PYTHONPATH=str(DESKTOP), SIALIGN_SUDACHI_DICT=name)
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-2000:]
        chosen, words = done.stdout.strip().splitlines()[-1].split(" ", 1)
        assert chosen == name
        seen[name] = words.split("|")
    assert seen["core"][0] == "外国人参政権"
    assert seen["small"][:3] != seen["core"][:3] and "".join(seen["small"]) == "".join(seen["core"])
