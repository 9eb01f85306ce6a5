"""The live engine end to end with a scripted recogniser and topic embeddings; the recording clock; errors."""

from __future__ import annotations

import json
import math
import threading

import numpy as np
import pytest
from live_fakes import RATE, ScriptedSpeech, TopicEmbedder, rendition_words, talk, timed_audio

from sialign.booth.live import LiveAligner, LiveUpdate
from sialign.booth.streaming import Heard


def _feed(live: LiveAligner, seconds: float, block: float = 0.1) -> None:
    audio = timed_audio(seconds)
    step = int(block * RATE)
    for first in range(0, audio.size, step):
        live.feed(audio[first : first + step], first / RATE)


def test_a_rendition_fed_as_fast_as_possible_is_aligned_live_and_every_bead_is_an_event() -> None:
    words = rendition_words(8, omit=[3])
    updates: list[LiveUpdate] = []
    live = LiveAligner(talk(8), tgt_lang="ja", model=None, transcriber=ScriptedSpeech(words), embedder=TopicEmbedder(),
                       speed=0, on_update=updates.append, lag_window_s=6.0, revise_window_s=8.0)
    live.start()
    _feed(live, 36.0)
    result = live.finish()
    assert result.received_s == pytest.approx(36.0) and result.processed_s == pytest.approx(36.0)  # nothing dropped
    assert result.passes >= 30
    assert "".join(w.text for w in result.words) == "".join(w.text for w in words)
    states = {b.src[0]: b.state for b in result.beads if b.src}
    assert states == {k: ("unrendered" if k == 3 else "rendered") for k in range(8)}
    for bead in result.beads:
        if bead.src and bead.src[0] != 3:
            assert [result.target.segments[j].text for j in bead.tgt] == [f"話題#{bead.src[0]}、", f"続き#{bead.src[0]}。"]
    # Fed as fast as possible, a bead is shown on the audio clock: agreement takes two passes (about 2 s)
    # after its last word is heard whole (0.5 s), the first pass that hears it.
    latencies = result.latencies()
    assert len(latencies) == 7 and all(1.0 <= x <= 3.6 for x in latencies), latencies
    # Every change was an update, every new or revised bead an event with the bead's last showing.
    assert updates and updates[-1].beads == result.beads
    assert len(result.events) == sum(len(u.changed) for u in updates)
    last = {}
    for event in result.events:
        json.dumps(event)
        last[event["bead"]] = event
    for bead in result.beads:
        assert last[bead.index] == bead.event()
    assert last[3]["latency_s"] is None and last[3]["tgt"] == []


def test_recording_clock_maps_wall_time_at_the_feeds_speed() -> None:
    now = [100.0]
    live = LiveAligner(talk(2), tgt_lang="ja", model=None, transcriber=ScriptedSpeech([]), embedder=TopicEmbedder(),
                       clock=lambda: now[0], speed=2.0)
    assert live.recording_now() == 0.0
    live.feed(np.zeros(RATE // 10, dtype=np.float32), 4.9)  # block 4.9-5.0 s arrives at wall 100
    now[0] = 101.5
    assert live.recording_now() == pytest.approx(5.0 + 1.5 * 2.0)


def test_feed_never_blocks_while_a_pass_runs() -> None:
    gate = threading.Event()  # set once the backlog is queued

    class Slow:
        def transcribe(self, samples: np.ndarray, prompt: str) -> Heard:
            gate.wait(5.0)
            return Heard([])

    live = LiveAligner(talk(2), tgt_lang="ja", model=None, transcriber=Slow(), embedder=TopicEmbedder(), speed=1.0)
    live.start()
    import time

    started = time.perf_counter()
    _feed(live, 10.0)  # the worker is stuck in its first pass meanwhile
    assert time.perf_counter() - started < 1.0
    gate.set()
    result = live.finish()
    assert result.received_s == pytest.approx(10.0) and result.processed_s == pytest.approx(10.0)


def test_a_failing_pass_is_raised_by_finish_on_the_callers_thread() -> None:
    class Broken:
        def transcribe(self, samples: np.ndarray, prompt: str) -> Heard:
            raise RuntimeError("the recogniser broke")

    live = LiveAligner(talk(2), tgt_lang="ja", model=None, transcriber=Broken(), embedder=TopicEmbedder(), speed=0)
    live.start()
    _feed(live, 3.0)
    with pytest.raises(RuntimeError, match="broke"):
        live.finish()


def test_a_bead_without_target_has_no_latency() -> None:
    live = LiveAligner(talk(3), tgt_lang="ja", model=None, transcriber=ScriptedSpeech([]), embedder=TopicEmbedder(), speed=0)
    live.start()
    _feed(live, 13.0)
    result = live.finish()
    assert [b.state for b in result.beads] == ["unrendered"] * 3
    assert all(math.isnan(b.latency_s) and b.event()["latency_s"] is None for b in result.beads)


def test_a_backlog_is_read_one_buffer_at_a_time() -> None:
    gate = threading.Event()  # set once the backlog is queued
    spans: list[float] = []

    class Recorded:
        def transcribe(self, samples: np.ndarray, prompt: str) -> Heard:
            gate.wait(5.0)
            spans.append(samples.size / RATE)
            return Heard([])

    live = LiveAligner(talk(2), tgt_lang="ja", model=None, transcriber=Recorded(), embedder=TopicEmbedder(), speed=1.0)
    live.start()
    _feed(live, 80.0)  # arrives while the first pass is stuck: a backlog of 80 s
    gate.set()
    result = live.finish()
    assert result.processed_s == pytest.approx(80.0)
    assert max(spans) <= live.recogniser.max_buffer_s + 0.11


def test_the_chunker_is_prepared_before_the_first_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    from sialign.booth.incremental import LiveChunker

    order: list[str] = []
    monkeypatch.setattr(LiveChunker, "prepare", lambda self: order.append("chunker"))

    class Listening:
        def transcribe(self, samples: np.ndarray, prompt: str) -> Heard:
            order.append("pass")
            return Heard([])

    live = LiveAligner(talk(2), tgt_lang="ja", model=None, transcriber=Listening(), embedder=TopicEmbedder(), speed=0)
    live.start()
    _feed(live, 2.0)
    live.finish()
    assert order[0] == "chunker" and "pass" in order


def test_each_pass_over_a_backlog_reads_most_of_a_buffer_of_new_audio_even_when_passes_barely_agree() -> None:
    from live_fakes import buffer_span

    from sialign.transcribe.recognise import Word

    gate = threading.Event()  # set once the backlog is queued
    spans: list[tuple[float, float]] = []

    class Stubborn:
        """Agrees with the last pass on the buffer's first second only: the buffer is cut there, and stays full."""

        def transcribe(self, samples: np.ndarray, prompt: str) -> Heard:
            gate.wait(5.0)
            start, end = buffer_span(samples)
            spans.append((start, end))
            words = [Word(f"a{start:.1f}。", 0.1, 0.9)]  # punctuated: short chunks
            words += [Word(f"b{len(spans)}-{k}。", k + 0.1, k + 0.9) for k in range(1, int(end - start))]
            return Heard(words)

    live = LiveAligner(talk(2), tgt_lang="ja", model=None, transcriber=Stubborn(), embedder=TopicEmbedder(), speed=1.0)
    # A backlog of 90 s, all queued before the worker reads any: fed while the worker runs, its first
    # read could end part-way and its pass over that part-filled buffer would advance less (a race).
    _feed(live, 90.0)
    gate.set()
    live.start()
    result = live.finish()
    assert result.processed_s == pytest.approx(90.0)  # nothing skipped
    rec = live.recogniser
    advances = [b[1] - a[1] for a, b in zip(spans, spans[1:])]
    assert min(advances[:-1]) >= rec.max_buffer_s - rec.trim_s - rec.min_chunk_s  # not a second per pass
    assert max(b - a for a, b in spans) <= rec.max_buffer_s + 0.11
