"""Measured headset round trips, kept per pair of devices (``DATA_DIR/headset_latency.json``).

:mod:`sialign.booth.calibration` measures them; :class:`~sialign.booth.recorder.BoothRecorder` reads the one
kept for its devices. Kept apart from both so that neither imports the other.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

FILE_NAME = "headset_latency.json"
_FORMAT = 1
# The longest round trip looked for (Bluetooth headsets reach 300 ms); a kept one beyond it is not used.
MAX_ROUND_TRIP_S = 0.6


@dataclass(frozen=True)
class Calibration:
    """A measured round trip for one microphone and one pair of headphones.

    Attributes:
        input_device / output_device: the devices' names.
        samplerate: the rate it was measured at.
        round_trip_s: the measured delay from a frame sent to the headphones to the microphone's frame that holds it.
        reported_s: the input + output latency the stream reported (what the booth uses without a calibration).
        heard: clicks heard clearly, of ``clicks``.
        clicks: clicks played.
        spread_s: the largest distance of a heard click's delay from the median.
        measured: local time of the measurement (ISO 8601).
    """

    input_device: str
    output_device: str
    samplerate: int
    round_trip_s: float
    reported_s: float
    heard: int
    clicks: int
    spread_s: float
    measured: str

    def summary(self) -> str:
        """``round trip 142 ms (the devices report 40 ms), 6 of 6 clicks heard, 2026-12-07 19:40`` (``142 ± 11 ms``
        where the clicks' delays differed)."""
        spread = f" ± {self.spread_s * 1000:.0f}" if self.spread_s >= 0.0005 else ""
        return (f"round trip {self.round_trip_s * 1000:.0f}{spread} ms (the devices report {self.reported_s * 1000:.0f} ms), "
                f"{self.heard} of {self.clicks} clicks heard, measured {self.measured.replace('T', ' ')[:16]}")


def calibrations_file() -> Path:
    """``DATA_DIR/headset_latency.json``."""
    from sialign.core.paths import data_dir

    return data_dir() / FILE_NAME


def _key(input_name: str, output_name: str) -> str:
    return f"{input_name}\n{output_name}"


def stored() -> list[Calibration]:
    """Every kept calibration; a damaged file or entry counts as none (the reported latency is used)."""
    try:
        data = json.loads(calibrations_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    entries = data.get("headsets") if isinstance(data, dict) else None
    found: list[Calibration] = []
    for entry in entries if isinstance(entries, list) else []:
        try:
            cal = Calibration(**entry)
        except TypeError:
            continue
        if isinstance(cal.round_trip_s, (int, float)) and 0 <= cal.round_trip_s <= MAX_ROUND_TRIP_S:
            found.append(cal)
    return found


def stored_for(input_name: str, output_name: str) -> Calibration | None:
    """The kept calibration of this microphone with these headphones, or None."""
    for cal in stored():
        if _key(cal.input_device, cal.output_device) == _key(input_name, output_name):
            return cal
    return None


def _write(calibrations: list[Calibration]) -> None:
    from sialign.core.atomic import atomic_write_text

    path = calibrations_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps({"format": _FORMAT, "headsets": [asdict(c) for c in calibrations]},
                                       indent=1, ensure_ascii=False))


def keep(calibration: Calibration) -> Path:
    """Keep ``calibration`` for its two devices (replacing an earlier one); the file written."""
    key = _key(calibration.input_device, calibration.output_device)
    _write([c for c in stored() if _key(c.input_device, c.output_device) != key] + [calibration])
    return calibrations_file()


def forget(input_name: str, output_name: str) -> bool:
    """Drop the calibration of these devices; whether there was one."""
    kept = stored()
    left = [c for c in kept if _key(c.input_device, c.output_device) != _key(input_name, output_name)]
    if len(left) == len(kept):
        return False
    _write(left)
    return True
