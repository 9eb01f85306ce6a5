"""Numbers written as digits, kanji or English words, reduced to one canonical form.

Interpreters say 千九百五十年代 where the speaker said "the 1950s", and
七十五パーセント for "75 percent": to tell whether a number was rendered,
both sides are reduced to the same value (``"1950"``, ``"75"``).
"""

from __future__ import annotations

import re
import unicodedata

_KANJI_DIGITS = {"〇": 0, "零": 0, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_KANJI_SMALL_UNITS = {"十": 10, "百": 100, "千": 1000}
_KANJI_BIG_UNITS = {"万": 10**4, "億": 10**8, "兆": 10**12}
_KANJI_RUN = re.compile(r"[〇零一二三四五六七八九十百千万億兆0-9][〇零一二三四五六七八九十百千万億兆点0-9]*")
_ARABIC = re.compile(r"(?<![A-Za-z0-9.,])(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?:\s*(hundred|thousand|million|billion|trillion)\b)?", re.I)
_WORD_VALUES = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
    "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
}
_SCALES = {"hundred": 100, "thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12}
_WORD_RUN = re.compile(
    r"\b(?:(?:" + "|".join(list(_WORD_VALUES) + list(_SCALES)) + r")(?:[\s-]+(?:and\s+)?)?)+\b", re.I
)


def canonical(value: float) -> str:
    """``1950.0`` → ``"1950"``, ``1.5`` → ``"1.5"``."""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.6g}"


def kanji_number(run: str) -> float | None:
    """Value of a kanji (or mixed) numeral: 千九百五十 → 1950, 一点五兆 → 1.5e12, 二〇一七 → 2017."""
    total = 0.0
    section = 0.0
    current: float | None = None
    decimals = 0
    for ch in run:
        if ch.isdigit() or ch in _KANJI_DIGITS:
            d = int(ch) if ch.isdigit() else _KANJI_DIGITS[ch]
            if decimals:
                current = (current or 0.0) + d / 10**decimals
                decimals += 1
            else:
                current = (current or 0.0) * 10 + d
        elif ch == "点":
            if decimals or current is None:
                return None
            decimals = 1
        elif ch in _KANJI_SMALL_UNITS:
            section += (current if current is not None else 1) * _KANJI_SMALL_UNITS[ch]
            current = None
            decimals = 0
        elif ch in _KANJI_BIG_UNITS:
            amount = section + (current or 0.0)
            total += (amount if amount else 1) * _KANJI_BIG_UNITS[ch]
            section = 0.0
            current = None
            decimals = 0
    value = total + section + (current or 0.0)
    return value


def _english_words_value(run: str) -> float | None:
    words = re.findall(r"[a-z]+", run.lower())
    if words == ["one"]:
        return None  # "one of the things", "the one who": a pronoun far more often than a number
    total = 0
    current = 0
    seen = False
    for word in words:
        if word in _WORD_VALUES:
            current += _WORD_VALUES[word]
            seen = True
        elif word == "hundred":
            current = (current or 1) * 100
            seen = True
        elif word in _SCALES:
            total += (current or 1) * _SCALES[word]
            current = 0
            seen = True
    return float(total + current) if seen else None


def extract_numbers(text: str) -> list[str]:
    """Canonical values of the numbers in ``text``, in order of appearance.

    Reads ASCII and full-width digits (``1,000``, ``3.5``, ``１９５０``), digits
    with an English scale word (``1.5 trillion``), English number words
    (``twenty-two``) and kanji numerals (``六億二千万``).
    """
    norm = unicodedata.normalize("NFKC", text)
    found: list[tuple[int, str]] = []
    taken: list[tuple[int, int]] = []
    # Kanji runs first: they may start with digits (300万, 1.5兆).
    for m in _KANJI_RUN.finditer(norm):
        if not any(c in _KANJI_DIGITS or c in _KANJI_SMALL_UNITS or c in _KANJI_BIG_UNITS for c in m.group(0)):
            continue  # plain digits are read below, with separators and scale words
        value = kanji_number(m.group(0).replace(",", ""))
        if value is not None:
            found.append((m.start(), canonical(value)))
            taken.append((m.start(), m.end()))
    for m in _ARABIC.finditer(norm):
        if any(a <= m.start() < b for a, b in taken):
            continue
        whole = float(m.group(1).replace(",", ""))
        if m.group(2):
            whole += float("0." + m.group(2))
        if m.group(3):
            whole *= _SCALES[m.group(3).lower()]
        found.append((m.start(), canonical(whole)))
        taken.append((m.start(), m.end()))
    for m in _WORD_RUN.finditer(norm):
        if any(a <= m.start() < b for a, b in taken):
            continue
        value = _english_words_value(m.group(0))
        if value is not None:
            found.append((m.start(), canonical(value)))
    return [v for _, v in sorted(found)]


def number_spans(text: str) -> list[tuple[int, int, str]]:
    """Where the numbers of ``text`` are, with their canonical values: ``(start, end, value)`` in order.

    The same readings as :func:`extract_numbers` (digits with separators and
    scale words, English number words, kanji numerals), on ``text`` as given
    (offsets index it; full-width digits count as digits).
    """
    found: list[tuple[int, int, str]] = []

    def free(a: int, b: int) -> bool:
        return all(b <= s or a >= e for s, e, _ in found)

    for m in _KANJI_RUN.finditer(text):
        if any(c in _KANJI_DIGITS or c in _KANJI_SMALL_UNITS or c in _KANJI_BIG_UNITS for c in m.group(0)):
            value = kanji_number(unicodedata.normalize("NFKC", m.group(0)).replace(",", ""))
            if value is not None:
                found.append((m.start(), m.end(), canonical(value)))
    for m in _ARABIC.finditer(text):
        if not free(m.start(), m.end()):
            continue
        whole = float(unicodedata.normalize("NFKC", m.group(1)).replace(",", ""))
        if m.group(2):
            whole += float("0." + unicodedata.normalize("NFKC", m.group(2)))
        if m.group(3):
            whole *= _SCALES[m.group(3).lower()]
        found.append((m.start(), m.end(), canonical(whole)))
    for m in _WORD_RUN.finditer(text):
        end = m.start() + len(re.sub(r"(?:[\s-]+and)?[\s-]*$", "", m.group(0), flags=re.I))
        if not free(m.start(), end):
            continue
        value = _english_words_value(m.group(0))
        if value is not None:
            found.append((m.start(), end, canonical(value)))
    return sorted(found)
