"""Multi-segment candidate vectors (fast and exact)."""

from __future__ import annotations

import numpy as np
import pytest

from sialign.core.errors import AlignmentCancelled
from sialign.embed import LexicalEmbedder, candidate_vectors, overlap_texts


def _unit(rows: list[list[float]]) -> np.ndarray:
    v = np.asarray(rows, dtype=np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def test_candidates_overlap_texts() -> None:
    assert overlap_texts(["a", "b", "c"], 2) == [["a", "b", "c"], ["a b", "b c"]]
    assert overlap_texts(["今日は", "晴れ"], 3, joiner="") == [["今日は", "晴れ"], ["今日は晴れ"], []]
    with pytest.raises(ValueError):
        overlap_texts(["a"], 0)


def test_candidates_fast_is_normalised_sum_starting_at_p() -> None:
    v = _unit([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0]])
    out = candidate_vectors(v, 3)
    assert out.shape == (3, 4, 3) and out.dtype == np.float32
    assert np.allclose(out[0], v)
    assert np.allclose(out[1, 0], _unit([[1, 1, 0]])[0])  # segments 0..1
    run = v[1] + v[2] + v[3]  # segments 1..3
    assert np.allclose(out[2, 1], run / np.linalg.norm(run))
    assert np.all(out[1, 3] == 0) and np.all(out[2, 2:] == 0)  # runs past the end


def test_candidates_fast_on_empty_and_short_documents() -> None:
    assert candidate_vectors(np.zeros((0, 5), dtype=np.float32), 4).shape == (4, 0, 5)
    one = candidate_vectors(_unit([[0, 2]]), 3)
    assert np.allclose(one[0, 0], [0, 1]) and np.all(one[1:] == 0)


def test_candidates_exact_encodes_concatenations() -> None:
    texts = ["Der Berg .", "Die Wand .", "Der Gipfel ."]
    emb = LexicalEmbedder(dim=512)
    emb.fit(texts)
    single = emb.encode(texts)
    out = candidate_vectors(single, 2, "exact", texts, emb)
    assert np.allclose(out[1, 0], emb.encode(["Der Berg . Die Wand ."])[0])
    assert np.allclose(out[0], single)
    assert np.all(out[1, 2] == 0)
    # Fast and exact agree on what is similar to what, not on the numbers.
    fast = candidate_vectors(single, 2)
    assert float(fast[1, 0] @ out[1, 0]) > 0.8


def test_candidates_exact_needs_texts_and_embedder() -> None:
    v = _unit([[1, 0]])
    with pytest.raises(ValueError, match="exact"):
        candidate_vectors(v, 2, "exact")
    with pytest.raises(ValueError, match="mode"):
        candidate_vectors(v, 2, "slow")


def test_candidates_cancellation() -> None:
    with pytest.raises(AlignmentCancelled):
        candidate_vectors(_unit([[1, 0], [0, 1]]), 2, should_stop=lambda: True)
