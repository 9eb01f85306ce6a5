"""The .sialign project file: round trips, old and new schemas, damaged files, atomic saves, autosave."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from sialign.core.edits import MergeBeads, MoveSegment, SetLabels, SetStatus, SplitSegment, apply_edit
from sialign.core.errors import EditError, FormatError, InputError, ProjectVersionError
from sialign.core.model import Alignment, Bead, BeadStatus, Document, Flag, Project
from sialign.core.params import AlignParams, FilterParams
from sialign.io.project_file import (
    MIGRATIONS,
    SCHEMA_VERSION,
    autosave_path,
    discard_autosave,
    find_recovery,
    load_project,
    read_project_data,
    replay_history,
    save_autosave,
    save_project,
    untitled_autosaves,
)


def make_project() -> Project:
    source = Document.from_texts(
        ["Good morning everyone.", "Today we talk about rivers.", "Thank you."], "en", [(0.0, 2.0), (2.0, 5.0), (5.0, 6.0)]
    )
    source.path, source.format, source.encoding = "/talks/rivers.en.srt", "srt", "utf-8"
    target = Document.from_texts(["皆さん", "おはようございます", "今日は川の話です"], "ja", [(0.5, 1.2), (1.2, 2.6), (2.8, 5.5)])
    target.audio_path = "/talks/rivers.ja.wav"
    alignment = Alignment(
        beads=[
            Bead(src=(0,), tgt=(0, 1), cost=0.25, trimmed=(0,), flags=[Flag("alpha", 0.5, 0.3, "covers 2 of 4", False)]),
            Bead(src=(1,), tgt=(2,), cost=0.3, status=BeadStatus.CONFIRMED, good_align=True, note="clean"),
            Bead(src=(2,), tgt=(), cost=None, status=BeadStatus.DROPPED, reason="omission", post_edit=None),
        ],
        embedder="lexical",
        created="2026-05-01T10:00:00+00:00",
        info={"seconds": 0.5},
    )
    return Project(
        talk_id="rivers",
        source=source,
        target=target,
        alignment=alignment,
        params=AlignParams(embedder="lexical", max_src=4),
        filter_params=FilterParams(alpha_min=0.2),
        metadata={"interpreter": "B", "rank": "S"},
    )


def state(project: Project) -> dict[str, Any]:
    d = project.to_dict()
    d.pop("history")
    return d


# -------------------------------------------------------------------- round trip


def test_project_file_round_trip(tmp_path: Path) -> None:
    project = make_project()
    apply_edit(project, SplitSegment("src", 1, 5))
    apply_edit(project, SetLabels(0, True, False, "ok"))
    path = tmp_path / "rivers.sialign"
    save_project(project, path)
    assert project.path == str(path)
    loaded = load_project(path)
    assert loaded.to_dict() == project.to_dict()
    assert loaded.path == str(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert (data["format"], data["schema"]) == ("sialign-project", SCHEMA_VERSION)
    assert "autosave_of" not in data


def test_project_file_writes_one_segment_per_line_and_keeps_cjk_readable(tmp_path: Path) -> None:
    path = tmp_path / "rivers.sialign"
    save_project(make_project(), path)
    text = path.read_text(encoding="utf-8")
    assert "おはようございます" in text
    segment_lines = [line for line in text.splitlines() if line.lstrip().startswith('{"id":')]
    assert len(segment_lines) == 6


def test_project_file_history_replays_from_the_unedited_project(tmp_path: Path) -> None:
    base = make_project()
    project = Project.from_dict(base.to_dict())
    inverse = apply_edit(project, MoveSegment("tgt", 1, +1))
    apply_edit(project, SetStatus((0, 2), "confirmed"))
    apply_edit(project, inverse)  # undo of the move, recorded too
    apply_edit(project, MergeBeads(0))
    save_project(project, tmp_path / "p.sialign")
    loaded = load_project(tmp_path / "p.sialign")
    replayed = replay_history(base, loaded.history)
    assert state(replayed) == state(loaded)
    assert replayed.history == loaded.history
    assert base.history == []  # the starting project is left alone


def test_project_file_replay_names_the_failing_entry() -> None:
    with pytest.raises(EditError, match=r"history entry 2 \(Merge beads 9 and 10\)"):
        replay_history(make_project(), [SetStatus((0,), "confirmed").to_dict(), MergeBeads(8).to_dict()])


def test_project_file_saves_5000_beads_quickly(tmp_path: Path) -> None:
    n = 5000
    source = Document.from_texts([f"Sentence {i} of a long talk about rivers." for i in range(n)], "en", [(i, i + 1.0) for i in range(n)])
    target = Document.from_texts([f"川の話 {i}" for i in range(n)], "ja", [(i + 0.5, i + 1.5) for i in range(n)])
    project = Project(source=source, target=target, alignment=Alignment([Bead((i,), (i,), cost=0.1) for i in range(n)]))
    started = time.perf_counter()
    save_project(project, tmp_path / "big.sialign")
    loaded = load_project(tmp_path / "big.sialign")
    elapsed = time.perf_counter() - started
    assert len(loaded.alignment.beads) == n  # type: ignore[union-attr]
    # An autosave must not stall the editor; measured ~0.3 s for save + load here.
    assert elapsed < 5.0


# -------------------------------------------------------------------- schemas


V0_FILE: dict[str, Any] = {
    "format": "sialign-project",
    "version": 0,
    "talk_id": "old",
    "source": {"language": "en", "segments": [{"id": 0, "text": "Hello."}, {"id": 1, "text": "Bye.", "gap": "\n"}]},
    "target": {"language": "ja", "segments": [{"id": 0, "text": "こんにちは"}, {"id": 1, "text": "さようなら", "gap": "\n"}]},
    "reference": None,
    "alignment": {
        "embedder": "lexical",
        "beads": [
            {"src": [0], "tgt": [0], "cost": 0.1, "confirmed": True},
            {"src": [1], "tgt": [1], "cost": 0.9, "confirmed": True, "dropped": True, "drop_reason": "bad rendition"},
        ],
    },
    "params": {"embedder": "lexical"},
    "metadata": {"interpreter": "A"},
}


def test_project_file_loads_schema_0(tmp_path: Path) -> None:
    path = tmp_path / "old.sialign"
    path.write_text(json.dumps(V0_FILE), encoding="utf-8")
    project = load_project(path)
    assert project.talk_id == "old"
    beads = project.alignment.beads  # type: ignore[union-attr]
    assert [(b.status, b.reason) for b in beads] == [(BeadStatus.CONFIRMED, ""), (BeadStatus.DROPPED, "bad rendition")]
    assert (project.filter_params, project.history, project.metadata) == (FilterParams(), [], {"interpreter": "A"})
    # Saving writes the current schema, which loads back the same.
    save_project(project, path)
    assert json.loads(path.read_text(encoding="utf-8"))["schema"] == SCHEMA_VERSION
    assert load_project(path).to_dict() == project.to_dict()


def test_project_file_has_a_migration_for_every_older_schema() -> None:
    assert set(MIGRATIONS) == set(range(SCHEMA_VERSION))


def test_project_file_refuses_newer_schema(tmp_path: Path) -> None:
    path = tmp_path / "future.sialign"
    save_project(make_project(), path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["schema"] = SCHEMA_VERSION + 1
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ProjectVersionError) as info:
        load_project(path)
    assert str(info.value) == (
        f"{path}: written by a newer SI Aligner (schema {SCHEMA_VERSION + 1}); "
        f"this version reads up to {SCHEMA_VERSION} — update SI Aligner"
    )


# -------------------------------------------------------------------- damaged files


def _saved_data(tmp_path: Path) -> dict[str, Any]:
    path = tmp_path / "good.sialign"
    save_project(make_project(), path)
    return json.loads(path.read_text(encoding="utf-8"))


def _break(key: str) -> Any:
    def apply(d: dict[str, Any]) -> None:
        p = d["project"]
        if key == "no_project":
            del d["project"]
        elif key == "no_source":
            del p["source"]
        elif key == "segment_text":
            del p["target"]["segments"][1]["text"]
        elif key == "status":
            p["alignment"]["beads"][0]["status"] = "maybe"
        elif key == "coverage":
            del p["alignment"]["beads"][1]
        elif key == "history":
            p["history"] = [{"type": "Teleport"}]
        elif key == "history_status":
            p["history"] = [{"type": "ReplaceBeads", "start": 0, "stop": 1, "beads": [{"src": [0], "tgt": [0], "status": "\x00"}]}]
        elif key == "schema":
            d["schema"] = "one"
        elif key == "format":
            d["format"] = "something-else"
        elif key == "times":
            p["source"]["segments"][0]["end"] = "soon"

    return apply


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        ("no_project", "'project' object is missing"),
        ("no_source", "'source' is missing"),
        ("segment_text", r"'target.segments\[1\].text' is missing"),
        ("status", r"'alignment.beads\[0\].status' is 'maybe'"),
        ("coverage", "does not cover the source"),
        ("history", r"'history\[0\].type' is 'Teleport', not an edit this version knows"),
        ("history_status", r"'history\[0\].beads\[0\].status' is '\\x00', not auto, confirmed or dropped"),
        ("schema", "schema number 'one'"),
        ("format", "is not an SI Aligner project"),
        ("times", r"'source.segments\[0\].end' is 'soon', not a time"),
    ],
)
def test_project_file_damaged_fields_name_the_file(tmp_path: Path, damage: str, message: str) -> None:
    data = _saved_data(tmp_path)
    _break(damage)(data)
    path = tmp_path / "broken.sialign"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(FormatError, match=message) as info:
        load_project(path)
    assert str(path) in str(info.value)


@pytest.mark.parametrize(
    ("content", "message", "line"),
    [
        (b'{\n "format": "sialign-project",\n "schema": 1,\n "project": {', "not valid JSON", 4),
        (b"", "empty", None),
        (b"\x89PNG\r\n\x1a\n\x00\xff\xfe", "not UTF-8", None),
        (b"[1, 2, 3]", "not an SI Aligner project", None),
    ],
)
def test_project_file_unreadable_files_name_the_file(tmp_path: Path, content: bytes, message: str, line: int | None) -> None:
    path = tmp_path / "bad.sialign"
    path.write_bytes(content)
    with pytest.raises(FormatError, match=message) as info:
        load_project(path)
    assert str(info.value).startswith(str(path))
    assert info.value.line == line


def test_project_file_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such project file"):
        load_project(tmp_path / "nowhere.sialign")


def test_project_file_failed_save_leaves_old_file(tmp_path: Path) -> None:
    path = tmp_path / "rivers.sialign"
    project = make_project()
    save_project(project, path)
    good = path.read_bytes()
    project.metadata["recorder"] = object()  # not JSON: fails half-way through the write
    with pytest.raises(TypeError):
        save_project(project, path)
    assert path.read_bytes() == good
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rivers.sialign"]


# -------------------------------------------------------------------- autosave


def test_project_file_autosave_and_recovery(tmp_path: Path) -> None:
    path = tmp_path / "rivers.sialign"
    project = make_project()
    save_project(project, path)
    assert find_recovery(path) is None
    apply_edit(project, SetStatus((0,), "confirmed"))
    written = save_autosave(project)
    assert written == autosave_path(path) == tmp_path / "rivers.sialign.autosave"
    assert project.path == str(path)
    assert find_recovery(path) == written
    recovered = load_project(written)
    assert recovered.path == str(path)  # saving the recovered project writes the real file
    assert state(recovered) == state(project)
    save_project(recovered, recovered.path)
    # The saved file is newer: nothing to recover; the autosave itself is the app's to remove.
    assert written.exists() and find_recovery(path) is None


def test_project_file_older_autosave_is_not_offered(tmp_path: Path) -> None:
    path = tmp_path / "rivers.sialign"
    project = make_project()
    project.path = str(path)
    written = save_autosave(project)
    path.write_text("{}", encoding="utf-8")  # written by other means after the autosave
    old = time.time() - 60
    os.utime(written, (old, old))
    assert find_recovery(path) is None


def test_project_file_untitled_autosave(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SIALIGN_AUTOSAVE_DIR", str(tmp_path / "auto"))
    project = make_project()
    project.talk_id = "rivers / take 2"
    written = save_autosave(project)
    assert written == tmp_path / "auto" / "rivers_take_2.sialign.autosave"
    assert untitled_autosaves() == [written]
    assert find_recovery(None, project.talk_id) == written
    recovered = load_project(written)
    assert recovered.path is None
    assert read_project_data(written)["autosave_of"] is None
    save_project(recovered, tmp_path / "rivers.sialign")
    assert untitled_autosaves() == [written]  # a save leaves the app's recovery files alone
    discard_autosave(None, project.talk_id)
    assert untitled_autosaves() == []


def test_project_file_json_error_is_one_clear_line(tmp_path: Path) -> None:
    # json says "Unterminated string starting at: line 3 column 20"; its message alone read
    # "Unterminated string starting at, column 20".
    path = tmp_path / "cut.sialign"
    path.write_text('{\n "format": "sialign-project",\n "schema": 1, "x": "abc', encoding="utf-8")
    with pytest.raises(FormatError) as info:
        load_project(path)
    text = str(info.value)
    assert text.startswith(f"{path}, line 3, column 20: ")
    assert "a quoted text is not closed" in text and "open its autosave" in text
    assert "starting at" not in text and "\n" not in text
    assert info.value.line == 3
