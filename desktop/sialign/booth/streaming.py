"""Streaming speech recognition with the LocalAgreement-2 policy (docs/practice.md: Live alignment).

Whisper hears 30-second windows, not a stream. Whisper-Streaming (Macháček,
Dabre and Bojar, IJCNLP-AACL 2023) turns it into one: the recent audio is
kept in a buffer that Whisper reads again every time about a second of new
audio has arrived, with the text already committed before the buffer as its
prompt (here only when asked for: :data:`PROMPT_CHARS`); a word is committed once two consecutive passes agree on it (the
longest common prefix of the last two hypotheses, "LocalAgreement-2"), and
the buffer is cut at the end of a recognised segment whose words are all
committed, so it stays around 15 seconds.

On a CPU a pass over such a buffer costs seconds (Whisper's encoder reads a
30-second window, the decoder re-reads every word of the buffer), and two
passes must agree before a word shows: the live view then lags far behind
the student. So here the buffer is cut at the last committed *word* once it
is longer than a few seconds (the committed text before it stays the
prompt), and the encoder reads only the buffer's length of audio plus a
margin instead of 30 padded seconds (:func:`fit_encoder_window`); a pass then
takes about a second on two cores. Passes agree on text, not on Whisper's
token split, and a word still in dispute once it ended :data:`COMMIT_AFTER_S`
before the end of the audio is committed as last heard
(tests/benchmarks/RESULTS_practice.md has the figures).

:class:`StreamingRecogniser` is that policy over any :class:`Transcriber`:
:class:`WhisperTranscriber` runs faster-whisper on a local model folder; the
tests script a fake one. Times are on the recording's clock throughout: each
block of audio arrives with the recording time of its first sample.
"""

from __future__ import annotations

import logging
import time
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import numpy as np

from sialign.transcribe.recognise import SAMPLE_RATE, Word

log = logging.getLogger(__name__)

# Seconds of new audio between two passes (Whisper-Streaming's --min-chunk-size).
MIN_CHUNK_S = 1.0
# Above this many seconds the buffer is cut at the start of the last committed word
# (TRIM_AT "word"), or at the end of a segment whose words are all committed ("segment",
# Whisper-Streaming's rule, which kept buffers of 15-25 s and passes of several seconds on a CPU).
TRIM_S = 6.0
TRIM_AT = "word"
# A buffer this long with nothing to cut at is cut anyway: its words up to
# TRIM_S before its end are committed as they stand.
MAX_BUFFER_S = 15.0
# A word the passes have not agreed on is committed as the last pass heard it once it ended this
# many seconds before the end of the audio read (Whisper's passes over synthetic or noisy speech
# can disagree early in the buffer for many passes, holding back every word after).
COMMIT_AFTER_S = 5.0
# Log-Mel frames (10 ms each) of padding the encoder reads after the buffer's audio (see fit_encoder_window).
ENCODER_MARGIN_FRAMES = 200
# Whisper's own test of a decoding stuck in a loop ("おはようございます" forty times): the
# text's length over its zlib-compressed length. A window above it is not taken as heard.
LOOP_COMPRESSION_RATIO = 2.4
# Tokens a pass may decode per second of buffer (speech is under ten), plus a few: a loop stops there.
TOKENS_PER_S = 16
# faster-whisper keeps at most half of Whisper's 448 positions for the prompt; the rest is for new tokens.
MAX_NEW_TOKENS = 220
# Characters of committed text given to Whisper as the prompt (Whisper-Streaming gives 200). None by default:
# on the example's rendition, stepped a second at a time, the committed words without a prompt aligned offline
# to span accuracy 0.657 against 0.543 with it, and a pass took 0.63 s against 1.39 s (the decoder reads the
# prompt on every pass); Whisper base fell into repeating the prompt's words ("おはようございます") where the
# audio said something else (tests/benchmarks/RESULTS_practice.md).
PROMPT_CHARS = 0
# A buffer whose passes hear no word keeps only its last seconds (speech may be starting there).
SILENT_KEEP_S = 2.0
# Interpreters speak in chunks with pauses between them: a chunk that ended in a pause this long (the
# voice-activity filter hears no speech) is committed as the pass heard it, without waiting for a second
# pass to agree. A word whose end Whisper puts up to PAUSE_TOLERANCE_S past the pause's start belongs to it.
PAUSE_COMMIT_S = 0.4
PAUSE_TOLERANCE_S = 0.3


@dataclass(frozen=True)
class Heard:
    """What one recognition pass heard in the buffer.

    Attributes:
        words: with times in seconds from the start of the buffer.
        segment_ends: end times of Whisper's segments, same clock.
        looped: the decoding fell into a loop and what it heard from there on was left out
            (so no words does not mean silence).
    """

    words: list[Word]
    segment_ends: list[float] = field(default_factory=list)
    looped: bool = False


class Transcriber(Protocol):
    """One recognition pass over a buffer of audio (faster-whisper, or a scripted fake in tests)."""

    def transcribe(self, samples: np.ndarray, prompt: str) -> Heard:
        """Recognise ``samples`` (mono float32 at 16 kHz, shape (n,)) with ``prompt`` as the preceding text."""
        ...


def fit_encoder_window(features: np.ndarray, margin_frames: int = ENCODER_MARGIN_FRAMES) -> np.ndarray:
    """The log-Mel features of one Whisper window cut to the audio they hold plus ``margin_frames`` of padding.

    faster-whisper pads every window to 3000 frames (30 s) with zeros, and the
    encoder's cost grows with its input: a 6-second buffer padded to 30 s costs
    the encoder five times what it needs. CTranslate2's Whisper encoder takes
    a shorter input; the decoder and the word-timestamp alignment only look at
    the frames of the audio. The cut is rounded up to whole seconds (100 frames).

    Args:
        features: (n_mels, frames) or (1, n_mels, frames); the padding is the trailing all-zero frames.
        margin_frames: padding frames kept after the last frame with audio.

    Returns:
        The same array when nothing would be cut, else a contiguous copy of the first frames.
    """
    frames = features.shape[-1]
    flat = features.reshape(-1, features.shape[-2], frames)[0]
    filled = np.flatnonzero(np.any(flat != 0, axis=0))
    used = int(filled[-1]) + 1 if filled.size else 0
    keep = min(frames, -(-(used + margin_frames) // 100) * 100)
    if keep >= frames:
        return features
    return np.ascontiguousarray(features[..., :keep])


class WhisperTranscriber:
    """faster-whisper on a local model folder: CPU int8, word timestamps, the voice-activity filter.

    The model is loaded on the first pass (in the worker thread, so starting a
    session never waits for it) unless :meth:`load` was called.

    Args:
        model: a Whisper model folder in CTranslate2 format.
        language: the spoken language (``ja``...); None lets a multilingual model detect it.
        threads: CPU threads for CTranslate2.
        beam_size: 1 decodes greedily (fastest); 5 is Whisper's own default.
        device: ``auto``, ``cpu`` or ``cuda`` (as :func:`~sialign.transcribe.recognise.recognise`).
        short_window: the encoder reads the buffer's audio plus a margin, not a padded 30-second
            window (:func:`fit_encoder_window`); False reads the whole window as offline transcription does.
    """

    def __init__(self, model: Path, language: str | None, *, threads: int = 2, beam_size: int = 1, device: str = "cpu",
                 short_window: bool = True) -> None:
        self.model_path = Path(model)
        self.language = language
        self.threads = threads
        self.beam_size = beam_size
        self.device = device
        self.short_window = short_window
        self._whisper = None
        self._code: str | None = None

    def load(self) -> None:
        """Load the model now.

        Raises:
            ModelLoadError: faster-whisper missing, or the folder does not load.
            UnknownLanguageError: Whisper knows no such language.
        """
        if self._whisper is not None:
            return
        from sialign.core.errors import ModelLoadError
        from sialign.embed.models_registry import whisper_folder_problem
        from sialign.transcribe.recognise import check_language, pick_device, require_recogniser

        require_recogniser()
        problem = whisper_folder_problem(self.model_path)
        if problem:
            raise ModelLoadError(problem)
        from faster_whisper import WhisperModel

        dev, compute_type = pick_device(self.device)
        model_class = _short_window_model(WhisperModel) if self.short_window else WhisperModel
        try:
            whisper = model_class(str(self.model_path), device=dev, compute_type=compute_type,
                                   cpu_threads=self.threads, local_files_only=True)
        except Exception as exc:  # a loader failure is a broken folder to the user
            raise ModelLoadError(
                f"{self.model_path}: the Whisper model could not be loaded ({type(exc).__name__}: {exc}) — "
                "copy the whole folder again."
            ) from exc
        self._code = check_language(self.language, bool(whisper.model.is_multilingual), self.model_path)
        self._whisper = whisper

    def transcribe(self, samples: np.ndarray, prompt: str) -> Heard:
        self.load()
        assert self._whisper is not None
        seconds = samples.shape[0] / SAMPLE_RATE
        segments, _ = self._whisper.transcribe(
            samples, language=self._code, initial_prompt=prompt or None, beam_size=self.beam_size,
            word_timestamps=True, vad_filter=True, condition_on_previous_text=True,
            # No temperature fallback: a pass whose text looks repetitive is decoded up to six times
            # more with sampling; in a stream the next pass hears it again anyway.
            temperature=0.0,
            # A decoding stuck in a loop runs to Whisper's 448 tokens over a few seconds of speech.
            max_new_tokens=min(MAX_NEW_TOKENS, int(TOKENS_PER_S * seconds) + 16),
        )
        words: list[Word] = []
        ends: list[float] = []
        for seg in segments:
            if getattr(seg, "compression_ratio", 0.0) > LOOP_COMPRESSION_RATIO:
                # A loop: what its window heard before the repetition began is kept, the rest (and any
                # later window) is not heard; the next pass reads it again.
                log.debug("pass in a loop (compression ratio %.1f): %s", seg.compression_ratio, seg.text[:60])
                heard = [Word(str(w.word), float(w.start), float(w.end), float(w.probability)) for w in seg.words or []]
                words.extend(before_repetition(heard))
                return Heard(words, ends, looped=True)
            if getattr(seg, "no_speech_prob", 0.0) > 0.9:
                continue  # Whisper's own verdict that the stretch is not speech (as Whisper-Streaming skips it)
            for w in seg.words or []:
                words.append(Word(str(w.word), float(w.start), float(w.end), float(w.probability)))
            ends.append(float(seg.end))
        return Heard(words, ends)


def silero_pauses(samples: np.ndarray, min_pause_s: float = PAUSE_COMMIT_S) -> list[tuple[float, float]]:
    """The pauses of at least ``min_pause_s`` in ``samples`` (mono, 16 kHz), as (start, end) seconds from their start,
    a pause that runs to the end included; Silero's voice-activity filter (faster-whisper's, about 3 ms a second).

    None is found without speech (a buffer with no word is handled by the recogniser's own rule).
    """
    from faster_whisper.vad import VadOptions, get_speech_timestamps

    speech = get_speech_timestamps(samples, VadOptions(min_silence_duration_ms=int(min_pause_s * 1000),
                                                       speech_pad_ms=30))
    if not speech:
        return []
    pauses = [(a["end"] / SAMPLE_RATE, b["start"] / SAMPLE_RATE) for a, b in zip(speech, speech[1:])]
    end = samples.size / SAMPLE_RATE
    if end - speech[-1]["end"] / SAMPLE_RATE >= min_pause_s:
        pauses.append((speech[-1]["end"] / SAMPLE_RATE, end))
    return [(start, stop) for start, stop in pauses if stop - start >= min_pause_s]


def before_repetition(words: Sequence[Word], *, longest: int = 8, times: int = 3) -> list[Word]:
    """The words before a decoding loop: up to the first of ``times`` back-to-back repeats of a phrase of 1..``longest`` words.

    The first occurrence of the phrase is kept (it was probably said); the
    repeats are dropped, and so is everything after them. Words with no
    such repeat are returned whole.
    """
    texts = ["".join(_norm(w.text).split()) for w in words]
    for i in range(len(texts)):
        for n in range(1, longest + 1):
            if i + times * n > len(texts):
                break
            phrase = texts[i : i + n]
            if any(phrase) and all(texts[i + k * n : i + (k + 1) * n] == phrase for k in range(1, times)):
                return list(words[: i + n])
    return list(words)


def _short_window_model(base: type) -> type:
    """``base`` (faster-whisper's WhisperModel) whose encoder reads only the audio of a window plus a margin."""

    class ShortWindowWhisper(base):  # type: ignore[valid-type,misc]
        def encode(self, features: np.ndarray) -> object:
            if isinstance(features, np.ndarray):
                features = fit_encoder_window(features)
            return super().encode(features)

    return ShortWindowWhisper


def _norm(text: str) -> str:
    return unicodedata.normalize("NFKC", text).strip().lower()


def _agreed_words(new: Sequence[Word], previous: Sequence[Word]) -> int:
    """How many of ``new``'s words lie within the text both passes agree on, ending where ``previous`` ends a word too."""
    texts_new = ["".join(_norm(w.text).split()) for w in new]
    texts_old = ["".join(_norm(w.text).split()) for w in previous]
    a, b = "".join(texts_new), "".join(texts_old)
    common = 0
    for x, y in zip(a, b):
        if x != y:
            break
        common += 1
    ends_old = set()
    total = 0
    for text in texts_old:
        total += len(text)
        ends_old.add(total)
    agreed = 0
    total = 0
    for k, text in enumerate(texts_new):
        total += len(text)
        if total > common:
            break
        if text and total in ends_old:
            agreed = k + 1
    return agreed


class HypothesisBuffer:
    """The words of the last pass not yet committed, and LocalAgreement between passes.

    A port of Whisper-Streaming's ``HypothesisBuffer``: :meth:`insert` takes a
    pass's words on the recording clock, drops those before the last
    committed word and a repeat of the last committed words (the pass
    re-hears the end of what the prompt already holds); :meth:`flush` commits
    the longest common prefix of this pass and the previous one.
    """

    def __init__(self) -> None:
        self.committed_in_buffer: list[Word] = []
        self.previous: list[Word] = []
        self.older: list[Word] = []  # the hypothesis before ``previous`` (what the pass before last heard)
        self.new: list[Word] = []
        self.last_committed_time = 0.0

    def insert(self, words: Sequence[Word], offset: float) -> None:
        shifted = [Word(w.text, w.start + offset, w.end + offset, w.probability) for w in words]
        self.new = [w for w in shifted if w.start > self.last_committed_time - 0.1]
        if self.new and abs(self.new[0].start - self.last_committed_time) < 1.0 and self.committed_in_buffer:
            # The pass may begin with the last 1..5 committed words again: drop them.
            cn, nn = len(self.committed_in_buffer), len(self.new)
            for i in range(1, min(cn, nn, 5) + 1):
                tail = [_norm(w.text) for w in self.committed_in_buffer[-i:]]
                head = [_norm(w.text) for w in self.new[:i]]
                if tail == head:
                    del self.new[:i]
                    break

    def flush(self) -> list[Word]:
        """Commit the words this pass and the previous one agree on, in order from the start.

        The two passes agree up to the longest common prefix of their texts
        (normalised, without spaces) cut at a place both passes end a word:
        Whisper's words in Japanese or Chinese are its tokens, and two passes
        that hear the same text often split it into different tokens. With
        the same words in both that is the longest common prefix of words.
        The committed words are this pass's, with its times.
        """
        agreed = _agreed_words(self.new, self.previous)
        commit = self.new[:agreed]
        del self.new[:agreed]
        if commit:
            self.last_committed_time = commit[-1].end
        self.older = [w for w in self.previous[agreed:] if w.start > self.last_committed_time - 0.1]
        self.previous = self.new
        self.new = []
        self.committed_in_buffer.extend(commit)
        return commit

    def commit_until(self, until: float, *, fallback_to_older: bool = False) -> list[Word]:
        """Commit the last pass's leading words that end by ``until``, agreed or not.

        With ``fallback_to_older``, the pass before last is used instead when it
        heard more words there (a pass that went wrong must not lose them).
        """
        take = []
        for word in self.previous:
            if word.end > until:
                break
            take.append(word)
        if fallback_to_older:
            older = [w for w in self.older if w.end <= until and w.start > self.last_committed_time - 0.1]
            if len(older) > len(take):
                take = older
        if take:
            self.previous = [w for w in self.previous if w.start >= take[-1].end - 0.1 and w not in take]
            self.older = []
            self.last_committed_time = take[-1].end
            self.committed_in_buffer.extend(take)
        return take

    def pop_committed(self, until: float) -> None:
        """Forget committed words ending by ``until`` (the buffer was cut there)."""
        while self.committed_in_buffer and self.committed_in_buffer[0].end <= until:
            self.committed_in_buffer.pop(0)

    def uncommitted(self) -> list[Word]:
        """The last pass's words that are not committed yet."""
        return list(self.previous)


@dataclass
class PassStats:
    """How the passes went (for the session's report and the benchmark)."""

    passes: int = 0
    seconds: float = 0.0
    longest_s: float = 0.0
    audio_s: float = 0.0
    pause_commits: int = 0  # passes that committed a chunk ended in a pause


class StreamingRecogniser:
    """LocalAgreement-2 over a sliding audio buffer.

    Feed audio with :meth:`add_audio`; call :meth:`process` when
    :meth:`ready` says enough new audio arrived; :meth:`finish` commits what
    the last pass heard. Not thread-safe: one worker thread drives it.

    Args:
        transcriber: runs one pass over the buffer.
        min_chunk_s: seconds of new audio between passes.
        trim_s: the buffer is cut once longer than this, where ``trim_at`` says.
        trim_at: ``word``: at the start of the last committed word (the pass after hears that word
            again and drops it); ``segment``: at the end of the last recognised segment whose words
            are all committed (Whisper-Streaming's rule; longer buffers, slower passes).
        max_buffer_s: the buffer is cut even without a place to cut at once this long.
        prompt_chars: characters of committed text before the buffer given as the prompt (0: none).
        joiner: what separates words of the prompt ("" when Whisper's words carry their spaces).
        commit_after_s: a word not agreed on is committed as last heard once it ended this long
            before the end of the audio read (None: only agreement, and a full buffer, commit).
        pause_finder: the pauses in the buffer's audio, (start, end) seconds from its start
            (:func:`silero_pauses`); the words before the last pause are committed as heard (None: no
            pause commits, only agreement).
    """

    def __init__(self, transcriber: Transcriber, *, min_chunk_s: float = MIN_CHUNK_S, trim_s: float = TRIM_S,
                 trim_at: str = TRIM_AT, max_buffer_s: float = MAX_BUFFER_S, prompt_chars: int = PROMPT_CHARS,
                 joiner: str = "", commit_after_s: float | None = COMMIT_AFTER_S,
                 pause_finder: Callable[[np.ndarray], list[tuple[float, float]]] | None = None) -> None:
        if trim_at not in ("word", "segment"):
            raise ValueError(f"trim_at must be 'word' or 'segment', not {trim_at!r}")
        self.transcriber = transcriber
        self.min_chunk_s = min_chunk_s
        self.trim_s = trim_s
        self.trim_at = trim_at
        self.commit_after_s = commit_after_s
        self.pause_finder = pause_finder
        # Recording time at which the last pause began that every word before it is committed: the chunk that
        # ended there is closed (the live chunker cuts there for good). None before the first such pause.
        self.paused_at: float | None = None
        self.max_buffer_s = max(max_buffer_s, trim_s + 1.0)
        self.prompt_chars = prompt_chars
        self.joiner = joiner
        self.committed: list[Word] = []
        self.hypothesis = HypothesisBuffer()
        self.stats = PassStats()
        self._buffer = np.zeros(0, dtype=np.float32)
        self._offset: float | None = None  # recording time of the buffer's first sample
        self._processed_samples = 0  # of the buffer, read by the last pass
        self.received_s = 0.0  # audio received, seconds
        self.gap_s = 0.0  # silence inserted where the blocks' times left a gap
        self.overlap_s = 0.0  # audio received twice for the same times (dropped)
        self._looped = False  # the last pass fell into a loop

    # ----------------------------------------------------------------- audio
    @property
    def buffer_s(self) -> float:
        return self._buffer.size / SAMPLE_RATE

    @property
    def audio_end_s(self) -> float:
        """Recording time of the end of the audio received."""
        return (self._offset or 0.0) + self.buffer_s

    @property
    def processed_until_s(self) -> float:
        """Recording time up to which the last pass read the audio."""
        return (self._offset or 0.0) + self._processed_samples / SAMPLE_RATE

    @property
    def committed_until_s(self) -> float:
        """Recording time up to which the transcript is settled: the first word still in doubt, else what the last pass read."""
        pending = self.hypothesis.uncommitted()
        if pending:
            return max(pending[0].start, self.committed[-1].end if self.committed else 0.0)
        return self.processed_until_s

    def add_audio(self, samples: np.ndarray, t_start: float) -> None:
        """Append a block (mono float32 at 16 kHz, shape (n,)) whose first sample is at ``t_start`` on the recording clock.

        A block starting after the end of the buffer (a pause in delivery)
        is preceded by silence so times stay right; the part of a block that
        repeats times already received is dropped (and counted).
        """
        block = np.asarray(samples, dtype=np.float32).reshape(-1)
        self.received_s += block.size / SAMPLE_RATE
        if self._offset is None:
            self._offset = float(t_start)
        else:
            late = int(round((float(t_start) - self.audio_end_s) * SAMPLE_RATE))
            if late > 0:
                self.gap_s += late / SAMPLE_RATE
                block = np.concatenate((np.zeros(late, dtype=np.float32), block))
            elif late < 0:
                cut = min(-late, block.size)
                self.overlap_s += cut / SAMPLE_RATE
                block = block[cut:]
        if block.size:
            self._buffer = np.concatenate((self._buffer, block))

    @property
    def unread_s(self) -> float:
        """Seconds of the buffer no pass has read yet."""
        return (self._buffer.size - self._processed_samples) / SAMPLE_RATE

    def ready(self) -> bool:
        """Whether enough new audio arrived for another pass."""
        return self.unread_s >= self.min_chunk_s

    def make_room(self) -> bool:
        """Cut a full buffer that holds little unread audio, as after a pass, so that the next pass reads a buffer's worth of new audio.

        A backlog is read one full buffer at a time; when the passes do not
        agree, a full buffer may hold only a second that no pass has read, and
        a pass over it would advance by that second. Its words older than
        :attr:`trim_s` before the end are committed as the last pass heard them
        (as :meth:`process` does with a full buffer).

        Returns:
            whether the buffer was cut.
        """
        if self.buffer_s < self.max_buffer_s or self.unread_s >= self.max_buffer_s - self.trim_s:
            return False
        before = self.buffer_s
        self._force_trim(min(self.audio_end_s - self.trim_s, self.processed_until_s))  # never audio no pass has read
        return self.buffer_s < before

    # ---------------------------------------------------------------- passes
    def prompt(self) -> str:
        """The committed text before the buffer, its last :attr:`prompt_chars` characters (whole words)."""
        start = self._offset or 0.0
        before = [w.text for w in self.committed if w.end <= start]
        picked: list[str] = []
        size = 0
        while before and size < self.prompt_chars:
            text = before.pop()
            picked.append(text)
            size += len(text) + len(self.joiner)
        return self.joiner.join(reversed(picked)).strip()

    def process(self) -> list[Word]:
        """Run one pass over the buffer; return the words newly committed (recording clock)."""
        if self._offset is None or not self._buffer.size:
            return []
        started = time.perf_counter()
        # After a pass that fell into a loop the next goes without the prompt (as Whisper resets its
        # prompt when it falls back): a prompt that repeats itself is what sends Whisper into loops.
        heard = self.transcriber.transcribe(self._buffer, "" if self._looped else self.prompt())
        self._looped = heard.looped
        spent = time.perf_counter() - started
        self.stats.passes += 1
        self.stats.seconds += spent
        self.stats.longest_s = max(self.stats.longest_s, spent)
        self.stats.audio_s += self.buffer_s
        self._processed_samples = self._buffer.size
        offset = self._offset
        new: list[Word] = []
        if heard.words or not heard.looped:  # nothing heard but a loop: the last hypothesis stands
            self.hypothesis.insert(heard.words, offset)
            new = self.hypothesis.flush()
            if self.commit_after_s is not None:
                new += self.hypothesis.commit_until(self.audio_end_s - self.commit_after_s)
            new += self._commit_at_pause(offset)
            self.committed.extend(new)
        if self.buffer_s > self.trim_s:
            if self.trim_at == "word":
                self._trim_at_word()
            else:
                self._trim_at_segment(heard, offset)
        if self.buffer_s >= self.max_buffer_s:
            # Also when the buffer is exactly full: a backlog is read a full buffer at a time, and a
            # buffer left full would be read again for every second that arrives.
            self._force_trim()
        if not heard.words and not heard.looped and self.buffer_s > SILENT_KEEP_S:
            self._cut_at(self.audio_end_s - SILENT_KEEP_S)
        return new

    def _commit_at_pause(self, offset: float) -> list[Word]:
        """Commit the words of the last pass that end before the buffer's last pause (a chunk that ended), and
        note that pause (:attr:`paused_at`)."""
        if self.pause_finder is None:
            return []
        read = self._buffer[: self._processed_samples]
        starts = [offset + start for start, _end in self.pause_finder(read)]
        if not starts:
            return []
        last = max(starts)
        taken: list[Word] = []
        if self.hypothesis.uncommitted() and last > self.hypothesis.last_committed_time:
            taken = self.hypothesis.commit_until(last + PAUSE_TOLERANCE_S)
            self.stats.pause_commits += bool(taken)
        pending = self.hypothesis.uncommitted()
        if not pending or pending[0].start >= last:  # every word before the pause is committed
            self.paused_at = max(self.paused_at or 0.0, last)
        return taken

    def _trim_at_segment(self, heard: Heard, offset: float) -> None:
        """Cut the buffer at the end of the last recognised segment whose words are all committed (Whisper-Streaming's rule)."""
        if not self.committed:
            return
        last = self.committed[-1].end
        ends = [offset + e for e in heard.segment_ends]
        cuts = [e for e in ends[:-1] if e <= last]  # never the last segment: it may still grow
        if cuts:
            self._cut_at(cuts[-1])

    def _trim_at_word(self) -> None:
        """Cut the buffer at the start of the last committed word: the buffer keeps only what is in doubt, and that word."""
        inside = self.hypothesis.committed_in_buffer
        if inside and self._offset is not None and inside[-1].start > self._offset:
            self._cut_at(inside[-1].start)

    def _force_trim(self, until: float | None = None) -> None:
        """The buffer has grown to :attr:`max_buffer_s` without agreement: commit its words before ``until`` as heard and cut there.

        ``until`` defaults to :attr:`trim_s` before the end of the buffer.
        """
        if until is None:
            until = self.audio_end_s - self.trim_s
        take = self.hypothesis.commit_until(until, fallback_to_older=True)
        if take:
            log.debug("buffer of %.1f s without agreement: committing %d words as heard", self.buffer_s, len(take))
            self.committed.extend(take)
        self._cut_at(max(until, self.committed[-1].end if self.committed else until))

    def _cut_at(self, when: float) -> None:
        """Drop the buffer's audio before recording time ``when``."""
        assert self._offset is not None
        samples = int(round((when - self._offset) * SAMPLE_RATE))
        samples = min(max(samples, 0), self._buffer.size)
        if samples <= 0:
            return
        self.hypothesis.pop_committed(when)
        self._buffer = self._buffer[samples:]
        self._processed_samples = max(0, self._processed_samples - samples)
        self._offset += samples / SAMPLE_RATE

    def finish(self) -> list[Word]:
        """A last pass over what is left, then commit every word it heard; return the words newly committed."""
        new: list[Word] = []
        if self._offset is not None and self._buffer.size > self._processed_samples:
            new = self.process()
        rest = self.hypothesis.uncommitted()
        self.hypothesis.previous = []
        self.committed.extend(rest)
        self._processed_samples = self._buffer.size
        return new + rest
