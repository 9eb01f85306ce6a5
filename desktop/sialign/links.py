"""Word links inside a bead, from the built-in multilingual encoder (the first step of Ryu et al.'s detag-and-project).

The built-in encoder (USE-multilingual v3) embeds texts, so a word gets
three vectors: the word encoded alone, and the word with one and with two
neighbours on each side, read in its whole side of the bead
(:meth:`~sialign.embed.multilingual.MultilingualEncoder.encode_spans`: one
pass over the side gives every window; encoding each window as a text of
its own cost three to four times as much and scored lower on every dev
pair). Source and target vectors of the three kinds are compared by cosine
and the three matrices mixed, which lets context tell apart words that look
alike alone (Japanese kana, function words). Then, per pair of texts:

* a **distortion prior** subtracts ``distortion × |i/n − j/m|`` — word
  orders of the two sides are mostly monotone within a short bead;
* **anchors**: numbers of the same value (*3rd* and 3, 三 and 3), identical
  Latin words and punctuation on both sides add ``anchor`` (names and
  figures are what a trainer checks first);
* **Japanese** (``LinkParams.japanese``): a Japanese side is read by
  GiNZA's tokenizer (:func:`~sialign.text.japanese.japanese_token_facts`)
  and names spelled in romaji on the other side (足利 → *Ashikaga*) add
  ``anchor``, words the Japanese-English dictionary glosses with the
  English word (:mod:`sialign.text.edict`) add ``dictionary``
  (:func:`lexical_bonus`); after extraction auxiliaries and conjunctive
  particles take the links of their word (:func:`attach_function_words`);
* links are the cells whose **two-way probability** — a softmax over the
  row times a softmax over the column, at ``temperature`` — exceeds
  ``threshold`` (the awesome-align extraction; with a low temperature this
  is mutual best match, a higher one admits one-to-many links).

**Rendered by paraphrase.** Word links miss what an interpreter says in
other words (*slowly* → だんだん): a source content word without a link is
counted as rendered when a span of the rendition is similar enough to the
word's context (:func:`paraphrase_matches`): the ±1 / ±2 window of the word
against the windows of the target words, either among the unlinked target
words between the targets of its linked neighbours (the slot where its
rendering would sit, ``paraphrase_slot``) or anywhere in the bead
(``paraphrase_any``, a stricter threshold). On the dev sets, a third to
three quarters of the words that word links leave unlinked but the gold
renders become "rendered by paraphrase", against about one in five words
whose rendering was cut out of the target (tests/benchmarks/bench_rendered.py).

Speed: each distinct word is encoded alone once per linker (and kept for
later calls), each bead side once; a 500-bead talk takes a few seconds on
2 cores and one bead on demand a few tens of milliseconds
(tests/benchmarks/bench_links.py). No training and nothing downloaded.
Mutual-argmax with grow-diag-final-and (:mod:`sialign.filters.word_align`)
and SimAlign's itermax were tried on the dev sets and did worse with these
vectors (tests/benchmarks/RESULTS.md).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from sialign.core.errors import InputError
from sialign.core.progress import ProgressFn, StopFn, check_stop
from sialign.embed.base import one_blas_thread

Link = tuple[int, int]

# Scripts written without spaces: context windows join their tokens with no space.
UNSPACED = frozenset({"ja", "zh", "th"})
_NUMBER = re.compile(r"^[^\W\d]{0,3}0*(\d{1,9})[^\W\d]{0,3}$")
_KANJI_NUMBER = re.compile(r"^[〇一二三四五六七八九十百千万億]+$")
_ANCHOR = re.compile(r"^(?:[\d.,:/%-]+|[^\w\s]+|[A-Za-z][A-Za-z'.-]*)$")
_WORD = re.compile(r"[A-Za-z0-9]+(?:['’.-][A-Za-z0-9]+)*|[^\W\d_A-Za-z]|\d+|[^\w\s]", re.UNICODE)
_LATIN_WORD = re.compile(r"\w+(?:['’-]\w+)*|[^\w\s]", re.UNICODE)


@dataclass(frozen=True)
class LinkParams:
    """How word links are drawn (tuned on the dev sets; see the module docstring).

    tests/benchmarks/cv_links.py chooses each number again on the other folds
    of the dev sets and scores the held-out fold (tests/benchmarks/RESULTS.md).

    Attributes:
        weights: weights of the word-alone, ±1 and ±2 context similarities.
        distortion: penalty per unit of relative position difference.
        anchor: bonus for identical numbers, Latin words and punctuation.
        temperature: softmax temperature of the two-way probability.
        threshold: least two-way probability of a link.
        paraphrase_slot: least context similarity of a paraphrase in the slot
            between the targets of the word's linked neighbours.
        paraphrase_any: least context similarity of a paraphrase anywhere in the bead.
        dictionary: bonus for a Japanese word and an English word it is glossed
            with in the Japanese-English dictionary (:mod:`sialign.text.edict`).
        japanese: use GiNZA's reading of Japanese tokens: names in romaji on the
            other side are anchors (bonus ``anchor``), the dictionary bonus, and
            auxiliaries and conjunctive particles take their word's links.
    """

    weights: tuple[float, float, float] = (0.6, 0.2, 0.2)
    distortion: float = 0.2
    anchor: float = 0.3
    temperature: float = 0.03
    threshold: float = 0.1
    paraphrase_slot: float = 0.4
    paraphrase_any: float = 0.6
    dictionary: float = 0.15
    japanese: bool = True


# The name is stored with a project's links: links drawn by an older method
# (without paraphrases, without the Japanese lexicon) are drawn again when a project is opened.
ALIGNER_NAME = "use-multilingual-prob+paraphrase+ja-lexicon"
# Most words whose vectors a WordLinker keeps (2 kB each): a few talks' vocabulary.
WORD_CACHE = 20_000


def _lang(language: str | None) -> str:
    return (language or "").replace("_", "-").split("-")[0].lower()


def context_texts(tokens: Sequence[str], language: str | None) -> tuple[list[str], list[str], list[str]]:
    """The three texts each token is encoded as: alone, with ±1 and with ±2 neighbours."""
    joiner = "" if _lang(language) in UNSPACED else " "
    n = len(tokens)
    one = [joiner.join(tokens[max(0, k - 1) : k + 2]) for k in range(n)]
    two = [joiner.join(tokens[max(0, k - 2) : k + 3]) for k in range(n)]
    return list(tokens), one, two


def similarity_matrix(
    src: Sequence[np.ndarray | None], tgt: Sequence[np.ndarray | None], params: LinkParams = LinkParams()
) -> np.ndarray:
    """Mixed cosine similarity of source and target tokens.

    Args:
        src: three unit-row arrays of shape (n_src, dim): alone, ±1, ±2
            (None where the view's weight is 0).
        tgt: the same for the target, (n_tgt, dim).

    Returns:
        Array of shape (n_src, n_tgt).
    """
    out: np.ndarray | None = None
    for weight, a, b in zip(params.weights, src, tgt):
        if weight and a is not None and b is not None:
            part = weight * (a @ b.T)
            out = part if out is None else out + part
    if out is None:
        raise ValueError("LinkParams.weights: at least one view needs a weight above 0")
    return out.astype(np.float32)


def _anchor_key(token: str) -> str | None:
    """What a token must share with one on the other side to be an anchor; None: it is no anchor.

    A number is its value, however written: digits with up to three
    letters around them (*3rd*, *1990s*, *第3*) or kanji numerals (三, 十二)
    give the digits' value; other numbers, Latin words and punctuation
    anchor when identical (lower case).
    """
    number = _NUMBER.match(token)
    if number:
        return "#" + str(int(number.group(1)))
    if _KANJI_NUMBER.match(token):
        from sialign.text.numbers import canonical, kanji_number

        value = kanji_number(token)
        if value is not None:
            return "#" + canonical(value)
    key = token.lower()
    return key if _ANCHOR.match(key) else None


def link_matrix(
    similarity: np.ndarray,
    src_tokens: Sequence[str],
    tgt_tokens: Sequence[str],
    params: LinkParams = LinkParams(),
    bonus: np.ndarray | None = None,
) -> list[Link]:
    """Links from a similarity matrix: distortion prior, anchors, two-way probability.

    Args:
        similarity: array of shape (n_src, n_tgt), from :func:`similarity_matrix`.
        src_tokens / tgt_tokens: the tokens (for the anchors).
        bonus: array of shape (n_src, n_tgt) added to the scores
            (:func:`lexical_bonus`), or None.

    Returns:
        Sorted 0-based (source, target) links.
    """
    n, m = similarity.shape
    if n == 0 or m == 0:
        return []
    rows = (np.arange(n)[:, None] + 0.5) / n
    cols = (np.arange(m)[None, :] + 0.5) / m
    score = similarity.astype(np.float64) - params.distortion * np.abs(rows - cols)
    tgt_keys: dict[str, list[int]] = {}
    for j, tok in enumerate(tgt_tokens):
        key = _anchor_key(tok)
        if key is not None:
            tgt_keys.setdefault(key, []).append(j)
    for i, tok in enumerate(src_tokens):
        key = _anchor_key(tok)
        for j in tgt_keys.get(key, []) if key is not None else []:
            score[i, j] += params.anchor
    if bonus is not None:
        score += bonus
    e = np.exp((score - score.max()) / params.temperature)
    prob = (e / e.sum(axis=1, keepdims=True)) * (e / e.sum(axis=0, keepdims=True))
    return [(int(i), int(j)) for i, j in zip(*np.nonzero(prob > params.threshold))]


def paraphrase_matches(
    src: Sequence[np.ndarray | None],
    tgt: Sequence[np.ndarray | None],
    links: Sequence[Link],
    content: Iterable[int],
    params: LinkParams = LinkParams(),
) -> list[int]:
    """The content words without a link that a span of the target renders in other words.

    A word's context is its ±1 and ±2 windows; a target span is a target
    word's window of the same size. The word counts as rendered by
    paraphrase when its context is at least ``params.paraphrase_slot``
    similar to a span around an unlinked target word in its *slot* (between
    the targets of the nearest linked source words within three words on
    each side, two words wider on a side with no linked neighbour), or at
    least ``params.paraphrase_any`` similar to any span of the target.

    Args:
        src: the three views of :func:`similarity_matrix` for the source, (n_src, dim) each.
        tgt: the same for the target, (n_tgt, dim).
        links: the pair's links.
        content: indices of the source content words.

    Returns:
        Sorted source indices.
    """
    views = [(a, b) for a, b in zip(src[1:], tgt[1:]) if a is not None and b is not None]
    if not views or not len(views[0][1]):
        return []
    context = np.max([a @ b.T for a, b in views], axis=0)  # (n_src, n_tgt)
    n, m = context.shape
    linked_src: dict[int, list[int]] = {}
    for i, j in links:
        linked_src.setdefault(i, []).append(j)
    linked_tgt = {j for _, j in links}
    out = []
    for i in sorted(set(content)):
        if i in linked_src or not 0 <= i < n:
            continue
        if float(context[i].max()) >= params.paraphrase_any:
            out.append(i)
            continue
        left = next((k for k in range(i - 1, max(-1, i - 4), -1) if k in linked_src), None)
        right = next((k for k in range(i + 1, min(n, i + 4)) if k in linked_src), None)
        around = [j for k in (left, right) if k is not None for j in linked_src[k]]
        if not around:
            continue
        lo, hi = min(around), max(around)
        if left is None or right is None:
            lo, hi = max(0, lo - 2), min(m - 1, hi + 2)
        slot = [j for j in range(lo, hi + 1) if j not in linked_tgt]
        if slot and float(context[i, slot].max()) >= params.paraphrase_slot:
            out.append(i)
    return out


class WordLinker:
    """Word links for pairs of token lists, with the built-in encoder.

    Args:
        encoder: anything with ``encode(texts) -> (n, dim) unit rows``; None:
            the built-in :class:`~sialign.embed.multilingual.MultilingualEncoder`.
        params: :class:`LinkParams`.

    Raises:
        ModelLoadError: the built-in encoder cannot be loaded.
    """

    name = ALIGNER_NAME

    def __init__(self, encoder: Any = None, params: LinkParams = LinkParams()) -> None:
        if encoder is None:
            from sialign.embed.multilingual import MultilingualEncoder

            encoder = MultilingualEncoder()
        self.encoder = encoder
        self.params = params
        # Vectors of words encoded alone, kept across calls: a bead linked on
        # demand finds most of its words (function words above all) here.
        self._words: dict[str, np.ndarray] = {}

    def link(
        self,
        pairs: Sequence[tuple[Sequence[str], Sequence[str]]],
        src_lang: str | None,
        tgt_lang: str | None,
        *,
        progress: ProgressFn | None = None,
        should_stop: StopFn | None = None,
    ) -> list[list[Link]]:
        """0-based (source, target) links of each pair of token lists.

        See :meth:`link_with_paraphrase`, which also gives the words rendered by paraphrase.
        """
        drawn = self.link_with_paraphrase(pairs, src_lang, tgt_lang, progress=progress, should_stop=should_stop)
        return [links for links, _ in drawn]

    def link_with_paraphrase(
        self,
        pairs: Sequence[tuple[Sequence[str], Sequence[str]]],
        src_lang: str | None,
        tgt_lang: str | None,
        content: Sequence[Iterable[int]] | None = None,
        *,
        facts: Sequence[FactsPair] | None = None,
        progress: ProgressFn | None = None,
        should_stop: StopFn | None = None,
    ) -> list[tuple[list[Link], list[int]]]:
        """Links of each pair of token lists, and its source words rendered by paraphrase.

        Args:
            content: per pair, the source content words to look for
                paraphrases of (:func:`paraphrase_matches`); None: none.
            facts: per pair, :func:`japanese_facts` of its sides, read
                elsewhere (the app reads them where GiNZA is loaded); None:
                read here when a side is Japanese.

        Every distinct word is encoded alone once (and kept for later calls);
        with an encoder that has ``encode_spans`` the context windows of all
        the words of a side come from one pass over that side, else every
        distinct window is encoded once as a text of its own.

        Raises:
            AlignmentCancelled: ``should_stop()`` returned True.
        """
        keep = [k for k, (s, t) in enumerate(pairs) if s and t]
        sides = [(list(pairs[k][0]), src_lang) for k in keep] + [(list(pairs[k][1]), tgt_lang) for k in keep]
        used = [k for k, weight in enumerate(self.params.weights) if weight]  # a view of weight 0 is not encoded
        check_stop(should_stop)

        def stage(low: float, high: float) -> ProgressFn:
            def report(fraction: float, message: str) -> None:
                if progress is not None:
                    progress(low + (high - low) * fraction, "Encoding words for links")

            return report

        views: list[list[np.ndarray | None]] = [[None, None, None] for _ in sides]
        if 0 in used:
            alone = self._alone([tokens for tokens, _ in sides], stage(0.0, 0.2), should_stop)
            for row, vectors in zip(views, alone):
                row[0] = vectors
        context = [k for k in used if k > 0]
        if context:
            encode = self._context_in_text if hasattr(self.encoder, "encode_spans") else self._context_texts
            for row, found in zip(views, encode(sides, context, stage(0.2, 0.95), should_stop)):
                for k, vectors in zip(context, found):
                    row[k] = vectors
        if not self.params.japanese:
            japanese = None
        elif facts is not None:
            japanese = [facts[k] for k in keep]
        else:
            japanese = japanese_facts([pairs[k] for k in keep], src_lang, tgt_lang)
        japanese = japanese or [(None, None)] * len(keep)
        out: list[tuple[list[Link], list[int]]] = [([], []) for _ in pairs]
        with one_blas_thread():  # products of a few dozen rows: threads would only wait for each other
            for n, k in enumerate(keep):
                if n % 200 == 0:
                    check_stop(should_stop)
                sim = similarity_matrix(views[n], views[n + len(keep)], self.params)
                src_facts, tgt_facts = japanese[n]
                bonus = lexical_bonus(pairs[k][0], pairs[k][1], src_lang, tgt_lang, src_facts, tgt_facts, self.params)
                links = link_matrix(sim, pairs[k][0], pairs[k][1], self.params, bonus)
                links = attach_function_words(links, function_word_heads(src_facts), function_word_heads(tgt_facts))
                para = (paraphrase_matches(views[n], views[n + len(keep)], links, content[k], self.params)
                        if content is not None else [])
                out[k] = (links, para)
        if progress is not None:
            progress(1.0, "Links drawn")
        return out

    def _alone(self, sides: list[list[str]], progress: ProgressFn, should_stop: StopFn | None) -> list[np.ndarray]:
        """Each side's words encoded alone: per side (n_words, dim), from the kept vectors where there."""
        new = list(dict.fromkeys(w for tokens in sides for w in tokens if w not in self._words))
        if new:
            vectors = self.encoder.encode(new, progress=progress, should_stop=should_stop)
            if len(self._words) + len(new) > WORD_CACHE:
                self._words.clear()
            self._words.update(zip(new, vectors))
        return [np.stack([self._words[w] for w in tokens]) for tokens in sides]

    def _context_in_text(
        self, sides: list[tuple[list[str], str | None]], context: list[int], progress: ProgressFn, should_stop: StopFn | None
    ) -> list[list[np.ndarray]]:
        """Per side, per view in ``context`` (1: ±1, 2: ±2), the windows' vectors read in the side's whole text."""
        unique: dict[tuple[str, tuple[str, ...]], int] = {}
        texts: list[str] = []
        spans: list[list[tuple[int, int]]] = []
        owner: list[int] = []
        for tokens, lang in sides:
            key = ("" if _lang(lang) in UNSPACED else " ", tuple(tokens))
            if key not in unique:
                unique[key] = len(texts)
                text, starts, ends = _joined(tokens, key[0])
                n = len(tokens)
                texts.append(text)
                spans.append(
                    [(starts[max(0, i - w)], ends[min(n - 1, i + w)]) for w in context for i in range(n)]
                )
            owner.append(unique[key])
        vectors = self.encoder.encode_spans(texts, spans, progress=progress, should_stop=should_stop)
        return [np.split(vectors[k], len(context)) for k in owner]

    def _context_texts(
        self, sides: list[tuple[list[str], str | None]], context: list[int], progress: ProgressFn, should_stop: StopFn | None
    ) -> list[list[np.ndarray]]:
        """The same as :meth:`_context_in_text`, each distinct window encoded as a text of its own."""
        windows = [context_texts(tokens, lang) for tokens, lang in sides]
        new = list(dict.fromkeys(t for views in windows for k in context for t in views[k] if t not in self._words))
        found = {**self._words, **dict(zip(new, self.encoder.encode(new, progress=progress, should_stop=should_stop)))}
        return [[np.stack([found[t] for t in views[k]]) for k in context] for views in windows]


# ---------------------------------------------------------------------------
# Japanese: what GiNZA and a dictionary know that the encoder's word vectors
# do not. The encoder's vectors of Japanese words alone are poor (ja–en AER
# 0.61 against 0.12 for en–fr), so a Japanese side is also read for:
# * names and terms written in romaji on the other side (足利 アシカガ →
#   *Ashikaga*, 太政 大臣 → *daijodaijin*): anchors like identical names;
# * the Japanese-English dictionary's glosses (幕府 → *shogunate*), a weaker bonus;
# * auxiliaries and conjunctive particles (た, れる, て, で ある), which render
#   nothing alone: they take the links of the content word before them, and a
#   token cut out of a GiNZA word takes the links of the piece before it.

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
    src_ja, tgt_ja = _lang(src_lang) == "ja", _lang(tgt_lang) == "ja"
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
        found = [(dictionary_matches(ja_tokens, facts, other), params.dictionary)] if _lang(other_lang) == "en" else []
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


def _joined(tokens: Sequence[str], joiner: str) -> tuple[str, list[int], list[int]]:
    """The tokens joined into one text, with each token's start and end offsets in it."""
    starts, ends, at = [], [], 0
    for token in tokens:
        starts.append(at)
        at += len(token)
        ends.append(at)
        at += len(joiner)
    return joiner.join(tokens), starts, ends


EFLOMAL_NAME = "eflomal+use-multilingual-prior"


def eflomal_available() -> bool:
    """Whether the ``eflomal`` package (a Bayesian IBM-model aligner, PyPI) is installed."""
    import importlib.util

    return importlib.util.find_spec("eflomal") is not None


def eflomal_links(
    pairs: Sequence[tuple[Sequence[str], Sequence[str]]],
    prior_links: Sequence[Sequence[Link]],
    src_lang: str | None = None,
    tgt_lang: str | None = None,
    params: LinkParams = LinkParams(),
) -> list[list[Link]]:
    """Links from eflomal trained on ``pairs`` themselves, seeded with ``prior_links``.

    The encoder's links become eflomal's lexical, jump and fertility priors
    (its ``calculate_priors``), so the statistical model starts from what
    the encoder knows and learns the rest from the corpus; the two
    directional results are intersected (better than grow-diag-final-and on
    every dev pair). Needs a corpus: with a handful of pairs the encoder's
    links alone are as good. eflomal's sampler is random, so two runs may
    differ in a few links.

    With a Japanese side, an encoder link that one direction of eflomal also
    draws is kept too (the encoder's links carry the romaji and dictionary
    evidence of :func:`lexical_bonus`, which eflomal does not see; ja–en dev
    AER 0.467 → 0.452, while on en–fr, without that evidence, it cost 0.002),
    and auxiliaries and conjunctive particles then take the links of their
    word (:func:`attach_function_words`), as in the encoder's links.

    Args:
        pairs: token lists, as for :meth:`WordLinker.link`.
        prior_links: the encoder's links of each pair.
        src_lang / tgt_lang: the languages (None: no Japanese treatment).

    Raises:
        ModelLoadError: eflomal is not installed.
        LanguageToolUnavailable: a side is Japanese and GiNZA is not installed.
    """
    import io
    import tempfile

    from sialign.core.errors import ModelLoadError

    try:
        import eflomal
    except ImportError as exc:
        raise ModelLoadError(
            f"the eflomal aligner is not installed ({exc}); run `pip install eflomal`, or use the encoder's links"
        ) from exc
    keep = [k for k, (s, t) in enumerate(pairs) if s and t]
    out: list[list[Link]] = [[] for _ in pairs]
    if not keep:
        return out
    # eflomal reads whitespace-separated tokens: a token is never empty or spaced here.
    src = [" ".join(pairs[k][0]).lower() for k in keep]
    tgt = [" ".join(pairs[k][1]).lower() for k in keep]
    prior = [format_pharaoh(prior_links[k]) for k in keep]
    lex, hmm_f, hmm_r, fert_f, fert_r = eflomal.calculate_priors(src, tgt, prior, prior)
    priors = io.StringIO()
    eflomal.write_priors(priors, lex, hmm_f, hmm_r, fert_f, fert_r)
    priors.seek(0)
    with tempfile.TemporaryDirectory(prefix="sialign-links-") as folder:
        fwd, rev = Path(folder) / "fwd", Path(folder) / "rev"
        eflomal.Aligner().align(
            io.StringIO("".join(line + "\n" for line in src)),
            io.StringIO("".join(line + "\n" for line in tgt)),
            links_filename_fwd=str(fwd),
            links_filename_rev=str(rev),
            priors_input=priors,
        )
        forward = fwd.read_text(encoding="utf-8").splitlines()
        backward = rev.read_text(encoding="utf-8").splitlines()
    japanese = japanese_facts([pairs[k] for k in keep], src_lang, tgt_lang) if params.japanese else None
    for k, f_line, r_line in zip(keep, forward, backward):
        f_set = {_parse_link(x) for x in f_line.split()}
        r_set = {_parse_link(x) for x in r_line.split()}
        found = f_set & r_set
        if japanese is not None:
            # The encoder's links carry the romaji and dictionary evidence eflomal
            # never sees: one direction agreeing with them is enough.
            found |= set(prior_links[k]) & (f_set | r_set)
        out[k] = sorted(found)
    for k, (src_facts, tgt_facts) in zip(keep, japanese or []):
        out[k] = attach_function_words(out[k], function_word_heads(src_facts), function_word_heads(tgt_facts))
    return out


def _parse_link(text: str) -> Link:
    i, j = text.split("-")
    return int(i), int(j)


def tokenize(text: str, language: str | None) -> list[tuple[str, int, int]]:
    """Words of a running text with their character offsets, for links inside a bead.

    Japanese goes through GiNZA's tokenizer (its words, punctuation
    included; no parse, so a bead's text takes well under a millisecond); Chinese
    is split into characters except for Latin words and numbers; other
    languages into words and punctuation marks.

    Returns:
        ``(token, start, end)`` in order.

    Raises:
        LanguageToolUnavailable: Japanese text and GiNZA not installed.
    """
    lang = _lang(language)
    if lang == "ja":
        from sialign.text.japanese import japanese_words

        return japanese_words(text)
    pattern = _WORD if lang in UNSPACED else _LATIN_WORD
    return [(m.group(), m.start(), m.end()) for m in pattern.finditer(text)]


def format_pharaoh(links: Iterable[Link]) -> str:
    """``"0-1 2-3"``: 0-based links, the output of fast_align, eflomal and awesome-align."""
    return " ".join(f"{i}-{j}" for i, j in sorted(links))


def read_pairs(path: str | Path, text: str | None = None) -> list[tuple[list[str], list[str]]]:
    """``source ||| target`` lines, pre-tokenised with spaces (the shared word-aligner input).

    Args:
        path: the file (named in errors).
        text: its contents when already read (standard input).

    Raises:
        InputError: a line without ``|||``, or the file cannot be read.
    """
    if text is None:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(path, f"not UTF-8 text ({exc.reason} at byte {exc.start})", hint="save it as UTF-8") from exc
        except OSError as exc:
            raise InputError(path, f"cannot be read ({exc.strerror or exc})") from exc
    pairs: list[tuple[list[str], list[str]]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if " ||| " not in f" {line} " or line.count("|||") != 1:
            raise InputError(
                path, "expected one 'source ||| target' pair per line", line=number,
                hint="separate the two tokenised sides with ' ||| '",
            )
        src, tgt = line.split("|||")
        pairs.append((src.split(), tgt.split()))
    return pairs


# ---------------------------------------------------------------------------
# Links of a bead's running texts (the application's use: stored links, the
# rendered share, the bead panel, exports). Kept in one block, on top of the
# public API above.

# Japanese parts of speech (GiNZA's UD tags) that count as content words.
JA_CONTENT_POS = frozenset({"NOUN", "PROPN", "VERB", "ADJ", "NUM"})
# Chinese characters that are function words (particles, copula, pronouns, conjunctions).
ZH_FUNCTION_CHARS = frozenset("的了是在和与及也就都而之着过吗呢吧啊们我你他她它这那个有不对把被从向以为所")


def _function_words(lang: str) -> frozenset[str]:
    from sialign.io.language_words import FUNCTION_WORDS as GUESSING_WORDS
    from sialign.text.english import STOPWORDS
    from sialign.text.short_answers import FUNCTION_WORDS

    words = set(GUESSING_WORDS.get(lang, "").split()) | FUNCTION_WORDS.get(lang, frozenset())
    return frozenset(words | STOPWORDS) if lang in ("en", "") else frozenset(words)


def is_content_token(token: str, language: str | None, pos: str | None = None) -> bool:
    """Whether a token counts for the rendered share (documented rule, per language).

    * Japanese: GiNZA's part of speech is one of :data:`JA_CONTENT_POS`.
    * Chinese: a number, a Latin word, or a character not in :data:`ZH_FUNCTION_CHARS`.
    * Other languages: it holds a letter or digit and is not a function word
      (English: ``sialign.text.english.STOPWORDS``; others: the function-word
      lists of ``sialign.io.language_words`` and ``sialign.text.short_answers``).
      Numbers always count.
    """
    lang = _lang(language)
    if not any(ch.isalnum() for ch in token):
        return False
    if any(ch.isdigit() for ch in token):
        return True
    if lang == "ja" and pos is not None:
        return pos in JA_CONTENT_POS
    if lang == "zh" and len(token) == 1 and not token.isascii():
        return token not in ZH_FUNCTION_CHARS
    return token.lower().replace("’", "'") not in _function_words(lang)


def tokenize_texts(texts: Sequence[str], language: str | None) -> list[tuple[list[tuple[str, int, int]], list[int]]]:
    """:func:`tokenize` of each text, with the indices of its content words (:func:`is_content_token`).

    Japanese texts are analysed by GiNZA in one batch.
    """
    lang = _lang(language)
    out: list[tuple[list[tuple[str, int, int]], list[int]]] = []
    if lang == "ja":
        from sialign.text.japanese import analyze_japanese

        for analysis in analyze_japanese(list(texts)):
            words = [t for t in analysis.tokens if t.text.strip()]
            tokens = [(t.text, t.start, t.end) for t in words]
            out.append((tokens, [k for k, t in enumerate(words) if is_content_token(t.text, lang, t.pos)]))
        return out
    for text in texts:
        tokens = tokenize(text, language)
        out.append((tokens, [k for k, (t, _, _) in enumerate(tokens) if is_content_token(t, lang)]))
    return out


def tokenize_texts_job(
    texts: Sequence[str], language: str | None, *, progress: ProgressFn | None = None, should_stop: StopFn | None = None
) -> list[tuple[list[tuple[str, int, int]], list[int]]]:
    """:func:`tokenize_texts` with the job signature of ``sialign.filters.remote`` (run where GiNZA is loaded)."""
    check_stop(should_stop)
    return tokenize_texts(texts, language)


Tokenizer = Any  # (texts, language) -> what tokenize_texts returns


def japanese_token_facts_job(
    token_lists: Sequence[Sequence[str]], *, progress: ProgressFn | None = None, should_stop: StopFn | None = None
) -> list[Any]:
    """:func:`~sialign.text.japanese.japanese_token_facts` with the job signature of ``sialign.filters.remote``."""
    from sialign.text.japanese import japanese_token_facts

    check_stop(should_stop)
    return japanese_token_facts(token_lists)


def link_bead_texts(
    pairs: Sequence[tuple[str, str]],
    src_lang: str | None,
    tgt_lang: str | None,
    linker: WordLinker | None = None,
    *,
    tokenizer: Tokenizer = None,
    japanese_reader: Any = None,
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
) -> list[Any]:
    """Tokens, content words and links of each (source text, target text) pair.

    Args:
        tokenizer: ``(texts, language)`` → :func:`tokenize_texts`'s result;
            the desktop app passes one that runs Japanese in its scoring
            process (GiNZA in a thread would freeze the window). Default:
            :func:`tokenize_texts` here.
        japanese_reader: ``(token lists)`` →
            :func:`~sialign.text.japanese.japanese_token_facts`'s result, for
            the Japanese side(s) (the app's runs in its scoring process too).
            Default: that function here.

    Returns:
        One :class:`sialign.core.word_links.BeadLinks` per pair.

    Raises:
        ModelLoadError: the built-in encoder cannot be loaded.
        LanguageToolUnavailable: Japanese text and GiNZA not installed.
        AlignmentCancelled: ``should_stop()`` returned True.
    """
    from sialign.core.word_links import BeadLinks

    if not pairs:
        return []
    tokenizer = tokenizer or tokenize_texts
    if progress is not None:
        progress(0.0, "Finding the words")
    src = tokenizer([s for s, _ in pairs], src_lang)
    check_stop(should_stop)
    tgt = tokenizer([t for _, t in pairs], tgt_lang)
    check_stop(should_stop)
    linker = linker or WordLinker()
    tokens = [([t for t, _, _ in s[0]], [t for t, _, _ in t[0]]) for s, t in zip(src, tgt)]
    if hasattr(linker, "link_with_paraphrase"):
        facts = None
        if getattr(getattr(linker, "params", None), "japanese", False) and japanese_reader is not None:
            read = [japanese_reader([pair[side] for pair in tokens]) if _lang(lang) == "ja" else [None] * len(tokens)
                    for side, lang in ((0, src_lang), (1, tgt_lang))]
            facts = list(zip(read[0], read[1]))
        drawn = linker.link_with_paraphrase(tokens, src_lang, tgt_lang, [s[1] for s in src], facts=facts,
                                            progress=progress, should_stop=should_stop)
    else:  # an aligner of links alone (a statistical one): every unlinked content word is "not found"
        drawn = [(row, []) for row in linker.link(tokens, src_lang, tgt_lang, progress=progress, should_stop=should_stop)]
    return [
        BeadLinks(tuple(s[0]), tuple(t[0]), tuple(sorted(row)), tuple(s[1]), tuple(para))
        for s, t, (row, para) in zip(src, tgt, drawn)
    ]
