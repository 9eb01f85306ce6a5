"""LocalAgreement-2 over a sliding buffer, with a scripted recogniser (tests/booth/live_fakes.py)."""

from __future__ import annotations

import numpy as np
import pytest

from live_fakes import RATE, ScriptedSpeech, buffer_span, timed_audio
from sialign.booth.streaming import Heard, HypothesisBuffer, StreamingRecogniser
from sialign.transcribe.recognise import Word


def w(text: str, start: float, end: float) -> Word:
    return Word(text, start, end)


def test_words_are_committed_once_two_passes_agree_on_the_prefix() -> None:
    buf = HypothesisBuffer()
    buf.insert([w(" a", 0.0, 0.5), w(" b", 0.6, 1.0), w(" c", 1.1, 1.5)], 10.0)
    assert buf.flush() == []  # one pass proves nothing
    buf.insert([w(" a", 0.0, 0.5), w(" b", 0.6, 1.0), w(" d", 1.1, 1.6)], 10.0)
    assert [x.text for x in buf.flush()] == [" a", " b"]
    assert [x.text for x in buf.uncommitted()] == [" d"]
    assert buf.last_committed_time == pytest.approx(11.0)  # recording clock: offset + end
    buf.insert([w(" a", 0.0, 0.5), w(" b", 0.6, 1.0), w(" d", 1.1, 1.6), w(" e", 1.7, 2.0)], 10.0)
    assert [x.text for x in buf.flush()] == [" d"]


def test_a_pass_repeating_the_last_committed_words_does_not_commit_them_twice() -> None:
    buf = HypothesisBuffer()
    for _ in range(2):
        buf.insert([w("x", 0.0, 1.0), w("y", 1.0, 2.0)], 0.0)
        done = buf.flush()
    assert [x.text for x in done] == ["x", "y"]
    # The buffer was cut at 1.0: the next pass hears "y" again at its start, then "z".
    buf.pop_committed(1.0)
    buf.insert([w("y", 0.05, 1.0), w("z", 1.1, 2.0)], 1.0)
    assert [x.text for x in buf.new] == ["z"]


def test_disagreement_commits_nothing_until_passes_agree() -> None:
    buf = HypothesisBuffer()
    buf.insert([w("one", 0, 1)], 0.0)
    buf.flush()
    buf.insert([w("won", 0, 1)], 0.0)
    assert buf.flush() == []
    buf.insert([w("won", 0, 1)], 0.0)
    assert [x.text for x in buf.flush()] == ["won"]


def test_timed_audio_says_where_it_is() -> None:
    audio = timed_audio(3.0, start_s=12.5)
    assert buffer_span(audio[RATE:]) == pytest.approx((13.5, 15.5))


def _stream(speech: ScriptedSpeech, seconds: float, start: float = 0.0, block: float = 0.1, **options) -> StreamingRecogniser:  # type: ignore[no-untyped-def]
    rec = StreamingRecogniser(speech, **options)
    audio = timed_audio(seconds, start)
    step = int(block * RATE)
    for first in range(0, audio.size, step):
        rec.add_audio(audio[first : first + step], start + first / RATE)
        if rec.ready():
            rec.process()
    return rec


def test_streaming_commits_every_word_with_its_recording_time() -> None:
    said = [w(f"w{k}", 100.0 + 0.8 * k + 0.1, 100.0 + 0.8 * k + 0.6) for k in range(40)]
    speech = ScriptedSpeech(said)
    rec = _stream(speech, 34.0, start=100.0)
    rec.finish()
    assert [x.text for x in rec.committed] == [x.text for x in said]
    assert [x.start for x in rec.committed] == pytest.approx([x.start for x in said])
    assert rec.received_s == pytest.approx(34.0) and rec.overlap_s == 0 and rec.gap_s == 0


def test_the_buffer_is_cut_at_committed_segment_ends_and_stays_short() -> None:
    said = [w(f"w{k}", 0.8 * k + 0.1, 0.8 * k + 0.6) for k in range(70)]
    speech = ScriptedSpeech(said)
    _stream(speech, 57.0, trim_s=10.0, joiner=" ")
    longest = max(end - start for start, end in speech.spans)
    assert longest <= 10.0 + 2.5  # cut once above trim_s, at a segment end the passes agreed on
    assert speech.spans[-1][0] > 40.0
    # The prompt is the committed text before the buffer.
    before = [x.text for x in said if x.end <= speech.spans[-1][0]]
    assert speech.prompts[-1].split() == before[-len(speech.prompts[-1].split()) :]
    assert 190 <= len(speech.prompts[-1]) <= 204  # the last 200 characters, in whole words


def test_words_heard_wrong_at_the_buffer_end_are_not_committed_until_heard_right() -> None:
    said = [w("alpha", 0.2, 0.9), w("beta", 1.6, 1.95)]
    rec = StreamingRecogniser(ScriptedSpeech(said, unsure_s=0.5))
    committed = []
    for k in range(4):
        rec.add_audio(timed_audio(1.0, float(k)), float(k))
        rec.process()
        committed.append([x.text for x in rec.committed])
    # "alpha" is cut off (heard "??") in the first pass: the second hears it right but disagrees with the first,
    # the third agrees; "beta" likewise one pass later.
    assert committed == [[], [], ["alpha"], ["alpha", "beta"]]


def test_gaps_are_filled_with_silence_and_repeated_audio_is_dropped() -> None:
    rec = StreamingRecogniser(ScriptedSpeech([]))
    rec.add_audio(np.ones(RATE, dtype=np.float32), 5.0)
    rec.add_audio(np.ones(RATE, dtype=np.float32), 6.5)  # half a second missing
    assert rec.gap_s == pytest.approx(0.5) and rec.audio_end_s == pytest.approx(7.5)
    rec.add_audio(np.ones(RATE, dtype=np.float32), 7.0)  # half a second again
    assert rec.overlap_s == pytest.approx(0.5) and rec.audio_end_s == pytest.approx(8.0)


def test_a_silent_buffer_is_kept_short() -> None:
    class Deaf:
        def transcribe(self, samples: np.ndarray, prompt: str) -> Heard:
            return Heard([])

    rec = StreamingRecogniser(Deaf())
    for k in range(30):
        rec.add_audio(np.zeros(RATE, dtype=np.float32), float(k))
        rec.process()
    assert rec.buffer_s <= 3.0 and rec.audio_end_s == pytest.approx(30.0)
