"""How many content words a source sentence holds, to tell a short answer from a sentence.

The intra filter drops a bead whose interpretation holds no content word
("えー、あの"). A short answer, a negation or an interjection rendered whole
holds none either, and rightly so: "Bien sûr que non !" → "No !", "Of course
not." → "いいえ。". When the source sentence itself has at most one content
word, a rendition without one is still a rendition (:func:`is_short_answer`).

Content words of Latin-script text come from the word-list heuristic of
:mod:`sialign.text.english`, with the function words, negations and
interjections of a few more languages left out; Japanese sources are counted
by GiNZA's parts of speech (the caller passes the analysis).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sialign.text.english import latin_content_words

# Function words, negations, interjections and set phrases of short answers
# ("bien sûr", "por supuesto", "na klar"), lower case, per primary subtag.
# English is covered by sialign.text.english.STOPWORDS.
FUNCTION_WORDS: dict[str, frozenset[str]] = {
    "fr": frozenset(
        """ah ahh aha allez alors au aucun aucune aussi aux avec bah ben bien bon bonjour bonsoir bref car ce ceci cela
        celle celui ces cet cette chez comme comment dans de des donc du eh elle elles en encore et euh évidemment hein
        hé il ils je jamais la le les leur lui mais me merci moi mon ne ni non nous oh on ou où oui par pas peut-être
        plus pour pourquoi quand que quel quelle qui quoi sa sans se ses si sinon son sur sûr sûrement ta te tes toi
        ton tout toute toutes tous très tu un une vers voici voilà volontiers vous vraiment y d'accord c'est n'est""".split()
    ),
    "de": frozenset(
        """aber ach ach so also auch auf aus bei bitte da danke das dass dem den der des die doch du ein eine einem
        einen einer er es etwa gar genau gern gerne ich ihr im in ja jawohl je kein keine klar mal man mit na natürlich
        nein nicht nichts noch nun ob oder ohne schon selbstverständlich sicher sie so sondern um und uns von vor
        wann warum was weil wenn wer wie wir wo zu zum zur""".split()
    ),
    "es": frozenset(
        """a ah al algo así bien bueno claro como con cuando de del el ella ellos en entonces es esta este eso gracias
        ha hola la las le lo los mas más me mi muy nada ni no nos o oh para pero por porque pues que qué se si sí sin
        su supuesto también tan te tu tú un una vale y ya yo""".split()
    ),
    "it": frozenset(
        """a ah al allora anche bene beh certo che chi ci come con da del della di e è ecco eh gli grazie ha il in io
        la le lo ma mai mi molto ne no non o oh per perché più poi prego qui se sì si su tu un una va vabbè""".split()
    ),
}


# Hesitation sounds: a chunk of only these renders nothing, even of a short answer.
FILLERS = frozenset(
    """えー ええと えっと えーと えーっと あの あのー あのう その そのー まあ まー うーん うん んー ん
    um umm uh uhm er erm hmm mm ah euh heu ben bah äh ähm öh eh ehm mmm""".split()
)
_FILLER_JA = sorted((f for f in FILLERS if not f.isascii()), key=len, reverse=True)


def only_fillers(text: str) -> bool:
    """Whether ``text`` holds nothing but hesitation sounds and punctuation ("えー、あの", "euh…")."""
    import re
    import unicodedata

    rest = unicodedata.normalize("NFKC", text).casefold()
    for filler in _FILLER_JA:
        rest = rest.replace(filler, " ")
    words = [w for w in re.split(r"[\W_]+", rest) if w]
    return all(w in FILLERS for w in words)


def content_word_count(text: str, language: str, analysis: Any = None, content_pos: Sequence[str] = ()) -> int:
    """The number of content words of a source sentence.

    Args:
        text: the sentence.
        language: its language code.
        analysis: a :class:`sialign.text.japanese.Analysis` of ``text`` for
            Japanese (tokens with parts of speech); None for other languages.
        content_pos: the parts of speech that count with an ``analysis``.
    """
    if analysis is not None:
        return sum(1 for token in analysis.tokens if token.pos in content_pos)
    extra = FUNCTION_WORDS.get(language.split("-")[0].lower(), frozenset())
    return sum(1 for word in latin_content_words(text) if word.kind == "number" or word.text.lower() not in extra)


def is_short_answer(text: str, language: str, analysis: Any = None, content_pos: Sequence[str] = ()) -> bool:
    """Whether a source sentence has at most one content word (a short answer, a negation, an interjection)."""
    return content_word_count(text, language, analysis, content_pos) <= 1


def renders_short_answer(source: str, source_language: str, target: str,
                         analysis: Any = None, content_pos: Sequence[str] = ()) -> bool:
    """Whether ``target``, holding no content word, is still a rendition of ``source``.

    It is when the source is a short answer (:func:`is_short_answer`) and the
    target says something beyond hesitation sounds ("No !", "いいえ。"; not "えー、").
    """
    return is_short_answer(source, source_language, analysis, content_pos) and not only_fillers(target)


__all__ = ["FILLERS", "FUNCTION_WORDS", "content_word_count", "is_short_answer", "only_fillers", "renders_short_answer"]
