"""The alignment parameters of a talk whose transcript a speech model made.

:func:`params_for` is what a new talk aligns with: the defaults, or
:func:`recording_params` when a side is a machine transcript (the module
docstring of :mod:`sialign.workflows.recordings` says why each setting
differs). Both :mod:`sialign.workflows.aligning` (a new talk's parameters)
and :mod:`sialign.workflows.recordings` (a talk from its recordings) use it.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from sialign.core.model import machine_sides  # the one rule, in core; named here too

if TYPE_CHECKING:
    from sialign.core.model import Project
    from sialign.core.params import AlignParams

SIDES = {"src": "source", "tgt": "interpretation"}
# What the parameters of a talk from recordings change (see sialign.workflows.recordings).
RECORDING_TIME_WEIGHT = 0.3
RECORDING_DROP_THRESHOLD = 1.2


def recording_params(base: AlignParams) -> AlignParams:
    """``base`` with the settings for transcripts made from recordings on one clock."""
    return dataclasses.replace(
        base,
        time_prior=True,
        time_weight=RECORDING_TIME_WEIGHT,
        time_far_weight=RECORDING_TIME_WEIGHT,
        lag_window="fit",
        learned_score=False,
        drop_threshold=RECORDING_DROP_THRESHOLD,
    )


def params_for(project: Project, base: AlignParams) -> AlignParams:
    """The parameters a new talk aligns with: :func:`recording_params` when a side is a machine transcript."""
    return recording_params(base) if machine_sides(project) else base


__all__ = ["RECORDING_DROP_THRESHOLD", "RECORDING_TIME_WEIGHT", "SIDES", "machine_sides", "params_for", "recording_params"]
