"""Lemma keys of words, for matching glossary terms however they are inflected.

English: no English spaCy model installs offline (``en_core_web_sm`` is not
on PyPI), so :func:`english_lemma` is a **rule-based** key: a table of
irregular forms, then the regular endings (plural ``-s``/``-es``/``-ies``,
``-ing``, ``-ed``, possessive ``'s``), with a final ``e`` and a doubled
consonant dropped so that *bake, bakes, baked, baking* all give ``bak`` and
*run, running* give ``run``. It is a matching key, not a dictionary form:
both sides of a comparison go through it. Japanese words get GiNZA's lemma
(:mod:`sialign.text.japanese`); other languages are matched in lower case.
"""

from __future__ import annotations

import re

# Said wherever matches are reported, so nobody mistakes the key for a tagger's lemma.
ENGLISH_LEMMA_METHOD = "rule-based English lemmas (plurals, -ing, -ed, irregular forms; no English tagger ships offline)"

_IRREGULAR = {
    "am": "be", "is": "be", "are": "be", "was": "be", "were": "be", "been": "be", "being": "be",
    "has": "have", "had": "have", "having": "have", "does": "do", "did": "do", "done": "do",
    "went": "go", "gone": "go", "goes": "go", "made": "make", "said": "say", "ate": "eat", "eaten": "eat",
    "gave": "give", "given": "give", "took": "take", "taken": "take", "came": "come", "got": "get",
    "gotten": "get", "knew": "know", "known": "know", "thought": "think", "told": "tell", "brought": "bring",
    "bought": "buy", "found": "find", "left": "leave", "felt": "feel", "kept": "keep", "began": "begin",
    "begun": "begin", "wrote": "write", "written": "write", "spoke": "speak", "spoken": "speak", "saw": "see",
    "seen": "see", "heard": "hear", "fed": "feed", "rose": "rise", "risen": "rise", "grew": "grow",
    "grown": "grow", "baked": "bake", "children": "child", "men": "man", "women": "woman", "people": "person",
    "mice": "mouse", "feet": "foot", "teeth": "tooth", "geese": "goose", "loaves": "loaf", "knives": "knife",
    "lives": "life", "wives": "wife", "leaves": "leaf", "halves": "half", "shelves": "shelf", "wolves": "wolf",
    "data": "datum", "criteria": "criterion", "phenomena": "phenomenon", "analyses": "analysis",
    "crises": "crisis", "theses": "thesis", "better": "good", "best": "good", "worse": "bad", "worst": "bad",
}
_VOWEL = re.compile(r"[aeiouy]")
_DOUBLED = re.compile(r"([b-df-hj-np-tv-z])\1$")


def _stem(word: str) -> str:
    """Drop a final silent ``e`` and undouble a final consonant (``bake`` → ``bak``, ``runn`` → ``run``)."""
    if len(word) > 3 and word.endswith("e") and not word.endswith(("ee", "ie", "ye", "oe")):
        word = word[:-1]
    m = _DOUBLED.search(word)
    if m and len(word) > 3 and not word.endswith(("ll", "ss", "ff", "zz")):
        word = word[:-1]
    return word


def english_lemma(word: str) -> str:
    """The rule-based lemma key of an English word (lower case; see the module docstring).

    >>> [english_lemma(w) for w in ("Starters", "baking", "baked", "bakes", "loaves", "running", "bread")]
    ['starter', 'bak', 'bak', 'bak', 'loaf', 'run', 'bread']
    """
    w = word.lower().replace("’", "'")
    if w.endswith("'s"):
        w = w[:-2]
    elif w.endswith("s'"):
        w = w[:-1]
    if w in _IRREGULAR:
        w = _IRREGULAR[w]
        return _stem(w) if w.endswith(("e",)) and len(w) > 3 else w
    if not w.isalpha():
        return w
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    if len(w) > 4 and w.endswith(("sses", "shes", "ches", "xes", "zes")):
        return w[:-2]
    if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is", "ous")):
        return _stem(w[:-1])
    for ending in ("ing", "ed"):
        stem = w[: -len(ending)]
        if w.endswith(ending) and len(stem) >= 3 and _VOWEL.search(stem):
            if ending == "ed" and stem.endswith("i"):
                return stem[:-1] + "y"
            return _stem(stem)
    return _stem(w)


def lemma_key(word: str, language: str | None, lemma: str | None = None) -> str:
    """What two words are compared by: the English rule-based key, a given lemma (GiNZA's), or lower case.

    Args:
        word: the word as written.
        language: its language code (``en``, ``ja``…).
        lemma: a lemma a tagger already gave (used for languages other than English).
    """
    lang = (language or "").split("-")[0].lower()
    if lang == "en":
        return english_lemma(word)
    return (lemma or word).lower()
