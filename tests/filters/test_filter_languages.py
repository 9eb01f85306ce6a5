"""Filters apply only to the target languages they are built for, and say so."""

from __future__ import annotations

import pytest

from sialign.core.model import Alignment, Bead, BeadStatus, Document, Project
from sialign.core.params import FilterParams
from sialign.filters import apply_filters, score_beads
from sialign.filters.languages import language_kind, skipped_filters


def _chinese_project() -> Project:
    src = Document.from_texts(["Well, the government gave up.", "In 1950 Obama met 3 people.", "Thank you."], "en")
    tgt = Document.from_texts(["嗯，", "政府放弃了。", "1950年奥巴马见了三个人。", "那个，", "谢谢。"], "zh")
    ref = Document.from_texts(["政府放弃了。", "1950年，奥巴马见了3个人。", "谢谢。"], "zh")
    beads = [Bead((0,), (0, 1)), Bead((1,), (2,)), Bead((2,), (3, 4))]
    return Project(source=src, target=tgt, reference=ref, alignment=Alignment(beads))


def test_filter_languages_chinese_target_skips_content_word_filters_with_a_reason() -> None:
    project = _chinese_project()
    skipped = skipped_filters(project)
    assert set(skipped) == {"intra", "alpha"}
    assert "built for Japanese targets" in skipped["intra"] and "zh" in skipped["intra"]
    scores = score_beads(project)
    assert scores.skipped == skipped
    assert scores.trims == [(), (), ()] and not scores.contentless.any()
    params = FilterParams(alpha_min=0.9, drop_failed=True, drop_contentless=True)
    beads = apply_filters(project, params, scores)
    assert [b.trimmed for b in beads] == [(), (), ()]
    assert not any(f.name in ("intra", "alpha") for b in beads for f in b.flags)
    # gamma and eta are language-neutral and still measured.
    assert any(f.name == "eta" for b in beads for f in b.flags)
    assert all(b.status is BeadStatus.AUTO for b in beads)


@pytest.mark.parametrize(
    ("language", "texts", "kind"),
    [("ja", ["えー"], "ja"), ("en-GB", ["Hello"], "latin"), ("fr", ["Bonjour"], "latin"), ("zh-Hans", ["你好"], "zh"),
     ("und", ["Hello there"], "latin"), ("und", ["你好"], "und"), ("ko", ["안녕하세요"], "ko")],
)
def test_filter_languages_kind(language: str, texts: list[str], kind: str) -> None:
    assert language_kind(Document.from_texts(texts, language)) == kind


def test_filter_languages_japanese_and_english_targets_run_every_filter() -> None:
    for language in ("ja", "en"):
        project = Project(source=Document.from_texts(["a"], "en"), target=Document.from_texts(["b"], language))
        assert skipped_filters(project) == {}


def test_filter_languages_cli_summary_names_what_was_not_applied(tmp_path, capsys) -> None:
    from sialign.cli.main import main
    from sialign.io.project_file import load_project, save_project

    path = tmp_path / "zh.sialign"
    save_project(_chinese_project(), path)
    assert main(["filter", str(path), "--alpha-min", "0.9"]) == 0
    out = capsys.readouterr().out
    lines = [line for line in out.splitlines() if line.startswith("not applied:")]
    assert len(lines) == 1 and "intra, alpha" in lines[0] and "built for Japanese targets" in lines[0] and "zh" in lines[0]
    assert "0 trimmed, 0 newly dropped" in out
    assert all(b.status is BeadStatus.AUTO for b in load_project(path).alignment.beads)  # type: ignore[union-attr]


def test_filter_languages_align_summary_notes_skipped_filters() -> None:
    from sialign.workflows.outputs import summary_lines

    project = _chinese_project()
    timings = {"embedding": 0.0, "aligning": 0.0, "total": 0.0}
    lines = summary_lines(project, timings, rows=0, filters={"intra", "inter"})
    notes = [line for line in lines if line.startswith("not applied:")]
    assert len(notes) == 1 and "intra, alpha" in notes[0] and "built for Japanese targets" in notes[0]
    assert not any(line.startswith("not applied:") for line in summary_lines(project, timings, rows=0))
