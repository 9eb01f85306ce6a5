"""The documentation site builds with ``mkdocs build --strict``, the Python API page's example runs, and the
README stays a short front door whose links all lead somewhere."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_docs_build_strict_with_the_api_reference(tmp_path: Path) -> None:
    pytest.importorskip("mkdocstrings")
    site = tmp_path / "site"
    # No -q: it silences mkdocs' warnings, and --strict only fails on warnings it has seen
    # (a broken link or a missing anchor then builds without complaint).
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"), "-d", str(site)],
        capture_output=True, text=True, timeout=180, cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=str(ROOT / "desktop")),
    )
    assert run.returncode == 0, run.stdout + run.stderr
    reference = (site / "reference" / "index.html").read_text(encoding="utf-8")
    # Generated from the docstrings, not written by hand in the page.
    assert "to_dataframe" in reference and "unknown filter name" in reference
    assert "only_confirmed" in reference and "BeadRow" in reference
    # `::: sialign.align` is the API function, not the subpackage of the same name (docs/hooks/api_names.py).
    assert "transcript paths" in reference or "segment strings" in reference
    assert "BeadCostModel" not in reference and "SegmentationInfeasible" not in reference


def test_docs_build_fails_on_a_broken_link(tmp_path: Path) -> None:
    """The strict build is a real check: a link to a missing page or heading fails it."""
    pytest.importorskip("mkdocstrings")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\n[gone](gone.md) and [no heading](index.md#no-such-heading)\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(
        (ROOT / "mkdocs.yml").read_text(encoding="utf-8").split("\nnav:")[0] + "\nnav:\n  - Home: index.md\n", encoding="utf-8"
    )
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(tmp_path / "mkdocs.yml"), "-d", str(tmp_path / "site")],
        capture_output=True, text=True, timeout=180, cwd=ROOT,
    )
    assert run.returncode != 0
    assert "gone.md" in run.stderr and "no-such-heading" in run.stderr


@pytest.mark.slow
def test_docs_api_example_runs(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Every ```python block of docs/api.md, in order, in one namespace (as a notebook runs them)."""
    pytest.importorskip("pandas")
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert len(blocks) >= 2
    monkeypatch.chdir(ROOT)
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, "docs/api.md", "exec"), namespace)
    out = capsys.readouterr().out
    # The outputs the page shows in its comments are what the code prints.
    for shown in re.findall(r"^# (<.*>)$", text, flags=re.M):
        assert shown in out
    assert "33 beads to " in out


# ---------------------------------------------------------------------------
# The README: a front door that points into docs/

README = ROOT / "README.md"
README_MAX_LINES = 320


def readme_links() -> list[str]:
    """Every link and image target in README.md, as written."""
    text = README.read_text(encoding="utf-8")
    return re.findall(r"\]\(([^)\s]+)\)", text)


def test_readme_is_short() -> None:
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines < README_MAX_LINES, f"README.md has {lines} lines; the reference belongs in docs/"


def test_readme_relative_links_resolve() -> None:
    """docs/ pages, screenshots, CHANGELOG.md: every relative link of the README names a file that exists."""
    targets = [t for t in readme_links() if "://" not in t and not t.startswith(("#", "mailto:"))]
    assert any(t.startswith("docs/") for t in targets)
    missing = [t for t in targets if not (ROOT / t.split("#")[0]).is_file()]
    assert not missing, f"README.md links to missing files: {missing}"


def test_readme_links_every_docs_page() -> None:
    """Every page of the site is reachable from the README, the CHANGELOG and the architecture included."""
    linked = {t.split("#")[0] for t in readme_links()}
    pages = {f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md")}
    assert not pages - linked, f"docs pages the README does not link: {sorted(pages - linked)}"
    assert "CHANGELOG.md" in linked and "docs/architecture.md" in linked


def test_readme_commands_are_the_ones_ci_and_dev_sh_run() -> None:
    """The two commands of the quick start exist in packaging/dev.sh, and CI runs the test one."""
    text = README.read_text(encoding="utf-8")
    assert "packaging/dev.sh run " in text and "packaging/dev.sh test " in text
    dev = (ROOT / "packaging" / "dev.sh").read_text(encoding="utf-8")
    assert "\n    run)\n" in dev and "\n    test)\n" in dev
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    lines = [line.strip() for line in ci.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    tests = [k for k, line in enumerate(lines) if line.endswith("bash packaging/dev.sh test")]
    assert len(tests) == 1, lines
    # ... and after the test suite, the installers' check: the lean bundle and its smoke test.
    assert any(line.endswith("bash packaging/dev.sh bundle --lean") for line in lines[tests[0] + 1:]), lines
    # ... from a clone in a freshly made folder of another depth (a test that depends on where the checkout sits fails in CI).
    assert "mktemp -d" in ci and "git clone" in ci
