"""A headset's round trip: measured once, kept per pair of devices, used by every booth session with them.

The front ends' door to :mod:`sialign.booth.calibration` (the ``speech-door``
contract): the booth window's *Calibrate…* button and ``sialign headset``.
Devices are given as PortAudio index or name, as the booth's device lists
hold them; calibrations are kept under the devices' names.
"""

from __future__ import annotations

from sialign.booth.calibration import device_names, measure
from sialign.booth.headset_latency import Calibration, calibrations_file, forget, keep, stored, stored_for
from sialign.core.errors import AudioUnavailable
from sialign.core.progress import ProgressFn, StopFn

Device = int | str | None

__all__ = ["Calibration", "calibrate", "calibration_for", "calibration_named", "calibrations", "calibrations_file",
           "forget_calibration"]


def calibrate(input_device: Device = None, output_device: Device = None, *, progress: ProgressFn | None = None,
              should_stop: StopFn | None = None) -> Calibration:
    """Play the clicks, measure the round trip and keep it for these devices (about 6 s; run it apart from a window).

    Raises:
        AudioUnavailable: no devices, they refused to open, or the clicks were not heard clearly (kept nothing).
    """
    if progress is not None:
        progress(0.0, "Playing clicks and listening for them")
    found = measure(input_device=input_device, output_device=output_device)
    keep(found)
    if progress is not None:
        progress(1.0, "Measured")
    return found


def calibration_for(input_device: Device = None, output_device: Device = None) -> Calibration | None:
    """The calibration kept for these devices; None when there is none or the devices cannot be named."""
    try:
        input_name, output_name = device_names(input_device, output_device)
    except AudioUnavailable:
        return None
    return stored_for(input_name, output_name)


def calibration_named(input_name: str, output_name: str) -> Calibration | None:
    """The calibration kept for the microphone and headphones of these names (as the booth's device lists show them)."""
    return stored_for(input_name, output_name)


def calibrations() -> list[Calibration]:
    """Every kept calibration."""
    return stored()


def forget_calibration(input_device: Device = None, output_device: Device = None) -> bool:
    """Drop the calibration of these devices (the booth goes back to the latency they report); whether there was one.

    Raises:
        AudioUnavailable: the devices cannot be named (PortAudio or a device is missing).
    """
    input_name, output_name = device_names(input_device, output_device)
    return forget(input_name, output_name)

