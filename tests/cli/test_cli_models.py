"""``sialign models``: list, add, check, default, remove through the command line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from sialign.cli.main import main
from sialign.embed import models_registry as mr
from tiny_models import build_tiny_model


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_tiny_model(tmp_path_factory.mktemp("models") / "tiny", dim=8)


@pytest.fixture(autouse=True)
def model_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(mr.ENV_MODEL_DIR, str(tmp_path / "user-models"))
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hf-hub"))
    monkeypatch.setattr(mr, "packaged_models", lambda: [])  # the dev environment has one installed
    monkeypatch.setattr(mr, "bundled_model_dir", lambda: tmp_path / "bundled")
    return tmp_path / "user-models"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["models", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_models_full_cycle(capsys: pytest.CaptureFixture[str], tiny_model: Path, model_dir: Path) -> None:
    code, out, _ = _run(capsys, "add", str(tiny_model), "--name", "mini", "--default")
    assert code == 0 and "Added model 'mini' (8-dimensional vectors), copied" in out
    code, out, _ = _run(capsys, "list")
    assert code == 0
    mini_line = next(line for line in out.splitlines() if " mini " in line)
    assert mini_line.startswith("*") and "user" in mini_line and " 8 " in mini_line
    code, out, _ = _run(capsys, "default")
    assert (code, out.strip()) == (0, "mini")
    code, out, _ = _run(capsys, "check", "mini")
    assert code == 0 and out.startswith("OK:") and "8-dimensional" in out
    code, out, _ = _run(capsys, "default", "lexical")
    assert code == 0 and mr.default_model() == "lexical"
    code, out, _ = _run(capsys, "remove", "mini")
    assert code == 0 and not (model_dir / "mini").exists()
    code, out, _ = _run(capsys, "list", "--json")
    listed = json.loads(out)
    assert [m["name"] for m in listed["models"]] == ["use-multilingual", "lexical"]
    assert listed["default"] == "lexical" and listed["user_model_dir"] == str(model_dir)


def test_cli_models_link_keeps_origin_on_remove(capsys: pytest.CaptureFixture[str], tiny_model: Path) -> None:
    code, out, _ = _run(capsys, "add", str(tiny_model), "--link")
    assert code == 0 and "linked" in out
    code, out, _ = _run(capsys, "remove", "tiny")
    assert code == 0 and "the link only" in out
    assert (tiny_model / "modules.json").is_file()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["remove", "ghost"], "no user model named 'ghost'"),
        (["default", "ghost"], "no model named 'ghost'"),
        (["check", "ghost"], "no model named 'ghost'"),
        (["add", "/nonexistent/folder"], "no such folder"),
    ],
)
def test_cli_models_errors_are_one_clear_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, _, err = _run(capsys, *argv)
    assert code == 2
    assert err.strip().splitlines()[-1].startswith("sialign models: error:")
    assert message in err
    assert "Traceback" not in err


def test_cli_models_broken_model_says_how_to_fix(
    capsys: pytest.CaptureFixture[str], tiny_model: Path, tmp_path: Path, model_dir: Path
) -> None:
    broken = tmp_path / "broken"
    shutil.copytree(tiny_model, broken)
    (broken / "model.safetensors").unlink()
    code, _, err = _run(capsys, "add", str(broken))
    assert code == 2 and "could not be loaded" in err and "copy the whole folder again" in err
    assert not (model_dir / "broken").exists()


def test_cli_models_list_warns_about_vanished_default(
    capsys: pytest.CaptureFixture[str], tiny_model: Path, model_dir: Path
) -> None:
    _run(capsys, "add", str(tiny_model), "--name", "soon-gone", "--default")
    shutil.rmtree(model_dir / "soon-gone")
    (model_dir / "registry.json").write_text(
        json.dumps({"format": 1, "default": "soon-gone", "models": {}}), encoding="utf-8"
    )
    code, out, _ = _run(capsys, "list")
    assert code == 0 and "'soon-gone' is not available any more" in out


def test_cli_models_check_broken_package_model(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    broken = mr.ModelEntry(name="pkg-model", source=mr.SOURCE_PACKAGE, path=None, status="package broken")
    monkeypatch.setattr(mr, "packaged_models", lambda: [broken])
    code, _, err = _run(capsys, "check", "pkg-model")
    assert code == 2 and "model 'pkg-model' (pip-package) cannot be used: package broken" in err
