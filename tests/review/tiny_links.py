"""A hand-made aligned project and a stand-in word aligner, for the term check and the tag projection."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sialign.core.model import Alignment, Bead, Document, Project


class PairLinker:
    """Links every source word to every target word of a listed (source, target) word pair (lower case)."""

    name = "stand-in"

    def __init__(self, pairs: set[tuple[str, str]]) -> None:
        self.pairs = pairs
        self.calls: list[int] = []

    def link(self, pairs: Sequence[tuple[Sequence[str], Sequence[str]]], src_lang: Any, tgt_lang: Any, **_: Any) -> list[list[tuple[int, int]]]:
        self.calls.append(len(pairs))
        return [
            [(i, j) for i, s in enumerate(src) for j, t in enumerate(tgt) if (s.lower(), t.lower()) in self.pairs]
            for src, tgt in pairs
        ]


def tiny_project(src: list[str], tgt: list[str], beads: list[tuple[tuple[int, ...], tuple[int, ...]]],
                 src_lang: str = "en", tgt_lang: str = "es") -> Project:
    """A project whose segments are timed one second each, aligned as ``beads`` (segment ids)."""
    return Project(
        source=Document.from_texts(src, src_lang, [(float(k), k + 0.9) for k in range(len(src))]),
        target=Document.from_texts(tgt, tgt_lang, [(k + 0.5, k + 1.4) for k in range(len(tgt))]),
        alignment=Alignment(beads=[Bead(src=s, tgt=t) for s, t in beads]),
    )
