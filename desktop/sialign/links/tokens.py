"""The words of a bead's running texts, and which of them are content words (the rendered share counts those)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from sialign.core.progress import ProgressFn, StopFn, check_stop
from sialign.links.params import UNSPACED, base_language

_WORD = re.compile(r"[A-Za-z0-9]+(?:['’.-][A-Za-z0-9]+)*|[^\W\d_A-Za-z]|\d+|[^\w\s]", re.UNICODE)
_LATIN_WORD = re.compile(r"\w+(?:['’-]\w+)*|[^\w\s]", re.UNICODE)


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
    lang = base_language(language)
    if lang == "ja":
        from sialign.text.japanese import japanese_words

        return japanese_words(text)
    pattern = _WORD if lang in UNSPACED else _LATIN_WORD
    return [(m.group(), m.start(), m.end()) for m in pattern.finditer(text)]


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
    lang = base_language(language)
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
    lang = base_language(language)
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
