"""Excerpts of the example talk's recordings for the speech tests (a few seconds of recognition instead of minutes)."""

from __future__ import annotations

from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[1] / "resources" / "examples"


def example_excerpt(folder: Path, name: str, seconds: float) -> Path:
    """The first ``seconds`` of the example recording ``name`` (``talk.ja.ogg``...) as a WAV file in ``folder``."""
    import soundfile as sf

    data, rate = sf.read(str(EXAMPLES / name), dtype="float32")
    stem = name.rsplit(".", 1)[0]
    path = folder / f"{stem}.{int(seconds)}s.wav"
    sf.write(str(path), data[: int(seconds * rate)], rate)
    return path
