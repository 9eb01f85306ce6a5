"""Word links from the built-in multilingual encoder (:class:`WordLinker`; the method is told in :mod:`sialign.links`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from sialign.core.progress import ProgressFn, StopFn, check_stop
from sialign.embed.base import one_blas_thread
from sialign.links.candidates import context_texts, link_matrix, similarity_matrix
from sialign.links.japanese import FactsPair, attach_function_words, function_word_heads, japanese_facts, lexical_bonus
from sialign.links.params import UNSPACED, Link, LinkParams, base_language
from sialign.links.paraphrase import paraphrase_matches

# The name is stored with a project's links: links drawn by an older method
# (without paraphrases, without the Japanese lexicon) are drawn again when a project is opened.
ALIGNER_NAME = "use-multilingual-prob+paraphrase+ja-lexicon"
# Most words whose vectors a WordLinker keeps (2 kB each): a few talks' vocabulary.
WORD_CACHE = 20_000


class WordLinker:
    """Word links for pairs of token lists, with the built-in encoder.

    Args:
        encoder: anything with ``encode(texts) -> (n, dim) unit rows``; None:
            the built-in :class:`~sialign.embed.multilingual.MultilingualEncoder`.
        params: :class:`LinkParams`.

    Raises:
        ModelLoadError: the built-in encoder cannot be loaded.
    """

    name = ALIGNER_NAME

    def __init__(self, encoder: Any = None, params: LinkParams = LinkParams()) -> None:
        if encoder is None:
            from sialign.embed.multilingual import MultilingualEncoder

            encoder = MultilingualEncoder()
        self.encoder = encoder
        self.params = params
        # Vectors of words encoded alone, kept across calls: a bead linked on
        # demand finds most of its words (function words above all) here.
        self._words: dict[str, np.ndarray] = {}

    def link(
        self,
        pairs: Sequence[tuple[Sequence[str], Sequence[str]]],
        src_lang: str | None,
        tgt_lang: str | None,
        *,
        progress: ProgressFn | None = None,
        should_stop: StopFn | None = None,
    ) -> list[list[Link]]:
        """0-based (source, target) links of each pair of token lists.

        See :meth:`link_with_paraphrase`, which also gives the words rendered by paraphrase.
        """
        drawn = self.link_with_paraphrase(pairs, src_lang, tgt_lang, progress=progress, should_stop=should_stop)
        return [links for links, _ in drawn]

    def link_with_paraphrase(
        self,
        pairs: Sequence[tuple[Sequence[str], Sequence[str]]],
        src_lang: str | None,
        tgt_lang: str | None,
        content: Sequence[Iterable[int]] | None = None,
        *,
        facts: Sequence[FactsPair] | None = None,
        progress: ProgressFn | None = None,
        should_stop: StopFn | None = None,
    ) -> list[tuple[list[Link], list[int]]]:
        """Links of each pair of token lists, and its source words rendered by paraphrase.

        Args:
            content: per pair, the source content words to look for
                paraphrases of (:func:`paraphrase_matches`); None: none.
            facts: per pair, :func:`japanese_facts` of its sides, read
                elsewhere (the app reads them where GiNZA is loaded); None:
                read here when a side is Japanese.

        Every distinct word is encoded alone once (and kept for later calls);
        with an encoder that has ``encode_spans`` the context windows of all
        the words of a side come from one pass over that side, else every
        distinct window is encoded once as a text of its own.

        Raises:
            AlignmentCancelled: ``should_stop()`` returned True.
        """
        keep = [k for k, (s, t) in enumerate(pairs) if s and t]
        sides = [(list(pairs[k][0]), src_lang) for k in keep] + [(list(pairs[k][1]), tgt_lang) for k in keep]
        used = [k for k, weight in enumerate(self.params.weights) if weight]  # a view of weight 0 is not encoded
        check_stop(should_stop)

        def stage(low: float, high: float) -> ProgressFn:
            def report(fraction: float, message: str) -> None:
                if progress is not None:
                    progress(low + (high - low) * fraction, "Encoding words for links")

            return report

        views: list[list[np.ndarray | None]] = [[None, None, None] for _ in sides]
        if 0 in used:
            alone = self._alone([tokens for tokens, _ in sides], stage(0.0, 0.2), should_stop)
            for row, vectors in zip(views, alone):
                row[0] = vectors
        context = [k for k in used if k > 0]
        if context:
            encode = self._context_in_text if hasattr(self.encoder, "encode_spans") else self._context_texts
            for row, found in zip(views, encode(sides, context, stage(0.2, 0.95), should_stop)):
                for k, vectors in zip(context, found):
                    row[k] = vectors
        if not self.params.japanese:
            japanese = None
        elif facts is not None:
            japanese = [facts[k] for k in keep]
        else:
            japanese = japanese_facts([pairs[k] for k in keep], src_lang, tgt_lang)
        japanese = japanese or [(None, None)] * len(keep)
        out: list[tuple[list[Link], list[int]]] = [([], []) for _ in pairs]
        with one_blas_thread():  # products of a few dozen rows: threads would only wait for each other
            for n, k in enumerate(keep):
                if n % 200 == 0:
                    check_stop(should_stop)
                sim = similarity_matrix(views[n], views[n + len(keep)], self.params)
                src_facts, tgt_facts = japanese[n]
                bonus = lexical_bonus(pairs[k][0], pairs[k][1], src_lang, tgt_lang, src_facts, tgt_facts, self.params)
                links = link_matrix(sim, pairs[k][0], pairs[k][1], self.params, bonus)
                links = attach_function_words(links, function_word_heads(src_facts), function_word_heads(tgt_facts))
                para = (paraphrase_matches(views[n], views[n + len(keep)], links, content[k], self.params)
                        if content is not None else [])
                out[k] = (links, para)
        if progress is not None:
            progress(1.0, "Links drawn")
        return out

    def _alone(self, sides: list[list[str]], progress: ProgressFn, should_stop: StopFn | None) -> list[np.ndarray]:
        """Each side's words encoded alone: per side (n_words, dim), from the kept vectors where there."""
        new = list(dict.fromkeys(w for tokens in sides for w in tokens if w not in self._words))
        if new:
            vectors = self.encoder.encode(new, progress=progress, should_stop=should_stop)
            if len(self._words) + len(new) > WORD_CACHE:
                self._words.clear()
            self._words.update(zip(new, vectors))
        return [np.stack([self._words[w] for w in tokens]) for tokens in sides]

    def _context_in_text(
        self, sides: list[tuple[list[str], str | None]], context: list[int], progress: ProgressFn, should_stop: StopFn | None
    ) -> list[list[np.ndarray]]:
        """Per side, per view in ``context`` (1: ±1, 2: ±2), the windows' vectors read in the side's whole text."""
        unique: dict[tuple[str, tuple[str, ...]], int] = {}
        texts: list[str] = []
        spans: list[list[tuple[int, int]]] = []
        owner: list[int] = []
        for tokens, lang in sides:
            key = ("" if base_language(lang) in UNSPACED else " ", tuple(tokens))
            if key not in unique:
                unique[key] = len(texts)
                text, starts, ends = _joined(tokens, key[0])
                n = len(tokens)
                texts.append(text)
                spans.append(
                    [(starts[max(0, i - w)], ends[min(n - 1, i + w)]) for w in context for i in range(n)]
                )
            owner.append(unique[key])
        vectors = self.encoder.encode_spans(texts, spans, progress=progress, should_stop=should_stop)
        return [np.split(vectors[k], len(context)) for k in owner]

    def _context_texts(
        self, sides: list[tuple[list[str], str | None]], context: list[int], progress: ProgressFn, should_stop: StopFn | None
    ) -> list[list[np.ndarray]]:
        """The same as :meth:`_context_in_text`, each distinct window encoded as a text of its own."""
        windows = [context_texts(tokens, lang) for tokens, lang in sides]
        new = list(dict.fromkeys(t for views in windows for k in context for t in views[k] if t not in self._words))
        found = {**self._words, **dict(zip(new, self.encoder.encode(new, progress=progress, should_stop=should_stop)))}
        return [[np.stack([found[t] for t in views[k]]) for k in context] for views in windows]


def _joined(tokens: Sequence[str], joiner: str) -> tuple[str, list[int], list[int]]:
    """The tokens joined into one text, with each token's start and end offsets in it."""
    starts, ends, at = [], [], 0
    for token in tokens:
        starts.append(at)
        at += len(token)
        ends.append(at)
        at += len(joiner)
    return joiner.join(tokens), starts, ends
