"""An on-disk vector cache, so re-aligning after an edit re-embeds only what changed.

Vectors live in one SQLite file (``embeddings.sqlite`` in the user cache
folder, ``$SIALIGN_CACHE_DIR`` to override), keyed by the embedder's
:attr:`~sialign.embed.base.Embedder.cache_id` (model name plus a digest of
its files) and the SHA-1 of the text. The file is kept under a size limit by
evicting the least recently used vectors.

The lexical embedder is not cached: its vectors depend on the talk's
statistics (any edit that refits changes them all) and it computes them
faster than they could be read back.
"""

from __future__ import annotations

import hashlib
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from sialign.core.errors import SialignError
from sialign.core.paths import ENV_CACHE_DIR
from sialign.core.progress import ProgressFn, StopFn, check_stop
from sialign.embed.base import Embedder

log = logging.getLogger(__name__)

# "off" (or 0/no/false) turns the on-disk vector cache off for this process.
ENV_CACHE = "SIALIGN_VECTOR_CACHE"
CACHE_FILE = "embeddings.sqlite"
DEFAULT_MAX_BYTES = 512 * 1024 * 1024

_SCHEMA = """
CREATE TABLE IF NOT EXISTS vectors (
    key BLOB PRIMARY KEY,
    model TEXT NOT NULL,
    dim INTEGER NOT NULL,
    data BLOB NOT NULL,
    used REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS vectors_used ON vectors(used);
"""


def user_cache_dir() -> Path:
    """SI Aligner's cache folder: ``$SIALIGN_CACHE_DIR``, else the platform's per-user cache."""
    from sialign.core.paths import cache_dir

    return cache_dir()


def text_key(cache_id: str, text: str) -> bytes:
    """The 20-byte key of one (embedder, text) pair."""
    return hashlib.sha1(cache_id.encode("utf-8") + b"\0" + text.encode("utf-8")).digest()


class EmbeddingCache:
    """Vectors on disk with a size limit and least-recently-used eviction.

    Args:
        path: the SQLite file; ``<user_cache_dir>/embeddings.sqlite`` when None.
        max_bytes: most bytes of vector data kept; older vectors are evicted
            (down to 90 % of the limit, so eviction does not run on every write).

    Safe to share between threads (one connection behind a lock) and between
    processes (SQLite's own locking, write-ahead log).
    """

    def __init__(self, path: str | Path | None = None, *, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self.path = Path(path) if path is not None else user_cache_dir() / CACHE_FILE
        self.max_bytes = int(max_bytes)
        self._lock = threading.Lock()
        self.recovered_from: Path | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise SialignError(
                f"{self.path.parent}: the embedding cache folder cannot be created ({exc}) — "
                f"set {ENV_CACHE_DIR} to a writable folder."
            ) from exc
        try:
            self._db = self._connect()
        except sqlite3.DatabaseError as exc:
            # Garbage bytes or a malformed page: the cache holds nothing that
            # cannot be recomputed, so set the file aside and start afresh.
            self._set_aside(exc)
            try:
                self._db = self._connect()
            except sqlite3.Error as again:
                raise SialignError(
                    f"{self.path}: the embedding cache cannot be opened ({again}) — delete the file, "
                    f"or set {ENV_CACHE_DIR} to a writable folder."
                ) from again
        except (OSError, sqlite3.Error) as exc:
            raise SialignError(
                f"{self.path}: the embedding cache cannot be opened ({exc}) — delete the file, "
                f"or set {ENV_CACHE_DIR} to a writable folder."
            ) from exc
        self.hits = 0
        self.misses = 0
        self._last_stamp = 0.0

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(str(self.path), check_same_thread=False, timeout=30)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(_SCHEMA)
            # Reads every page of the table and its index: a damaged file is
            # found now, not in the middle of an alignment.
            row = db.execute("PRAGMA quick_check").fetchone()
            if row is None or row[0] != "ok":
                raise sqlite3.DatabaseError(f"integrity check: {row[0] if row else 'no answer'}")
        except sqlite3.Error:
            db.close()
            raise
        return db

    def _set_aside(self, exc: BaseException) -> None:
        """Rename a damaged cache file (and its journal files) out of the way."""
        stamp = time.strftime("%Y%m%d-%H%M%S")
        aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
        for suffix in ("-wal", "-shm"):
            journal = Path(str(self.path) + suffix)
            if journal.exists():
                try:
                    journal.unlink()
                except OSError:
                    pass
        try:
            os.replace(self.path, aside)
        except OSError:
            aside = self.path
            try:
                self.path.unlink()
            except OSError:
                pass
        self.recovered_from = aside
        log.warning(
            "%s: the embedding cache was damaged (%s); it was set aside as %s and is rebuilt — "
            "vectors are computed again as needed.",
            self.path, exc, aside.name,
        )

    def _stamp(self) -> float:
        # Strictly increasing within this process, so least-recently-used
        # order is exact even for writes in the same clock tick.
        self._last_stamp = max(time.time(), self._last_stamp + 1e-6)
        return self._last_stamp

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def recover(self, exc: BaseException) -> bool:
        """After a database error in use: set a damaged file aside and reopen an empty one.

        Returns:
            True when the cache is usable again, False when it is not (then
            the caller goes on without it).
        """
        with self._lock:
            try:
                self._db.close()
            except sqlite3.Error:
                pass
            if isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.OperationalError):
                self._set_aside(exc)
            try:
                self._db = self._connect()
                return True
            except (OSError, sqlite3.Error) as again:
                log.warning("%s: the embedding cache is not usable (%s); going on without it.", self.path, again)
                return False

    def __enter__(self) -> EmbeddingCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def get(self, cache_id: str, texts: Sequence[str], dim: int) -> tuple[np.ndarray, np.ndarray]:
        """Look up vectors.

        Returns:
            (vectors, found): float32 array (len(texts), dim) with the cached
            rows filled (zeros elsewhere) and a bool array (len(texts),)
            telling which rows were found.
        """
        out = np.zeros((len(texts), dim), dtype=np.float32)
        found = np.zeros(len(texts), dtype=bool)
        if not texts:
            return out, found
        keys = [text_key(cache_id, t) for t in texts]
        rows: dict[bytes, bytes] = {}
        with self._lock:
            unique = list(dict.fromkeys(keys))
            for start in range(0, len(unique), 500):  # SQLite caps bound parameters
                chunk = unique[start : start + 500]
                marks = ",".join("?" * len(chunk))
                for key, data in self._db.execute(
                    f"SELECT key, data FROM vectors WHERE dim = ? AND key IN ({marks})", (dim, *chunk)
                ):
                    rows[key] = data
            if rows:
                now = self._stamp()
                self._db.executemany("UPDATE vectors SET used = ? WHERE key = ?", [(now, k) for k in rows])
                self._db.commit()
        for i, key in enumerate(keys):
            data = rows.get(key)
            if data is not None and len(data) == 4 * dim:
                out[i] = np.frombuffer(data, dtype=np.float32)
                found[i] = True
        self.hits += int(found.sum())
        self.misses += int((~found).sum())
        return out, found

    def put(self, cache_id: str, texts: Sequence[str], vectors: np.ndarray) -> None:
        """Store ``vectors`` (len(texts), dim) for ``texts``, then evict beyond the size limit."""
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        if vectors.shape[0] != len(texts):
            raise ValueError(f"{len(texts)} texts but {vectors.shape[0]} vectors")
        if not texts:
            return
        dim = vectors.shape[1]
        # More vectors than the cache keeps would only be evicted again: the
        # first ones up to its size are stored.
        keep = min(len(texts), max(1, int(self.max_bytes * 0.9) // max(vectors[0].nbytes, 1)))
        with self._lock:
            now = self._stamp()
            # In batches: one list of every row's bytes would hold a second copy of the vectors.
            for start in range(0, keep, 2048):
                stop = min(keep, start + 2048)
                rows = [(text_key(cache_id, texts[i]), cache_id, dim, vectors[i].tobytes(), now) for i in range(start, stop)]
                self._db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?, ?, ?, ?)", rows)
            self._db.commit()
            self._evict()

    def _evict(self) -> None:
        total = self._db.execute("SELECT COALESCE(SUM(LENGTH(data)), 0) FROM vectors").fetchone()[0]
        if total <= self.max_bytes:
            return
        goal = int(self.max_bytes * 0.9)
        excess = total - goal
        victims: list[bytes] = []
        for key, size in self._db.execute("SELECT key, LENGTH(data) FROM vectors ORDER BY used ASC"):
            victims.append(key)
            excess -= size
            if excess <= 0:
                break
        self._db.executemany("DELETE FROM vectors WHERE key = ?", [(k,) for k in victims])
        self._db.commit()

    def size_bytes(self) -> int:
        """Bytes of vector data held."""
        with self._lock:
            return int(self._db.execute("SELECT COALESCE(SUM(LENGTH(data)), 0) FROM vectors").fetchone()[0])

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM vectors").fetchone()[0])

    def clear(self) -> None:
        """Remove every vector."""
        with self._lock:
            self._db.execute("DELETE FROM vectors")
            self._db.commit()
            self._db.execute("VACUUM")


def is_cacheable(embedder: Embedder) -> bool:
    """Whether ``embedder``'s vectors are worth caching (see the module docstring)."""
    return bool(getattr(embedder, "cacheable", True)) and bool(embedder.cache_id)


def cached_encode(
    embedder: Embedder,
    texts: Sequence[str],
    cache: EmbeddingCache | None,
    *,
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
) -> np.ndarray:
    """Encode ``texts``, reading what the cache has and embedding only the rest.

    Repeated texts are embedded once. Without a cache, or for an embedder
    that is not cacheable, this is ``embedder.encode``.

    Returns:
        float32 array (len(texts), embedder.dim), as :meth:`Embedder.encode`.
    """
    if cache is None or not is_cacheable(embedder):
        return embedder.encode(texts, progress=progress, should_stop=should_stop)
    check_stop(should_stop)
    try:
        vectors, found = cache.get(embedder.cache_id, texts, embedder.dim)
    except sqlite3.Error as exc:
        # A cache is an optimisation: a damaged or locked one never stops an alignment.
        log.warning("%s: reading the embedding cache failed (%s).", cache.path, exc)
        usable = cache.recover(exc)
        vectors = np.zeros((len(texts), embedder.dim), dtype=np.float32)
        found = np.zeros(len(texts), dtype=bool)
        if not usable:
            cache = None
    missing: dict[str, list[int]] = {}
    for i in np.flatnonzero(~found).tolist():
        missing.setdefault(texts[i], []).append(i)
    if missing:
        new_texts = list(missing)
        every_text_new = not found.any() and len(new_texts) == len(texts)
        if every_text_new:
            # Nothing cached and no repeats: the encoder's array is the result.
            # (Copying it into this one would hold two: 3.3 GB for 100,000 lexical vectors.)
            del vectors
        new = embedder.encode(new_texts, progress=progress, should_stop=should_stop)
        if every_text_new:
            vectors = new
        else:
            for text, row in zip(new_texts, new):
                vectors[missing[text]] = row
        if cache is not None:
            try:
                cache.put(embedder.cache_id, new_texts, new)
            except sqlite3.Error as exc:
                log.warning("%s: writing the embedding cache failed (%s); vectors were not stored.", cache.path, exc)
                cache.recover(exc)
    elif progress is not None:
        progress(1.0, f"Embedding with {embedder.name} (all cached)")
    return vectors


_SHARED: dict[str, EmbeddingCache | None] = {}
_SHARED_LOCK = threading.Lock()


def cache_enabled() -> bool:
    """False when ``$SIALIGN_VECTOR_CACHE`` is ``off`` (or 0, no, false)."""
    return os.environ.get(ENV_CACHE, "").strip().lower() not in ("off", "0", "no", "false")


def shared_cache() -> EmbeddingCache | None:
    """The process-wide vector cache in :func:`user_cache_dir`, opened on first use.

    Returns None when the cache is turned off or cannot be opened (a warning
    says why once); alignment then simply encodes everything.
    """
    if not cache_enabled():
        return None
    path = str(user_cache_dir() / CACHE_FILE)
    with _SHARED_LOCK:
        if path not in _SHARED:
            try:
                _SHARED[path] = EmbeddingCache(path)
            except SialignError as exc:
                log.warning("%s; vectors are not cached in this session.", exc)
                _SHARED[path] = None
        return _SHARED[path]


def close_shared_caches() -> None:
    """Close the process-wide caches (tests; before deleting the cache folder)."""
    with _SHARED_LOCK:
        for cache in _SHARED.values():
            if cache is not None:
                cache.close()
        _SHARED.clear()
