"""The project file's published JSON Schema: a valid draft 2020-12 schema that every project SI Aligner writes fits,
that follows the code it describes, and whose verdict on fuzzed projects is the loader's."""

from __future__ import annotations

import dataclasses
import fnmatch
import json
import re
import subprocess
import sys
import tomllib
import typing
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from sialign.core import params as params_module
from sialign.core.edits import EDIT_TYPES, Batch, SetLabels, SetPostEdit, SetStatus, SplitSegment, apply_edit
from sialign.core.errors import InputError, ParamsError
from sialign.core.model import Document, Project
from sialign.core.word_links import BeadLinks, WordLinks
from sialign.io import project_schema
from sialign.io.fast_schema import compile_schema, failing_path
from sialign.io.project_file import load_project, project_checksum, save_autosave, save_project
from sialign.io.project_schema import SCHEMA_FILE, SCHEMA_VERSION, SchemaError

sys.path.insert(0, str(Path(__file__).parent))
from test_project_file import make_project
from test_project_validation import JSON_VALUES, _paths

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "resources" / "examples"
PUBLISHED = REPO / "resources" / "schema" / SCHEMA_FILE.name


def published() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(PUBLISHED.read_text(encoding="utf-8"))
    return loaded


def fits_published(data: Any) -> bool:
    """The verdict of the published schema as any other tool gives it (plain draft 2020-12)."""
    return bool(Draft202012Validator(published()).is_valid(data))


def rich_project() -> Project:
    """A project with every part a file can have: reference, history (a Batch among them), word links, undo steps."""
    project = make_project()
    project.reference = Document.from_texts(["皆さん、おはようございます。", "今日は川の話をします。", "ありがとう。"], "ja")
    apply_edit(project, SplitSegment("src", 1, 5))
    apply_edit(project, SetLabels(0, True, False, "ok"))
    inverse = apply_edit(project, Batch((SetStatus((1,), "confirmed"), SetPostEdit(1, "今日は川のお話です"))))
    project.undo = [{"label": "Confirm bead 2", "forward": project.history[-1], "inverse": inverse.to_dict()}]
    links = BeadLinks(src_tokens=(("Good", 0, 4), ("morning", 5, 12)), tgt_tokens=(("皆さん", 0, 3),), links=((0, 0),),
                      content=(0, 1), paraphrased=(1,))
    project.word_links = WordLinks(aligner="test", beads={"0123456789abcdef0123": links})
    return project


def saved_json(project: Project, path: Path) -> dict[str, Any]:
    save_project(project, path)
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


# --------------------------------------------------------------------------
# the schema itself


def test_project_schema_is_a_valid_draft_2020_12_schema() -> None:
    schema = published()
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] and schema["title"] and schema["description"]


def test_project_schema_published_file_is_the_one_the_program_reads() -> None:
    """resources/schema/ is where users find it; the package's copy is what an installed SI Aligner reads."""
    assert PUBLISHED.read_bytes() == SCHEMA_FILE.read_bytes(), f"copy {SCHEMA_FILE} to {PUBLISHED} (or back): they must be the same file"


def test_project_schema_is_versioned_with_the_format() -> None:
    schema = published()
    assert PUBLISHED.name == f"sialign-project-v{SCHEMA_VERSION}.schema.json"
    assert schema["properties"]["schema"]["const"] == SCHEMA_VERSION
    assert schema["$id"].endswith(f"-v{SCHEMA_VERSION}") and f"version {SCHEMA_VERSION}" in schema["title"]


def test_project_schema_ships_with_the_package_and_the_bundle() -> None:
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = pyproject["tool"]["setuptools"]["package-data"]["sialign"]
    inside = SCHEMA_FILE.relative_to(REPO / "desktop" / "sialign").as_posix()
    assert any(fnmatch.fnmatch(inside, p) for p in patterns), f"{inside} is not in [tool.setuptools.package-data]"
    assert any(d.startswith("jsonschema") for d in pyproject["project"]["dependencies"])
    spec = (REPO / "packaging" / "sialign.spec").read_text(encoding="utf-8")
    bundled = re.search(r'for sub in \(([^)]*)\):\n    folder = ROOT / "resources" / sub', spec)
    assert bundled is not None and '"schema"' in bundled.group(1), "the bundle leaves out resources/schema/"


def test_project_schema_describes_every_property() -> None:
    missing = []

    def visit(node: Any, where: str) -> None:
        if isinstance(node, dict):
            for name, sub in node.get("properties", {}).items():
                if not (sub.get("description") or "$ref" in sub and published()["$defs"][sub["$ref"][8:]].get("description")):
                    missing.append(f"{where}.{name}")
            for key, sub in node.items():
                visit(sub, f"{where}.{key}")
        elif isinstance(node, list):
            for n, sub in enumerate(node):
                visit(sub, f"{where}[{n}]")

    visit(published(), "")
    assert missing == []


def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls, vars(params_module))


@pytest.mark.parametrize("cls, name", [(params_module.AlignParams, "alignParams"), (params_module.FilterParams, "filterParams")])
def test_project_schema_parameters_follow_the_dataclasses(cls: type, name: str) -> None:
    """A parameter added to the code without the schema would make every new project refused."""
    fields = published()["$defs"][name]["properties"]
    hints = _hints(cls)
    assert list(fields) == [f.name for f in dataclasses.fields(cls)]
    for field_name, hint in hints.items():
        args = typing.get_args(hint)
        nullable = type(None) in args
        base = next(a for a in args if a is not type(None)) if nullable else hint
        kinds = fields[field_name]["type"]
        kinds = [kinds] if isinstance(kinds, str) else kinds
        assert ("null" in kinds) == nullable, field_name
        if typing.get_origin(base) is typing.Literal:
            assert fields[field_name]["enum"] == list(typing.get_args(base)), field_name
        else:
            expected = {bool: "boolean", int: "integer", float: "number", str: "string"}.get(base, "array")
            assert expected in kinds, field_name


@pytest.mark.parametrize("cls, name", [(params_module.AlignParams, "alignParams"), (params_module.FilterParams, "filterParams")])
def test_project_schema_parameter_ranges_are_the_parameters_own(cls: type, name: str) -> None:
    """Each range narrower than the general one is exactly the parameter's check: its ends pass, beyond them fails."""
    for field_name, sub in published()["$defs"][name]["properties"].items():
        for bound, general, step in (("minimum", -1e12, -0.5), ("maximum", 1e12, 0.5)):
            value = sub.get(bound)
            if value is None or value == general or abs(value) == 10**9:
                continue
            cls(**{field_name: value})
            with pytest.raises(ParamsError):
                cls(**{field_name: value + (int(step * 2) if isinstance(value, int) else step)})


def test_project_schema_edit_types_are_the_registry() -> None:
    assert published()["$defs"]["editType"]["enum"] == sorted(EDIT_TYPES)


# --------------------------------------------------------------------------
# what SI Aligner writes fits it


def test_project_schema_accepts_what_si_aligner_writes(tmp_path: Path) -> None:
    project = rich_project()
    data = saved_json(project, tmp_path / "rich.sialign")
    assert {"reference", "history", "undo", "word_links"} <= set(data["project"])
    assert fits_published(data), list(Draft202012Validator(published()).iter_errors(data))[:1]
    project_schema.payload(data)
    autosave = json.loads(save_autosave(load_project(tmp_path / "rich.sialign"), journal_mark="3f2a" * 8).read_text(encoding="utf-8"))
    assert autosave["journal_mark"] and fits_published(autosave)


def test_project_schema_accepts_the_example_talks_project(tmp_path: Path) -> None:
    """The bundled example talk aligned from the command line, reviewed a little, saved and autosaved."""
    from sialign.cli.main import main

    out = tmp_path / "talk.sialign"
    main(["align", str(EXAMPLES / "talk.en.srt"), str(EXAMPLES / "talk.ja.srt"), "--ref", str(EXAMPLES / "talk.ref.ja.txt"),
          "--src-audio", str(EXAMPLES / "talk.en.ogg"), "--tgt-audio", str(EXAMPLES / "talk.ja.ogg"),
          "--model", "lexical", "-q", "-o", str(out)])
    project = load_project(out)
    apply_edit(project, SetStatus((0, 1), "confirmed"))
    apply_edit(project, SetPostEdit(2, "直した訳"))
    save_project(project, out)
    data = json.loads(out.read_text(encoding="utf-8"))
    assert fits_published(data), list(Draft202012Validator(published()).iter_errors(data))[:1]


def test_project_schema_check_jsonschema_validates_a_project(tmp_path: Path) -> None:
    """The command docs/formats.md gives (check-jsonschema, a dev dependency) accepts a project and names a damaged one."""
    pytest.importorskip("check_jsonschema")
    good = tmp_path / "good.sialign"
    data = saved_json(rich_project(), good)
    data["project"]["alignment"]["beads"][0]["status"] = "maybe"
    bad = tmp_path / "bad.sialign"
    bad.write_text(json.dumps(data), encoding="utf-8")
    command = [sys.executable, "-m", "check_jsonschema", "--schemafile", str(PUBLISHED)]
    assert subprocess.run([*command, str(good)], capture_output=True, text=True).returncode == 0
    run = subprocess.run([*command, str(bad)], capture_output=True, text=True)
    assert run.returncode == 1 and "'maybe' is not one of" in run.stdout + run.stderr


def test_project_schema_accepts_the_projects_the_repository_ships() -> None:
    """Every project file in the repository (none is shipped today; one added later is held to the schema)."""
    shipped = [p for p in REPO.rglob("*.sialign*") if ".git" not in p.parts and p.suffix in (".sialign", ".autosave")]
    for path in shipped:
        assert fits_published(json.loads(path.read_text(encoding="utf-8"))), path


# --------------------------------------------------------------------------
# messages


P = "project"
MESSAGES = [
    ("enum-param", (P, "params", "method"), "beam", "'params.method' is 'beam', not beads or segment"),
    ("range-param", (P, "params", "max_src"), 100, "'params.max_src' is 100, outside 1..64"),
    ("range-filter", (P, "filter_params", "doubt_max"), 2.0, "'filter_params.doubt_max' is 2.0, outside 0..1"),
    ("reference", (P, "reference", "segments", 0, "id"), "a", "'reference.segments[0].id' is 'a', not a whole number"),
    ("reference-5", (P, "reference"), 5, "'reference' is 5, not an object"),
    ("token", (P, "word_links", "beads", "0123456789abcdef0123", "src", 0), ["Good", 0], "not a [token, start, end] triple"),
    ("links", (P, "word_links", "beads", "0123456789abcdef0123", "links"), "0-x", "'word_links.beads.0123456789abcdef0123.links' is '0-x', not a list of i-j links"),
    ("audio-nul", (P, "target", "audio_path"), "a\x00b", "'target.audio_path' is 'a\\x00b', not a file path"),
    ("audio-blank", (P, "target", "audio_path"), "  ", "not a file path"),
    ("segment-missing-id", (P, "source", "segments", 1), {"text": "x"}, r"'source.segments[1].id' is missing"),
    ("line-float", (P, "source", "segments", 0, "line"), 1.0, "'source.segments[0].line' is 1.0, not a whole number"),
    ("nan", (P, "alignment", "beads", 0, "cost"), float("nan"), "'alignment.beads[0].cost' is nan, not a usable number"),
    ("infinity", (P, "metadata", "x"), float("inf"), "'metadata.x' is inf, not a usable number"),
    ("big-int", (P, "metadata", "x"), 2**60, "'metadata.x' is 1152921504606846976, not a usable number"),
    ("surrogate-key", (P, "metadata", "\udc00"), 1, "'metadata (a key)' holds a broken character"),
    ("path-surrogate", (P, "source", "path"), "a\udcffb", None),  # a PEP 383 escape: allowed in a path
    ("text-pep383", (P, "source", "language"), "a\udcffb", "'source.language' holds a broken character"),
    ("undo-step", (P, "undo", "steps", 0, "label"), 3, "'undo.steps[0].label' is 3, not a text"),
    ("history-edit-field", (P, "history", 2, "edits", 0, "indices"), "x", None),  # an edit's own fields are the edit's to check
    ("format", ("format",), "other", "'format' is 'other', not sialign-project"),
    ("checksum", ("checksum",), "md5:00", r"'checksum' is 'md5:00', not text of the form ^sha256:[0-9a-f]{64}$"),
]


@pytest.mark.parametrize("name, where, value, message", MESSAGES, ids=[m[0] for m in MESSAGES])
def test_project_schema_messages_name_the_key_path(tmp_path: Path, name: str, where: tuple[Any, ...], value: Any, message: str | None) -> None:
    data = saved_json(rich_project(), tmp_path / "p.sialign")
    node: Any = data
    for key in where[:-1]:
        node = node[key]
    node[where[-1]] = value
    if message is None:
        project_schema.payload(data)
        return
    with pytest.raises(SchemaError) as info:
        project_schema.payload(data)
    assert message in str(info.value)
    assert "\n" not in str(info.value)
    assert_explained_in_part(data)


def assert_explained_in_part(data: dict[str, Any]) -> None:
    """jsonschema finds the error in the part where the compiled check failed, all the way down (a 5,000-bead
    project would take it seconds as a whole)."""
    path = failing_path(compile_schema(project_schema.schema()), data)
    if path is None:
        return
    depth, sub, node = project_schema._part(data, path)
    assert depth == len(path), (path, depth)
    assert not project_schema.validator().evolve(schema=sub).is_valid(node)


def test_project_schema_first_error_in_the_files_order(tmp_path: Path) -> None:
    data = saved_json(rich_project(), tmp_path / "p.sialign")
    data["project"]["alignment"]["beads"][2]["status"] = "x"
    data["project"]["alignment"]["beads"][1]["cost"] = "x"
    data["project"]["alignment"]["beads"][1]["note"] = 5
    with pytest.raises(SchemaError, match=r"'alignment.beads\[1\].cost' is 'x'"):
        project_schema.payload(data)


def test_project_schema_is_not_loaded_with_the_package() -> None:
    """Importing SI Aligner, its project file module or its command line loads neither jsonschema nor the schema."""
    code = (
        "import sys, sialign, sialign.io.project_file, sialign.cli.main\n"
        "from sialign.io import project_schema\n"
        "print('jsonschema' in sys.modules, project_schema.schema.cache_info().currsize)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "0"]


# --------------------------------------------------------------------------
# fuzzed projects: the schema's verdict is the loader's

# What the loader refuses that no schema can say (the checks that stay code), by its message.
CODE_ONLY = re.compile(
    "holds a broken character"  # a lone surrogate (JSON allows the escape)
    "|nested more than"
    "|not a usable number"  # NaN, infinity, beyond 2**53 (the schema bounds the numbers it names)
    r"|is -?\d+\.0, not a whole number"  # 1.0 is an integer to JSON Schema, not to SI Aligner
    # the beads against the documents, the segments of a document against each other
    "|does not cover the|is empty on both sides|trims target segments|marks target segments restored"
    r"|has two segments with the same id|\) before it starts \(|the reference translation has"
    "|parameters are unusable"  # parameters against each other (evs_min below evs_max...)
    "|does not match the checksum"
)


@settings(max_examples=250, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(choice=st.integers(min_value=0), value=JSON_VALUES, drop=st.booleans())
def test_project_schema_fuzz_verdicts_agree_with_the_loader(tmp_path_factory: pytest.TempPathFactory, choice: int, value: Any, drop: bool) -> None:
    """Any value at any key path of a full project: the compiled check is jsonschema's, and the loader opens the
    file exactly when the published schema accepts it, unless it refuses for one of the checks that stay code."""
    folder = tmp_path_factory.mktemp("fuzz")
    data = saved_json(rich_project(), folder / "good.sialign")
    key_path = _paths(data["project"])[choice % len(_paths(data["project"]))]
    node: Any = data["project"]
    for key in key_path[:-1]:
        node = node[key]
    if drop and isinstance(node, dict):
        node.pop(key_path[-1])
    else:
        node[key_path[-1]] = value
    try:
        data["checksum"] = project_checksum(data["project"])
    except (ValueError, TypeError):
        pass
    text = json.dumps(data, ensure_ascii=True)
    data = json.loads(text)  # as the loader reads it
    assert compile_schema(project_schema.schema())(data) == project_schema.validator().is_valid(data)
    assert_explained_in_part(data)
    path = folder / "fuzzed.sialign"
    path.write_text(text, encoding="utf-8")
    try:
        load_project(path)
        loaded = None
    except InputError as exc:
        loaded = str(exc)
    schema_ok = fits_published(data)
    if loaded is None:
        assert schema_ok, f"the schema refuses a project SI Aligner opens: {key_path} = {value!r}"
    elif schema_ok:
        assert CODE_ONLY.search(loaded), f"refused for what the schema could say: {loaded}"
