"""What every step of the word links shares: the link type, the parameters, the languages without spaces."""

from __future__ import annotations

from dataclasses import dataclass

Link = tuple[int, int]

# Scripts written without spaces: context windows join their tokens with no space.
UNSPACED = frozenset({"ja", "zh", "th"})


@dataclass(frozen=True)
class LinkParams:
    """How word links are drawn (tuned on the dev sets; see :mod:`sialign.links`).

    tests/benchmarks/cv_links.py chooses each number again on the other folds
    of the dev sets and scores the held-out fold (tests/benchmarks/RESULTS.md).

    Attributes:
        weights: weights of the word-alone, ±1 and ±2 context similarities.
        distortion: penalty per unit of relative position difference.
        anchor: bonus for identical numbers, Latin words and punctuation.
        temperature: softmax temperature of the two-way probability.
        threshold: least two-way probability of a link.
        paraphrase_slot: least context similarity of a paraphrase in the slot
            between the targets of the word's linked neighbours.
        paraphrase_any: least context similarity of a paraphrase anywhere in the bead.
        dictionary: bonus for a Japanese word and an English word it is glossed
            with in the Japanese-English dictionary (:mod:`sialign.text.edict`).
        japanese: use GiNZA's reading of Japanese tokens: names in romaji on the
            other side are anchors (bonus ``anchor``), the dictionary bonus, and
            auxiliaries and conjunctive particles take their word's links.
    """

    weights: tuple[float, float, float] = (0.6, 0.2, 0.2)
    distortion: float = 0.2
    anchor: float = 0.3
    temperature: float = 0.03
    threshold: float = 0.1
    paraphrase_slot: float = 0.4
    paraphrase_any: float = 0.6
    dictionary: float = 0.15
    japanese: bool = True


def base_language(language: str | None) -> str:
    """The language code without its region, lower case (``"pt_BR"`` → ``"pt"``; None → ``""``)."""
    return (language or "").replace("_", "-").split("-")[0].lower()
