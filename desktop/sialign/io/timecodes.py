"""Parsing and formatting of caption timestamps (seconds as floats)."""

from __future__ import annotations

import math
import re

# h:mm:ss.fff, mm:ss.fff, with "," or "." before the fraction (SRT uses ",").
_CLOCK = re.compile(r"^(?:(\d+):)?(\d{1,2}):(\d{1,2})(?:[.,](\d{1,9}))?$")
_SECONDS = re.compile(r"^\d+(?:\.\d*)?$|^\.\d+$")


def parse_clock(value: str) -> float:
    """Seconds from ``hh:mm:ss.mmm`` / ``hh:mm:ss,mmm`` / ``mm:ss.mmm``.

    Raises:
        ValueError: not a clock time, or minutes/seconds of 60 or more.
    """
    m = _CLOCK.match(value.strip())
    if not m:
        raise ValueError(f"not a time: {value!r}")
    hours, minutes, seconds, fraction = m.groups()
    if int(minutes) >= 60 and hours is not None or int(seconds) >= 60:
        raise ValueError(f"minutes and seconds must be below 60: {value!r}")
    total = int(hours or 0) * 3600 + int(minutes) * 60 + int(seconds)
    if fraction:
        total += int(fraction) / 10 ** len(fraction)
    return float(total)


def parse_time(value: str) -> float:
    """Seconds from plain seconds (``12.5``) or a clock time (``00:00:12.500``).

    Raises:
        ValueError: neither form, or not finite.
    """
    value = value.strip()
    if _SECONDS.match(value):
        seconds = float(value)
        if not math.isfinite(seconds):
            raise ValueError(f"not a time: {value!r}")
        return seconds
    return parse_clock(value)


def _split_ms(seconds: float) -> tuple[int, int, int, int]:
    total_ms = int(round(seconds * 1000))
    hours, rest = divmod(total_ms, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    secs, ms = divmod(rest, 1000)
    return hours, minutes, secs, ms


def format_srt_time(seconds: float) -> str:
    """``00:01:02,345`` (SubRip)."""
    h, m, s, ms = _split_ms(seconds)
    return f"{h:02d}:{m:02d}:{s:02d},{ms:03d}"


def format_vtt_time(seconds: float) -> str:
    """``00:01:02.345`` (WebVTT)."""
    h, m, s, ms = _split_ms(seconds)
    return f"{h:02d}:{m:02d}:{s:02d}.{ms:03d}"


def format_seconds(seconds: float | None) -> str:
    """Seconds with at most millisecond precision (``12.5``, ``3``), empty for None."""
    if seconds is None:
        return ""
    text = f"{round(seconds, 3):.3f}".rstrip("0").rstrip(".")
    return text or "0"
