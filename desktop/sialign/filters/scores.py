"""Scores of every bead, computed once, from which any thresholds decide.

:func:`score_beads` does the slow part (GiNZA over every target chunk and
reference sentence, embeddings, chrF, word alignment) and keeps the results
in a :class:`BeadScores`: per-bead numbers in numpy arrays so that
:func:`sialign.filters.apply.preview_flips` can re-decide 1,000 beads in a
few milliseconds while the user drags a threshold.

Each inter-sentence score is stored twice: row 0 for the bead's whole
target, row 1 for the target after the intra filter's trims, because the
intra switch changes what the inter filters see (the paper ran its inter
filters on the intra-filtered pairs).

α — share of content words rendered — is measured by the best method the
project allows, recorded per bead:

- ``"reference"``: the reference translation's content words (GiNZA NOUN,
  PROPN, NUM for Japanese; the heuristic of :mod:`sialign.text.english` for
  Latin script) found in the target, numbers compared by value;
- ``"word alignment"``: source content words linked to the target by
  SimAlign-style word alignment over a sentence-transformers model's token
  vectors (:mod:`sialign.filters.word_align`);
- ``"numbers and names"``: without either, only the source's numbers and
  capitalised names are looked for in the target.
"""

from __future__ import annotations

import dataclasses
import math
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sialign.core.model import Bead, BeadStatus, Document, Project, bead_text, joiner_for
from sialign.core.progress import ProgressFn, StopFn, check_stop, stage
from sialign.text.english import latin_content_words
from sialign.text.numbers import extract_numbers
from sialign.text.sentences import is_cjk

ALPHA_POS = frozenset({"NOUN", "PROPN", "NUM"})
# Japanese formal nouns (形式名詞) and counters GiNZA tags NOUN that carry no
# content of their own; demanding them in the interpretation would be noise.
JA_FORMAL_NOUNS = frozenset(
    """こと 事 もの 物 わけ 訳 ため 為 よう 様 ところ 所 はず 筈 つもり とき 時 ほう 方 まま うち 内 上 中 前 後 間 的
    たち 達 等 など 方々 みなさん 皆さん さん 人 年 月 日 つ 個 回 度 件 点 分 秒 感じ 形 風 感 通り 辺""".split()
)
METHOD_REFERENCE = "reference"
METHOD_ALIGNMENT = "word alignment"
METHOD_SURFACE = "numbers and names"


@dataclass
class AlphaDetail:
    """How α of one bead was measured.

    Attributes:
        method: ``"reference"``, ``"word alignment"`` or ``"numbers and names"``.
        total: content words looked for.
        missing_count: how many of them the target lacks.
        missing: examples of the missing ones (at most 8).
    """

    method: str
    total: int
    missing_count: int = 0
    missing: tuple[str, ...] = ()

    @property
    def covered(self) -> int:
        return self.total - self.missing_count


@dataclass
class BeadScores:
    """Everything the filters need to decide, for one state of a project's beads.

    Arrays have shape (2, n_beads): row 0 scores the whole target, row 1 the
    target after the intra filter's trims; NaN where not measured (no
    reference, empty side, no content word to look for).

    Attributes:
        signature: (src, tgt) ids of each bead when scored; decisions on a
            project whose beads changed since are refused.
        content_pos: POS tags the intra decisions were computed with.
        trims: target ids the intra filter would trim, per bead.
        contentless: beads whose whole target has no content word.
        alpha / gamma / eta_cos / eta_chrf: the scores.
        alpha_details: per row, per bead, how α was measured.
        target_units / reference_units: lengths behind γ (characters for
            unspaced languages, words otherwise), shape (2, n).
        length_unit: ``"characters"`` or ``"words"``.
        status: bead statuses when scored; ``filter_dropped``: dropped by an
            earlier filter run (those may come back); ``confirmed``.
        embedder_name: the embedder behind ``eta_cos`` ("" when none).
        has_reference: whether the project had a reference translation.
        skipped: filters not applied because the target language is not one
            they are built for (name → reason, see
            :mod:`sialign.filters.languages`): their scores are empty (no
            trims, NaN), so they never trim, flag or drop a bead.
        seconds: time spent per stage.
    """

    signature: list[tuple[tuple[int, ...], tuple[int, ...]]]
    content_pos: tuple[str, ...]
    trims: list[tuple[int, ...]]
    contentless: np.ndarray
    alpha: np.ndarray
    gamma: np.ndarray
    eta_cos: np.ndarray
    eta_chrf: np.ndarray
    alpha_details: list[list[AlphaDetail | None]]
    target_units: np.ndarray
    reference_units: np.ndarray
    length_unit: str
    status: list[BeadStatus]
    filter_dropped: np.ndarray
    confirmed: np.ndarray
    src_count: np.ndarray
    tgt_count: np.ndarray
    embedder_name: str = ""
    has_reference: bool = False
    seconds: dict[str, float] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.signature)

    def eta(self, metric: str) -> tuple[np.ndarray, str]:
        """The η scores for ``metric`` (``"cosine"``, ``"chrf"``, ``"auto"``) and the metric used."""
        if metric == "auto":
            metric = "cosine" if self.embedder_name else "chrf"
        if metric == "cosine":
            return self.eta_cos, "cosine"
        if metric == "chrf":
            return self.eta_chrf, "chrf"
        raise ValueError(f"eta_metric must be 'cosine', 'chrf' or 'auto', not {metric!r}")

    def matches(self, beads: Sequence[Bead]) -> bool:
        """Whether ``beads`` are the beads these scores were computed for."""
        return [(b.src, b.tgt) for b in beads] == self.signature

    def with_statuses(self, beads: Sequence[Bead]) -> BeadScores:
        """A copy whose status fields follow ``beads`` (same beads, statuses changed by review).

        Confirming or dropping beads changes what thresholds would flip but
        none of the measurements, so a slider preview need not re-run GiNZA.

        Raises:
            ValueError: the beads are not the ones these scores measured.
        """
        if not self.matches(beads):
            raise ValueError("the beads changed since they were scored; compute the scores again")
        return dataclasses.replace(self, **_status_fields(beads))


FILTER_REASON_PREFIX = "filter: "

# The measurements of BeadScores, each of shape (2, n_beads) and NaN until measured.
MEASUREMENTS = ("alpha", "gamma", "eta_cos", "eta_chrf", "target_units", "reference_units")


def _status_fields(beads: Sequence[Bead]) -> dict[str, Any]:
    """The BeadScores fields that follow the beads' statuses: ``status``, ``filter_dropped``, ``confirmed``."""
    return {
        "status": [b.status for b in beads],
        "filter_dropped": np.array(
            [b.status == BeadStatus.DROPPED and b.reason.startswith(FILTER_REASON_PREFIX) for b in beads], dtype=bool
        ),
        "confirmed": np.array([b.status == BeadStatus.CONFIRMED for b in beads], dtype=bool),
    }


def length_units(text: str, language: str) -> int:
    """Length of ``text`` for γ: visible non-punctuation characters (unspaced languages) or words."""
    if is_cjk(language):
        return sum(1 for ch in text if not ch.isspace() and not unicodedata.category(ch).startswith("P"))
    return len(re.findall(r"\w+", text))


def _norm(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def intra_trims(tgt: Sequence[int], has_content: Sequence[bool]) -> tuple[tuple[int, ...], bool]:
    """The intra filter's decision for one bead (NAIST-SIC-Aligned §4.1.2).

    The first and the last target chunk are trimmed when they hold no
    content word (only those two: the paper's rule). A bead's every chunk is
    never trimmed: when no chunk has a content word nothing is trimmed and
    the bead is reported as contentless instead, for the caller to flag or
    drop — a trimmed-away bead would vanish from review, a flagged one stays
    visible and restorable. Hence a single chunk is never trimmed.

    Args:
        tgt: target ids of the bead, in order.
        has_content: for each of them, whether it holds a content word.

    Returns:
        ``(trimmed ids, contentless)``.
    """
    if not tgt:
        return (), False
    if not any(has_content):
        return (), True
    trimmed = []
    if not has_content[0]:
        trimmed.append(tgt[0])
    if len(tgt) > 1 and not has_content[-1]:
        trimmed.append(tgt[-1])
    return tuple(trimmed), False


def _keep_short_answers(beads: Sequence[Bead], src_doc: Document, tgt_doc: Document, contentless: np.ndarray,
                        content_pos: Sequence[str]) -> None:
    """Clear ``contentless`` (in place) for beads that render a short answer whole: "Bien sûr que non !" → "No !".

    The content-word rule is for sentences with content to render; a source
    sentence with at most one content word is rendered by a negation or an
    interjection (:mod:`sialign.text.short_answers`).
    """
    from sialign.text.short_answers import renders_short_answer

    ks = [int(k) for k in np.flatnonzero(contentless) if beads[int(k)].src]
    if not ks:
        return
    sources = [bead_text(beads[k], src_doc, "src") for k in ks]
    analyses: list[Any] = [None] * len(ks)
    if src_doc.language.split("-")[0].lower() == "ja":
        from sialign.text.japanese import analyze_japanese

        analyses = list(analyze_japanese(sources))
    for k, source, analysis in zip(ks, sources, analyses):
        target = bead_text(beads[k], tgt_doc, "tgt", use_post_edit=False, include_trimmed=True)
        if renders_short_answer(source, src_doc.language, target, analysis, content_pos):
            contentless[k] = False


def _chunk_content(texts: Sequence[str], language: str, content_pos: Sequence[str], analyses: Any) -> list[bool]:
    if analyses is not None:
        return [a.has_pos(content_pos) for a in analyses]
    from sialign.text.english import latin_has_content

    return [latin_has_content(t) for t in texts]


def _reference_items(text: str, language: str, analysis: Any) -> list[tuple[str, str]]:
    """(kind, item) content items of a reference sentence: numbers by value, words by surface."""
    items: list[tuple[str, str]] = []
    if analysis is not None:
        num_run: list[str] = []
        seen: set[str] = set()
        for tok in list(analysis.tokens) + [None]:
            if tok is not None and tok.pos == "NUM":
                num_run.append(tok.text)
                continue
            if num_run:
                for n in extract_numbers("".join(num_run)):
                    if ("number", n) not in items:
                        items.append(("number", n))
                num_run = []
            if tok is None or tok.pos not in ALPHA_POS or tok.text in JA_FORMAL_NOUNS:
                continue
            if len(tok.text) == 1 and not ("\u4e00" <= tok.text <= "\u9fff"):
                continue  # single kana or symbols tagged NOUN
            key = _norm(tok.text)
            if key not in seen:
                seen.add(key)
                items.append(("word", tok.text))
        return items
    for w in latin_content_words(text):
        items.append(("number" if w.kind == "number" else "word", w.text))
    return items


def _covered(kind: str, item: str, target_norm: str, target_numbers: set[str], target_lemmas: set[str]) -> bool:
    if kind == "number":
        return item in target_numbers
    key = _norm(item)
    return key in target_norm or key in target_lemmas


def _alpha_from_items(
    items: list[tuple[str, str]], target: str, target_lemmas: set[str], method: str
) -> tuple[float, AlphaDetail | None]:
    if not items:
        return math.nan, None
    target_norm = _norm(target)
    numbers = set(extract_numbers(target))
    missing = [item for kind, item in items if not _covered(kind, item, target_norm, numbers, target_lemmas)]
    detail = AlphaDetail(method, len(items), len(missing), tuple(missing[:8]))
    return 1.0 - len(missing) / len(items), detail


def score_beads(
    project: Project,
    *,
    embedder: Any = None,
    word_model: Any = None,
    content_pos: Sequence[str] | None = None,
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
) -> BeadScores:
    """Compute every filter score of the project's current beads.

    Args:
        project: a project with an alignment.
        embedder: any :class:`sialign.embed.Embedder` for η's cosine between
            target and reference (same language); None leaves η to chrF.
        word_model: a ``SentenceTransformer`` for α by word alignment when
            the project has no reference; defaults to ``embedder.model``
            when the embedder wraps one.
        content_pos: POS tags of the intra filter; defaults to the
            project's ``filter_params``.
        progress / should_stop: see :mod:`sialign.core.progress`.

    Returns:
        The scores (GiNZA, when the target or reference is Japanese, runs
        here, batched).

    Raises:
        ValueError: the project has no alignment.
        LanguageToolUnavailable: Japanese text and no GiNZA.
        AlignmentCancelled: when ``should_stop()`` says so.
    """
    import time

    if project.alignment is None:
        raise ValueError("the project has no alignment to filter; align it first")
    params = project.filter_params
    pos = tuple(content_pos) if content_pos is not None else tuple(params.content_pos)
    beads = project.alignment.beads
    from sialign.filters.languages import skipped_filters

    skipped = skipped_filters(project)
    seconds: dict[str, float] = {}
    t0 = time.perf_counter()
    texts = _read_bead_texts(project, beads, progress, should_stop)
    seconds["analysis"] = time.perf_counter() - t0
    check_stop(should_stop)

    trims, contentless = _intra_decisions(texts, pos, skipped)
    variants = _target_variants(beads, texts.tgt_doc, trims)
    found = _Measured.nothing_yet(len(beads))
    t1 = time.perf_counter()
    _measure_alpha(texts, variants, skipped, embedder, word_model, found, should_stop)
    seconds["alpha"] = time.perf_counter() - t1
    if progress is not None:
        progress(0.75, "Scoring length and similarity")
    check_stop(should_stop)

    t2 = time.perf_counter()
    _measure_gamma_eta(texts, variants, embedder, found, progress, should_stop)
    seconds["gamma_eta"] = time.perf_counter() - t2

    if progress is not None:
        progress(1.0, "Scores ready")
    return BeadScores(
        signature=[(b.src, b.tgt) for b in beads],
        content_pos=pos,
        trims=trims,
        contentless=contentless,
        alpha_details=found.alpha_details,
        length_unit="characters" if is_cjk(texts.tgt_doc.language) else "words",
        **found.arrays,
        **_status_fields(beads),
        src_count=np.array([len(b.src) for b in beads], dtype=np.int32),
        tgt_count=np.array([len(b.tgt) for b in beads], dtype=np.int32),
        embedder_name=getattr(embedder, "name", "") if embedder is not None else "",
        has_reference=texts.has_reference,
        seconds=seconds,
        skipped=skipped,
    )


# ---- stages of score_beads
@dataclass(frozen=True)
class _BeadTexts:
    """What :func:`score_beads` measures: the beads' texts, with GiNZA's analyses where a side is Japanese.

    Attributes:
        has_reference: the reference translation has one line per source segment.
        tgt_ids / tgt_texts: the target segments of every bead, in bead order, and their texts.
        ref_texts: each bead's reference translation (empty without a reference).
        analyses_tgt / analyses_ref: GiNZA's analyses of ``tgt_texts`` and
            ``ref_texts``, or None where that side is not Japanese.
    """

    beads: Sequence[Bead]
    src_doc: Document
    tgt_doc: Document
    ref_doc: Document | None
    has_reference: bool
    tgt_ids: list[int]
    tgt_texts: list[str]
    ref_texts: list[str]
    analyses_tgt: Any
    analyses_ref: Any


@dataclass(frozen=True)
class _Measured:
    """What the scoring stages fill in: the :data:`MEASUREMENTS` by name, each of shape (2, n_beads) and NaN
    until measured, and per row, per bead, how α was measured."""

    arrays: dict[str, Any]
    alpha_details: list[list[AlphaDetail | None]]

    @classmethod
    def nothing_yet(cls, n: int) -> _Measured:
        """Every measurement NaN and no α detail, for ``n`` beads."""
        return cls({name: np.full((2, n), np.nan) for name in MEASUREMENTS}, [[None] * n, [None] * n])


def _read_bead_texts(project: Project, beads: Sequence[Bead], progress: ProgressFn | None,
                     should_stop: StopFn | None) -> _BeadTexts:
    """The target chunks and reference sentences of every bead, analysed by GiNZA (batched) where Japanese.

    The analyses serve the intra filter's content words, α's lemmas and the reference's content items.
    """
    src_doc, tgt_doc, ref_doc = project.source, project.target, project.reference
    has_reference = ref_doc is not None and len(ref_doc) == len(src_doc)
    tgt_ja = is_cjk(tgt_doc.language) and tgt_doc.language.split("-")[0].lower() == "ja"
    tgt_ids = [i for b in beads for i in b.tgt]
    tgt_texts = [tgt_doc.get(i).text for i in tgt_ids]
    ref_texts: list[str] = []
    if has_reference:
        assert ref_doc is not None
        ref_texts = [bead_reference(b, src_doc, ref_doc) for b in beads]
    ref_ja = has_reference and ref_doc is not None and ref_doc.language.split("-")[0].lower() == "ja"
    analyses_tgt = analyses_ref = None
    if tgt_ja or ref_ja:
        from sialign.text.japanese import analyze_japanese

        texts = (tgt_texts if tgt_ja else []) + (ref_texts if ref_ja else [])
        analyses = analyze_japanese(texts, progress=stage(progress, 0.0, 0.6), should_stop=should_stop)
        if tgt_ja:
            analyses_tgt = analyses[: len(tgt_texts)]
        if ref_ja:
            analyses_ref = analyses[len(tgt_texts) if tgt_ja else 0 :]
    return _BeadTexts(beads, src_doc, tgt_doc, ref_doc, has_reference, tgt_ids, tgt_texts, ref_texts,
                      analyses_tgt, analyses_ref)


def _intra_decisions(texts: _BeadTexts, pos: Sequence[str], skipped: dict[str, str]) -> tuple[list[tuple[int, ...]], np.ndarray]:
    """The intra filter's trims of every bead, and which beads have no content word (:func:`intra_trims`).

    A confirmed bead keeps the reviewer's trims, and a chunk the reviewer restored is not trimmed again.
    """
    beads = texts.beads
    content = dict(zip(texts.tgt_ids, _chunk_content(texts.tgt_texts, texts.tgt_doc.language, pos, texts.analyses_tgt)))
    trims: list[tuple[int, ...]] = []
    contentless = np.zeros(len(beads), dtype=bool)
    for k, b in enumerate(beads):
        if b.status == BeadStatus.CONFIRMED:
            trims.append(tuple(b.trimmed))  # the reviewer's choice stands
            continue
        if "intra" in skipped:
            trims.append(())
            continue
        trimmed, empty = intra_trims(b.tgt, [content[i] for i in b.tgt])
        # A chunk the reviewer restored stays restored: no filter run trims it again.
        trims.append(tuple(i for i in trimmed if i not in b.restored))
        contentless[k] = empty
    _keep_short_answers(beads, texts.src_doc, texts.tgt_doc, contentless, pos)
    return trims, contentless


def _target_variants(beads: Sequence[Bead], tgt_doc: Document, trims: list[tuple[int, ...]]) -> list[list[str]]:
    """Each bead's target text, whole (row 0; a confirmed bead's as reviewed) and after the trims (row 1)."""
    variants: list[list[str]] = [[], []]
    for k, b in enumerate(beads):
        whole = bead_text(b, tgt_doc, "tgt", use_post_edit=False, include_trimmed=True)
        kept = [i for i in b.tgt if i not in trims[k]]
        variants[0].append(whole if b.status != BeadStatus.CONFIRMED else _join(tgt_doc, kept))
        variants[1].append(_join(tgt_doc, kept))
    return variants


def _measure_alpha(texts: _BeadTexts, variants: list[list[str]], skipped: dict[str, str], embedder: Any,
                   word_model: Any, found: _Measured, should_stop: StopFn | None) -> None:
    """α of every bead into ``found``, by the best method the project allows (see the module docstring)."""
    if word_model is None and embedder is not None:
        word_model = getattr(embedder, "model", None)
        if word_model is not None and not hasattr(word_model, "tokenizer"):
            word_model = None
    if "alpha" in skipped:
        pass  # α stays NaN: its content words cannot be found in this target language
    elif texts.has_reference:
        _alpha_by_reference(texts, variants, found)
    elif word_model is not None:
        _alpha_by_alignment(texts.beads, texts.src_doc, variants, word_model, found.arrays["alpha"],
                            found.alpha_details, should_stop)
    else:
        _alpha_by_numbers_and_names(texts.beads, texts.src_doc, variants, found)


def _alpha_by_reference(texts: _BeadTexts, variants: list[list[str]], found: _Measured) -> None:
    """α as the share of the reference translation's content items found in the target (lemmas too, for Japanese)."""
    alpha, details, ref_doc = found.arrays["alpha"], found.alpha_details, texts.ref_doc
    lemmas = ({i: {_norm(t.lemma) for t in a.tokens} for i, a in zip(texts.tgt_ids, texts.analyses_tgt)}
              if texts.analyses_tgt else {})
    ref_items = [
        _reference_items(texts.ref_texts[k], ref_doc.language if ref_doc else "und",
                         texts.analyses_ref[k] if texts.analyses_ref else None)
        for k in range(len(texts.beads))
    ]
    for k, b in enumerate(texts.beads):
        if not b.tgt or not b.src:
            continue
        bead_lemmas: set[str] = set()
        for i in b.tgt:
            bead_lemmas |= lemmas.get(i, set())
        for row in (0, 1):
            alpha[row, k], details[row][k] = _alpha_from_items(ref_items[k], variants[row][k], bead_lemmas, METHOD_REFERENCE)


def _alpha_by_numbers_and_names(beads: Sequence[Bead], src_doc: Document, variants: list[list[str]], found: _Measured) -> None:
    """α without a reference or a word model: the source's numbers and capitalised names found in the target."""
    alpha, details = found.arrays["alpha"], found.alpha_details
    for k, b in enumerate(beads):
        if not b.tgt or not b.src:
            continue
        src_text = bead_text(b, src_doc, "src")
        items = [
            ("number" if w.kind == "number" else "word", w.text)
            for w in latin_content_words(src_text)
            if w.kind in ("number", "name")
        ]
        for row in (0, 1):
            alpha[row, k], details[row][k] = _alpha_from_items(items, variants[row][k], set(), METHOD_SURFACE)


def _measure_gamma_eta(texts: _BeadTexts, variants: list[list[str]], embedder: Any, found: _Measured,
                       progress: ProgressFn | None, should_stop: StopFn | None) -> None:
    """γ (target length over reference length) and η (chrF; cosine with ``embedder``) of every bead into ``found``.

    They need the reference: without one, and for beads without both sides
    or a reference sentence, they stay NaN.
    """
    if not texts.has_reference:
        return
    from sacrebleu.metrics import CHRF

    beads, tgt_doc, ref_doc, ref_texts = texts.beads, texts.tgt_doc, texts.ref_doc, texts.ref_texts
    gamma, eta_cos, eta_chrf = found.arrays["gamma"], found.arrays["eta_cos"], found.arrays["eta_chrf"]
    tgt_units, ref_units = found.arrays["target_units"], found.arrays["reference_units"]
    chrf = CHRF()
    ref_lang = ref_doc.language if ref_doc is not None else tgt_doc.language
    measured = [k for k, b in enumerate(beads) if b.src and b.tgt and ref_texts[k].strip()]
    for k in measured:
        r_units = length_units(ref_texts[k], ref_lang)
        for row in (0, 1):
            t_units = length_units(variants[row][k], tgt_doc.language)
            tgt_units[row, k] = t_units
            ref_units[row, k] = r_units
            if r_units > 0:
                gamma[row, k] = t_units / r_units
            eta_chrf[row, k] = chrf.sentence_score(variants[row][k], [ref_texts[k]]).score / 100.0
    if embedder is not None and measured:
        differing = [k for k in measured if variants[1][k] != variants[0][k]]
        texts_in = [variants[0][k] for k in measured] + [variants[1][k] for k in differing] + [ref_texts[k] for k in measured]
        vectors = embedder.encode(texts_in, progress=stage(progress, 0.75, 0.95), should_stop=should_stop)
        m, d = len(measured), len(differing)
        whole_v, trimmed_v, ref_v = vectors[:m], vectors[m : m + d], vectors[m + d :]
        sims = np.einsum("ij,ij->i", whole_v, ref_v)
        position = {k: p for p, k in enumerate(measured)}
        for p, k in enumerate(measured):
            eta_cos[0, k] = eta_cos[1, k] = float(sims[p])
        for q, k in enumerate(differing):
            eta_cos[1, k] = float(trimmed_v[q] @ ref_v[position[k]])


def _join(doc: Document, ids: Sequence[int]) -> str:
    return joiner_for(doc.language).join(" ".join(doc.get(i).text.split()) for i in ids)


def bead_reference(bead: Bead, source: Document, reference: Document) -> str:
    """The reference translation of a bead's source sentences (reference is 1:1 with the source)."""
    return _join(reference, [reference.segments[source.index_of(i)].id for i in bead.src])


def _alpha_by_alignment(
    beads: Sequence[Bead],
    src_doc: Document,
    variants: list[list[str]],
    model: Any,
    alpha: np.ndarray,
    details: list[list[AlphaDetail | None]],
    should_stop: StopFn | None,
) -> None:
    from sialign.filters.word_align import covered_spans, token_vectors

    todo = [k for k, b in enumerate(beads) if b.src and b.tgt]
    if not todo:
        return
    src_texts = [bead_text(beads[k], src_doc, "src") for k in todo]
    words: list[list[tuple[str, tuple[int, int]]]] = []
    for text in src_texts:
        found = []
        for w in latin_content_words(text):
            if w.kind == "number":
                continue  # numbers come back canonicalised; their words are matched below
            pos = text.find(w.text)
            if pos >= 0:
                found.append((w.text, (pos, pos + len(w.text))))
        for m in re.finditer(r"\d[\d,.]*", text):
            found.append((m.group(0), (m.start(), m.end())))
        words.append(found)
    check_stop(should_stop)
    src_vectors = token_vectors(model, src_texts)
    for row in (0, 1):
        check_stop(should_stop)
        tgt_vectors = token_vectors(model, [variants[row][k] for k in todo])
        for p, k in enumerate(todo):
            if not words[p]:
                continue
            covered = covered_spans(src_vectors[p], tgt_vectors[p], [span for _, span in words[p]])
            missing = [w for (w, _), c in zip(words[p], covered) if not c]
            alpha[row, k] = 1.0 - len(missing) / len(words[p])
            details[row][k] = AlphaDetail(METHOD_ALIGNMENT, len(words[p]), len(missing), tuple(missing[:8]))
