"""The built-in lexical embedder: hashed character n-grams weighted by TF-IDF.

No download, no model: a text becomes a bag of character n-grams (plus whole
words), each weighted by sublinear term frequency times an inverse document
frequency collected *within the talk* (:meth:`LexicalEmbedder.fit` on both
sides' texts), hashed into a fixed number of buckets and L2-normalised.

Script-aware units:

* Runs of Han/kana characters (Japanese, Chinese) have no spaces, so they give
  character n-grams over the run itself (``cjk_ngrams``, 1–3 by default).
* Everything else is split into words; each word is padded with ``<``/``>``
  so that n-grams at word edges are distinct (``<ber`` ≠ ``ber``) and yields
  character n-grams (``word_ngrams``, 1–4 by default) plus the whole word
  as one feature. Accents are stripped and case folded, so cognates and names
  (``Himalaya``/``himalayens``, ``Südwand``/``sud``) share many units.

Fitting on a pair (``fit(source_texts, target_texts)``) weighs features by
what can link the two sides: a feature found on one side only gets weight
0, and across languages a feature counts by how well the places where it
occurs in the two documents correlate (names, numbers and true cognates
occur at matching places, chance overlaps at unrelated ones). See :meth:`LexicalEmbedder.fit` for the measured effect.

Two outputs of the same features:

* :meth:`LexicalEmbedder.encode_sparse` — a ``scipy.sparse`` CSR matrix
  (n, 2**sparse_bits), practically collision-free; use it for exact
  similarities (``A @ B.T`` is cheap for sentences).
* :meth:`LexicalEmbedder.encode` — the same vectors folded into ``dim``
  buckets (bucket = sparse index mod ``dim``) with a random ±1 sign per
  feature, then renormalised: signed feature hashing, i.e. a sparse random
  projection that keeps dot products unbiased (error about 1/√dim). This
  dense form is what the :class:`~sialign.embed.base.Embedder` protocol and
  the fast multi-segment candidates use.

Vectors depend on the fitted statistics, so :attr:`LexicalEmbedder.cache_id`
includes a digest of them. The embedder is fast enough (fit and encode of
5,000 + 6,300 sentences take about 5 s on a busy 2-core machine, a talk well
under a second) that callers need not cache it.
"""

from __future__ import annotations

import hashlib
import logging
import re
import unicodedata
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from sialign.core.progress import ProgressFn, StopFn, check_stop

# Han, kana and their iteration/prolonged-sound marks: scripts written
# without spaces, where words cannot be found by splitting.
_CJK_RANGES = (
    "\u3005\u3006\u3007\u303b"  # 々 〆 〇 〻
    "\u3040-\u30ff"  # hiragana, katakana (incl. ー)
    "\u31f0-\u31ff"  # katakana phonetic extensions
    "\u3400-\u4dbf"  # CJK extension A
    "\u4e00-\u9fff"  # CJK unified ideographs
    "\uf900-\ufaff"  # CJK compatibility ideographs
    "\U00020000-\U0002ebef"  # CJK extensions B–F
)
_TOKEN_RE = re.compile(f"([{_CJK_RANGES}]+)|([^\\W{_CJK_RANGES}]+)")

# Feature namespaces: a word feature never collides by construction with a
# character n-gram of the same spelling.
_WORD_PREFIX = "\x01"
log = logging.getLogger(__name__)
# Characters of one text that give features. The n-gram tables hold about
# 200 bytes per character, so a 3 MB one-line transcript needed 600 MB; a
# segment is a sentence or a chunk (tens to hundreds of characters), and the
# first 20,000 characters of a longer one tell its content as well.
MAX_FEATURE_CHARS = 20_000
_CJK_PREFIX = "\x02"

_SIGN_BIT = np.uint32(1 << 31)

# A pair fit with fewer texts on a side skips the positional weight.
MIN_POSITIONAL_TEXTS = 8


@dataclass(frozen=True)
class LexicalSettings:
    """Parameters of :class:`LexicalEmbedder` (all part of its cache id).

    Attributes:
        word_ngrams: (min, max) character n-gram lengths inside padded words.
        cjk_ngrams: (min, max) character n-gram lengths inside Han/kana runs.
        word_weight: weight of the whole-word feature relative to an n-gram.
        strip_accents: compare ``é`` and ``e`` (helps cognates across languages).
        sublinear_tf: use 1 + log(tf) instead of tf.
        sparse_bits: the sparse space has 2**sparse_bits buckets.
        dim: buckets of the dense vectors :meth:`LexicalEmbedder.encode` returns.
        positional_bins: slices of the documents for the positional weight of
            a pair fit (0 = off); see :meth:`LexicalEmbedder.fit`.
        positional_sigma: Gaussian smoothing of the slice histograms, in slices.
        positional_power: exponent on the positional correlation.
    """

    word_ngrams: tuple[int, int] = (1, 4)
    cjk_ngrams: tuple[int, int] = (1, 3)
    word_weight: float = 1.0
    strip_accents: bool = True
    sublinear_tf: bool = True
    sparse_bits: int = 20
    dim: int = 4096
    positional_bins: int = 20
    positional_sigma: float = 1.0
    positional_power: float = 2.0

    def __post_init__(self) -> None:
        for label, (lo, hi) in (("word_ngrams", self.word_ngrams), ("cjk_ngrams", self.cjk_ngrams)):
            if not 1 <= lo <= hi:
                raise ValueError(f"{label} must be (min, max) with 1 <= min <= max, not {(lo, hi)}")
        if not 8 <= self.sparse_bits <= 30:
            raise ValueError(f"sparse_bits must be in 8..30, not {self.sparse_bits}")
        if self.dim < 1 or self.dim & (self.dim - 1) or self.dim > (1 << self.sparse_bits):
            raise ValueError(f"dim must be a power of two no larger than 2**sparse_bits, not {self.dim}")


def _sorted_unique(values: np.ndarray) -> np.ndarray:
    """``np.unique`` by sorting (numpy's hash-based default is several times slower on large uint64 arrays)."""
    values = np.sort(values)
    if len(values) < 2:
        return values
    keep = np.empty(len(values), dtype=bool)
    keep[0] = True
    np.not_equal(values[1:], values[:-1], out=keep[1:])
    return values[keep]


def _hash(feature: str) -> int:
    # crc32 is stable across processes (Python's hash() is salted) and fast.
    return zlib.crc32(feature.encode("utf-8"))


class LexicalEmbedder:
    """Hashed character n-gram TF-IDF vectors; see the module docstring.

    Args:
        settings: n-gram ranges, weights and sizes; keyword arguments
            override single fields (``LexicalEmbedder(word_ngrams=(2, 4))``).

    Call :meth:`fit` with every text of the talk (source and target, plus the
    reference when pivoting) before :meth:`encode`; before any fit all
    features weigh the same (idf = 1), which works but is clearly weaker.
    """

    name = "lexical"
    # See sialign.embed.cache: refitting changes every vector, and computing
    # them is faster than reading them back.
    cacheable = False

    def __init__(self, settings: LexicalSettings | None = None, **overrides: object) -> None:
        base = settings or LexicalSettings()
        if overrides:
            fields = dict(base.__dict__)
            for key, value in overrides.items():
                if key not in fields:
                    raise TypeError(f"unknown lexical embedder setting {key!r}")
                fields[key] = tuple(value) if isinstance(value, list) else value  # type: ignore[arg-type]
            base = LexicalSettings(**fields)  # type: ignore[arg-type]
        self.settings = base
        self.dim = base.dim
        self._sparse_dim = 1 << base.sparse_bits
        self._mask = np.uint32(self._sparse_dim - 1)
        self._token_memo: dict[tuple[str, bool], tuple[np.ndarray, np.ndarray]] = {}
        self._said_long = False  # the over-long-segment warning, once per embedder
        self._idf: np.ndarray | None = None
        self._fit_digest = "unfitted"
        self.n_fitted = 0

    # -- features -----------------------------------------------------------

    def _normalise(self, text: str) -> str:
        # NFKC maps full-width digits/letters and half-width katakana to the
        # forms the other side uses; casefold is a stronger lower().
        return unicodedata.normalize("NFKC", text).casefold()

    def _word_units(self, word: str) -> tuple[np.ndarray, np.ndarray]:
        """Hashes and weights of one (space-delimited script) word."""
        if self.settings.strip_accents:
            decomposed = unicodedata.normalize("NFKD", word)
            stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
            word = stripped or word
        padded = f"<{word}>"
        lo, hi = self.settings.word_ngrams
        grams: list[str] = []
        for n in range(lo, hi + 1):
            if n > len(padded):
                break
            if n == 1:
                grams.extend(word)  # "<" and ">" alone carry nothing
            else:
                grams.extend(padded[i : i + n] for i in range(len(padded) - n + 1))
        hashes = [_hash(g) for g in grams]
        weights = [1.0] * len(hashes)
        if self.settings.word_weight > 0:
            hashes.append(_hash(_WORD_PREFIX + word))
            weights.append(self.settings.word_weight)
        return np.asarray(hashes, dtype=np.uint32), np.asarray(weights, dtype=np.float32)

    def _cjk_units(self, run: str) -> tuple[np.ndarray, np.ndarray]:
        """Hashes and weights of one run of Han/kana characters."""
        lo, hi = self.settings.cjk_ngrams
        grams: list[str] = []
        for n in range(lo, hi + 1):
            if n > len(run):
                break
            grams.extend(_CJK_PREFIX + run[i : i + n] for i in range(len(run) - n + 1))
        hashes = np.asarray([_hash(g) for g in grams], dtype=np.uint32)
        return hashes, np.ones(len(hashes), dtype=np.float32)

    def _units(self, token: str, is_cjk: bool) -> tuple[np.ndarray, np.ndarray]:
        key = (token, is_cjk)
        found = self._token_memo.get(key)
        if found is None:
            found = self._cjk_units(token) if is_cjk else self._word_units(token)
            # Words repeat (Zipf), so memoising them makes encoding several
            # times faster; the cap keeps memory bounded on huge inputs.
            if len(self._token_memo) < 500_000:
                self._token_memo[key] = found
        return found

    def features(self, text: str) -> tuple[np.ndarray, np.ndarray]:
        """Raw features of one text.

        Returns:
            (hashes, weights): uint32 array of shape (k,) — one 32-bit hash per
            feature occurrence (repeats included) — and float32 array (k,) of
            the feature's family weight.
        """
        parts_h: list[np.ndarray] = []
        parts_w: list[np.ndarray] = []
        if len(text) > MAX_FEATURE_CHARS:
            if not self._said_long:
                self._said_long = True
                log.warning(
                    "a segment of %d characters: its lexical features come from its first %d characters "
                    "(split the transcript into sentences for a closer alignment)", len(text), MAX_FEATURE_CHARS,
                )
            text = text[:MAX_FEATURE_CHARS]
        for match in _TOKEN_RE.finditer(self._normalise(text)):
            cjk, word = match.group(1), match.group(2)
            h, w = self._units(cjk, True) if cjk else self._units(word, False)
            parts_h.append(h)
            parts_w.append(w)
        if not parts_h:
            return np.zeros(0, dtype=np.uint32), np.zeros(0, dtype=np.float32)
        return np.concatenate(parts_h), np.concatenate(parts_w)

    def _batch_features(self, texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Features of many texts at once.

        Returns:
            (rows, hashes, weights): int64, uint32 and float32 arrays of shape
            (k,), one entry per feature occurrence, ``rows`` giving the text.
        """
        hashes: list[np.ndarray] = []
        weights: list[np.ndarray] = []
        lengths = np.zeros(len(texts), dtype=np.int64)
        for i, text in enumerate(texts):
            h, w = self.features(text)
            hashes.append(h)
            weights.append(w)
            lengths[i] = len(h)
        if not len(texts) or not lengths.sum():
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.uint32), np.zeros(0, dtype=np.float32)
        rows = np.repeat(np.arange(len(texts), dtype=np.int64), lengths)
        return rows, np.concatenate(hashes), np.concatenate(weights)

    def _row_buckets(self, texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """Distinct (text, sparse bucket) pairs: two int64 arrays (k,), sorted by text."""
        rows, hashes, _ = self._batch_features(texts)
        key = _sorted_unique((rows.astype(np.uint64) << np.uint64(32)) | (hashes & self._mask).astype(np.uint64))
        return (key >> np.uint64(32)).astype(np.int64), (key & np.uint64(0xFFFFFFFF)).astype(np.int64)

    # -- statistics -----------------------------------------------------------

    def fit(self, texts: Sequence[str], other: Sequence[str] | None = None, *, positional: bool | None = None) -> None:
        """Collect the talk's statistics: document frequencies and, for a pair, feature weights.

        Args:
            texts: the texts to collect statistics on (one side, or all).
            other: the other side of a bilingual or pivot pair, in document
                order. When given, statistics cover both and two more weights
                apply to each feature:

                * seen on only one side → weight 0: it cannot make a source
                  text similar to a target text, yet it would dilute the norm
                  of every vector holding it;
                * with ``positional_bins`` > 0, the weight is
                  ``max(0, r) ** positional_power`` where r is the correlation
                  of where the feature occurs along the two documents
                  (histograms over ``positional_bins`` equal slices, Gaussian
                  smoothed by ``positional_sigma`` slices). A name or number
                  rendered on both sides occurs at matching places (r ≈ 1),
                  a false friend at unrelated places (r ≤ 0). This assumes
                  what alignment assumes: both sides cover the same
                  material in the same order.
            positional: override whether the positional weight applies
                (None: when ``positional_bins`` > 0). Measured on the dev
                sets: across languages it is the main gain (Text+Berg
                German–French: 1:1 nearest-neighbour accuracy 0.59 → 0.62,
                strict bead F1 through the DP 0.59 → 0.74); within one language
                (pivot: reference translation ↔ interpretation, AHC-SI) it
                costs a little (chunk → sentence accuracy within ±3 sentences
                0.66 → 0.61), so pass ``positional=False`` there.

        Replaces any earlier fit. The idf of a feature is
        ``log((1 + N) / (1 + df)) + 1`` (N texts, df of them holding it);
        features absent from the fitted texts (text edited later) get the
        largest idf and weight 1.
        """
        rows_a, buckets_a = self._row_buckets(texts)
        df_a = np.bincount(buckets_a, minlength=self._sparse_dim)
        n = len(texts)
        digest = hashlib.sha1()
        if other is None:
            df = df_a
            weight = None
        else:
            rows_b, buckets_b = self._row_buckets(other)
            df_b = np.bincount(buckets_b, minlength=self._sparse_dim)
            df = df_a + df_b
            n += len(other)
            weight = np.ones(self._sparse_dim, dtype=np.float32)
            weight[(df > 0) & ~((df_a > 0) & (df_b > 0))] = 0.0
            shared = np.flatnonzero((df_a > 0) & (df_b > 0))
            use_positional = self.settings.positional_bins > 0 if positional is None else positional
            if use_positional:
                digest.update(b"positional")
                weight[shared] = self._positional_weights(
                    shared, (rows_a, buckets_a, len(texts)), (rows_b, buckets_b, len(other))
                )
            digest.update(b"pair")
        idf = (np.log((1.0 + n) / (1.0 + df)) + 1.0).astype(np.float32)
        if weight is not None:
            idf *= weight
        self._idf = idf
        digest.update(str(n).encode())
        digest.update(idf.tobytes())
        self._fit_digest = digest.hexdigest()[:16]
        self.n_fitted = n

    def _positional_weights(
        self,
        shared: np.ndarray,
        side_a: tuple[np.ndarray, np.ndarray, int],
        side_b: tuple[np.ndarray, np.ndarray, int],
    ) -> np.ndarray:
        """Weights (len(shared),) float32 from the correlation of each feature's place in both documents.

        Args:
            shared: sorted sparse buckets present on both sides.
            side_a / side_b: (rows, buckets, number of texts) from :meth:`_row_buckets`.
        """
        from scipy.ndimage import gaussian_filter1d

        s = self.settings
        shortest = min(side_a[2], side_b[2])
        if shortest < MIN_POSITIONAL_TEXTS:
            # Too few texts to say where anything occurs.
            return np.ones(len(shared), dtype=np.float32)
        bins = min(s.positional_bins or LexicalSettings.positional_bins, shortest)

        def profile(side: tuple[np.ndarray, np.ndarray, int]) -> np.ndarray:
            rows, buckets, n = side
            slices = rows * bins // n
            keep = np.isin(buckets, shared)
            flat = np.searchsorted(shared, buckets[keep]) * bins + slices[keep]
            hist = np.bincount(flat, minlength=len(shared) * bins).astype(np.float32).reshape(len(shared), bins)
            if s.positional_sigma > 0:
                # Zero padding ("constant") damps both ends, so a feature spread
                # evenly over both documents gets the same hump on each side
                # and keeps its weight (r ≈ 1): the weight removes features
                # concentrated at *different* places, not common ones. (With
                # edge-preserving padding, which zeroes even spreads, strict
                # F1 on Text+Berg dev drops from 0.74 to 0.71.)
                hist = gaussian_filter1d(hist, s.positional_sigma, axis=1, mode="constant")
            return hist - hist.mean(axis=1, keepdims=True)

        pa = profile(side_a)
        pb = profile(side_b)
        num = np.einsum("ij,ij->i", pa, pb)
        den = np.sqrt(np.einsum("ij,ij->i", pa, pa) * np.einsum("ij,ij->i", pb, pb))
        corr = np.divide(num, den, out=np.zeros_like(num), where=den > 0)
        return (np.maximum(corr, 0.0) ** s.positional_power).astype(np.float32)

    @property
    def cache_id(self) -> str:
        s = self.settings
        params = (
            f"w{s.word_ngrams[0]}-{s.word_ngrams[1]}c{s.cjk_ngrams[0]}-{s.cjk_ngrams[1]}"
            f"ww{s.word_weight}a{int(s.strip_accents)}t{int(s.sublinear_tf)}b{s.sparse_bits}d{s.dim}"
            f"p{s.positional_bins},{s.positional_sigma},{s.positional_power}"
        )
        return f"lexical-v2:{params}:{self._fit_digest}"

    # -- vectors --------------------------------------------------------------

    def _batch_rows(self, texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Unit vectors of ``texts`` as (rows, sparse indices, values): int64, int64, float32 arrays (k,)."""
        rows, hashes, weights = self._batch_features(texts)
        if not len(rows):
            return rows, rows.copy(), np.zeros(0, dtype=np.float32)
        # One sort of (text, hash) keys counts every text's features at once.
        key, first, counts = np.unique(
            (rows.astype(np.uint64) << np.uint64(32)) | hashes.astype(np.uint64), return_index=True, return_counts=True
        )
        rows = (key >> np.uint64(32)).astype(np.int64)
        unique = (key & np.uint64(0xFFFFFFFF)).astype(np.uint32)
        tf = counts.astype(np.float32)
        if self.settings.sublinear_tf:
            tf = 1.0 + np.log(tf)
        index = (unique & self._mask).astype(np.int64)
        value = tf * weights[first]
        if self._idf is not None:
            value *= self._idf[index]
        # One hash bit outside the index decides the sign: colliding features
        # then cancel on average instead of always adding up.
        value[(unique & _SIGN_BIT) != 0] *= -1.0
        norms = np.sqrt(np.bincount(rows, weights=value.astype(np.float64) ** 2, minlength=len(texts)))
        scale = np.divide(1.0, norms, out=np.zeros_like(norms), where=norms > 0)
        return rows, index, (value * scale[rows]).astype(np.float32)

    def encode_sparse(
        self,
        texts: Sequence[str],
        *,
        progress: ProgressFn | None = None,
        should_stop: StopFn | None = None,
        batch_size: int = 1024,
    ) -> sp.csr_matrix:
        """Exact (practically collision-free) vectors of ``texts``.

        Returns:
            CSR matrix of shape (len(texts), 2**sparse_bits), float32, each
            non-empty row of L2 norm 1. ``A @ B.T`` gives cosine similarities.

        Raises:
            AlignmentCancelled: when ``should_stop()`` returns True between batches.
        """
        n = len(texts)
        counts = np.zeros(n, dtype=np.int64)
        indices: list[np.ndarray] = []
        data: list[np.ndarray] = []
        for start in range(0, n, batch_size):
            check_stop(should_stop)
            rows, index, value = self._batch_rows(texts[start : start + batch_size])
            counts[start : start + batch_size] = np.bincount(rows, minlength=min(batch_size, n - start))
            indices.append(index)
            data.append(value)
            if progress is not None:
                progress(min(n, start + batch_size) / n, "Embedding (lexical)")
        indptr = np.concatenate(([0], np.cumsum(counts)))
        matrix = sp.csr_matrix(
            (
                np.concatenate(data) if data else np.zeros(0, dtype=np.float32),
                np.concatenate(indices) if indices else np.zeros(0, dtype=np.int64),
                indptr,
            ),
            shape=(n, self._sparse_dim),
            dtype=np.float32,
        )
        # Two features may share a bucket (rare at 2**20): sum them, as the
        # folded dense vectors do.
        matrix.sum_duplicates()
        return matrix

    def encode(self, texts: Sequence[str], *, progress: ProgressFn | None = None, should_stop: StopFn | None = None) -> np.ndarray:
        """Dense vectors of ``texts``: the sparse ones folded into ``dim`` buckets.

        Returns:
            float32 array of shape (len(texts), dim), rows of L2 norm 1 (zero
            rows for texts without letters or digits).
        """
        return fold_sparse(self.encode_sparse(texts, progress=progress, should_stop=should_stop), self.dim)

    def __repr__(self) -> str:
        return f"LexicalEmbedder({self.settings}, fitted on {self.n_fitted} texts)"


def fold_sparse(matrix: sp.csr_matrix, dim: int) -> np.ndarray:
    """Fold sparse vectors into ``dim`` dense buckets and renormalise.

    Args:
        matrix: CSR matrix of shape (n, D) with D a multiple of ``dim``.
        dim: number of dense buckets (bucket = column mod dim).

    Returns:
        float32 array of shape (n, dim) with unit (or zero) rows.
    """
    n = matrix.shape[0]
    folded = sp.csr_matrix(
        (matrix.data, matrix.indices % dim, matrix.indptr), shape=(n, dim), dtype=np.float32
    ).toarray()
    norms = np.sqrt(np.einsum("ij,ij->i", folded, folded))[:, None]
    np.divide(folded, norms, out=folded, where=norms > 0)
    return folded.astype(np.float32, copy=False)
