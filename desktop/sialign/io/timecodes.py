"""Parsing and formatting of caption timestamps (seconds as floats)."""

from __future__ import annotations

import math
import re

# h:mm:ss.fff, mm:ss.fff, with "," or "." before the fraction (SRT uses ",").
_CLOCK = re.compile(r"^(?:(\d+):)?(\d{1,2}):(\d{1,2})(?:[.,](\d{1,9}))?$")
_SECONDS = re.compile(r"^\d+(?:\.\d*)?$|^\.\d+$")

# Times beyond this (about 31 years) are not times of a recording: they come
# from damaged or hostile files, and refusing them keeps every later
# computation (formatting, rounding to milliseconds) finite.
MAX_SECONDS = 1e9


def check_seconds(seconds: float, value: object = None) -> float:
    """``seconds`` when finite and at most :data:`MAX_SECONDS`.

    Raises:
        ValueError: not finite, or too large (``value`` is named in the message).
    """
    shown = value if value is not None else seconds
    if not math.isfinite(seconds):
        raise ValueError(f"not a finite time: {shown!r}")
    if abs(seconds) > MAX_SECONDS:
        raise ValueError(f"time {str(shown)[:30]!r} is larger than any recording")
    return seconds


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
        raise ValueError(f"minutes and seconds must be below 60: {value[:40]!r}")
    # Hours of more than 6 digits are beyond MAX_SECONDS: refuse them before
    # converting, so a 400-digit hour field never reaches float().
    if hours is not None and len(hours.lstrip("0")) > 6:
        raise ValueError(f"time {value.strip()[:30]!r} is larger than any recording")
    total = int(hours or 0) * 3600 + int(minutes) * 60 + int(seconds)
    result = float(total)
    if fraction:
        result += int(fraction) / 10 ** len(fraction)
    return check_seconds(result, value.strip())


def parse_time(value: str) -> float:
    """Seconds from plain seconds (``12.5``) or a clock time (``00:00:12.500``).

    Raises:
        ValueError: neither form, or not finite.
    """
    value = value.strip()
    if _SECONDS.match(value):
        return check_seconds(float(value), value)
    return parse_clock(value)


def _split_ms(seconds: float) -> tuple[int, int, int, int]:
    # Formatting never fails: a time out of range (only reachable from a
    # message about a bad file) is clamped rather than raising.
    if not math.isfinite(seconds):
        seconds = MAX_SECONDS if seconds > 0 else 0.0
    seconds = min(max(seconds, -MAX_SECONDS), MAX_SECONDS)
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
    if not math.isfinite(seconds):
        return ""
    text = f"{round(seconds, 3):.3f}".rstrip("0").rstrip(".")
    return text or "0"
