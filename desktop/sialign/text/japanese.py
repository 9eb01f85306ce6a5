"""Japanese analysis through GiNZA (spaCy + SudachiPy), loaded once per process.

GiNZA costs about 6 s and 1.8 GB to load, so :func:`ginza_nlp` loads it the
first time it is needed and every later call (from any thread) gets the same
pipeline. The named-entity recogniser is left out: nothing here uses it and
excluding it halves parsing time. spaCy pipelines are not documented as
thread-safe, so :func:`analyze_japanese` serialises parsing with a lock.

The Sudachi dictionary is SudachiDict core when it is installed (what GiNZA
asks for), otherwise small (the lean installer carries only small: 118 MB
against 207 MB) or full. ``SIALIGN_SUDACHI_DICT=small|core|full`` picks one
(for comparing them); :func:`sudachi_dictionary` says which is in use.
"""

from __future__ import annotations

import os
import threading
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.util import find_spec
from typing import Any

from sialign.core.errors import SialignError
from sialign.core.progress import ProgressFn, StopFn, check_stop

# SudachiPy refuses inputs above 49,149 bytes; a Japanese character takes
# 3 bytes in UTF-8, so texts are parsed in windows well under that.
MAX_PARSE_CHARS = 4000

_LOAD_LOCK = threading.Lock()
_PARSE_LOCK = threading.RLock()
_NLP: Any = None
SUDACHI_DICTIONARIES = ("core", "small", "full")
SUDACHI_ENV = "SIALIGN_SUDACHI_DICT"


class LanguageToolUnavailable(SialignError):
    """The Japanese analyser (GiNZA) is not installed or does not load."""


def sudachi_dictionary() -> str:
    """The Sudachi dictionary GiNZA loads: ``$SIALIGN_SUDACHI_DICT``, else core, small or full, the first installed.

    Raises:
        LanguageToolUnavailable: the variable names an unknown or uninstalled
            dictionary, or none is installed.
    """
    chosen = os.environ.get(SUDACHI_ENV, "").strip().lower()
    if chosen:
        if chosen not in SUDACHI_DICTIONARIES:
            raise LanguageToolUnavailable(
                f"{SUDACHI_ENV}={chosen!r} is not a Sudachi dictionary — use one of {', '.join(SUDACHI_DICTIONARIES)}"
            )
        if find_spec(f"sudachidict_{chosen}") is None:
            raise LanguageToolUnavailable(
                f"{SUDACHI_ENV}={chosen} but SudachiDict {chosen} is not installed — "
                f"install it with: pip install sudachidict_{chosen}, or unset {SUDACHI_ENV}"
            )
        return chosen
    for name in SUDACHI_DICTIONARIES:
        if find_spec(f"sudachidict_{name}") is not None:
            return name
    raise LanguageToolUnavailable(
        "Japanese text needs a Sudachi dictionary, and none is installed — install it with: pip install sudachidict_core"
    )


def _use_sudachi_dictionary(name: str) -> None:
    """Make spaCy's Japanese tokenizer open SudachiDict ``name`` (it always opens SudachiPy's default, core).

    spaCy builds its Sudachi tokenizer in ``spacy.lang.ja.try_sudachi_import``
    (when the pipeline is made and again when it is read from disk), with
    SudachiPy's default dictionary; for another dictionary that one function is
    replaced by one that names it. Nothing changes when core is the choice.
    """
    if name == "core":
        return
    import spacy.lang.ja as spacy_ja

    def sudachi_tokenizer(split_mode: str | None = "A") -> Any:
        from sudachipy import dictionary, tokenizer

        mode = {None: tokenizer.Tokenizer.SplitMode.A, "A": tokenizer.Tokenizer.SplitMode.A,
                "B": tokenizer.Tokenizer.SplitMode.B, "C": tokenizer.Tokenizer.SplitMode.C}[split_mode]
        return dictionary.Dictionary(dict=name).create(mode=mode)

    spacy_ja.try_sudachi_import = sudachi_tokenizer


def ginza_nlp() -> Any:
    """The shared GiNZA pipeline (``spacy.load("ja_ginza", exclude=["ner"])``).

    Raises:
        LanguageToolUnavailable: when spaCy, GiNZA or the ``ja_ginza`` model
            is missing or broken, with the command that installs them.
    """
    global _NLP
    if _NLP is not None:
        return _NLP
    with _LOAD_LOCK:
        if _NLP is None:
            try:
                import ginza  # noqa: F401  (registers GiNZA's pipeline components)
                import spacy
            except ImportError as exc:
                raise LanguageToolUnavailable(
                    f"Japanese text needs GiNZA, which is not installed ({exc}) — "
                    "install it with: pip install ginza ja_ginza"
                ) from exc
            _use_sudachi_dictionary(sudachi_dictionary())
            try:
                _NLP = spacy.load("ja_ginza", exclude=["ner"])
            except (OSError, ValueError, KeyError) as exc:
                raise LanguageToolUnavailable(
                    f"the GiNZA model 'ja_ginza' does not load ({exc}) — reinstall it with: pip install --force-reinstall ja_ginza"
                ) from exc
    return _NLP


def ginza_loaded() -> bool:
    """Whether :func:`ginza_nlp` has already loaded the pipeline in this process."""
    return _NLP is not None


@dataclass(frozen=True)
class Token:
    """One word as GiNZA sees it.

    Attributes:
        text: the surface form, exactly as in the input.
        lemma: dictionary form.
        pos: Universal Dependencies POS tag (``"NOUN"``, ``"VERB"``...), as
            corrected by :func:`effective_pos`.
        start: character offset of the word in the analysed text.
        end: offset just after it.
        tag: SudachiPy's own part of speech (``"名詞-普通名詞-一般"``).
        ud_pos: GiNZA's UD tag before correction.
    """

    text: str
    lemma: str
    pos: str
    start: int
    end: int
    tag: str = ""
    ud_pos: str = ""


# True adverbs (副詞) an interpreter says while thinking: the chunks they stand alone in are fillers.
FILLER_ADVERBS = frozenset({"まあ", "ま", "ちょっと", "なんか", "こう", "そう", "やっぱり", "やっぱ", "とりあえず", "ええと", "えっと"})


def is_content_adverb(token: Token) -> bool:
    """A true adverb (副詞) that carries meaning (だんだん, すぐ), not a hesitation (:data:`FILLER_ADVERBS`)."""
    return token.pos == "ADV" and token.tag.startswith("副詞") and token.lemma not in FILLER_ADVERBS \
        and token.text not in FILLER_ADVERBS


def effective_pos(ud_pos: str, tag: str) -> str:
    """GiNZA's UD tag, except for nouns it mis-tags ADJ or ADV.

    On a short chunk such as 送電網、 or ＴＥＤなんですけども、 GiNZA reads a
    noun before a copula (だ, な, です) as a na-adjective and tags it ADJ,
    while SudachiPy's dictionary says 名詞-普通名詞-一般 / 名詞-固有名詞. Those
    count as NOUN / PROPN; genuine na-adjectives (形状詞, 名詞-普通名詞-形状詞可能
    such as 簡単, 脆弱) stay ADJ.

    Nouns of time and quantity that can stand as adverbs (名詞-普通名詞-副詞可能:
    週末, 来年, 先週, 最近) are tagged ADV when they stand alone (週末、) but
    NOUN before a particle (昨日は、); they name something, so they count as
    NOUN either way. True adverbs (副詞: まあ, ちょっと) stay ADV.
    """
    if ud_pos == "ADV" and tag.startswith("名詞-普通名詞-副詞可能"):
        return "NOUN"
    if ud_pos == "ADJ":
        if tag.startswith("名詞-固有名詞"):
            return "PROPN"
        if tag.startswith("名詞-普通名詞-一般"):
            return "NOUN"
    return ud_pos


@dataclass(frozen=True)
class Analysis:
    """GiNZA's reading of one text: its words and where its bunsetsu begin.

    Attributes:
        text: the analysed text.
        tokens: words in order.
        bunsetsu_starts: character offsets where a bunsetsu (phrase unit)
            begins, in order, always starting with 0 for a non-empty text.
    """

    text: str
    tokens: tuple[Token, ...]
    bunsetsu_starts: tuple[int, ...]

    def has_pos(self, tags: Sequence[str] | frozenset[str]) -> bool:
        """Whether any word carries one of the POS ``tags`` (content ``tags``: an adverb of meaning counts too).

        Asked for content words (``NOUN`` among the tags), a true adverb that
        carries meaning (だんだん "gradually", すぐ, まだ) counts as one: only
        the hesitation adverbs of :data:`FILLER_ADVERBS` (まあ, ちょっと,
        なんか) are fillers an interpreter's chunk may be trimmed for.
        """
        wanted = set(tags)
        content = "NOUN" in wanted
        return any(t.pos in wanted or (content and is_content_adverb(t)) for t in self.tokens)


def _windows(text: str, size: int) -> list[tuple[int, int]]:
    """Cut ``text`` into pieces of at most ``size`` characters, preferring punctuation or spaces."""
    pieces = []
    start = 0
    while len(text) - start > size:
        cut = start + size
        for k in range(cut, start + size // 2, -1):
            ch = text[k - 1]
            if ch.isspace() or unicodedata.category(ch).startswith("P"):
                cut = k
                break
        pieces.append((start, cut))
        start = cut
    pieces.append((start, len(text)))
    return pieces


def japanese_words(text: str) -> list[tuple[str, int, int]]:
    """GiNZA's words of ``text`` with their character offsets, from its tokenizer alone.

    The pipeline's tokenizer (SudachiPy, split mode C) makes the words and
    the later components keep them (the compound splitter has no split mode
    in ``ja_ginza``), so these are the words of :func:`analyze_japanese`
    without the parse: about 0.3 ms a sentence instead of 12 ms.

    Returns:
        ``(word, start, end)`` in order, spaces left out.

    Raises:
        LanguageToolUnavailable: GiNZA cannot be loaded.
    """
    nlp = ginza_nlp()
    words: list[tuple[str, int, int]] = []
    with _PARSE_LOCK:
        for a, b in _windows(text, MAX_PARSE_CHARS):
            for t in nlp.tokenizer(text[a:b]):
                if t.text.strip():
                    words.append((t.text, a + t.idx, a + t.idx + len(t.text)))
    return words


def analyze_japanese(
    texts: Sequence[str],
    *,
    batch_size: int = 256,
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
) -> list[Analysis]:
    """Words, POS and bunsetsu of each text, parsed in batches with ``nlp.pipe``.

    Long texts are parsed in windows of :data:`MAX_PARSE_CHARS` characters
    (a window edge is then also a bunsetsu edge); offsets always refer to the
    original text.

    Raises:
        LanguageToolUnavailable: GiNZA cannot be loaded.
        AlignmentCancelled: ``should_stop()`` returned True between batches.
    """
    from ginza import bunsetu_spans

    nlp = ginza_nlp()
    pieces: list[tuple[int, int, int]] = []  # (text index, start, end)
    for i, text in enumerate(texts):
        for a, b in _windows(text, MAX_PARSE_CHARS):
            pieces.append((i, a, b))
    tokens: list[list[Token]] = [[] for _ in texts]
    starts: list[list[int]] = [[] for _ in texts]
    done = 0
    with _PARSE_LOCK:
        for batch_start in range(0, len(pieces), batch_size):
            check_stop(should_stop)
            batch = pieces[batch_start : batch_start + batch_size]
            docs = nlp.pipe([texts[i][a:b] for i, a, b in batch], batch_size=batch_size)
            for (i, a, _b), doc in zip(batch, docs):
                for t in doc:
                    if t.is_space:
                        continue
                    tokens[i].append(
                        Token(t.text, t.lemma_, effective_pos(t.pos_, t.tag_), a + t.idx, a + t.idx + len(t.text), t.tag_, t.pos_)
                    )
                for span in bunsetu_spans(doc):
                    starts[i].append(a + span.start_char)
            done += len(batch)
            if progress is not None:
                progress(done / max(1, len(pieces)), f"Analysing Japanese ({done}/{len(pieces)})")
    return [
        Analysis(text, tuple(tokens[i]), tuple(sorted(set(starts[i]) | ({0} if text else set()))))
        for i, text in enumerate(texts)
    ]


@dataclass(frozen=True)
class TokenFacts:
    """What GiNZA's tokenizer says about one token of a given tokenisation.

    Attributes:
        pos: UD part of speech of the GiNZA word the token starts in.
        lemma: that word's dictionary form.
        word_text: that word's surface form.
        reading: the token's reading in katakana ("" when unknown).
        word: index of that word in the text: tokens cut out of one GiNZA
            word (``あ`` ``る`` of ある) share it.
        english: English matching keys of the token, its word's lemma and its
            word in the Japanese-English dictionary (:mod:`sialign.text.edict`;
            empty without the dictionary).
    """

    pos: str
    lemma: str
    word_text: str
    reading: str
    word: int
    english: frozenset[str] = frozenset()


def japanese_token_facts(token_lists: Sequence[Sequence[str]]) -> list[list[TokenFacts]]:
    """Part of speech, lemma and reading of each token of texts tokenised by someone else.

    The tokens of a text are joined without spaces and read by GiNZA's
    tokenizer alone (no parse); each token gets the facts of the GiNZA word
    it starts in, and a reading of its own: the words it spans, itself when
    it is kana, else its own tokenisation's reading. For tokens that are
    GiNZA's words (the app's own tokenisation) this is simply each word.
    The dictionary is looked up here too, so that it is held, like GiNZA,
    in the process that reads Japanese (the app's scoring process).

    Raises:
        LanguageToolUnavailable: GiNZA cannot be loaded.
    """
    from sialign.text.edict import edict_available, english_keys
    from sialign.text.romaji import is_kana, to_katakana

    nlp = ginza_nlp()
    dictionary = edict_available()
    out: list[list[TokenFacts]] = []
    with _PARSE_LOCK:
        for tokens in token_lists:
            text = "".join(tokens)
            words: list[tuple[int, int, str, str, str, str]] = []
            for a, b in _windows(text, MAX_PARSE_CHARS):
                for t in nlp.tokenizer(text[a:b]):
                    reading = (t.morph.get("Reading") or [""])[0]
                    words.append((a + t.idx, a + t.idx + len(t.text), t.pos_, t.lemma_, t.text, reading))
            facts: list[TokenFacts] = []
            at, w = 0, 0
            for token in tokens:
                end = at + len(token)
                while w + 1 < len(words) and words[w][1] <= at:
                    w += 1
                inside = [x for x in words[w:] if x[0] >= at and x[1] <= end]
                if inside and inside[0][0] == at and inside[-1][1] == end:
                    reading = "".join(x[5] for x in inside)
                elif is_kana(token):
                    reading = to_katakana(token)
                else:
                    reading = "".join((t.morph.get("Reading") or [""])[0] for t in nlp.tokenizer(token))
                _, _, pos, lemma, surface, _ = words[w] if words else (0, 0, "X", token, token, "")
                english = english_keys(token) | english_keys(lemma) | english_keys(surface) if dictionary else frozenset()
                facts.append(TokenFacts(pos, lemma, surface, reading, w, english))
                at = end
            out.append(facts)
    return out
