"""A stand-in word aligner for tests: links tokens that are spelt alike, and counts what it was asked."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from sialign.core.model import Alignment, Bead, Document, Project

# English source, French interpretation: words spelt alike link (the fake's rule).
SOURCE = ["The budget is 300 million euros.", "Paris and Berlin agree.", "Thank you."]
TARGET = ["Le budget est de 300 millions d'euros.", "Paris est d'accord.", "Merci."]


class SpellingLinker:
    """Links source token i to target token j when they are equal ignoring case."""

    name = "spelling-test"

    def __init__(self) -> None:
        self.pairs_linked: list[tuple[tuple[str, ...], tuple[str, ...]]] = []

    def link(self, pairs: Sequence[tuple[Sequence[str], Sequence[str]]], src_lang: Any, tgt_lang: Any,
             *, progress: Any = None, should_stop: Any = None) -> list[list[tuple[int, int]]]:
        out = []
        for src, tgt in pairs:
            self.pairs_linked.append((tuple(src), tuple(tgt)))
            out.append([(i, j) for i, s in enumerate(src) for j, t in enumerate(tgt) if s.lower() == t.lower()])
        return out


def use_as_default_linker(monkeypatch: Any, linker_class: type) -> None:
    """Make ``linker_class`` the word aligner drawn with when none is given.

    The class is looked up in the package :mod:`sialign.links` (by
    :mod:`sialign.workflows.word_links` and :mod:`sialign.review.bead_words`)
    and in the modules of the package that import it by name
    (:func:`sialign.links.link_bead_texts`'s): every loaded module bound to
    the built-in class is patched, so none keeps drawing with the real encoder.
    """
    import sialign.links

    real = sialign.links.WordLinker
    for name, module in list(sys.modules.items()):
        if name.startswith("sialign.") and getattr(module, "WordLinker", None) is real:
            monkeypatch.setattr(module, "WordLinker", linker_class)


def en_fr_project() -> Project:
    """Three 1-1 beads, English to French."""
    return Project(
        talk_id="budget",
        source=Document.from_texts(SOURCE, language="en"),
        target=Document.from_texts(TARGET, language="fr"),
        alignment=Alignment(beads=[Bead(src=(k,), tgt=(k,), cost=0.2) for k in range(3)]),
    )
