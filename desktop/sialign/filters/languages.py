"""Which filters apply to which languages, in one table.

The filters find content words with GiNZA for Japanese and with a word-list
heuristic for Latin-script text (:mod:`sialign.text.english`). On any other
target — Chinese, Korean, Russian, Arabic... — they would find none and
trim or drop most beads for no reason, so there they are not applied, and
the filter panel and ``sialign filter`` say so.

=========  ============================  ==============================================
filter     target languages              why
=========  ============================  ==============================================
intra      Japanese, Latin script        content words by GiNZA / the word-list heuristic
alpha      Japanese, Latin script        content words of the reference or the source's
                                         numbers and names are looked for in the target
gamma      any (needs a reference)       length in characters or words
eta        any (needs a reference)       chrF or embedding cosine
=========  ============================  ==============================================

A language is read from the document's code; an unknown code (``und``)
counts as Latin script when most of the text's letters are Latin.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from sialign.core.model import Document, Project

JAPANESE = "ja"
LATIN = "latin"

# Languages usually written in the Latin script (primary subtags).
LATIN_LANGUAGES = frozenset(
    """af ca cs cy da de en eo es et eu fi fil fr ga gl hr hu id is it la lt lv ms mt nb nl nn no pl pt ro sk sl sq
    sv sw tl tr vi""".split()
)


@dataclass(frozen=True)
class FilterSupport:
    """Where one filter works.

    Attributes:
        name: the filter (``"intra"``, ``"alpha"``, ``"gamma"``, ``"eta"``).
        targets: the target kinds it is built for (``"ja"``, ``"latin"``);
            empty: any language.
        built_for: what the panel and the command line say when the
            target is not one of them.
    """

    name: str
    targets: frozenset[str]
    built_for: str

    def applies_to(self, target_kind: str) -> bool:
        return not self.targets or target_kind in self.targets


FILTER_SUPPORT: tuple[FilterSupport, ...] = (
    FilterSupport("intra", frozenset({JAPANESE, LATIN}), "built for Japanese targets (and Latin-script ones by a word list)"),
    FilterSupport("alpha", frozenset({JAPANESE, LATIN}), "built for Japanese targets (and Latin-script ones by a word list)"),
    FilterSupport("gamma", frozenset(), "any language"),
    FilterSupport("eta", frozenset(), "any language"),
)


def _mostly_latin(text: str) -> bool:
    letters = [ch for ch in text if ch.isalpha()]
    if not letters:
        return False
    latin = sum(1 for ch in letters if "LATIN" in unicodedata.name(ch, ""))
    return latin >= 0.8 * len(letters)


def language_kind(doc: Document) -> str:
    """``"ja"``, ``"latin"`` or the document's primary language code (``"zh"``, ``"ko"``...)."""
    code = (doc.language or "und").split("-")[0].lower()
    if code == JAPANESE:
        return JAPANESE
    if code in LATIN_LANGUAGES:
        return LATIN
    if code in ("", "und", "mul", "zxx"):
        sample = "".join(s.text for s in doc.segments[:200])
        return LATIN if _mostly_latin(sample) else code or "und"
    return code


def skipped_filters(project: Project) -> dict[str, str]:
    """Filters that do not apply to the project's target language: name → reason for the user.

    Example: ``{"intra": "built for Japanese targets (...); the target is zh"}``.
    """
    kind = language_kind(project.target)
    language = project.target.language or "und"
    return {
        s.name: f"{s.built_for}; the target is {language}"
        for s in FILTER_SUPPORT
        if not s.applies_to(kind)
    }


def skipped_note(skipped: dict[str, str]) -> str:
    """One line naming the filters not applied, grouped by reason: ``not applied: intra, alpha (built for...)``."""
    by_reason: dict[str, list[str]] = {}
    for name, reason in skipped.items():
        by_reason.setdefault(reason, []).append(name)
    return "not applied: " + "; ".join(f"{', '.join(names)} ({reason})" for reason, names in by_reason.items())


__all__ = ["FILTER_SUPPORT", "FilterSupport", "language_kind", "skipped_filters", "skipped_note"]
