"""``sialign align``, ``sialign eval`` and ``sialign demo`` end to end on small files."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest

from sialign.cli.main import main
from sialign.embed import models_registry as mr

# A small talk: an English source, its Japanese reference translation (one
# line per sentence), and an "interpretation" made of the reference cut into
# chunks after 、 and 。, some chunks dropped or reworded, with timestamps
# lagging the speaker by about 2 s.
SOURCE = [
    "Good morning, everyone, and thank you for coming.",
    "Today I want to talk about bread.",
    "Three years ago, I could not bake anything at all.",
    "My kitchen was a place for coffee and leftovers.",
    "Then a friend gave me a jar of sourdough starter.",
    "She told me that it was alive and needed feeding every day.",
    "My first loaf was flat, heavy and a little grey.",
    "But I kept going, and slowly the bread got better.",
]
REFERENCE = [
    "皆さん、おはようございます。お越しいただきありがとうございます。",
    "今日は、パンについてお話ししたいと思います。",
    "三年前、私は何ひとつ焼くことができませんでした。",
    "私の台所は、コーヒーと残り物のための場所でした。",
    "そんなとき、友人がサワー種の瓶をくれました。",
    "それは生きていて、毎日餌をあげる必要があると言われました。",
    "最初のパンは、平たくて、重くて、少し灰色でした。",
    "でも、続けるうちに、パンは少しずつ良くなりました。",
]
CHUNKS = [
    ["皆さん、", "おはようございます。", "お越しいただき、", "ありがとうございます。"],
    ["今日は、", "パンについてお話しします。"],
    ["三年前、", "私は何も焼けませんでした。"],
    ["台所は、", "コーヒーと残り物の場所でした。"],
    ["そんなとき、", "友人がサワー種の瓶をくれました。"],
    ["これは生きていて、", "毎日餌が必要だと言われました。"],
    ["最初のパンは、", "平たくて、重くて、", "灰色でした。"],
    ["でも続けるうちに、", "パンは良くなりました。"],
]


def srt_time(seconds: float) -> str:
    ms = int(round(seconds * 1000))
    return f"{ms // 3600000:02d}:{ms // 60000 % 60:02d}:{ms // 1000 % 60:02d},{ms % 1000:03d}"


def write_srt(path: Path, items: list[tuple[float, float, str]]) -> Path:
    blocks = [f"{k}\n{srt_time(a)} --> {srt_time(b)}\n{text}\n" for k, (a, b, text) in enumerate(items, start=1)]
    path.write_text("\n".join(blocks), encoding="utf-8")
    return path


def gold_beads() -> list[str]:
    lines, first = [], 0
    for i, chunks in enumerate(CHUNKS):
        lines.append(f"[{i}]:[{', '.join(str(first + k) for k in range(len(chunks)))}]")
        first += len(chunks)
    return lines


@pytest.fixture
def talk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder with talk.en.srt, talk.ja.srt, talk.ref.ja.txt and talk.gold.align."""
    monkeypatch.setenv(mr.ENV_MODEL_DIR, str(tmp_path / "user-models"))
    folder = tmp_path / "talk"
    folder.mkdir()
    src_items, tgt_items, t = [], [], 0.0
    for sentence, chunks in zip(SOURCE, CHUNKS):
        src_items.append((t, t + 4.0, sentence))
        c = t + 2.0
        for chunk in chunks:
            tgt_items.append((c, c + 0.9, chunk))
            c += 1.0
        t += 5.0
    write_srt(folder / "talk.en.srt", src_items)
    write_srt(folder / "talk.ja.srt", tgt_items)
    (folder / "talk.ref.ja.txt").write_text("\n".join(REFERENCE) + "\n", encoding="utf-8")
    (folder / "talk.gold.align").write_text("\n".join(gold_beads()) + "\n", encoding="utf-8")
    return folder


def align_args(talk: Path, output: Path, *extra: str) -> list[str]:
    return ["align", str(talk / "talk.en.srt"), str(talk / "talk.ja.srt"), "--ref", str(talk / "talk.ref.ja.txt"), "-o", str(output), *extra]


def test_cli_align_writes_tsv_and_summary(talk: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = talk / "out.tsv"
    assert main(align_args(talk, out)) == 0
    printed = capsys.readouterr().out
    assert "embedder: use-multilingual + lexical (pivot through the reference translation)" in printed
    assert "time prior on" in printed and "ear-voice span: median" in printed
    rows = list(csv.reader(out.open(encoding="utf-8"), delimiter="\t"))
    assert rows[0][:3] == ["talk", "src_ids", "tgt_ids"]
    assert [r[1] for r in rows[1:]] == [str(i) for i in range(len(SOURCE))]
    assert rows[1][rows[0].index("target")] == "".join(CHUNKS[0])


def test_cli_align_align_format_matches_gold(talk: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = talk / "out.align"
    assert main(align_args(talk, out, "-q")) == 0
    assert capsys.readouterr().out == ""
    hyp = [line.rsplit(":", 1)[0] for line in out.read_text(encoding="utf-8").splitlines()]
    assert hyp == gold_beads()
    assert main(["eval", str(out), str(talk / "talk.gold.align"), "--json"]) == 0
    scores = json.loads(capsys.readouterr().out)
    assert scores["f1_strict"] == 1.0


def test_cli_align_project_output_keeps_params(talk: Path) -> None:
    from sialign.io.project_file import load_project

    out = talk / "talk.sialign"
    assert main(align_args(talk, out, "-q", "--max-tgt", "6", "--no-time-prior", "--talk-id", "bread")) == 0
    project = load_project(out)
    assert project.talk_id == "bread" and project.reference is not None
    assert project.alignment is not None and len(project.alignment.beads) == len(SOURCE)
    assert project.params.max_tgt == 6 and project.params.time_prior is False
    assert project.alignment.info["time_prior"] is False


def test_cli_align_text_kind_is_used_and_saved(talk: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from sialign.io.project_file import load_project

    out = talk / "kind.sialign"
    args = ["align", str(talk / "talk.en.srt"), str(talk / "talk.ja.srt"), "-o", str(out), "--target-units", "sentences"]
    assert main([*args, "--text-kind", "translation"]) == 0
    printed = capsys.readouterr().out
    assert "sentences preset, translation," in printed and "learned weights: sentences" in printed
    assert load_project(out).params.text_kind == "translation"
    # Both transcripts have timestamps: "auto" (the default) aligns them as an interpretation.
    assert main(args) == 0
    assert "sentences preset, interpretation," in capsys.readouterr().out
    project = load_project(out)
    assert project.params.text_kind == "auto" and project.alignment.info["bead_score"] == "interpretation"
    assert main([*args, "--text-kind", "speech"]) == 64
    assert "--text-kind: invalid choice: 'speech'" in capsys.readouterr().err


def test_cli_align_without_reference_uses_the_direct_signal(talk: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = talk / "direct.jsonl"
    args = ["align", str(talk / "talk.en.srt"), str(talk / "talk.ja.srt"), "-o", str(out)]
    assert main(args) == 0
    assert "embedder: use-multilingual\n" in capsys.readouterr().out
    assert len(out.read_text(encoding="utf-8").splitlines()) >= 1


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--filters", "intra,magic"], "--filters: unknown filter(s) 'magic': choose from intra, inter, learned"),
        (["--max-src", "0"], "argument --max-src: must be between 1 and 64, not 0"),
        (["--evs", "5", "1"], "MIN < MAX"),
    ],
)
def test_cli_align_rejects_bad_options(talk: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str) -> None:
    assert main(align_args(talk, talk / "out.tsv", *extra)) == 64  # an option's value: wrong arguments
    assert message in capsys.readouterr().err


def test_cli_align_rejects_unknown_output_format(talk: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(align_args(talk, talk / "out.docx")) == 64  # a usage error: the name says no format
    assert "name the output .tsv" in capsys.readouterr().err


def test_cli_align_refuses_an_output_folder_that_does_not_exist(talk: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A mistyped -o folder is refused before the work, and never created."""
    out = talk / "no_such_folder" / "out.tsv"
    assert main(align_args(talk, out)) == 2
    err = capsys.readouterr().err
    assert f"the folder {out.parent} does not exist" in err and "create it first" in err
    assert not out.parent.exists()
    assert main(["export", str(talk / "nothing.sialign"), "-o", str(out)]) == 2
    assert "does not exist" in capsys.readouterr().err and not out.parent.exists()


def test_cli_align_reports_unreadable_input(talk: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = talk / "nothing.srt"
    assert main(["align", str(missing), str(talk / "talk.ja.srt"), "-o", str(talk / "o.tsv")]) == 2
    assert "nothing.srt" in capsys.readouterr().err


def test_cli_align_reference_must_match_source(talk: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (talk / "short.txt").write_text("\n".join(REFERENCE[:-1]) + "\n", encoding="utf-8")
    args = ["align", str(talk / "talk.en.srt"), str(talk / "talk.ja.srt"), "--ref", str(talk / "short.txt"), "-o", str(talk / "o.tsv")]
    assert main(args) == 2
    assert "one reference line per source segment" in capsys.readouterr().err


def write_ahcsi(path: Path) -> None:
    """Two talks in the AHC-SI *.true.tsv layout."""
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
        writer.writerow(["id", "name", "eng_src", "offline_tgt", "interpreter", "manual_si_tgt"])
        for k, (src, ref, chunks) in enumerate(zip(SOURCE, REFERENCE, CHUNKS)):
            writer.writerow([k, "Bread_2024", src, ref, "I1", "".join(chunks)])
        writer.writerow([99, "Other_2024", "Hello.", "こんにちは。", "I1", "こんにちは。"])


def protocol_beads() -> list[str]:
    """Gold beads over the AHC-SI protocol's chunks (the gold cut after every 、。？！)."""
    from sialign.evaluate import chunk_after_punctuation

    lines, first = [], 0
    for i, chunks in enumerate(CHUNKS):
        count = len(chunk_after_punctuation("".join(chunks)))
        lines.append(f"[{i}]:[{', '.join(str(first + k) for k in range(count))}]")
        first += count
    return lines


def test_cli_eval_lcs_on_an_ahcsi_talk(talk: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = talk / "dev.true.tsv"
    write_ahcsi(gold)
    hyp = talk / "hyp.align"
    lines = protocol_beads()
    hyp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["eval", str(hyp), str(gold), "--talk", "Bread_2024", "--json"]) == 0
    scores = json.loads(capsys.readouterr().out)
    assert scores["talk"] == "Bread_2024" and scores["n"] == len(SOURCE) and scores["acc@0.9"] == 1.0
    # the last sentence's rendering goes to its neighbour: 7 of 8 stay right
    last = lines[-1].split(":")[1]
    merged = lines[-2].split(":")[1].rstrip("]") + ", " + last.lstrip("[")
    lines[-2:] = [f"[6]:{merged}", "[7]:[]"]
    hyp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["eval", str(hyp), str(gold), "--talk", "Bread_2024", "--metric", "lcs"]) == 0
    assert "accuracy at ε=0.8: 0.875" in capsys.readouterr().out
    assert main(["eval", str(hyp), str(gold)]) == 2
    assert "choose one with --talk" in capsys.readouterr().err


def test_cli_eval_lcs_reads_a_tsv_export(talk: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = talk / "dev.true.tsv"
    write_ahcsi(gold)
    out = talk / "hyp.tsv"
    assert main(align_args(talk, out, "-q", "--talk-id", "Bread_2024")) == 0
    assert main(["eval", str(out), str(gold), "--json"]) == 0
    scores = json.loads(capsys.readouterr().out)
    assert scores["talk"] == "Bread_2024" and scores["acc@0.8"] == 1.0


def test_cli_demo_on_a_small_example(talk: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "demo-out"
    assert main(["demo", "--example", str(talk), "-o", str(out), "--no-filters", "--rows", "3"]) == 0
    printed = capsys.readouterr().out
    assert "embedder: use-multilingual + lexical (pivot through the reference translation)" in printed
    assert "ear-voice span: median 2.00 s" in printed
    assert "agreement with talk.gold.align: strict F1 1.000" in printed
    assert (out / "talk.tsv").is_file() and (out / "talk.sialign").is_file()


def test_cli_demo_needs_an_interpretation(tmp_path: Path, talk: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "half"
    folder.mkdir()
    shutil.copy(talk / "talk.en.srt", folder)
    assert main(["demo", "--example", str(folder), "-o", str(tmp_path / "o")]) == 2
    assert "Japanese interpretation" in capsys.readouterr().err


@pytest.mark.slow
def test_cli_demo_bundled_example_with_filters(tmp_path: Path, repo_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if not (repo_root / "resources" / "examples" / "talk.en.srt").is_file():
        pytest.skip("the example talk is not in this checkout")
    assert main(["demo", "-o", str(tmp_path / "demo")]) == 0
    printed = capsys.readouterr().out
    assert "beads: 35" in printed and "agreement with talk.gold.align" in printed
    assert (tmp_path / "demo" / "talk.sialign").is_file()


def test_cli_align_pivot_weight_mixes_the_direct_signal(talk: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(align_args(talk, talk / "mixed.tsv", "--pivot-weight", "0.8")) == 0
    assert "embedder: use-multilingual + lexical (pivot through the reference translation)" in capsys.readouterr().out
    assert main(align_args(talk, talk / "bad.tsv", "--pivot-weight", "1.5")) == 64
    assert "argument --pivot-weight: must be between 0 and 1, not 1.5" in capsys.readouterr().err


def test_cli_align_allow_overlaps(talk: Path, capsys: pytest.CaptureFixture[str]) -> None:
    overlapping = write_srt(talk / "overlap.ja.srt", [(0.0, 3.0, "皆さん、"), (2.0, 4.0, "おはようございます。")])
    args = ["align", str(talk / "talk.en.srt"), str(overlapping), "-o", str(talk / "o.tsv")]
    assert main(args) == 2
    assert "overlap" in capsys.readouterr().err
    assert main([*args, "--allow-overlaps", "-q"]) == 0


def test_align_warns_about_a_doubtful_encoding_and_takes_the_right_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Short GBK Chinese decodes as EUC-JP without complaint: the CLI warns, and --tgt-encoding fixes it."""
    src = tmp_path / "talk.en.txt"
    src.write_text("Hello everyone.\nToday we talk about bread.\n", encoding="utf-8")
    tgt = tmp_path / "talk.zh.txt"
    tgt.write_bytes("大家好。\n今天我们谈谈面包。\n".encode("gbk"))
    out = tmp_path / "out.tsv"
    assert main(["align", str(src), str(tgt), "-o", str(out), "--model", "lexical", "--rows", "0"]) == 0
    err = capsys.readouterr().err
    assert "warning" in err and "talk.zh.txt" in err and "--tgt-encoding" in err
    assert main(["align", str(src), str(tgt), "-o", str(out), "--model", "lexical", "--tgt-encoding", "gbk",
                 "--tgt-lang", "zh", "--rows", "0"]) == 0
    err = capsys.readouterr().err
    assert "warning" not in err
    rows = out.read_text(encoding="utf-8")
    assert "今天我们谈谈面包" in rows and "書爺" not in rows


def test_cli_align_refuses_an_unknown_language_before_reading(talk: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = talk / "out.tsv"
    assert main(align_args(talk, out, "--src-lang", "xx")) == 64  # a wrong argument
    err = capsys.readouterr().err
    assert err == ("sialign align: error: unknown language 'xx' — use a two-letter code such as en, ja, fr, de, zh\n"
                   "run 'sialign align -h' for the options\n")
    assert not out.exists()


def test_cli_align_accepts_a_language_name_as_its_code(talk: Path) -> None:
    from sialign.io.project_file import load_project

    out = talk / "talk.sialign"
    assert main(align_args(talk, out, "-q", "--src-lang", "English", "--tgt-lang", "jpn")) == 0
    project = load_project(out)
    assert (project.source.language, project.target.language) == ("en", "ja")
    assert project.reference is not None and project.reference.language == "ja"
