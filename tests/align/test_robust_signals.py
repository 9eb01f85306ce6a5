"""Signals that must not make an alignment worse: timestamps of offset recordings, imperfect references, junk lines."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sialign.align.costs import BeadCostModel, CostSettings, Signal
from sialign.align.pipeline import align_project, peel_unrendered, reference_trust, word_skip_scale
from sialign.core.model import Document, Project
from sialign.core.params import AlignParams
from sialign.embed.pairs import clear_memo
from sialign.evaluate import alignment_positions, bead_f1, read_beads

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


@pytest.fixture(autouse=True)
def _fresh_memo() -> None:
    clear_memo()


def example(offset: float = 0.0, *, reference: bool = True) -> Project:
    from sialign.workflows.talks import load_example

    project = load_example(EXAMPLES)
    if not reference:
        project.reference = None
    for segment in project.target.segments:
        segment.start = None if segment.start is None else segment.start + offset
        segment.end = None if segment.end is None else segment.end + offset
    return project


def strict_f1(project: Project, params: AlignParams) -> tuple[float, dict]:
    result = align_project(project, params)
    hyp = alignment_positions(result.alignment, project.source, project.target)
    return bead_f1(hyp, read_beads(EXAMPLES / "talk.gold.align"))["f1_strict"], result.alignment.info


@pytest.mark.parametrize("offset", [-30.0, 60.0, 300.0])
def test_pipeline_offset_recordings_are_dated_before_the_time_prior(offset: float) -> None:
    text_only, _ = strict_f1(example(offset, reference=False), AlignParams(time_prior=False))
    timed, info = strict_f1(example(offset, reference=False), AlignParams(time_prior=True))
    lag = info["lag"]
    assert lag["used"] and info["time_prior"]
    assert lag["median"] == pytest.approx(offset + 2.8, abs=1.0)
    assert lag["evs_min"] <= lag["median"] <= lag["evs_max"]
    assert "moved by" in lag["note"]
    assert timed >= text_only


def test_pipeline_timestamps_that_disagree_with_the_text_turn_the_prior_off() -> None:
    project = example(reference=False)
    rng = np.random.default_rng(1)
    starts = rng.uniform(0, 160, size=len(project.target))
    for segment, start in zip(project.target.segments, np.sort(starts)[rng.permutation(len(starts))]):
        segment.start, segment.end = float(start), float(start) + 1.0
    _, info = strict_f1(project, AlignParams(time_prior=True))
    assert info["lag"]["used"] is False and info["time_prior"] is False
    assert "disagree" in info["lag"]["note"]


def test_pipeline_time_prior_on_a_clean_talk_keeps_the_configured_window() -> None:
    _, info = strict_f1(example(), AlignParams())
    lag = info["lag"]
    assert lag["used"] and lag["offset"] == 0.0
    assert lag["evs_min"] <= -1.0 and lag["evs_max"] >= 10.0


def test_pipeline_reference_trust_marks_blank_and_shifted_lines() -> None:
    from sialign.embed.multilingual import MultilingualEncoder

    english = [
        "The weather is nice today.",
        "I lost my keys at the station.",
        "We need more money for our schools.",
        "The train was late again this morning.",
        "My sister plays the piano very well.",
        "Please close the window, it is cold.",
    ]
    german = [
        "Das Wetter ist heute schön.",
        "Ich habe meine Schlüssel am Bahnhof verloren.",
        "",  # the written translation left this line out
        "Meine Schwester spielt sehr gut Klavier.",  # shifted: belongs to the next line
        "Meine Schwester spielt sehr gut Klavier.",
        "Bitte schließ das Fenster, es ist kalt.",
    ]
    encoder = MultilingualEncoder(threads=1)
    trust, sees = reference_trust(encoder, english, german, encoder.encode(english))
    assert sees and trust.shape == (6,)
    assert trust[[0, 1, 4, 5]].min() > 0.7
    assert trust[2] == 0.0 and trust[3] < 0.3


def test_pipeline_reference_trust_of_an_embedder_blind_to_the_pair_only_sees_blank_lines() -> None:
    from sialign.embed.lexical import LexicalEmbedder

    english = ["The weather is nice today.", "I lost my keys.", "We need money.", "Close the window."]
    japanese = ["今日はいい天気です。", "", "お金が必要です。", "窓を閉めてください。"]
    lexical = LexicalEmbedder()
    lexical.fit(english + japanese)
    trust, sees = reference_trust(lexical, english, japanese, lexical.encode(english))
    assert not sees and list(trust) == [1.0, 0.0, 1.0, 1.0]


def test_pipeline_pivot_alone_when_the_direct_embedder_is_blind_to_the_pair() -> None:
    _, info = strict_f1(example(), AlignParams(embedder="lexical", pivot_weight=0.5))
    assert [s["name"] for s in info["signals"]] == ["pivot"]
    assert "pivot alone" in info["pivot_note"]


def test_pipeline_a_damaged_reference_does_not_drag_the_alignment_below_direct() -> None:
    direct, _ = strict_f1(example(reference=False), AlignParams())
    clean, info = strict_f1(example(), AlignParams())
    assert [s["name"] for s in info["signals"]] == ["source", "pivot"]
    project = example()
    assert project.reference is not None
    lines = [s.text for s in project.reference.segments]
    rng = np.random.default_rng(0)
    for i in rng.choice(len(lines) - 1, size=7, replace=False):  # 20% shifted by a line
        lines[i] = lines[i + 1]
    for i in rng.choice(len(lines), size=4, replace=False):  # 10% blank
        lines[i] = ""
    project.reference = Document.from_texts(lines, "ja")
    damaged, _ = strict_f1(project, AlignParams())
    assert clean >= direct
    assert damaged >= direct


def test_pipeline_word_skip_scale_counts_letters_and_digits() -> None:
    scale = word_skip_scale(["....", "- _-", "m", "Lhotsé ( 8501 m )", "Merci ."])
    assert list(scale[:2]) == [0.0, 0.0] and scale[2] == pytest.approx(1 / 6)
    assert scale[3] == 1.0 and scale[4] == pytest.approx(5 / 6)


def test_pipeline_lines_without_words_are_left_out_of_sentence_beads() -> None:
    from test_pipeline import WORDS, sentences  # type: ignore[import-not-found]

    texts = sentences(3, 20)
    target = texts[:7] + ["....."] + texts[7:14] + ["- _-"] + texts[14:]
    project = Project(source=Document.from_texts(texts, "de"), target=Document.from_texts(target, "fr"))
    result = align_project(project, AlignParams(target_units="sentences"), embedder=WORDS)
    hyp = alignment_positions(result.alignment, project.source, project.target)
    assert ((), (7,)) in hyp and ((), (15,)) in hyp
    assert ((6,), (6,)) in hyp and ((7,), (8,)) in hyp


def test_pipeline_peel_splits_off_an_unrendered_edge_sentence() -> None:
    rng = np.random.default_rng(0)
    dim = 64

    def unit(x: np.ndarray) -> np.ndarray:
        return (x / np.linalg.norm(x, axis=-1, keepdims=True)).astype(np.float32)

    src = unit(rng.normal(size=(6, dim)))
    tgt = unit(src[[0, 1, 2, 4, 5]] + 0.1 * rng.normal(size=(5, dim)))  # sentence 3 is not rendered
    model = BeadCostModel([Signal(src, tgt)], 4, 4, CostSettings())
    beads = [(0, 1, 0, 1), (1, 1, 1, 1), (2, 2, 2, 1), (4, 1, 3, 1), (5, 1, 4, 1)]
    assert peel_unrendered(model, beads, 0.9) == [(0, 1, 0, 1), (1, 1, 1, 1), (2, 1, 2, 1), (3, 1, 3, 0), (4, 1, 3, 1), (5, 1, 4, 1)]
    assert peel_unrendered(model, beads, 5.0) == beads


@pytest.mark.parametrize(
    ("src", "tgt", "same"),
    [("de", "fr", True), ("en", "pl", True), ("en", "ja", False), ("ru", "uk", True), ("en", "ru", False),
     ("ja", "zh", False), ("en", "und", False), ("pt-BR", "es", True)],
)
def test_pipeline_same_script(src: str, tgt: str, same: bool) -> None:
    from sialign.align.signals import same_script

    assert same_script(src, tgt) is same


def test_pipeline_lexical_signal_joins_a_neural_one_within_a_script() -> None:
    from test_pipeline import WORDS, sentences  # type: ignore[import-not-found]

    texts = sentences(4, 12)
    project = Project(source=Document.from_texts(texts, "de"), target=Document.from_texts(texts, "fr"))
    info = align_project(project, embedder=WORDS).alignment.info
    assert [(s["name"], round(s["weight"], 2)) for s in info["signals"]] == [("source", 0.7), ("lexical", 0.3)]
    project.target.language = "ja"
    info = align_project(project, embedder=WORDS).alignment.info
    assert [s["name"] for s in info["signals"]] == ["source"]
