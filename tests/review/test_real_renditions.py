"""A real pair: the written translation and the interpretation of one AHC-SI talk as two renditions.

Reads ``../shared/data/ahcsi-dev/dev.true.tsv`` at test time (skipped when
absent); every file written goes to the test's temporary folder.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

TALK = "GaryFlake_2010"


def _write_inputs(shared_data: Path, folder: Path) -> tuple[Path, Path, Path]:
    with open(shared_data / "ahcsi-dev" / "dev.true.tsv", encoding="utf-8", newline="") as handle:
        rows = [r for r in csv.DictReader(handle, delimiter="\t") if r["name"] == TALK]
    source, written, spoken = folder / "talk.en.txt", folder / "offline.ja.txt", folder / "si.ja.txt"
    source.write_text("".join(r["eng_src"].strip() + "\n" for r in rows), encoding="utf-8")
    written.write_text("".join(r["offline_tgt"].strip() + "\n" for r in rows), encoding="utf-8")
    # DESIGN.md §5: the interpretation concatenated and cut into chunks after 、。？！
    si = "".join(r["manual_si_tgt"].strip() for r in rows)
    spoken.write_text("".join(c + "\n" for c in re.findall(r"[^、。？！]+[、。？！]?", si) if c.strip()), encoding="utf-8")
    return source, written, spoken


def test_real_pair_report_and_compare(shared_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from sialign.cli.main import main

    source, written, spoken = _write_inputs(shared_data, tmp_path)
    a, b = tmp_path / "written.sialign", tmp_path / "interpreted.sialign"
    assert main(["align", str(source), str(written), "--talk-id", TALK, "-o", str(a), "-q"]) == 0
    assert main(["align", str(source), str(spoken), "--ref", str(written), "--talk-id", TALK, "-o", str(b), "-q"]) == 0
    assert main(["report", str(b), "-o", str(tmp_path / "r.html"), "--interpreter", "SI"]) == 0
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "SI (rank: not given)" in html and "of 27)" in html and "Coverage along the talk" in html
    try:
        from sialign.review.pdf import find_cjk_font

        find_cjk_font()
    except Exception:
        pass
    else:
        assert main(["report", str(b), "-o", str(tmp_path / "r.pdf")]) == 0
        assert (tmp_path / "r.pdf").read_bytes().startswith(b"%PDF")
    capsys.readouterr()
    assert main(["compare", str(a), str(b), "-o", str(tmp_path / "c.tsv")]) == 0
    out = capsys.readouterr().out
    assert f"{TALK}: 27 source sentences, 2 renditions (written, interpreted)" in out
    lines = (tmp_path / "c.tsv").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 28 and lines[0].endswith("interpreted:flags")
    # The interpretation is measured against the written translation (its reference).
    assert re.search(r"interpreted .*\d+%$", out, re.M)


def test_real_timed_interpretation_against_its_written_translation(shared_data: Path, tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """EPTIC: a European Parliament speech, its interpretation with real times and the official translation."""
    from sialign.cli.main import main

    speech = shared_data / "eptic-dev" / "en-it" / "0006-57-1856"
    if not speech.is_dir():
        pytest.skip("the EPTIC en-it speech 0006-57-1856 is not in the shared data")
    written = tmp_path / "written.txt"
    written.write_text("".join(line + "\n" for line in (speech / "ref.txt").read_text(encoding="utf-8").splitlines()
                               if line.strip() not in ("", "-")), encoding="utf-8")
    si, tr = tmp_path / "interpreter-104.sialign", tmp_path / "translation.sialign"
    common = ["--src-lang", "en", "--tgt-lang", "it", "--talk-id", speech.name, "-q"]
    assert main(["align", str(speech / "src.tsv"), str(speech / "tgt.tsv"), "--ref", str(speech / "ref.txt"), "-o", str(si), *common]) == 0
    assert main(["align", str(speech / "src.tsv"), str(written), "-o", str(tr), *common]) == 0
    assert main(["report", str(si), "-o", str(tmp_path / "r.html"), "--interpreter", "104"]) == 0
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    # Real times: the lag chart is there, and the median lag is a plausible ear-voice span.
    assert "Ear-voice span over the talk" in html
    median = float(re.search(r"Ear-voice span \(median\)</td><td>(-?[\d.]+) s", html).group(1))
    assert 0.0 < median < 6.0
    capsys.readouterr()
    assert main(["compare", str(si), str(tr), "-o", str(tmp_path / "c.html")]) == 0
    assert "32 source sentences, 2 renditions (interpreter-104, translation)" in capsys.readouterr().out
