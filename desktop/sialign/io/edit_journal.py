"""The edit journal: every edit applied in the app, one line each, beside the autosave.

The autosave (``talk.sialign.autosave``) is written every few minutes; the
journal (``talk.sialign.journal``) holds the edits applied since, so a crash
loses at most the last second of review instead of the last minutes. Each
line is written and flushed as soon as its edit is applied, and the file is
``fsync``-ed at most once a second (:data:`SYNC_SECONDS`). On recovery the
journal's edits are replayed on top of the state it starts from: the
autosave it names, or the saved project file.

Layout (JSON lines, UTF-8; see docs/formats.md)::

    {"format": "sialign-journal", "version": 1, "talk": "talk01",
     "base": {"autosave": "3f2a..."}}              # or {"file_sha256": "..."}
    {"op": "do", "label": "Confirm bead 7", "forward": {...}, "inverse": {...}}
    {"op": "undo", "label": "Confirm bead 7", "forward": {...}, "inverse": {...}}
    {"checkpoint": "9c41..."}
    {"op": "redo", ...}

- ``base`` is the state the edits apply to: the autosave whose
  ``journal_mark`` is that value, or the project file with that SHA-256.
- ``op``: ``do`` applied ``forward`` as a new undo step; ``undo`` applied
  ``inverse`` (``forward`` is what Redo will apply); ``redo`` applied
  ``forward`` (``inverse`` is what Undo will apply). The edits are the
  ``to_dict()`` of :mod:`sialign.core.edits`, as in a project's history.
- ``checkpoint``: an autosave of the state at this point was started with
  this mark. Once it is written the journal is rewritten to start there
  (``base`` that mark, only the later lines), so it never holds more than one
  autosave period; if the writer died first, the lines before the
  checkpoint still lead from the older base.

A line cut short by a crash ends the journal; an edit that no longer applies
stops the replay there, and what came before is kept. Saving the project
removes the journal with the autosave.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from sialign.core.atomic import atomic_open
from sialign.core.edits import apply_edit, edit_from_dict
from sialign.core.errors import EditError, InvariantError, SialignError
from sialign.core.model import Project

log = logging.getLogger(__name__)

JOURNAL_FORMAT = "sialign-journal"
JOURNAL_VERSION = 1
JOURNAL_SUFFIX = ".journal"
# At most one fsync per this many seconds; every line is flushed to the
# system at once (a killed process loses nothing the kernel holds).
SYNC_SECONDS = 1.0
# Undo steps kept when a replayed project is saved (as the app keeps).
UNDO_STEPS_KEPT = 100


def new_mark() -> str:
    """A fresh mark naming one autosave (and the journal checkpoint that leads to it)."""
    return uuid.uuid4().hex


def journal_path_for(autosave: str | Path) -> Path:
    """The journal beside an autosave: ``talk.sialign.autosave`` → ``talk.sialign.journal``."""
    autosave = Path(autosave)
    name = autosave.name.removesuffix(".autosave")
    return autosave.with_name(name + JOURNAL_SUFFIX)


def file_base(path: str | Path) -> dict[str, str]:
    """The journal base naming a saved project file by the SHA-256 of its bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return {"file_sha256": digest.hexdigest()}


def autosave_base(mark: str) -> dict[str, str]:
    """The journal base naming the autosave written with ``mark``."""
    return {"autosave": mark}


class EditJournal:
    """An open journal file (one per open project in the app).

    Args:
        path: the journal file (created, or replaced when it exists).
        base: what its edits apply to (:func:`file_base`, :func:`autosave_base`).
        talk: the talk id (for people reading the file).
        lines: edit lines already applied on ``base`` (a recovered journal
            going on): written after the header.
    """

    def __init__(self, path: str | Path, base: dict[str, str], talk: str = "", lines: list[dict[str, Any]] | None = None) -> None:
        self.path = Path(path)
        self.talk = talk
        self.base = dict(base)
        # Lines since the header, kept to rewrite the file after an autosave
        # (one autosave period of edits at most).
        self._lines: list[str] = []
        self._checkpoints: dict[str, int] = {}
        self._fh: IO[str] | None = None
        self._last_sync = 0.0
        self._unsynced = False
        self._rewrite([json.dumps(line, ensure_ascii=False, separators=(",", ":")) for line in lines or []])

    # -- writing ------------------------------------------------------------
    def record(self, op: str, label: str, forward: dict[str, Any], inverse: dict[str, Any]) -> None:
        """Append one applied edit (``op``: do, undo or redo; see the module docstring)."""
        if op not in ("do", "undo", "redo"):
            raise ValueError(f"unknown journal op {op!r}")
        line = json.dumps({"op": op, "label": label, "forward": forward, "inverse": inverse},
                          ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        self._append(line)

    def checkpoint(self, mark: str) -> None:
        """Note that an autosave of the current state is being written with ``mark``."""
        self._checkpoints[mark] = len(self._lines) + 1
        self._append(json.dumps({"checkpoint": mark}))

    def rebase(self, mark: str) -> bool:
        """The autosave ``mark`` is written: start the journal there (atomically). False if the mark is unknown."""
        at = self._checkpoints.get(mark)
        if at is None:
            return False
        self.base = autosave_base(mark)
        self._rewrite(self._lines[at:])
        return True

    def sync(self) -> None:
        """``fsync`` now if lines were written since the last one."""
        if self._fh is not None and self._unsynced:
            os.fsync(self._fh.fileno())
            self._unsynced = False
            self._last_sync = time.monotonic()

    @property
    def needs_sync(self) -> bool:
        return self._unsynced

    def close(self) -> None:
        if self._fh is not None:
            try:
                self.sync()
            finally:
                self._fh.close()
                self._fh = None

    def remove(self) -> None:
        """Close and delete the file (the project was saved, or its changes discarded)."""
        self.close()
        self.path.unlink(missing_ok=True)

    def _append(self, line: str) -> None:
        assert self._fh is not None, "the journal is closed"
        self._fh.write(line + "\n")
        self._fh.flush()
        self._lines.append(line)
        self._unsynced = True
        if time.monotonic() - self._last_sync >= SYNC_SECONDS:
            self.sync()

    def _rewrite(self, lines: list[str]) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None
        header = json.dumps({"format": JOURNAL_FORMAT, "version": JOURNAL_VERSION, "talk": self.talk, "base": self.base},
                            ensure_ascii=False)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with atomic_open(self.path, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(header + "\n")
            for line in lines:
                fh.write(line + "\n")
        self._lines = list(lines)
        self._checkpoints = {}
        for n, line in enumerate(self._lines):
            if line.startswith('{"checkpoint"'):
                self._checkpoints[json.loads(line)["checkpoint"]] = n + 1
        self._fh = open(self.path, "a", encoding="utf-8", newline="\n")
        self._last_sync = time.monotonic()
        self._unsynced = False


# --------------------------------------------------------------------------
# reading and replaying


@dataclass
class JournalEntries:
    """A journal as read back: its header's base and its lines (a torn last line dropped)."""

    base: dict[str, Any]
    lines: list[dict[str, Any]]


def read_journal(path: str | Path) -> JournalEntries | None:
    """The journal at ``path``, or None when there is none or it is not a journal."""
    try:
        raw = Path(path).read_bytes()
    except OSError:
        return None
    text = raw.decode("utf-8", errors="replace")
    rows = text.split("\n")
    if not text.endswith("\n"):
        rows = rows[:-1]  # the last line was being written when the app died
    entries: list[dict[str, Any]] = []
    header: dict[str, Any] | None = None
    for n, row in enumerate(rows):
        if not row.strip():
            continue
        try:
            value = json.loads(row)
        except (ValueError, RecursionError):  # not JSON, or nested past what the reader follows
            log.warning("%s: line %d is damaged; the journal is read up to it", path, n + 1)
            break
        if not isinstance(value, dict):
            break
        if header is None:
            if value.get("format") != JOURNAL_FORMAT or not isinstance(value.get("base"), dict):
                return None
            version = value.get("version", 0)
            if not isinstance(version, int) or isinstance(version, bool) or version < 0:
                log.warning("%s: the journal's version %r is damaged; not replayed", path, version)
                return None
            if version > JOURNAL_VERSION:
                log.warning("%s: written by a newer SI Aligner; not replayed", path)
                return None
            header = value
            continue
        entries.append(value)
    if header is None:
        return None
    return JournalEntries(base=dict(header["base"]), lines=entries)


def edits_after(journal: JournalEntries, base: dict[str, str]) -> list[dict[str, Any]] | None:
    """The journal's edit lines that apply to ``base``, or None when the journal does not start from it.

    From the header's base every edit line counts; from an autosave whose
    mark is a checkpoint, the lines after that checkpoint.
    """
    if journal.base == base:
        start = 0
    else:
        mark = base.get("autosave")
        positions = [n for n, line in enumerate(journal.lines) if mark is not None and line.get("checkpoint") == mark]
        if not positions:
            return None
        start = positions[-1] + 1
    return [line for line in journal.lines[start:] if "op" in line]


@dataclass
class Replayed:
    """What :func:`replay_journal` did: edits applied, and why it stopped early ("" when it did not)."""

    applied: int
    total: int
    problem: str = ""


def replay_journal(project: Project, lines: list[dict[str, Any]]) -> Replayed:
    """Apply journal edit lines to ``project`` in place, rebuilding its undo steps.

    ``project.undo`` (the base's saved undo steps) is updated as the app's
    undo stack was: ``do`` adds a step (dropping what Redo could have
    done), ``undo`` takes the latest back, ``redo`` puts it again.
    """
    steps: list[dict[str, Any]] = [dict(s) for s in project.undo]
    index = len(steps)
    for n, line in enumerate(lines):
        op = line.get("op")
        try:
            forward, inverse = line["forward"], line["inverse"]
            applied = inverse if op == "undo" else forward
            if op not in ("do", "undo", "redo"):
                raise ValueError(f"unknown op {op!r}")
            apply_edit(project, edit_from_dict(applied))
        except (KeyError, TypeError, ValueError, AttributeError, IndexError, OverflowError, RecursionError,
                EditError, InvariantError, SialignError) as exc:  # a damaged line: what came before stays
            return Replayed(n, len(lines), f"journal edit {n + 1} ({line.get('label', '?')}) could not be applied: {exc}")
        step = {"label": str(line.get("label", "")), "forward": forward, "inverse": inverse}
        if op == "do":
            del steps[index:]
            steps.append(step)
            index += 1
        elif op == "undo":
            if index > 0:
                steps[index - 1] = step
                index -= 1
        else:
            if index < len(steps):
                steps[index] = step
            else:
                steps.append(step)
            index += 1
    project.undo = steps[:index][-UNDO_STEPS_KEPT:]
    return Replayed(len(lines), len(lines))
