"""Type and range checks of a project file's JSON before anything is built from it.

A project file is data from outside: it may be damaged by a flipped byte,
edited by hand or crafted. Everything the application later relies on is
checked here, once, on load: each field's type and range, and that no key
is unknown (a renamed key would otherwise drop a field silently). A failed
check names the key path (``project.alignment.beads[3].cost``) so the user
can find the damage.

Free-form fields (``metadata``, ``alignment.info``) may hold any JSON up to
:data:`MAX_DEPTH` levels, but no lone surrogate anywhere: a string with one
cannot be written back as UTF-8, so every later save would fail.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sialign.io.timecodes import MAX_SECONDS

# What names a project file, for its own module and for the readers, which refuse a project given as a transcript.
FORMAT_NAME = "sialign-project"
PROJECT_SUFFIX = ".sialign"
AUTOSAVE_SUFFIX = ".autosave"
# The project format's version: the "schema" number in every file, and the
# version of the published schema; a change to the format raises it (with a
# migration in sialign.io.project_file) and publishes a new schema file.
SCHEMA_VERSION = 1
# The format's JSON Schema (draft 2020-12), the same file as resources/schema/'s: this copy goes with the package.
SCHEMA_FILE = Path(__file__).with_name(f"{FORMAT_NAME}-v{SCHEMA_VERSION}.schema.json")

# Deeper nesting than this is no project: it is refused before anything
# recursive (copying, saving) can hit Python's recursion limit.
MAX_DEPTH = 32
# Segment ids and line numbers stay exact in every JSON reader (2**53).
MAX_INT = 2**53
# Costs and filter scores are small numbers; this bound only keeps out values
# that would overflow in arithmetic.
MAX_NUMBER = 1e12

_SURROGATE = re.compile("[\ud800-\udfff]")
# Paths may carry the surrogate escapes Python uses for undecodable bytes of
# a file name (PEP 383, U+DC80..U+DCFF); anything else is a broken string.
_BAD_PATH_SURROGATE = re.compile("[\ud800-\udc7f\udd00-\udfff]")


class SchemaError(ValueError):
    """A field of the project JSON has the wrong type, range or name.

    Attributes:
        key: the key path, such as ``project.source.segments[2].start``.
        problem: what is wrong with it.
    """

    def __init__(self, key: str, problem: str) -> None:
        self.key = key
        self.problem = problem
        super().__init__(f"'{key}' {problem}")


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


# --------------------------------------------------------------------------
# leaf checks: each takes (value, key) and raises SchemaError


Check = Callable[[Any, str], None]


def _optional(check: Check) -> Check:
    """``check``, letting None (JSON null) through."""

    def run(value: Any, key: str) -> None:
        if value is not None:
            check(value, key)

    return run


def _string(value: Any, key: str, *, path: bool = False) -> None:
    if not isinstance(value, str):
        raise SchemaError(key, f"is {_show(value)}, not a text")
    if (_BAD_PATH_SURROGATE if path else _SURROGATE).search(value):
        raise SchemaError(key, "holds a broken character (a lone UTF-16 surrogate)")


def text(value: Any, key: str) -> None:
    _string(value, key)


def _path(value: Any, key: str) -> None:
    _string(value, key, path=True)


optional_text = _optional(text)
optional_path = _optional(_path)


def whole(value: Any, key: str, low: int = 0, high: int = MAX_INT) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SchemaError(key, f"is {_show(value)}, not a whole number")
    if not low <= value <= high:
        raise SchemaError(key, f"is {_show(value)}, outside {low}..{high}")


optional_whole = _optional(whole)


def number(value: Any, key: str, low: float = -MAX_NUMBER, high: float = MAX_NUMBER) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise SchemaError(key, f"is {_show(value)}, not a number")
    if isinstance(value, int) and not -(10**15) <= value <= 10**15 or isinstance(value, float) and not math.isfinite(value):
        raise SchemaError(key, f"is {_show(value)}, not a usable number")
    if not low <= value <= high:
        raise SchemaError(key, f"is {_show(value)}, outside {low:g}..{high:g}")


optional_number = _optional(number)


def optional_time(value: Any, key: str) -> None:
    if value is None:
        return
    try:
        number(value, key, 0.0, MAX_SECONDS)
    except SchemaError as exc:
        raise SchemaError(key, f"is {_show(value)}, not a time in seconds (0 to {MAX_SECONDS:g})") from exc


def boolean(value: Any, key: str) -> None:
    if not isinstance(value, bool):
        raise SchemaError(key, f"is {_show(value)}, not true or false")


optional_boolean = _optional(boolean)


def id_list(value: Any, key: str) -> None:
    if not isinstance(value, list):
        raise SchemaError(key, f"is {_show(value)}, not a list of segment ids")
    for n, item in enumerate(value):
        whole(item, f"{key}[{n}]")


def text_list(value: Any, key: str) -> None:
    if not isinstance(value, list):
        raise SchemaError(key, f"is {_show(value)}, not a list of texts")
    for n, item in enumerate(value):
        text(item, f"{key}[{n}]")


def any_json(value: Any, key: str) -> None:
    """Any JSON value without lone surrogates, at most :data:`MAX_DEPTH` deep (checked without recursion)."""
    stack: list[tuple[Any, str, int]] = [(value, key, 0)]
    while stack:
        item, where, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise SchemaError(where, f"is nested more than {MAX_DEPTH} levels deep")
        if isinstance(item, str):
            text(item, where)
        elif isinstance(item, dict):
            for k, v in item.items():
                text(k, f"{where} (a key)")
                stack.append((v, f"{where}.{k}", depth + 1))
        elif isinstance(item, list):
            stack.extend((v, f"{where}[{n}]", depth + 1) for n, v in enumerate(item))
        elif isinstance(item, float) and not math.isfinite(item):
            raise SchemaError(where, f"is {_show(item)}, not a usable number")
        elif isinstance(item, int) and not isinstance(item, bool) and abs(item) > 10**15:
            raise SchemaError(where, f"is {_show(item)}, not a usable number")


def any_object(value: Any, key: str) -> None:
    if not isinstance(value, dict):
        raise SchemaError(key, f"is {_show(value)}, not an object")
    any_json(value, key)


# --------------------------------------------------------------------------
# objects


def _object(value: Any, key: str, fields: dict[str, Check], required: tuple[str, ...] = ()) -> None:
    """``value`` is a dict whose keys are all in ``fields`` (checked) and include ``required``."""
    if not isinstance(value, dict):
        raise SchemaError(key, f"is {_show(value)}, not an object")
    for name in required:
        if name not in value:
            raise SchemaError(f"{key}.{name}" if key else name, "is missing")
    for name, item in value.items():
        sub = f"{key}.{name}" if key else str(name)
        check = fields.get(name)
        if check is None:
            known = ", ".join(sorted(fields))
            raise SchemaError(sub, f"is not a field this version knows (known: {known})")
        check(item, sub)


def _list_of(check: Check) -> Check:
    def run(value: Any, key: str) -> None:
        if not isinstance(value, list):
            raise SchemaError(key, f"is {_show(value)}, not a list")
        for n, item in enumerate(value):
            check(item, f"{key}[{n}]")

    return run


def segment(value: Any, key: str) -> None:
    _object(
        value,
        key,
        {
            "id": whole,
            "text": text,
            "start": optional_time,
            "end": optional_time,
            "line": optional_whole,
            "gap": text,
            "speaker": text,
        },
        ("id", "text"),
    )


def document(value: Any, key: str) -> None:
    _object(
        value,
        key,
        {
            "language": text,
            "segments": _list_of(segment),
            "path": optional_path,
            "audio_path": optional_path,
            "format": optional_text,
            "encoding": optional_text,
        },
        ("segments",),
    )


optional_document = _optional(document)


def status(value: Any, key: str) -> None:
    if value not in ("auto", "confirmed", "dropped"):
        raise SchemaError(key, f"is {_show(value)}, not auto, confirmed or dropped")


def flag(value: Any, key: str) -> None:
    _object(
        value,
        key,
        {"name": text, "score": optional_number, "threshold": optional_number, "reason": text, "failed": boolean},
        ("name",),
    )


def bead(value: Any, key: str) -> None:
    _object(
        value,
        key,
        {
            "src": id_list,
            "tgt": id_list,
            "cost": optional_number,
            "confidence": optional_number,
            "status": status,
            "reason": text,
            "good_align": optional_boolean,
            "good_mt": optional_boolean,
            "note": text,
            "post_edit": optional_text,
            "trimmed": id_list,
            "restored": id_list,
            "flags": _list_of(flag),
        },
    )


def alignment(value: Any, key: str) -> None:
    if value is None:
        return
    _object(
        value,
        key,
        {"beads": _list_of(bead), "embedder": text, "created": text, "info": any_object},
        ("beads",),
    )


def _dataclass_checks(cls: type) -> dict[str, Check]:
    """Checks for the fields of a parameters dataclass, from their annotations."""
    checks: dict[str, Check] = {}
    for f in dataclasses.fields(cls):
        kind = str(f.type).replace(" ", "")
        nullable = "None" in kind
        base = kind.replace("|None", "").replace("None|", "")
        check: Check
        if base == "bool":
            check = boolean
        elif base == "int":
            check = lambda v, k: whole(v, k, -(10**9), 10**9)  # noqa: E731
        elif base == "float":
            check = number
        elif base == "str":
            check = text
        elif base.startswith("tuple["):
            check = text_list
        else:
            check = any_json
        if nullable:
            checks[f.name] = (lambda inner: lambda v, k: None if v is None else inner(v, k))(check)
        else:
            checks[f.name] = check
    return checks


def params(value: Any, key: str) -> None:
    from sialign.core.params import AlignParams

    _object(value, key, _dataclass_checks(AlignParams))


def filter_params(value: Any, key: str) -> None:
    from sialign.core.params import FilterParams

    _object(value, key, _dataclass_checks(FilterParams))


def edit_entry(value: Any, key: str) -> None:
    """A serialised edit (its type is checked when the project is built)."""
    if not isinstance(value, dict):
        raise SchemaError(key, "is not an edit")
    any_json(value, key)


history = _list_of(edit_entry)


def undo_step(value: Any, key: str) -> None:
    _object(value, key, {"label": text, "forward": edit_entry, "inverse": edit_entry}, ("label", "forward", "inverse"))


def undo_record(value: Any, key: str) -> None:
    """The saved undo steps: ``{"state": fingerprint, "steps": [{"label", "forward", "inverse"}, ...]}``."""
    _object(value, key, {"state": text, "steps": _list_of(undo_step)}, ("state", "steps"))


def _token(value: Any, key: str) -> None:
    if not isinstance(value, list) or len(value) != 3:
        raise SchemaError(key, "is not a [token, start, end] triple")
    text(value[0], f"{key}[0]")
    whole(value[1], f"{key}[1]")
    whole(value[2], f"{key}[2]")


def _pharaoh(value: Any, key: str) -> None:
    text(value, key)
    if not all(re.fullmatch(r"\d+-\d+", pair) for pair in value.split()):
        raise SchemaError(key, f"is not a list of i-j links: {_show(value)}")


def bead_links(value: Any, key: str) -> None:
    _object(value, key, {"src": _list_of(_token), "tgt": _list_of(_token), "links": _pharaoh, "content": id_list,
                         "paraphrased": id_list})


def word_links(value: Any, key: str) -> None:
    """The stored word links: ``{"aligner": name, "beads": {key: {"src", "tgt", "links", "content", "paraphrased"}}}``."""
    if value is None:
        return
    _object(value, key, {"aligner": text, "beads": any_object}, ("beads",))
    for name, entry in value["beads"].items():
        bead_links(entry, f"{key}.beads.{name}")


def project(value: Any, key: str) -> None:
    _object(
        value,
        key,
        {
            "talk_id": text,
            "source": document,
            "target": document,
            "reference": optional_document,
            "alignment": alignment,
            "params": params,
            "filter_params": filter_params,
            "metadata": any_object,
            "history": history,
            "undo": undo_record,
            "word_links": word_links,
        },
        ("source", "target"),
    )


def payload(value: Any) -> None:
    """Check a whole project file's JSON (current schema).

    Raises:
        SchemaError: the first field with a wrong type, range or name.
    """
    _object(
        value,
        "",
        {
            "format": text,
            "schema": whole,
            "app_version": text,
            "saved": text,
            "autosave_of": optional_path,
            "journal_mark": text,
            "checksum": text,
            # The body's key paths are given from the project object down
            # ("source.segments[2].start"), as the user sees them in the file.
            "project": lambda v, k: project(v, ""),
        },
        ("format", "schema", "project"),
    )


def has_surrogate(value: str) -> bool:
    """True when ``value`` holds a surrogate (it cannot be written as UTF-8 as it is)."""
    return _SURROGATE.search(value) is not None
