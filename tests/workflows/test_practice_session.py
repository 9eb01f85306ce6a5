"""The practice session engine: a rendition fed from a file or recorded from a (fake) microphone, the live updates,
the events file, the full pass at Stop and the save; no sound card."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from audio_fakes import FakeDuplexFactory
from booth_fakes import FakeLiveFactory, fake_practice, fake_whisper_folder, scripted_updates
from sialign.booth.recorder import BoothRecorder
from sialign.core.errors import AlignmentCancelled, AudioUnavailable, SialignError
from sialign.core.model import Document, Project
from sialign.workflows.booth import practice_talk
from sialign.workflows.practice_session import (
    LiveUpdate,
    PracticeSession,
    RenditionFile,
    SessionParts,
    TalkChoice,
    prepare_booth_session,
    review_rendition,
)

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"
RATE = 16000
CHUNKS = [("おはようございます。", 1.0, 2.0), ("水は大事です。", 3.0, 4.5), ("ありがとう。", 5.0, 5.8)]
LAYOUT = [((0,), (0,)), ((1,), (1,)), ((2,), (2,))]


@pytest.fixture(scope="module")
def rendition_clip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The first 8 s of the example interpretation (the first sentence and the start of the second)."""
    data, rate = sf.read(str(EXAMPLES / "talk.ja.ogg"), dtype="float32")
    path = tmp_path_factory.mktemp("clips") / "rendition.wav"
    sf.write(str(path), data[: int(8.0 * rate)], rate)
    return path


@pytest.fixture
def talk_project(tmp_path: Path) -> Project:
    """A three-sentence talk saved beside its 6 s source recording."""
    audio = tmp_path / "water.en.wav"
    sf.write(str(audio), (0.1 * np.sin(np.arange(6 * 8000) / 8000 * 2 * np.pi * 220)).astype(np.float32), 8000)
    source = Document.from_texts(["Good morning.", "Water matters.", "Thank you."], "en", [(0.0, 1.5), (1.5, 4.0), (4.0, 5.5)])
    source.audio_path = str(audio)
    project = Project(talk_id="water", source=source, target=Document(language="ja"), metadata={"speaker": "A"})
    project.path = str(tmp_path / "water.sialign")
    return project


@pytest.fixture
def fake_parts() -> tuple[FakeDuplexFactory, FakeLiveFactory, SessionParts]:
    """A fake duplex stream behind the real recorder, a scripted live aligner and a full pass that finds ``LAYOUT``."""
    streams = FakeDuplexFactory(latency=(0.01, 0.02))
    live = FakeLiveFactory()

    def recorder(source: Path | None, out: Path, **kwargs: object) -> BoothRecorder:
        return BoothRecorder(source, out, stream_factory=streams, samplerate=RATE, output_channels=2, **kwargs)  # type: ignore[arg-type]

    return streams, live, SessionParts(live=live, recorder=recorder, full_pass=fake_practice(CHUNKS, LAYOUT))


def _pump(stream, seconds: float) -> None:  # type: ignore[no-untyped-def]
    for _ in range(int(seconds * 100)):
        stream.pump(RATE // 100)


def test_a_rendition_fed_from_a_file_is_aligned_live_then_by_the_full_pass_and_saved(
        whisper_multilingual: Path, rendition_clip: Path, tmp_path: Path) -> None:
    """What ``sialign practice --input-file`` runs: the real recogniser and aligner, fed as fast as possible."""
    import sialign

    talk = practice_talk(EXAMPLES / "talk.en.srt", src_lang="en", src_audio=EXAMPLES / "talk.en.ogg")
    assert talk.src_audio == EXAMPLES / "talk.en.ogg" and talk.source.has_times
    events = tmp_path / "events.jsonl"
    events.write_text("an earlier file\n", encoding="utf-8")
    updates: list[LiveUpdate] = []
    threads: set[int] = set()

    def on_update(update: LiveUpdate) -> None:
        updates.append(update)
        threads.add(threading.get_ident())

    session = PracticeSession(talk, tgt_lang="ja", model=whisper_multilingual, rendition=RenditionFile(rendition_clip, speed=0),
                              on_update=on_update, events=events, threads=2)
    session.prepare()
    session.start()
    assert session.feed() == pytest.approx(8.0)
    assert session.status().elapsed_s == pytest.approx(8.0) and session.status().error == ""
    assert events.read_text(encoding="utf-8") == "an earlier file\n"  # replaced only once the live pass has ended
    live = session.stop()
    assert session.recorded is None and session.recording_path == rendition_clip
    assert updates and threading.get_ident() not in threads  # on the live aligner's thread, never the caller's
    assert updates[-1].beads == live.beads and any(b.src and b.tgt for b in live.beads)
    assert [json.loads(line) for line in events.read_text(encoding="utf-8").splitlines()] == live.events
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".") or p.suffix == ".tmp"]

    with pytest.raises(AlignmentCancelled):
        session.full_pass(should_stop=lambda: True)
    seen: list[float] = []
    project = session.full_pass(progress=lambda fraction, _message: seen.append(fraction))
    assert seen and all(0.0 <= f <= 1.0 for f in seen)
    assert project.metadata["practice"]["live"]["audio_read_s"] == 8.0
    assert project.target.audio_path == str(rendition_clip.resolve()) and project.alignment is not None
    session.save(project, tmp_path / "session.sialign")
    saved = sialign.load(tmp_path / "session.sialign")
    assert (tmp_path / str(saved.target.audio_path)).resolve() == rendition_clip.resolve()
    shown = session.live_project()  # what is kept when the full pass fails
    assert shown.alignment is not None and shown.alignment.embedder == "live"


def test_a_booth_session_records_pauses_grows_live_and_keeps_the_booths_record(
        talk_project: Project, fake_parts, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    streams, live_factory, parts = fake_parts
    model = fake_whisper_folder(tmp_path / "whisper-base")
    updates: list[LiveUpdate] = []
    messages: list[tuple[float, str]] = []
    session = prepare_booth_session(TalkChoice(project=talk_project), tgt_lang="ja", model=model, input_device=3,
                                    output_device=2, on_update=updates.append, parts=parts,
                                    progress=lambda f, m: messages.append((f, m)))
    assert [m for _, m in messages] == ["Reading the talk…", "Loading the speech model…", "Preparing the talk's audio…"]
    assert [f for f, _ in messages] == sorted(f for f, _ in messages)
    assert session.recording_path.parent == tmp_path and session.recording_path.name.startswith("water.practice-")
    assert session.project_path == session.recording_path.with_suffix(".sialign")
    assert not session.recording_path.exists()  # nothing is recorded before Start

    session.start()
    stream = streams.streams[0]
    assert stream.kwargs["device"] == (3, 2)
    live = live_factory.made[0]
    assert live.started and live.tgt_lang == "ja" and live.model == model
    _pump(stream, 1.0)
    session.pause()
    assert session.status().paused
    _pump(stream, 1.0)  # neither played nor recorded
    session.resume()
    _pump(stream, 1.0)
    for update in scripted_updates(talk_project.source, CHUNKS, LAYOUT):
        live.push(update)
    assert len(updates) == 3 and updates[-1].beads[2].state == "rendered"
    status = session.status()
    assert status.talk_s == pytest.approx(6.0) and not status.talk_finished
    assert status.elapsed_s == pytest.approx(2.0 - 0.03, abs=0.01)

    result = session.stop(progress=lambda f, m: messages.append((f, m)))
    assert messages[-1] == (0.5, "Recognising the last words…") and live.finished
    assert session.recorded is not None and session.recording_path == session.recorded.path
    assert sf.info(str(session.recording_path)).duration == pytest.approx(2.0 - 0.03, abs=0.02)
    assert session.recorded.pauses == [pytest.approx(0.97, abs=0.01)]
    sidecar = json.loads(Path(f"{session.recording_path}.booth.json").read_text(encoding="utf-8"))
    assert sidecar["complete"] is True and sidecar["started"]  # the local time the session started, kept to the end

    shown = session.session_project()
    assert shown.path == str(session.project_path) and shown.metadata["speaker"] == "A"
    practice = shown.metadata["practice"]
    assert practice["pass"] == "live" and practice["talk"] == "project water.sialign"
    assert practice["booth"]["latency_s"] == pytest.approx(0.03) and practice["booth"]["input_device"] == "3"
    final = session.full_pass()
    assert final.metadata["practice"]["recording"] == str(session.recording_path)
    assert final.metadata["practice"]["live"] == {"beads": len(result.beads)}


def test_a_session_that_cannot_start_lets_its_live_aligner_go(talk_project: Project, fake_parts, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    _, live_factory, parts = fake_parts

    def refusing(**kwargs: object) -> object:
        raise AudioUnavailable("The audio devices refused to open for recording (Device unavailable).")

    parts = SessionParts(live=live_factory, full_pass=parts.full_pass,
                         recorder=lambda source, out, **kw: BoothRecorder(source, out, stream_factory=refusing, samplerate=RATE, **kw))  # type: ignore[arg-type]
    session = prepare_booth_session(TalkChoice(project=talk_project), tgt_lang="ja", parts=parts,
                                    model=fake_whisper_folder(tmp_path / "whisper-base"))
    with pytest.raises(AudioUnavailable):
        session.start()
    for _ in range(200):
        if live_factory.made[0].finished:
            break
        threading.Event().wait(0.01)
    assert live_factory.made[0].finished  # ended on a thread of its own, never waited for


def test_a_model_that_cannot_hear_the_interpretation_is_refused_before_anything_is_made(
        talk_project: Project, fake_parts, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    _, live_factory, parts = fake_parts
    english = fake_whisper_folder(tmp_path / "models" / "tiny.en", ("en",), multilingual=False)
    before = sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(SialignError, match="tiny.en recognises English only, not 'ja'") as caught:
        prepare_booth_session(TalkChoice(project=talk_project), tgt_lang="ja", model=english, parts=parts)
    assert caught.value.settings == ("speech_model",)
    assert not live_factory.made and sorted(p.name for p in tmp_path.iterdir()) == before


def test_a_rendition_recorded_elsewhere_is_reviewed_as_a_session_beside_the_talk(
        talk_project: Project, fake_parts, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    _, live_factory, parts = fake_parts
    rendition = tmp_path / "student.ja.wav"
    sf.write(str(rendition), np.zeros(7 * 8000, dtype=np.float32), 8000)
    project = review_rendition(TalkChoice(project=talk_project), rendition, tgt_lang="ja",
                               model=fake_whisper_folder(tmp_path / "whisper-base"), parts=parts)
    assert not live_factory.made  # no live view, no device
    assert Path(str(project.path)).parent == tmp_path and Path(str(project.path)).name.startswith("water.practice-")
    practice = project.metadata["practice"]
    assert practice["from_file"] is True and practice["pass"] == "full" and practice["live"] is None
    assert practice["recording"] == str(rendition) and project.metadata["speaker"] == "A"


def test_an_abandoned_session_keeps_the_events_shown_so_far(talk_project: Project, tmp_path: Path) -> None:
    """``sialign practice`` whose recording failed still leaves the beads it had shown in its events file."""
    live_factory = FakeLiveFactory()
    talk = practice_talk(EXAMPLES / "talk.en.srt", src_lang="en")
    events = tmp_path / "events.jsonl"
    session = PracticeSession(talk, tgt_lang="ja", model=tmp_path, rendition=RenditionFile(tmp_path / "unused.wav"),
                              events=events, parts=SessionParts(live=live_factory))
    session.start()  # prepares first
    chunks = [("おはようございます。", 2.0, 3.0), ("今日は水の話です。", 5.0, 7.0)]
    updates = scripted_updates(talk.source, chunks, [((0,), (0,)), ((1,), (1,))])
    for update in updates:
        live_factory.made[0].push(update)
    session.abandon()
    lines = [json.loads(line) for line in events.read_text(encoding="utf-8").splitlines()]
    assert [line["bead"] for line in lines] == [0, 1] and lines[0]["src"] == [talk.source.ids()[0]]
    live_factory.made[0].push(updates[-1])  # an update after the end writes nothing more
    assert len(events.read_text(encoding="utf-8").splitlines()) == 2
