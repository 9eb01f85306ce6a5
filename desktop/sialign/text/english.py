"""Content words of Latin-script text without a tagger.

No English spaCy model can be installed offline (``en_core_web_sm`` is not on
PyPI), so the inter-sentence filters find English content words with a
transparent heuristic instead of POS tags: numbers (digits and number words),
names (capitalised words that are not sentence openers) and every other word
of three or more letters that is not on a list of function words, auxiliaries
and discourse fillers. It over-counts verbs and adjectives compared with the
paper's NOUN/PROPN/NUM — the filter reasons say "content words (heuristic)".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sialign.text.numbers import extract_numbers

STOPWORDS = frozenset(
    """a about above after again against all almost also although always am among an and another any anybody anyone
    anything anyway are aren around as at away back be because been before being below beside besides between both
    but by can cannot could couldn did didn do does doesn doing don done down during each either else enough even
    ever every everybody everyone everything few for from further get gets getting go goes going gone got gotta had
    hadn has hasn have haven having he her here hers herself him himself his how however i if in into is isn it its
    itself just kind least less let lets like likely lot lots made make makes making many may maybe me might mine
    more most much must my myself neither never no nobody none nor not nothing now of off often oh ok okay on once
    one only onto or other others otherwise our ours ourselves out over own perhaps please quite rather really right
    said same say says see seem seems shall she should shouldn since so some somebody someone something sometimes
    somewhat still such sure than that thats the their theirs them themselves then there therefore these they thing
    things this those though through thus to together too toward towards um uh under until up upon us use used very
    via was wasn way we well were weren what whatever when where whether which while who whom whose why will with
    within without won would wouldn yeah yes yet you your yours yourself yourselves actually basically just sort
    know think mean want wanted gonna wanna going came come comes take took takes give gave put let's i'm you're
    we're they're it's that's there's here's don't doesn't didn't can't won't isn't aren't wasn't i've we've you've
    they've i'd you'd we'd they'd i'll you'll we'll they'll he's she's what's""".split()
)
_WORD = re.compile(r"[A-Za-zÀ-ÖØ-öø-ÿ][A-Za-zÀ-ÖØ-öø-ÿ'’\-]*")
_SENTENCE_START = re.compile(r"(?:^|[.?!]\s+|[\"“(]\s*)$")


@dataclass(frozen=True)
class ContentWord:
    """A word the filters expect to see rendered.

    Attributes:
        text: the word as written (numbers in canonical form, see :mod:`sialign.text.numbers`).
        kind: ``"number"``, ``"name"`` or ``"word"``.
    """

    text: str
    kind: str


def latin_content_words(text: str) -> list[ContentWord]:
    """Numbers, names and other content words of ``text`` (heuristic; see the module doc)."""
    words = [ContentWord(n, "number") for n in extract_numbers(text)]
    seen = set()
    for m in _WORD.finditer(text):
        word = m.group(0).strip("'’-")
        low = word.lower().replace("’", "'")
        if low in STOPWORDS or low in seen or len(low) < 3 or re.fullmatch(r"(?:zero|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion|trillion)", low):
            continue
        seen.add(low)
        at_start = bool(_SENTENCE_START.search(text[: m.start()]))
        kind = "name" if word[:1].isupper() and not at_start else "word"
        words.append(ContentWord(word, kind))
    return words


def latin_has_content(text: str) -> bool:
    """Whether a Latin-script chunk holds any content word (the intra filter's test for English targets)."""
    return bool(latin_content_words(text))
