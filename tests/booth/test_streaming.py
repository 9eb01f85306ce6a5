"""LocalAgreement-2 over a sliding buffer, with a scripted recogniser (tests/booth/live_fakes.py)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from live_fakes import RATE, ScriptedSpeech, buffer_span, timed_audio

from sialign.booth.streaming import (
    Heard,
    HypothesisBuffer,
    StreamingRecogniser,
    WhisperTranscriber,
    _short_window_model,
    before_repetition,
    fit_encoder_window,
)
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
    _stream(speech, 57.0, trim_s=10.0, joiner=" ", prompt_chars=200)
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


def test_passes_agree_on_the_text_even_when_they_split_it_into_different_words() -> None:
    # Whisper's Japanese "words" are its tokens: two passes hearing the same text may split it differently.
    buf = HypothesisBuffer()
    buf.insert([w("おは", 0.0, 0.3), w("よう", 0.3, 0.6), w("ござ", 0.6, 0.9), w("い", 0.9, 1.0)], 0.0)
    buf.flush()
    buf.insert([w("お", 0.0, 0.2), w("はよう", 0.2, 0.6), w("ござい", 0.6, 1.0), w("ます", 1.0, 1.3)], 0.0)
    # Agreed text "おはようござい"; both passes end a word after "おはよう" and after "おはようござい".
    assert [x.text for x in buf.flush()] == ["お", "はよう", "ござい"]
    assert [x.text for x in buf.uncommitted()] == ["ます"]


def test_a_word_is_not_committed_when_the_other_pass_runs_on_past_its_end() -> None:
    buf = HypothesisBuffer()
    buf.insert([w(" cat", 0.0, 0.5), w(" sat", 0.6, 1.0)], 0.0)
    buf.flush()
    buf.insert([w(" catalog", 0.0, 0.7), w(" sat", 0.8, 1.0)], 0.0)
    assert buf.flush() == []  # "cat" is a prefix of "catalog", but the first pass does not end a word there


class _Flaky:
    """Hears a different word in every pass (passes never agree), or a loop (nothing) when told."""

    def __init__(self) -> None:
        self.n = 0
        self.loop = False
        self.prompts: list[str] = []
        self.sizes: list[float] = []

    def transcribe(self, samples: np.ndarray, prompt: str) -> Heard:
        self.n += 1
        self.prompts.append(prompt)
        self.sizes.append(samples.size / RATE)
        if self.loop:
            return Heard([], looped=True)
        seconds = samples.size / RATE
        return Heard([w(f"x{self.n}-{k}", k + 0.1, k + 0.6) for k in range(int(seconds))], [seconds])


def test_a_full_buffer_is_cut_after_its_pass_so_a_backlog_advances_a_buffer_at_a_time() -> None:
    flaky = _Flaky()
    rec = StreamingRecogniser(flaky, trim_s=6.0, max_buffer_s=15.0)
    audio = timed_audio(60.0)
    for first in range(0, audio.size, RATE // 10):  # a backlog read as the live engine reads it
        rec.add_audio(audio[first : first + RATE // 10], first / RATE)
        if rec.ready() and rec.buffer_s >= rec.max_buffer_s:
            rec.process()
    # Each full pass commits what it heard up to trim_s before the end and keeps trim_s: 9 s per pass.
    assert flaky.n <= 60 / 9 + 1
    assert max(flaky.sizes) <= 15.0 + 0.11


def test_the_buffer_is_cut_at_the_last_committed_word_and_stays_short() -> None:
    said = [w(f"w{k}", 0.8 * k + 0.1, 0.8 * k + 0.6) for k in range(70)]
    speech = ScriptedSpeech(said)
    rec = _stream(speech, 57.0, trim_s=6.0, joiner=" ")
    rec.finish()
    assert max(end - start for start, end in speech.spans) <= 6.0 + 2.0  # never much more than trim_s
    assert [x.text for x in rec.committed] == [x.text for x in said]  # the word kept at the cut is not committed twice


def test_a_pass_in_a_loop_keeps_the_hypothesis_and_the_buffer_and_the_next_goes_without_prompt() -> None:
    flaky = _Flaky()
    rec = StreamingRecogniser(flaky, trim_s=6.0, max_buffer_s=15.0, joiner=" ", prompt_chars=200)
    rec.committed.append(w("said", 0.0, 0.5))  # committed before the buffer: the prompt
    for k in range(1, 5):
        rec.add_audio(timed_audio(1.0, float(k)), float(k))
        rec.process()
    assert flaky.prompts == ["said"] * 4
    before = rec.hypothesis.uncommitted()
    assert before
    flaky.loop = True
    rec.add_audio(timed_audio(1.0, 5.0), 5.0)
    rec.process()
    assert rec.hypothesis.uncommitted() == before  # a loop heard nothing, which is not silence either
    assert rec.buffer_s == pytest.approx(5.0)  # not cut as a silent buffer would be
    flaky.loop = False
    for k in (6, 7):
        rec.add_audio(timed_audio(1.0, float(k)), float(k))
        rec.process()
    assert flaky.prompts[-2:] == ["", "said"]  # the pass after a loop has no prompt, the next has it again


def test_a_buffer_of_nothing_but_loops_is_still_cut_at_its_longest() -> None:
    flaky = _Flaky()
    flaky.loop = True
    rec = StreamingRecogniser(flaky, trim_s=6.0, max_buffer_s=15.0)
    for k in range(40):
        rec.add_audio(timed_audio(1.0, float(k)), float(k))
        rec.process()
    assert max(flaky.sizes) <= 15.0 + 1e-6 and rec.received_s == pytest.approx(40.0)


def test_the_encoder_reads_the_audio_and_a_margin_not_thirty_padded_seconds() -> None:
    features = np.zeros((80, 3000), dtype=np.float32)
    features[:, :734] = 0.5  # 7.34 s of audio, then faster-whisper's zero padding
    cut = fit_encoder_window(features, margin_frames=200)
    assert cut.shape == (80, 1000)  # 734 + 200, rounded up to whole seconds
    assert cut.flags["C_CONTIGUOUS"] and np.array_equal(cut[:, :734], features[:, :734])
    batch = fit_encoder_window(features[None], margin_frames=200)
    assert batch.shape == (1, 80, 1000)
    features[:, :2950] = 0.5
    assert fit_encoder_window(features, margin_frames=200) is features  # nearly full: read as it is
    assert fit_encoder_window(np.zeros((80, 3000), dtype=np.float32)).shape == (80, 200)


def test_the_short_window_model_hands_the_encoder_the_cut_features() -> None:
    seen: list[tuple[int, ...]] = []

    class Base:
        def encode(self, features: np.ndarray) -> object:
            seen.append(features.shape)
            return features

    model = _short_window_model(Base)()
    features = np.zeros((80, 3000), dtype=np.float32)
    features[:, :100] = 1.0
    model.encode(features)
    assert seen == [(80, 300)]


def test_whisper_transcriber_keeps_what_a_looping_window_heard_before_the_loop_and_caps_the_tokens() -> None:
    calls: list[dict] = []

    def seg(texts: list[str], start: float, ratio: float) -> SimpleNamespace:
        words = [SimpleNamespace(word=t, start=start + k * 0.5, end=start + k * 0.5 + 0.4, probability=0.9) for k, t in enumerate(texts)]
        return SimpleNamespace(text="".join(texts), start=start, end=start + len(texts) * 0.5, words=words,
                               compression_ratio=ratio, no_speech_prob=0.0)

    class FakeWhisper:
        def transcribe(self, samples: np.ndarray, **options: object) -> tuple[object, None]:
            calls.append(options)
            looping = ["みなさん", "、", "おはよう", "ございます", "。"] + ["おはよう", "ございます", "。"] * 12
            return iter([seg(["はい", "。"], 0.0, 1.2), seg(looping, 1.0, 9.5), seg(["後"], 30.0, 1.1)]), None

    transcriber = WhisperTranscriber(Path("unused"), "ja")
    transcriber._whisper = FakeWhisper()
    transcriber._code = "ja"
    heard = transcriber.transcribe(np.zeros(RATE * 6, dtype=np.float32), "prompt")
    assert "".join(x.text for x in heard.words) == "はい。みなさん、おはようございます。" and heard.looped
    assert calls[0]["max_new_tokens"] == 16 * 6 + 16 and calls[0]["initial_prompt"] == "prompt"
    transcriber.transcribe(np.zeros(RATE * 60, dtype=np.float32), "")
    assert calls[1]["max_new_tokens"] == 220  # never more than the model's positions leave after a prompt


def test_the_words_before_a_repetition_are_kept_and_the_first_occurrence_too() -> None:
    def texts(words: list[Word]) -> list[str]:
        return [x.text for x in words]

    said = [w(t, k, k + 0.5) for k, t in enumerate(["a", "b", "c", "d", "c", "d", "c", "d", "c", "d"])]
    assert texts(before_repetition(said)) == ["a", "b", "c", "d"]
    stutter = [w(t, k, k + 0.5) for k, t in enumerate(["x", "つ", "つ", "つ", "つ"])]
    assert texts(before_repetition(stutter)) == ["x", "つ"]
    twice = [w(t, k, k + 0.5) for k, t in enumerate(["a", "b", "a", "b", "c"])]  # said twice is speech, not a loop
    assert texts(before_repetition(twice)) == ["a", "b", "a", "b", "c"]


def test_words_the_passes_never_agree_on_are_committed_as_last_heard_once_old_enough() -> None:
    flaky = _Flaky()  # a different word in every pass: LocalAgreement alone never commits
    rec = StreamingRecogniser(flaky, trim_s=6.0, max_buffer_s=15.0, commit_after_s=5.0)
    for k in range(12):
        rec.add_audio(timed_audio(1.0, float(k)), float(k))
        rec.process()
        assert all(w.end <= rec.audio_end_s - 5.0 for w in rec.committed)
    assert rec.committed and rec.committed[-1].end >= 12.0 - 5.0 - 1.0  # no word ended 6 s before waits
    assert rec.buffer_s < 15.0  # cut at the committed words: never full
    silent = StreamingRecogniser(_Flaky(), trim_s=6.0, max_buffer_s=15.0, commit_after_s=None)
    for k in range(12):
        silent.add_audio(timed_audio(1.0, float(k)), float(k))
        silent.process()
    assert silent.committed == []


def test_a_full_buffer_whose_last_pass_went_wrong_commits_what_the_pass_before_heard() -> None:
    class Lapse:
        """Hears a word a second, except one pass that hears a single word at the end (a hallucination)."""

        def __init__(self) -> None:
            self.n = 0

        def transcribe(self, samples: np.ndarray, prompt: str) -> Heard:
            self.n += 1
            start, end = buffer_span(samples)
            if self.n == 15:
                return Heard([w("と思います", end - start - 1.0, end - start - 0.2)])
            return Heard([w(f"x{self.n}-{k}", k + 0.1, k + 0.6) for k in range(int(end - start))])

    rec = StreamingRecogniser(Lapse(), trim_s=6.0, max_buffer_s=15.0, commit_after_s=None)
    for k in range(15):
        rec.add_audio(timed_audio(1.0, float(k)), float(k))
        rec.process()
    # The 15th pass filled the buffer and heard only its last second: the words of 0-9 s come from the 14th.
    assert [x.text for x in rec.committed] == [f"x14-{k}" for k in range(9)]


def _commit_times(rec_options: dict, said: list[Word], seconds: float) -> dict[str, float]:  # type: ignore[type-arg]
    """When (the audio's end, recording clock) each word was committed."""
    speech = ScriptedSpeech(said, unsure_s=0.3)
    rec = StreamingRecogniser(speech, **rec_options)
    audio = timed_audio(seconds, 0.0)
    step = int(0.1 * RATE)
    when: dict[str, float] = {}
    for first in range(0, audio.size, step):
        rec.add_audio(audio[first : first + step], first / RATE)
        if rec.ready():
            for word in rec.process():
                when[word.text] = rec.audio_end_s
    return when


def test_a_chunk_that_ended_in_a_pause_is_committed_by_one_pass() -> None:
    # Two chunks of speech with a second's pause between them, as interpreters speak.
    said = [w("a", 0.1, 0.6), w("b", 0.7, 1.3), w("c", 1.4, 2.0), w("d", 3.0, 3.5), w("e", 3.6, 4.2), w("f", 4.3, 5.0)]
    pauses = [(2.0, 3.0), (5.0, 9.0)]

    def finder(samples: np.ndarray) -> list[tuple[float, float]]:
        start, end = buffer_span(samples)
        return [(max(a, start) - start, min(b, end) - start) for a, b in pauses
                if min(b, end) - max(a, start) >= 0.4]

    agreed = _commit_times({}, said, 8.0)
    at_pauses = _commit_times({"pause_finder": finder}, said, 8.0)
    rec = _stream(ScriptedSpeech(said, unsure_s=0.3), 8.0, pause_finder=finder)
    assert rec.paused_at == pytest.approx(5.0)  # the last pause every word before is committed: where "f" ended
    assert set(at_pauses) == set(agreed) == set("abcdef")  # the same words, every one
    # The first chunk's last word is settled before the second chunk starts, one pass after the pause began.
    assert at_pauses["c"] <= 3.0 < agreed["c"]
    assert at_pauses["f"] < agreed["f"]
    assert all(at_pauses[x] <= agreed[x] for x in "abcdef")


def test_silero_finds_the_pauses_between_an_interpreters_chunks() -> None:
    pytest.importorskip("faster_whisper")
    from sialign.booth.streaming import silero_pauses
    from sialign.transcribe.recognise import decode_audio_file

    _path, samples = decode_audio_file(Path(__file__).resolve().parents[2] / "resources" / "examples" / "talk.ja.ogg")
    pauses = silero_pauses(samples[20 * RATE : 30 * RATE])
    assert pauses and all(end - start >= 0.4 and 0.0 <= start < end <= 10.0 for start, end in pauses)
    assert silero_pauses(np.zeros(5 * RATE, dtype=np.float32)) == []  # no speech: no chunk to end


def test_by_default_the_passes_go_without_a_prompt() -> None:
    """The committed text is not given to Whisper unless asked for (PROMPT_CHARS): it slowed every pass and sent
    Whisper base into repeating it."""
    said = [w(f"w{k}", 0.8 * k + 0.1, 0.8 * k + 0.6) for k in range(30)]
    speech = ScriptedSpeech(said)
    rec = _stream(speech, 25.0, joiner=" ")
    rec.finish()
    assert len(speech.prompts) > 10 and set(speech.prompts) == {""}
    assert [x.text for x in rec.committed] == [x.text for x in said]
