"""Transcription never opens a network connection: checked in the process and, with strace, in the kernel."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from sialign.transcribe import transcribe_file

REPO = Path(__file__).resolve().parents[2]


def test_transcription_makes_no_connection_in_python(whisper_model: Path, talk_clip: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    attempts: list[object] = []

    def refuse(self: socket.socket, address: object) -> None:
        attempts.append(address)
        raise OSError("network use is forbidden in this test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", lambda address, *a, **k: refuse(None, address))  # type: ignore[arg-type]
    result = transcribe_file(talk_clip, whisper_model, language="en", threads=2)
    assert len(result.document) == 2
    assert attempts == []


@pytest.mark.slow
def test_transcribe_command_makes_no_connection_under_strace(whisper_model: Path, talk_clip: Path, tmp_path: Path) -> None:
    """Every thread of ``sialign transcribe`` is traced: no connect() to an internet (or any) socket address."""
    strace = shutil.which("strace")
    if strace is None:
        pytest.skip("strace is not installed (apt-get install strace)")
    log = tmp_path / "connect.log"
    out = tmp_path / "clip.srt"
    env = {**os.environ, "PYTHONPATH": str(REPO / "desktop")}
    cmd = [strace, "-f", "-e", "trace=connect,sendto", "-o", str(log), sys.executable, "-m", "sialign",
           "transcribe", str(talk_clip), "--model", str(whisper_model), "--language", "en", "--threads", "2", "-q",
           "-o", str(out)]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    if proc.returncode != 0 and "ptrace" in proc.stderr.lower():
        pytest.skip(f"strace cannot trace here: {proc.stderr.strip()[:200]}")
    assert proc.returncode == 0, proc.stderr
    assert out.read_text(encoding="utf-8").startswith("1\n")
    trace = log.read_text()
    assert "+++ exited with 0 +++" in trace  # the trace did follow the process
    calls = [line for line in trace.splitlines() if "connect(" in line or "sendto(" in line]
    internet = [line for line in calls if "AF_INET" in line or "AF_INET6" in line]
    assert internet == [], internet


def test_the_runtimes_usage_reports_are_switched_off_before_a_session(monkeypatch: pytest.MonkeyPatch) -> None:
    """onnxruntime (faster-whisper's voice-activity filter) was seen looking up its maker's telemetry host."""
    onnxruntime = pytest.importorskip("onnxruntime")
    from sialign.transcribe.recognise import require_recogniser

    calls: list[int] = []
    monkeypatch.delenv("ORT_DISABLE_TELEMETRY", raising=False)
    monkeypatch.setattr(onnxruntime, "disable_telemetry_events", lambda: calls.append(1), raising=False)
    require_recogniser()
    assert calls == [1] and os.environ["ORT_DISABLE_TELEMETRY"] == "1"


@pytest.mark.slow
@pytest.mark.parametrize("command", ["align", "practice"])
def test_align_and_practice_make_no_connection_under_strace(command: str, whisper_multilingual: Path, tmp_path: Path) -> None:
    """``align`` (the built-in encoder) and ``practice --input-file`` (the live recogniser, its voice filter and the
    full pass) traced in every thread: no connect() or sendto() to an internet address, so no host is looked up."""
    import soundfile as sf

    strace = shutil.which("strace")
    if strace is None:
        pytest.skip("strace is not installed (apt-get install strace)")
    examples = REPO / "resources" / "examples"
    log = tmp_path / "net.log"
    if command == "align":
        args = ["align", str(examples / "talk.en.srt"), str(examples / "talk.ja.srt"), "-q", "-o", str(tmp_path / "t.sialign")]
    else:
        data, rate = sf.read(str(examples / "talk.ja.ogg"), dtype="float32")
        clip = tmp_path / "rendition.wav"
        sf.write(str(clip), data[: int(12 * rate)], rate)
        args = ["practice", str(examples / "talk.en.srt"), "--src-lang", "en", "--tgt-lang", "ja", "--input-file", str(clip),
                "--speed", "0", "--whisper-model", str(whisper_multilingual), "-q", "-o", str(tmp_path / "s.sialign")]
    env = {**os.environ, "PYTHONPATH": str(REPO / "desktop")}
    proc = subprocess.run([strace, "-f", "-e", "trace=connect,sendto", "-o", str(log), sys.executable, "-m", "sialign", *args],
                          env=env, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0 and "ptrace" in proc.stderr.lower():
        pytest.skip(f"strace cannot trace here: {proc.stderr.strip()[:200]}")
    assert proc.returncode == 0, proc.stderr
    trace = log.read_text()
    calls = [line for line in trace.splitlines() if "connect(" in line or "sendto(" in line]
    internet = [line for line in calls if "AF_INET" in line or "AF_INET6" in line]
    assert internet == [], internet
