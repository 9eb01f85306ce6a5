"""``sialign terms``, ``sialign project-tags`` and ``sialign report --glossary`` on the example talk, end to end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sialign.cli.main import EXIT_INPUT, EXIT_USAGE, main
from sialign.io.project_file import load_project
from sialign.io.readers import read_transcript

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"

pytestmark = pytest.mark.slow  # GiNZA and the built-in encoder are loaded


@pytest.fixture(scope="module")
def aligned(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("talk") / "talk.sialign"
    assert main(["align", str(EXAMPLES / "talk.en.srt"), str(EXAMPLES / "talk.ja.srt"), "-o", str(out), "-q"]) == 0
    return out


def test_cli_terms_on_the_example_talk(aligned: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["terms", str(aligned), str(EXAMPLES / "talk.glossary.tsv")]) == 0
    out, err = capsys.readouterr()
    rows = [line.split("\t") for line in out.splitlines() if not line.startswith("#")][1:]
    verdicts = {(r[0], r[2]): r[4] for r in rows}
    # Bead 5: the sourdough starter became サワー種; the dough 生地 (its bead's number depends on how
    # the beads before it are split); flour was said 粉, not 小麦粉.
    assert verdicts[("5", "sourdough starter")] == "rendered as expected"
    assert [(r[4], r[5]) for r in rows if r[2] == "dough"] == [("rendered as expected", "生地")]
    assert {r[5] for r in rows if r[2] == "flour"} == {"粉"} and {r[4] for r in rows if r[2] == "flour"} == {"rendered otherwise"}
    # Sentence 29 ("Some experiments failed…") was left out by the interpreter.
    assert any(r[2] == "experiment" and r[4] == "not rendered" for r in rows)
    assert "12 glossary terms" in err and "rule-based English lemmas" in err
    assert main(["terms", str(aligned), str(EXAMPLES / "talk.glossary.tsv"), "-o", str(tmp_path / "t.json")]) == 0
    data = json.loads((tmp_path / "t.json").read_text(encoding="utf-8"))
    assert sum(data["counts"].values()) == len(rows) and data["missing"] == []


def test_cli_project_tags_on_the_example_talk(aligned: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "talk.ja.tagged.srt"
    assert main(["project-tags", str(aligned), "--tagged", str(EXAMPLES / "talk.en.tagged.srt"), "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    for tagged in ("<term>生地</term>", "<term>温度計</term>", "<term>レシピ</term>", "<i>ガーデニング</i>", "<i>ギター</i>"):
        assert tagged in text
    err = capsys.readouterr().err
    assert "projected onto the interpretation" in err
    # Each tag left out is named with its words and bead, to be placed by hand.
    summary = err.splitlines()[0]
    projected, total = int(summary.split(" of ")[0]), int(summary.split(" of ")[1].split()[0])
    assert err.count("  not projected: <") == total - projected
    assert main(["project-tags", str(aligned), "--tagged", str(EXAMPLES / "talk.en.tagged.srt"), "-o", str(tmp_path / "t.jsonl")]) == 0
    records = [json.loads(line) for line in (tmp_path / "t.jsonl").read_text(encoding="utf-8").splitlines()]
    assert any(r["target_tagged"].startswith("安い<term>温度計</term>と、<i>ノート</i>") for r in records)
    assert main(["project-tags", str(aligned), "--tagged", str(EXAMPLES / "talk.en.tagged.srt"), "-o", str(tmp_path / "t.vtt")]) == 0
    assert (tmp_path / "t.vtt").read_text(encoding="utf-8").startswith("WEBVTT\n")
    assert main(["project-tags", str(aligned), "--tagged", str(EXAMPLES / "talk.en.tagged.srt"), "-o", str(tmp_path / "t.eaf")]) == 0
    terms = read_transcript(tmp_path / "t.eaf", tier="target tag term", language="ja")
    assert "温度計" in [seg.text for seg in terms.segments]


def test_cli_project_tags_of_a_project_aligned_from_the_tagged_source(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = tmp_path / "tagged.sialign"
    assert main(["align", str(EXAMPLES / "talk.en.tagged.srt"), str(EXAMPLES / "talk.ja.srt"), "-o", str(project), "-q"]) == 0
    texts = [seg.text for seg in load_project(project).source.segments]
    assert any("sourdough starter" in t for t in texts) and not any("<" in t for t in texts)  # aligned on the plain text
    assert main(["project-tags", str(project), "-o", str(tmp_path / "t.srt")]) == 0
    assert "<term>レシピ</term>" in (tmp_path / "t.srt").read_text(encoding="utf-8")


def test_cli_report_with_a_glossary(aligned: Path, tmp_path: Path) -> None:
    assert main(["report", str(aligned), "--glossary", str(EXAMPLES / "talk.glossary.tsv"), "-o", str(tmp_path / "r.html")]) == 0
    assert "<h2>Terms (talk.glossary.tsv)</h2>" in (tmp_path / "r.html").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["terms", "{project}", "{bad}"], "line 2: expected 'source term<TAB>accepted rendering'"),
        (["terms", "{project}", "{glossary}", "-o", "{tmp}/x.pdf"], "written as .tsv or .json"),
        (["report", "{project}", "--glossary", "{bad}", "-o", "{tmp}/r.html"], "line 2"),
        (["project-tags", "{project}", "-o", "{tmp}/x.srt"], "no inline tag"),
        (["project-tags", "{project}", "-o", "{tmp}/x.txt"], ".srt, .vtt, .jsonl or .eaf"),
        (["project-tags", "{project}", "--tagged", "{tmp}/none.srt", "-o", "{tmp}/x.srt"], "none.srt"),
    ],
)
def test_cli_terms_and_tags_bad_input_is_one_line(aligned: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], words: str) -> None:
    bad = tmp_path / "bad.tsv"
    bad.write_text("# glossary\nbread パン\n", encoding="utf-8")
    fill = {"project": str(aligned), "bad": str(bad), "glossary": str(EXAMPLES / "talk.glossary.tsv"), "tmp": str(tmp_path)}
    wrong_name = any(a.endswith((".pdf", ".txt")) for a in argv)  # an output name that says no format: a usage error
    assert main([a.format(**fill) for a in argv]) == (EXIT_USAGE if wrong_name else EXIT_INPUT)
    err = capsys.readouterr().err.strip()
    assert words in err and len(err.splitlines()) == 1 and "Traceback" not in err
