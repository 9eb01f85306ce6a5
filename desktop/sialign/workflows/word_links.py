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
    progress: ProgressFn | None = None, should_stop: StopFn | None = None,
) -> dict[str, BeadLinks]:
    """Links of ``pairs`` (from :func:`stale_pairs`) in the project's languages; the project is not changed.

    ``tokenizer``: see :func:`sialign.links.link_bead_texts`.
    """
    from sialign.links import link_bead_texts

    keys = list(pairs)
    drawn = link_bead_texts([pairs[k] for k in keys], project.source.language, project.target.language, linker,
                            tokenizer=tokenizer, progress=progress, should_stop=should_stop)  # fmt: skip
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
    from sialign import links

    aligner = str((linker or links.WordLinker).name)
    if project.word_links is not None and project.word_links.aligner != aligner:
        project.word_links = None  # another aligner's links are all drawn again
    pairs = stale_pairs(project)
    new = compute_links(project, pairs, linker=linker, progress=progress, should_stop=should_stop) if pairs else {}
    store_links(project, new, aligner)
    return len(new)


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


__all__ = ["compute_links", "merged_links", "stale_pairs", "store_links", "update_word_links"]
