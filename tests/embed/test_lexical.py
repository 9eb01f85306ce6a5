"""The built-in lexical embedder."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sialign.core.errors import AlignmentCancelled
from sialign.embed import Embedder, LexicalEmbedder, similarities
from sialign.evaluate import load_textberg

ENGLISH = [
    "The expedition reached the summit of Everest in May 1956.",
    "Heavy snow forced the climbers back to the base camp.",
    "Interest rates rose again after the central bank meeting.",
]
JAPANESE = [
    "今日は政府の話をします。",
    "政府の話をしますが、その前に天気の話です。",
    "猫が窓の外を見ている。",
]


def _cos(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.dot(a, b))


def test_lexical_is_an_embedder() -> None:
    assert isinstance(LexicalEmbedder(), Embedder)


def test_lexical_identical_texts_have_cosine_one() -> None:
    emb = LexicalEmbedder()
    emb.fit(ENGLISH + JAPANESE)
    vectors = emb.encode([ENGLISH[0], ENGLISH[0], JAPANESE[0], JAPANESE[0]])
    assert vectors.dtype == np.float32 and vectors.shape == (4, emb.dim)
    assert _cos(vectors[0], vectors[1]) == pytest.approx(1.0, abs=1e-5)
    assert _cos(vectors[2], vectors[3]) == pytest.approx(1.0, abs=1e-5)


def test_lexical_unrelated_texts_are_far_and_related_close() -> None:
    emb = LexicalEmbedder()
    emb.fit(ENGLISH + JAPANESE)
    v = emb.encode(ENGLISH + JAPANESE)
    # Unrelated English still shares 'the', letters... (0.29 with six texts of
    # statistics); a paraphrase scores far higher.
    assert _cos(v[0], v[2]) < 0.35
    assert _cos(v[0], v[4]) < 0.05  # different scripts share nothing
    # Japanese without spaces still overlaps on character n-grams.
    assert _cos(v[3], v[4]) > 0.4
    assert _cos(v[3], v[4]) > _cos(v[3], v[5]) + 0.3


def test_lexical_names_and_numbers_link_german_and_french() -> None:
    emb = LexicalEmbedder()
    de = ["Die Schweizer Expedition erreichte 1956 den Gipfel des Lhotse .", "Das Wetter war schlecht ."]
    fr = ["Le temps était mauvais .", "L' expédition suisse atteignit en 1956 le sommet du Lhotse ."]
    emb.fit(de, fr)
    sim = emb.encode(de) @ emb.encode(fr).T
    assert sim[0].argmax() == 1


def test_lexical_empty_text_gives_zero_vector() -> None:
    emb = LexicalEmbedder()
    emb.fit(ENGLISH)
    v = emb.encode(["", "  ", "...", ENGLISH[0]])
    assert np.all(v[:3] == 0)
    assert np.linalg.norm(v[3]) == pytest.approx(1.0, abs=1e-5)


def test_lexical_encode_of_no_texts_is_empty() -> None:
    emb = LexicalEmbedder(dim=256)
    assert emb.encode([]).shape == (0, 256)
    assert emb.encode_sparse([]).shape[0] == 0


def test_lexical_pair_fit_silences_one_sided_features() -> None:
    emb = LexicalEmbedder()
    emb.fit(["xyz qqq"], ["abc qqq"])
    v = emb.encode(["xyz", "xyz qqq", "abc qqq"])
    assert np.all(v[0] == 0)
    assert _cos(v[1], v[2]) == pytest.approx(1.0, abs=1e-5)
    # A word never seen at fit time (an edited segment) still counts.
    assert np.linalg.norm(emb.encode(["brandneu"])[0]) == pytest.approx(1.0, abs=1e-5)


def test_lexical_vectors_are_deterministic_across_instances() -> None:
    a, b = LexicalEmbedder(), LexicalEmbedder()
    a.fit(ENGLISH)
    b.fit(ENGLISH)
    assert np.array_equal(a.encode(ENGLISH), b.encode(ENGLISH))
    assert a.cache_id == b.cache_id


def test_lexical_cache_id_tracks_fit_and_settings() -> None:
    emb = LexicalEmbedder()
    unfitted = emb.cache_id
    emb.fit(ENGLISH)
    fitted = emb.cache_id
    emb.fit(JAPANESE)
    assert len({unfitted, fitted, emb.cache_id}) == 3
    assert LexicalEmbedder(word_ngrams=(2, 4)).cache_id != LexicalEmbedder().cache_id


def test_lexical_dense_folding_keeps_cosines() -> None:
    emb = LexicalEmbedder(dim=4096)
    emb.fit(ENGLISH + JAPANESE)
    sparse = emb.encode_sparse(ENGLISH + JAPANESE)
    exact = similarities(sparse, sparse)
    assert exact.shape == (6, 6) and exact.dtype == np.float32
    assert np.allclose(np.diag(exact), 1.0, atol=1e-5)
    dense = emb.encode(ENGLISH + JAPANESE)
    assert np.abs(similarities(dense, dense) - exact).max() < 0.1
    assert similarities(dense[:0], dense).shape == (0, 6)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"word_ngrams": (3, 2)}, "word_ngrams"),
        ({"dim": 1000}, "power of two"),
        ({"no_such": 1}, "unknown"),
    ],
)
def test_lexical_rejects_bad_settings(overrides: dict, message: str) -> None:
    with pytest.raises((ValueError, TypeError), match=message):
        LexicalEmbedder(**overrides)


def test_lexical_progress_and_cancellation_between_batches() -> None:
    emb = LexicalEmbedder()
    texts = [f"sentence number {i}" for i in range(1200)]
    seen: list[float] = []
    emb.encode(texts, progress=lambda f, m: seen.append(f))
    assert seen and seen[-1] == pytest.approx(1.0) and seen == sorted(seen)
    calls = []

    def stop_after_first() -> bool:
        calls.append(1)
        return len(calls) > 1

    with pytest.raises(AlignmentCancelled):
        emb.encode(texts, should_stop=stop_after_first)
    assert len(calls) == 2


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(max_size=40), min_size=1, max_size=6))
def test_lexical_rows_are_unit_or_zero(texts: list[str]) -> None:
    emb = LexicalEmbedder(dim=512)
    emb.fit(texts)
    norms = np.linalg.norm(emb.encode(texts), axis=1)
    assert np.all((np.abs(norms - 1) < 1e-4) | (norms == 0))


def test_lexical_positional_weight_keeps_features_at_matching_places() -> None:
    emb = LexicalEmbedder(word_ngrams=(4, 4))
    side_a = [f"w{i} common" for i in range(40)]
    side_b = [f"w{i} common" for i in range(40)]
    side_a[5] += " alpha beta"
    side_b[5] += " alpha"
    side_b[35] += " beta"  # same word, far from where side A has it
    emb.fit(side_a, side_b)
    alpha, beta, common = emb.encode(["alpha", "beta", "common"])
    assert np.linalg.norm(alpha) == pytest.approx(1.0, abs=1e-5)
    assert np.all(beta == 0)
    # Spread over both documents alike: kept, like any feature that matches.
    assert np.linalg.norm(common) == pytest.approx(1.0, abs=1e-5)
    emb.fit(side_a, side_b, positional=False)
    assert np.linalg.norm(emb.encode(["beta"])[0]) == pytest.approx(1.0, abs=1e-5)


def test_lexical_textberg_dev_nearest_neighbour(shared_data) -> None:
    """1:1 nearest-neighbour accuracy over all French sentences on the German–French dev document."""
    doc = load_textberg(shared_data / "textberg-dev")
    pairs = [(s[0], t[0]) for s, t in doc.gold if len(s) == 1 and len(t) == 1]

    def accuracy(emb: LexicalEmbedder) -> float:
        sim = emb.encode(doc.source) @ emb.encode(doc.target).T
        return float(np.mean([sim[i].argmax() == j for i, j in pairs]))

    joint, pair, positional = LexicalEmbedder(), LexicalEmbedder(), LexicalEmbedder()
    joint.fit(doc.source + doc.target)
    pair.fit(doc.source, doc.target, positional=False)
    positional.fit(doc.source, doc.target)
    # Measured 0.496, 0.585 and 0.618.
    assert accuracy(joint) < accuracy(pair) < accuracy(positional)
    assert accuracy(positional) > 0.6


def test_lexical_features_of_an_over_long_text_come_from_its_start(caplog: pytest.LogCaptureFixture) -> None:
    """The n-gram tables hold ~200 bytes a character: a 3 MB one-line segment needed 600 MB."""
    from sialign.embed.lexical import MAX_FEATURE_CHARS, LexicalEmbedder

    emb = LexicalEmbedder()
    text = "words of a very long line " * (MAX_FEATURE_CHARS // 10)
    with caplog.at_level("WARNING", logger="sialign.embed.lexical"):
        h_long, _ = emb.features(text)
        emb.features(text)
    h_start, _ = emb.features(text[:MAX_FEATURE_CHARS])
    assert np.array_equal(h_long, h_start)
    assert len([r for r in caplog.records if "first 20000 characters" in r.getMessage()]) == 1
