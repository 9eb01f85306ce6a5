"""align_project: the end-to-end entry point the GUI and CLI call."""

from __future__ import annotations

import re
import time
import zlib
from collections.abc import Sequence

import numpy as np
import pytest

from sialign.align.costs import resolve_target_units
from sialign.align.pipeline import align_project
from sialign.core.errors import AlignmentCancelled, SialignError
from sialign.core.model import Alignment, BeadStatus, Document, Project
from sialign.core.params import AlignParams
from sialign.embed.pairs import clear_memo

SYLLABLES = ["ka", "to", "mi", "ren", "sal", "vo", "tur", "ne", "pa", "li", "dor", "qu", "fen", "bi", "sto", "gra"]
KANA = list("あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわ")


class WordEmbedder:
    """Bag of hashed words (CJK: character bigrams), L2-normalised.

    Deterministic and independent of the lexical embedder's tuning, so these
    tests check the aligner, not the embedder.
    """

    name = "words"
    dim = 1024
    cache_id = "words-v1"

    def fit(self, texts: Sequence[str], other: Sequence[str] | None = None) -> None:
        pass

    def encode(self, texts: Sequence[str], *, progress=None, should_stop=None) -> np.ndarray:  # type: ignore[no-untyped-def]
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for token in re.findall(r"[a-zäöüß]+|[\u3040-\u30ff\u4e00-\u9fff]+", text.lower()):
                units = [token] if token.isascii() or len(token) < 2 else [token[k : k + 2] for k in range(len(token) - 1)]
                for unit in units:
                    out[row, zlib.crc32(unit.encode()) % self.dim] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        np.divide(out, norms, out=out, where=norms > 0)
        if progress is not None:
            progress(1.0, "Embedding (words)")
        return out


WORDS = WordEmbedder()


def words(rng: np.random.Generator, count: int, alphabet: list[str] = SYLLABLES, size: tuple[int, int] = (2, 4)) -> list[str]:
    return ["".join(rng.choice(alphabet, size=int(rng.integers(*size)))) for _ in range(count)]


def sentences(seed: int, n: int, length: tuple[int, int] = (6, 12)) -> list[str]:
    rng = np.random.default_rng(seed)
    vocabulary = words(rng, 300)
    return [" ".join(rng.choice(vocabulary, size=int(rng.integers(*length)))) + "." for _ in range(n)]


def chunked(texts: list[str], seed: int) -> tuple[list[str], list[tuple[int, int]]]:
    """Cut each text into 1-3 chunks of whole words; the gold (first chunk, chunk count) per text."""
    rng = np.random.default_rng(seed)
    chunks: list[str] = []
    gold: list[tuple[int, int]] = []
    for text in texts:
        tokens = text.split()
        k = int(rng.integers(1, 4))
        cuts = sorted(rng.choice(np.arange(1, len(tokens)), size=k - 1, replace=False).tolist())
        parts = [" ".join(tokens[a:b]) for a, b in zip([0] + cuts, cuts + [len(tokens)])]
        gold.append((len(chunks), len(parts)))
        chunks.extend(parts)
    return chunks, gold


def project_of(src: list[str], tgt: list[str], src_lang: str = "en", tgt_lang: str = "en", **kw: object) -> Project:
    return Project(source=Document.from_texts(src, src_lang), target=Document.from_texts(tgt, tgt_lang), **kw)  # type: ignore[arg-type]


def positions(project: Project, alignment: Alignment) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    return [
        (tuple(project.source.index_of(i) for i in b.src), tuple(project.target.index_of(j) for j in b.tgt))
        for b in alignment.beads
    ]


@pytest.fixture(autouse=True)
def _fresh_memo() -> None:
    clear_memo()


def test_pipeline_identical_documents_align_one_to_one() -> None:
    texts = sentences(1, 30)
    project = project_of(texts, texts)
    result = align_project(project, AlignParams(embedder="lexical"))
    assert positions(project, result.alignment) == [((i,), (i,)) for i in range(30)]
    assert all(b.status is BeadStatus.AUTO and b.cost is not None and b.cost < 0.2 for b in result.alignment.beads)
    assert result.similarity.shape == (30, 30) and result.similarity.dtype == np.float32
    assert result.alignment.embedder == "lexical"
    assert set(result.timings) == {"embedding", "aligning", "total"}


def test_pipeline_recovers_one_to_many_chunks() -> None:
    texts = sentences(2, 40)
    chunks, gold = chunked(texts, 3)
    project = project_of(texts, chunks)
    result = align_project(project, embedder=WORDS)
    expected = [((i,), tuple(range(first, first + count))) for i, (first, count) in enumerate(gold)]
    assert resolve_target_units(AlignParams(), 40, project.target) == "chunks"
    got = positions(project, result.alignment)
    assert sum(bead in got for bead in expected) >= 0.95 * len(expected)


def test_target_units_read_whether_the_segments_end_sentences() -> None:
    """Chunks: at least 1.5 times the source's segments, fewer than 60 % ending a sentence (as the sentence splitter
    decides it: not an abbreviation, not a trailing ellipsis)."""
    from sialign.core.model import Document, Segment

    def doc(texts: list[str], language: str) -> Document:
        return Document(language=language, segments=[Segment(id=i, text=t) for i, t in enumerate(texts)])

    chunks = ["大きなアイデアをみなさん残すことができるのであれば、", "消費するようなデータの全体というのは、", "部分の合計よりも大きいと。"]
    split = ["I did not leave that night.", "She admitted she had been wrong to slap me,", "“Why?” she asked.", "He stayed!"]
    trailing = ["And so we went on…", "to the market, Mr.", "and then.", "we saw it"]
    auto = AlignParams()
    assert resolve_target_units(auto, 10, doc(chunks * 10, "ja")) == "chunks"  # a third end a sentence
    assert resolve_target_units(auto, 10, doc(split * 10, "en")) == "sentences"  # a translation that splits sentences
    assert resolve_target_units(auto, 10, doc(chunks * 4, "ja")) == "sentences"  # too few segments to be chunks
    assert resolve_target_units(AlignParams(target_units="chunks"), 10, doc(split * 10, "en")) == "chunks"  # stated wins
    # An ellipsis and an abbreviation do not end a sentence: a quarter do, so these are chunks.
    assert resolve_target_units(auto, 10, doc(trailing * 10, "en")) == "chunks"


def test_a_written_translation_with_many_more_sentences_is_aligned_as_sentences() -> None:
    texts = sentences(2, 20)
    halves = [half.strip().rstrip(".") + "." for text in texts for half in (text[: len(text) // 2], text[len(text) // 2 :])]
    project = project_of(texts, halves)
    assert align_project(project, embedder=WORDS).alignment.info["target_units"] == "sentences"


@pytest.mark.parametrize(
    ("n_src", "n_tgt", "kinds"),
    [
        (0, 0, []),
        (3, 0, ["1-0"] * 3),
        (0, 2, ["0-1"] * 2),
    ],
)
def test_pipeline_empty_sides_give_dropped_skips(n_src: int, n_tgt: int, kinds: list[str]) -> None:
    project = project_of(sentences(4, n_src), sentences(4, n_tgt))
    result = align_project(project, embedder=WORDS)
    assert [b.kind for b in result.alignment.beads] == kinds
    assert all(b.status is BeadStatus.DROPPED and b.reason for b in result.alignment.beads)
    assert result.similarity.shape == (n_src, n_tgt)


def test_pipeline_one_line_documents() -> None:
    project = project_of(["The river is wide."], ["The river is wide"])
    beads = align_project(project, embedder=WORDS).alignment.beads
    assert [(b.src, b.tgt, b.status) for b in beads] == [((0,), (0,), BeadStatus.AUTO)]


def test_pipeline_reversed_documents_drop_most_beads() -> None:
    texts = sentences(5, 20)
    project = project_of(texts, texts[::-1])
    # One signal: the lexical mix of a shared script would see the shared vocabulary.
    result = align_project(project, AlignParams(lexical_weight=0.0), embedder=WORDS)
    result.alignment.validate(project.source, project.target)
    # A monotone alignment can pair at most one sentence with itself; every
    # other match bead pairs unrelated sentences and costs about as much as
    # random pairs (about 1), far above the near-0 of true pairs.
    matches = [b for b in result.alignment.beads if b.src and b.tgt]
    assert sum(b.cost is not None and b.cost < 0.3 for b in matches) <= 1
    assert np.mean([b.cost for b in matches]) > 0.8
    assert all(b.reason for b in result.alignment.beads if b.status is BeadStatus.DROPPED)


def test_pipeline_drop_threshold_marks_unrelated_beads() -> None:
    texts = sentences(6, 12)
    target = list(texts)
    target[5] = "Zwölf Boxkämpfer jagen Viktor quer über den großen Sylter Deich"  # something else entirely
    project = project_of(texts, target)
    beads = align_project(project, AlignParams(skip_penalty=5.0, drop_threshold=0.8), embedder=WORDS).alignment.beads
    bad = [b for b in beads if 5 in b.src]
    assert len(bad) == 1 and bad[0].status is BeadStatus.DROPPED
    assert "above the drop threshold 0.8" in bad[0].reason and bad[0].cost is not None and bad[0].cost > 0.8
    assert all(b.status is BeadStatus.AUTO for b in beads if 5 not in b.src)
    lenient = align_project(project, AlignParams(skip_penalty=5.0, drop_threshold=10.0), embedder=WORDS).alignment.beads
    assert [b for b in lenient if 5 in b.src][0].status is BeadStatus.AUTO


def test_pipeline_cancellation_is_checked_often() -> None:
    texts = sentences(7, 150)
    chunks, _ = chunked(texts, 8)
    project = project_of(texts, chunks)
    stamps: list[float] = []

    def never() -> bool:
        stamps.append(time.perf_counter())
        return False

    align_project(project, should_stop=never, embedder=WORDS)
    assert len(stamps) > 5
    assert max(np.diff(stamps)) < 1.0
    calls = []
    with pytest.raises(AlignmentCancelled):
        align_project(project, should_stop=lambda: calls.append(1) or len(calls) > 4, embedder=WORDS)


def test_pipeline_progress_is_monotone_with_stages() -> None:
    texts = sentences(9, 20)
    seen: list[tuple[float, str]] = []
    align_project(project_of(texts, texts), progress=lambda f, m: seen.append((f, m)), embedder=WORDS)
    fractions = [f for f, _ in seen]
    assert fractions == sorted(fractions) and fractions[-1] == pytest.approx(1.0)
    messages = " ".join(m for _, m in seen)
    assert "Embedding" in messages and "Aligning" in messages


def test_pipeline_time_prior_fixes_a_text_only_error() -> None:
    # The speaker thanks the audience, shows a half-minute video, and thanks
    # them again; the interpreter skipped the first thanks and rendered the
    # second one, a little more verbosely, so by text the rendering resembles
    # the FIRST thanks. Only its time (1.5 s after the second thanks, 31.5 s
    # after the first) says which.
    src = [
        "Thank you very much, everyone.",
        "Thank you.",
        "Water shapes every valley we know.",
        "Rivers carry the mountains to the sea.",
    ]
    tgt = [
        "Thank you very much, everyone",
        "Water shapes every valley we know",
        "Rivers carry the mountains to the sea",
    ]
    src_times = [(0.0, 1.5), (30.0, 31.0), (32.0, 35.0), (36.0, 39.0)]
    tgt_times = [(31.5, 32.5), (33.0, 36.0), (37.5, 40.0)]
    project = Project(
        source=Document.from_texts(src, "en", times=src_times),
        target=Document.from_texts(tgt, "en", times=tgt_times),
    )
    text_only = positions(project, align_project(project, AlignParams(time_prior=False), embedder=WORDS).alignment)
    timed_result = align_project(project, AlignParams(time_prior=True), embedder=WORDS)
    timed = positions(project, timed_result.alignment)
    # the text-only error: the rendering goes with the first thanks
    assert ((1,), (0,)) not in text_only and any(0 in s and 0 in t for s, t in text_only)
    assert ((0,), ()) in timed and ((1,), (0,)) in timed  # fixed by the ear-voice span
    assert timed_result.alignment.info["time_prior"] is True


def kana_sentences(seed: int, n: int) -> list[list[str]]:
    rng = np.random.default_rng(seed)
    vocabulary = words(rng, 200, KANA, (2, 5))
    return [["".join(rng.choice(vocabulary, size=3)) + "、" for _ in range(int(rng.integers(1, 4)))] for _ in range(n)]


def test_pipeline_pivot_aligns_through_the_reference() -> None:
    clauses = kana_sentences(10, 25)
    reference = ["".join(c)[:-1] + "。" for c in clauses]
    chunks = [clause for c in clauses for clause in c]
    firsts = np.cumsum([0] + [len(c) for c in clauses])
    source = sentences(11, 25)  # English: no script shared with the Japanese target
    project = project_of(source, chunks, "en", "ja", reference=Document.from_texts(reference, "ja"))
    expected = [((i,), tuple(range(firsts[i], firsts[i + 1]))) for i in range(25)]
    pivot = align_project(project, AlignParams(pivot_embedder="main"), embedder=WORDS)
    assert pivot.alignment.embedder == "words (pivot through the reference translation)"
    got = positions(project, pivot.alignment)
    assert sum(bead in got for bead in expected) >= 0.9 * len(expected)
    direct = positions(project, align_project(project, AlignParams(pivot=False), embedder=WORDS).alignment)
    assert sum(bead in direct for bead in expected) < 0.5 * len(expected)
    # Mixing needs an embedder that compares English with Japanese; this one
    # cannot (no shared words), so the pivot alone decides and says so.
    mixed = align_project(project, AlignParams(pivot_weight=0.7, pivot_embedder="main"), embedder=WORDS)
    assert [s["name"] for s in mixed.alignment.info["signals"]] == ["pivot"]
    assert "pivot alone" in mixed.alignment.info["pivot_note"]


def test_pipeline_pivot_reference_must_match_source() -> None:
    project = project_of(["One.", "Two."], ["いち", "に"], "en", "ja", reference=Document.from_texts(["いち"], "ja"))
    with pytest.raises(SialignError, match="one reference line per source segment"):
        align_project(project, embedder=WORDS)


def test_pipeline_keeps_confirmed_beads_as_anchors() -> None:
    texts = sentences(12, 20)
    chunks, gold = chunked(texts, 13)
    project = project_of(texts, chunks)
    first = align_project(project, embedder=WORDS).alignment
    project.alignment = first
    # The reviewer confirms a bead the aligner would never make: source 10
    # with the first chunk of source 11.
    start = gold[10][0]
    stop = gold[11][0] + 1
    src_ids = project.source.ids()
    tgt_ids = project.target.ids()
    before = [b for b in first.beads if b.src and b.src[-1] < src_ids[10] and (not b.tgt or b.tgt[-1] < tgt_ids[start])]
    after = [b for b in first.beads if b.src and b.src[0] > src_ids[10] and b.tgt and b.tgt[0] >= tgt_ids[stop]]
    if len(before) + len(after) + 1 != len(first.beads):
        # rebuild the alignment around the confirmed bead from scratch
        pass
    from sialign.core.model import Bead

    anchor = Bead(src=(src_ids[10],), tgt=tuple(tgt_ids[start:stop]), status=BeadStatus.CONFIRMED, note="checked")
    tail_src = src_ids[11:]
    tail_tgt = tgt_ids[stop:]
    project.alignment = Alignment(
        beads=[Bead(src=tuple(src_ids[:10]), tgt=tuple(tgt_ids[:start]))]
        + [anchor]
        + [Bead(src=tuple(tail_src), tgt=tuple(tail_tgt))]
    )
    project.alignment.validate(project.source, project.target)
    kept = align_project(project, embedder=WORDS).alignment
    confirmed = [b for b in kept.beads if b.status is BeadStatus.CONFIRMED]
    assert confirmed == [anchor]
    assert kept.info["anchors"] == 1
    # the gaps were re-aligned: the beads before the anchor are the automatic ones
    head = positions(project, Alignment(beads=kept.beads[: kept.beads.index(anchor)]))
    assert head == [((i,), tuple(range(f, f + c))) for i, (f, c) in enumerate(gold[:10])]
    replaced = align_project(project, keep_confirmed=False, embedder=WORDS).alignment
    assert not [b for b in replaced.beads if b.status is BeadStatus.CONFIRMED]


def test_pipeline_segment_method_gives_every_source_a_span() -> None:
    texts = sentences(14, 15)
    chunks, gold = chunked(texts, 15)
    project = project_of(texts, chunks)
    beads = align_project(project, AlignParams(method="segment"), embedder=WORDS).alignment.beads
    assert [len(b.src) for b in beads] == [1] * 15
    assert positions(project, Alignment(beads=beads)) == [((i,), tuple(range(f, f + c))) for i, (f, c) in enumerate(gold)]


def test_pipeline_exact_candidates_match_fast_on_clean_input() -> None:
    texts = sentences(16, 15)
    chunks, gold = chunked(texts, 17)
    project = project_of(texts, chunks)
    # Exact concatenations of a bag of words match perfectly at any size;
    # without the length term only the tie-breaking merge cost decides.
    fast = positions(project, align_project(project, AlignParams(candidates="fast", length_weight=0.0), embedder=WORDS).alignment)
    exact = positions(project, align_project(project, AlignParams(candidates="exact", length_weight=0.0), embedder=WORDS).alignment)
    expected = [((i,), tuple(range(f, f + c))) for i, (f, c) in enumerate(gold)]
    assert fast == expected
    assert exact == expected


def test_pipeline_never_sees_unknown_modes() -> None:
    # AlignParams refuses them when made (tests/core/test_params.py), before any aligner runs.
    with pytest.raises(SialignError, match="method"):
        AlignParams(method="magic")  # type: ignore[arg-type]
    with pytest.raises(SialignError, match="target_units"):
        AlignParams(target_units="words")  # type: ignore[arg-type]


def test_pipeline_realign_reuses_vectors() -> None:
    texts = sentences(18, 60)
    chunks, _ = chunked(texts, 19)
    project = project_of(texts, chunks)
    encoded: list[int] = []

    class CountingEmbedder(WordEmbedder):
        def encode(self, texts, **kw):  # type: ignore[no-untyped-def, override]
            encoded.append(len(texts))
            return super().encode(texts, **kw)

    embedder = CountingEmbedder()
    distinct = len(set(texts) | set(chunks))  # a chunk holding a whole sentence is the same text
    first_pass = AlignParams(learned_score=False)
    align_project(project, first_pass, embedder=embedder)
    assert sum(encoded) == distinct
    align_project(project, AlignParams(max_tgt=6, skip_penalty=1.5, learned_score=False), embedder=embedder)
    assert sum(encoded) == distinct, "unchanged texts must not be re-encoded"
    project.target.segments[0].text += " extra"
    align_project(project, first_pass, embedder=embedder)
    # The on-disk cache holds every other text: only the edited one is new.
    assert sum(encoded) == distinct + 1
    # The learned second pass encodes runs of segments once; aligning again encodes nothing.
    align_project(project, embedder=embedder)
    with_runs = sum(encoded)
    assert with_runs > distinct + 1
    align_project(project, AlignParams(skip_penalty=1.5), embedder=embedder)
    assert sum(encoded) == with_runs


def _pivot_talk_without(omitted: set[int], n: int = 25) -> tuple[Project, list[tuple[tuple[int, ...], tuple[int, ...]]]]:
    """A pivot talk whose interpretation leaves out the sentences ``omitted``; the gold beads."""
    clauses = kana_sentences(10, n)
    reference = ["".join(c)[:-1] + "。" for c in clauses]
    chunks: list[str] = []
    gold: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    for i, c in enumerate(clauses):
        rendered = [] if i in omitted else c
        gold.append(((i,), tuple(range(len(chunks), len(chunks) + len(rendered)))))
        chunks.extend(rendered)
    project = project_of(sentences(11, n), chunks, "en", "ja", reference=Document.from_texts(reference, "ja"))
    return project, gold


@pytest.mark.parametrize("omitted", [{12}, {3, 17}, {0}, {24}])
def test_pipeline_omitted_sentence_becomes_a_one_zero_bead(omitted: set[int]) -> None:
    project, gold = _pivot_talk_without(omitted)
    result = align_project(project, AlignParams(pivot_embedder="main"), embedder=WORDS)
    got = positions(project, result.alignment)
    one_zero = [b for b in result.alignment.beads if b.src and not b.tgt]
    assert {project.source.index_of(b.src[0]) for b in one_zero} == omitted
    assert all(b.status is BeadStatus.DROPPED and "omission" in b.reason for b in one_zero)
    # the rendered neighbours keep exactly their own chunks
    assert sum(bead in got for bead in gold) >= len(gold) - 1
    for i in omitted:
        for k in (i - 1, i + 1):
            if 0 <= k < len(gold):
                assert gold[k] in got


def test_pipeline_omission_cost_equal_to_chunk_skip_hides_the_omission() -> None:
    # What the 1-0 cost changed: at the 0-1 cost (2) the omitted sentence is
    # paired with a neighbour's chunk or joins its bead instead.
    project, _ = _pivot_talk_without({12})
    result = align_project(project, AlignParams(pivot_embedder="main", omission_skip=2.0), embedder=WORDS)
    assert not any(b.src and not b.tgt for b in result.alignment.beads)


def test_pipeline_rendered_sentences_are_not_split_off() -> None:
    project, gold = _pivot_talk_without(set(), n=40)
    result = align_project(project, AlignParams(pivot_embedder="main"), embedder=WORDS)
    assert not any(b.src and not b.tgt for b in result.alignment.beads)
    got = positions(project, result.alignment)
    assert sum(bead in got for bead in gold) >= 0.9 * len(gold)


@pytest.mark.parametrize("with_reference", [False, True])
def test_similarity_grid_without_aligning_equals_the_runs(with_reference: bool) -> None:
    """Opening a project recomputes the matrix colours: the same values an alignment run shows."""
    from sialign.align.pipeline import similarity_grid

    src = sentences(3, 12)
    tgt, _gold = chunked(src, 4)
    reference = Document.from_texts(src, "en") if with_reference else None
    project = project_of(src, tgt, reference=reference)
    params = AlignParams(embedder="lexical", pivot=with_reference, pivot_weight=0.5)
    result = align_project(project, params)
    project.alignment = result.alignment
    clear_memo()
    grid = similarity_grid(project, params, embedder_spec=result.alignment.info["embedder_spec"])
    assert grid.src_ids == project.source.ids() and grid.tgt_ids == project.target.ids()
    assert grid.values.shape == result.similarity.shape
    np.testing.assert_allclose(grid.values, result.similarity, atol=1e-6)
    assert float(np.abs(grid.values).sum()) > 0
