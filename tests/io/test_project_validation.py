"""Project files under hostile input (issue 12): every field checked on load, no file named by content touched."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sialign.core.errors import FormatError, InputError
from sialign.io.project_file import autosave_path, load_project, save_autosave, save_project

sys.path.insert(0, str(Path(__file__).parent))
from test_project_file import make_project


def saved(tmp_path: Path) -> dict[str, Any]:
    path = tmp_path / "good.sialign"
    save_project(make_project(), path)
    return json.loads(path.read_text(encoding="utf-8"))


def set_in(*keys: Any, value: Any) -> Callable[[dict[str, Any]], None]:
    def apply(data: dict[str, Any]) -> None:
        node: Any = data
        for key in keys[:-1]:
            node = node[key]
        node[keys[-1]] = value

    return apply


P = "project"
DAMAGE = [
    ("status-list", set_in(P, "alignment", "beads", 0, "status", value=[]), r"'alignment.beads\[0\].status' is \[\]"),
    ("src-nested", set_in(P, "alignment", "beads", 0, "src", value=[[0]]), r"'alignment.beads\[0\].src\[0\]' is \[0\], not a whole number"),
    ("talk-id-0", set_in(P, "talk_id", value=0), "'talk_id' is 0, not a text"),
    ("language-0", set_in(P, "target", "language", value=0), "'target.language' is 0, not a text"),
    ("language-null", set_in(P, "target", "language", value=None), "'target.language' is None, not a text"),
    ("cost-empty", set_in(P, "alignment", "beads", 0, "cost", value=""), r"'alignment.beads\[0\].cost' is '', not a number"),
    ("cost-huge", set_in(P, "alignment", "beads", 0, "cost", value=10**400), r"'alignment.beads\[0\].cost'"),
    ("post-edit-5", set_in(P, "alignment", "beads", 0, "post_edit", value=5), r"'alignment.beads\[0\].post_edit' is 5, not a text"),
    ("note-5", set_in(P, "alignment", "beads", 0, "note", value=5), r"'alignment.beads\[0\].note' is 5"),
    ("audio-5", set_in(P, "target", "audio_path", value=5), "'target.audio_path' is 5"),
    ("time-1e308", set_in(P, "source", "segments", 0, "end", value=1e308), r"'source.segments\[0\].end' is 1e\+308, not a time"),
    ("bead-false", set_in(P, "alignment", "beads", 0, "src", value=[False]), r"'alignment.beads\[0\].src\[0\]' is False"),
    ("bead-float", set_in(P, "alignment", "beads", 0, "src", value=[0.0]), r"'alignment.beads\[0\].src\[0\]' is 0.0"),
    ("surrogate", set_in(P, "target", "segments", 0, "text", value="\ud800"), r"'target.segments\[0\].text' holds a broken character"),
    ("renamed-key", lambda d: d[P]["alignment"]["beads"][0].update(nots="x"), r"'alignment.beads\[0\].nots' is not a field this version knows"),
    ("unknown-top", lambda d: d.update(extra=1), "'extra' is not a field"),
    ("unknown-param", set_in(P, "params", "max_srcs", value=4), "'params.max_srcs' is not a field"),
    ("param-type", set_in(P, "params", "max_src", value="4"), "'params.max_src' is '4', not a whole number"),
    ("good-align-5", set_in(P, "alignment", "beads", 1, "good_align", value=5), r"'alignment.beads\[1\].good_align' is 5, not true or false"),
    ("deep-metadata", set_in(P, "metadata", "x", value=json.loads("[" * 100 + "]" * 100)), "nested more than"),
    ("flag-score", set_in(P, "alignment", "beads", 0, "flags", 0, "score", value="high"), r"flags\[0\].score' is 'high'"),
]


@pytest.mark.parametrize("name, damage, message", DAMAGE, ids=[d[0] for d in DAMAGE])
def test_project_validation_refuses_with_key_path(tmp_path: Path, name: str, damage: Callable[[dict[str, Any]], None], message: str) -> None:
    data = saved(tmp_path)
    damage(data)
    path = tmp_path / "broken.sialign"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(FormatError, match=message) as info:
        load_project(path)
    assert str(info.value).startswith(f"{path}: the project file is damaged")
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    "text, message",
    [
        ('{"format": "sialign-project", "schema": 1, "project": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested too deeply"),
        ('{"format": "sialign-project", "schema": 1, "project": {"talk_id": ' + "9" * 5000 + "}}", "cannot take"),
    ],
    ids=["deep-arrays", "5000-digits"],
)
def test_project_validation_json_limits(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "x.sialign"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(FormatError, match=message):
        load_project(path)


def _crafted_autosave_of(tmp_path: Path, victim_folder: Path) -> tuple[Path, dict[str, Any], Path]:
    """A precious ``other.sialign.autosave`` in ``victim_folder``, and a crafted ``p.sialign`` claiming to be its autosave.

    Returns (the victim file, the crafted JSON, the crafted project file).
    """
    victim = victim_folder / "other.sialign.autosave"
    victim.write_text("precious", encoding="utf-8")
    data = saved(tmp_path)
    data["autosave_of"] = str(victim_folder / "other.sialign")
    crafted = tmp_path / "p.sialign"
    crafted.write_text(json.dumps(data), encoding="utf-8")
    return victim, data, crafted


def test_project_validation_autosave_of_never_names_a_file_to_delete(tmp_path: Path) -> None:
    victim_folder = tmp_path / "x"
    victim_folder.mkdir()
    victim, data, crafted = _crafted_autosave_of(tmp_path, victim_folder)
    project = load_project(crafted)
    assert project.path == str(crafted)
    save_project(project, tmp_path / "out.sialign")
    assert victim.read_text(encoding="utf-8") == "precious"
    # Even a crafted autosave only stands for the file its own name gives.
    crafted_autosave = tmp_path / "q.sialign.autosave"
    crafted_autosave.write_text(json.dumps(data), encoding="utf-8")
    project = load_project(crafted_autosave)
    assert project.path == str(tmp_path / "q.sialign")
    save_project(project, tmp_path / "out2.sialign")
    assert victim.exists()


def test_project_validation_cli_filter_does_not_delete_named_autosave(tmp_path: Path) -> None:
    from sialign.cli.main import main

    victim, _, crafted = _crafted_autosave_of(tmp_path, tmp_path)
    main(["filter", str(crafted), "-o", str(tmp_path / "out.sialign")])
    assert victim.exists()


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file names are bytes")
def test_project_validation_non_utf8_path_round_trips(tmp_path: Path) -> None:
    project = make_project()
    odd = os.fsdecode(os.fsencode(str(tmp_path)) + b"/talk-\xff\xfe.srt")
    project.source.path = odd
    path = tmp_path / "p.sialign"
    save_project(project, path)
    loaded = load_project(path)
    assert loaded.source.path == "talk-\udcff\udcfe.srt"  # saved relative to the project's folder
    from sialign.core.paths import resolve_project_path

    assert str(resolve_project_path(loaded.source.path, loaded.path)) == odd
    save_autosave(project)
    assert load_project(autosave_path(path)).source.path == "talk-\udcff\udcfe.srt"


def test_project_validation_accepts_what_it_saves(tmp_path: Path) -> None:
    project = make_project()
    project.source.segments[0].speaker = "Roger"
    path = tmp_path / "p.sialign"
    save_project(project, path)
    assert load_project(path).source.segments[0].speaker == "Roger"


# ---------------------------------------------------------------------------
# Checksum: a changed byte is reported, not loaded silently different


def test_project_validation_checksum_catches_a_changed_value(tmp_path: Path) -> None:
    path = tmp_path / "p.sialign"
    save_project(make_project(), path)
    text = path.read_text(encoding="utf-8")
    assert '"checksum": "sha256:' in text
    path.write_text(text.replace("Today we talk about rivers.", "Today we talk about rovers."), encoding="utf-8")
    with pytest.raises(FormatError, match="does not match the checksum"):
        load_project(path)
    # Deleting the checksum accepts a deliberate hand edit.
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if '"checksum"' not in line]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert load_project(path).source.segments[1].text == "Today we talk about rovers."


def test_project_validation_single_byte_corruption_is_never_silent(tmp_path: Path) -> None:
    import random

    from sialign.core.errors import InputError

    path = tmp_path / "p.sialign"
    project = make_project()
    save_project(project, path)
    original = path.read_bytes()
    reference = load_project(path).to_dict()
    rng = random.Random(12)
    silent = 0
    for _ in range(400):
        data = bytearray(original)
        k = rng.randrange(len(data))
        data[k] = rng.choice([b for b in range(32, 127) if b != data[k]])
        broken = tmp_path / "broken.sialign"
        broken.write_bytes(bytes(data))
        try:
            loaded = load_project(broken)
        except InputError:
            continue
        if loaded.to_dict() != reference:
            silent += 1
    assert silent == 0


# ---------------------------------------------------------------------------
# Fuzzing the loader: any value at any key path loads cleanly or is refused


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix] if prefix else []
    if isinstance(value, dict):
        for k, v in value.items():
            found += _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for n, v in enumerate(value):
            found += _paths(v, prefix + (n,))
    return found


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=5) | st.just("\ud800"),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(choice=st.integers(min_value=0), value=JSON_VALUES, drop=st.booleans())
def test_project_validation_fuzz_only_input_errors(tmp_path_factory: pytest.TempPathFactory, choice: int, value: Any, drop: bool) -> None:
    from sialign.core.errors import InputError, SialignError
    from sialign.io.project_file import project_checksum
    from sialign.io.writers import write_alignment

    folder = tmp_path_factory.mktemp("fuzz")
    data = saved(folder)
    paths = _paths(data["project"])
    key_path = paths[choice % len(paths)]
    node: Any = data["project"]
    for key in key_path[:-1]:
        node = node[key]
    if drop and isinstance(node, dict):
        node.pop(key_path[-1])
    else:
        node[key_path[-1]] = value
    try:
        data["checksum"] = project_checksum(data["project"])  # a consistent file: only the values are wrong
    except (ValueError, TypeError):
        pass
    path = folder / "fuzzed.sialign"
    path.write_text(json.dumps(data, ensure_ascii=True), encoding="utf-8")
    try:
        project = load_project(path)
    except InputError:
        return
    # What loads must also save and export without a foreign exception.
    save_project(project, folder / "again.sialign")
    for fmt in ("tsv", "jsonl", "tmx", "align"):
        try:
            write_alignment(project, folder / f"out.{fmt}", format=fmt)
        except SialignError:
            pass


def test_project_validation_accepts_empty_language_and_talk_id(tmp_path: Path) -> None:
    # Only the type is checked: a cleared language box must not make a project unopenable.
    project = make_project()
    project.talk_id = ""
    project.target.language = ""
    path = tmp_path / "p.sialign"
    save_project(project, path)
    loaded = load_project(path)
    assert (loaded.talk_id, loaded.target.language) == ("", "")


def test_project_validation_unusable_parameters_are_a_damaged_file(tmp_path: Path) -> None:
    # Found by the fuzz test: each value is valid alone, the pair is not.
    data = saved(tmp_path)
    data["project"]["params"]["evs_min"] = 10
    data["project"]["params"]["evs_max"] = 10.0
    from sialign.io.project_file import project_checksum

    data["checksum"] = project_checksum(data["project"])
    path = tmp_path / "bad.sialign"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InputError, match="evs_min must be below evs_max"):
        load_project(path)
