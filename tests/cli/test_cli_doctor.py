"""``sialign doctor``: a report a user can paste, in text and JSON, that never crashes."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path

import pytest

from sialign.cli import cmd_doctor
from sialign.cli.main import main
from sialign.embed import models_registry as mr


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(mr.ENV_MODEL_DIR, str(tmp_path / "user-models"))
    monkeypatch.setenv("SIALIGN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hf-hub"))
    monkeypatch.setattr(mr, "bundled_model_dir", lambda: tmp_path / "bundled")
    monkeypatch.setattr(mr, "packaged_models", lambda: [])
    return tmp_path


def _report(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, dict[str, dict[str, str]]]:
    """The JSON report as {section title: {label: check}}."""
    assert main(["doctor", "--json", *argv]) == 0
    data = json.loads(capsys.readouterr().out)
    return {s["title"]: {c["label"]: c for c in s["checks"]} for s in data["sections"]}


def test_cli_doctor_text_report_has_every_section(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    for title in ("System", "Libraries", "Models", "Japanese analysis (GiNZA)", "Audio", "Qt (desktop app)", "Cache and data"):
        assert f"\n{title}\n" in out
    assert out.splitlines()[0].startswith("SI Aligner ")
    assert ("No problems found." in out) or ("problem(s):" in out)
    import numpy

    assert f"numpy                  {numpy.__version__}" in out


def test_cli_doctor_reports_versions_without_importing_heavy_libraries(capsys: pytest.CaptureFixture[str]) -> None:
    before = {m for m in sys.modules if m.split(".")[0] in {"torch", "spacy", "sentence_transformers"}}
    report = _report(capsys)
    after = {m for m in sys.modules if m.split(".")[0] in {"torch", "spacy", "sentence_transformers"}}
    assert after == before
    assert report["Libraries"]["numpy"]["status"] == "ok"
    assert report["Japanese analysis (GiNZA)"]["load check"]["value"].startswith("skipped")


def test_cli_doctor_lists_user_model_default_and_cache_size(
    capsys: pytest.CaptureFixture[str], isolated: Path
) -> None:
    folder = isolated / "user-models" / "hand-copied"
    folder.mkdir(parents=True)
    (folder / "modules.json").write_text("[]")
    mr.ModelRegistry().set_default("hand-copied")
    (isolated / "cache" / "envelopes").mkdir(parents=True)
    (isolated / "cache" / "envelopes" / "a.npz").write_bytes(b"\0" * 3000)
    report = _report(capsys)
    models = report["Models"]
    assert models["default"]["value"] == "hand-copied"
    assert models["hand-copied"]["value"] == f"user: {folder}"
    assert models["user models folder"]["value"] == str(isolated / "user-models")
    cache = report["Cache and data"]
    assert cache["cache folder"]["value"] == f"{isolated / 'cache'} (2.9 kB in all)"
    assert cache["envelopes"]["value"] == "2.9 kB"


def test_cli_doctor_flags_missing_default_and_unreadable_registry(
    capsys: pytest.CaptureFixture[str], isolated: Path
) -> None:
    (isolated / "user-models").mkdir()
    (isolated / "user-models" / "registry.json").write_text('{"format": 1, "default": "vanished", "models": {}}')
    models = _report(capsys)["Models"]
    assert models["default"]["status"] == "warn" and "not found" in models["default"]["value"]
    assert "neural models" not in models  # the built-in multilingual encoder is one
    assert models["use-multilingual"]["status"] == "ok"
    (isolated / "user-models" / "registry.json").write_text("{broken")
    models = _report(capsys)["Models"]
    assert models["registry"]["status"] == "error"
    assert "registry.json" in models["registry"]["value"]


def _fake_sounddevice(devices: list[dict]) -> types.ModuleType:
    module = types.ModuleType("sounddevice")
    module.get_portaudio_version = lambda: (1, "PortAudio V19 (test)")  # type: ignore[attr-defined]

    def query_devices(kind: str | None = None):
        if kind == "output":
            outputs = [d for d in devices if d["max_output_channels"] > 0]
            if not outputs:
                raise RuntimeError("no default output device")
            return outputs[0]
        return devices

    module.query_devices = query_devices  # type: ignore[attr-defined]
    return module


@pytest.mark.parametrize(
    ("module", "label", "status", "fragment"),
    [
        (None, "PortAudio", "warn", "playback is disabled"),
        (_fake_sounddevice([]), "output devices", "warn", "playback is disabled"),
        (
            _fake_sounddevice([{"name": "Speakers", "max_output_channels": 2}, {"name": "Mic", "max_output_channels": 0}]),
            "default output",
            "ok",
            "",
        ),
    ],
    ids=["no-portaudio", "no-device", "device"],
)
def test_cli_doctor_audio_status(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, module, label: str, status: str, fragment: str
) -> None:
    # None in sys.modules makes `import sounddevice` fail as a missing PortAudio does.
    monkeypatch.setitem(sys.modules, "sounddevice", module)
    audio = _report(capsys)["Audio"]
    assert audio[label]["status"] == status
    assert fragment in audio[label]["hint"]
    if label == "default output":
        assert audio["output devices"]["value"] == "Speakers"
        assert audio["default output"]["value"] == "Speakers"


def test_cli_doctor_unknown_qt_platform_is_an_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("PySide6")
    monkeypatch.setenv("QT_QPA_PLATFORM", "nosuchplatform")
    qt = _report(capsys)["Qt (desktop app)"]
    assert qt["QT_QPA_PLATFORM"]["status"] == "error"
    assert "no 'nosuchplatform' plugin" in qt["QT_QPA_PLATFORM"]["hint"]
    assert "offscreen" in qt["platform plugins"]["value"]
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    assert _report(capsys)["Qt (desktop app)"]["QT_QPA_PLATFORM"]["status"] == "ok"


def test_cli_doctor_full_reports_a_broken_ginza(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from sialign.text import japanese

    def broken() -> None:  # what ginza_nlp raises when spacy.load fails
        raise japanese.LanguageToolUnavailable(
            "the GiNZA model 'ja_ginza' does not load ([E050] Can't find model 'ja_ginza') — reinstall it"
        )

    monkeypatch.setattr(japanese, "ginza_nlp", broken)
    monkeypatch.setattr(cmd_doctor, "_torch_section", lambda: cmd_doctor.Section("torch"))
    ginza = _report(capsys, "--full")["Japanese analysis (GiNZA)"]
    assert ginza["load check"]["status"] == "error"
    assert "E050" in ginza["load check"]["value"] and "reinstall" in ginza["load check"]["hint"]


def test_cli_doctor_render_counts_problems() -> None:
    ok = cmd_doctor.Section("A")
    ok.add("x", "1")
    bad = cmd_doctor.Section("B")
    bad.add("y", "missing", "warn", "install it")
    bad.add("z", "broken", "error")
    text = cmd_doctor.render_text([ok, bad], 0.25)
    assert "2 problem(s): B: y; B: z" in text
    assert " ! y  missing\n" in text and "-> install it" in text and " X z  broken" in text
    assert cmd_doctor.render_text([ok], 0.1).splitlines()[-2] == "No problems found."


@pytest.mark.slow
def test_cli_doctor_full_loads_ginza(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("ja_ginza")
    report = _report(capsys, "--full")
    check = report["Japanese analysis (GiNZA)"]["load check"]
    assert check["status"] == "ok" and check["value"].startswith("loaded in")
    assert report["torch"]["version"]["status"] == "ok"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fontconfig check runs on Linux")
@pytest.mark.parametrize(
    ("fonts", "status", "value"),
    [
        ([], "warn", "none"),
        (["Noto Sans CJK JP"], "ok", "Noto Sans CJK JP"),
        (["A", "B", "C", "D", "E"], "ok", "A, B, C and 2 more"),
        (None, "ok", "not checked (fc-list unavailable)"),
    ],
)
def test_cli_doctor_japanese_font_check(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, fonts, status: str, value: str
) -> None:
    pytest.importorskip("PySide6")
    monkeypatch.setattr(cmd_doctor, "_japanese_fonts", lambda: fonts)
    check = _report(capsys)["Qt (desktop app)"]["Japanese fonts"]
    assert (check["status"], check["value"]) == (status, value)
    if status == "warn":
        assert "fonts-noto-cjk" in check["hint"]


def test_cli_doctor_says_where_the_japanese_english_dictionary_is(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SIALIGN_EDICT", str(tmp_path / "absent"))
    check = _report(capsys)["Japanese analysis (GiNZA)"]["Japanese-English dictionary"]
    assert check["status"] == "warn" and "absent" in check["value"] and "SIALIGN_EDICT" in check["hint"]
    (tmp_path / "edict").write_text("寺 [てら] /(n) temple/\n", encoding="utf-8")
    monkeypatch.setenv("SIALIGN_EDICT", str(tmp_path / "edict"))
    check = _report(capsys)["Japanese analysis (GiNZA)"]["Japanese-English dictionary"]
    assert check["status"] == "ok" and str(tmp_path / "edict") in check["value"]


def test_cli_doctor_says_no_network_is_used(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ORT_DISABLE_TELEMETRY", raising=False)
    network = _report(capsys)["System"]["network"]
    assert network["status"] == "ok" and network["value"].startswith("none used")
    monkeypatch.setenv("ORT_DISABLE_TELEMETRY", "0")  # a user who switched the runtime's reports back on is told
    network = _report(capsys)["System"]["network"]
    assert network["status"] == "warn" and "ORT_DISABLE_TELEMETRY" in network["value"]


# The installers' smoke tests read `doctor --json`'s facts by key: every key they read must exist, so
# that a change to doctor breaks this fast test and not only a bundle build.
PACKAGING = Path(__file__).resolve().parents[2] / "packaging"


def _keys_read_by_smoke_tests() -> dict[str, set[str]]:
    import re

    sh = (PACKAGING / "smoke_test.sh").read_text(encoding="utf-8")
    ps1 = (PACKAGING / "smoke_test.ps1").read_text(encoding="utf-8")
    return {
        "doctor --json": set(re.findall(r"fact doctor_json ([\w.]+)", sh)) | set(re.findall(r"\$f\.([\w.]+)", ps1)),
        "doctor --full --json": set(re.findall(r"fact doctor_full ([\w.]+)", sh)) | set(re.findall(r"\$ff\.([\w.]+)", ps1)),
    }


def _lookup(facts: dict, dotted: str) -> tuple[bool, object]:
    value: object = facts
    for key in dotted.split("."):
        if not isinstance(value, dict) or key not in value:
            return False, None
        value = value[key]
    return True, value


def test_smoke_tests_read_doctor_as_data_not_by_layout() -> None:
    keys = _keys_read_by_smoke_tests()
    assert {"ginza.installed", "audio.libsndfile", "qt.platform_plugins", "speech.faster_whisper"} <= keys["doctor --json"]
    assert {"ginza.load_check.loaded", "torch.version"} <= keys["doctor --full --json"]
    for script in ("smoke_test.sh", "smoke_test.ps1"):
        text = (PACKAGING / script).read_text(encoding="utf-8")
        # No check greps the text report's columns (issue: "installed   yes" broke when a label grew).
        assert "installed   yes" not in text and "load check  loaded" not in text


@pytest.mark.slow
def test_every_key_the_smoke_tests_read_is_in_doctor_json(tmp_path: Path) -> None:
    """The real command, as the smoke tests run it, and the sh script's own reader of the facts."""
    import os
    import shutil
    import subprocess

    pytest.importorskip("ja_ginza")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "desktop")}
    for name, argv in (("doctor_json", ["--json"]), ("doctor_full", ["--full", "--json"])):
        out = subprocess.run(
            [sys.executable, "-m", "sialign", "doctor", *argv], capture_output=True, text=True, env=env, timeout=300, check=True
        ).stdout
        (tmp_path / f"{name}.out").write_text(out, encoding="utf-8")
    facts = {
        "doctor --json": json.loads((tmp_path / "doctor_json.out").read_text(encoding="utf-8"))["facts"],
        "doctor --full --json": json.loads((tmp_path / "doctor_full.out").read_text(encoding="utf-8"))["facts"],
    }
    for run, keys in _keys_read_by_smoke_tests().items():
        for dotted in sorted(keys):
            found, value = _lookup(facts[run], dotted)
            assert found, f"{run}: the smoke tests read {dotted}, which doctor does not give"
            if dotted != "qt.platform_plugins":
                assert value is not None, f"{run}: {dotted} is null in the development environment"
    assert facts["doctor --json"]["ginza"]["installed"] is True
    assert {"offscreen", "xcb"} <= set(facts["doctor --json"]["qt"]["platform_plugins"]) or sys.platform != "linux"
    assert facts["doctor --full --json"]["ginza"]["load_check"]["tokens"] > 0
    # The sh script's own `fact` reader, on these outputs.
    if shutil.which("bash") and shutil.which("python3"):
        script = (PACKAGING / "smoke_test.sh").read_text(encoding="utf-8")
        reader = script[script.index("fact() {"): script.index("\n}\n", script.index("fact() {")) + 3]
        probe = f'WORK="{tmp_path}"\n{reader}\nfact doctor_json ginza.installed\nfact doctor_full ginza.load_check.loaded\nfact doctor_json no.such.key\n'
        lines = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, timeout=60, check=True).stdout.split()
        assert lines == ["true", "true", "null"]


def test_doctor_json_facts_are_typed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["doctor", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    facts = data["facts"]
    assert facts["ginza"]["load_check"] is None  # skipped without --full
    assert isinstance(facts["system"]["cpus"], int)
    assert facts["system"]["network"] == "none used"
    assert isinstance(facts["qt"]["platform_plugins"], list)
    import numpy

    assert facts["libraries"]["numpy"] == numpy.__version__
    assert all("." in p for p in data["problems"])
    assert data["status"]["system"]["network"] == "ok"
