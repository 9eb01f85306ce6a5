"""The project file's published JSON Schema: a valid draft 2020-12 schema that every project SI Aligner writes fits,
and that follows the code it describes."""

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
from jsonschema import Draft202012Validator

from sialign.core import params as params_module
from sialign.core.edits import EDIT_TYPES, Batch, SetLabels, SetPostEdit, SetStatus, SplitSegment, apply_edit
from sialign.core.errors import ParamsError
from sialign.core.model import Document, Project
from sialign.core.word_links import BeadLinks, WordLinks
from sialign.io import project_schema
from sialign.io.project_file import load_project, save_autosave, save_project
from sialign.io.project_schema import SCHEMA_FILE, SCHEMA_VERSION

sys.path.insert(0, str(Path(__file__).parent))
from test_project_file import make_project

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
