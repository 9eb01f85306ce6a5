"""Decoding audio files through libsndfile (the ``soundfile`` package).

Formats: WAV (and W64/RF64 for files over 4 GB), FLAC, OGG (Vorbis and Opus)
and MP3 (libsndfile 1.1 or newer; the ``soundfile`` wheel ships 1.2). Any
sample rate, any channel count. Nothing here loads a whole file: an
:class:`AudioTrack` holds the header only, spans are read by seeking, and
:mod:`sialign.audio.envelope` streams the file block by block.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sialign.core.errors import InputError
from sialign.core.file_kind import special_file_kind_of_mode

MP3_SEEK_PREROLL_FRAMES = 16 * 1152

SUPPORTED_FORMATS_HINT = (
    "SI Aligner reads WAV, FLAC, OGG (Vorbis/Opus) and MP3; convert other formats first, "
    "e.g. `ffmpeg -i talk.m4a talk.flac`"
)


@dataclass(frozen=True)
class AudioTrack:
    """The header of one audio file: enough to seek, draw and play it.

    Attributes:
        path: absolute path of the file.
        samplerate: frames per second.
        channels: interleaved channels per frame.
        frames: number of frames (for MP3 as reported by the decoder).
        format: libsndfile's container name (``"WAV"``, ``"FLAC"``, ``"OGG"``, ``"MP3"``...).
        subtype: libsndfile's encoding name (``"PCM_16"``, ``"VORBIS"``...).
        size: file size in bytes when it was opened (part of the envelope cache key).
        mtime_ns: modification time when it was opened (part of the envelope cache key).
    """

    path: str
    samplerate: int
    channels: int
    frames: int
    format: str
    subtype: str
    size: int
    mtime_ns: int

    @property
    def duration(self) -> float:
        """Length in seconds."""
        return self.frames / self.samplerate if self.samplerate else 0.0

    @property
    def name(self) -> str:
        return Path(self.path).name


def resolve_audio_path(raw: str | None, project_path: str | Path | None, key: str = "audio_path") -> Path | None:
    """A document's ``audio_path`` as a file path, inside the project's folder or an allowed one.

    See :func:`sialign.core.paths.confined_path`; ``key`` names the stored
    value in the refusal (``source.audio_path``).

    Raises:
        OutsideAllowedFolders: the recording lies outside the allowed folders (it is not opened).
    """
    from sialign.core.stored_files import confined_path

    return confined_path(raw, project_path, key)


def audio_path_to_store(chosen: str | Path, previous: str | None, project_path: str | Path | None) -> str:
    """How to write a newly chosen recording into the project: relative to the project file's folder
    when the path it replaces was relative (so talk and recordings move together), else as chosen."""
    chosen = Path(chosen)
    if previous and not Path(previous).expanduser().is_absolute() and project_path:
        try:
            return os.path.relpath(chosen, Path(project_path).parent)
        except ValueError:  # another drive (Windows): no relative path exists
            pass
    return str(chosen)


def audio_file_problem(path: str | Path) -> str:
    """Why ``path`` cannot be an audio file to open ("" when it may be): missing, a folder, a pipe, a device.

    Only ``stat`` is called, which never blocks on a named pipe (opening one does).
    """
    try:
        mode = os.stat(Path(path).expanduser()).st_mode
    except FileNotFoundError:
        return "no such file (it was moved, renamed, or is on a drive that is not connected)"
    except OSError as exc:
        return f"the file cannot be opened ({exc.strerror or exc})"
    kind = special_file_kind_of_mode(mode)
    if not kind:
        return ""
    if kind in ("a folder", "a named pipe (FIFO)", "a device"):
        return f"this is {kind}, not an audio file"
    return "this is not a regular file"


def load_audio(path: str | Path) -> AudioTrack:
    """Open an audio file's header; raise :class:`InputError` naming the file if it cannot be decoded.

    Folders, named pipes and devices are refused before anything opens them
    (opening a pipe would wait for a writer forever).
    """
    import soundfile as sf

    p = Path(path).expanduser()
    problem = audio_file_problem(p)
    if problem:
        raise InputError(p, problem, hint="locate the recording and set it in the project", settings=("project_files",))
    try:
        p = p.resolve()
        st = p.stat()
    except OSError as exc:
        raise InputError(path, f"the audio file cannot be opened ({exc.strerror or exc})",
                         hint="locate the recording and set it in the project", settings=("project_files",)) from exc
    try:
        info = sf.info(str(p))
    except RuntimeError as exc:  # soundfile.LibsndfileError derives from RuntimeError
        raise InputError(p, f"this is not an audio file libsndfile can decode ({exc})", hint=SUPPORTED_FORMATS_HINT) from exc
    if info.frames <= 0 or info.samplerate <= 0:
        raise InputError(p, "the audio file holds no samples", hint="check that the recording is not empty")
    return AudioTrack(
        path=str(p),
        samplerate=int(info.samplerate),
        channels=int(info.channels),
        frames=int(info.frames),
        format=str(info.format),
        subtype=str(info.subtype),
        size=int(st.st_size),
        mtime_ns=int(st.st_mtime_ns),
    )


def time_to_frame(track: AudioTrack, seconds: float) -> int:
    """The frame index at ``seconds``, clamped to the file."""
    return int(min(max(round(seconds * track.samplerate), 0), track.frames))


def read_span(track: AudioTrack, start: float, end: float) -> np.ndarray:
    """Read the frames between ``start`` and ``end`` seconds by seeking (not reading the file from the start).

    Returns:
        float32 array of shape (n_frames, track.channels), values in [-1, 1];
        empty (0, channels) when the span lies outside the file.
    """
    import soundfile as sf

    first = time_to_frame(track, start)
    last = time_to_frame(track, end)
    n = max(0, last - first)
    if n == 0:
        return np.zeros((0, track.channels), dtype=np.float32)
    # libsndfile's MP3 decoder (mpg123) outputs up to ~2 MP3 frames of
    # silence right after a seek while its bit reservoir refills; decoding a
    # pre-roll from earlier and dropping it gives the exact samples (checked
    # against a full decode at 8–48 kHz: 9,216 frames suffice, we take twice that).
    preroll = min(first, MP3_SEEK_PREROLL_FRAMES) if track.format == "MP3" else 0
    try:
        with sf.SoundFile(track.path) as fh:
            fh.seek(first - preroll)
            data = fh.read(n + preroll, dtype="float32", always_2d=True)[preroll:]
    except (RuntimeError, OSError) as exc:
        raise InputError(track.path, f"reading {start:.2f}–{end:.2f} s failed ({exc})",
                         hint="the file may have changed or been moved since it was opened") from exc
    return data


def mixdown(frames: np.ndarray) -> np.ndarray:
    """Average the channels into one.

    Args:
        frames: array of shape (n, channels).

    Returns:
        float32 array of shape (n,).
    """
    if frames.ndim == 1:
        return frames.astype(np.float32, copy=False)
    if frames.shape[1] == 1:
        return frames[:, 0].astype(np.float32, copy=False)
    return frames.mean(axis=1, dtype=np.float32)


def file_signature(track: AudioTrack) -> str:
    """Path, size and modification time: changes whenever the file does (cache key)."""
    return f"{os.path.normcase(track.path)}|{track.size}|{track.mtime_ns}"


def supported_formats() -> dict[str, list[str]]:
    """The container formats this libsndfile can read, with their subtypes (for the docs and ``--help``)."""
    import soundfile as sf

    wanted = ("WAV", "W64", "RF64", "FLAC", "OGG", "MP3", "AIFF")
    formats = sf.available_formats()
    return {name: sorted(sf.available_subtypes(name)) for name in wanted if name in formats}
