"""Build the bundled example talk: transcripts, reference translation, gold alignment and audio.

The talk ("What bread taught me", about three minutes) was written for SI
Aligner; the Japanese interpretation imitates simultaneous interpreting:
chunks cut after 、 and 。, fillers (えー, あの, じゃあ), condensing, and two
source sentences left out so the omission flags have something to find.

Audio is synthesised with espeak-ng (voices ``en-us`` and ``ja``). espeak-ng
reads only kana in Japanese, so each chunk is spoken from its kana reading
(from SudachiPy, which GiNZA installs); the transcript keeps the kanji. The
timestamps are computed from the synthesised durations: source sentences
follow each other with short pauses, and each rendition starts at the
source sentence's start plus an ear-voice span of 2–4 s. Written files:

- ``talk.en.srt``      source transcript (one caption per sentence)
- ``talk.ja.srt``      interpretation transcript (one caption per chunk)
- ``talk.ref.ja.txt``  offline reference translation, one line per source sentence
- ``talk.gold.align``  the intended alignment, vecalign format (0-based positions)
- ``talk.en.ogg``, ``talk.ja.ogg``  16 kHz mono Ogg Vorbis

``--second-rendition`` writes (only), into ``rendition2/`` beside them, a second
interpreter's rendition of the same source for comparing renditions: it
lags 4–6 s behind the speaker, renders the two sentences the first one left
out (from the reference translation, cut after 、 and 。), and leaves out
sentences 7 and 19 instead (1-based). Files: ``rendition2/talk.ja2.srt``,
``rendition2/talk.ja2.ogg`` (on the source's timeline, so the first
rendition's source audio and captions serve both) and
``rendition2/talk.gold.align``.

Run from anywhere: ``python resources/examples/make_example.py [OUT_DIR]``.
Needs ``espeak-ng`` on PATH and the Python packages numpy, scipy, soundfile
and sudachipy (with sudachidict_core).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

SAMPLE_RATE = 16_000
EN_VOICE = ("en-us", 150)  # voice, words per minute
JA_VOICE = ("ja", 185)
FIRST_START = 1.0  # seconds of silence before the speaker starts
PAUSE_AFTER_COMMA = 0.12  # between interpreter chunks ending in 、
PAUSE_AFTER_PERIOD = 0.30  # between interpreter chunks ending in 。
MIN_GAP_BETWEEN_RENDITIONS = 0.25

# (source sentence, interpreter chunks, reference translation). An empty chunk
# list is an omission; CONDENSED marks a sentence rendered together with the
# previous one (its chunks are listed there).
CONDENSED = None

TALK: list[tuple[str, list[str] | None, str]] = [
    (
        "Good morning, everyone, and thank you for coming.",
        ["皆さん、", "おはようございます。", "お越しいただき、", "ありがとうございます。"],
        "皆さん、おはようございます。お越しいただきありがとうございます。",
    ),
    (
        "Today I want to talk about something very ordinary: bread.",
        ["えー、", "今日は、", "ごく普通のものについてお話しします。", "パンです。"],
        "今日は、とてもありふれたもの、パンについてお話ししたいと思います。",
    ),
    (
        "Three years ago, I could not bake anything at all.",
        ["三年前、", "私は何も焼けませんでした。"],
        "三年前、私は何ひとつ焼くことができませんでした。",
    ),
    (
        "My kitchen was a place where I made coffee and heated up leftovers.",
        ["台所は、", "コーヒーを入れて、", "残り物を温める場所でした。"],
        "私の台所は、コーヒーを入れたり残り物を温めたりする場所でした。",
    ),
    (
        "Then, during a long and rainy winter, a friend gave me a jar of sourdough starter.",
        ["そして、", "長い雨の冬に、", "友人が、", "サワー種の瓶をくれました。"],
        "そんなとき、長く雨の多い冬に、友人がサワー種の入った瓶をくれました。",
    ),
    (
        "She told me that it was alive and that I had to feed it every day.",
        ["これは生きていて、", "毎日餌をあげなければならないと言われました。"],
        "彼女は、それは生きているから毎日餌をあげなければならないと言いました。",
    ),
    (
        "I laughed, because I had never been responsible for a jar before.",
        ["私は笑いました。", "瓶の世話なんて、", "したことがなかったからです。"],
        "瓶の世話をしたことなど一度もなかったので、私は笑ってしまいました。",
    ),
    (
        "My first loaf was flat, heavy and a little bit grey.",
        ["最初のパンは、", "えー、", "平たくて、", "重くて、", "ちょっと灰色でした。"],
        "最初のパンは平たくて重く、少し灰色がかっていました。",
    ),
    (
        "My family ate it politely, and the dog ate the rest.",
        ["家族は礼儀正しく食べてくれて、", "残りは犬が食べました。"],
        "家族は礼儀正しく食べてくれ、残りは犬が食べました。",
    ),
    (
        "But I was curious, so I tried again the next weekend.",
        ["でも、", "興味があったので、", "次の週末も、", "また挑戦しました。"],
        "でも興味が湧いたので、次の週末にもう一度挑戦しました。",
    ),
    (
        "And the weekend after that.",
        [],
        "その次の週末も。",
    ),
    (
        "Slowly I learned that bread is mostly about time, not about effort.",
        ["だんだん、", "パンは努力ではなく時間なんだと、", "分かってきました。"],
        "少しずつ、パン作りは努力よりも時間が大切なのだと分かってきました。",
    ),
    (
        "The dough needs hours to rise, and you cannot hurry it.",
        ["生地が膨らむには、", "何時間もかかります。", "急がせることはできません。"],
        "生地が膨らむには何時間もかかり、急かすことはできません。",
    ),
    (
        "If the kitchen is cold, it takes longer; if it is warm, it goes faster.",
        ["台所が寒ければ時間がかかり、", "暖かければ早く進みます。"],
        "台所が寒ければ時間がかかり、暖かければ早く進みます。",
    ),
    (
        "So I started to pay attention to small things, like the temperature of the water.",
        ["そこで、", "あの、", "水の温度のような小さなことに、", "気を配るようになりました。"],
        "そこで私は、水の温度のような小さなことに注意を払うようになりました。",
    ),
    (
        "I bought a cheap thermometer and a notebook.",
        ["安い温度計と、", "ノートを買いました。"],
        "安い温度計とノートを買いました。",
    ),
    (
        "In the notebook I wrote down every loaf: the flour, the water, the hours, the result.",
        ["ノートには、", "全てのパンを記録しました。", "粉と水と時間と結果です。"],
        "ノートには、粉、水、時間、出来栄えと、焼いたパンをすべて書き留めました。",
    ),
    (
        "After fifty loaves, I could see patterns that I had never noticed before.",
        ["五十個焼いた後、", "今まで気づかなかったパターンが、", "見えてきました。"],
        "五十個焼いた頃には、それまで気づかなかったパターンが見えるようになりました。",
    ),
    (
        "This is the part I find most interesting.",
        ["ここが、", "一番面白いところです。"],
        "ここが私にとって一番興味深いところです。",
    ),
    (
        "Baking taught me to observe before I act.",
        ["パン作りで、", "行動する前に、", "観察することを学びました。"],
        "パン作りは、行動する前に観察することを教えてくれました。",
    ),
    (
        "At work, I used to answer emails the moment they arrived.",
        ["えー、", "仕事では、", "メールが来たらすぐに返事をしていました。"],
        "仕事では、以前はメールが届いた瞬間に返信していました。",
    ),
    (
        "Now I sometimes wait an hour, and the problem often solves itself.",
        ["今は一時間待つこともあって、", "すると問題が自然に解決することも多いんです。"],
        "今では一時間待つこともあり、問題が自然に解決することもよくあります。",
    ),
    (
        "I also learned that failure is cheap when the experiment is small.",
        ["また、", "実験が小さければ、", "失敗は安いということも学びました。"],
        "また、実験が小さければ失敗の代償は小さいということも学びました。",
    ),
    (
        "A bad loaf costs about two dollars of flour.",
        ["パンの失敗は粉代だけですが、", "会社での失敗は、", "何か月分にもなります。"],
        "失敗したパンは、粉代にして二ドルほどです。",
    ),
    (
        "Compare that with a bad decision at the office, which can cost months.",
        CONDENSED,
        "それに比べて、職場での誤った判断は何か月分もの損失になりかねません。",
    ),
    (
        "So I began to run small experiments in other parts of my life.",
        ["じゃあ、", "生活の他の部分でも、", "小さな実験を始めました。"],
        "そこで私は、生活の他の場面でも小さな実験を始めました。",
    ),
    (
        "I tried walking to work for one week instead of taking the bus.",
        ["一週間、", "バスではなく、", "歩いて通勤してみました。"],
        "一週間、バスに乗る代わりに歩いて通勤してみました。",
    ),
    (
        "I tried cooking one new vegetable every month.",
        ["毎月一つ、", "新しい野菜を料理してみました。"],
        "毎月ひとつ、新しい野菜を料理してみました。",
    ),
    (
        "Some experiments failed, and that was fine.",
        [],
        "うまくいかなかった実験もありましたが、それで構いませんでした。",
    ),
    (
        "Others, like the walking, became habits that I still keep today.",
        ["歩くことのように、", "今も続いている習慣もあります。"],
        "歩くことのように、今も続いている習慣になったものもあります。",
    ),
    (
        "Of course, not everyone has to bake bread.",
        ["もちろん、", "皆さんがパンを焼く必要はありません。"],
        "もちろん、誰もがパンを焼かなければならないわけではありません。",
    ),
    (
        "But I think everyone can find a small, slow practice like this.",
        ["でも、", "誰でも、", "こういう小さくてゆっくりした習慣を、", "見つけられると思います。"],
        "でも、誰でもこのような小さくてゆっくりとした習慣を見つけられると思います。",
    ),
    (
        "It could be gardening, knitting, or learning a song on the guitar.",
        ["ガーデニングでも、", "編み物でも、", "ギターでもいいんです。"],
        "庭いじりでも、編み物でも、ギターで一曲覚えることでも構いません。",
    ),
    (
        "What matters is that you repeat it, write it down, and look back.",
        ["大事なのは、", "繰り返して、", "書き留めて、", "振り返ることです。"],
        "大切なのは、繰り返し、書き留め、振り返ることです。",
    ),
    (
        "Thank you very much, and if you want, I will share my recipe after the talk.",
        ["ありがとうございました。", "よろしければ、", "後でレシピをお伝えします。"],
        "ありがとうございました。よろしければ、講演の後で私のレシピをお伝えします。",
    ),
]


# The second rendition leaves these sentences out (0-based) and lags more.
SECOND_OMITTED = frozenset({6, 18})
SECOND_EXTRA_LAG = 2.0


def second_talk() -> list[tuple[str, list[str] | None, str]]:
    """:data:`TALK` as the second interpreter renders it (see ``--second-rendition``)."""
    import re

    talk: list[tuple[str, list[str] | None, str]] = []
    for index, (sentence, chunks, ref) in enumerate(TALK):
        if chunks is CONDENSED:
            talk.append((sentence, chunks, ref))
        elif index in SECOND_OMITTED:
            talk.append((sentence, [], ref))
        elif not chunks:
            talk.append((sentence, [c for c in re.findall(r"[^、。]+[、。]?", ref) if c], ref))
        else:
            talk.append((sentence, list(chunks), ref))
    return talk


@dataclass
class Timed:
    """A synthesised utterance placed on the timeline (times rounded to ms)."""

    text: str
    start: float
    end: float
    audio: np.ndarray  # (n_samples,) float32 at SAMPLE_RATE


def ear_voice_span(index: int) -> float:
    """A deterministic lag between 2 and 4 seconds that varies from sentence to sentence."""
    return 2.0 + ((index * 7) % 11) / 5.0


def kana_reading(text: str, tokenizer: object) -> str:
    """Hiragana reading of Japanese text for espeak-ng (particles は/へ/を as spoken)."""
    from sudachipy import tokenizer as sudachi_tokenizer

    parts = []
    for m in tokenizer.tokenize(text, sudachi_tokenizer.Tokenizer.SplitMode.C):  # type: ignore[attr-defined]
        surface = m.surface()
        if m.part_of_speech()[0] == "助詞" and surface in ("は", "へ", "を"):
            parts.append({"は": "わ", "へ": "え", "を": "お"}[surface])
        elif m.part_of_speech()[0] == "補助記号":
            parts.append(surface)
        else:
            parts.append(m.reading_form())
    reading = "".join(parts)
    return "".join(chr(ord(c) - 0x60) if 0x30A1 <= ord(c) <= 0x30F6 else c for c in reading)


def synthesise(text: str, voice: tuple[str, int], workdir: Path) -> np.ndarray:
    """Speech for ``text`` as float32 samples at SAMPLE_RATE, silence trimmed at both ends."""
    import soundfile as sf
    from scipy.signal import resample_poly

    wav = workdir / "utterance.wav"
    subprocess.run(["espeak-ng", "-v", voice[0], "-s", str(voice[1]), "-w", str(wav), text], check=True, capture_output=True)
    samples, rate = sf.read(wav, dtype="float32")
    if samples.ndim > 1:
        samples = samples.mean(axis=1)
    loud = np.flatnonzero(np.abs(samples) > 0.01)
    if loud.size:
        pad = int(0.03 * rate)
        samples = samples[max(loud[0] - pad, 0) : loud[-1] + pad]
    from math import gcd

    g = gcd(SAMPLE_RATE, rate)
    return resample_poly(samples, SAMPLE_RATE // g, rate // g).astype(np.float32)


def build_timeline(workdir: Path, talk: list[tuple[str, list[str] | None, str]] | None = None,
                   extra_lag: float = 0.0, sources_only_from: list[Timed] | None = None) -> tuple[list[Timed], list[list[Timed]]]:
    """Source sentences and, per sentence, its interpreter chunks, placed in time.

    A rendition starts at its source sentence's start plus the ear-voice
    span; when the interpreter is still speaking, the speaker's next pause
    is lengthened so that the span stays as planned (the talk is synthetic;
    a steady 2–4 s lag keeps it realistic).
    """
    from sudachipy import dictionary

    tokenizer = dictionary.Dictionary(dict="core").create()
    talk = TALK if talk is None else talk
    sources: list[Timed] = []
    renditions: list[list[Timed]] = []
    t = FIRST_START
    interpreter_free = 0.0
    for index, (sentence, chunks, _) in enumerate(talk):
        lag = ear_voice_span(index) + extra_lag
        if sources_only_from is not None:
            # A second rendition of a recorded talk: the speaker's timeline is given.
            start, end = sources_only_from[index].start, sources_only_from[index].end
            sources.append(sources_only_from[index])
            ja_t = max(start + lag, interpreter_free + MIN_GAP_BETWEEN_RENDITIONS)
        else:
            if chunks:
                t = max(t, interpreter_free + MIN_GAP_BETWEEN_RENDITIONS - lag)
            audio = synthesise(sentence, EN_VOICE, workdir)
            start = round(t, 3)
            end = round(start + len(audio) / SAMPLE_RATE, 3)
            sources.append(Timed(sentence, start, end, audio))
            ja_t = start + lag
        placed: list[Timed] = []
        for chunk in chunks or []:
            chunk_audio = synthesise(kana_reading(chunk, tokenizer), JA_VOICE, workdir)
            c_start = round(ja_t, 3)
            c_end = round(c_start + len(chunk_audio) / SAMPLE_RATE, 3)
            placed.append(Timed(chunk, c_start, c_end, chunk_audio))
            ja_t = c_end + (PAUSE_AFTER_PERIOD if chunk.endswith("。") else PAUSE_AFTER_COMMA)
        if placed:
            interpreter_free = placed[-1].end
        renditions.append(placed)
        t = end + 0.45 + 0.15 * (index % 3)
    return sources, renditions


def mix(track: list[Timed], total_seconds: float) -> np.ndarray:
    """One mono track with every utterance at its start time."""
    out = np.zeros(int(np.ceil(total_seconds * SAMPLE_RATE)), dtype=np.float32)
    for item in track:
        i = int(round(item.start * SAMPLE_RATE))
        out[i : i + len(item.audio)] += item.audio[: len(out) - i]
    peak = float(np.abs(out).max()) or 1.0
    return out * (0.8 / peak)


def srt_time(seconds: float) -> str:
    ms = int(round(seconds * 1000))
    h, rest = divmod(ms, 3_600_000)
    m, rest = divmod(rest, 60_000)
    s, ms = divmod(rest, 1000)
    return f"{h:02d}:{m:02d}:{s:02d},{ms:03d}"


def write_srt(track: list[Timed], path: Path) -> None:
    blocks = [f"{i}\n{srt_time(x.start)} --> {srt_time(x.end)}\n{x.text}\n" for i, x in enumerate(track, start=1)]
    path.write_text("\n".join(blocks), encoding="utf-8", newline="\n")


def gold_alignment(renditions: list[list[Timed]], talk: list[tuple[str, list[str] | None, str]] | None = None) -> list[str]:
    """vecalign lines: each source sentence with the positions of its chunks."""
    talk = TALK if talk is None else talk
    lines = []
    position = 0
    index = 0
    while index < len(talk):
        sources = [index]
        while index + len(sources) < len(talk) and talk[index + len(sources)][1] is CONDENSED:
            sources.append(index + len(sources))
        count = len(renditions[index])
        targets = list(range(position, position + count))
        position += count
        lines.append(f"[{', '.join(map(str, sources))}]:[{', '.join(map(str, targets))}]")
        index += len(sources)
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out_dir", nargs="?", default=str(Path(__file__).resolve().parent), help="where to write the files")
    parser.add_argument("--second-rendition", action="store_true",
                        help="also write a second interpreter's rendition into OUT_DIR/rendition2 (see the module docstring)")
    args = parser.parse_args(argv)
    if shutil.which("espeak-ng") is None:
        print("espeak-ng is not installed (Debian: apt-get install espeak-ng)", file=sys.stderr)
        return 1
    import soundfile as sf

    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    if args.second_rendition:
        times = read_srt_times(out / "talk.en.srt")
        if len(times) != len(TALK):
            print(f"{out / 'talk.en.srt'} does not hold the example talk; build it first (without --second-rendition)", file=sys.stderr)
            return 1
        empty = np.zeros(0, dtype=np.float32)
        sources = [Timed(sentence, a, b, empty) for (sentence, _, _), (a, b) in zip(TALK, times)]
        with tempfile.TemporaryDirectory() as tmp:
            write_second_rendition(sources, out / "rendition2", Path(tmp))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        sources, renditions = build_timeline(Path(tmp))
    chunks = [c for group in renditions for c in group]
    total = max(sources[-1].end, chunks[-1].end) + 1.0
    write_srt(sources, out / "talk.en.srt")
    write_srt(chunks, out / "talk.ja.srt")
    (out / "talk.ref.ja.txt").write_text("".join(ref + "\n" for _, _, ref in TALK), encoding="utf-8", newline="\n")
    (out / "talk.gold.align").write_text("\n".join(gold_alignment(renditions)) + "\n", encoding="utf-8", newline="\n")
    for name, track in (("talk.en.ogg", sources), ("talk.ja.ogg", chunks)):
        samples = mix(track, total)
        with sf.SoundFile(out / name, "w", SAMPLE_RATE, 1, format="OGG", subtype="VORBIS", compression_level=0.7) as fh:
            # libsndfile's Vorbis encoder crashes on very large single writes; blocks avoid it.
            for i in range(0, len(samples), 8192):
                fh.write(samples[i : i + 8192])
    print(f"{len(sources)} source sentences, {len(chunks)} interpreter chunks, {total:.1f} s of audio written to {out}")
    return 0


def read_srt_times(path: Path) -> list[tuple[float, float]]:
    """(start, end) of each caption of an SRT file this script wrote."""
    import re

    def seconds(stamp: str) -> float:
        h, m, rest = stamp.split(":")
        s, ms = rest.split(",")
        return int(h) * 3600 + int(m) * 60 + int(s) + int(ms) / 1000

    return [(seconds(a), seconds(b)) for a, b in re.findall(r"(\S+) --> (\S+)", path.read_text(encoding="utf-8"))]


def write_second_rendition(sources: list[Timed], out: Path, workdir: Path) -> None:
    """The second interpreter's transcript, audio and gold alignment, on ``sources``' timeline."""
    import soundfile as sf

    talk = second_talk()
    _, renditions = build_timeline(workdir, talk, SECOND_EXTRA_LAG, sources_only_from=sources)
    chunks = [c for group in renditions for c in group]
    out.mkdir(parents=True, exist_ok=True)
    write_srt(chunks, out / "talk.ja2.srt")
    (out / "talk.gold.align").write_text("\n".join(gold_alignment(renditions, talk)) + "\n", encoding="utf-8", newline="\n")
    total = max(sources[-1].end, chunks[-1].end) + 1.0
    samples = mix(chunks, total)
    with sf.SoundFile(out / "talk.ja2.ogg", "w", SAMPLE_RATE, 1, format="OGG", subtype="VORBIS", compression_level=0.7) as fh:
        for i in range(0, len(samples), 8192):
            fh.write(samples[i : i + 8192])
    print(f"second rendition: {len(chunks)} chunks written to {out}")


if __name__ == "__main__":
    sys.exit(main())
