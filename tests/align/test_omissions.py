"""What was left out: a sentence whose chunks render none of it becomes a 1-0 bead, its chunks go to the neighbours.

The example talk leaves sentences 11 and 29 out. Before this decision, `sialign align talk.en.srt talk.ja.srt`
found neither: sentence 11 kept だんだん、 (sentence 12's first chunk), sentence 29 got 歩くことのように、 and was
"dropped for its cost", which nothing counted as an omission.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sialign.align.omissions import FEATURES, OMISSION_MODELS, Candidate, OmissionModel, omit
from sialign.core.coverage import coverage

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


def test_an_omission_gives_its_chunks_to_the_neighbours_in_order() -> None:
    shapes = [(0, 1, 0, 2), (1, 1, 2, 3), (2, 1, 5, 2)]
    out = omit(shapes, Candidate(1, (0.0,) * len(FEATURES), split=1))
    assert out == [(0, 1, 0, 3), (1, 1, 3, 0), (2, 1, 3, 4)]
    # Every target segment still in one bead, in order.
    assert [j for i0, a, j0, b in out for j in range(j0, j0 + b)] == list(range(7))
    # All to the bead after (split 0), and all to the bead before (split = its length).
    assert omit(shapes, Candidate(1, (0.0,) * len(FEATURES), split=0))[2] == (2, 1, 2, 5)
    assert omit(shapes, Candidate(1, (0.0,) * len(FEATURES), split=3))[0] == (0, 1, 0, 5)


def test_the_model_refuses_features_it_was_not_fitted_on() -> None:
    model = OmissionModel((1.0, 2.0), 0.0, 0.5)
    with pytest.raises(ValueError, match="2 weights for 3 features"):
        model.probability((1.0, 1.0, 1.0))
    assert OMISSION_MODELS["chunks"].probability((0.0,) * len(FEATURES)) < 0.5
    assert len(OMISSION_MODELS["chunks"].weights) == len(FEATURES)


@pytest.mark.parametrize("reference", [False, True])
def test_the_example_talks_two_omissions_are_found(reference: bool) -> None:
    """The README's first command (and with the reference translation): both omissions, no false one."""
    from sialign.core.params import AlignParams
    from sialign.workflows.aligning import align_talk
    from sialign.workflows.talks import load_example

    project = load_example(EXAMPLES)
    if not reference:
        project.reference = None
    align_talk(project, AlignParams())
    covered = coverage(project)
    omitted = [i + 1 for i, state in enumerate(covered.states) if state == "omitted"]
    assert omitted == [11, 29]
    beads = project.alignment.beads
    texts = {k: "".join(project.target.get(j).text for j in b.tgt) for k, b in enumerate(beads)}
    # The chunks sentence 11 was given now stand with a neighbour; no bead lost a chunk.
    assert sum(len(b.tgt) for b in beads) == len(project.target)
    assert any("だんだん" in t for t in texts.values())
    for k in covered.omission_beads:
        assert beads[k].reason.startswith("no rendition found in the interpretation (1-0, omission)")


def test_an_edge_sentence_of_a_many_sentence_bead_is_taken_out_and_the_others_keep_the_target() -> None:
    """Sentence targets: a sentence left out leaves the next rendition covering two source sentences (a 2-1 bead)."""
    shapes = [(0, 1, 0, 1), (1, 2, 1, 1), (3, 1, 2, 1)]
    first = omit(shapes, Candidate(1, (0.0,) * 6, 0, sentence=1, peel="first"))
    assert first == [(0, 1, 0, 1), (1, 1, 1, 0), (2, 1, 1, 1), (3, 1, 2, 1)]
    last = omit(shapes, Candidate(1, (0.0,) * 6, 0, sentence=2, peel="last"))
    assert last == [(0, 1, 0, 1), (1, 1, 1, 1), (2, 1, 2, 0), (3, 1, 2, 1)]
    for out in (first, last):
        assert [j for _i0, _a, j0, b in out for j in range(j0, j0 + b)] == [0, 1, 2]
        assert [i for i0, a, _j0, _b in out for i in range(i0, i0 + a)] == [0, 1, 2, 3]


def test_the_peeling_model_reads_both_kinds_of_candidate() -> None:
    """A model that peels has one more feature, 1 for an edge sentence; the others read one-sentence beads only."""
    from sialign.align.omissions import PEEL_FEATURES, peel_candidates

    class Costs:  # the first sentence renders none of the bead's target; the second all of it
        def of(self, shape: tuple[int, int, int, int]) -> float:
            i0, a, _j0, _b = shape
            return {(0, 2): 0.6, (0, 1): 1.0, (1, 1): 0.2}[(i0, a)]

        def length_ratio(self, shape: tuple[int, int, int, int]) -> float:
            return -0.4

    found = peel_candidates(Costs(), [(0, 2, 0, 1)], 0, 0.3, [5, 9])  # type: ignore[arg-type]
    assert [(c.sentence, c.peel) for c in found] == [(0, "first"), (1, "last")]
    first = dict(zip(PEEL_FEATURES, found[0].features))
    assert first["own_cost"] == 1.0 and first["neighbour_gain"] == pytest.approx(0.6 - 0.2) and first["peeled"] == 1.0
    last = dict(zip(PEEL_FEATURES, found[1].features))
    assert last["own_cost"] == 0.2 and last["neighbour_gain"] == pytest.approx(0.6 - 1.0)
    for name, model in OMISSION_MODELS.items():
        assert len(model.weights) == len(PEEL_FEATURES if model.peel else FEATURES), name
