"""The "partly rendered" flag: rendered share of the stored word links under a threshold."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.word_link_fakes import SpellingLinker, en_fr_project, use_as_default_linker

from sialign.cli.main import main
from sialign.core.params import FilterParams
from sialign.filters.apply import partly_rendered_flag
from sialign.io.project_file import load_project, save_project
from sialign.workflows.word_links import update_word_links


def test_partly_rendered_flag_fails_below_the_threshold_and_names_the_missing_words() -> None:
    project = en_fr_project()
    update_word_links(project, linker=SpellingLinker())
    beads = project.alignment.beads
    flag = partly_rendered_flag(project, beads[0], FilterParams(rendered_min=0.6))
    assert flag is not None and flag.failed and flag.score == pytest.approx(0.5)
    assert "2 of 4 source content words" in flag.reason and "million, euros" in flag.reason
    passed = partly_rendered_flag(project, beads[0], FilterParams(rendered_min=0.5))
    assert passed is not None and not passed.failed
    # Off at 0, and nothing to say without links.
    assert partly_rendered_flag(project, beads[0], FilterParams()) is None
    project.word_links = None
    assert partly_rendered_flag(project, beads[0], FilterParams(rendered_min=0.6)) is None


def test_partly_rendered_threshold_is_checked() -> None:
    from sialign.core.errors import ParamsError

    with pytest.raises(ParamsError, match="rendered_min"):
        FilterParams(rendered_min=1.5)


def test_cmd_filter_rendered_min_draws_links_and_flags_without_dropping(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    use_as_default_linker(monkeypatch, SpellingLinker)
    path = tmp_path / "talk.sialign"
    save_project(en_fr_project(), path)
    assert main(["filter", str(path), "--rendered-min", "0.6", "--no-intra", "--report"]) == 0
    assert "partly_rendered" in capsys.readouterr().out
    project = load_project(path)
    assert project.filter_params.rendered_min == 0.6
    assert project.word_links is not None and project.word_links.aligner == "spelling-test"
    flagged = [k for k, b in enumerate(project.alignment.beads) if any(f.name == "partly_rendered" and f.failed for f in b.flags)]
    assert flagged == [0, 1, 2]  # the stand-in links no word of "Thank you." to "Merci."
    assert all(b.status.value == "auto" for b in project.alignment.beads)


def test_cmd_filter_rendered_min_out_of_range(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "talk.sialign"
    save_project(en_fr_project(), path)
    assert main(["filter", str(path), "--rendered-min", "2"]) == 64
    assert "--rendered-min" in capsys.readouterr().err


def test_partly_rendered_preview_lists_the_beads_it_would_flag() -> None:
    from sialign.core.word_links import rendered_share
    from sialign.filters import score_beads
    from sialign.filters.preview import preview_changes

    project = en_fr_project()
    update_word_links(project, linker=SpellingLinker())
    beads = project.alignment.beads
    scores = score_beads(project)
    params = FilterParams(intra=False, rendered_min=0.4)
    shares = [rendered_share(project, b) for b in beads]
    changes = preview_changes(beads, project.target, scores, params, shares)
    flagged = {c.index: c.reasons for c in changes if c.change == "flag"}
    assert set(flagged) == {1, 2}  # 1 of 3 and 0 of 1 content words linked; bead 1 has 2 of 4
    assert flagged[1] == ("rendered 0.33 < 0.40 (flag only)",)
