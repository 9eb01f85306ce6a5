"""Japanese kana spelled in Latin letters, for names written in romaji on the other side.

An English rendering of a Japanese text spells names and untranslated terms
in romaji (足利義満 → *Ashikaga Yoshimitsu*, 太政大臣 → *daijo daijin*), and
katakana loanwords come back as their English source (テレビ → *television*).
:func:`kana_to_romaji` spells a reading in modified Hepburn; :func:`romaji_key`
reduces romaji from either side to one form: long vowels written or not
(*daijō*, *daijou*, *daijo*), *m* or *n* before *b* / *p*, hyphens and
apostrophes, so that the two sides compare equal.
"""

from __future__ import annotations

import re
import unicodedata

_BASE = {
    "ア": "a", "イ": "i", "ウ": "u", "エ": "e", "オ": "o",
    "カ": "ka", "キ": "ki", "ク": "ku", "ケ": "ke", "コ": "ko",
    "ガ": "ga", "ギ": "gi", "グ": "gu", "ゲ": "ge", "ゴ": "go",
    "サ": "sa", "シ": "shi", "ス": "su", "セ": "se", "ソ": "so",
    "ザ": "za", "ジ": "ji", "ズ": "zu", "ゼ": "ze", "ゾ": "zo",
    "タ": "ta", "チ": "chi", "ツ": "tsu", "テ": "te", "ト": "to",
    "ダ": "da", "ヂ": "ji", "ヅ": "zu", "デ": "de", "ド": "do",
    "ナ": "na", "ニ": "ni", "ヌ": "nu", "ネ": "ne", "ノ": "no",
    "ハ": "ha", "ヒ": "hi", "フ": "fu", "ヘ": "he", "ホ": "ho",
    "バ": "ba", "ビ": "bi", "ブ": "bu", "ベ": "be", "ボ": "bo",
    "パ": "pa", "ピ": "pi", "プ": "pu", "ペ": "pe", "ポ": "po",
    "マ": "ma", "ミ": "mi", "ム": "mu", "メ": "me", "モ": "mo",
    "ヤ": "ya", "ユ": "yu", "ヨ": "yo",
    "ラ": "ra", "リ": "ri", "ル": "ru", "レ": "re", "ロ": "ro",
    "ワ": "wa", "ヰ": "i", "ヱ": "e", "ヲ": "o", "ン": "n", "ヴ": "vu",
    "ァ": "a", "ィ": "i", "ゥ": "u", "ェ": "e", "ォ": "o", "ヮ": "wa",
}
# Small ya / yu / yo (and the small vowels of loanwords) after a syllable ending in i, u, e or o.
_GLIDES = {"ャ": "ya", "ュ": "yu", "ョ": "yo"}
_SPECIAL = {
    "シャ": "sha", "シュ": "shu", "ショ": "sho", "ジャ": "ja", "ジュ": "ju", "ジョ": "jo",
    "チャ": "cha", "チュ": "chu", "チョ": "cho", "ヂャ": "ja", "ヂュ": "ju", "ヂョ": "jo",
    "シェ": "she", "ジェ": "je", "チェ": "che", "ティ": "ti", "ディ": "di", "トゥ": "tu", "ドゥ": "du",
    "ファ": "fa", "フィ": "fi", "フェ": "fe", "フォ": "fo", "ウィ": "wi", "ウェ": "we", "ウォ": "wo",
    "ヴァ": "va", "ヴィ": "vi", "ヴェ": "ve", "ヴォ": "vo", "ツァ": "tsa", "ツィ": "tsi", "ツェ": "tse", "ツォ": "tso",
}
_KEY_DROP = re.compile(r"[^a-z]")
_LONG = re.compile(r"(?<=[ou])[uo]|(?<=[aeiu])h(?![aeiouy])")


def to_katakana(text: str) -> str:
    """Hiragana turned into katakana; everything else as it was."""
    return "".join(chr(ord(ch) + 0x60) if "ぁ" <= ch <= "ゖ" else ch for ch in text)


def is_kana(text: str) -> bool:
    """Whether ``text`` is non-empty and all hiragana or katakana (the long-vowel mark included)."""
    return bool(text) and all("ぁ" <= ch <= "ゖ" or "ァ" <= ch <= "ヺ" or ch == "ー" for ch in text)


def kana_to_romaji(reading: str) -> str:
    """A kana reading in modified Hepburn: シャシン → ``shashin``, ガッコウ → ``gakkou``, コーヒー → ``koohii``.

    Characters that are not kana are left out.
    """
    kana = to_katakana(unicodedata.normalize("NFKC", reading))
    out: list[str] = []
    double = False
    k = 0
    while k < len(kana):
        pair, ch = kana[k : k + 2], kana[k]
        if pair in _SPECIAL:
            syllable, k = _SPECIAL[pair], k + 2
        elif k + 1 < len(kana) and kana[k + 1] in _GLIDES and ch in _BASE and _BASE[ch].endswith("i"):
            syllable, k = _BASE[ch][:-1] + _GLIDES[kana[k + 1]], k + 2
        elif ch == "ッ":
            double, k = True, k + 1
            continue
        elif ch == "ー":
            syllable, k = (out[-1][-1] if out and out[-1][-1] in "aeiou" else ""), k + 1
        elif ch in _BASE:
            syllable, k = _BASE[ch], k + 1
        elif ch in _GLIDES:
            syllable, k = _GLIDES[ch], k + 1
        else:
            k += 1
            continue
        if double and syllable and syllable[0] not in "aeiou":
            syllable = ("t" if syllable.startswith("ch") else syllable[0]) + syllable
        double = False
        out.append(syllable)
    return "".join(out)


def romaji_key(text: str) -> str:
    """Romaji reduced to what both sides of a translation agree on.

    Lower case, accents and everything but letters dropped, long vowels
    shortened (``ō``, ``ou``, ``oo``, ``uu``, ``oh`` → ``o`` / ``u``), ``m``
    before ``b`` / ``p`` read as ``n``: *Daijō-daijin*, ``daijoudaijin`` and
    ``daijodaijin`` all give ``daijodaijin``.
    """
    plain = unicodedata.normalize("NFKD", text.lower())
    letters = _KEY_DROP.sub("", "".join(ch for ch in plain if not unicodedata.combining(ch)))
    letters = re.sub(r"m(?=[bp])", "n", letters)
    return _LONG.sub("", letters)
