"""Align → Time from audio…: the times come back as one undoable step (the recognition itself is tested in tests/transcribe)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sialign.core.segment_edits import SetTimes
from sialign.transcribe import RetimeStats

pytestmark = pytest.mark.gui


def test_time_from_audio_applies_one_undoable_edit(window, qtbot, monkeypatch, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QInputDialog

    from sialign.embed.models_registry import ModelRegistry
    from sialign.workflows import retiming

    project = window.session.project
    audio = tmp_path / "talk.wav"
    audio.write_bytes(b"RIFF")
    project.source.audio_path = str(audio)
    before = [(s.start, s.end) for s in project.source.segments]
    asked: list[str] = []

    def fake_retime(proj, side, model, **kwargs):  # type: ignore[no-untyped-def]
        asked.append(side)
        times = tuple((s.id, 10.0 + i, 10.5 + i) for i, s in enumerate(proj.document(side).segments))
        return retiming.RetimeResult(SetTimes(side, times, label="Time the source from its recording"),
                                     RetimeStats(tokens=10, matched=9, segments=len(times), timed_from_words=len(times)))  # fmt: skip

    monkeypatch.setattr(QInputDialog, "getItem", lambda *a, **k: ("Source", True))
    monkeypatch.setattr(ModelRegistry, "whisper_folder", lambda self, name: tmp_path)
    monkeypatch.setattr(retiming, "retime_side", fake_retime)
    window.act.time_from_audio.trigger()
    qtbot.waitUntil(lambda: project.source.segments[0].start == 10.0, timeout=10_000)
    assert asked == ["src"] and project.source.segments[1].start == 11.0
    assert "9 of 10 words found" in window.statusBar().currentMessage()
    window.session.undo_stack.undo()
    assert [(s.start, s.end) for s in project.source.segments] == before


def test_time_from_audio_without_a_recording_says_so(window, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QInputDialog

    window.session.project.target.audio_path = None
    monkeypatch.setattr(QInputDialog, "getItem", lambda *a, **k: ("Interpretation", True))
    window.act.time_from_audio.trigger()
    assert "has no recording" in window.statusBar().currentMessage()
