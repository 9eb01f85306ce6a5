"""Rule-based sentence splitting for transcripts that are not one sentence per line.

Latin-script languages: a sentence ends after ``.``, ``?``, ``!`` or an
ellipsis (plus closing quotes and brackets) when whitespace and a plausible
sentence start follow (a capital letter, a digit, an opening quote or
bracket). It does not end after a known abbreviation (``Mr.``, ``Dr.``,
``e.g.``, ``U.S.``...), an initial (``J. K. Rowling``), a decimal or
thousands separator (``3.5``, ``1,000`` — no space follows), or before a
lower-case word (``"Really?" he asked``). ``U.S.``-style abbreviations that
can also end a sentence do end it when a typical sentence opener (``The``,
``We``, ``But``...) follows. A bracketed stage note standing alone between
sentences, such as TED's ``(Laughter)``, becomes its own sentence.

CJK languages: a sentence ends after 。？！ (and ``?!``), with closing brackets.

Segments are only ever cut, never joined (see
:func:`sialign.text.captions.rebuild_captions` for joining captions). A blank
line always ends a sentence.
"""

from __future__ import annotations

import re

from sialign.core.model import UNSPACED_LANGUAGES, Document
from sialign.text.spans import as_document, content_spans, document_from_spans, segment_ranges

# Abbreviations that are always followed by more of the same sentence.
NON_FINAL_ABBREVIATIONS = frozenset(
    """mr mrs ms mx dr prof st mt messrs mme mlle sr jr gen gov sen rep capt lt col sgt cmdr adm rev hon pres
    e.g i.e cf vs viz al fig figs eq eqs no nos vol vols ch sec pp p approx ca dept est op
    z.b d.h bzw usw vgl ggf u.a s.o nr hr hrn frau dipl ing bd abs art
    jan feb mar apr jun jul aug sep sept oct nov dec""".split()
)
# Abbreviations that often end a sentence too ("...moved to the U.S. Then...").
FINAL_CAPABLE_ABBREVIATIONS = frozenset(
    "etc u.s u.k u.n a.m p.m inc ltd co corp bros ph.d b.c a.d d.c l.a n.y e.u usw etc.".split()
)
# Words that typically open a sentence: after an ambiguous abbreviation they
# signal that the sentence did end there.
SENTENCE_OPENERS = frozenset(
    """the a an this that these those it its he she we they i you there here but and so then now
    however yet still also in on at for if when while after before because although as what why how
    who where which my our your his her their one some many most all no not do does did is are was were
    let maybe perhaps today tomorrow yesterday""".split()
)
CLOSING = "\"'”’)]}»」』）"
OPENING = "\"'“‘([{«「『（"
CJK_TERMINALS = "。？！?!"

_LATIN_END = re.compile(r"(?:\.{2,}|…+|[.?!]+)[" + re.escape(CLOSING) + r"]*")
_CJK_END = re.compile(r"[" + re.escape(CJK_TERMINALS) + r"]+[" + re.escape(CLOSING) + r"]*")
_WORD_BEFORE = re.compile(r"([\w.'’-]+)$")


def is_cjk(language: str) -> bool:
    """Whether ``language`` is written without spaces (sentence ends are 。？！)."""
    return language.split("-")[0].lower() in UNSPACED_LANGUAGES


def sentence_cuts(text: str, language: str) -> list[int]:
    """Offsets in ``text`` where a new sentence begins (after the preceding whitespace is skipped)."""
    cuts = [m.end() for m in re.finditer(r"\n[ \t\r\f\v]*\n", text)]
    if is_cjk(language):
        cuts.extend(m.end() for m in _CJK_END.finditer(text))
        return sorted(set(cuts))
    sentence_start = 0
    for m in _LATIN_END.finditer(text):
        if _ends_sentence(text, m, language, sentence_start):
            cuts.append(m.end())
            sentence_start = _skip_space(text, m.end())
    cuts.extend(_stage_note_cuts(text, cuts))
    return sorted(set(cuts))


def _skip_space(text: str, i: int) -> int:
    while i < len(text) and text[i].isspace():
        i += 1
    return i


def _ends_sentence(text: str, m: re.Match[str], language: str, sentence_start: int) -> bool:
    end = m.end()
    nxt = _skip_space(text, end)
    if nxt == end and end < len(text):
        return False  # no whitespace after the mark: 3.5, e.g.x, U.S.-based, "word."word
    if nxt >= len(text):
        return False  # the end of the segment ends the sentence anyway
    follower = text[nxt:]
    first = follower.lstrip(OPENING)[:1]
    if not first:
        return False
    if first.islower():
        return False  # "Really?" he asked / i.e. the / so... and then
    mark = m.group(0).rstrip(CLOSING)
    if mark.startswith(("..", "…")) and not (first.isupper() or first.isdigit()):
        return False
    if mark == "." and not text[m.start() : end].endswith(tuple(CLOSING)):
        before = _WORD_BEFORE.search(text, 0, m.start())
        word = before.group(1).lower() if before else ""
        if word:
            if len(word) == 1 and word.isalpha() and before is not None and before.group(1).isupper():
                return False  # an initial: J. K. Rowling
            if word in ("no", "nos", "nr"):
                return not first.isdigit()  # No. 5 / Nr. 3, but "I said no. Then..."
            if word in NON_FINAL_ABBREVIATIONS:
                return False
            if word in FINAL_CAPABLE_ABBREVIATIONS or re.fullmatch(r"(?:[a-z]\.)+[a-z]", word):
                next_word = re.match(r"[\w’']+", follower.lstrip(OPENING))
                return next_word is not None and next_word.group(0).lower() in SENTENCE_OPENERS
            if language.split("-")[0].lower() == "de" and word.isdigit() and len(word) <= 2:
                return False  # German ordinals: am 3. Oktober
    return True


def _stage_note_cuts(text: str, cuts: list[int]) -> list[int]:
    """Cuts around ``(Laughter)``-style notes that stand between sentences."""
    starts = {0} | {_skip_space(text, c) for c in cuts}
    extra = []
    for m in re.finditer(r"[(\[][^()\[\]\n]{1,40}[)\]]", text):
        if m.start() not in starts and not _at_line_start(text, m.start()):
            continue
        after = _skip_space(text, m.end())
        if after < len(text) and after > m.end() and (text[after].isupper() or text[after] in OPENING):
            extra.append(m.end())
            if m.start() > 0:
                extra.append(m.start())
    return extra


def _at_line_start(text: str, i: int) -> bool:
    j = i - 1
    while j >= 0 and text[j] in " \t":
        j -= 1
    return j < 0 or text[j] == "\n"


def split_sentences(doc_or_text: Document | str, language: str | None = None) -> Document:
    """Sentences of a transcript, losslessly (segments are cut, never joined).

    Args:
        doc_or_text: a document (each segment is cut separately, keeping its
            times proportionally) or plain text.
        language: ``"en"``, ``"de"``, ``"ja"``...; defaults to the document's.

    Returns:
        A new document with fresh ids; ``full_text()`` is unchanged.
    """
    lang = language or (doc_or_text.language if isinstance(doc_or_text, Document) else "und")
    doc = as_document(doc_or_text, lang)
    full = doc.full_text()
    spans: list[tuple[int, int]] = []
    for r in segment_ranges(doc):
        text = full[r.start : r.end]
        spans.extend(content_spans(text, sentence_cuts(text, lang), base=r.start))
    result = document_from_spans(doc, spans)
    result.language = doc.language if isinstance(doc_or_text, Document) and language is None else lang
    return result


def ends_with_strong_punctuation(text: str, language: str) -> bool:
    """Whether ``text`` ends a sentence: a terminal mark that is not an abbreviation, initial or trailing ellipsis."""
    stripped = text.rstrip()
    if not stripped:
        return False
    core = stripped.rstrip(CLOSING)
    if not core:
        return False
    if is_cjk(language):
        return core[-1] in CJK_TERMINALS
    if core.endswith(("...", "…")):
        return False  # captions end in an ellipsis when the sentence goes on
    if core[-1] in "?!":
        return True
    if core[-1] != ".":
        return False
    before = _WORD_BEFORE.search(core[:-1])
    word = before.group(1).lower() if before else ""
    if len(word) == 1 and word.isalpha() and before is not None and before.group(1).isupper():
        return False
    return word not in NON_FINAL_ABBREVIATIONS
