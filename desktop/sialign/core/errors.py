"""Error classes with messages a linguist can act on.

Every error that reaches a user names what went wrong, where (file, line or
time) and what to do about it. The GUI shows ``str(error)`` in a dialog and
the CLI prints it; neither shows a traceback for these classes.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path


def printable(text: object) -> str:
    """``text`` on one printable line: control characters and line or paragraph separators as escapes.

    Messages quote file names, headers and option values; a vertical tab, form
    feed, NEL or U+2028 in them would split a one-line error (``str.splitlines``
    breaks on each) or move a terminal's cursor. Tabs and newlines become
    ``\\t`` and ``\\n``, others ``\\xNN`` / ``\\uNNNN``.
    """
    s = str(text)
    if s.isprintable():
        return s
    out = []
    for ch in s:
        if unicodedata.category(ch) in ("Cc", "Zl", "Zp"):
            code = ord(ch)
            out.append({9: "\\t", 10: "\\n", 13: "\\r"}.get(code) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"))
        else:
            out.append(ch)
    return "".join(out)


# What a message below the front ends may ask the user to change (SialignError.settings), in the layers' own
# terms; the front ends say where (tests/test_architecture.py checks both know every name).
SETTINGS: dict[str, str] = {
    "allow_overlaps": "let overlapping captions through",
    "encoding": "a transcript's encoding",
    "src_encoding": "the source transcript's encoding",
    "tgt_encoding": "the interpretation transcript's encoding",
    "ref_encoding": "the reference translation's encoding",
    "tier": "a transcript's tier or text column",
    "src_lang": "the source language",
    "tgt_lang": "the interpretation's language",
    "language": "the language of a recording",
    "method": "the alignment method (beads or segment mode)",
    "max_src": "the most source segments in one bead",
    "max_tgt": "the most target segments in one bead",
    "embedder": "the sentence embedder",
    "filters": "the filters applied",
    "src_audio": "the project's source recording",
    "tgt_audio": "the project's interpretation recording",
    "project_files": "the files a project names",
    "allowed_folders": "the folders a project may name files in",
    "source_times": "the times of the source transcript",
    "speech_model": "the speech model (Whisper)",
    "model_name": "the name a model is added under",
    "model_link": "linking a model folder instead of copying it",
    "tagged": "the tagged source transcript",
    "pooled": "the per-interpreter table alone",
    "split": "the corpus split exported",
    "dev": "the talks held out for development",
    "test": "the talks held out for testing",
    "force": "re-aligning reviewed talks",
    "dask": "the Dask scheduler",
    "jobs": "the worker processes on this machine",
    "project_file": "opening a project file as a project",
    "split_corpus": "assigning a corpus's talks to splits",
    "remove_model": "removing an added model",
    "align": "aligning the talk",
    "write_held": "writing a project another program holds open",
    "discard_recovery": "writing a project over the app's unsaved review of it",
}


class SialignError(Exception):
    """Base class of every error the application reports to the user.

    The layers below the front ends say what to change in their own terms (a
    parameter, a field of the project, a setting) and never name a menu or a
    command-line option. ``settings`` names what the message asks the user to
    change, as data (``max_tgt``, ``src_audio``, ``speech_model``...: the
    names of :data:`SETTINGS`); each front end says where its user changes it
    (the command line adds its options, ``--max-tgt``, the desktop app its
    menu or dialog).
    """

    settings: tuple[str, ...] = ()

    def __init__(self, *args: object, settings: tuple[str, ...] = ()) -> None:
        super().__init__(*args)
        if settings:
            self.settings = tuple(settings)


class InputError(SialignError):
    """A file could not be read as asked.

    Args:
        path: the file that was being read.
        message: what is wrong, in plain words.
        line: 1-based line number where the problem is, when known.
        hint: what the user can do about it.
    """

    def __init__(
        self,
        path: str | Path | None,
        message: str,
        *,
        line: int | None = None,
        hint: str = "",
        settings: tuple[str, ...] = (),
    ) -> None:
        self.path = str(path) if path is not None else None
        self.line = line
        self.message = message
        self.hint = hint
        where = self.path or "<input>"
        if line is not None:
            where += f", line {line}"
        text = f"{where}: {message}"
        if hint:
            text += f" — {hint}"
        super().__init__(printable(text), settings=settings)



class OutsideAllowedFolders(InputError):
    """A file a project names lies outside the project's folder and the folders the user allowed.

    The file was not opened (see :mod:`sialign.core.stored_files`).
    """


class EncodingError(InputError):
    """The bytes of a file decode under none of the supported encodings."""


class FormatError(InputError):
    """The file is not in the format it claims to be, or is malformed."""


class TimestampError(FormatError):
    """A timestamp is unreadable, negative, reversed or overlaps another."""


class EmptyInputError(InputError):
    """The file holds no segment."""


class OverlapError(TimestampError):
    """Two captions overlap in time (or come out of time order)."""


class BinaryFileError(InputError):
    """The file holds binary data (audio, a word-processor file...), not text."""


class FileTooLargeError(InputError):
    """The file is larger than the limit for its kind; refused before reading it."""


class TierNotFoundError(InputError):
    """The tier (or TSV column) asked for is not in the file."""


class UnknownLanguageError(InputError):
    """A language code names no language (``xx``, ``engl``): said without a file, since none is at fault.

    Args:
        code: the code as the user gave it.
    """

    def __init__(self, code: str) -> None:
        super().__init__(None, f"unknown language {code!r}", hint="use a two-letter code such as en, ja, fr, de, zh")
        self.code = code
        self.args = (f"{self.message} — {self.hint}",)


class ExportError(SialignError):
    """An output cannot be written as asked (no alignment yet, no times for a timed format...)."""


class OutputNameError(ExportError):
    """An output file's name says no format the command writes (``report -o x.md``, ``align -o o.docx``).

    Refused before any work; front ends treat it as a usage error (the command line's exit status 64).
    """


class ProjectVersionError(InputError):
    """The project file was written by a newer SI Aligner."""


class InvariantError(SialignError):
    """An alignment or document broke one of its invariants.

    Raised by the checks that run after every edit: beads must be monotonic,
    cover every segment exactly once, and split/merge must not lose or
    duplicate a character.
    """


class ParamsError(SialignError):
    """A parameter value the aligner or the filters cannot use.

    Attributes:
        field: the parameter's name (``max_src``); a front end names its own
            option or widget from it.
        problem: what is wrong, to follow the name (``must be at least 1, not 0``).
        other: the parameter ``field`` is checked against, when two disagree
            (``gamma_min`` above ``gamma_max``); ``problem`` names it as a
            parameter, and a front end may word both as its own.
    """

    def __init__(self, field: str, problem: str, *, other: str = "") -> None:
        self.field = field
        self.problem = problem
        self.other = other
        super().__init__(f"{field} {problem}")


class FilterNameError(SialignError, ValueError):
    """A filter name that is not one of ``workflows.filtering.FILTER_NAMES`` (a ValueError for the Python API)."""


class AlignmentTooLargeError(SialignError):
    """An alignment would need more memory than allowed (its sizes are checked before anything is allocated)."""


class EditError(SialignError):
    """An edit cannot be applied (bad offset, no neighbour, wrong bead...)."""


class AlignmentCancelled(SialignError):
    """Long work was stopped because ``should_stop()`` returned True."""

    def __init__(self, message: str = "Cancelled by the user.") -> None:
        super().__init__(message)


class ModelNotFoundError(SialignError):
    """No sentence-transformers model could be found offline."""


class ModelLoadError(SialignError):
    """A model folder was found but does not load, or gives unusable vectors."""


class AudioUnavailable(SialignError):
    """Audio cannot be played: no output device, or the audio library is missing."""


class OutputIsInputError(SialignError):
    """An output names a file the same command reads (the same path, a hard link or a symbolic link to it).

    Refused before any work: writing it would destroy the input. Front ends
    treat it as a usage error (the command line's exit status 64).
    """


class ProjectBusyError(SialignError):
    """A project cannot be written now: another program holds it open, or the app's unsaved review stands beside it.

    Refused before anything is written; the command line's exit status 75
    (sysexits EX_TEMPFAIL: try again once the other program is done).
    """


class OutputError(SialignError, OSError):
    """A file cannot be written: disk full, read-only folder, no permission...

    Also an :class:`OSError` (with its ``errno``), so code that handles
    operating-system errors keeps working; the message is one line naming the
    target file and what to do.
    """

    def __init__(self, path: str | Path, message: str, *, errno: int | None = None, hint: str = "") -> None:
        text = f"{path}: {message}"
        if hint:
            text += f" — {hint}"
        super().__init__(printable(text))
        self.errno = errno
        self.filename = str(path)
        self.path = str(path)

    def __str__(self) -> str:
        return str(self.args[0])
