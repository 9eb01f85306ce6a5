"""Whether transcripts read as transcribed speech: hesitation sounds ("ehm", "euh", "äh", "えーと").

A transcript of a speech or of its interpretation keeps the speaker's
hesitations; a written text, a book or its translation, has none. The
sounds counted are those that are no word in any language the app aligns
("um" is German for "around", "er" for "he", "その" Japanese for "that"),
plus English "um" and "er" in English text. Used by
:func:`sialign.align.pipeline.text_kind_evidence` to take a talk in
sentences with hesitations for an interpretation.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from sialign.core.documents import UNSPACED_LANGUAGES
from sialign.core.languages import language_code

# Hesitation sounds that are no word of the languages aligned, lower case.
HESITATIONS = frozenset("ehm ehmm erm uhm umm uh euh heu äh ähm öh öhm hmm mmm ehh yyy eee".split())
# ... and those that are hesitations in one language only (a word in another).
HESITATIONS_BY_LANGUAGE = {"en": frozenset({"um", "er"})}
# Japanese hesitations, found as substrings (the script has no spaces).
HESITATIONS_JA = ("えーっと", "えーと", "ええと", "えっと", "えー", "あのー", "あのう", "うーん")
# Waves written for the long vowel mark ("え～と", which NFKC makes "え~と"): read as "ー".
_LONG_VOWEL = str.maketrans({"~": "ー", "〜": "ー"})
# A transcript reads as speech with at least this many hesitations, and at least one per this many words.
SPEECH_MIN_HESITATIONS = 2
SPEECH_WORDS_PER_HESITATION = 1000


_WORD = re.compile(r"[^\W_]+")
# What may stand before a sentence's first word, and what ends the sentence before it.
_OPENING = " \t\n\"'“‘«„(¿¡-–—"
_SENTENCE_ENDS = (".", "!", "?", "…", ":")
_SPACE = re.compile(r"\s+")


def hesitations(texts: Iterable[str], language: str | None) -> tuple[int, int]:
    """(hesitation sounds, words) in ``texts`` of ``language`` (a BCP 47 tag).

    A language written without spaces (Japanese, Chinese, Thai…) counts one
    word per two characters. Read one text at a time: a long book holds no
    more than one segment's words at once.
    """
    primary = language_code(language)
    sounds = HESITATIONS | HESITATIONS_BY_LANGUAGE.get(primary, frozenset())
    found = words = 0
    for raw in texts:
        cased = unicodedata.normalize("NFKC", raw)
        if primary in UNSPACED_LANGUAGES:
            text = cased.casefold()
            if primary == "ja":
                text = text.translate(_LONG_VOWEL)
                for sound in HESITATIONS_JA:
                    found += text.count(sound)
                    text = text.replace(sound, " ")
            # Latin-script hesitations in the text ("ehm") count too.
            found += sum(match.group() in sounds for match in _WORD.finditer(text) if match.group().isascii())
            words += len(_SPACE.sub("", text)) // 2
            continue
        for match in _WORD.finditer(cased):
            words += 1
            found += match.group().casefold() in sounds and not _name_part(cased, match)
    return found, max(words, found)


def _name_part(text: str, match: re.Match[str]) -> bool:
    """Whether a word is part of a name or a compound: joined by a hyphen to the word before ("Gou-er"), or
    capitalised (not all capitals) where no sentence starts ("Shan Men Er"; "Er, I think" is a hesitation)."""
    word, start = match.group(), match.start()
    if start >= 2 and text[start - 1] in "-\u2010\u2011" and text[start - 2].isalpha():
        return True
    if not word[:1].isupper() or word.isupper():
        return False
    before = text[:start].rstrip(_OPENING)
    return bool(before) and not before.endswith(_SENTENCE_ENDS)


def reads_as_speech(*sides: tuple[Iterable[str], str]) -> bool:
    """Whether transcripts (each ``(texts, language)``) together hold hesitations as transcribed speech does:
    at least ``SPEECH_MIN_HESITATIONS``, and one per ``SPEECH_WORDS_PER_HESITATION`` words or more."""
    found = words = 0
    for texts, language in sides:
        f, w = hesitations(texts, language)
        found, words = found + f, words + w
    return found >= SPEECH_MIN_HESITATIONS and found * SPEECH_WORDS_PER_HESITATION >= words


__all__ = ["HESITATIONS", "hesitations", "reads_as_speech"]
