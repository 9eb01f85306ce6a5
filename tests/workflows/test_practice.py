"""A practice session's full pass at Stop equals the offline alignment of the same files; the talk to interpret; the live project."""

from __future__ import annotations

from pathlib import Path

import pytest
import soundfile as sf

from sialign.core.errors import SialignError
from sialign.core.model import machine_transcript_note
from sialign.io.readers import read_transcript
from sialign.workflows.practice import percentile, practice_project, practice_source

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


@pytest.fixture(scope="module")
def rendition_clip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The first 10 s of the example interpretation (two sentences rendered)."""
    data, rate = sf.read(str(EXAMPLES / "talk.ja.ogg"), dtype="float32")
    path = tmp_path_factory.mktemp("clips") / "rendition.wav"
    sf.write(str(path), data[: int(10.0 * rate)], rate)
    return path


def test_full_pass_equals_sialign_align_of_the_same_files(whisper_multilingual: Path, rendition_clip: Path, tmp_path: Path) -> None:
    from sialign.cli.main import main

    source, audio = practice_source(EXAMPLES / "talk.en.srt", src_lang="en", src_audio=EXAMPLES / "talk.en.ogg")
    project = practice_project(source, rendition_clip, tgt_lang="ja", model=whisper_multilingual, live=None, src_audio=Path(audio or ""), threads=2)
    assert machine_transcript_note(project.metadata, "tgt") == f"machine transcript (Whisper {whisper_multilingual.name}), not corrected"
    assert project.metadata["speech_model"] == str(whisper_multilingual)
    assert project.target.format == "whisper" and project.target.audio_path == str(rendition_clip.resolve())
    assert project.source.audio_path == str(EXAMPLES / "talk.en.ogg")
    # The same files, offline: sialign align SOURCE RECORDING.
    offline = tmp_path / "offline.sialign"
    assert main(["align", str(EXAMPLES / "talk.en.srt"), str(rendition_clip), "--src-lang", "en", "--tgt-lang", "ja",
                 "--whisper-model", str(whisper_multilingual), "-q", "-o", str(offline)]) == 0
    import sialign

    other = sialign.load(offline)
    assert project.target.texts() == other.target.texts()
    assert project.alignment is not None and other.alignment is not None

    def beads(p):  # type: ignore[no-untyped-def]
        return [(b.src, b.tgt, b.status.value, b.cost) for b in p.alignment.beads]

    assert beads(project) == beads(other)
    assert project.params == other.params and project.params is not None and not project.params.learned_score
    assert any(b.src and b.tgt for b in project.alignment.beads)


def test_practice_source_reads_a_project_or_a_timed_transcript_and_refuses_an_untimed_one(tmp_path: Path) -> None:
    from sialign.workflows.outputs import export
    from sialign.workflows.talks import talk_from_documents

    source, audio = practice_source(EXAMPLES / "talk.en.srt", src_lang="en")
    assert source.has_times and audio is None and len(source) == len(read_transcript(EXAMPLES / "talk.en.srt"))
    project = talk_from_documents(source, read_transcript(EXAMPLES / "talk.ja.srt"), source_audio=str(EXAMPLES / "talk.en.ogg"))
    export(project, tmp_path / "talk.sialign")
    again, audio = practice_source(tmp_path / "talk.sialign")
    assert again.texts() == source.texts() and audio == str(EXAMPLES / "talk.en.ogg")
    untimed = tmp_path / "talk.txt"
    untimed.write_text("Good morning.\nThank you.\n", encoding="utf-8")
    with pytest.raises(SialignError, match="no times"):
        practice_source(untimed, src_lang="en")


def test_percentile_interpolates_as_numpy() -> None:
    import numpy as np

    values = [5.0, 1.0, 3.0, 9.0, 2.0]
    for q in (0, 10, 50, 90, 100):
        assert percentile(values, q) == pytest.approx(float(np.percentile(values, q)))


def test_live_project_keeps_what_was_shown_and_drops_the_rest_with_reasons() -> None:
    from sialign.booth.live import LiveBead, LiveResult
    from sialign.core.model import BeadStatus, Document
    from sialign.workflows.practice import live_project

    source = Document.from_texts(["One.", "Two.", "Three.", "Four."], "en", [(0, 2), (3, 5), (6, 8), (9, 11)])
    target = Document.from_texts(["一、", "一。", "三。", "えー"], "ja", [(2, 3), (3, 4), (8, 9), (9, 10)])
    beads = [LiveBead(0, (0,), (0, 1), 5.0, 1.0, "rendered"), LiveBead(1, (1,), (), 9.0, float("nan"), "unrendered"),
             LiveBead(2, (2,), (2,), 10.0, 1.0, "rendered"), LiveBead(3, (), (3,), 11.0, 1.0, "rendered")]
    live = LiveResult(words=[], target=target, beads=beads, events=[], received_s=12.0, processed_s=12.0, model="m")
    project = live_project(source, live)
    assert project.alignment is not None
    got = [(b.src, b.tgt, b.status) for b in project.alignment.beads]
    assert got == [((0,), (0, 1), BeadStatus.AUTO), ((1,), (), BeadStatus.DROPPED), ((2,), (2,), BeadStatus.AUTO),
                   ((), (3,), BeadStatus.DROPPED), ((3,), (), BeadStatus.DROPPED)]
    assert "stopped before" in project.alignment.beads[-1].reason
    assert machine_transcript_note(project.metadata, "tgt").startswith("machine transcript")
    assert project.metadata["practice"]["live"]["rendered"] == 2


def test_a_project_is_read_as_a_talk_the_same_way_by_the_command_and_the_booth(tmp_path: Path) -> None:
    """Stored relative paths resolve against the project's folder and come back absolute (a session's project is saved
    elsewhere); --src-audio replaces the project's recording."""
    import shutil

    from sialign.io.project_file import load_project
    from sialign.workflows.booth import booth_talk_from_project
    from sialign.workflows.outputs import export
    from sialign.workflows.talks import talk_from_documents

    talk = tmp_path / "talks" / "one"
    talk.mkdir(parents=True)
    for name in ("talk.en.srt", "talk.ja.srt", "talk.en.ogg"):
        shutil.copy(EXAMPLES / name, talk / name)
    source = read_transcript(talk / "talk.en.srt")
    project = talk_from_documents(source, read_transcript(talk / "talk.ja.srt"), source_audio=str(talk / "talk.en.ogg"))
    export(project, talk / "talk.sialign")
    saved = load_project(talk / "talk.sialign")
    assert not Path(saved.source.path).is_absolute()  # stored relative to the project's folder
    cli_source, cli_audio = practice_source(talk / "talk.sialign")
    booth = booth_talk_from_project(saved)
    for doc in (cli_source, booth.source):
        assert Path(doc.path).is_absolute() and Path(doc.path) == (talk / "talk.en.srt").resolve()
        assert Path(doc.audio_path) == (talk / "talk.en.ogg").resolve()
    assert Path(cli_audio) == booth.src_audio == (talk / "talk.en.ogg").resolve()
    other = tmp_path / "other.ogg"
    shutil.copy(EXAMPLES / "talk.en.ogg", other)
    _, replaced = practice_source(talk / "talk.sialign", src_audio=other)
    assert Path(replaced) == other.resolve()
