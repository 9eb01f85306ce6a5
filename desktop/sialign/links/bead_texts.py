"""Links of a bead's running texts: the application's use (stored links, the rendered share, the bead panel, exports)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sialign.core.progress import ProgressFn, StopFn, check_stop
from sialign.links.encoder_links import WordLinker
from sialign.links.params import base_language
from sialign.links.tokens import tokenize_texts

Tokenizer = Any  # (texts, language) -> what tokenize_texts returns


def link_bead_texts(
    pairs: Sequence[tuple[str, str]],
    src_lang: str | None,
    tgt_lang: str | None,
    linker: WordLinker | None = None,
    *,
    tokenizer: Tokenizer = None,
    japanese_reader: Any = None,
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
) -> list[Any]:
    """Tokens, content words and links of each (source text, target text) pair.

    Args:
        tokenizer: ``(texts, language)`` → :func:`tokenize_texts`'s result;
            the desktop app passes one that runs Japanese in its scoring
            process (GiNZA in a thread would freeze the window). Default:
            :func:`tokenize_texts` here.
        japanese_reader: ``(token lists)`` →
            :func:`~sialign.text.japanese.japanese_token_facts`'s result, for
            the Japanese side(s) (the app's runs in its scoring process too).
            Default: that function here.

    Returns:
        One :class:`sialign.core.word_links.BeadLinks` per pair.

    Raises:
        ModelLoadError: the built-in encoder cannot be loaded.
        LanguageToolUnavailable: Japanese text and GiNZA not installed.
        AlignmentCancelled: ``should_stop()`` returned True.
    """
    from sialign.core.word_links import BeadLinks

    if not pairs:
        return []
    tokenizer = tokenizer or tokenize_texts
    if progress is not None:
        progress(0.0, "Finding the words")
    src = tokenizer([s for s, _ in pairs], src_lang)
    check_stop(should_stop)
    tgt = tokenizer([t for _, t in pairs], tgt_lang)
    check_stop(should_stop)
    linker = linker or WordLinker()
    tokens = [([t for t, _, _ in s[0]], [t for t, _, _ in t[0]]) for s, t in zip(src, tgt)]
    if hasattr(linker, "link_with_paraphrase"):
        facts = None
        if getattr(getattr(linker, "params", None), "japanese", False) and japanese_reader is not None:
            read = [japanese_reader([pair[side] for pair in tokens]) if base_language(lang) == "ja" else [None] * len(tokens)
                    for side, lang in ((0, src_lang), (1, tgt_lang))]
            facts = list(zip(read[0], read[1]))
        drawn = linker.link_with_paraphrase(tokens, src_lang, tgt_lang, [s[1] for s in src], facts=facts,
                                            progress=progress, should_stop=should_stop)
    else:  # an aligner of links alone (a statistical one): every unlinked content word is "not found"
        drawn = [(row, []) for row in linker.link(tokens, src_lang, tgt_lang, progress=progress, should_stop=should_stop)]
    return [
        BeadLinks(tuple(s[0]), tuple(t[0]), tuple(sorted(row)), tuple(s[1]), tuple(para))
        for s, t, (row, para) in zip(src, tgt, drawn)
    ]
