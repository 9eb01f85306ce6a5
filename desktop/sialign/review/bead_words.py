"""The words of a bead's two sides and the word links between them.

The term check (:mod:`sialign.review.terms`) and the tag projection
(:mod:`sialign.review.tags`) both read a bead as two running texts (the
segments joined as in exports, whitespace collapsed), their words with
character offsets and lemma keys, and the links of :mod:`sialign.links`
between the words. Links are drawn only for the beads asked for, so a
glossary with a few terms costs a few beads of encoding, not the talk.

The target side is what the interpreter said: every chunk of the bead,
post-edits ignored; a dropped bead has no target side (its pairing was
judged wrong, so its links would mean nothing).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sialign.core.model import BeadStatus, Document, Project
from sialign.core.progress import ProgressFn, StopFn, check_stop, stage
from sialign.text.lemmas import lemma_key

Link = tuple[int, int]


@dataclass(frozen=True)
class Word:
    """A word of a running text.

    Attributes:
        text: as written.
        start / end: character span in the running text.
        lemma: the key words are matched by (:func:`sialign.text.lemmas.lemma_key`).
    """

    text: str
    start: int
    end: int
    lemma: str


@dataclass(frozen=True)
class Piece:
    """Where one segment's text sits in a bead's running text."""

    seg_id: int
    start: int
    end: int


@dataclass
class BeadWords:
    """One bead read as words, with links.

    Attributes:
        index: 0-based bead index.
        src_text / tgt_text: the running texts.
        src_words / tgt_words: their words in order.
        links: 0-based (source word, target word) pairs.
        src_pieces / tgt_pieces: the segments inside each running text.
    """

    index: int
    src_text: str
    tgt_text: str
    src_words: list[Word]
    tgt_words: list[Word]
    links: list[Link] = field(default_factory=list)
    src_pieces: list[Piece] = field(default_factory=list)
    tgt_pieces: list[Piece] = field(default_factory=list)

    def targets_of(self, src_indices: Iterable[int]) -> list[int]:
        """Target word indices linked to any of ``src_indices``, in order."""
        wanted = set(src_indices)
        return sorted({j for i, j in self.links if i in wanted})

    def words_in(self, side: str, start: int, end: int) -> list[int]:
        """Indices of the words of ``side`` (``"src"``/``"tgt"``) that overlap the character span."""
        words = self.src_words if side == "src" else self.tgt_words
        return [k for k, w in enumerate(words) if w.start < end and w.end > start]


def running_text(doc: Document, ids: Sequence[int]) -> tuple[str, list[Piece]]:
    """The segments ``ids`` joined as in exports (whitespace inside a segment collapsed) and where each sits."""
    parts: list[str] = []
    pieces: list[Piece] = []
    at = 0
    for k, seg_id in enumerate(ids):
        if k:
            parts.append(doc.joiner)
            at += len(doc.joiner)
        text = " ".join(doc.get(seg_id).text.split())
        parts.append(text)
        pieces.append(Piece(seg_id, at, at + len(text)))
        at += len(text)
    return "".join(parts), pieces


def words_of(texts: Sequence[str], language: str | None) -> list[list[Word]]:
    """The words of each text, with lemma keys: GiNZA for Japanese (one batch), else :func:`sialign.links.tokenize`.

    Raises:
        LanguageToolUnavailable: Japanese text and GiNZA not installed.
    """
    lang = (language or "").split("-")[0].lower()
    if lang == "ja":
        from sialign.text.japanese import analyze_japanese

        return [
            [Word(t.text, t.start, t.end, lemma_key(t.text, lang, t.lemma)) for t in analysis.tokens if t.text.strip()]
            for analysis in analyze_japanese(list(texts))
        ]
    from sialign.links import tokenize

    return [[Word(tok, a, b, lemma_key(tok, lang)) for tok, a, b in tokenize(text, lang)] for text in texts]


def bead_words(
    project: Project,
    indices: Iterable[int] | None = None,
    *,
    linker: Any = None,
    with_links: bool = True,
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
) -> dict[int, BeadWords]:
    """Words and links of the beads ``indices`` (all when None).

    Args:
        project: an aligned project.
        linker: anything with ``link(pairs, src_lang, tgt_lang)`` as
            :class:`sialign.links.WordLinker` (the default, loaded here).
        with_links: False leaves ``links`` empty (words only, nothing encoded).

    Raises:
        AlignmentCancelled: ``should_stop()`` returned True.
        ModelLoadError / LanguageToolUnavailable: the encoder or GiNZA cannot be loaded.
    """
    alignment = project.alignment
    if alignment is None:
        return {}
    wanted = sorted(set(range(len(alignment.beads)) if indices is None else indices))
    src_runs = [running_text(project.source, alignment.beads[k].src) for k in wanted]
    tgt_runs = [
        running_text(project.target, () if alignment.beads[k].status is BeadStatus.DROPPED else alignment.beads[k].tgt)
        for k in wanted
    ]
    check_stop(should_stop)
    report = stage(progress, 0.0, 0.3)
    report(0.0, "Reading the words of the beads")
    src_words = words_of([t for t, _ in src_runs], project.source.language)
    tgt_words = words_of([t for t, _ in tgt_runs], project.target.language)
    out = {
        k: BeadWords(k, s_text, t_text, sw, tw, [], s_pieces, t_pieces)
        for k, (s_text, s_pieces), (t_text, t_pieces), sw, tw in zip(wanted, src_runs, tgt_runs, src_words, tgt_words)
    }
    check_stop(should_stop)
    if with_links and out:
        if linker is None:
            from sialign.links import WordLinker

            linker = WordLinker()
        keys = list(out)
        pairs = [([w.text for w in out[k].src_words], [w.text for w in out[k].tgt_words]) for k in keys]
        links = linker.link(pairs, project.source.language, project.target.language,
                            progress=stage(progress, 0.3, 1.0), should_stop=should_stop)
        for k, row in zip(keys, links):
            out[k].links = sorted(row)
    if progress is not None:
        progress(1.0, "Words and links ready")
    return out
