"""Language codes the user gives: checked and brought to one spelling.

The multilingual encoder and the filters know languages by their ISO 639-1
two-letter code (``en``, ``ja``); a code they do not recognise makes the
application fall back silently to a weaker embedder. :func:`normalise_language`
turns what a user may type (``ENG``, ``english``, ``pt_BR``) into that code and
refuses what is not a language, so the mistake is reported where it was made.
"""

from __future__ import annotations

from pathlib import Path

from sialign.core.errors import UnknownLanguageError

# Every ISO 639-1 two-letter code (184, ``bh`` included).
ISO_639_1_CODES = frozenset(
    """
    aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy
    da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz
    ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo
    lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps
    pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn
    to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu
    """.split()
)

# ISO 639-2 (bibliographic and terminology) and 639-3 codes of common languages.
THREE_LETTER_CODES = {
    "eng": "en", "jpn": "ja", "fra": "fr", "fre": "fr", "deu": "de", "ger": "de", "spa": "es",
    "ita": "it", "por": "pt", "nld": "nl", "dut": "nl", "pol": "pl", "rus": "ru", "zho": "zh",
    "chi": "zh", "cmn": "zh", "kor": "ko", "ara": "ar", "tur": "tr", "ukr": "uk", "ces": "cs",
    "cze": "cs", "swe": "sv", "dan": "da", "fin": "fi", "ell": "el", "gre": "el", "heb": "he",
    "hin": "hi", "tha": "th", "vie": "vi", "ind": "id",
}

# English names of the languages users are most likely to type out.
LANGUAGE_NAMES = {
    "english": "en", "japanese": "ja", "french": "fr", "german": "de", "spanish": "es",
    "italian": "it", "portuguese": "pt", "dutch": "nl", "polish": "pl", "russian": "ru",
    "chinese": "zh", "korean": "ko", "arabic": "ar",
}

UNDETERMINED = "und"


def language_code(language: str | None) -> str:
    """The primary subtag of a language tag, lower case (``"zh-TW"`` → ``"zh"``)."""
    return (language or "").replace("_", "-").split("-")[0].strip().lower()


def _subtag(tag: str) -> str:
    """A region (``TW``, ``419``) or script (``Hant``) subtag in its usual case."""
    if len(tag) == 2 and tag.isalpha():
        return tag.upper()
    if len(tag) == 4 and tag.isalpha():
        return tag.title()
    return tag


def normalise_language(code: str) -> str:
    """The language ``code`` as a two-letter ISO 639-1 code, its region kept (``pt_BR`` → ``pt-BR``).

    Accepts two-letter codes in any case, the three-letter codes and English
    names of common languages (``eng``, ``english`` → ``en``) and ``und``.

    Raises:
        UnknownLanguageError: (an :class:`~sialign.core.errors.InputError`)
            ``code`` names no language this knows.
    """
    parts = code.strip().replace("_", "-").split("-")
    primary = parts[0].lower()
    rest = [p for p in parts[1:] if p]
    if primary in THREE_LETTER_CODES:
        primary = THREE_LETTER_CODES[primary]
    elif primary in LANGUAGE_NAMES:
        primary = LANGUAGE_NAMES[primary]
    elif primary != UNDETERMINED and primary not in ISO_639_1_CODES:
        raise UnknownLanguageError(code)
    if any(not p.isalnum() or len(p) > 8 for p in rest):
        raise UnknownLanguageError(code)
    return "-".join([primary, *(_subtag(p) for p in rest)])


def language_from_name(path: str | Path) -> str | None:
    """The language a file's name gives as its last inner suffix (``talk.ja.ogg`` → ``ja``), or None.

    Only a two-letter ISO 639-1 code counts (``talk.whisper.srt`` and ``talk.2024.wav`` give None): the
    common way to name the two sides of a talk, which the dialogs propose and check a choice against.
    """
    suffixes = Path(path).suffixes
    if len(suffixes) < 2:
        return None
    code = suffixes[-2].lstrip(".")
    return code.lower() if len(code) == 2 and code.lower() in ISO_639_1_CODES else None
