"""Chunking and aligning a growing rendition, with topic embeddings (tests/booth/live_fakes.py)."""

from __future__ import annotations

import pytest
from live_fakes import TopicEmbedder, rendition_words, talk

from sialign.booth.incremental import PENDING, RENDERED, UNRENDERED, IncrementalAligner, LiveChunker
from sialign.core.errors import SialignError
from sialign.core.model import Document
from sialign.transcribe.recognise import Word


def test_chunker_cuts_as_the_interpretation_is_cut_and_never_changes_a_closed_chunk() -> None:
    words = rendition_words(6)
    chunker = LiveChunker("ja")
    seen: list[list[str]] = []
    for k in range(1, len(words) + 1):
        doc, first_changed = chunker.update(words[:k])
        texts = doc.texts()
        if seen:
            # Chunks before first_changed are the ones of the last update, unchanged.
            assert texts[:first_changed] == seen[-1][:first_changed]
        seen.append(texts)
    final, _ = chunker.update(words, final=True)
    from sialign.transcribe.segmenting import words_to_document

    offline = words_to_document(words, "ja", role="interpretation")
    assert final.texts() == offline.texts()
    assert [(s.start, s.end) for s in final.segments] == [(s.start, s.end) for s in offline.segments]
    assert final.ids() == list(range(len(final)))


def test_chunker_keeps_an_open_tail_provisional() -> None:
    chunker = LiveChunker("ja")
    doc, _ = chunker.update([Word("話題", 0.0, 0.5), Word("続き", 0.6, 1.0)])
    assert doc.texts() == ["話題続き"] and chunker.frozen_words == 0
    doc, changed = chunker.update([Word("話題", 0.0, 0.5), Word("続き", 0.6, 1.0), Word("です。", 1.1, 1.5)])
    assert doc.texts() == ["話題続きです。"] and changed == 0 and chunker.frozen_words == 3


def _aligner(n: int = 8, **options) -> IncrementalAligner:  # type: ignore[no-untyped-def]
    return IncrementalAligner(talk(n), TopicEmbedder(), **options)


def _grow(aligner: IncrementalAligner, words: list[Word], until: float, step: float = 1.0):  # type: ignore[no-untyped-def]
    """Update every ``step`` seconds with the words heard by then; the shapes of every update."""
    chunker = LiveChunker("ja")
    history = []
    t = step
    while t <= until + 1e-9:
        heard = [w for w in words if w.end <= t]
        doc, changed = chunker.update(heard)
        history.append((t, aligner.update(doc, t, first_changed=changed), doc))
        t += step
    return history


def test_each_sentence_gets_its_rendition_and_an_omission_turns_unrendered_once_clearly_past() -> None:
    words = rendition_words(8, omit=[3])
    aligner = _aligner(lag_window_s=6.0, revise_window_s=8.0)
    history = _grow(aligner, words, until=36.0)
    t, shapes, doc = history[-1]
    by_src = {s.i0: s for s in shapes if s.a}
    for k in (0, 1, 2, 4, 5, 6, 7):
        s = by_src[k]
        assert s.a == 1 and s.state == RENDERED
        assert doc.texts()[s.j0 : s.j0 + s.b] == [f"話題#{k}、", f"続き#{k}。"]
    assert by_src[3].b == 0 and by_src[3].state == UNRENDERED
    # Sentence 3 ended at 16 s: pending while the student may still render it, amber once 6 s past and 4 rendered.
    # (Until the second chunk of sentence 4's rendition comes, the cost model may take 3-4 as one bead.)
    states = [(t, next(s.state for s in sh if s.a and s.i0 <= 3 < s.i0 + s.a)) for t, sh, _ in history if any(s.a and s.i0 + s.a > 3 for s in sh)]
    assert any(state == PENDING for t, state in states if t < 22.0)
    assert all(state != UNRENDERED for t, state in states if t < 22.0)
    assert all(state == UNRENDERED for t, state in states if t >= 23.0)


def test_the_last_sentence_waits_as_pending_while_it_is_being_rendered() -> None:
    words = rendition_words(4)
    aligner = _aligner(4)
    history = _grow(aligner, words, until=14.5, step=0.5)
    # Sentence 3 is spoken 13-16 s; at 14.5 s it has begun and nothing renders it yet.
    t, shapes, _ = history[-1]
    last = shapes[-1]
    assert (last.i0, last.b, last.state) == (3, 0, PENDING)
    assert all(s.state == RENDERED for s in shapes[:-1])


def test_settled_beads_are_not_revised_and_sentences_not_yet_spoken_are_not_shown() -> None:
    words = rendition_words(8)
    aligner = _aligner(lag_window_s=6.0, revise_window_s=8.0)
    history = _grow(aligner, words, until=34.0)
    for (t0, before, _), (t1, after, _) in zip(history, history[1:]):
        settled = [s for s in before if max(4.0 * s.i0 + 4.0 if s.a else 0, 0) < t1 - 8.0 - 4.0 and s.b]
        for s in settled:
            assert s in after, f"bead {s} settled at {t0} s was revised at {t1} s"
        spoken = sum(1 for k in range(8) if 4.0 * k + 1.0 < t0)
        assert max((s.i0 + s.a for s in before if s.a), default=0) <= spoken


@pytest.mark.parametrize("stop_at, shown", [(30.0, 8), (22.0, 6)])
def test_at_stop_every_unmatched_sentence_spoken_by_then_is_unrendered(stop_at: float, shown: int) -> None:
    words = rendition_words(5)
    doc, _ = LiveChunker("ja").update(words, final=True)
    shapes = _aligner(8).update(doc, stop_at, final=True)
    states = {s.i0: s.state for s in shapes if s.a}
    # Sentences the speaker had not begun when the session stopped are not shown.
    assert [states[k] for k in sorted(states)] == [RENDERED] * 5 + [UNRENDERED] * (shown - 5)


def test_source_without_times_is_refused_in_one_line() -> None:
    with pytest.raises(SialignError, match="no times"):
        IncrementalAligner(Document.from_texts(["a.", "b."], "en"), TopicEmbedder())


def test_the_chunker_loads_ginza_before_the_session_for_japanese_only(real_chunker_prepare, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import sialign.text.japanese as japanese

    loaded: list[str] = []
    monkeypatch.setattr(japanese, "ginza_nlp", lambda: loaded.append("ginza"))
    real_chunker_prepare(LiveChunker("en"))
    assert loaded == []
    real_chunker_prepare(LiveChunker("ja"))
    assert loaded == ["ginza"]

    def missing() -> None:
        raise japanese.LanguageToolUnavailable("Japanese text needs GiNZA, which is not installed")

    monkeypatch.setattr(japanese, "ginza_nlp", missing)
    real_chunker_prepare(LiveChunker("ja"))  # no GiNZA: the chunker raises it when a chunk needs it, not before


def test_the_live_chunker_closes_a_chunk_where_the_voice_activity_filter_heard_a_pause() -> None:
    from sialign.booth.incremental import LiveChunker
    from sialign.transcribe.recognise import Word

    words = [Word(" one", 0.0, 0.4), Word(" two", 0.5, 0.9), Word(" three", 1.0, 1.6), Word(" four", 2.1, 2.5)]
    chunker = LiveChunker("en")
    chunker.update(words)
    assert chunker.frozen_words == 0  # a 0.5 s gap and no punctuation: nothing is certain yet
    document, changed = chunker.update(words, paused_at=1.6)
    assert chunker.frozen_words == 3 and changed == 0  # the pause after "three" closes the chunk for good
    assert [seg.text.strip() for seg in document.segments] == ["one two three", "four"]
    chunker.update(words + [Word(" five", 2.6, 3.0)], paused_at=1.6)
    assert chunker.frozen_words == 3  # the same pause again closes nothing more
