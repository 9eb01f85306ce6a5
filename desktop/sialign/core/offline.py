"""Nothing the program runs looks up a host: the switches of the libraries that would.

SI Aligner works offline and promises no network use. The one dependency
found reporting usage on its own is onnxruntime (faster-whisper's
voice-activity filter): see :func:`no_telemetry`.
"""

from __future__ import annotations


def no_telemetry() -> None:
    """Switch off the usage reports of the recogniser's runtime before it starts.

    faster-whisper's voice-activity filter runs on onnxruntime, whose Linux and
    macOS builds report usage events to their maker's host (a lookup of it a
    few seconds into a session, and more later). SI Aligner promises no
    network: ``ORT_DISABLE_TELEMETRY=1`` is onnxruntime's full opt-out and
    must be set before the runtime starts, so this runs before faster-whisper
    is imported; ``disable_telemetry_events()`` covers the Windows builds.
    A user's own setting of the variable is kept.
    """
    import os

    os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
    try:
        import onnxruntime
    except (ImportError, OSError):  # no voice-activity filter installed: nothing to switch off
        return
    disable = getattr(onnxruntime, "disable_telemetry_events", None)
    if callable(disable):
        disable()


__all__ = ["no_telemetry"]
