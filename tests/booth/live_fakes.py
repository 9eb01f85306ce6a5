"""Fakes of the live engine's tests: a scripted speech recogniser, topic embeddings, audio that knows its own time.

:func:`timed_audio` writes into every sample its own position on the recording
clock, so :class:`ScriptedSpeech` (a fake Whisper) can tell which stretch of the
recording a buffer holds and "hear" the words scripted there: every word that
ends inside the buffer, except that a word ending within ``unsure_s`` of the
buffer's end is heard wrong (as Whisper mishears a word cut off mid-way).
:class:`TopicEmbedder` gives a text the unit vector of the ``#k`` topics it
names, so a source sentence and its rendition match exactly and anything else
is orthogonal.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from sialign.booth.streaming import Heard
from sialign.core.model import Document
from sialign.transcribe.recognise import Word

RATE = 16_000
# Samples carry their index times this scale (float32 keeps about 7 digits: exact to a sample up to 10 minutes).
SCALE = 1e-7


def timed_audio(seconds: float, start_s: float = 0.0) -> np.ndarray:
    """Audio of ``seconds`` whose samples say where they are: value = (start + index) * SCALE."""
    first = int(round(start_s * RATE))
    return ((np.arange(int(round(seconds * RATE))) + first) * SCALE).astype(np.float32)


def buffer_span(samples: np.ndarray) -> tuple[float, float]:
    """The recording times a buffer of :func:`timed_audio` covers, read from its first non-silent sample."""
    nonzero = np.flatnonzero(samples)
    if not nonzero.size:
        return 0.0, 0.0
    k = int(nonzero[0])
    start = round(float(samples[k]) / SCALE) - k
    return start / RATE, (start + samples.size) / RATE


@dataclass
class ScriptedSpeech:
    """A fake Whisper hearing the scripted ``words`` (recording clock) inside each buffer.

    Attributes:
        words: what is said, with times on the recording clock.
        unsure_s: a word ending this close to the buffer's end is heard as ``"??"``.
        prompts: the prompt of each pass (for the tests to look at).
        spans: the recording span of each buffer.
    """

    words: list[Word]
    unsure_s: float = 0.5

    def __post_init__(self) -> None:
        self.prompts: list[str] = []
        self.spans: list[tuple[float, float]] = []

    def transcribe(self, samples: np.ndarray, prompt: str) -> Heard:
        start, end = buffer_span(samples)
        self.prompts.append(prompt)
        self.spans.append((start, end))
        heard = []
        for w in self.words:
            if w.start >= start - 1e-6 and w.end <= end:
                text = w.text if w.end <= end - self.unsure_s else "??"
                heard.append(Word(text, w.start - start, w.end - start))
        ends = [w.end for w in heard]
        return Heard(heard, ends)


class TopicEmbedder:
    """Unit vectors of the ``#k`` topics a text names (dimension 64); a text without one gets a vector of its own."""

    name = "topics"
    dim = 64
    cache_id = ""

    def fit(self, texts: Sequence[str], **_: Any) -> None:
        pass

    def encode(self, texts: Sequence[str], **_: Any) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            topics = [int(k) for k in re.findall(r"#(\d+)", text)]
            if not topics:
                topics = [self.dim - 1 - (sum(map(ord, text)) % 8)]
            for k in topics:
                out[row, k % self.dim] += 1.0
            out[row] /= np.linalg.norm(out[row])
        return out


def talk(n: int, *, spacing: float = 4.0, length: float = 3.0) -> Document:
    """``n`` source sentences ``#0``..``#n-1``, sentence k spoken from ``spacing * k + 1`` for ``length`` seconds."""
    texts = [f"Sentence #{k}." for k in range(n)]
    times = [(spacing * k + 1.0, spacing * k + 1.0 + length) for k in range(n)]
    return Document.from_texts(texts, "en", times)


def rendition_words(n: int, *, omit: Sequence[int] = (), lag: float = 2.0, spacing: float = 4.0) -> list[Word]:
    """Japanese-looking words rendering sentences 0..n-1 (but ``omit``) ``lag`` seconds late: two chunks each."""
    words = []
    for k in range(n):
        if k in omit:
            continue
        t = spacing * k + 1.0 + lag
        words.append(Word(f"話題#{k}、", t, t + 1.0))
        words.append(Word(f"続き#{k}。", t + 1.2, t + 2.4))
    return words
