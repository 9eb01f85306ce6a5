"""``sialign practice`` through the command line: a rendition fed as fast as possible, events, the session; errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import soundfile as sf

from sialign.cli.main import EXIT_INPUT, EXIT_USAGE, main
from sialign.core.model import machine_transcript_note

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


# Every test here runs with a model registry of its own (tests/cli/conftest.py).
pytestmark = pytest.mark.usefixtures("model_dir")


@pytest.fixture(scope="module")
def rendition_clip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The first 8 s of the example interpretation (the first sentence and the start of the second)."""
    data, rate = sf.read(str(EXAMPLES / "talk.ja.ogg"), dtype="float32")
    path = tmp_path_factory.mktemp("clips") / "rendition.wav"
    sf.write(str(path), data[: int(8.0 * rate)], rate)
    return path


def test_practice_aligns_live_writes_events_and_saves_the_full_pass(whisper_multilingual: Path, rendition_clip: Path, tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    import sialign

    events = tmp_path / "events.jsonl"
    events.write_text("an earlier file\n", encoding="utf-8")  # replaced whole when the session ends
    session = tmp_path / "session.sialign"
    code = main(["practice", str(EXAMPLES / "talk.en.srt"), "--src-audio", str(EXAMPLES / "talk.en.ogg"), "--src-lang", "en",
                 "--tgt-lang", "ja", "--input-file", str(rendition_clip), "--speed", "0", "--whisper-model", str(whisper_multilingual),
                 "--events", str(events), "-o", str(session)])
    err = capsys.readouterr().err
    assert code == 0, err
    assert "live: 1 of 35 sentences rendered" in err or "live: 2 of 35 sentences rendered" in err, err
    assert "bead latency median" in err and "8.0 of 8.0 s of audio read" in err and "full pass:" in err
    lines = [json.loads(line) for line in events.read_text(encoding="utf-8").splitlines()]
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".") or p.suffix == ".tmp"]  # no temporary left
    assert lines and all(set(e) == {"bead", "src", "tgt", "shown_at_s", "latency_s", "state"} for e in lines)
    first = next(e for e in lines if e["tgt"])
    assert first["src"] == [0] and 0 < first["latency_s"] < 8.0 and first["state"] == "rendered"
    assert all(e["shown_at_s"] <= 8.0 + 1e-6 for e in lines)  # fed as fast as possible: shown on the audio clock
    project = sialign.load(session)
    assert machine_transcript_note(project.metadata, "tgt").startswith("machine transcript")
    assert project.metadata["practice"]["live"]["audio_read_s"] == 8.0
    assert (session.parent / str(project.target.audio_path)).resolve() == rendition_clip.resolve()
    assert project.alignment is not None


@pytest.mark.parametrize("change, message", [
    (lambda a, d: a.__setitem__(a.index("-o") + 1, str(d / "session.tsv")), "a session is saved as a project"),
    (lambda a, d: a.__setitem__(a.index("--input-file") + 1, str(d / "missing.wav")), "--input-file"),
    (lambda a, d: a.__setitem__(a.index("--speed") + 1, "-1"), "--speed"),
    (lambda a, d: a.__setitem__(1, str(d / "untimed.txt")), "no times"),
    (lambda a, d: a.__setitem__(a.index("--whisper-model") + 1, str(d)), "Whisper"),
])
def test_bad_input_is_one_line_naming_what_to_fix(change, message: str, tmp_path: Path, rendition_clip: Path,  # type: ignore[no-untyped-def]
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("faster_whisper")
    (tmp_path / "untimed.txt").write_text("Good morning.\nThank you.\n", encoding="utf-8")
    args = ["practice", str(EXAMPLES / "talk.en.srt"), "--src-lang", "en", "--tgt-lang", "ja", "--input-file", str(rendition_clip),
            "--speed", "0", "--whisper-model", str(tmp_path), "-o", str(tmp_path / "session.sialign")]
    if message != "Whisper":
        args[args.index("--whisper-model") + 1] = str(tmp_path / "not-used")
    change(args, tmp_path)
    code = main(args)
    err = capsys.readouterr().err.strip()
    assert code in (EXIT_INPUT, EXIT_USAGE, 1), err
    assert message in err and "Traceback" not in err and len(err.splitlines()) <= 2, err
    assert not (tmp_path / "session.sialign").exists()


def test_input_file_and_record_are_exclusive(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["practice", "talk.srt", "--src-lang", "en", "--tgt-lang", "ja", "--input-file", "a.wav", "--record", "-o", "s.sialign"])
    assert code == EXIT_USAGE
    assert "not allowed with argument" in capsys.readouterr().err


def test_a_failed_full_pass_keeps_the_live_session(whisper_multilingual: Path, rendition_clip: Path, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The full pass at the end once failed and the student's whole session was lost with it."""
    import sialign
    from sialign.core.errors import SialignError
    from sialign.workflows import practice

    def fails(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise SialignError("the recogniser ran out of memory")

    monkeypatch.setattr(practice, "practice_project", fails)
    session = tmp_path / "session.sialign"
    code = main(["practice", str(EXAMPLES / "talk.en.srt"), "--src-lang", "en", "--tgt-lang", "ja", "--input-file",
                 str(rendition_clip), "--speed", "0", "--whisper-model", str(whisper_multilingual), "-q", "-o", str(session)])
    err = capsys.readouterr().err
    assert code == 2 and "the full pass over the recording failed" in err and "live session was saved" in err
    project = sialign.load(session)
    assert project.alignment is not None and project.alignment.embedder == "live"
