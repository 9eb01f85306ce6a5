"""The learned second pass: shipped weights load, omissions become 1-0 beads, and it can be turned off."""

from __future__ import annotations

import json

import numpy as np
import pytest

from sialign.align import learned_pass
from sialign.align.learned_pass import SKIP_FEATURES, BeadScoreWeights, match_features, shipped_weights
from sialign.align.pipeline import align_project
from sialign.core.model import Document, Project
from sialign.core.params import AlignParams

SOURCE = [
    "The committee met in Brussels on Monday to discuss the budget.",
    "Farmers in the south have suffered from the drought for three years.",
    "We need a common policy on water that protects the rivers.",
    "My grandmother always said that patience is the key to every door.",
    "The Commission must present its proposal before the end of the year.",
    "I thank the rapporteur for her excellent work on this report.",
]
# The interpreter leaves the fourth sentence out.
TARGET = [
    "Le comité s'est réuni lundi à Bruxelles pour discuter du budget.",
    "Les agriculteurs du sud souffrent de la sécheresse depuis trois ans.",
    "Il nous faut une politique commune de l'eau qui protège les rivières.",
    "La Commission doit présenter sa proposition avant la fin de l'année.",
    "Je remercie la rapporteure pour son excellent travail sur ce rapport.",
]


@pytest.mark.parametrize("units", ["sentences", "chunks"])
def test_learned_pass_shipped_weights_load_with_every_feature(units) -> None:
    weights = shipped_weights(units)
    assert weights is not None
    assert weights.match.shape == (len(match_features(units)),)
    assert weights.omission.shape == weights.addition.shape == (len(SKIP_FEATURES),)
    # Better similarity means more likely right: the fitted signs say so.
    data = json.loads(learned_pass.WEIGHTS_FILE.read_text(encoding="utf-8"))[units]
    assert data["match"]["cos"] + data["match"]["margin"] > 0 and data["omission"]["best_cos"] < 0
    assert ("EPTIC" if units == "sentences" else "AHC-SI") in data["fitted_on"]
    assert BeadScoreWeights.from_dict(weights.to_dict(), units).to_dict() == weights.to_dict()


def test_learned_pass_finds_an_unrendered_sentence() -> None:
    project = Project(source=Document.from_texts(SOURCE, "en"), target=Document.from_texts(TARGET, "fr"))
    on = align_project(project, AlignParams(embedder="use-multilingual", target_units="sentences")).alignment
    shapes = [(bead.src, bead.tgt) for bead in on.beads]
    assert ((3,), ()) in shapes
    assert [(s, t) for s, t in shapes if s and t] == [((0,), (0,)), ((1,), (1,)), ((2,), (2,)), ((4,), (3,)), ((5,), (4,))]


def test_the_pipeline_hands_the_second_pass_each_segments_shared_words(monkeypatch) -> None:
    seen: list[tuple] = []
    original = learned_pass.refine

    def spy(*args, **kwargs):
        seen.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(learned_pass, "refine", spy)
    project = Project(source=Document.from_texts(SOURCE, "en"), target=Document.from_texts(TARGET, "fr"))
    align_project(project, AlignParams(embedder="use-multilingual", target_units="sentences"))
    assert len(seen) == 1
    src_words, tgt_words = seen[0][11]  # after the weight set, the stop and the typical cosine
    assert list(src_words) == [learned_pass.shared_words(t) for t in SOURCE]
    assert list(tgt_words) == [learned_pass.shared_words(t) for t in TARGET]
    assert "brussels" in src_words[0] and "bruxelles" in tgt_words[0]
    # A written translation (auto takes this pair for one) also hands on the names that join beads.
    src_names, tgt_names = seen[0][12]
    assert list(src_names) == [learned_pass.shared_names(t) for t in SOURCE]
    assert list(tgt_names) == [learned_pass.shared_names(t) for t in TARGET]
    assert "brussels" in src_names[0] and "committee" not in src_names[0]
    # An interpretation does not.
    seen.clear()
    align_project(project, AlignParams(embedder="use-multilingual", target_units="sentences", text_kind="interpretation"))
    assert len(seen) == 1 and seen[0][12] is None


def test_learned_pass_can_be_turned_off(monkeypatch) -> None:
    calls: list[int] = []
    original = learned_pass.refine

    def counting(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(learned_pass, "refine", counting)
    project = Project(source=Document.from_texts(SOURCE, "en"), target=Document.from_texts(TARGET, "fr"))
    align_project(project, AlignParams(embedder="use-multilingual", target_units="sentences", learned_score=False))
    assert not calls
    align_project(project, AlignParams(embedder="use-multilingual", target_units="sentences"))
    assert calls
    # Chunked interpretations have weights of their own.
    calls.clear()
    align_project(project, AlignParams(embedder="use-multilingual", target_units="chunks"))
    assert calls
    # The lexical embedder keeps the first pass.
    calls.clear()
    align_project(project, AlignParams(embedder="lexical", target_units="sentences"))
    assert not calls


def test_learned_pass_chunks_keep_the_first_pass_omissions(monkeypatch) -> None:
    """Chunked talks make no omission of their own (their dev gold has none to learn from) and keep the first pass's."""
    from sialign.align import pipeline

    seen: list[tuple[list, list]] = []
    original = learned_pass.second_pass

    def spy(first, src, tgt, sc, tc, path, *args, **kwargs):
        out = original(first, src, tgt, sc, tc, path, *args, **kwargs)
        seen.append((path, out))
        return out

    monkeypatch.setattr(learned_pass, "second_pass", spy)
    source = SOURCE[:3] + SOURCE[4:]
    target = [piece for text in TARGET for piece in text.replace(", ", ",|").split("|")]
    project = Project(source=Document.from_texts(SOURCE, "en"), target=Document.from_texts(target, "fr"))
    pipeline.align_project(project, AlignParams(embedder="use-multilingual", target_units="chunks"))
    assert seen and source
    first, second = seen[0]
    first_omitted = {i for i0, a, _, b in first if b == 0 for i in range(i0, i0 + a)}
    second_omitted = {i for i0, a, _, b in second if b == 0 for i in range(i0, i0 + a)}
    assert second_omitted == first_omitted


def test_learned_pass_never_changes_the_covered_segments() -> None:
    rng = np.random.default_rng(3)
    src = [SOURCE[k] for k in rng.integers(0, len(SOURCE), size=12)]
    tgt = [TARGET[k] for k in rng.integers(0, len(TARGET), size=9)]
    project = Project(source=Document.from_texts(src, "en"), target=Document.from_texts(tgt, "fr"))
    beads = align_project(project, AlignParams(embedder="use-multilingual", target_units="sentences")).alignment.beads
    assert [i for b in beads for i in b.src] == list(range(12))
    assert [j for b in beads for j in b.tgt] == list(range(9))


def test_learned_pass_stops_when_asked() -> None:
    """Cancelling an alignment stops the second pass too (its DP checks the stop flag)."""
    from sialign.core.errors import AlignmentCancelled

    project = Project(source=Document.from_texts(SOURCE * 20, "en"), target=Document.from_texts(TARGET * 20, "fr"))
    calls = {"n": 0}
    original = learned_pass.banded_dp

    def stop() -> bool:
        return calls["n"] > 0

    def counting(*args, **kwargs):
        calls["n"] += 1
        return original(*args, **kwargs)

    learned_pass.banded_dp = counting  # type: ignore[assignment]
    try:
        with pytest.raises(AlignmentCancelled):
            align_project(project, AlignParams(embedder="use-multilingual", target_units="sentences"), should_stop=stop)
    finally:
        learned_pass.banded_dp = original  # type: ignore[assignment]
    assert calls["n"] == 1


def test_every_bead_carries_the_learned_confidence_and_an_edit_clears_it(tmp_path) -> None:
    from sialign.core.bead_edits import MergeBeads
    from sialign.core.edits import apply_edit
    from sialign.io.project_file import load_project, save_project

    project = Project(source=Document.from_texts(SOURCE, "en"), target=Document.from_texts(TARGET, "fr"))
    alignment = align_project(project, AlignParams(embedder="use-multilingual", target_units="sentences")).alignment
    confidences = [bead.confidence for bead in alignment.beads]
    assert all(c is not None and 0.0 <= c <= 1.0 for c in confidences), confidences
    # The five clean 1-1 beads are likely right; an omission is never as sure (on EPTIC dev
    # about half the 1-0 beads of the paths are right, and the calibration says so).
    matched = [c for bead, c in zip(alignment.beads, confidences) if bead.src and bead.tgt]
    omitted = [c for bead, c in zip(alignment.beads, confidences) if not bead.tgt]
    assert len(matched) == 5 and min(matched) > 0.8
    assert len(omitted) == 1 and omitted[0] < min(matched)
    # The first pass alone has no learned score to give.
    first = align_project(project, AlignParams(embedder="use-multilingual", target_units="sentences", learned_score=False))
    assert all(bead.confidence is None for bead in first.alignment.beads)
    # Kept by the project file; cleared (like the cost) on the beads a reviewer merges.
    project.alignment = alignment
    save_project(project, tmp_path / "talk.sialign")
    again = load_project(tmp_path / "talk.sialign")
    assert [b.confidence for b in again.alignment.beads] == confidences
    apply_edit(again, MergeBeads(0))
    assert again.alignment.beads[0].confidence is None and again.alignment.beads[0].cost is None
    assert [b.confidence for b in again.alignment.beads[1:]] == confidences[2:]


def test_calibration_maps_log_odds_to_the_shown_probability() -> None:
    weights = shipped_weights("sentences")
    assert weights is not None and set(weights.calibration) == {"bead", "skip"}
    raw = BeadScoreWeights.from_dict({**weights.to_dict(), "calibration": {}}, "sentences")
    assert raw.calibrated(0.0, False) == pytest.approx(0.5)  # no calibration: the logistic itself
    a, b = weights.calibration["bead"]
    assert weights.calibrated(-2.0, False) == pytest.approx(1 / (1 + np.exp(-(a * -2.0 + b))))
    # Monotone: a higher score is never shown as less likely right, in any shipped set, beads and skips.
    for name in learned_pass.WEIGHT_SETS:
        shipped = shipped_weights(name)
        assert shipped is not None
        for skip in (False, True):
            values = [shipped.calibrated(x, skip) for x in np.linspace(-10, 10, 21)]
            assert values == sorted(values), (name, skip)


def test_bertalign_base_with_no_learned_weight_ignores_the_learned_models(monkeypatch) -> None:
    """On Bertalign's base the learned part only adjusts: at weight 0 the path is Bertalign's score alone."""
    from dataclasses import replace

    seen: list[tuple] = []
    original = learned_pass.second_pass

    def spy(first, src, tgt, sc, tc, path, weights, *args, **kwargs):
        seen.append((first, src, tgt, sc, tc, path, args))
        return original(first, src, tgt, sc, tc, path, weights, *args, **kwargs)

    monkeypatch.setattr(learned_pass, "second_pass", spy)
    project = Project(source=Document.from_texts(SOURCE, "en"), target=Document.from_texts(TARGET, "fr"))
    align_project(project, AlignParams(embedder="use-multilingual", target_units="sentences"))
    first, src, tgt, sc, tc, path, args = seen[0]
    shipped = shipped_weights("sentences")
    assert shipped is not None
    # The vote as the interpretation set holds it (the first pass's path followed, the learned 1-0 beads kept),
    # so that the learned part can show.
    base = replace(shipped, base="bertalign", learned_weight=0.0, vote_follows="first", keep_learned_omissions=True)
    scrambled = replace(base, match=-shipped.match, omission=-shipped.omission, addition=-shipped.addition)
    on_base = original(first, src, tgt, sc, tc, path, base, *args)
    assert original(first, src, tgt, sc, tc, path, scrambled, *args) == on_base
    # Bertalign's score: the clean 1-1 beads win, and the unrendered sentence costs the skip.
    assert [(i0, a, j0, b) for i0, a, j0, b in on_base if a and b] == [(0, 1, 0, 1), (1, 1, 1, 1), (2, 1, 2, 1), (4, 1, 3, 1), (5, 1, 4, 1)]
    # With the learned part on, the scrambled models change the path.
    assert original(first, src, tgt, sc, tc, path, replace(scrambled, learned_weight=1.0), *args) != on_base
    assert BeadScoreWeights.from_dict(base.to_dict(), "sentences").to_dict() == base.to_dict()



class _IndexEmbedder:
    """Vectors that know the translation: a text of words ``w12 w13`` gets the normalised sum of
    base vectors 12 and 13, and source and target segment k are both ``wk``."""

    name = "index-vectors"
    dim = 32
    cache_id = ""
    cacheable = False

    def __init__(self, count: int) -> None:
        rng = np.random.default_rng(0)
        base = rng.normal(size=(count, self.dim)).astype(np.float32)
        self.base = base / np.linalg.norm(base, axis=1, keepdims=True)

    def fit(self, texts, **_) -> None:  # type: ignore[no-untyped-def]
        pass

    def encode(self, texts, *, progress=None, should_stop=None) -> np.ndarray:  # type: ignore[no-untyped-def]
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in text.split():
                out[row] += self.base[int(word[1:])]
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms > 0, norms, 1.0)


def _numbered_book(count: int) -> Project:
    texts = [f"w{k}" for k in range(count)]
    return Project(source=Document.from_texts(texts, "de"), target=Document.from_texts(texts, "fr"))


def test_learned_pass_runs_on_books_above_the_old_4000_segment_limit() -> None:
    """A 2,100 × 2,100 book (4,200 segments) gets the second pass: every bead carries its confidence."""
    count = 2100
    project = _numbered_book(count)
    result = align_project(project, AlignParams(target_units="sentences"), embedder=_IndexEmbedder(count), keep_scoring=True)
    beads = result.alignment.beads
    assert result.scoring is not None and result.scoring.src_spans.shape[:2] == (4, count)
    assert [(b.src, b.tgt) for b in beads] == [((k,), (k,)) for k in range(count)]
    assert all(b.confidence is not None for b in beads)


def test_learned_pass_safety_limit_names_the_memory_it_would_take(monkeypatch, caplog) -> None:
    """Above LEARNED_PASS_MAX_MB the first pass's path is kept and the log says why, in megabytes."""
    import logging

    from sialign.align import pipeline

    count = 300
    megabytes = pipeline.learned_pass_megabytes(count, count, "sentences", _IndexEmbedder.dim)
    assert megabytes == pytest.approx(2 * 8 * count * 32 * 4 / 2**20)
    monkeypatch.setattr(pipeline, "LEARNED_PASS_MAX_MB", megabytes * 0.99)
    with caplog.at_level(logging.INFO, logger="sialign.align.pipeline"):
        result = align_project(_numbered_book(count), AlignParams(target_units="sentences"),
                               embedder=_IndexEmbedder(count), keep_scoring=True)
    assert result.scoring is None and all(b.confidence is None for b in result.alignment.beads)
    assert any("second pass skipped" in r.getMessage() and f"{megabytes:.0f} MB" in r.getMessage() for r in caplog.records)
    monkeypatch.setattr(pipeline, "LEARNED_PASS_MAX_MB", megabytes * 1.01)
    result = align_project(_numbered_book(count), AlignParams(target_units="sentences"),
                           embedder=_IndexEmbedder(count), keep_scoring=True)
    assert result.scoring is not None


def _window(n: int, m: int, seed: int):  # type: ignore[no-untyped-def]
    """Run vectors, lengths and first-pass costs of a random n × m pair whose target follows the source."""
    from sialign.align.costs import BeadCostModel, CostSettings, Signal
    from sialign.align.dp import WindowCosts
    from sialign.embed.candidates import candidate_vectors

    rng = np.random.default_rng(seed)
    src = rng.normal(size=(n, 24)).astype(np.float32)
    tgt = src[np.minimum((np.arange(m) * n) // m, n - 1)] + 0.8 * rng.normal(size=(m, 24)).astype(np.float32)
    src /= np.linalg.norm(src, axis=1, keepdims=True)
    tgt /= np.linalg.norm(tgt, axis=1, keepdims=True)
    src_spans, tgt_spans = candidate_vectors(src, 4), candidate_vectors(tgt, 4)
    chars = rng.integers(20, 120, size=n).astype(np.float64), rng.integers(20, 120, size=m).astype(np.float64)
    model = BeadCostModel([Signal(src, tgt, 1.0, src_spans, tgt_spans)], 4, 4, CostSettings(), None, None, *chars)
    return src_spans, tgt_spans, chars, WindowCosts(model, 0, n, 0, m)


def test_learned_pass_cosine_tables_give_the_dot_products(monkeypatch) -> None:
    """The cosines the DP reads from one matrix product per block equal one dot product per pair,
    and so does the second pass's path; the typical cosine, taken in blocks, equals the whole matrix's."""
    from sialign.align.dp import align_window

    src_spans, tgt_spans, chars, first = _window(400, 470, 5)
    path = align_window(first.model, 0, 400, 0, 470).beads
    weights = shipped_weights("sentences")
    assert weights is not None

    def run() -> tuple[list, np.ndarray]:
        features = learned_pass.BeadFeatures(src_spans, tgt_spans, *chars, first)
        i = np.arange(100, 164)[:, None] + np.zeros((1, 30), dtype=np.int64)
        j = np.clip(i * 470 // 400 - 15 + np.arange(30)[None, :], 0, 470)
        values = np.stack([features.match(a, b, i, j, np.zeros(i.shape)) for a in (1, 2, 4) for b in (1, 3)])
        path2 = learned_pass.second_pass(first, src_spans, tgt_spans, *chars, path, weights, 4, 4, features=features)
        return path2, values

    tables: list[tuple[int, int]] = []
    lookup = learned_pass.BeadFeatures._table_lookup

    def spy(self, a, b, si, tj):  # type: ignore[no-untyped-def]
        out = lookup(self, a, b, si, tj)
        if out is not None:
            tables.append((a, b))
        return out

    monkeypatch.setattr(learned_pass.BeadFeatures, "_table_lookup", spy)
    with_tables = run()
    assert tables
    monkeypatch.setattr(learned_pass, "TABLE_MIN_CELLS", 10**9)
    without = run()
    assert with_tables[0] == without[0]
    assert np.allclose(with_tables[1], without[1], atol=1e-5, equal_nan=True)
    best = np.max(src_spans[0] @ tgt_spans[0].T, axis=1)
    assert learned_pass.typical_cosine(src_spans[0], tgt_spans[0], block=7) == pytest.approx(float(np.median(best)), abs=1e-6)


def test_learned_pass_and_first_pass_share_one_encoder_pass(monkeypatch) -> None:
    """From an empty vector cache, the pass over each document that gives the second pass its runs also
    gives the first pass its sentences' vectors (through the cache): no sentence is encoded on its own."""
    from sialign.embed.multilingual import MultilingualEncoder
    from sialign.embed.pairs import clear_memo

    clear_memo()
    seen: list[str] = []
    original = MultilingualEncoder.encode

    def counting(self, texts, **kw):  # type: ignore[no-untyped-def]
        seen.extend(texts)
        return original(self, texts, **kw)

    monkeypatch.setattr(MultilingualEncoder, "encode", counting)
    project = Project(source=Document.from_texts(SOURCE, "en"), target=Document.from_texts(TARGET, "fr"))
    beads = align_project(project, AlignParams(embedder="use-multilingual", target_units="sentences")).alignment.beads
    assert all(b.confidence is not None for b in beads)
    assert not (set(SOURCE) | set(TARGET)) & set(seen)


def test_learned_pass_runs_are_read_in_the_embedding_stage_with_progress() -> None:
    """The second pass's encoder pass reports its progress inside the embedding stage, in order."""
    from sialign.embed.pairs import clear_memo

    clear_memo()
    seen: list[tuple[float, str]] = []
    project = Project(source=Document.from_texts(SOURCE * 3, "en"), target=Document.from_texts(TARGET * 3, "fr"))
    align_project(project, AlignParams(embedder="use-multilingual", target_units="sentences"),
                  progress=lambda f, m: seen.append((f, m)))
    fractions = [f for f, _ in seen]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    runs = [f for f, m in seen if m.startswith("Embedding runs")]
    assert runs and max(runs) <= 0.5


def test_learned_pass_reads_a_document_once_and_after_an_edit_only_what_changed(monkeypatch) -> None:
    """A first alignment puts each document's runs together in one pass (encode_runs); re-aligning after one
    sentence changed encodes only the runs that hold it, whole, without reading the documents again."""
    from sialign.embed.multilingual import MultilingualEncoder
    from sialign.embed.pairs import clear_memo

    clear_memo()
    calls: list[str] = []
    whole: list[str] = []
    encode, encode_runs = MultilingualEncoder.encode, MultilingualEncoder.encode_runs

    def counting_encode(self, texts, **kw):  # type: ignore[no-untyped-def]
        whole.extend(texts)
        return encode(self, texts, **kw)

    def counting_runs(self, texts, *args, **kw):  # type: ignore[no-untyped-def]
        calls.append(texts[0])
        return encode_runs(self, texts, *args, **kw)

    monkeypatch.setattr(MultilingualEncoder, "encode", counting_encode)
    monkeypatch.setattr(MultilingualEncoder, "encode_runs", counting_runs)
    source = SOURCE * 30
    params = AlignParams(embedder="use-multilingual", target_units="sentences")
    align_project(Project(source=Document.from_texts(source, "en"), target=Document.from_texts(TARGET * 30, "fr")), params)
    assert len(calls) == 2
    calls.clear()
    whole.clear()
    edited = [*source[:10], "The farmers asked the committee for help with the drought.", *source[11:]]
    align_project(Project(source=Document.from_texts(edited, "en"), target=Document.from_texts(TARGET * 30, "fr")), params)
    assert not calls
    assert whole and all("help with the drought" in text for text in whole) and len(whole) <= 10


def test_a_constant_calibration_is_explained_as_the_share_right() -> None:
    """Where the training paths' skips were not more often right the higher they scored, every one is shown
    the share right: ``sialign explain`` says so instead of "calibrated from the score"."""
    from sialign.align.explain import BeadExplanation

    weights = shipped_weights("sentences")
    assert weights is not None
    flat = BeadScoreWeights.from_dict({**weights.to_dict(), "calibration": {"bead": [0.4, 1.9], "skip": [0.0, -0.3]}}, "sentences")
    assert flat.shown_by_score(False) and not flat.shown_by_score(True)
    assert flat.calibrated(-5.0, True) == flat.calibrated(5.0, True) == pytest.approx(1 / (1 + np.exp(0.3)))
    assert BeadScoreWeights.from_dict({**weights.to_dict(), "calibration": {}}, "sentences").shown_by_score(True)
    said = BeadExplanation(0, "1-0", "omission", -1.2, calibrated=0.43, flat=True).lines()
    assert said[0] == "bead 1 (1-0): P(a sentence left unrendered) = 0.43 (score -1.20, the sum of the lines below)"
    assert said[1] == "  (0.43 is the share of such beads right on the training talks, whatever their score)"
    graded = BeadExplanation(0, "1-0", "omission", -1.2, calibrated=0.43).lines()
    assert "calibrated from the score -1.20" in graded[0] and "share" not in " ".join(graded)
