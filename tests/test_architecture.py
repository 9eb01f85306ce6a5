"""Architecture rules that keep the core Qt-free and start-up fast."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PKG = Path(__file__).resolve().parents[1] / "desktop" / "sialign"
QT_MODULES = {"PySide6", "pyqtgraph", "shiboken6"}
HEAVY_MODULES = {"torch", "sentence_transformers", "spacy", "ginza", "transformers", "sudachipy"}


def _top_level_imports(path: Path) -> list[tuple[str, int, bool]]:
    """(module, line, at_module_level) for every import in a file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    module_level = {id(n) for n in tree.body}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.append((alias.name.split(".")[0], node.lineno, id(node) in module_level))
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.module.split(".")[0], node.lineno, id(node) in module_level))
    return found


def test_architecture_qt_only_in_gui() -> None:
    offenders = []
    for path in PKG.rglob("*.py"):
        rel = path.relative_to(PKG)
        if rel.parts[0] == "gui":
            continue
        for mod, line, _ in _top_level_imports(path):
            if mod in QT_MODULES:
                offenders.append(f"{rel}:{line} imports {mod}")
    assert not offenders, "Qt imported outside sialign.gui: " + "; ".join(offenders)


def test_architecture_heavy_libraries_imported_lazily() -> None:
    offenders = []
    for path in PKG.rglob("*.py"):
        rel = path.relative_to(PKG)
        for mod, line, at_module_level in _top_level_imports(path):
            if mod in HEAVY_MODULES and at_module_level:
                offenders.append(f"{rel}:{line} imports {mod} at module level")
    assert not offenders, "; ".join(offenders)


def test_architecture_cli_help_imports_nothing_heavy() -> None:
    code = (
        "import sys, contextlib, io\n"
        "from sialign.cli.main import build_parser\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try:\n"
        "        build_parser().parse_args(['--help'])\n"
        "    except SystemExit:\n"
        "        pass\n"
        f"heavy = sorted(m for m in sys.modules if m.split('.')[0] in {sorted(HEAVY_MODULES | QT_MODULES)!r})\n"
        "print(','.join(heavy))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "", f"'sialign --help' imported: {out}"


def _imports_of_package(package: str) -> list[tuple[str, str, int]]:
    """(file, imported sialign module, line) for every import of ``sialign.*`` in one package, lazy ones included."""
    found = []
    for path in (PKG / package).rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                if name.startswith("sialign."):
                    found.append((str(path.relative_to(PKG)), name, node.lineno))
    return found


def test_architecture_gui_does_not_import_cli() -> None:
    offenders = [f"{f}:{line} imports {mod}" for f, mod, line in _imports_of_package("gui") if mod.startswith("sialign.cli")]
    assert not offenders, "the GUI calls sialign.workflows, not the CLI: " + "; ".join(offenders)


def test_architecture_cli_does_not_import_gui() -> None:
    offenders = [f"{f}:{line} imports {mod}" for f, mod, line in _imports_of_package("cli") if mod.startswith("sialign.gui")]
    assert not offenders, "the CLI never imports the GUI: " + "; ".join(offenders)


def test_architecture_layers_contract_is_kept() -> None:
    """The whole layer order of ``[tool.importlinter]`` in pyproject.toml (lazy imports count too)."""
    import os

    import pytest

    pytest.importorskip("importlinter")
    repo = PKG.parents[1]
    env = dict(os.environ, PYTHONPATH=str(repo / "desktop"))
    code = "import sys\nfrom importlinter.cli import lint_imports\nsys.exit(lint_imports(config_filename='pyproject.toml'))\n"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=repo, env=env)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]


# The front ends, corpus mode and the Python API change a project only through sialign.workflows.
FRONT_ENDS = ("cli", "gui", "corpus", "__init__.py")


def _front_end_files() -> list[Path]:
    return [p for name in FRONT_ENDS for p in ([PKG / name] if name.endswith(".py") else sorted((PKG / name).rglob("*.py")))]


def _names_in(path: Path, *, attributes: bool = True) -> list[tuple[str, int]]:
    """Every name a file imports or reads (and, with ``attributes``, reaches as an attribute), with its line."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.Attribute) and attributes:
            found.append((node.attr, node.lineno))
        elif isinstance(node, ast.Name):
            found.append((node.id, node.lineno))
    return found


def test_architecture_only_workflows_and_align_call_the_aligner() -> None:
    offenders = []
    for path in PKG.rglob("*.py"):
        rel = path.relative_to(PKG)
        if rel.parts[0] in ("workflows", "align"):
            continue
        offenders += [f"{rel}:{line}" for name, line in _names_in(path) if name == "align_project"]
    assert not offenders, "align through sialign.workflows.aligning (align_talk, compute_alignment): " + "; ".join(offenders)


def test_architecture_front_ends_apply_no_edit_themselves() -> None:
    """Edits reach a project through workflows, or the desktop app's undo stack (gui/common/commands.py wraps them)."""
    offenders = []
    for path in _front_end_files():
        rel = path.relative_to(PKG)
        allowed = {"apply_edit_changes"} if rel.as_posix() == "gui/common/commands.py" else set()
        # Attributes are left out: a view's own apply_edit method redraws, it changes no project.
        offenders += [f"{rel}:{line} uses {name}" for name, line in _names_in(path, attributes=False)
                      if name in ("apply_edit", "apply_edit_changes") and name not in allowed]
    assert not offenders, "apply edits through sialign.workflows or the session's undo stack: " + "; ".join(offenders)


def test_architecture_parameters_change_only_through_edits() -> None:
    """``project.params = ...`` outside sialign.core would change a project past its history and its undo."""
    offenders = []
    for path in PKG.rglob("*.py"):
        rel = path.relative_to(PKG)
        if rel.parts[0] == "core":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
            for target in targets:
                if not (isinstance(target, ast.Attribute) and target.attr in ("params", "filter_params")):
                    continue
                owner = target.value
                if (isinstance(owner, ast.Name) and owner.id == "project") or (isinstance(owner, ast.Attribute) and owner.attr == "project"):
                    offenders.append(f"{rel}:{node.lineno}")
    assert not offenders, "change parameters with SetParams / SetFilterParams (sialign.core.edits): " + "; ".join(offenders)


def test_architecture_one_door_contract_covers_the_engines() -> None:
    """The forbidden contract names every front end and every engine behind workflows (none dropped unnoticed)."""
    import tomllib

    config = tomllib.loads((PKG.parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    contract = next(c for c in config["tool"]["importlinter"]["contracts"] if c["id"] == "one-door")
    assert contract["type"] == "forbidden"
    assert set(contract["source_modules"]) >= {"sialign.cli", "sialign.gui", "sialign.corpus"}
    assert set(contract["forbidden_modules"]) >= {"sialign.align", "sialign.filters", "sialign.links"}


def test_architecture_speech_door_contract_covers_the_booth_and_recognition() -> None:
    """The front ends put a practice session together and look up speech models through sialign.workflows only."""
    import tomllib

    config = tomllib.loads((PKG.parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    contract = next(c for c in config["tool"]["importlinter"]["contracts"] if c["id"] == "speech-door")
    assert contract["type"] == "forbidden"
    assert set(contract["source_modules"]) >= {"sialign.cli", "sialign.gui"}
    assert set(contract["forbidden_modules"]) >= {"sialign.booth", "sialign.transcribe"}


# Import circles inside sialign that are known and accepted: none. Each entry would be one strongly
# connected group of modules; the test fails on any other group and on an entry that is no circle.
KNOWN_CIRCLES: set[frozenset[str]] = set()



def test_architecture_project_files_are_written_through_workflows() -> None:
    """The front ends name neither the project file's writers, the lock nor the edit journal (workflows.keeping does)."""
    import tomllib

    config = tomllib.loads((PKG.parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    contract = next(c for c in config["tool"]["importlinter"]["contracts"] if c["id"] == "one-door-project-files")
    assert contract["type"] == "forbidden"
    assert set(contract["source_modules"]) >= {"sialign.cli", "sialign.gui"}
    assert set(contract["forbidden_modules"]) >= {"sialign.io.project_file", "sialign.io.project_lock",
                                                 "sialign.io.edit_journal"}


def _import_circles(graph: object) -> list[frozenset[str]]:
    """The strongly connected groups (two modules or more) of the graph of direct imports (Tarjan, iterative)."""
    modules = sorted(graph.modules)  # type: ignore[attr-defined]
    imports = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in modules}  # type: ignore[attr-defined]
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[frozenset[str]] = []
    for root in modules:
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(imports[root]))]
        while work:
            module, pending = work[-1]
            for imported in pending:
                if imported not in index:
                    index[imported] = low[imported] = len(index)
                    stack.append(imported)
                    on_stack.add(imported)
                    work.append((imported, iter(imports[imported])))
                    break
                if imported in on_stack:
                    low[module] = min(low[module], index[imported])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[module])
                if low[module] == index[module]:
                    group = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.add(member)
                        if member == module:
                            break
                    if len(group) > 1:
                        circles.append(frozenset(group))
    return circles


def test_no_import_circle() -> None:
    """No two modules of sialign import each other, directly or round a longer loop (lazy imports count, types do not).

    A circle is broken by moving the piece both sides need down to a module both can import (or up to the caller),
    not by hiding one import inside a function: grimp sees those too.
    """
    import pytest

    grimp = pytest.importorskip("grimp")
    graph = grimp.build_graph("sialign", include_external_packages=False, exclude_type_checking_imports=True)
    circles = _import_circles(graph)
    found = []
    for group in sorted(set(circles) - KNOWN_CIRCLES, key=sorted):
        steps = []
        for importer in sorted(group):
            for imported in sorted(group & graph.find_modules_directly_imported_by(importer)):
                lines = ", ".join(str(d["line_number"]) for d in graph.get_import_details(importer=importer, imported=imported))
                steps.append(f"{importer} → {imported} (line {lines})")
        found.append("{" + ", ".join(sorted(group)) + "}: " + "; ".join(steps))
    assert not found, "import circles: " + " | ".join(found)
    gone = KNOWN_CIRCLES - set(circles)
    assert not gone, f"these circles are broken now: remove them from KNOWN_CIRCLES: {sorted(sorted(g) for g in gone)}"


# The layers below the front ends speak in their own terms: no menu path ("File → Project properties…") and no
# command-line option ("--max-tgt") in their messages; an error names what to change in SialignError.settings and
# each front end says where (cli/error_words.py, gui/common/error_words.py). Docstrings may mention both.
BELOW_THE_FRONT_ENDS = ("core", "io", "align", "filters", "workflows", "embed", "text", "audio", "booth", "review",
                        "transcribe", "evaluate", "corpus", "links")
MENU_PATH = r"[A-Z][\w&]*(?: [\w&]+)* → [A-Z]"
OPTION = r"(?<![\w-])--[a-z][a-z0-9_-]*"
# Options of other programs, in the command a message tells the user to run.
OTHER_PROGRAMS_OPTIONS = {
    ("embed/models_registry.py", "--model"): "ct2-transformers-converter, which converts a Whisper model",
    ("embed/models_registry.py", "--output_dir"): "ct2-transformers-converter",
    ("embed/models_registry.py", "--quantization"): "ct2-transformers-converter",
    ("text/japanese.py", "--force-reinstall"): "pip, which reinstalls the GiNZA model",
}


def _message_literals(path: Path) -> list[tuple[int, str]]:
    """Every string literal of a file but its docstrings (f-string parts included), with its line."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                docstrings.add(id(first.value))
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings]


def test_qt_free_layers_name_no_menu_and_no_option() -> None:
    import re

    offenders = []
    for name in BELOW_THE_FRONT_ENDS:
        for path in [PKG / name] if name.endswith(".py") else sorted((PKG / name).rglob("*.py")):
            rel = path.relative_to(PKG).as_posix()
            for line, text in _message_literals(path):
                menus = re.findall(MENU_PATH, text)
                options = [o for o in re.findall(OPTION, text) if (rel, o.split("=")[0]) not in OTHER_PROGRAMS_OPTIONS]
                offenders += [f"{rel}:{line}: {found!r}" for found in menus + options]
    assert not offenders, (
        "say it in the layer's terms and name the setting in SialignError.settings; the front ends word it: " + "; ".join(offenders)
    )


def test_every_setting_an_error_names_is_worded_by_both_front_ends() -> None:
    """Each name of core.errors.SETTINGS is known to the app's wording; each one a message names is a known one."""
    from sialign.cli.error_words import COMMAND_OPTION_NAMES, COMMANDS, OPTION_NAMES
    from sialign.core.errors import SETTINGS

    gui_words = PKG / "gui" / "common" / "error_words.py"
    tree = ast.parse(gui_words.read_text(encoding="utf-8"))
    app = next(n.value for n in ast.walk(tree) if isinstance(n, ast.AnnAssign) and getattr(n.target, "id", "") == "WHERE_IN_THE_APP")
    assert isinstance(app, ast.Dict)
    app_names = {k.value for k in app.keys if isinstance(k, ast.Constant)}
    assert app_names == set(SETTINGS), f"gui/common/error_words.py words {sorted(app_names ^ set(SETTINGS))} differently from SETTINGS"
    assert set(OPTION_NAMES) | set(COMMANDS) | {s for _, s in COMMAND_OPTION_NAMES} <= set(SETTINGS)
    named = set()
    for path in PKG.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.keyword) and node.arg == "settings" and isinstance(node.value, ast.Tuple):
                named |= {e.value for e in node.value.elts if isinstance(e, ast.Constant)}
    assert named and named <= set(SETTINGS), f"settings named but not in core.errors.SETTINGS: {sorted(named - set(SETTINGS))}"
