"""``sialign transcribe`` and ``sialign retime`` through the command line, with Whisper tiny.en."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sialign.cli.main import EXIT_INPUT, EXIT_INTERRUPTED, EXIT_USAGE, main

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


# Every test here runs with a model registry of its own (tests/cli/conftest.py).
pytestmark = pytest.mark.usefixtures("model_dir")


@pytest.mark.parametrize("suffix", [".srt", ".vtt", ".tsv", ".eaf"])
def test_transcribe_writes_a_timed_transcript(whisper_model: Path, talk_clip: Path, tmp_path: Path, suffix: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    from sialign.io.readers import read_transcript

    out = tmp_path / f"clip{suffix}"
    code = main(["transcribe", str(talk_clip), "--model", str(whisper_model), "--language", "en", "--threads", "2", "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 0, err
    assert "Wrote 2 segments" in err and "real-time factor" in err
    doc = read_transcript(out, language="en")
    assert len(doc) == 2 and doc.has_times and doc.segments[0].text.startswith("Good morning")


def test_transcribe_to_standard_output_with_the_default_model(whisper_model: Path, talk_clip: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["models", "add", str(whisper_model), "--name", "tiny.en", "--link", "--default"]) == 0
    out = capsys.readouterr().out
    assert "Added Whisper model 'tiny.en'" in out and "default Whisper model" in out
    assert main(["models", "list"]) == 0
    listing = capsys.readouterr().out
    assert "whisper" in listing and "tiny.en" in listing
    assert main(["transcribe", str(talk_clip), "-q", "--threads", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "start\tend\ttext" and len(lines) == 3 and "Good morning" in lines[1]


def test_transcribe_interrupted_writes_what_is_done(whisper_model: Path, talk_clip: Path, tmp_path: Path,
                                                   whisper_interrupted_after_one_segment: None,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "part.srt"
    code = main(["transcribe", str(talk_clip), "--model", str(whisper_model), "--threads", "2", "-o", str(out)])
    err = capsys.readouterr().err
    assert code == EXIT_INTERRUPTED and "interrupted at" in err
    assert "Good morning" in out.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["--language", "xx"], EXIT_USAGE, "unknown language 'xx'"),
        (["--threads", "0"], EXIT_USAGE, "--threads: must be between 1 and 256"),
        (["--model", "nothing-here"], EXIT_INPUT, "no Whisper model named 'nothing-here'"),
        (["-o", "/no/such/folder/x.srt"], EXIT_INPUT, "does not exist"),
        (["-o", "x.docx"], EXIT_USAGE, "a transcript is written as .txt, .tsv, .srt, .vtt, .TextGrid or .eaf"),
    ],
)
def test_transcribe_bad_options(whisper_model: Path, talk_clip: Path, args: list[str], code: int, message: str,
                                capsys: pytest.CaptureFixture[str]) -> None:
    if "--model" not in args:
        args = [*args, "--model", str(whisper_model)]
    assert main(["transcribe", str(talk_clip), *args]) == code
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_transcribe_without_any_model_says_how_to_get_one(talk_clip: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["transcribe", str(talk_clip)]) == EXIT_INPUT
    err = capsys.readouterr().err
    assert "no speech model is set" in err and "sialign models add FOLDER --default" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("kind", ["zero-bytes", "text", "silent"])
def test_transcribe_bad_audio_is_one_line(whisper_model: Path, tmp_path: Path, kind: str, capsys: pytest.CaptureFixture[str]) -> None:
    import soundfile as sf

    path = tmp_path / "input.wav"
    if kind == "zero-bytes":
        path.write_bytes(b"")
    elif kind == "text":
        path.write_text("1\n00:00:01,000 --> 00:00:02,000\nhello\n" * 20)
    else:
        sf.write(str(path), np.zeros(16000, dtype="float32"), 16000)
    assert main(["transcribe", str(path), "--model", str(whisper_model)]) == EXIT_INPUT
    err = capsys.readouterr().err
    assert str(path) in err and len(err.strip().splitlines()) == 1


def test_retime_times_an_untimed_transcript(whisper_model: Path, talk_clip: Path, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    from sialign.io.readers import read_transcript

    text = tmp_path / "talk.txt"
    text.write_text("Good morning, everyone, and thank you for coming.\nToday I want to talk about something very ordinary: bread.\n")
    out = tmp_path / "timed.srt"
    code = main(["retime", str(text), str(talk_clip), "-o", str(out), "--model", str(whisper_model), "--language", "en", "--threads", "2"])
    assert code == 0, capsys.readouterr().err
    timed = read_transcript(out, language="en")
    assert [s.text for s in timed.segments] == text.read_text().splitlines()  # the text is kept as it was
    reference = read_transcript(EXAMPLES / "talk.en.srt", language="en")  # the times espeak-ng spoke them at
    for got, want in zip(timed.segments, reference.segments):
        assert got.start == pytest.approx(want.start, abs=0.5)
        assert got.end == pytest.approx(want.end, abs=0.5)
