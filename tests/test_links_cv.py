"""The cross-validation of the word linker's numbers (tests/benchmarks/cv_links.py): folds and the one-knob-at-a-time choice."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "benchmarks"))

import cv_links

from sialign.links import LinkParams


def test_links_cv_folds_are_contiguous_blocks_covering_every_row_once() -> None:
    blocks = cv_links.folds(11, 5)
    assert [list(b) for b in blocks] == [[0, 1], [2, 3], [4, 5], [6, 7], [8, 9, 10]]
    assert cv_links.others(11, blocks[2]) == [0, 1, 2, 3, 6, 7, 8, 9, 10]
    assert sorted(r for b in cv_links.folds(291, 5) for r in b) == list(range(291))


def test_links_cv_choice_keeps_the_shipped_value_on_a_tie() -> None:
    params, chosen = cv_links.choose(lambda p: 0.5)
    assert params == LinkParams()
    assert chosen == {name: getattr(LinkParams(), name) for name, _ in cv_links.KNOBS}


def test_links_cv_choice_goes_one_knob_at_a_time_in_order() -> None:
    # The best threshold depends on the temperature chosen before it; later knobs see earlier choices.
    def score(p: LinkParams) -> float:
        return (0.0 if p.temperature == 0.05 else 0.5) + abs(p.threshold - (0.2 if p.temperature == 0.05 else 0.05))

    knobs = (("temperature", (0.03, 0.05)), ("threshold", (0.05, 0.1, 0.2)))
    params, chosen = cv_links.choose(score, knobs)
    assert chosen == {"temperature": 0.05, "threshold": 0.2}
    assert params == dataclasses.replace(LinkParams(), temperature=0.05, threshold=0.2)
    # In the other order the threshold is chosen at the shipped temperature, and kept.
    _, chosen = cv_links.choose(score, knobs[::-1])
    assert chosen == {"threshold": 0.05, "temperature": 0.05}
