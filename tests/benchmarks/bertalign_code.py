"""Bertalign's own code (``bfsujason/bertalign``), run with SI Aligner's encoder (benchmarks only).

``peers.bertalign_align`` restates Bertalign's algorithm in numpy; this module runs the
published code itself — its ``Bertalign`` class, ``Encoder.transform`` and the numba
kernels of ``corelib.py`` — with one change: the sentence-transformers model its package
loads on import (LaBSE, from a hub) is replaced by the encoder the comparison is about.
Nothing of Bertalign is part of SI Aligner or copied into it; the benchmark reads a
checkout of the repository:

    git clone https://github.com/bfsujason/bertalign ../bertalign   # beside the checkout
    .venv/bin/python -m pip install numba faiss-cpu                  # what corelib.py imports

or set ``BERTALIGN_DIR`` to the checkout. Languages are given, not detected (Bertalign asks
an online translator), and the input is already one sentence a line (``is_split=True``).
"""

from __future__ import annotations

import importlib
import os
import sys
import types
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]

Encode = Callable[[list[str]], np.ndarray]
Beads = list[tuple[tuple[int, ...], tuple[int, ...]]]


def checkout() -> Path | None:
    """The Bertalign checkout: ``BERTALIGN_DIR``, else ``../bertalign`` beside this checkout."""
    for candidate in (os.environ.get("BERTALIGN_DIR"), str(REPO.parent / "bertalign")):
        if candidate and (Path(candidate) / "bertalign" / "corelib.py").is_file():
            return Path(candidate)
    return None


def missing() -> str | None:
    """Why Bertalign's code cannot run here (one line), or None."""
    if checkout() is None:
        return "Bertalign's code not found: clone github.com/bfsujason/bertalign beside the checkout or set BERTALIGN_DIR"
    for name in ("numba", "faiss", "torch"):
        if importlib.util.find_spec(name) is None:
            return f"Bertalign's code needs {name}: .venv/bin/python -m pip install numba faiss-cpu"
    return None


class _Model:
    """Stands in for the SentenceTransformer that Bertalign's ``Encoder`` holds."""

    def __init__(self, encode: Encode) -> None:
        self._encode = encode

    def encode(self, texts: list[str]) -> np.ndarray:
        vecs = np.asarray(self._encode(list(texts)), dtype=np.float32)
        norms = np.linalg.norm(vecs, axis=1, keepdims=True)
        return np.ascontiguousarray(vecs / np.maximum(norms, 1e-12))


_LOADED: dict[str, Any] = {}


def _load() -> dict[str, Any]:
    if _LOADED:
        return _LOADED
    root = checkout()
    if root is None:
        raise RuntimeError(missing() or "Bertalign's code not found")
    # Its utils import an online translator and a sentence splitter, used only to detect
    # languages and split paragraphs: neither is used here (languages given, lines split).
    for name, attr in (("googletrans", "Translator"), ("sentence_splitter", "SentenceSplitter")):
        if name not in sys.modules:
            stub = types.ModuleType(name)
            setattr(stub, attr, object)
            sys.modules[name] = stub
    package = types.ModuleType("bertalign")
    package.__path__ = [str(root / "bertalign")]
    sys.modules["bertalign"] = package
    encoder_module = importlib.import_module("bertalign.encoder")
    package.model = encoder_module.Encoder.__new__(encoder_module.Encoder)  # type: ignore[attr-defined]
    aligner = importlib.import_module("bertalign.aligner")
    _LOADED.update(package=package, encoder=encoder_module, aligner=aligner)
    return _LOADED


def bertalign_code_align(source: Sequence[str], target: Sequence[str], encode: Encode, src_lang: str, tgt_lang: str,
                         **options: Any) -> Beads:
    """Bertalign's ``Bertalign(...).align_sents()`` with ``encode`` for its model; its beads."""
    loaded = _load()
    model = loaded["package"].model
    model.model = _Model(encode)
    model.model_name = "SI Aligner's encoder"
    langs = iter([src_lang, tgt_lang])
    loaded["aligner"].detect_lang = lambda _text: next(langs)
    quiet = open(os.devnull, "w")
    stdout, sys.stdout = sys.stdout, quiet
    try:
        aligner = loaded["aligner"].Bertalign("\n".join(source), "\n".join(target), is_split=True, **options)
        if aligner.src_num != len(source) or aligner.tgt_num != len(target):
            raise ValueError("Bertalign's clean_text dropped empty lines; give it documents without them")
        aligner.align_sents()
    finally:
        sys.stdout = stdout
        quiet.close()
    return [(tuple(int(i) for i in s), tuple(int(j) for j in t)) for s, t in aligner.result]
