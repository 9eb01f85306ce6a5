"""Counts in words: one place for the plural of every noun the application counts.

``count_noun(1, "bead")`` is ``"1 bead"``, ``count_noun(3, "bead")`` is
``"3 beads"``. Irregular plurals and possessives are listed once in
:data:`IRREGULAR`, so the command line, the reports and the desktop app say
"1 omission" and "2 omissions" the same way.
"""

from __future__ import annotations

# Nouns whose plural is not the singular plus "s".
IRREGULAR: dict[str, str] = {
    "analysis": "analyses",
    "child": "children",
    "match": "matches",
    "person": "people",
    "process": "processes",
    "speech": "speeches",
    "was": "were",
    "is": "are",
    "has": "have",
}


def plural(noun: str, n: int | float = 2) -> str:
    """``noun`` as it reads after the number ``n`` (singular for exactly 1).

    A phrase pluralises its last word: ``plural("source segment")`` is
    ``"source segments"``.
    """
    if n == 1:
        return noun
    head, _, last = noun.rpartition(" ")
    if last in IRREGULAR:
        word = IRREGULAR[last]
    elif last.endswith(("s", "x", "z", "ch", "sh")):
        word = last + "es"
    elif last.endswith("y") and len(last) > 1 and last[-2] not in "aeiou":
        word = last[:-1] + "ies"
    else:
        word = last + "s"
    return f"{head} {word}" if head else word


def count_noun(n: int | float, noun: str, plural_form: str | None = None) -> str:
    """``"1 bead"``, ``"2 beads"``, ``"0 omissions"``: the count and the noun in its right number.

    Args:
        n: the count (a float that is a whole number is written without ``.0``).
        noun: the singular (``"bead"``, ``"source segment"``).
        plural_form: the plural when the rules of :func:`plural` do not make it.
    """
    word = noun if n == 1 else (plural_form or plural(noun, n))
    number = str(int(n)) if isinstance(n, float) and n.is_integer() else str(n)
    return f"{number} {word}"


def possessive(n: int, noun: str) -> str:
    """``"1 bead's"``, ``"2 beads'"``: the counted noun as an owner."""
    text = count_noun(n, noun)
    return text + ("'" if text.endswith("s") and n != 1 else "'s")


__all__ = ["IRREGULAR", "count_noun", "plural", "possessive"]
