"""``sialign headset``: measure the round trip once (simulated headset), list it, forget it; errors in one line."""

from __future__ import annotations

import pytest

from audio_fakes import FakeLoopbackFactory
from sialign.booth import calibration, headset_latency
from sialign.cli.main import EXIT_INPUT, main
from sialign.workflows import headset


@pytest.fixture
def loopback(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, object]]:
    """The workflow measures a simulated headset whose microphone hears the headphones 85 ms later."""
    asked: list[dict[str, object]] = []

    def measure(**kwargs: object) -> headset_latency.Calibration:
        asked.append(kwargs)
        return calibration.measure(stream_factory=FakeLoopbackFactory(int(0.085 * 48000)), samplerate=48000,
                                   output_channels=2, input_name="USB Headset: mic", output_name="USB Headset: phones")

    monkeypatch.setattr(headset, "measure", measure)
    monkeypatch.setattr(headset, "device_names", lambda i, o: ("USB Headset: mic", "USB Headset: phones"))
    return asked


def test_calibrate_list_and_forget(loopback: list[dict[str, object]], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["headset"]) == 0
    assert "no headset calibrated" in capsys.readouterr().out
    assert main(["headset", "--calibrate", "--input-device", "3", "--output-device", "USB"]) == 0
    out, err = capsys.readouterr()
    assert loopback == [{"input_device": 3, "output_device": "USB"}]  # a number is a device index, text part of a name
    assert out.startswith("USB Headset: mic → USB Headset: phones: round trip 85 ms (the devices report 30 ms), 6 of 6")
    assert "ear cup" in err and "kept in" in err
    assert main(["headset"]) == 0
    assert "round trip 85 ms" in capsys.readouterr().out
    assert main(["headset", "--input-device", "3"]) == 0  # the calibration of these devices
    assert "round trip 85 ms" in capsys.readouterr().out
    assert main(["headset", "--forget"]) == 0
    assert "forgotten" in capsys.readouterr().out
    assert main(["headset", "--forget"]) == 0
    assert "had no calibration" in capsys.readouterr().out
    assert headset_latency.stored() == []


def test_nothing_heard_is_one_line_and_keeps_nothing(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def deaf(**kwargs: object) -> headset_latency.Calibration:
        raise calibration.AudioUnavailable(calibration.NOT_HEARD.format(heard=1, clicks=6))

    monkeypatch.setattr(headset, "measure", deaf)
    assert main(["headset", "--calibrate"]) == EXIT_INPUT
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("sialign headset: error: The microphone did not hear the clicks (1 of 6).")
    assert "Traceback" not in "\n".join(err) and headset_latency.stored() == []
