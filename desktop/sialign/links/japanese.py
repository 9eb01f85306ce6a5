"""The Japanese treatment of word links: what GiNZA and a dictionary know that the encoder's word vectors do not.

The encoder's vectors of Japanese words alone are poor (ja–en AER
0.61 against 0.12 for en–fr), so a Japanese side is also read for:

* names and terms written in romaji on the other side (足利 アシカガ →
  *Ashikaga*, 太政 大臣 → *daijodaijin*): anchors like identical names;
* the Japanese-English dictionary's glosses (幕府 → *shogunate*), a weaker bonus;
* auxiliaries and conjunctive particles (た, れる, て, で ある), which render
  nothing alone: they take the links of the content word before them, and a
  token cut out of a GiNZA word takes the links of the piece before it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from sialign.core.progress import ProgressFn, StopFn, check_stop
from sialign.links.params import Link, LinkParams, base_language

FactsPair = tuple[Any, Any]  # (source facts or None, target facts or None): lists of TokenFacts
# Parts of speech that carry a meaning of their own (an auxiliary attaches to the nearest one before it).
_JA_CONTENT_UD = frozenset({"NOUN", "PROPN", "VERB", "ADJ", "NUM", "ADV", "PRON", "DET"})
# Parts of speech that never stand alone in a rendering: they take their word's links.
_JA_ATTACHED_UD = frozenset({"AUX", "SCONJ"})
# Shortest romaji found inside a longer word (daijo in daijodaijin); shorter keys must match a word whole.
ROMAJI_MIN_PART = 4
# Most consecutive Japanese tokens whose readings spell one romaji word (従 一 位 → juichii).
ROMAJI_MAX_SPAN = 4


def japanese_facts(
    pairs: Sequence[tuple[Sequence[str], Sequence[str]]], src_lang: str | None, tgt_lang: str | None
) -> list[FactsPair] | None:
    """GiNZA's :class:`~sialign.text.japanese.TokenFacts` of the Japanese side(s) of each pair; None without Japanese.

    Raises:
        LanguageToolUnavailable: a side is Japanese and GiNZA is not installed.
    """
    src_ja, tgt_ja = base_language(src_lang) == "ja", base_language(tgt_lang) == "ja"
    if not (src_ja or tgt_ja):
        return None
    from sialign.text.japanese import japanese_token_facts

    src = japanese_token_facts([s for s, _ in pairs]) if src_ja else [None] * len(pairs)
    tgt = japanese_token_facts([t for _, t in pairs]) if tgt_ja else [None] * len(pairs)
    return list(zip(src, tgt))


def _romaji_keys(tokens: Sequence[str], facts: Sequence[Any]) -> list[str]:
    """Romaji key of each Japanese token written in kana or kanji ("" for the others)."""
    from sialign.text.romaji import kana_to_romaji, romaji_key

    return [
        romaji_key(kana_to_romaji(f.reading)) if f.reading and any(ch.isalpha() and not ch.isascii() for ch in tok) else ""
        for tok, f in zip(tokens, facts)
    ]


def romaji_matches(ja_tokens: Sequence[str], facts: Sequence[Any], latin_tokens: Sequence[str]) -> set[Link]:
    """(Japanese, Latin) token pairs where the Latin word spells the Japanese reading in romaji.

    A run of up to :data:`ROMAJI_MAX_SPAN` consecutive Japanese tokens
    matches a Latin word of three letters or more when their joined
    readings equal it, or when they are at least :data:`ROMAJI_MIN_PART`
    letters and make part of it; both sides go through
    :func:`~sialign.text.romaji.romaji_key` first.
    """
    from sialign.text.romaji import romaji_key

    keys = _romaji_keys(ja_tokens, facts)
    out: set[Link] = set()
    for j, word in enumerate(latin_tokens):
        target = romaji_key(word) if all(ch.isascii() or "LATIN" in unicodedata.name(ch, "") for ch in word) else ""
        if len(target) < 3:
            continue
        for i in range(len(keys)):
            spelled = ""
            for length in range(1, ROMAJI_MAX_SPAN + 1):
                if i + length > len(keys) or not keys[i + length - 1]:
                    break
                spelled += keys[i + length - 1]
                if spelled == target or (len(spelled) >= ROMAJI_MIN_PART and spelled in target):
                    out.update((i + x, j) for x in range(length))
                if len(spelled) > len(target):
                    break
    return out


def dictionary_matches(ja_tokens: Sequence[str], facts: Sequence[Any], en_tokens: Sequence[str]) -> set[Link]:
    """(Japanese, English) token pairs where the dictionary glosses the Japanese word with the English one.

    A Japanese token is looked up as written, and as its GiNZA word's
    lemma and surface form (``TokenFacts.english``); an English token (not
    a stopword) matches through :func:`~sialign.text.lemmas.english_lemma`.
    """
    from sialign.text.english import STOPWORDS
    from sialign.text.lemmas import english_lemma

    english = [
        english_lemma(w.lower()) if w.isascii() and w.isalpha() and w.lower() not in STOPWORDS else "" for w in en_tokens
    ]
    out: set[Link] = set()
    for i, f in enumerate(facts):
        if f.english:
            out.update((i, j) for j, key in enumerate(english) if key and key in f.english)
    return out


def lexical_bonus(
    src_tokens: Sequence[str],
    tgt_tokens: Sequence[str],
    src_lang: str | None,
    tgt_lang: str | None,
    src_facts: Sequence[Any] | None,
    tgt_facts: Sequence[Any] | None,
    params: LinkParams = LinkParams(),
) -> np.ndarray | None:
    """Score bonus of token pairs that a Japanese reading or the dictionary links.

    Romaji matches (:func:`romaji_matches`, against any language written in
    Latin letters) get ``params.anchor``, dictionary matches
    (:func:`dictionary_matches`, against English) ``params.dictionary``; a
    pair that is both gets the larger.

    Returns:
        Array of shape (n_src, n_tgt), or None when neither side has Japanese facts.
    """
    if src_facts is None and tgt_facts is None:
        return None
    bonus = np.zeros((len(src_tokens), len(tgt_tokens)))
    for ja_tokens, facts, other, other_lang, flip in (
        (src_tokens, src_facts, tgt_tokens, tgt_lang, False),
        (tgt_tokens, tgt_facts, src_tokens, src_lang, True),
    ):
        if facts is None:
            continue
        found = [(dictionary_matches(ja_tokens, facts, other), params.dictionary)] if base_language(other_lang) == "en" else []
        found.append((romaji_matches(ja_tokens, facts, other), params.anchor))
        for links, weight in found:
            for i, j in links:
                cell = (j, i) if flip else (i, j)
                bonus[cell] = max(bonus[cell], weight)
    return bonus


def function_word_heads(facts: Sequence[Any] | None) -> dict[int, int]:
    """Which Japanese tokens take another token's links, and whose.

    A token cut out of the same GiNZA word as the token before it takes
    that token's links (あ る); an auxiliary or conjunctive particle
    (:data:`_JA_ATTACHED_UD`) takes those of the nearest content word
    before it (its head in Japanese word order: 建て られ た, 行っ て).
    """
    heads: dict[int, int] = {}
    if not facts:
        return heads
    last_content: int | None = None
    for k, f in enumerate(facts):
        if k > 0 and facts[k - 1].word == f.word:
            heads[k] = k - 1
        elif f.pos in _JA_ATTACHED_UD and last_content is not None:
            heads[k] = last_content
        if f.pos in _JA_CONTENT_UD:
            last_content = k
    return heads


def attach_function_words(links: Iterable[Link], src_heads: dict[int, int], tgt_heads: dict[int, int]) -> list[Link]:
    """The links, with each attached token (:func:`function_word_heads`) also linked where its head is.

    Heads come before their tokens, so a chain (た after られ after 建て) takes the links of its first word.
    """
    found = set(links)
    for heads, flip in ((src_heads, False), (tgt_heads, True)):
        if not heads:
            continue
        linked: dict[int, set[int]] = {}
        for i, j in found:
            a, b = (j, i) if flip else (i, j)
            linked.setdefault(a, set()).add(b)
        for k in sorted(heads):
            linked.setdefault(k, set()).update(linked.get(heads[k], ()))
        found = {((b, a) if flip else (a, b)) for a, bs in linked.items() for b in bs}
    return sorted(found)


def japanese_token_facts_job(
    token_lists: Sequence[Sequence[str]], *, progress: ProgressFn | None = None, should_stop: StopFn | None = None
) -> list[Any]:
    """:func:`~sialign.text.japanese.japanese_token_facts` with the job signature of ``sialign.filters.remote``."""
    from sialign.text.japanese import japanese_token_facts

    check_stop(should_stop)
    return japanese_token_facts(token_lists)
