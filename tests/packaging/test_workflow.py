"""The CI workflow that builds and smoke-tests the bundles: valid for GitHub Actions and wired to the scripts here."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
WORKFLOW = REPO / ".github" / "workflows" / "bundle.yml"


def workflow() -> dict[Any, Any]:
    loaded = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def all_runs(job: dict[str, Any]) -> str:
    return "\n".join(step.get("run", "") for step in job["steps"])


def test_workflow_validates_against_the_github_workflow_schema() -> None:
    pytest.importorskip("check_jsonschema", reason="check-jsonschema is not installed (pip install -e '.[dev]')")
    done = subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows", str(WORKFLOW)],
        capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_workflow_builds_on_the_three_systems() -> None:
    jobs = workflow()["jobs"]
    runners = {jobs["linux"]["runs-on"], jobs["windows"]["runs-on"], *jobs["macos"]["strategy"]["matrix"]["os"]}
    assert runners == {"ubuntu-22.04", "windows-2022", "macos-14", "macos-13"}
    for job in jobs.values():
        assert "lean" in job["strategy"]["matrix"]["variant"]
        assert any(step.get("uses", "").startswith("actions/upload-artifact@") for step in job["steps"])


def test_linux_job_is_what_developers_run() -> None:
    linux = all_runs(workflow()["jobs"]["linux"])
    assert "packaging/dev.sh setup" in linux and "packaging/dev.sh test" in linux
    assert "packaging/dev.sh bundle" in linux  # = packaging/build.sh + packaging/smoke_test.sh
    dev = (REPO / "packaging" / "dev.sh").read_text(encoding="utf-8")
    bundle = dev.split("    bundle)", 1)[1].split(";;", 1)[0]
    assert 'packaging/build.sh "$@"' in bundle and "packaging/smoke_test.sh" in bundle
    assert "PyInstaller" not in linux, "the Linux job must build through build.sh, not a command of its own"


def test_every_script_the_workflow_runs_exists() -> None:
    text = WORKFLOW.read_text(encoding="utf-8")
    paths = set(re.findall(r"packaging[/\\][\w/\\.-]+\.(?:sh|ps1|iss|spec)", text))
    assert {"packaging/smoke_test.sh", "packaging\\smoke_test.ps1", "packaging\\windows\\sialign.iss"} <= paths
    for path in paths:
        assert (REPO / path.replace("\\", "/")).is_file(), path


def test_signing_steps_need_their_documented_secrets() -> None:
    text = WORKFLOW.read_text(encoding="utf-8")
    used = set(re.findall(r"secrets\.(\w+)", text))
    header = text.split("name: bundle", 1)[0]
    assert used >= {"WINDOWS_CERT_PFX", "MACOS_CERT_P12", "APPLE_ID", "APPLE_TEAM_ID", "APPLE_APP_PASSWORD"}
    for secret in used:
        assert secret in header, f"secret {secret} is not documented at the top of the workflow"
    for job in workflow()["jobs"].values():
        for step in job["steps"]:
            if "secrets." in str(step.get("env", {})):
                assert step.get("if", "").startswith("env."), f"{step['name']} must be skipped without its secret"
