"""Japanese word links: romaji of readings, the Japanese-English dictionary, function words attached to their word."""

from __future__ import annotations

import numpy as np
import pytest

from sialign.links import (
    LinkParams,
    WordLinker,
    attach_function_words,
    dictionary_matches,
    function_word_heads,
    lexical_bonus,
    link_matrix,
    romaji_matches,
)
from sialign.text.romaji import kana_to_romaji, romaji_key

pytest.importorskip("ja_ginza")


@pytest.fixture()
def facts():
    from sialign.text.japanese import japanese_token_facts

    return lambda tokens: japanese_token_facts([tokens])[0]


@pytest.fixture()
def small_edict(tmp_path, monkeypatch):
    """A three-entry dictionary in EDICT format, named by SIALIGN_EDICT."""
    path = tmp_path / "edict"
    path.write_text(
        "幕府 [ばくふ] /(n) shogunate/bakufu/EntL1/\n建てる [たてる] /(v1,vt) (1) to build/to construct/EntL2/\n"
        "寺 [てら] /(n) temple/EntL3/\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("SIALIGN_EDICT", str(path))
    return path


def test_romaji_spells_readings_and_keys_agree_across_spellings() -> None:
    assert kana_to_romaji("アシカガ") == "ashikaga" and kana_to_romaji("よしみつ") == "yoshimitsu"
    assert kana_to_romaji("ガッコウ") == "gakkou" and kana_to_romaji("マッチャ") == "matcha"
    assert kana_to_romaji("ショウグン") == "shougun" and kana_to_romaji("コーヒー") == "koohii"
    assert romaji_key(kana_to_romaji("ダイジョウダイジン")) == romaji_key("Daijō-daijin") == "daijodaijin"
    assert romaji_key("shimbun") == romaji_key(kana_to_romaji("シンブン"))


def test_token_facts_follow_ginzas_words_for_any_tokenisation(facts) -> None:
    # KyTea-style tokens: である cut into で あ る, a name kept whole.
    found = facts(["足利", "義満", "で", "あ", "る"])
    assert [f.reading for f in found[:2]] == ["アシカガ", "ヨシミツ"]
    assert found[3].word == found[4].word != found[2].word  # あ and る are one GiNZA word
    assert found[4].reading == "ル" and found[0].pos == "PROPN"


def test_romaji_matches_link_names_and_runs_of_tokens(facts) -> None:
    ja = ["足利", "義満", "は", "太政", "大臣", "に", "なっ", "た"]
    en = ["ashikaga", "yoshimitsu", "became", "daijo-daijin"]
    found = romaji_matches(ja, facts(ja), en)
    assert {(0, 0), (1, 1), (3, 3), (4, 3)} <= found
    # Particles spell two letters: never matched inside a longer word.
    assert not any(i in (2, 5) for i, _ in found)
    assert romaji_matches(ja, facts(ja), ["the", "minister"]) == set()
    assert {(3, 0), (4, 0)} <= romaji_matches(ja, facts(ja), ["Daijō-daijin"])  # long vowels marked


def test_dictionary_matches_glossed_words_by_lemma(facts, small_edict) -> None:
    ja = ["幕府", "は", "寺", "を", "建て", "た"]
    en = ["the", "shogunate", "constructed", "temples"]
    assert dictionary_matches(ja, facts(ja), en) == {(0, 1), (2, 3), (4, 2)}


def test_dictionary_missing_gives_no_matches(facts, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("SIALIGN_EDICT", str(tmp_path / "absent"))
    ja = ["幕府"]
    assert dictionary_matches(ja, facts(ja), ["shogunate"]) == set()


def test_auxiliaries_take_the_links_of_their_word(facts) -> None:
    ja = ["寺", "が", "建て", "られ", "た", "で", "あ", "る"]
    heads = function_word_heads(facts(ja))
    assert heads[3] == 2 and heads[4] == 2  # られ, た → 建て
    assert heads[7] == 6  # る is the rest of ある
    assert 1 not in heads  # が (a case particle) is not attached
    links = attach_function_words([(0, 1), (2, 3)], heads, {})
    assert {(3, 3), (4, 3)} <= set(links) and not any(i == 1 for i, _ in links)
    # Japanese as the target: the same on the columns.
    assert (2, 4) in attach_function_words([(2, 2)], {}, heads)


def test_lexical_bonus_lifts_a_romaji_name_against_the_encoder(facts) -> None:
    ja = ["室町", "の", "将軍"]
    en = ["shogun", "of", "muromachi"]
    sim = np.array([[0.4, 0.1, 0.3], [0.1, 0.4, 0.1], [0.3, 0.1, 0.4]])  # the encoder leans to the diagonal
    bonus = lexical_bonus(ja, en, "ja", "en", facts(ja), None)
    assert bonus is not None and bonus[0, 2] == LinkParams().anchor
    assert (0, 2) in link_matrix(sim, ja, en, bonus=bonus) and (0, 0) not in link_matrix(sim, ja, en, bonus=bonus)
    # English source, Japanese target: the bonus is transposed.
    assert lexical_bonus(en, ja, "en", "ja", None, facts(ja))[2, 0] == LinkParams().anchor
    assert lexical_bonus(en, ["x"], "en", "fr", None, None) is None


def test_word_linker_uses_the_japanese_lexicon_only_when_asked() -> None:
    class Flat:
        """Every text gets the same vector: only distortion, anchors and the lexicon decide."""

        def encode(self, texts, progress=None, should_stop=None):
            return np.ones((len(texts), 2), dtype=np.float32) / np.sqrt(2)

    pair = [(["室町", "の", "将軍", "で", "あっ", "た"], ["he", "was", "shogun", "in", "muromachi"])]
    on = WordLinker(Flat()).link(pair, "ja", "en")[0]
    off = WordLinker(Flat(), LinkParams(japanese=False)).link(pair, "ja", "en")[0]
    assert (0, 4) in on and (0, 4) not in off


def test_numbers_of_the_same_value_anchor_however_written() -> None:
    sim = np.zeros((3, 3))
    # 第 三 代 ... "the 3rd": the kanji numeral and the ordinal share the value 3.
    assert (1, 2) in link_matrix(sim, ["第", "三", "代"], ["was", "the", "3rd"])
    assert (1, 2) not in link_matrix(sim, ["第", "三", "代"], ["was", "the", "4th"])
    assert (0, 0) in link_matrix(np.zeros((2, 2)), ["十二", "月"], ["12", "december"])


def test_eflomal_links_attach_japanese_auxiliaries_after_training() -> None:
    pytest.importorskip("eflomal")
    from sialign.links import eflomal_links

    nouns = [("寺", "temple"), ("家", "house"), ("橋", "bridge"), ("城", "castle")]
    verbs = [("建て", "built"), ("壊し", "destroyed"), ("見", "saw")]
    pairs = [([n, "を", v, "た"], ["they", ve, "the", ne]) for n, ne in nouns for v, ve in verbs] * 3
    prior = [[(0, 3), (2, 1), (3, 1)] for _ in pairs]
    links = eflomal_links(pairs, prior, "ja", "en")
    # た (token 3) is linked wherever its verb (token 2) is, in every pair.
    for row in links:
        verb = {j for i, j in row if i == 2}
        assert verb <= {j for i, j in row if i == 3}
    assert sum((2, 1) in row for row in links) >= 0.8 * len(pairs)


def test_link_bead_texts_reads_japanese_through_the_given_reader() -> None:
    from sialign.links import link_bead_texts
    from sialign.text.japanese import japanese_token_facts

    class Flat:
        def encode(self, texts, progress=None, should_stop=None):
            return np.ones((len(texts), 2), dtype=np.float32) / np.sqrt(2)

    asked: list[list[list[str]]] = []

    def reader(token_lists):
        asked.append([list(tokens) for tokens in token_lists])
        return japanese_token_facts(token_lists)

    (bead,) = link_bead_texts([("They met in Muromachi.", "彼らは室町で会った。")], "en", "ja", WordLinker(Flat()),
                              japanese_reader=reader)
    assert len(asked) == 1 and "室町" in asked[0][0] and "Muromachi" not in asked[0][0]  # the target side only
    src = [t for t, _, _ in bead.src_tokens]
    tgt = [t for t, _, _ in bead.tgt_tokens]
    assert (src.index("Muromachi"), tgt.index("室町")) in bead.links
