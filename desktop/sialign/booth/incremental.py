"""Chunking and aligning a rendition while it grows (docs/practice.md: Live alignment).

:class:`LiveChunker` cuts the committed words into the interpreter's chunks
with the project's own segmenter (:func:`~sialign.transcribe.segmenting.words_to_document`,
as a transcribed interpretation is cut), re-cutting only the words after the
last place where a cut is certain (chunk punctuation, or a pause), so earlier
chunks never change.

:class:`IncrementalAligner` keeps the alignment of the source with the chunks
so far. Each update re-runs the coarse DP (:func:`~sialign.align.dp.align_window`
over the project's bead costs, time prior included) on the new tail only:
beads that ended more than ``revise_window_s`` before the recognition
frontier stay as they are, later ones are aligned again with the new
evidence. The DP's source end is free over the sentences the student may
still be rendering (those that ended less than ``lag_window_s`` before the
frontier): they wait as *pending* instead of being forced into a bead. A
sentence left without a rendition becomes *unrendered* once the frontier is
more than ``lag_window_s`` past its end and a later sentence was rendered.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from sialign.booth.streaming import PAUSE_TOLERANCE_S
from sialign.core.errors import SialignError
from sialign.core.model import Document, Segment
from sialign.core.params import AlignParams
from sialign.embed.base import Embedder
from sialign.transcribe.recognise import Word
from sialign.transcribe.segmenting import DEFAULT_PAUSE, MACHINE_CHUNK_CHARS, words_to_document

if TYPE_CHECKING:
    from sialign.align.costs import BeadCostModel

log = logging.getLogger(__name__)

# Seconds after a sentence's end within which the student may still be rendering it.
LAG_WINDOW_S = 10.0
# Beads ending within this many seconds of the frontier are aligned again on every update.
REVISE_WINDOW_S = 20.0
# Target chunks before the revised window that the cost model also sees (its normalisers).
CONTEXT_CHUNKS = 60
# A sentence may wait unrendered at the end of the live alignment for free until the student
# speaks something that began after it did; from then on waiting costs a growing share of an
# omission, reached this many seconds later. Without it, the first chunk of a new sentence's
# rendition is cheaper glued to the previous bead than paid for with an omission in between.
PENDING_RAMP_S = 4.0
# The provisional last chunks are cut without bunsetsu (GiNZA): only pieces this long are cut.
OPEN_TAIL_MAX_CHARS = 10_000

RENDERED = "rendered"
PENDING = "pending"
UNRENDERED = "unrendered"


# ------------------------------------------------------------------ chunks
def closes_chunk(word: Word, language: str) -> bool:
    """Whether a cut after ``word`` is certain whatever follows: chunk punctuation (Japanese), sentence-final punctuation (others)."""
    text = word.text.rstrip()
    if not text:
        return False
    if language.split("-")[0].lower() == "ja":
        from sialign.text.chunking import CHUNK_PUNCT, CLOSERS

        core = text.rstrip("".join(CLOSERS))
        return bool(core) and core[-1] in CHUNK_PUNCT
    from sialign.text.sentences import ends_with_strong_punctuation

    return ends_with_strong_punctuation(text, language)


class LiveChunker:
    """The committed words as target chunks, re-cut only after the last certain cut.

    Args:
        language: the rendition's language.
        pause: seconds of silence that end a chunk (as for a transcribed interpretation).
        max_chars: longest chunk (bunsetsu cuts, as ``sialign transcribe --role interpretation``).
    """

    def __init__(self, language: str, *, pause: float = DEFAULT_PAUSE, max_chars: int = MACHINE_CHUNK_CHARS) -> None:
        self.language = language
        self.pause = pause
        self.max_chars = max_chars
        self.frozen: list[Segment] = []
        self.frozen_words = 0
        self._last_count = 0

    def prepare(self) -> None:
        """Load what cutting needs now (GiNZA for Japanese), not at the first long chunk.

        Loading GiNZA takes seconds (about ten on a busy machine), which the first
        long chunk would otherwise add to the latency of every bead waiting behind it.
        Without GiNZA the live chunks still come while none is too long for punctuation
        and pauses alone; the first that is raises GiNZA's error.
        """
        if self.language.split("-")[0].lower() != "ja":
            return
        from sialign.text.japanese import LanguageToolUnavailable, ginza_nlp

        try:
            ginza_nlp()
        except LanguageToolUnavailable as exc:
            log.warning("%s", exc)

    def _cut(self, words: Sequence[Word], max_chars: int) -> list[Segment]:
        if not any(w.text.strip() for w in words):
            return []
        doc = words_to_document(words, self.language, role="interpretation", pause=self.pause, max_chars=max_chars)
        return [seg for seg in doc.segments if seg.text.strip()]

    def update(self, words: Sequence[Word], *, final: bool = False, paused_at: float | None = None) -> tuple[Document, int]:
        """The chunks of ``words`` (all committed words so far, in order); ``paused_at``: where the speaker last paused
        after their committed words (recording clock), a certain cut (:attr:`StreamingRecogniser.paused_at`).

        Returns:
            The target document (segment ids are positions) and the position of
            the first chunk that is new or changed since the last update.
        """
        changed_from = len(self.frozen)
        boundary = len(words) if final else self._last_certain_cut(words, paused_at)
        if boundary > self.frozen_words:
            self.frozen.extend(self._cut(words[self.frozen_words : boundary], self.max_chars))
            self.frozen_words = boundary
        tail = self._cut(words[self.frozen_words :], OPEN_TAIL_MAX_CHARS)
        segments = []
        for k, seg in enumerate(self.frozen + tail):
            gap = "" if k == 0 else (seg.gap or "\n")
            segments.append(Segment(id=k, text=seg.text, start=seg.start, end=seg.end, line=k + 1, gap=gap))
        self._last_count = len(segments)
        return Document(language=self.language, segments=segments, format="whisper"), changed_from

    def _last_certain_cut(self, words: Sequence[Word], paused_at: float | None = None) -> int:
        """The word count after the last certain cut: after chunk punctuation, before a pause between two words,
        or before the pause the voice-activity filter heard at ``paused_at``."""
        at_pause = self.frozen_words
        if paused_at is not None:
            at_pause = max(at_pause, sum(1 for w in words if w.end <= paused_at + PAUSE_TOLERANCE_S))
        for k in range(len(words), self.frozen_words, -1):
            if k <= at_pause:
                break
            if closes_chunk(words[k - 1], self.language):
                return k
            if k < len(words) and words[k].start - words[k - 1].end >= self.pause:
                return k
        return at_pause


# ------------------------------------------------------------------ alignment
@dataclass(frozen=True)
class Shape:
    """A bead by positions: source ``i0 .. i0+a-1``, target ``j0 .. j0+b-1``, and its state."""

    i0: int
    a: int
    j0: int
    b: int
    state: str


class IncrementalAligner:
    """The live alignment of a source with a growing target (see the module's docstring).

    Args:
        source: the source sentences with times on the recording's clock.
        embedder: the sentence encoder (the talk's: the built-in multilingual one by default).
        params: alignment parameters (the defaults of ``sialign align``).
        lag_window_s / revise_window_s: see :data:`LAG_WINDOW_S`, :data:`REVISE_WINDOW_S`.

    Raises:
        SialignError: the source has no times (nothing says when a sentence was spoken).
    """

    def __init__(self, source: Document, embedder: Embedder, *, params: AlignParams | None = None,
                 lag_window_s: float = LAG_WINDOW_S, revise_window_s: float = REVISE_WINDOW_S) -> None:
        if not source.segments:
            raise SialignError("the source has no sentences to align the rendition with.")
        if not source.has_times:
            raise SialignError(
                "the source transcript has no times, so the live alignment cannot tell when a sentence was spoken — "
                "give a timed transcript (SRT, VTT...), time it with 'sialign retime', or give the source recording."
            )
        self.source = source
        self.embedder = embedder
        self.params = params or AlignParams()
        self.lag_window_s = lag_window_s
        self.revise_window_s = max(revise_window_s, lag_window_s)
        self.n = len(source)
        self.src_texts = source.normalised_texts()
        self.src_starts = np.array([s.start for s in source.segments], dtype=np.float64)
        self.src_ends = np.array([s.end for s in source.segments], dtype=np.float64)
        self._src_vectors: np.ndarray | None = None
        self._lexical_src: np.ndarray | None = None
        self._vectors: dict[str, np.ndarray] = {}
        self.path: list[tuple[int, int, int, int]] = []  # beads of the settled part (no trailing pending sentences)
        self.shapes: list[Shape] = []

    # ------------------------------------------------------------ vectors
    def prepare(self) -> None:
        """Encode the source now (the first update does it otherwise)."""
        if self._src_vectors is None:
            self._src_vectors = self._encode(self.src_texts)

    def _encode(self, texts: Sequence[str]) -> np.ndarray:
        missing = [t for t in dict.fromkeys(texts) if t not in self._vectors]
        if missing:
            from sialign.embed.cache import cached_encode, shared_cache

            cache = shared_cache() if getattr(self.embedder, "cache_id", "") else None
            vectors = cached_encode(self.embedder, missing, cache)
            for text, vector in zip(missing, vectors):
                self._vectors[text] = np.asarray(vector, dtype=np.float32)
        if not texts:
            return np.zeros((0, self.embedder.dim), dtype=np.float32)
        return np.stack([self._vectors[t] for t in texts])

    # ------------------------------------------------------------ update
    def update(self, target: Document, frontier_s: float, *, first_changed: int | None = None, final: bool = False) -> list[Shape]:
        """Align the source with ``target`` (the chunks so far) as far as the frontier allows.

        Args:
            target: the chunks so far (times on the recording clock).
            frontier_s: the recording time up to which the transcript is settled.
            first_changed: position of the first chunk new or changed since the last update.
            final: the rendition is over (at ``frontier_s``, the end of the recording): every
                sentence begun by then is due, none is pending.

        Returns:
            Beads covering source ``0 .. s_hi-1`` (the sentences begun by the frontier)
            and every chunk, in order.
        """
        m = len(target)
        first_changed = m if first_changed is None else min(first_changed, m)
        s_hi = int(np.searchsorted(self.src_starts, frontier_s, side="left"))
        tgt_ends = np.array([s.end if s.end is not None else s.start for s in target.segments], dtype=np.float64)
        keep = self._settled_prefix(tgt_ends, frontier_s, first_changed, s_hi)
        i_f = keep[-1][0] + keep[-1][1] if keep else 0
        j_f = keep[-1][2] + keep[-1][3] if keep else 0
        due = s_hi if final else int(np.searchsorted(self.src_ends, frontier_s - self.lag_window_s, side="right"))
        e_min = min(max(i_f, due), s_hi)
        window, end = self._align_tail(target, i_f, j_f, e_min, s_hi)
        self.path = keep + window
        shapes = [Shape(i0, a, j0, b, RENDERED if b else PENDING) for i0, a, j0, b in self.path]
        shapes += [Shape(i, 1, m, 0, PENDING) for i in range(end, s_hi)]
        self.shapes = self._states(shapes, frontier_s, final)
        return self.shapes

    def _settled_prefix(self, tgt_ends: np.ndarray, frontier_s: float, first_changed: int, s_hi: int) -> list[tuple[int, int, int, int]]:
        keep = []
        for i0, a, j0, b in self.path:
            if i0 + a > s_hi or j0 + b > first_changed:
                break
            ends = [self.src_ends[i0 + a - 1]] if a else []
            ends += [tgt_ends[j0 + b - 1]] if b else []
            if max(ends) > frontier_s - self.revise_window_s:
                break
            keep.append((i0, a, j0, b))
        return keep

    def _states(self, shapes: list[Shape], frontier_s: float, final: bool) -> list[Shape]:
        """Pending sentences the student is clearly past become unrendered."""
        out = []
        rendered_after = False
        for shape in reversed(shapes):
            state = shape.state
            if shape.b == 0 and shape.a:
                past = frontier_s - float(self.src_ends[shape.i0 + shape.a - 1]) > self.lag_window_s
                if final or (past and rendered_after):
                    state = UNRENDERED
            if shape.a and shape.b:
                rendered_after = True
            out.append(Shape(shape.i0, shape.a, shape.j0, shape.b, state))
        out.reverse()
        return out

    def _align_tail(self, target: Document, i_f: int, j_f: int, e_min: int, s_hi: int) -> tuple[list[tuple[int, int, int, int]], int]:
        """The cheapest beads for source ``i_f .. e-1`` and target ``j_f ..``, over every free end ``e`` in ``e_min .. s_hi``.

        Returns:
            The beads and the chosen end ``e`` (source sentences from ``e`` on are pending).
        """
        m = len(target)
        if j_f >= m:
            return [(i, 1, m, 0) for i in range(i_f, e_min)], e_min
        from sialign.align.dp import align_window

        model = self._cost_model(target, j_f)
        ct = model.tgt_offset
        skip = float(model.costs.settings.skip)
        waiting = self._waiting_costs(target, model.costs.skip_cost(1), s_hi)
        best: tuple[float, int, list[tuple[int, int, int, int]]] | None = None
        for e in range(e_min, s_hi + 1):
            if e == i_f:
                total = skip * (m - j_f)
                beads = [(i_f, 0, j, 1) for j in range(j_f, m)]
            else:
                result = align_window(model.costs, i_f, e, j_f - ct, m - ct)
                total = result.total
                beads = [(i0, a, j0 + ct, b) for i0, a, j0, b in result.beads]
            total += float(waiting[e:s_hi].sum())
            # Ties go to the longer end: a sentence with a rendition as cheap as none is rendered.
            if best is None or total <= best[0] + 1e-9:
                best = (total, e, beads)
        assert best is not None
        return best[2], best[1]

    def _waiting_costs(self, target: Document, omission: float, s_hi: int) -> np.ndarray:
        """What leaving each source sentence waiting (pending) at the end costs: see :data:`PENDING_RAMP_S`.

        Returns:
            (n_src,) float64.
        """
        last = target.segments[-1].start if target.segments else None
        if last is None or not np.isfinite(last):
            return np.zeros(self.n)
        return omission * np.clip((float(last) - self.src_starts) / PENDING_RAMP_S, 0.0, 1.0)

    def _cost_model(self, target: Document, j_f: int) -> _WindowModel:
        """The bead costs of the whole source against the target from a little before ``j_f`` on."""
        from sialign.align.costs import BeadCostModel, Signal, cost_settings
        from sialign.align.signals import MIX_LEXICAL_DIM, mixes_lexical

        self.prepare()
        assert self._src_vectors is not None
        ct = max(0, j_f - CONTEXT_CHUNKS)
        tgt_texts = target.normalised_texts()[ct:]
        params = self.params
        units = self._units(target)
        settings = cost_settings(params, units)
        y = self._encode(tgt_texts)
        signals = []
        lexical_weight = float(params.lexical_weight) if mixes_lexical(self.embedder, self.source.language, target.language) else 0.0
        signals.append(Signal(self._src_vectors, y, 1.0 - lexical_weight, name="source"))
        if lexical_weight > 0:
            from sialign.embed.lexical import LexicalEmbedder

            lexical = LexicalEmbedder(dim=MIX_LEXICAL_DIM)
            lexical.fit(self.src_texts, other=tgt_texts)
            signals.append(Signal(lexical.encode(self.src_texts), lexical.encode(tgt_texts), lexical_weight, name="lexical"))
        segs = target.segments[ct:]
        tgt_starts = np.array([s.start for s in segs], dtype=np.float64)
        timed = bool(params.time_prior)
        costs = BeadCostModel(
            signals, params.max_src, params.max_tgt, settings,
            self.src_starts if timed else None, tgt_starts if timed else None,
            np.array([len(t) for t in self.src_texts], dtype=np.float64),
            np.array([len(t) for t in tgt_texts], dtype=np.float64),
            None, self.src_ends if timed else None,
        )
        return _WindowModel(costs, ct)

    def _units(self, target: Document) -> str:
        """The cost preset: chunks for a Japanese rendition (the chunker cuts chunks from the first word on), else as offline."""
        from sialign.align.costs import resolve_target_units

        if self.params.target_units != "auto":
            return self.params.target_units
        if target.language.split("-")[0].lower() == "ja":
            return "chunks"
        return resolve_target_units(self.params, self.n, target)


@dataclass
class _WindowModel:
    costs: BeadCostModel
    tgt_offset: int
