"""Which Latin-script language a text is in, from its most frequent function words.

Each language has a short list of very frequent words (articles, pronouns,
conjunctions, prepositions, auxiliaries). A text's words are counted against
the lists; a word that is on more than one list (``de``, ``la``, ``e``) says
nothing and is left out. Dependency-free and quick: the first
:data:`MAX_WORDS` words are enough.
"""

from __future__ import annotations

import re
from collections import Counter

# Words are counted up to this many; enough for a reliable guess and quick on long talks.
MAX_WORDS = 20_000
# The best language needs at least this many hits...
MIN_HITS = 3
# ...and this many times the hits of the runner-up.
MIN_RATIO = 1.5

# A few words are put on two lists on purpose, so they count for neither: "des"
# (French and German), "del" (Spanish, Italian), "e" (Italian, Portuguese),
# "is" and "was" (English, Dutch), "to" (English, Polish). Words that another
# language writes often are left off ("à" and "um" from Portuguese, "all" and
# "also" from English, "dit" from Dutch). Checked on the EPTIC and Text+Berg dev data.
FUNCTION_WORDS: dict[str, str] = {
    "en": """the and of to is that it was for with this be are have not but they you we which from by at
             would there their what been has were or he she our these can should very about will who""",
    "fr": """le les et des est une du qui dans pour pas sur au avec ce cette sont nous vous ils elle mais
             ou aux ont été être très plus leur je ces comme aussi notre cela""",
    "de": """der die das und ist nicht ein eine zu den dem mit sich auf für von im auch wir ich sie wird
             werden sind dass daß noch wie aber oder bei nach aus einer haben hat nur diese über sehr uns des""",
    "es": """el los las y pero sus ya también muy hay fue cuando porque estos puede han más nuestro
             nuestra esto eso hemos señor señora usted ustedes sido tiene ello del""",
    "it": """di che è per non sono della delle dei degli nel nella alla anche questo questa ci ma più
             hanno essere gli dal loro molto stato tutti nostro questi quello sia perché abbiamo siamo del e""",
    "pt": """os dos não em uma mais foi ao muito são pelo pela é isso também tem já seu sua esse
             essa ele ela nós nossa nosso pode estão foram seus suas e""",
    "nl": """het een van dat niet op zijn voor met ook maar aan bij nog wordt worden deze hij wij naar uit
             heeft hebben geen wel wat zich moet hun onze veel omdat kunnen zal is was""",
    "pl": """w z się nie że jest jak ale po co tak za od tym są dla jego przez jako ich już może czy tylko
             tego który która które oraz bardzo także również być został jednak ten gdy bo jeśli to""",
}

_LISTS = {lang: set(words.split()) for lang, words in FUNCTION_WORDS.items()}
_SEEN = Counter(word for words in _LISTS.values() for word in words)
# Each telling word with its language; words on several lists are left out.
WORD_LANGUAGE: dict[str, str] = {word: lang for lang, words in _LISTS.items() for word in words if _SEEN[word] == 1}

_WORD = re.compile(r"[^\W\d_]+")

# Letters Ukrainian writes and Russian does not.
UKRAINIAN_LETTERS = frozenset("іїєґІЇЄҐ")


def guess_from_words(texts: list[str]) -> str | None:
    """The language whose function words the texts use most, or None when no language clearly leads.

    A language must have at least :data:`MIN_HITS` words and :data:`MIN_RATIO`
    times the runner-up's.
    """
    hits: Counter[str] = Counter()
    seen = 0
    # Word by word, never a lowered copy or a word list of a whole text: one
    # line can be a whole 10 MB transcript.
    for text in texts:
        for match in _WORD.finditer(text):
            lang = WORD_LANGUAGE.get(match.group().lower())
            if lang is not None:
                hits[lang] += 1
            seen += 1
            if seen >= MAX_WORDS:
                break
        if seen >= MAX_WORDS:
            break
    ranked = hits.most_common(2)
    if not ranked:
        return None
    best, count = ranked[0]
    runner_up = ranked[1][1] if len(ranked) > 1 else 0
    if count >= MIN_HITS and count >= MIN_RATIO * runner_up:
        return best
    return None


def cyrillic_language(ukrainian_letters: int, cyrillic_letters: int) -> str:
    """``"uk"`` when Ukrainian's own letters (і ї є ґ) are more than a trace, else ``"ru"``."""
    return "uk" if ukrainian_letters >= max(1, cyrillic_letters // 200) else "ru"
