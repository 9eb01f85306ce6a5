"""Keep a project's stored word links up to date (:mod:`sialign.core.word_links`).

Word links are a derived cache, not an edit: they are drawn from the beads'
texts, keyed by those texts, saved with the project so they need not be drawn
again, and never in the history or on the undo stack (undoing an edit brings
back texts whose links are still stored, or are drawn again). Only the beads
whose texts have no stored links are linked (:func:`stale_pairs`); the desktop
app does this in a worker thread after each change and stores the result with
:func:`store_links`, the command line before an export with ``--links`` or a
filter run with a rendered-share threshold (:func:`update_word_links`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sialign.core.model import Project
from sialign.core.progress import ProgressFn, StopFn
from sialign.core.word_links import BeadLinks, WordLinks, bead_link_key, link_texts


def stale_pairs(project: Project) -> dict[str, tuple[str, str]]:
    """The (source, target) texts of the beads with both sides and no stored links, by key."""
    out: dict[str, tuple[str, str]] = {}
    if project.alignment is None:
        return out
    stored = project.word_links.beads if project.word_links is not None else {}
    for bead in project.alignment.beads:
        if not bead.src or not bead.tgt:
            continue
        texts = link_texts(project, bead)
        key = bead_link_key(*texts)
        if key not in stored and key not in out and (texts[0].strip() and texts[1].strip()):
            out[key] = texts
    return out


def compute_links(
    project: Project, pairs: dict[str, tuple[str, str]], *, linker: Any = None, tokenizer: Any = None,
    japanese_reader: Any = None, progress: ProgressFn | None = None, should_stop: StopFn | None = None,
) -> dict[str, BeadLinks]:
    """Links of ``pairs`` (from :func:`stale_pairs`) in the project's languages; the project is not changed.

    ``tokenizer``, ``japanese_reader``: see :func:`sialign.links.link_bead_texts`.
    """
    from sialign.links import link_bead_texts

    keys = list(pairs)
    drawn = link_bead_texts([pairs[k] for k in keys], project.source.language, project.target.language, linker,
                            tokenizer=tokenizer, japanese_reader=japanese_reader, progress=progress,
                            should_stop=should_stop)
    return dict(zip(keys, drawn))


def merged_links(project: Project, new: dict[str, BeadLinks], aligner: str) -> WordLinks:
    """The project's stored links with ``new`` added and the entries no bead uses left out."""
    old = project.word_links.beads if project.word_links is not None and project.word_links.aligner == aligner else {}
    used = set()
    if project.alignment is not None:
        for bead in project.alignment.beads:
            if bead.src and bead.tgt:
                used.add(bead_link_key(*link_texts(project, bead)))
    beads = {k: v for k, v in {**old, **new}.items() if k in used}
    return WordLinks(aligner=aligner, beads=beads)


def update_word_links(
    project: Project, *, linker: Any = None, progress: ProgressFn | None = None, should_stop: StopFn | None = None
) -> int:
    """Link the beads that changed since the links were last drawn; the number of beads linked.

    Raises:
        ModelLoadError: the built-in encoder cannot be loaded.
        LanguageToolUnavailable: a Japanese side and GiNZA not installed.
    """
    aligner = linker_name(linker)
    if project.word_links is not None and project.word_links.aligner != aligner:
        project.word_links = None  # another aligner's links are all drawn again
    pairs = stale_pairs(project)
    new = compute_links(project, pairs, linker=linker, progress=progress, should_stop=should_stop) if pairs else {}
    store_links(project, new, aligner)
    return len(new)


def default_linker() -> Any:
    """The word aligner links are drawn with when none is given: the built-in multilingual encoder's."""
    from sialign import links

    return links.WordLinker()


def linker_name(linker: Any = None) -> str:
    """The name stored links carry for ``linker`` (None: the default aligner), to tell whose links they are."""
    from sialign import links

    return str((linker or links.WordLinker).name)


def scoring_tokenizer(should_stop: StopFn | None = None) -> Callable[[list[str], str], Any]:
    """A ``tokenizer`` for :func:`compute_links` that leaves a window's process light.

    Japanese words come from GiNZA in the application's scoring process
    (:func:`sialign.workflows.filtering.compute_scores` loads it there too),
    loaded once per session; other languages are split here.
    """

    def tokenize(texts: list[str], language: str) -> Any:
        from sialign.links import tokenize_texts, tokenize_texts_job

        if language.split("-")[0].lower() != "ja":
            return tokenize_texts(texts, language)
        from sialign.filters.remote import load_japanese, scoring_process

        process = scoring_process()
        process.call(load_japanese, should_stop=should_stop, terminate_on_cancel=False)
        return process.call(tokenize_texts_job, texts, language, should_stop=should_stop)

    return tokenize


def scoring_japanese_reader(should_stop: StopFn | None = None) -> Callable[[list[list[str]]], Any]:
    """A ``japanese_reader`` for :func:`compute_links` that reads Japanese tokens in the scoring process.

    The word links of Japanese beads use GiNZA's reading of each token
    (:func:`sialign.text.japanese.japanese_token_facts`); like
    :func:`scoring_tokenizer`, this keeps GiNZA out of the window's process.
    """

    def read(token_lists: list[list[str]]) -> Any:
        from sialign.filters.remote import load_japanese, scoring_process
        from sialign.links import japanese_token_facts_job

        process = scoring_process()
        process.call(load_japanese, should_stop=should_stop, terminate_on_cancel=False)
        return process.call(japanese_token_facts_job, token_lists, should_stop=should_stop)

    return read


@dataclass
class PairLinks:
    """Word links of pre-tokenised sentence pairs (:func:`link_pairs`).

    Attributes:
        text: one line of 0-based ``i-j`` links per pair (the Pharaoh format).
        pairs: how many pairs were linked.
        aligner: the name of the aligner that drew them.
    """

    text: str
    pairs: int
    aligner: str


def link_pairs(path: str, src_lang: str, tgt_lang: str, *, text: str | None = None, aligner: str = "auto",
               min_corpus: int = 100) -> PairLinks:
    """Link the ``source ||| target`` lines of ``path`` (or of ``text``, read as that file), tokens as given.

    Args:
        aligner: ``encoder`` (the built-in encoder's links), ``eflomal`` (those
            links as priors of eflomal trained on the pairs) or ``auto``
            (eflomal when installed and there are at least ``min_corpus`` pairs).

    Raises:
        InputError: a line is not a pair (the message names the file and line).
    """
    from sialign.links import EFLOMAL_NAME, WordLinker, eflomal_available, eflomal_links, format_pharaoh, read_pairs

    pairs = read_pairs(path, text)
    links = WordLinker().link(pairs, src_lang, tgt_lang)
    name = WordLinker.name
    if aligner == "eflomal" or (aligner == "auto" and eflomal_available() and len(pairs) >= min_corpus):
        links = eflomal_links(pairs, links, src_lang, tgt_lang)
        name = EFLOMAL_NAME
    return PairLinks("".join(format_pharaoh(row) + "\n" for row in links), len(pairs), str(name))


def store_links(project: Project, new: dict[str, BeadLinks], aligner: str) -> bool:
    """Add ``new`` links (from :func:`compute_links`) to the project's cache, dropping entries no bead uses.

    The one place a project's ``word_links`` is written. True when the stored links changed.
    """
    before = project.word_links
    if before is None and not new:
        return False
    after = merged_links(project, new, aligner)
    if after == before:
        return False
    project.word_links = after
    return True


__all__ = [
    "PairLinks",
    "compute_links",
    "default_linker",
    "link_pairs",
    "linker_name",
    "merged_links",
    "scoring_japanese_reader",
    "scoring_tokenizer",
    "stale_pairs",
    "store_links",
    "update_word_links",
]
