"""Word links inside a bead, from the built-in multilingual encoder (the first step of Ryu et al.'s detag-and-project).

The built-in encoder (USE-multilingual v3) embeds texts, so a word gets
three vectors: the word encoded alone, and the word with one and with two
neighbours on each side, read in its whole side of the bead
(:meth:`~sialign.embed.multilingual.MultilingualEncoder.encode_spans`: one
pass over the side gives every window; encoding each window as a text of
its own cost three to four times as much and scored lower on every dev
pair). Source and target vectors of the three kinds are compared by cosine
and the three matrices mixed, which lets context tell apart words that look
alike alone (Japanese kana, function words). Then, per pair of texts:

* a **distortion prior** subtracts ``distortion × |i/n − j/m|`` — word
  orders of the two sides are mostly monotone within a short bead;
* **anchors**: numbers of the same value (*3rd* and 3, 三 and 3), identical
  Latin words and punctuation on both sides add ``anchor`` (names and
  figures are what a trainer checks first);
* **Japanese** (``LinkParams.japanese``): a Japanese side is read by
  GiNZA's tokenizer (:func:`~sialign.text.japanese.japanese_token_facts`)
  and names spelled in romaji on the other side (足利 → *Ashikaga*) add
  ``anchor``, words the Japanese-English dictionary glosses with the
  English word (:mod:`sialign.text.edict`) add ``dictionary``
  (:func:`lexical_bonus`); after extraction auxiliaries and conjunctive
  particles take the links of their word (:func:`attach_function_words`);
* links are the cells whose **two-way probability** — a softmax over the
  row times a softmax over the column, at ``temperature`` — exceeds
  ``threshold`` (the awesome-align extraction; with a low temperature this
  is mutual best match, a higher one admits one-to-many links).

**Rendered by paraphrase.** Word links miss what an interpreter says in
other words (*slowly* → だんだん): a source content word without a link is
counted as rendered when a span of the rendition is similar enough to the
word's context (:func:`paraphrase_matches`): the ±1 / ±2 window of the word
against the windows of the target words, either among the unlinked target
words between the targets of its linked neighbours (the slot where its
rendering would sit, ``paraphrase_slot``) or anywhere in the bead
(``paraphrase_any``, a stricter threshold). On the dev sets, a third to
three quarters of the words that word links leave unlinked but the gold
renders become "rendered by paraphrase", against about one in five words
whose rendering was cut out of the target (tests/benchmarks/bench_rendered.py).

Speed: each distinct word is encoded alone once per linker (and kept for
later calls), each bead side once; a 500-bead talk takes a few seconds on
2 cores and one bead on demand a few tens of milliseconds
(tests/benchmarks/bench_links.py). No training and nothing downloaded.
Mutual-argmax with grow-diag-final-and (:mod:`sialign.filters.word_align`)
and SimAlign's itermax were tried on the dev sets and did worse with these
vectors (tests/benchmarks/RESULTS.md).

The steps live in one module each: :mod:`~sialign.links.params` (the
parameters and the link type), :mod:`~sialign.links.candidates` (similarity,
distortion, anchors, extraction), :mod:`~sialign.links.paraphrase`,
:mod:`~sialign.links.japanese` (romaji, dictionary, function words),
:mod:`~sialign.links.encoder_links` (:class:`WordLinker`, which runs them),
:mod:`~sialign.links.eflomal_aligner`, :mod:`~sialign.links.pharaoh` (the
shared pair and link files), :mod:`~sialign.links.tokens` (words and content
words of running texts) and :mod:`~sialign.links.bead_texts` (links of a
bead's texts, the application's use). Import the names from here.
"""

from __future__ import annotations

from sialign.links.bead_texts import Tokenizer, link_bead_texts
from sialign.links.candidates import context_texts, link_matrix, similarity_matrix
from sialign.links.eflomal_aligner import EFLOMAL_NAME, eflomal_available, eflomal_links
from sialign.links.encoder_links import ALIGNER_NAME, WORD_CACHE, WordLinker
from sialign.links.japanese import (
    ROMAJI_MAX_SPAN,
    ROMAJI_MIN_PART,
    FactsPair,
    attach_function_words,
    dictionary_matches,
    function_word_heads,
    japanese_facts,
    japanese_token_facts_job,
    lexical_bonus,
    romaji_matches,
)
from sialign.links.params import UNSPACED, Link, LinkParams
from sialign.links.paraphrase import paraphrase_matches
from sialign.links.pharaoh import format_pharaoh, read_pairs
from sialign.links.tokens import (
    JA_CONTENT_POS,
    ZH_FUNCTION_CHARS,
    is_content_token,
    tokenize,
    tokenize_texts,
    tokenize_texts_job,
)

__all__ = [
    "ALIGNER_NAME",
    "EFLOMAL_NAME",
    "JA_CONTENT_POS",
    "ROMAJI_MAX_SPAN",
    "ROMAJI_MIN_PART",
    "UNSPACED",
    "WORD_CACHE",
    "ZH_FUNCTION_CHARS",
    "FactsPair",
    "Link",
    "LinkParams",
    "Tokenizer",
    "WordLinker",
    "attach_function_words",
    "context_texts",
    "dictionary_matches",
    "eflomal_available",
    "eflomal_links",
    "format_pharaoh",
    "function_word_heads",
    "is_content_token",
    "japanese_facts",
    "japanese_token_facts_job",
    "lexical_bonus",
    "link_bead_texts",
    "link_matrix",
    "paraphrase_matches",
    "read_pairs",
    "romaji_matches",
    "similarity_matrix",
    "tokenize",
    "tokenize_texts",
    "tokenize_texts_job",
]
