"""The project file (``.sialign``): versioned JSON, autosave and crash recovery.

Layout (schema 1)::

    {
     "format": "sialign-project",
     "schema": 1,
     "app_version": "0.1.0",
     "saved": "2026-05-01T10:00:00+00:00",
     "autosave_of": null,            # only in autosaves: the project file they protect
     "journal_mark": "3f2a...",      # only in autosaves: where the edit journal goes on (edit_journal)
     "checksum": "sha256:...",       # of the project object (see project_checksum)
     "project": { ...Project.to_dict(): documents, alignment, params, history... }
    }

The checksum makes a file changed after saving — a flipped byte on a disk or
in a transfer, an edit by hand — report itself as damaged instead of loading
silently different. Files without one (older versions) load as before;
deleting the line accepts a deliberate hand edit.

Documents, beads and history entries are written one segment / bead / edit
per line, so files stay readable and diff well, and writing uses the C JSON
encoder per item (a 5,000-bead project saves in a fraction of a second).

Older schemas are upgraded on load through :data:`MIGRATIONS`; a file from a
newer SI Aligner is refused with :class:`ProjectVersionError` instead of
being misread. Every write is atomic, so a crash or a serialisation error
never leaves a truncated project behind.
"""

from __future__ import annotations

import datetime as _dt
import json
import logging
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from sialign._version import __version__
from sialign.core import paths
from sialign.core.atomic import atomic_open
from sialign.core.edits import EDIT_TYPES, apply_edit, check_invariants, edit_from_dict
from sialign.core.errors import EditError, FormatError, InputError, InvariantError, ParamsError, ProjectVersionError
from sialign.core.file_kind import PROJECT_SUFFIX
from sialign.core.model import BeadStatus, Project
from sialign.io.project_schema import AUTOSAVE_SUFFIX, FORMAT_NAME, SCHEMA_VERSION, SchemaError, has_surrogate
from sialign.io.project_schema import payload as check_payload

log = logging.getLogger(__name__)

# Containers this deep or deeper are written on one line (segments, beads,
# history entries); shallower ones get one item per line.
_ONE_LINE_DEPTH = 4


# --------------------------------------------------------------------------
# migrations


def _migrate_0_to_1(data: dict[str, Any]) -> dict[str, Any]:
    """Schema 0 → 1.

    Schema 0 (development builds before 0.1.0) was one flat object with a
    ``"version": 0`` key; beads carried ``confirmed`` / ``dropped`` booleans
    and a ``drop_reason`` instead of ``status`` / ``reason``, and there were
    no ``filter_params`` and no edit ``history``.
    """
    project = {k: v for k, v in data.items() if k not in ("format", "version")}
    alignment = project.get("alignment")
    if isinstance(alignment, dict):
        beads = []
        for bead in alignment.get("beads", []):
            bead = dict(bead)
            confirmed = bool(bead.pop("confirmed", False))
            dropped = bool(bead.pop("dropped", False))
            reason = bead.pop("drop_reason", "")
            # A dropped bead was dropped whether or not it had been confirmed before.
            status = BeadStatus.DROPPED if dropped else BeadStatus.CONFIRMED if confirmed else BeadStatus.AUTO
            bead["status"] = status.value
            if reason:
                bead["reason"] = reason
            beads.append(bead)
        project["alignment"] = {**alignment, "beads": beads}
    project.setdefault("filter_params", {})
    project.setdefault("history", [])
    return {"format": FORMAT_NAME, "schema": 1, "project": project}


# schema n -> function turning a schema-n file into a schema-(n+1) file
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {0: _migrate_0_to_1}


def _schema_of(data: dict[str, Any]) -> Any:
    if "schema" in data:
        return data["schema"]
    return data.get("version")  # schema 0 called it "version"


# --------------------------------------------------------------------------
# writing


def _write_json(fh: IO[str], value: Any, depth: int = 0) -> None:
    """Write ``value`` as JSON, one item per line down to :data:`_ONE_LINE_DEPTH`."""
    pad = " " * depth
    if depth < _ONE_LINE_DEPTH and isinstance(value, dict) and value:
        fh.write("{\n")
        for n, (key, item) in enumerate(value.items()):
            fh.write(f"{pad} {json.dumps(str(key), ensure_ascii=has_surrogate(str(key)))}: ")
            _write_json(fh, item, depth + 1)
            fh.write(",\n" if n < len(value) - 1 else "\n")
        fh.write(pad + "}")
    elif depth < _ONE_LINE_DEPTH and isinstance(value, list) and value and isinstance(value[0], (dict, list)):
        fh.write("[\n")
        for n, item in enumerate(value):
            fh.write(pad + " ")
            _write_json(fh, item, _ONE_LINE_DEPTH)
            fh.write(",\n" if n < len(value) - 1 else "\n")
        fh.write(pad + "]")
    else:
        try:
            text = json.dumps(value, ensure_ascii=False, allow_nan=False)
        except ValueError:
            value = _without_non_finite(value)
            text = json.dumps(value, ensure_ascii=False, allow_nan=False)
        if has_surrogate(text):
            # A path with undecodable bytes (PEP 383 surrogate escapes) cannot
            # be written as UTF-8 raw; as \udcXX escapes it reads back intact.
            text = json.dumps(value, ensure_ascii=True, allow_nan=False)
        fh.write(text)


def _without_non_finite(value: Any) -> Any:
    """``value`` with NaN and ±infinity replaced by None.

    JSON has no such numbers (Python would write ``Infinity``, which other
    tools and strict parsers refuse); an unknown number is what they mean.
    """
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _without_non_finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_without_non_finite(v) for v in value]
    return value


def project_checksum(body: Any) -> str:
    """``sha256:<hex>`` of the project object's canonical JSON (sorted keys, ASCII).

    Computed from the parsed values, so it does not depend on the layout of
    the file, and floats compare exactly (JSON numbers round-trip).
    """
    import hashlib

    canonical = json.dumps(body, sort_keys=True, ensure_ascii=True, separators=(",", ":"), allow_nan=False)
    return "sha256:" + hashlib.sha256(canonical.encode("ascii")).hexdigest()


def _payload(project: Project, *, autosave: bool, journal_mark: str | None = None) -> dict[str, Any]:
    body = _without_non_finite(project.to_dict())
    if project.undo:
        # The undo steps hold only if the project is still the one they were
        # recorded on: a fingerprint of the rest of the body says so on opening.
        body["undo"] = {"state": project_checksum(body), "steps": _without_non_finite(list(project.undo))}
    payload: dict[str, Any] = {
        "format": FORMAT_NAME,
        "schema": SCHEMA_VERSION,
        "app_version": __version__,
        "saved": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
    }
    if autosave:
        payload["autosave_of"] = project.path
        if journal_mark:
            payload["journal_mark"] = journal_mark
    payload["checksum"] = project_checksum(body)
    payload["project"] = body
    return payload


def _write_payload(payload: dict[str, Any], path: Path) -> None:
    # Streamed into the temporary file: if an unserialisable value turns up
    # half-way, atomic_open removes the temporary and the old file stays.
    with atomic_open(path, "w", encoding="utf-8", newline="\n") as fh:
        _write_json(fh, payload)
        fh.write("\n")


def save_project(project: Project, path: str | Path) -> None:
    """Save ``project`` to ``path`` atomically and make ``path`` its file.

    The autosave and edit journal beside ``path`` are left alone: they are
    the desktop app's, which removes them after its own save
    (:func:`discard_autosave`); a command that writes a project checks them
    first (:func:`sialign.workflows.outputs.check_no_unsaved_review`).

    Raises:
        TypeError: a value in ``params``/``metadata`` is not JSON-serialisable
            (the file on disk is left untouched).
        OSError: the folder cannot be written.
    """
    path = Path(path)
    rebase_document_paths(project, path)
    _write_payload(_payload(project, autosave=False), path)
    project.path = str(path)


def detach_from_file(project: Project) -> None:
    """Make ``project`` a copy that belongs to no file: its transcript and audio paths absolute, ``path`` None.

    A project another program holds opens so (it is saved under another name
    later, :func:`rebase_document_paths` making its paths relative to that file).
    """
    from sialign.core.paths import resolve_project_path

    for doc in (project.source, project.target, project.reference):
        if doc is None:
            continue
        for name in ("path", "audio_path"):
            resolved = resolve_project_path(getattr(doc, name), project.path)
            if resolved is not None:
                setattr(doc, name, str(resolved))
    project.path = None


def rebase_document_paths(project: Project, path: str | Path) -> None:
    """Make the transcript and audio paths of ``project`` relative to the folder of ``path``, its new file.

    Paths held relative are relative to the project's current file (or to
    the current folder for a project never saved); after this they are
    relative to ``path``'s folder (absolute when on another drive), the one
    rule for paths saved in a project (:mod:`sialign.core.paths`).
    """
    from sialign.core.paths import path_to_store, resolve_project_path

    for doc in (project.source, project.target, project.reference):
        if doc is None:
            continue
        for name in ("path", "audio_path"):
            raw = getattr(doc, name)
            resolved = resolve_project_path(raw, project.path)
            if resolved is not None:
                setattr(doc, name, path_to_store(resolved, path))


# --------------------------------------------------------------------------
# reading


def _damaged(path: Path, detail: str) -> FormatError:
    return FormatError(
        path,
        f"the project file is damaged: {detail}",
        hint="open its autosave (same name ending in .autosave) or a backup",
    )


def _project_from_payload(path: Path, data: dict[str, Any]) -> Project:
    body = data.get("project")
    if not isinstance(body, dict):
        raise _damaged(path, "the 'project' object is missing")
    # Every field's type, range and name (the published schema), and what no
    # schema says; what is left to check here spans fields: the beads against
    # the documents (check_invariants), the parameters together, the checksum.
    try:
        check_payload(data)
    except SchemaError as exc:
        raise _damaged(path, str(exc)) from None
    undo_steps = _undo_steps(body)
    try:
        project = Project.from_dict(body)
    except ParamsError as exc:  # parameters the aligner could not use (evs_min above evs_max...)
        raise _damaged(path, f"its parameters are unusable: {exc}") from exc
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise _damaged(path, f"{type(exc).__name__}: {exc}") from exc
    try:
        check_invariants(project)
    except InvariantError as exc:
        raise _damaged(path, str(exc)) from exc
    project.undo = undo_steps
    expected = data.get("checksum")
    if expected is not None and project_checksum(body) != expected:
        raise FormatError(
            path,
            "the project file is damaged: its content does not match the checksum written with it "
            "(changed after saving, by a disk or transfer error or by hand)",
            hint="open its autosave (same name ending in .autosave) or a backup; to keep a deliberate hand edit, delete the 'checksum' line",
        )
    return project


def _undo_steps(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The saved undo steps if they still fit the project (else none: it was changed by another program)."""
    record = body.get("undo")
    if not record:
        return []
    rest = {k: v for k, v in body.items() if k != "undo"}
    if record.get("state") != project_checksum(rest):
        log.info("saved undo steps left out: the project was changed after they were recorded")
        return []
    steps = record.get("steps", [])
    kinds = [step[side].get("type") for step in steps for side in ("forward", "inverse")]
    if not all(isinstance(kind, str) and kind in EDIT_TYPES for kind in kinds):  # (a list there is unhashable)
        log.info("saved undo steps left out: an edit type this version does not know")
        return []
    return [dict(step) for step in steps]


def read_project_data(path: str | Path) -> dict[str, Any]:
    """The file's JSON, upgraded to the current schema (no Project built yet)."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise InputError(path, "no such project file", hint="check the path, or create a project first") from None
    except OSError as exc:
        raise InputError(path, f"cannot be read: {exc.strerror or exc}") from exc
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise FormatError(path, "is not an SI Aligner project (not UTF-8 JSON text)", hint="open a .sialign file") from None
    if not text.strip():
        raise FormatError(path, "the project file is empty", hint="open its autosave (same name ending in .autosave) or a backup")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        transcript = _transcript_instead(path, text)
        if transcript is not None:
            raise transcript from None
        error = FormatError(
            path,
            f"the project file is not valid JSON: {_json_problem(exc.msg)}",
            line=exc.lineno,
            hint="it may be truncated or edited by hand; open its autosave (same name ending in .autosave) or a backup",
        )
        # One line naming file, line and column: "x.sialign, line 3, column 20: ...".
        error.args = (f"{path}, line {exc.lineno}, column {exc.colno}: {error.message} — {error.hint}",)
        raise error from None
    except RecursionError:
        raise _damaged(path, "its values are nested too deeply") from None
    except ValueError as exc:  # e.g. an integer of thousands of digits
        raise _damaged(path, f"it holds a value JSON readers cannot take ({str(exc)[:80]})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT_NAME:
        raise FormatError(path, "is not an SI Aligner project (no 'format': 'sialign-project')", hint="open a .sialign file")
    schema = _schema_of(data)
    if not isinstance(schema, int) or isinstance(schema, bool) or schema < 0:
        raise _damaged(path, f"its schema number {schema!r} is not a whole number")
    if schema > SCHEMA_VERSION:
        raise ProjectVersionError(
            path,
            f"written by a newer SI Aligner (schema {schema}); this version reads up to {SCHEMA_VERSION}",
            hint="update SI Aligner",
        )
    while schema < SCHEMA_VERSION:
        try:
            data = MIGRATIONS[schema](data)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise _damaged(path, f"cannot upgrade it from schema {schema}: {exc}") from exc
        schema += 1
    return data


def _transcript_instead(path: Path, text: str) -> FormatError | None:
    """The error for a transcript given where a project is expected, or None for a damaged project.

    A file that is not JSON at all (it does not start with ``{``) or that has a
    transcript's extension is named as what it is, with the command that
    makes a project of it; a truncated project keeps the JSON message.
    """
    from sialign.io.readers import EXTENSIONS, FORMAT_NAMES, sniff_format

    # A transcript's extension (the readers' own table) never names a project.
    if text.lstrip("\ufeff \t\r\n").startswith("{") and path.suffix.lower() not in EXTENSIONS:
        return None
    name = FORMAT_NAMES.get(sniff_format(text), "plain text")
    return FormatError(
        path,
        f"this is a transcript ({name}), not a SI Aligner project",
        hint=f"align it first: sialign align SOURCE TARGET -o {_stem(path)}{PROJECT_SUFFIX}",
    )


def _stem(path: Path) -> str:
    """``talk.en.srt`` → ``talk`` (the name without its language code and extension)."""
    parts = path.name.split(".")
    if len(parts) >= 3 and 2 <= len(parts[-2]) <= 3 and parts[-2].isalpha():
        return ".".join(parts[:-2])
    return path.stem or "talk"


# json's messages ("Unterminated string starting at") end where it would print
# a position; the position is given separately, so say what is wrong instead.
_JSON_PROBLEMS = (
    ("Unterminated string", "a quoted text is not closed"),
    ("Expecting value", "a value is missing"),
    ("Expecting ',' delimiter", "a comma is missing"),
    ("Expecting ':' delimiter", "a colon is missing"),
    ("Expecting property name", "a name in double quotes is expected"),
    ("Extra data", "there is more text after the end of the project"),
    ("Invalid control character", "a text holds a raw control character"),
    ("Invalid \\escape", "a text holds an invalid backslash escape"),
)


def _json_problem(message: str) -> str:
    for start, plain in _JSON_PROBLEMS:
        if message.startswith(start):
            return plain
    return message.removesuffix(" at").removesuffix(" starting at").strip().lower() or "malformed JSON"


def load_project(path: str | Path) -> Project:
    """Read a project file (any schema up to :data:`SCHEMA_VERSION`).

    ``project.path`` becomes ``path``; when ``path`` is an autosave, it
    becomes the project file the autosave protects (None for a project never
    saved), so saving a recovered project writes the real file.

    Raises:
        InputError: the file is missing or unreadable.
        FormatError: broken JSON, not a project, missing or malformed fields,
            or an inconsistent alignment (message names the file).
        ProjectVersionError: written by a newer SI Aligner.
    """
    path = Path(path)
    data = read_project_data(path)
    project = _project_from_payload(path, data)
    project.path = project_path_of(path, data)
    return project


def project_path_of(path: Path, data: dict[str, Any]) -> str | None:
    """The project file that a loaded file stands for, derived from ``path`` only.

    A file's content never names a file the application later writes or
    deletes (a crafted ``"autosave_of": "/x/other.sialign"`` once made a save
    delete ``/x/other.sialign.autosave``). ``autosave_of`` only tells
    whether an autosave belongs to a saved project (then the project is the
    autosave's name without ``.autosave``) or to one never saved (None).
    """
    if "autosave_of" not in data or not path.name.endswith(AUTOSAVE_SUFFIX):
        return str(path)
    if data["autosave_of"] is None:
        return None
    return str(path.with_name(path.name[: -len(AUTOSAVE_SUFFIX)]))


def replay_history(project_without_edits: Project, history: list[dict[str, Any]]) -> Project:
    """Apply recorded edits to a copy of ``project_without_edits``; the copy is returned.

    The copy's history ends up equal to ``history``. Raises
    :class:`EditError` naming the first entry that cannot be applied.
    """
    project = Project.from_dict(project_without_edits.to_dict())
    project.history = []
    project.path = project_without_edits.path
    for n, entry in enumerate(history):
        edit = edit_from_dict(entry)
        try:
            apply_edit(project, edit)
        except (EditError, InvariantError) as exc:
            raise EditError(f"history entry {n + 1} ({edit.describe()}) cannot be replayed: {exc}") from exc
    return project


# --------------------------------------------------------------------------
# autosave and crash recovery


def autosave_dir() -> Path:
    """Where autosaves of never-saved projects go (see :mod:`sialign.core.paths`)."""
    return paths.autosave_dir()


def autosave_path(path: str | Path | None, talk_id: str = "untitled") -> Path:
    """The autosave of a project file: ``talk.sialign`` → ``talk.sialign.autosave`` beside it.

    A project never saved (``path`` None) autosaves into :func:`autosave_dir`
    under its talk id. A project whose folder cannot be written to (a
    read-only folder, one where a write failed: :func:`mark_unwritable`)
    autosaves into the per-user folder instead (:func:`fallback_autosave_path`),
    and its journal goes beside that autosave.
    """
    if path is None:
        safe = re.sub(r"[^\w.-]+", "_", talk_id).strip("._") or "untitled"
        return autosave_dir() / f"{safe}{PROJECT_SUFFIX}{AUTOSAVE_SUFFIX}"
    beside = _beside(path)
    return beside if folder_writable(beside.parent) else fallback_autosave_path(path)


def _beside(path: str | Path) -> Path:
    """``talk.sialign`` → ``talk.sialign.autosave`` beside it."""
    path = Path(path)
    return path.with_name(path.name + AUTOSAVE_SUFFIX)


# Folders where writing the recovery files failed in this process (a full disk, a folder made read-only).
_UNWRITABLE: set[str] = set()


def folder_writable(folder: Path) -> bool:
    """Whether the recovery files of a project in ``folder`` go beside it (see :func:`autosave_path`)."""
    import os

    key = os.path.realpath(folder)
    return key not in _UNWRITABLE and os.access(folder, os.W_OK | os.X_OK)


def mark_unwritable(folder: str | Path) -> None:
    """Writing recovery files in ``folder`` failed: from now on this process keeps them in the per-user folder."""
    import os

    _UNWRITABLE.add(os.path.realpath(folder))


def fallback_autosave_path(path: str | Path) -> Path:
    """The per-user autosave of a saved project whose own folder cannot hold one.

    ``autosave_dir()/projects/NAME-DIGEST.sialign.autosave``, DIGEST naming the
    project file's full path; a subfolder, so it is never offered as a talk
    never saved.
    """
    import hashlib
    import os

    path = Path(path)
    digest = hashlib.sha256(os.path.realpath(path).encode("utf-8", "surrogateescape")).hexdigest()[:12]
    safe = re.sub(r"[^\w.-]+", "_", path.stem).strip("._") or "project"
    return autosave_dir() / "projects" / f"{safe}-{digest}{PROJECT_SUFFIX}{AUTOSAVE_SUFFIX}"


def recovery_candidates(path: str | Path | None, talk_id: str = "untitled") -> list[Path]:
    """Where the autosave of ``path`` may be: beside it and in the per-user folder (a folder's state may have changed)."""
    if path is None:
        return [autosave_path(None, talk_id)]
    return [_beside(path), fallback_autosave_path(path)]


def save_autosave(project: Project, journal_mark: str | None = None) -> Path:
    """Write the project's autosave (atomically) and return where; ``project.path`` is unchanged.

    ``journal_mark`` names this autosave for the edit journal (the app's
    journal goes on from the checkpoint with that mark; see
    :mod:`sialign.io.edit_journal`).
    """
    target = autosave_path(project.path, project.talk_id)
    if project.path is None or target.parent != Path(project.path).parent:
        _check_autosave_folder(target.parent)
        target.parent.mkdir(parents=True, exist_ok=True)
    _write_payload(_payload(project, autosave=True, journal_mark=journal_mark), target)
    return target


def _autosave_folder_problem(folder: Path) -> tuple[str, str] | None:
    """What stands in the way of the autosave folder (a file in its place) and how to fix it; None when nothing."""
    import os

    from sialign.core.paths import ENV_AUTOSAVE_DIR, ENV_DATA_DIR

    blocking = next((p for p in (folder, *folder.parents) if p.exists() and not p.is_dir()), None)
    if blocking is None:
        return None
    setting = ENV_AUTOSAVE_DIR if os.environ.get(ENV_AUTOSAVE_DIR) else ENV_DATA_DIR if os.environ.get(ENV_DATA_DIR) else ""
    fix = f"point {setting} to a folder, or unset it" if setting else f"move the file {blocking} away"
    return f"the autosave folder {folder} cannot be made: {blocking} is a file", fix


def _check_autosave_folder(folder: Path) -> None:
    """Refuse, naming the setting to fix, an autosave folder that a file stands in the way of."""
    from sialign.core.errors import OutputError

    problem = _autosave_folder_problem(folder)
    if problem is not None:
        raise OutputError(folder, "the autosave folder cannot be made: " + problem[0].rsplit(": ", 1)[1], hint=problem[1])


def journal_path(path: str | Path | None, talk_id: str = "untitled") -> Path:
    """The edit journal of a project: ``talk.sialign`` → ``talk.sialign.journal``, beside its autosave."""
    from sialign.io.edit_journal import journal_path_for

    return journal_path_for(autosave_path(path, talk_id))


@dataclass
class UnsavedWork:
    """Work of a project that its file does not hold: an autosave newer than the file and/or journalled edits.

    Attributes:
        autosave: the autosave to start from, or None (the journal goes on from the project file).
        journal: the edit journal, or None.
        edits: journal edits that apply on top of the autosave (or the file).
        when: modification time of the newer of the two (seconds since the epoch).
    """

    autosave: Path | None
    journal: Path | None
    edits: int
    when: float


_MARK = re.compile(rb'"journal_mark":\s*"([0-9a-f]{1,64})"')


def _autosave_mark(autosave: Path) -> str | None:
    """The journal mark near the top of an autosave (it is written before the project body)."""
    try:
        with open(autosave, "rb") as fh:
            head = fh.read(4096)
    except OSError:
        return None
    found = _MARK.search(head)
    return found.group(1).decode("ascii") if found else None


def find_unsaved_work(path: str | Path | None, talk_id: str = "untitled", *, autosave: Path | None = None) -> UnsavedWork | None:
    """What the app offers to recover when it opens ``path`` (None for an untitled talk's ``autosave``).

    An autosave newer than the file, plus the journal lines that go on from
    it; or, without one, the journal lines that go on from the project file
    as it is. None when there is nothing to recover.
    """
    from sialign.io.edit_journal import autosave_base, edits_after, file_base, journal_path_for, read_journal

    if autosave is None:
        autosave = find_recovery(path, talk_id)
    if autosave is not None:
        journal_file = journal_path_for(autosave)
    else:  # a journal from the file, beside it or in the per-user folder
        journals = [journal_path_for(c) for c in recovery_candidates(path, talk_id)]
        journal_file = next((j for j in journals if j.is_file()), journal_path_for(autosave_path(path, talk_id)))
    journal = read_journal(journal_file)
    lines: list[dict[str, Any]] | None = None
    if journal is not None:
        if autosave is not None:
            mark = _autosave_mark(autosave)
            lines = edits_after(journal, autosave_base(mark)) if mark else None
        elif path is not None and Path(path).is_file():
            try:
                lines = edits_after(journal, file_base(path))
            except OSError:
                lines = None
    if autosave is None and not lines:
        return None
    times = [p.stat().st_mtime for p in (autosave, journal_file if lines else None) if p is not None and p.exists()]
    return UnsavedWork(autosave, journal_file if lines else None, len(lines or []), max(times, default=0.0))


@dataclass
class RecoveredWork:
    """A project rebuilt from its unsaved work (:func:`load_unsaved_work`).

    Attributes:
        project: the project (``path`` is its file, None when never saved).
        problem: why some journalled edits were not replayed ("" when all were).
        base: the journal base the replayed edits went on from (None when the autosave has no mark).
        lines: the journal lines replayed (the app's journal goes on after them).
    """

    project: Project
    problem: str = ""
    base: dict[str, str] | None = None
    lines: list[dict[str, Any]] = field(default_factory=list)


def load_unsaved_work(work: UnsavedWork, path: str | Path | None) -> RecoveredWork:
    """The project with its unsaved work: the autosave (or the file at ``path``) and the journal's edits replayed.

    Raises:
        FormatError, InputError: the autosave or the file cannot be read.
    """
    from sialign.io.edit_journal import autosave_base, edits_after, file_base, read_journal, replay_journal

    if work.autosave is not None:
        data = read_project_data(work.autosave)
        project = _project_from_payload(work.autosave, data)
        project.path = project_path_of(work.autosave, data)
        if path is not None and project.path is not None:  # a per-user autosave of the file at ``path``
            project.path = str(path)
        mark = data.get("journal_mark")
        base = autosave_base(mark) if isinstance(mark, str) and mark else None
    else:
        if path is None:
            raise InputError(Path("untitled"), "no autosave to recover from")
        project = load_project(path)
        base = file_base(path)
    journal = read_journal(work.journal) if work.journal is not None else None
    lines = (edits_after(journal, base) if journal is not None and base is not None else None) or []
    if not lines:
        return RecoveredWork(project, "", base, [])
    replayed = replay_journal(project, lines)
    problem = ""
    if replayed.problem:
        log.warning("%s: %s", work.journal, replayed.problem)
        problem = f"{replayed.applied} of {replayed.total} journalled edits recovered; {replayed.problem}"
    return RecoveredWork(project, problem, base, lines[: replayed.applied])


def find_recovery(path: str | Path | None, talk_id: str = "untitled") -> Path | None:
    """An autosave newer than the project file (or with no file at all), else None.

    The GUI offers to open it (with the edit journal's later edits, see
    :func:`find_unsaved_work`) when the project is opened after a crash.
    """
    found = [c for c in recovery_candidates(path, talk_id) if c.is_file()]
    if not found:
        return None
    candidate = max(found, key=lambda c: c.stat().st_mtime)
    if path is not None and Path(path).is_file() and Path(path).stat().st_mtime > candidate.stat().st_mtime:
        return None
    return candidate


def untitled_autosaves() -> list[Path]:
    """Autosaves of projects that were never saved, newest first (offered at start-up)."""
    folder = autosave_dir()
    if not folder.is_dir():
        return []
    found = list(folder.glob(f"*{PROJECT_SUFFIX}{AUTOSAVE_SUFFIX}"))
    return sorted(found, key=lambda p: p.stat().st_mtime, reverse=True)


def discard_autosave(path: str | Path | None, talk_id: str = "untitled") -> None:
    """Remove the autosave of ``path`` and its edit journal (after a save, or when the user declines recovery)."""
    from sialign.io.edit_journal import journal_path_for

    for stale in (p for autosave in recovery_candidates(path, talk_id) for p in (autosave, journal_path_for(autosave))):
        try:
            stale.unlink()
        except FileNotFoundError:
            pass
        except OSError as exc:  # the autosave folder is unreachable (a file in its place): a named save does not need it
            problem = _autosave_folder_problem(stale.parent)
            if problem is not None:
                log.warning("%s — %s (autosaves of unsaved talks are off until then)", *problem)
            else:
                log.warning("%s: the old autosave cannot be removed (%s)", stale, exc.strerror or exc)


__all__ = [
    "AUTOSAVE_SUFFIX",
    "FORMAT_NAME",
    "MIGRATIONS",
    "PROJECT_SUFFIX",
    "SCHEMA_VERSION",
    "autosave_dir",
    "autosave_path",
    "detach_from_file",
    "discard_autosave",
    "find_recovery",
    "fallback_autosave_path",
    "find_unsaved_work",
    "folder_writable",
    "journal_path",
    "load_unsaved_work",
    "load_project",
    "mark_unwritable",
    "read_project_data",
    "replay_history",
    "save_autosave",
    "save_project",
    "untitled_autosaves",
    "RecoveredWork",
    "UnsavedWork",
]
