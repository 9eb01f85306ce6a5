"""Any language from audio: the example's Japanese interpretation transcribed, timed and aligned with the multilingual base model.

The recordings are espeak-ng speech; its Japanese voice reads kana, so the
recogniser writes mostly kana where the manual transcript has kanji. The
tests use the first 34–38 s of each track (sentences 1–7 and their
renderings), recognised once per session where they can share it.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from sialign.cli.main import main
from sialign.io.readers import read_transcript

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"
KANA_OR_KANJI = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
SENTENCES = 7  # in the clips
GOLD_CHUNKS = 22  # chunks 1–22 of talk.ja.srt render sentences 1–7


def _gold_spans() -> dict[int, tuple[float, float] | None]:
    """Gold target span (first start, last end) of each of the clips' source sentences (talk.gold.align, talk.ja.srt)."""
    chunks = read_transcript(EXAMPLES / "talk.ja.srt").segments
    spans: dict[int, tuple[float, float] | None] = {}
    for line in (EXAMPLES / "talk.gold.align").read_text().splitlines():
        match = re.match(r"^(\[[^\]]*\])\s*:\s*(\[[^\]]*\])", line.strip())
        assert match
        src, tgt = ast.literal_eval(match.group(1)), ast.literal_eval(match.group(2))
        for i in src:
            if i < SENTENCES:
                spans[i] = (chunks[tgt[0]].start, chunks[tgt[-1]].end) if tgt else None
    return spans


def test_japanese_recording_becomes_timed_chunks(ja_transcription) -> None:  # type: ignore[no-untyped-def]
    doc, heard = ja_transcription.document, ja_transcription.recognition
    assert heard.language == "ja" and not heard.interrupted
    text = doc.full_text()
    assert "おはようございます" in text
    assert len(KANA_OR_KANJI.findall(text)) > 0.8 * len(re.sub(r"\W", "", text))
    # Cut like the manual transcript (22 chunks after 、 and 。), each with the times of its words.
    assert 0.6 * GOLD_CHUNKS <= len(doc) <= 1.5 * GOLD_CHUNKS
    starts = [s.start for s in doc.segments]
    assert starts == sorted(starts) and all(s.end >= s.start for s in doc.segments)
    assert abs(doc.segments[0].start - 3.0) < 1.0  # 皆さん、 starts at 3.0 s
    assert doc.language == "ja" and doc.format == "whisper"


def test_japanese_transcript_gets_the_times_of_its_recording(ja_transcription) -> None:  # type: ignore[no-untyped-def]
    from dataclasses import replace

    from sialign.transcribe import retime_document

    gold = read_transcript(EXAMPLES / "talk.ja.srt")
    untimed = replace(gold, segments=[replace(s, start=None, end=None) for s in gold.segments[:GOLD_CHUNKS]])
    timed, stats = retime_document(untimed, ja_transcription.recognition.words)
    assert stats.segments == GOLD_CHUNKS and stats.matched > 0.3 * stats.tokens
    errors = sorted(abs(t.start - g.start) for t, g in zip(timed.segments, gold.segments))
    assert errors[len(errors) // 2] < 0.5  # median start error
    assert sum(e < 1.0 for e in errors) >= 0.8 * len(errors)


def test_retime_command_in_japanese_with_the_default_speech_model(whisper_multilingual: Path, ja_clip: Path, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("SIALIGN_MODEL_DIR", str(tmp_path / "models"))
    assert main(["models", "add", str(whisper_multilingual), "--name", "base", "--link", "--default"]) == 0
    gold = read_transcript(EXAMPLES / "talk.ja.srt").segments[:GOLD_CHUNKS]
    untimed = tmp_path / "ja.txt"
    untimed.write_text("\n".join(s.text for s in gold) + "\n", encoding="utf-8")
    out = tmp_path / "ja.timed.srt"
    capsys.readouterr()
    assert main(["retime", str(untimed), str(ja_clip), "--language", "ja", "-o", str(out), "-q", "--threads", "2"]) == 0
    assert f"Timed {GOLD_CHUNKS} segments" in capsys.readouterr().err
    timed = read_transcript(out)
    assert timed.texts() == [s.text for s in gold]
    errors = sorted(abs(t.start - g.start) for t, g in zip(timed.segments, gold))
    assert errors[len(errors) // 2] < 0.5


def test_align_two_recordings_alone(whisper_multilingual: Path, en_clip: Path, ja_clip: Path, tmp_path: Path,
                                    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import sialign

    out = tmp_path / "talk.sialign"
    code = main(["align", str(en_clip), str(ja_clip), "--src-lang", "en", "--tgt-lang", "ja",
                 "--whisper-model", str(whisper_multilingual), "-o", str(out), "-q"])
    assert code == 0, capsys.readouterr().err
    project = sialign.load(out)
    assert project.source.language == "en" and project.target.language == "ja"
    assert project.source.has_times and project.target.has_times
    assert Path(project.source.audio_path or "").name == en_clip.name
    assert Path(project.target.audio_path or "").name == ja_clip.name
    assert project.metadata["interpretation_transcript"].startswith("machine transcript (Whisper")
    assert project.params is not None and project.params.lag_window == "fit" and not project.params.learned_score
    assert 6 <= len(project.source) <= 8
    # Each gold sentence's rendering span is found: the kept beads whose source overlaps it, on the recordings' clock.
    gold = _gold_spans()
    src, tgt = project.source.segments, project.target.segments
    kept = [b for b in project.alignment.beads if b.src and b.tgt and b.status.value != "dropped"]
    found = 0
    for i, want in gold.items():
        assert want is not None
        g0, g1 = read_transcript(EXAMPLES / "talk.en.srt").segments[i].start, read_transcript(EXAMPLES / "talk.en.srt").segments[i].end
        spans = [(tgt[b.tgt[0]].start, tgt[b.tgt[-1]].end) for b in kept
                 if min(g1, src[b.src[-1]].end) - max(g0, src[b.src[0]].start) > 0.5 * min(g1 - g0, src[b.src[-1]].end - src[b.src[0]].start)]
        if spans:
            h0, h1 = min(a for a, _ in spans), max(b for _, b in spans)
            iou = max(0.0, min(h1, want[1]) - max(h0, want[0])) / (max(h1, want[1]) - min(h0, want[0]))
            found += iou >= 0.5
    assert found >= SENTENCES - 2
