"""``sialign headset`` — measure a headset's round trip once, so the booth puts recordings on the talk's clock exactly.

The booth leaves out the first moments of the microphone that it takes for
the talk to reach the student's ear and their voice to come back. Without a
calibration it uses the latencies the sound drivers report, which USB and
Bluetooth headsets often understate. With --calibrate, a few clicks play in
the headphones while the microphone listens: hold one ear cup against the
microphone (or connect a loopback cable). The measured round trip is kept for
that microphone with those headphones and used by every later session with
them (the booth window and 'sialign practice --record'); the recording's
sidecar says which was used. With no option, list the devices' calibrations.
"""

from __future__ import annotations

import argparse

HELP = "measure the headset's round-trip latency for the booth (--calibrate), list or --forget it"


def _device(text: str | None) -> int | str | None:
    if text is None:
        return None
    return int(text) if text.strip().isdigit() else text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--calibrate", action="store_true", help="play clicks and measure the round trip (about 6 s)")
    action.add_argument("--forget", action="store_true", help="drop the calibration of these devices")
    parser.add_argument("--input-device", metavar="DEVICE", help="the microphone: its number or part of its name "
                        "(default: the system's default)")
    parser.add_argument("--output-device", metavar="DEVICE", help="the headphones: their number or part of their name "
                        "(default: the system's default)")


def run(args: argparse.Namespace) -> int:
    import sys

    from sialign.workflows.headset import (
        calibrate,
        calibration_for,
        calibrations,
        calibrations_file,
        forget_calibration,
    )

    inp, out = _device(args.input_device), _device(args.output_device)
    if args.calibrate:
        print("Playing clicks: hold one ear cup of the headphones against the microphone...", file=sys.stderr)
        found = calibrate(inp, out)
        print(f"{found.input_device} → {found.output_device}: {found.summary()}")
        print(f"kept in {calibrations_file()}; the booth now uses it for these devices", file=sys.stderr)
        return 0
    if args.forget:
        gone = forget_calibration(inp, out)
        print("forgotten: the booth uses the latency the devices report" if gone else "these devices had no calibration")
        return 0
    kept = calibrations()
    if args.input_device is not None or args.output_device is not None:
        one = calibration_for(inp, out)
        kept = [one] if one is not None else []
    for cal in kept:
        print(f"{cal.input_device} → {cal.output_device}: {cal.summary()}")
    if not kept:
        print("no headset calibrated: the booth uses the latency the devices report (sialign headset --calibrate)")
    return 0
