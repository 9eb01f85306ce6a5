"""The on-disk embedding cache."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from sialign.core.errors import AlignmentCancelled
from sialign.embed import EmbeddingCache, LexicalEmbedder, cached_encode, user_cache_dir


class CountingEmbedder:
    """A deterministic stand-in model that records what it was asked to encode."""

    name = "counting"
    dim = 4

    def __init__(self, cache_id: str = "counting-v1") -> None:
        self.cache_id = cache_id
        self.encoded: list[str] = []

    def fit(self, texts: Sequence[str]) -> None:
        pass

    def encode(self, texts, *, progress=None, should_stop=None) -> np.ndarray:
        if should_stop is not None and should_stop():
            raise AlignmentCancelled()
        self.encoded.extend(texts)
        out = np.array([[len(t), t.count("a"), t.count("e"), 1.0] for t in texts], dtype=np.float32).reshape(-1, 4)
        return out / np.linalg.norm(out, axis=1, keepdims=True)


@pytest.fixture
def cache(tmp_path: Path) -> EmbeddingCache:
    with EmbeddingCache(tmp_path / "vectors.sqlite") as c:
        yield c


def test_cache_default_folder_follows_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SIALIGN_CACHE_DIR", str(tmp_path / "c"))
    assert user_cache_dir() == tmp_path / "c"
    with EmbeddingCache() as c:
        assert c.path == tmp_path / "c" / "embeddings.sqlite"
        assert c.path.exists()


def test_cache_round_trip_and_misses(cache: EmbeddingCache) -> None:
    vectors = np.arange(8, dtype=np.float32).reshape(2, 4)
    cache.put("m1", ["a", "b"], vectors)
    got, found = cache.get("m1", ["b", "x", "a"], 4)
    assert found.tolist() == [True, False, True]
    assert np.array_equal(got[0], vectors[1]) and np.array_equal(got[2], vectors[0])
    assert np.all(got[1] == 0)
    # Another model, or another dimension, never sees these vectors.
    assert not cache.get("m2", ["a"], 4)[1].any()
    assert not cache.get("m1", ["a"], 8)[1].any()
    assert (cache.hits, cache.misses) == (2, 3)


def test_cache_cached_encode_embeds_only_what_is_missing(cache: EmbeddingCache) -> None:
    emb = CountingEmbedder()
    first = cached_encode(emb, ["alpha", "beta", "alpha"], cache)
    assert emb.encoded == ["alpha", "beta"]  # repeats embedded once
    second = cached_encode(emb, ["beta", "gamma", "alpha"], cache)
    assert emb.encoded == ["alpha", "beta", "gamma"]
    assert np.allclose(second[0], first[1]) and np.allclose(second[2], first[0])
    assert np.allclose(second, emb.encode(["beta", "gamma", "alpha"]))
    # A changed model (new cache id) starts afresh.
    other = CountingEmbedder("counting-v2")
    cached_encode(other, ["alpha"], cache)
    assert other.encoded == ["alpha"]


def test_cache_evicts_least_recently_used(tmp_path: Path) -> None:
    # Each vector is 4 float32 = 16 bytes; a 100-byte limit holds 6, evicts to 90.
    with EmbeddingCache(tmp_path / "small.sqlite", max_bytes=100) as c:
        for i in range(6):
            c.put("m", [f"t{i}"], np.full((1, 4), i, dtype=np.float32))
        assert len(c) == 6
        c.get("m", ["t0"], 4)  # t0 becomes the most recently used
        c.put("m", ["t6"], np.full((1, 4), 6, dtype=np.float32))
        assert c.size_bytes() <= 90
        kept = c.get("m", [f"t{i}" for i in range(7)], 4)[1]
        assert kept.tolist() == [True, False, False, True, True, True, True]


def test_cache_holds_one_copy_of_new_vectors_and_stores_only_what_it_keeps(tmp_path: Path) -> None:
    """All texts new and distinct: the encoder's array is the result; more vectors than the cache keeps are not written."""

    class Keeping(CountingEmbedder):
        last: np.ndarray | None = None

        def encode(self, texts, *, progress=None, should_stop=None) -> np.ndarray:  # type: ignore[no-untyped-def]
            self.last = super().encode(texts)
            return self.last

    emb = Keeping()
    with EmbeddingCache(tmp_path / "small.sqlite", max_bytes=16 * 20) as c:
        texts = [f"text {i}" for i in range(100)]
        out = cached_encode(emb, texts, c)
        assert out is emb.last
        assert len(c) == 18  # 90% of 20 vectors of 16 bytes
        again = cached_encode(emb, texts[:30], c)  # 18 read back, 12 encoded
        assert np.allclose(again, out[:30])


def test_cache_skips_the_lexical_embedder(cache: EmbeddingCache) -> None:
    emb = LexicalEmbedder(dim=256)
    emb.fit(["one text", "another text"])
    vectors = cached_encode(emb, ["one text"], cache)
    assert vectors.shape == (1, 256)
    assert len(cache) == 0


def test_cache_cancellation_stores_nothing(cache: EmbeddingCache) -> None:
    with pytest.raises(AlignmentCancelled):
        cached_encode(CountingEmbedder(), ["a", "b"], cache, should_stop=lambda: True)
    assert len(cache) == 0


def test_cache_persists_between_sessions(tmp_path: Path) -> None:
    path = tmp_path / "persist.sqlite"
    with EmbeddingCache(path) as c:
        cached_encode(CountingEmbedder(), ["kept"], c)
    emb = CountingEmbedder()
    with EmbeddingCache(path) as c:
        cached_encode(emb, ["kept"], c)
        c.clear()
        assert len(c) == 0
    assert emb.encoded == []


def test_cache_garbage_file_is_set_aside_with_a_warning(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "vectors.sqlite"
    path.write_bytes(b"this is not a database at all" * 100)
    with caplog.at_level("WARNING", logger="sialign.embed.cache"), EmbeddingCache(path) as cache:
        assert cache.recovered_from is not None and cache.recovered_from.name.startswith("vectors.sqlite.corrupt-")
        assert cache.recovered_from.read_bytes().startswith(b"this is not")
        model = CountingEmbedder()
        cached_encode(model, ["alpha", "beta"], cache)
        cached_encode(model, ["alpha", "beta"], cache)
        assert model.encoded == ["alpha", "beta"], "the rebuilt cache works"
    assert "damaged" in caplog.text and "set aside" in caplog.text


def test_cache_malformed_page_is_set_aside_and_rebuilt(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "vectors.sqlite"
    with EmbeddingCache(path) as cache:
        cached_encode(CountingEmbedder(), [f"text {i} " * 50 for i in range(400)], cache)
        cache._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(path.read_bytes())
    assert len(data) > 8 * 4096
    data[5 * 4096 : 7 * 4096] = b"\xff" * (2 * 4096)  # two pages of the table overwritten
    path.write_bytes(bytes(data))
    with caplog.at_level("WARNING", logger="sialign.embed.cache"), EmbeddingCache(path) as cache:
        assert cache.recovered_from is not None
        model = CountingEmbedder()
        assert cached_encode(model, ["gamma"], cache).shape == (1, 4)
        assert len(cache) == 1
    assert "damaged" in caplog.text


def test_cache_error_in_use_never_stops_encoding(cache: EmbeddingCache, caplog: pytest.LogCaptureFixture) -> None:
    import sqlite3

    model = CountingEmbedder()
    cached_encode(model, ["one"], cache)

    def broken(*args: object, **kwargs: object) -> None:
        raise sqlite3.DatabaseError("database disk image is malformed")

    cache.get = broken  # type: ignore[method-assign]
    with caplog.at_level("WARNING", logger="sialign.embed.cache"):
        vectors = cached_encode(model, ["one", "two"], cache)
    assert vectors.shape == (2, 4) and model.encoded == ["one", "one", "two"]
    assert "reading the embedding cache failed" in caplog.text


def test_cache_shared_cache_follows_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from sialign.embed.cache import close_shared_caches, shared_cache

    close_shared_caches()
    monkeypatch.setenv("SIALIGN_CACHE_DIR", str(tmp_path / "c"))
    cache = shared_cache()
    assert cache is not None and cache.path == tmp_path / "c" / "embeddings.sqlite"
    assert shared_cache() is cache
    monkeypatch.setenv("SIALIGN_VECTOR_CACHE", "off")
    assert shared_cache() is None
    close_shared_caches()
