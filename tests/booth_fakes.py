"""A scripted live aligner and full pass for the booth's GUI tests and screenshots.

They use ``sialign.booth.live``'s ``LiveBead``, ``LiveUpdate`` and ``LiveResult``, behave as its ``LiveAligner`` and
``sialign.workflows.practice.practice_project`` without recognising anything: a test pushes the updates
a live aligner would send (from another thread, as the real one does) and the full pass returns a
project made from the same target chunks.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from sialign.booth.live import LiveBead, LiveResult, LiveUpdate
from sialign.core.model import Alignment, Bead, Document, Project, Segment


class FakeLiveAligner:
    """Records what it is fed; ``push`` delivers an update from a thread of its own."""

    def __init__(self, source: Document, *, tgt_lang: str, model: Path, src_lang: str | None = None,
                 on_update: Callable[[LiveUpdate], None] | None = None) -> None:
        self.source = source
        self.tgt_lang = tgt_lang
        self.model = model
        self.on_update = on_update
        self.fed: list[tuple[float, int]] = []
        self.started = False
        self.finished = False
        self.last: LiveUpdate | None = None
        self._lock = threading.Lock()

    def feed(self, samples: np.ndarray, t_start_s: float) -> None:
        assert samples.dtype == np.float32 and samples.ndim == 1
        with self._lock:
            self.fed.append((t_start_s, samples.size))

    def start(self) -> None:
        self.started = True

    def push(self, update: LiveUpdate) -> None:
        self.last = update
        assert self.on_update is not None
        thread = threading.Thread(target=self.on_update, args=(update,), name="fake-live")
        thread.start()
        thread.join()

    def finish(self) -> LiveResult:
        self.finished = True
        last = self.last
        target = last.target if last is not None else Document(language=self.tgt_lang)
        return LiveResult([], target, list(last.beads) if last is not None else [], [])


class FakeLiveFactory:
    """The booth window's ``live_factory``; keeps the aligners it made."""

    def __init__(self) -> None:
        self.made: list[FakeLiveAligner] = []

    def __call__(self, source: Document, **kwargs: Any) -> FakeLiveAligner:
        self.made.append(FakeLiveAligner(source, **kwargs))
        return self.made[-1]


def scripted_updates(source: Document, chunks: Sequence[tuple[str, float, float]], layout: Sequence[tuple[Sequence[int], Sequence[int]]],
                     *, lag_s: float = 3.0, unrendered: Sequence[int] = ()) -> list[LiveUpdate]:
    """The updates a live aligner would send while the rendition of ``layout`` grows, one bead at a time.

    Args:
        chunks: (text, start, end) of the interpretation's chunks, on the recording's clock.
        layout: (source positions, chunk positions) of each bead, in order.
        unrendered: bead numbers (0-based) the student skipped: amber once a later bead is rendered.
    """
    updates: list[LiveUpdate] = []
    src_ids = source.ids()
    for k in range(1, len(layout) + 1):
        shown_chunks = sorted({j for _, tgt in layout[:k] for j in tgt})
        target = Document(language="ja", segments=[
            Segment(id=j, text=chunks[j][0], start=chunks[j][1], end=chunks[j][2], gap="" if n == 0 else "\n")
            for n, j in enumerate(shown_chunks)])
        beads = []
        for i, (src, tgt) in enumerate(layout):
            src_t = tuple(src_ids[p] for p in src)
            if i < k:
                tgt_t = tuple(tgt)
                end = max((chunks[j][2] for j in tgt), default=math.nan)
                shown = end + lag_s if tgt else math.nan
                state = "unrendered" if i in unrendered else "rendered"
                beads.append(LiveBead(i, src_t, tgt_t, shown, shown - end if tgt else math.nan, state))
            else:
                beads.append(LiveBead(i, src_t, (), math.nan, math.nan, "pending"))
        updates.append(LiveUpdate(beads, target, chunks[shown_chunks[-1]][2] if shown_chunks else 0.0, [k - 1]))
    return updates


def fake_practice(chunks: Sequence[tuple[str, float, float]], layout: Sequence[tuple[Sequence[int], Sequence[int]]],
                  *, seconds: float = 0.0) -> Callable[..., Project]:
    """A full pass returning ``chunks`` aligned as ``layout`` (what the offline pass would find) after ``seconds`` of work."""

    def practice_project(source: Document, recording: Path, *, tgt_lang: str, model: Path, live: Any,
                         src_audio: Path | None, progress: Any = None, should_stop: Any = None) -> Project:
        if progress is not None:
            progress(0.5, "Transcribing the recording")
        time.sleep(seconds)
        target = Document(language=tgt_lang, audio_path=str(recording), format="whisper", segments=[
            Segment(id=j, text=text, start=a, end=b, gap="" if j == 0 else "\n") for j, (text, a, b) in enumerate(chunks)])
        ids = source.ids()
        beads = [Bead(tuple(ids[p] for p in src), tuple(tgt)) for src, tgt in layout]
        return Project(talk_id="session", source=source, target=target, alignment=Alignment(beads=beads, embedder="lexical"),
                       metadata={"interpretation_transcript": "machine transcript, not corrected", "speech_model": str(model),
                                 "practice": {"recording": str(recording), "live": {"beads": len(live.beads)} if live is not None else None}})

    return practice_project


def fake_whisper_folder(folder: Path, languages: Sequence[str] = ("en", "ja"), *, multilingual: bool = True) -> Path:
    """The files of a CTranslate2 Whisper folder, enough for the checks that read them (not loadable)."""
    import json

    folder.mkdir(parents=True, exist_ok=True)
    size = 51865 if multilingual else 51864  # vocabulary sizes of multilingual and English-only Whisper
    vocabulary = [f"t{i}" for i in range(size)]
    first = 50259
    for k, code in enumerate(languages):
        vocabulary[first + k] = f"<|{code}|>"
    (folder / "vocabulary.txt").write_text("\n".join(vocabulary) + "\n", encoding="utf-8")
    (folder / "tokenizer.json").write_text("{}", encoding="utf-8")
    (folder / "model.bin").write_bytes(b"\0")
    config = {"suppress_ids": [1], "lang_ids": [first + k for k in range(len(languages))] if multilingual else []}
    (folder / "config.json").write_text(json.dumps(config), encoding="utf-8")
    return folder
