"""core.params: values the aligner cannot use are refused by every front end."""

from __future__ import annotations

import math

import pytest

from sialign.core.errors import ParamsError
from sialign.core.params import MAX_TGT_LIMIT, AlignParams


@pytest.mark.parametrize(
    ("changes", "field"),
    [({"max_tgt": 10**9}, "max_tgt"), ({"max_src": 0}, "max_src"), ({"drop_threshold": math.nan}, "drop_threshold"),
     ({"drop_threshold": math.inf}, "drop_threshold"), ({"evs_min": math.nan, "evs_max": math.nan}, "evs_min"),
     ({"evs_max": math.inf}, "evs_max"), ({"peel_threshold": math.nan}, "peel_threshold"), ({"peel_threshold": -5.0}, "peel_threshold"),
     ({"pivot_weight": math.nan}, "pivot_weight")],
)
def test_params_refuse_unusable_values(changes: dict, field: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(ParamsError) as info:
        AlignParams(**changes)
    assert info.value.field == field


def test_params_accept_the_edges() -> None:
    assert AlignParams(max_src=1, max_tgt=MAX_TGT_LIMIT, peel_threshold=0.0, drop_threshold=0.0).max_tgt == MAX_TGT_LIMIT


@pytest.mark.parametrize(
    ("changes", "message"),
    [({"method": "bead"}, "method must be 'beads' or 'segment', not 'bead'"),
     ({"candidates": "slow"}, "candidates must be 'fast' or 'exact'"),
     ({"target_units": "words"}, "target_units must be 'auto', 'chunks' or 'sentences'"),
     ({"pivot_embedder": "use-multilingual"}, "pivot_embedder must be 'lexical' or 'main'")],
)
def test_params_refuse_a_word_outside_the_choices_when_made(changes: dict, message: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(ParamsError, match=message):
        AlignParams(**changes)
    # A hand-edited project is refused as it is read, not later in the aligner.
    with pytest.raises(ParamsError, match=message):
        AlignParams.from_dict(changes)


def test_filter_params_refuse_an_unknown_eta_metric() -> None:
    from sialign.core.params import FilterParams

    with pytest.raises(ParamsError, match="eta_metric must be 'auto', 'cosine' or 'chrf', not 'bleu'"):
        FilterParams(eta_metric="bleu")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [({"alpha_min": 1.5}, "alpha_min", "must be between 0 and 1, not 1.5"),
     ({"eta_min": -0.1}, "eta_min", "must be between 0 and 1, not -0.1"),
     ({"gamma_min": -1.0}, "gamma_min", "must be at least 0, not -1.0"),
     ({"gamma_min": 3.0, "gamma_max": 2.0}, "gamma_min", r"\(3.0\) is above gamma_max \(2.0\)")],
)
def test_filter_params_refuse_thresholds_the_filters_cannot_use(changes: dict, field: str, message: str) -> None:
    """One place checks them, so the command line, the app and the Python API all refuse the same values."""
    from sialign.core.params import FilterParams

    with pytest.raises(ParamsError, match=message) as info:
        FilterParams(**changes)
    assert info.value.field == field
    assert info.value.other == ("gamma_max" if "gamma_max" in changes else "")
