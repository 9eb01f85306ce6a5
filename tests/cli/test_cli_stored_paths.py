"""Every command that reads a project works wherever the project, its transcripts and the working folder are.

A project stores its transcript and recording paths relative to its own folder; a command must read them
from there, never from the folder it runs in (``project-tags`` once read ``../../../x/talk.en.tagged.srt``
against the working folder, which only worked where ``..`` above ``/`` stays at ``/``).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from sialign.cli.main import EXIT_INPUT, main
from sialign.io.export_formats import EXPORT_FORMATS
from sialign.io.project_file import load_project, save_project

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"

pytestmark = pytest.mark.slow  # GiNZA (filter, project-tags) is loaded


@pytest.fixture(scope="module")
def places(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Transcripts two levels deep, the project four levels deep elsewhere, and a third folder to run in."""
    root = tmp_path_factory.mktemp("places")
    texts = root / "t1" / "t2"
    texts.mkdir(parents=True)
    for name in ("talk.en.tagged.srt", "talk.ja.srt", "talk.glossary.tsv"):
        shutil.copy(EXAMPLES / name, texts / name)
    project = root / "p1" / "p2" / "p3" / "p4" / "talk.sialign"
    project.parent.mkdir(parents=True)
    elsewhere = root / "w1" / "w2" / "w3"
    elsewhere.mkdir(parents=True)
    # One user's data folder for the module: align remembers the transcripts' folder there as allowed.
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SIALIGN_DATA_DIR", str(root / "user-data"))
        assert main(["align", str(texts / "talk.en.tagged.srt"), str(texts / "talk.ja.srt"), "-q", "-o", str(project)]) == 0
    stored = json.loads(project.read_text(encoding="utf-8"))["project"]["source"]["path"]
    assert not Path(stored).is_absolute() and stored.startswith("..")  # relative to the project's folder
    return {"texts": texts, "project": project, "cwd": elsewhere, "root": root}


@pytest.fixture(autouse=True)
def _one_user(places: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """The user who aligned the talk: the transcripts' folder is one they allowed by naming its files."""
    monkeypatch.setenv("SIALIGN_DATA_DIR", str(places["root"] / "user-data"))


@pytest.mark.parametrize(
    "argv",
    [
        *[["export", "{p}", "-f", f.key, "-o", "{out}/x" + f.suffix] for f in EXPORT_FORMATS],
        ["report", "{p}", "-o", "{out}/r.html"],
        ["report", "{p}", "--glossary", "{texts}/talk.glossary.tsv", "-o", "{out}/r2.html"],
        ["terms", "{p}", "{texts}/talk.glossary.tsv", "-o", "{out}/t.tsv"],
        ["project-tags", "{p}", "-o", "{out}/tags.srt"],
        ["filter", "{p}", "--learned-only", "-o", "{out}/f.sialign"],
        ["realign", "{p}", "--model", "lexical", "-o", "{out}/re.sialign"],
        ["explain", "{p}", "1", "2"],
        ["evs", "{p}", "--json", "{out}/evs.json"],
        ["compare", "{p}", "{p}", "-o", "{out}/c.tsv"],
    ],
    ids=lambda argv: " ".join(a for a in argv[:3] if not a.startswith("{")),
)
def test_every_project_command_reads_stored_paths_from_the_projects_folder(
    places: dict[str, Path], argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(places["cwd"])
    filled = [a.format(p=places["project"], out=tmp_path, texts=places["texts"]) for a in argv]
    assert main(filled) == 0, filled
    if argv[0] == "project-tags":
        assert "<term>" in (tmp_path / "tags.srt").read_text(encoding="utf-8")


def test_project_tags_from_the_filesystem_root(places: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reproduction of the report: run from ``/``, where ``..`` climbs no further."""
    monkeypatch.chdir("/")
    assert main(["project-tags", str(places["project"]), "-o", str(tmp_path / "t.srt")]) == 0


def test_a_stored_path_that_names_a_device_or_a_missing_file_is_one_line_naming_the_key(
    places: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    project = load_project(places["project"])
    moved = tmp_path / "talk.sialign"
    monkeypatch.setenv("SIALIGN_ALLOWED_FOLDERS", "/dev")  # past the folder check, to the file check
    project.source.path = "/dev/zero"
    save_project(project, moved)
    assert main(["project-tags", str(moved), "-o", str(tmp_path / "t.srt")]) == EXIT_INPUT
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "'source.path'" in err and "a device" in err and str(moved) in err
    project.source.path = str(tmp_path / "gone" / "talk.en.srt")
    project.target.audio_path = "/dev/zero"
    save_project(project, moved)
    assert main(["project-tags", str(moved), "-o", str(tmp_path / "t.srt")]) == EXIT_INPUT
    err = capsys.readouterr().err.strip()
    assert "'source.path'" in err and "does not exist" in err and "Project properties" in err
    # An ELAN export links the recordings: a device is refused, naming the key.
    assert main(["export", str(moved), "-f", "eaf", "-o", str(tmp_path / "x.eaf")]) == EXIT_INPUT
    err = capsys.readouterr().err.strip()
    assert "'target.audio_path'" in err and "a device" in err and not (tmp_path / "x.eaf").exists()
