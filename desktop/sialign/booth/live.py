"""Live alignment: recognise the student's rendition as it is spoken and align it with the talk (docs/practice.md).

:class:`LiveAligner` takes blocks of the recording (mono float32 at 16 kHz,
with the recording time of their first sample) from any thread through
:meth:`LiveAligner.feed`, which only queues them. Its worker thread runs the
streaming recogniser (:mod:`sialign.booth.streaming`: LocalAgreement-2 over a
sliding Whisper buffer), cuts the committed words into chunks and aligns
them with the source incrementally (:mod:`sialign.booth.incremental`), and
reports each change as a :class:`LiveUpdate` to ``on_update`` (called on the
worker thread: a GUI hands it over to its own thread).

Every bead that is new or changed is also an event, ``{"bead", "src",
"tgt", "shown_at_s", "latency_s", "state"}``: ``shown_at_s`` is the
recording-clock time at which it was shown, the wall-clock time since the
first block arrived mapped onto the recording's clock (at the feed's
``speed``; with ``speed=0``, fed as fast as possible, the end of the audio
the recogniser had read); ``latency_s`` is that minus the end of the bead's
last target word.

Nothing here is saved: at Stop, :func:`sialign.workflows.practice.practice_project`
makes the session's project from one full offline pass over the recording.
"""

from __future__ import annotations

import logging
import math
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from sialign.booth.incremental import LAG_WINDOW_S, REVISE_WINDOW_S, IncrementalAligner, LiveChunker, Shape
from sialign.booth.streaming import StreamingRecogniser, Transcriber, WhisperTranscriber, silero_pauses
from sialign.core.errors import SialignError
from sialign.core.model import Document, joiner_for
from sialign.core.params import AlignParams
from sialign.embed.base import Embedder
from sialign.transcribe.recognise import Word

log = logging.getLogger(__name__)

_STOP = object()


@dataclass
class LiveBead:
    """One bead of the live alignment.

    Attributes:
        index: its position in the live alignment.
        src: source segment ids (of the source document).
        tgt: target chunk ids (positions in :attr:`LiveUpdate.target`).
        shown_at_s: recording-clock time at which the bead was (re)shown.
        latency_s: ``shown_at_s`` minus the end of its last target word (NaN without target).
        state: ``rendered``; ``pending`` (the student is not past the sentence
            yet); ``unrendered`` (clearly past it, no rendition: amber).
    """

    index: int
    src: tuple[int, ...]
    tgt: tuple[int, ...]
    shown_at_s: float
    latency_s: float
    state: str

    def event(self) -> dict[str, Any]:
        """The JSON line of this bead's showing (NaN written as null)."""
        return {
            "bead": self.index, "src": list(self.src), "tgt": list(self.tgt), "shown_at_s": round(self.shown_at_s, 3),
            "latency_s": None if math.isnan(self.latency_s) else round(self.latency_s, 3), "state": self.state,
        }


@dataclass
class LiveUpdate:
    """The live alignment after a change.

    Attributes:
        beads: the whole live alignment, in source order.
        target: the committed chunks so far (times on the recording clock).
        committed_until_s: recording time up to which words are committed.
        changed: indices of beads new or revised in this update.
    """

    beads: list[LiveBead]
    target: Document
    committed_until_s: float
    changed: list[int]


@dataclass
class LiveResult:
    """What a live session produced.

    Attributes:
        words: every committed word (recording clock).
        target: the chunks.
        beads: the last live alignment.
        events: one per bead shown or revised, in order.
        received_s: seconds of audio fed.
        processed_s: seconds of audio the recogniser read (equal to
            ``received_s`` minus ``overlap_s``: nothing dropped).
        gap_s: silence put in where blocks' times left a gap.
        overlap_s: audio fed twice for the same times (not read twice).
        passes / recognition_s / longest_pass_s: the recogniser's passes and the time they took.
        alignment_s: time spent chunking, embedding and aligning after the passes.
        model: the Whisper model folder.
    """

    words: list[Word]
    target: Document
    beads: list[LiveBead]
    events: list[dict[str, Any]]
    received_s: float = 0.0
    processed_s: float = 0.0
    gap_s: float = 0.0
    overlap_s: float = 0.0
    passes: int = 0
    recognition_s: float = 0.0
    longest_pass_s: float = 0.0
    alignment_s: float = 0.0
    model: str = ""

    def latencies(self) -> list[float]:
        """Latency of each bead of the final live alignment with a rendition: when it was shown as it ended."""
        return [b.latency_s for b in self.beads if b.tgt and not math.isnan(b.latency_s)]


class LiveAligner:
    """The live engine: feed audio blocks, receive :class:`LiveUpdate` s, :meth:`finish` at Stop.

    Args:
        source: the source sentences with times on the recording's clock.
        tgt_lang: the rendition's language.
        model: the Whisper model folder (unused when ``transcriber`` is given).
        src_lang: the source's language (default: the document's).
        on_update: called on the worker thread after each change.
        embedder: the sentence encoder (default: the one ``sialign align`` would choose for the pair).
        clock: seconds, monotonic (tests pass a fake one).
        speed: how fast the audio is fed (1 = real time, as from a microphone;
            0 = as fast as possible, see the module's docstring).
        transcriber: one recognition pass (default: faster-whisper on ``model``).
        params: alignment parameters (default: ``sialign align``'s).
        threads / beam_size: for Whisper.
        lag_window_s / revise_window_s: see :mod:`sialign.booth.incremental`.
        pause_commit: commit a chunk that ended in a pause at once (a Whisper recogniser only; see
            :data:`sialign.booth.streaming.PAUSE_COMMIT_S`).

    Raises:
        SialignError: the source has no sentences or no times.
    """

    def __init__(
        self,
        source: Document,
        *,
        tgt_lang: str,
        model: Path | None,
        src_lang: str | None = None,
        on_update: Callable[[LiveUpdate], None] | None = None,
        embedder: Embedder | None = None,
        clock: Callable[[], float] = time.monotonic,
        speed: float = 1.0,
        transcriber: Transcriber | None = None,
        params: AlignParams | None = None,
        threads: int = 2,
        beam_size: int = 1,
        lag_window_s: float = LAG_WINDOW_S,
        revise_window_s: float = REVISE_WINDOW_S,
        pause_commit: bool = True,
    ) -> None:
        if src_lang:
            source.language = src_lang
        self.source = source
        self.tgt_lang = tgt_lang
        self.on_update = on_update
        self.clock = clock
        self.speed = max(float(speed), 0.0)
        if transcriber is None:
            if model is None:
                raise SialignError("live alignment needs a Whisper model folder.")
            transcriber = WhisperTranscriber(Path(model), tgt_lang, threads=threads, beam_size=beam_size)
        self.model = str(model or "")
        self.params = params or AlignParams()
        self._embedder = embedder
        # A real recogniser commits a chunk that ended in a pause at once (Silero, as faster-whisper has it).
        pauses = silero_pauses if isinstance(transcriber, WhisperTranscriber) and pause_commit else None
        self.recogniser = StreamingRecogniser(transcriber, joiner=joiner_for(tgt_lang), pause_finder=pauses)
        self.chunker = LiveChunker(tgt_lang)
        self.aligner = IncrementalAligner(source, embedder or _NoEmbedder(), params=self.params,
                                          lag_window_s=lag_window_s, revise_window_s=revise_window_s)
        self.events: list[dict[str, Any]] = []
        self.beads: list[LiveBead] = []
        self.target = Document(language=tgt_lang)
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None
        self._lock = threading.Lock()
        self._last_feed: tuple[float, float] | None = None  # (clock, recording time at the end of the last block)
        self._keys: list[tuple[Any, ...]] = []
        self._align_s = 0.0

    # ------------------------------------------------------------ feeding
    def feed(self, samples: np.ndarray, t_start_s: float) -> None:
        """Queue a block (mono float32 at 16 kHz) whose first sample is at ``t_start_s`` on the recording clock; never blocks."""
        block = np.array(samples, dtype=np.float32, copy=True).reshape(-1)
        with self._lock:
            self._last_feed = (self.clock(), float(t_start_s) + block.size / 16_000)
        self._queue.put((block, float(t_start_s)))

    def recording_now(self) -> float:
        """The recording-clock time now (see the module's docstring)."""
        if self.speed == 0:
            return self.recogniser.processed_until_s
        with self._lock:
            last = self._last_feed
        if last is None:
            return 0.0
        wall, rec = last
        return rec + (self.clock() - wall) * self.speed

    # ------------------------------------------------------------ the worker
    def start(self) -> None:
        """Start the worker thread (it loads the models first)."""
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name="sialign-live", daemon=True)
        self._thread.start()

    def finish(self) -> LiveResult:
        """Recognise what is left, commit every word, align once more and stop the worker.

        Raises:
            SialignError (or what the worker raised): the models could not be loaded, or a pass failed.
        """
        if self._thread is None:
            self.start()
        self._queue.put(_STOP)
        assert self._thread is not None
        self._thread.join()
        if self._error is not None:
            raise self._error
        rec = self.recogniser
        return LiveResult(
            words=list(rec.committed), target=self.target, beads=list(self.beads), events=list(self.events),
            received_s=round(rec.received_s, 3), processed_s=round(rec.received_s - rec.overlap_s, 3),
            gap_s=round(rec.gap_s, 3), overlap_s=round(rec.overlap_s, 3), passes=rec.stats.passes,
            recognition_s=round(rec.stats.seconds, 3), longest_pass_s=round(rec.stats.longest_s, 3),
            alignment_s=round(self._align_s, 3), model=self.model,
        )

    def _run(self) -> None:
        try:
            self._prepare()
            finishing = False
            while not finishing:
                items = [self._queue.get()]
                while True:  # everything that arrived during the last pass
                    try:
                        items.append(self._queue.get_nowait())
                    except queue.Empty:
                        break
                for it in items:
                    if it is _STOP:
                        finishing = True
                        break
                    self.recogniser.add_audio(*it)
                    # Fed faster than real time, the passes step through the audio as they would have
                    # heard it live. At real time a slow pass reads all that arrived meanwhile at once,
                    # but never more than one buffer's worth: a pass over a longer buffer would be
                    # slower still and the delay would run away. A full buffer with little unread
                    # audio is cut first, so that each pass over a backlog advances most of a buffer.
                    rec = self.recogniser
                    if self.speed == 0 and rec.ready():
                        self._pass()
                    elif rec.buffer_s >= rec.max_buffer_s and not rec.make_room() and rec.ready():
                        self._pass()
                if not finishing and self.recogniser.ready():
                    self._pass()
            self.recogniser.finish()
            self._update(final=True)
        except BaseException as exc:  # handed to finish(), which raises it on the caller's thread
            log.debug("live alignment stopped: %s", exc, exc_info=True)
            self._error = exc

    def _pass(self) -> None:
        self.recogniser.process()
        self._update(final=False)

    def _prepare(self) -> None:
        """Load the encoder (and the recogniser's model) and encode the source."""
        if self._embedder is None:
            from sialign.embed.choice import choose_embedder
            from sialign.embed.models import load_embedder

            choice = choose_embedder(self.params.embedder, self.source.language, self.tgt_lang)
            self._embedder = load_embedder(choice.spec)
            self.aligner.embedder = self._embedder
        load = getattr(self.recogniser.transcriber, "load", None)
        if callable(load):
            load()
        self.aligner.prepare()
        self.chunker.prepare()

    def _update(self, *, final: bool) -> None:
        started = time.perf_counter()
        rec = self.recogniser
        target, first_changed = self.chunker.update(rec.committed, final=final, paused_at=rec.paused_at)
        frontier = rec.audio_end_s if final else rec.committed_until_s
        shapes = self.aligner.update(target, frontier, first_changed=first_changed, final=final)
        now = self.recording_now()
        beads, changed = self._beads(shapes, target, now)
        self.target = target
        self.beads = beads
        self._align_s += time.perf_counter() - started
        for k in changed:
            self.events.append(beads[k].event())
        if self.on_update is not None and (changed or final):
            self.on_update(LiveUpdate(beads=list(beads), target=target, committed_until_s=frontier, changed=changed))

    def _beads(self, shapes: list[Shape], target: Document, now: float) -> tuple[list[LiveBead], list[int]]:
        """Live beads from the aligner's shapes; a bead keeps its showing time while it does not change."""
        src_ids = self.source.ids()
        beads: list[LiveBead] = []
        changed: list[int] = []
        keys: list[tuple[Any, ...]] = []
        for k, s in enumerate(shapes):
            tgt = tuple(range(s.j0, s.j0 + s.b))
            end = target.segments[tgt[-1]].end if tgt else None
            key = (tuple(src_ids[s.i0 : s.i0 + s.a]), tgt, end, s.state)
            keys.append(key)
            if k < len(self._keys) and self._keys[k] == key:
                beads.append(self.beads[k])
                continue
            latency = now - end if end is not None else float("nan")
            beads.append(LiveBead(k, key[0], tgt, now, latency, s.state))
            changed.append(k)
        self._keys = keys
        return beads, changed


class _NoEmbedder:
    """Stands for the encoder until the worker loads the real one (nothing is encoded before)."""

    name = "pending"
    dim = 1
    cache_id = ""

    def fit(self, texts: Any) -> None:  # pragma: no cover - never called
        pass

    def encode(self, texts: Any, **_: Any) -> np.ndarray:  # pragma: no cover - replaced before use
        raise RuntimeError("the encoder is not loaded yet")
