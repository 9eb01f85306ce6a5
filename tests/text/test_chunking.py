from __future__ import annotations

import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sialign.core.model import Document
from sialign.text import analyze_japanese, chunk_japanese
from sialign.text.chunking import pack_pieces, punctuation_cuts

PAPER_EXAMPLE = "じゃあ、今日はですね、政府の話をします。えー、それで"


def chunk_within(text: str, max_chars: int) -> Document:
    """``text`` chunked, checked to come back whole and in chunks of at most ``max_chars`` characters."""
    doc = chunk_japanese(text, max_chars=max_chars)
    assert doc.full_text() == text
    assert all(len(s.text) <= max_chars for s in doc.segments)
    return doc


def test_chunking_cuts_after_punctuation_without_ginza() -> None:
    doc = chunk_japanese(PAPER_EXAMPLE)
    assert [s.text for s in doc.segments] == ["じゃあ、", "今日はですね、", "政府の話をします。", "えー、", "それで"]
    assert doc.full_text() == PAPER_EXAMPLE


@pytest.mark.parametrize(
    "text, expected",
    [
        ("本当？はい！そう,です.", ["本当？", "はい！", "そう,", "です."]),
        ("「はい。」と言った、", ["「はい。」", "と言った、"]),
        ("一点五は1.5、千は1,000です。", ["一点五は1.5、", "千は1,000です。"]),
        ("ええ…、そうですね！？", ["ええ…、", "そうですね！？"]),
        ("行1\n行2", ["行1", "行2"]),
    ],
)
def test_chunking_punctuation_variants(text: str, expected: list[str]) -> None:
    assert [s.text for s in chunk_japanese(text).segments] == expected


def test_chunking_keeps_line_times_proportionally() -> None:
    doc = Document.from_texts(["ああ、いい。", "はい"], "ja", [(10.0, 16.0), (16.0, 17.0)])
    out = chunk_japanese(doc)
    assert [(s.text, s.start, s.end, s.line) for s in out.segments] == [
        ("ああ、", 10.0, 13.0, 1),
        ("いい。", 13.0, 16.0, 1),
        ("はい", 16.0, 17.0, 2),
    ]


def test_chunking_pack_pieces_balances_and_hard_cuts() -> None:
    assert pack_pieces(10, [3, 5, 8], 10) == []
    assert pack_pieces(20, [4, 9, 11, 16], 12) == [9] or pack_pieces(20, [4, 9, 11, 16], 12) == [11]
    assert pack_pieces(25, [], 10) == [10, 20]
    cuts = pack_pieces(100, list(range(0, 100, 7)), 30)
    widths = [b - a for a, b in zip([0, *cuts], [*cuts, 100])]
    assert max(widths) <= 30 and min(widths) >= 15


def test_chunking_punctuation_cuts_ignore_decimal_points() -> None:
    assert punctuation_cuts("3.5と1,000") == []


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(["あ", "今日", "、", "。", "？", "!", ".", "1", " ", "\n", "」", "「", "…"]), max_size=50))
def test_chunking_lossless_on_random_punctuation(pieces: list[str]) -> None:
    text = "".join(pieces)
    # max_chars above the text length: GiNZA is not needed, only the punctuation rules run.
    doc = chunk_japanese(text, max_chars=1000)
    if text.strip():
        assert doc.full_text() == text
    assert all(s.text.strip() for s in doc.segments)


@pytest.mark.slow
def test_chunking_long_pieces_cut_at_bunsetsu(ginza: Any) -> None:
    text = "私は昨日の夜に友達と一緒に駅前の新しいレストランで美味しい日本料理をたくさん食べました"
    doc = chunk_within(text, 15)
    starts = set(analyze_japanese([text])[0].bunsetsu_starts)
    offset = 0
    for seg in doc.segments[:-1]:
        offset += len(seg.text)
        assert offset in starts, f"cut at {offset} is not a bunsetsu boundary"


@pytest.mark.slow
def test_chunking_ten_thousand_unpunctuated_characters(ginza: Any) -> None:
    unit = "政府の新しい政策について専門家たちが議論を続けている"
    text = (unit * (10_000 // len(unit) + 1))[:10_000]
    began = time.perf_counter()
    doc = chunk_japanese(text, max_chars=40)
    elapsed = time.perf_counter() - began
    assert doc.full_text() == text
    assert all(1 <= len(s.text) <= 40 for s in doc.segments)
    assert len(doc) >= 250
    assert elapsed < 120


@pytest.mark.slow
def test_chunking_unexpected_script_is_chunked_not_crashed(ginza: Any) -> None:
    text = "This is English text without any Japanese at all and it goes on for a while, then stops. Ещё русский текст без точки"
    chunk_within(text, 20)


@pytest.mark.slow
def test_chunking_analysis_pos_of_paper_example(ginza: Any) -> None:
    (analysis,) = analyze_japanese([PAPER_EXAMPLE])
    pos = {t.text: t.pos for t in analysis.tokens}
    assert pos["じゃあ"] == "CCONJ" and pos["政府"] == "NOUN" and pos["えー"] == "INTJ"
    assert all(PAPER_EXAMPLE[t.start : t.end] == t.text for t in analysis.tokens)
    assert analysis.bunsetsu_starts[0] == 0


@pytest.mark.slow
def test_chunking_ginza_is_loaded_once(ginza: Any) -> None:
    from sialign.text import ginza_nlp

    assert ginza_nlp() is ginza


@pytest.mark.parametrize(
    "ud_pos, tag, expected",
    [
        ("ADJ", "名詞-普通名詞-一般", "NOUN"),  # 送電網、 on its own
        ("ADJ", "名詞-固有名詞-一般", "PROPN"),  # ＴＥＤなんですけども
        ("ADJ", "名詞-普通名詞-形状詞可能", "ADJ"),  # 脆弱だ: a real na-adjective
        ("ADJ", "形状詞-一般", "ADJ"),
        ("NOUN", "名詞-普通名詞-一般", "NOUN"),
        ("CCONJ", "接続詞", "CCONJ"),
    ],
)
def test_chunking_effective_pos_corrects_nouns_tagged_adj(ud_pos: str, tag: str, expected: str) -> None:
    from sialign.text.japanese import effective_pos

    assert effective_pos(ud_pos, tag) == expected


@pytest.mark.slow
def test_chunking_analysis_of_short_chunks_keeps_nouns(ginza: Any) -> None:
    analyses = analyze_japanese(["ただ送電網、", "簡単なんです。"])
    assert {t.text: t.pos for t in analyses[0].tokens}["送電網"] == "NOUN"
    assert {t.text: t.pos for t in analyses[1].tokens}["簡単"] == "ADJ"


@pytest.mark.slow
def test_chunking_ginza_loader_is_shared_across_threads(ginza: Any) -> None:
    from concurrent.futures import ThreadPoolExecutor

    from sialign.text import ginza_nlp

    with ThreadPoolExecutor(4) as pool:
        loaded = list(pool.map(lambda _: ginza_nlp(), range(8)))
        parsed = list(pool.map(lambda t: analyze_japanese([t])[0], ["政府の話", "音楽の話", "信頼の話", "都市の話"]))
    assert all(nlp is ginza for nlp in loaded)
    assert [a.tokens[0].text for a in parsed] == ["政府", "音楽", "信頼", "都市"]


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(["政府", "の", "話", "を", "します", "えー", "、", "。", " ", "\n", "ABC", "1.5"]), max_size=40))
def test_chunking_lossless_with_bunsetsu_cuts(pieces: list[str]) -> None:
    text = "".join(pieces)
    doc = chunk_japanese(text, max_chars=6)
    if text.strip():
        assert doc.full_text() == text
    assert all(s.text.strip() and len(s.text.strip()) <= 6 for s in doc.segments)
