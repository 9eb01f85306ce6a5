"""Glossary check: was each source term rendered as the glossary accepts, otherwise, or not at all?

A glossary is a UTF-8 (or any encoding the transcript readers detect) text
file, one source term per line, its accepted renderings after tabs::

    # bread talk, en → ja
    sourdough starter<TAB>サワードウスターター<TAB>発酵種
    loaf<TAB>パン

Terms are found in the source by lemma (:mod:`sialign.text.lemmas`: GiNZA's
lemmas for Japanese, rule-based keys for English) and, in languages written
without spaces, also as a plain substring. For every occurrence the bead's
word links (:mod:`sialign.review.bead_words`) decide the verdict:

* **rendered as expected** — an accepted rendering occurs in the bead's
  interpretation (preferably among the words linked to the term);
* **rendered otherwise** — no accepted rendering, but words are linked to
  the term: they are what the interpreter said instead;
* **not rendered** — no accepted rendering and nothing linked (or the bead
  has no interpretation).

Qt-free: ``sialign terms``, *Review → Check terms…* and the report's terms
section call :func:`check_terms`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from sialign.core.errors import InputError, SialignError
from sialign.core.model import BeadStatus, Project
from sialign.core.progress import ProgressFn, StopFn, check_stop, stage
from sialign.io.output_formats import OutputFormats
from sialign.review.bead_words import BeadWords, Word, bead_words, words_of
from sialign.text.lemmas import ENGLISH_LEMMA_METHOD

EXPECTED = "rendered as expected"
OTHERWISE = "rendered otherwise"
NOT_RENDERED = "not rendered"
VERDICTS = (EXPECTED, OTHERWISE, NOT_RENDERED)
TERMS_FORMATS = ("tsv", "json")
_UNSPACED = frozenset({"ja", "zh", "th"})
# A glossary is a short text file; a bigger one is not a glossary.
MAX_GLOSSARY_BYTES = 20_000_000


@dataclass(frozen=True)
class GlossaryEntry:
    """One line of a glossary: a source term, its accepted renderings, and the line it is on."""

    term: str
    renderings: tuple[str, ...]
    line: int


@dataclass(frozen=True)
class Glossary:
    """The entries of a glossary file, in file order."""

    path: str
    entries: tuple[GlossaryEntry, ...]


def parse_glossary(text: str, path: str | Path) -> Glossary:
    """Entries of a glossary's text (see the module docstring for the format).

    Blank lines and lines starting with ``#`` are skipped; empty fields
    (a trailing tab) are ignored.

    Raises:
        InputError: a line without a tab, with an empty term or no rendering,
            a term given twice, or no term at all — naming the file and line.
    """
    entries: list[GlossaryEntry] = []
    seen: dict[str, int] = {}
    for number, raw in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if "\t" not in raw:
            raise InputError(
                path, f"expected 'source term<TAB>accepted rendering', found no tab in {line[:50]!r}", line=number,
                hint="separate the term and each accepted rendering with a tab (not spaces); start a comment with #",
            )
        fields = [f.strip() for f in raw.split("\t")]
        term, renderings = fields[0], tuple(f for f in fields[1:] if f)
        if not term:
            raise InputError(path, "the source term (before the first tab) is empty", line=number, hint="write the term first, then its renderings")
        if not renderings:
            raise InputError(path, f"the term {term!r} has no accepted rendering after its tab", line=number,
                             hint="add at least one rendering, separated by a tab")
        key = " ".join(term.lower().split())
        if key in seen:
            raise InputError(path, f"the term {term!r} is already on line {seen[key]}", line=number,
                             hint="put all its accepted renderings on one line, separated by tabs")
        seen[key] = number
        entries.append(GlossaryEntry(term, renderings, number))
    if not entries:
        raise InputError(path, "the glossary holds no term", hint="write one 'source term<TAB>accepted rendering' per line")
    return Glossary(str(path), tuple(entries))


def read_glossary(path: str | Path) -> Glossary:
    """Read and parse a glossary file (encoding detected as for transcripts).

    Raises:
        InputError: the file cannot be read or a line is malformed (file and line named).
    """
    from sialign.core.errors import EmptyInputError
    from sialign.io.encoding import read_text

    try:
        text = read_text(path, limit=MAX_GLOSSARY_BYTES).text
    except EmptyInputError as exc:
        raise EmptyInputError(path, "the glossary is empty",
                              hint="write one source term per line, then its accepted renderings after tabs") from exc
    return parse_glossary(text, path)


@dataclass(frozen=True)
class TermHit:
    """One occurrence of a glossary term in the source, and how it was rendered.

    Attributes:
        bead: 0-based bead index.
        term: the glossary's source term.
        found: the words as they occur in the source.
        verdict: one of :data:`VERDICTS`.
        said: the accepted rendering found, or the linked target words
            (runs joined by " … "), or empty.
        accepted: the glossary's accepted renderings.
        via_links: for :data:`EXPECTED`, whether the rendering is among the
            words linked to the term (False: found elsewhere in the bead).
        note: why there is nothing to compare (no interpretation, a dropped bead).
        src_span / tgt_spans: character spans in the bead's running texts.
        time: source start time of the bead, when known.
        line: the glossary line of the term.
    """

    bead: int
    term: str
    found: str
    verdict: str
    said: str
    accepted: tuple[str, ...]
    via_links: bool = False
    note: str = ""
    src_span: tuple[int, int] = (0, 0)
    tgt_spans: tuple[tuple[int, int], ...] = ()
    time: float | None = None
    line: int = 0


@dataclass
class TermCheck:
    """The result of :func:`check_terms`.

    Attributes:
        glossary: the glossary's path.
        hits: every occurrence, in bead order.
        missing: terms that occur nowhere in the source.
        matching: how terms were matched (said in every output).
        aligner: which word aligner drew the links.
    """

    glossary: str
    hits: list[TermHit] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    matching: str = ""
    aligner: str = ""

    def counts(self) -> dict[str, int]:
        """Occurrences per verdict, in :data:`VERDICTS` order."""
        return {v: sum(1 for h in self.hits if h.verdict == v) for v in VERDICTS}

    def summary(self) -> str:
        """One line: occurrences, beads, verdicts and terms never found."""
        from sialign.core.plurals import count_noun

        c = self.counts()
        beads = len({h.bead for h in self.hits})
        line = (f"{count_noun(len(self.hits), 'term occurrence')} in {count_noun(beads, 'bead')}: "
                f"{c[EXPECTED]} {EXPECTED}, {c[OTHERWISE]} {OTHERWISE}, {c[NOT_RENDERED]} {NOT_RENDERED}")
        if self.missing:
            line += f"; {count_noun(len(self.missing), 'term')} never in the source"
        return line


def matching_method(language: str | None) -> str:
    """How source terms are matched in ``language`` (printed with every result)."""
    lang = (language or "").split("-")[0].lower()
    if lang == "en":
        return ENGLISH_LEMMA_METHOD
    if lang == "ja":
        return "GiNZA lemmas, and the term as written"
    if lang in _UNSPACED:
        return "the term as written"
    return "words in lower case (no lemmatiser for this language)"


def find_phrase(words: Sequence[Word], text: str, phrase: Sequence[Word], phrase_text: str, language: str | None) -> list[tuple[int, int]]:
    """Word ranges ``(first, last)`` of ``words`` where ``phrase`` occurs, by lemma key (and as a substring in unspaced scripts).

    Overlapping matches keep the earlier one.
    """
    found: list[tuple[int, int]] = []
    keys = [w.lemma for w in phrase]
    n = len(keys)
    if n:
        for a in range(len(words) - n + 1):
            if all(words[a + k].lemma == keys[k] for k in range(n)):
                found.append((a, a + n - 1))
    lang = (language or "").split("-")[0].lower()
    needle = phrase_text.strip()
    if lang in _UNSPACED and needle:
        at = text.find(needle)
        while at >= 0:
            inside = [k for k, w in enumerate(words) if w.start < at + len(needle) and w.end > at]
            if inside:
                found.append((inside[0], inside[-1]))
            at = text.find(needle, at + len(needle))
    found.sort(key=lambda r: (r[0], -r[1]))
    kept: list[tuple[int, int]] = []
    for r in found:
        if not kept or r[0] > kept[-1][1]:
            kept.append(r)
    return kept


def _runs(indices: Sequence[int]) -> list[tuple[int, int]]:
    runs: list[tuple[int, int]] = []
    for j in indices:
        if runs and j == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], j)
        else:
            runs.append((j, j))
    return runs


def _verdict(bw: BeadWords, first: int, last: int, options: list[tuple[int, int]],
             claimed: set[tuple[int, int]]) -> tuple[str, str, bool, tuple[tuple[int, int], ...], str]:
    """(verdict, said, via_links, target spans, note) of one occurrence; ``claimed`` holds rendering occurrences already used."""
    linked = bw.targets_of(range(first, last + 1))
    free = [r for r in options if r not in claimed]
    near = [r for r in free if any(r[0] <= j <= r[1] for j in linked)]
    choice = (near or free)[0] if (near or free) else None
    words = bw.tgt_words
    if choice is not None:
        claimed.add(choice)
        span = (words[choice[0]].start, words[choice[1]].end)
        return EXPECTED, bw.tgt_text[span[0] : span[1]], bool(near), (span,), ""
    # Words that already render another occurrence of the term (one 週末 for "the weekend … the weekend") do not count twice.
    own = [j for j in linked if not any(a <= j <= b for a, b in claimed)]
    if own:
        spans = tuple((words[a].start, words[b].end) for a, b in _runs(own))
        return OTHERWISE, " … ".join(bw.tgt_text[a:b] for a, b in spans), False, spans, ""
    if linked:
        shared = " … ".join(bw.tgt_text[words[a].start : words[b].end] for a, b in _runs(linked))
        return NOT_RENDERED, "", False, (), f"its linked words ({shared}) render an earlier occurrence"
    return NOT_RENDERED, "", False, (), ""


def check_terms(
    project: Project,
    glossary: Glossary,
    *,
    linker: Any = None,
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
) -> TermCheck:
    """Find every glossary term in the source and say how each occurrence was rendered.

    Links are drawn only for the beads where a term occurs.

    Args:
        project: an aligned project.
        glossary: from :func:`read_glossary`.
        linker: the word aligner (:func:`sialign.review.bead_words.bead_words`'s).

    Raises:
        SialignError: the project has no alignment yet.
        AlignmentCancelled: ``should_stop()`` returned True.
    """
    alignment = project.alignment
    if alignment is None or not alignment.beads:
        where = f"{project.path}: " if project.path else ""
        raise SialignError(f"{where}the project has no alignment yet — align it first", settings=("align",))
    src_lang, tgt_lang = project.source.language, project.target.language
    report = progress or (lambda _f, _m: None)
    report(0.0, "Reading the glossary's terms")
    entries = glossary.entries
    term_words = words_of([e.term for e in entries], src_lang)
    flat = [(k, r) for k, e in enumerate(entries) for r in e.renderings]
    rendering_words = words_of([r for _, r in flat], tgt_lang)
    renderings: list[list[tuple[str, list[Word]]]] = [[] for _ in entries]
    for (k, r), words in zip(flat, rendering_words):
        renderings[k].append((r, words))
    check_stop(should_stop)
    plain = bead_words(project, linker=linker, with_links=False, progress=stage(progress, 0.0, 0.3), should_stop=should_stop)
    occurrences: list[tuple[int, int, int, int]] = []  # (bead, entry, first, last)
    for index, bw in plain.items():
        for k, entry in enumerate(entries):
            for first, last in find_phrase(bw.src_words, bw.src_text, term_words[k], entry.term, src_lang):
                occurrences.append((index, k, first, last))
    check_stop(should_stop)
    beads = sorted({o[0] for o in occurrences})
    linked = bead_words(project, beads, linker=linker, progress=stage(progress, 0.3, 0.95), should_stop=should_stop) if beads else {}
    result = TermCheck(glossary.path, matching=matching_method(src_lang), aligner=str(getattr(linker, "name", "") or _default_aligner()))
    claimed: dict[int, set[tuple[int, int]]] = {}
    for index, k, first, last in sorted(occurrences, key=lambda o: (o[0], o[2], o[1])):
        bw = linked.get(index) or plain[index]
        bead = alignment.beads[index]
        entry = entries[k]
        options = sorted({r for text, words in renderings[k] for r in find_phrase(bw.tgt_words, bw.tgt_text, words, text, tgt_lang)})
        note = ""
        if bead.status is BeadStatus.DROPPED:
            note = "the bead is dropped"
        elif not bead.tgt:
            note = "no interpretation in this bead"
        verdict, said, via, spans, why = _verdict(bw, first, last, options, claimed.setdefault(index, set()))
        note = note or why
        src_span = (bw.src_words[first].start, bw.src_words[last].end)
        seg = project.source.get(bead.src[0]) if bead.src else None
        result.hits.append(TermHit(index, entry.term, bw.src_text[src_span[0] : src_span[1]], verdict, said, entry.renderings,
                                   via, note, src_span, spans, seg.start if seg else None, entry.line))
    found_terms = {o[1] for o in occurrences}
    result.missing = [e.term for k, e in enumerate(entries) if k not in found_terms]
    report(1.0, "Terms checked")
    return result


def _default_aligner() -> str:
    from sialign.links import ALIGNER_NAME

    return ALIGNER_NAME


# ---- output -----------------------------------------------------------------
TSV_COLUMNS = ("bead", "time", "term", "found", "verdict", "said", "accepted", "note")


def _clock(seconds: float | None) -> str:
    from sialign.review.figures import format_clock

    return "" if seconds is None else format_clock(seconds)


def _cell(text: str) -> str:
    return " ".join(text.replace("\t", " ").split())


def terms_tsv(check: TermCheck) -> str:
    """The hits as TSV: a header, then one row per occurrence (bead numbers 1-based); ``#`` lines say how terms were matched."""
    lines = [f"# glossary: {check.glossary}", f"# matching: {check.matching}", f"# links: {check.aligner}", "\t".join(TSV_COLUMNS)]
    for h in check.hits:
        lines.append("\t".join(_cell(v) for v in (str(h.bead + 1), _clock(h.time), h.term, h.found, h.verdict, h.said,
                                                   " | ".join(h.accepted), h.note)))
    lines.extend(f"# never in the source: {term}" for term in check.missing)
    return "\n".join(lines) + "\n"


def terms_json(check: TermCheck) -> str:
    """The whole check as one JSON object (bead numbers 1-based, spans 0-based in the bead's running texts)."""
    hits: list[dict[str, Any]] = []
    for h in check.hits:
        d = asdict(h)
        d["bead"] = h.bead + 1
        d["accepted"] = list(h.accepted)
        d["src_span"] = list(h.src_span)
        d["tgt_spans"] = [list(s) for s in h.tgt_spans]
        hits.append(d)
    doc = {"glossary": check.glossary, "matching": check.matching, "aligner": check.aligner,
           "counts": check.counts(), "missing": check.missing, "hits": hits}
    return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"


# The term check is TSV or JSON, told from its extension (TERMS_FILES.format_of(path)).
TERMS_FILES = OutputFormats("the term check", {".tsv": "tsv", ".txt": "tsv", ".json": "json"}, example="terms")


def write_terms(check: TermCheck, path: str | Path) -> None:
    """Write the check to ``path`` (TSV or JSON from the extension), atomically."""
    from sialign.core.atomic import atomic_write_text

    atomic_write_text(path, terms_json(check) if TERMS_FILES.format_of(path) == "json" else terms_tsv(check))
