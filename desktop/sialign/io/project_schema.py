"""The checks of a project file's JSON before anything is built from it: its JSON Schema and what no schema can say.

A project file is data from outside: it may be damaged by a flipped byte,
edited by hand or crafted. Everything the application later relies on is
checked here, once, on load. The published schema
(``resources/schema/sialign-project-v1.schema.json``, the same file as
:data:`SCHEMA_FILE` beside this module, which is what the program reads)
says each field's type and range, the words a field may hold and that no
key is unknown (a renamed key would otherwise drop a field silently). A
failed check names the key path (``alignment.beads[3].cost``) so the user
can find the damage.

What a schema cannot say stays as code in :func:`check_values`: no text
holds a lone surrogate (a string with one cannot be written back as UTF-8,
so every later save would fail; JSON itself allows the escape), nothing is
nested more than :data:`MAX_DEPTH` levels (free-form fields such as
``metadata`` hold any JSON), no number is NaN or infinite (Python's JSON
reader accepts them) and no integer is beyond 2**53. Where the schema says
"integer", 1.0 is refused, which JSON Schema itself would take (the types
of :data:`sialign.io.fast_schema.TYPES`). The checks across fields (bead
segment ids naming segments of the documents, beads in order, consistent
parameters, the checksum) are the model's and the project file reader's
(:mod:`sialign.io.project_file`).

The schema is checked with a compiled yes/no check (:mod:`sialign.io.fast_schema`),
as fast as hand-written code; only in a file it refuses does jsonschema
look, at the failing part, to say what is wrong. The schema is read when
the first project is opened, and jsonschema imported for the first file
that fails.
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from sialign.io.fast_schema import TYPES, Check, compile_schema, failing_path
from sialign.io.timecodes import MAX_SECONDS

# What names a project file, for its own module and for the readers, which refuse a project given as a transcript.
FORMAT_NAME = "sialign-project"
AUTOSAVE_SUFFIX = ".autosave"
# The project format's version: the "schema" number in every file, and the
# version of the published schema; a change to the format raises it (with a
# migration in sialign.io.project_file) and publishes a new schema file.
SCHEMA_VERSION = 1
SCHEMA_FILE = Path(__file__).with_name(f"{FORMAT_NAME}-v{SCHEMA_VERSION}.schema.json")

# Deeper nesting than this, counted from the top of the file, is no project:
# it is refused before anything recursive (copying, saving) can hit Python's
# recursion limit. Free-form fields sit at most 5 levels down and may hold
# 32 levels of their own.
MAX_DEPTH = 40
# Segment ids and line numbers stay exact in every JSON reader (2**53).
MAX_INT = 2**53

_SURROGATE = re.compile("[\ud800-\udfff]")
# Paths may carry the surrogate escapes Python uses for undecodable bytes of
# a file name (PEP 383, U+DC80..U+DCFF); anything else is a broken string.
_BAD_PATH_SURROGATE = re.compile("[\ud800-\udc7f\udd00-\udfff]")
# Where paths are, as key paths from the top of the file.
_PATHS = {("autosave_of",)} | {("project", doc, name) for doc in ("source", "target", "reference") for name in ("path", "audio_path")}


class SchemaError(ValueError):
    """A field of the project JSON has the wrong type, range or name.

    Attributes:
        key: the key path, such as ``source.segments[2].start``.
        problem: what is wrong with it.
    """

    def __init__(self, key: str, problem: str) -> None:
        self.key = key
        self.problem = problem
        super().__init__(f"'{key}' {problem}")


def has_surrogate(value: str) -> bool:
    """True when ``value`` holds a surrogate (it cannot be written as UTF-8 as it is)."""
    return _SURROGATE.search(value) is not None


def payload(value: Any) -> None:
    """Check a whole project file's JSON (current format version), as :func:`json.loads` returned it.

    Raises:
        SchemaError: naming the first field with a wrong type, range or name.
    """
    check_values(value)
    error = first_error(value)
    if error is not None:
        raise error


@functools.cache
def schema() -> dict[str, Any]:
    """The project file's JSON Schema (draft 2020-12), read once."""
    loaded: dict[str, Any] = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    return loaded


@functools.cache
def _fast_check() -> Check:
    return compile_schema(schema())


@functools.cache
def validator() -> Any:
    """A jsonschema validator of :func:`schema`, with the integer type of :data:`sialign.io.fast_schema.TYPES`."""
    from jsonschema import Draft202012Validator, validators

    whole = TYPES["integer"]
    checker = Draft202012Validator.TYPE_CHECKER.redefine("integer", lambda _checker, value: whole(value))
    return validators.extend(Draft202012Validator, type_checker=checker)(schema())


# --------------------------------------------------------------------------
# what no schema says


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _key(where: tuple[Any, ...]) -> str:
    """``("project", "source", "segments", 2, "start")`` → ``source.segments[2].start``.

    The body's key paths are given from the project object down, as the user
    sees them in the file.
    """
    if len(where) > 1 and where[0] == "project":
        where = where[1:]
    text = ""
    for part in where:
        text += f"[{part}]" if isinstance(part, int) else f".{part}" if text else str(part)
    return text


def check_values(value: Any) -> None:
    """No lone surrogate, nesting at most :data:`MAX_DEPTH` deep, finite numbers, integers within 2**53.

    ``value`` is the file's top-level object. Walks the JSON without
    recursion (a crafted file may nest thousands deep), and builds key paths
    for objects and lists only: most values are plain, and a file is walked
    on every load.

    Raises:
        SchemaError: naming the first value found wrong.
    """
    broken = "holds a broken character (a lone UTF-16 surrogate)"
    stack: list[tuple[Any, tuple[Any, ...]]] = [(value, ())] if type(value) in (dict, list) else []
    while stack:
        item, where = stack.pop()
        if len(where) > MAX_DEPTH:
            raise SchemaError(_key(where), f"is nested more than {MAX_DEPTH} levels deep")
        is_object = type(item) is dict
        pairs: Iterable[tuple[Any, Any]] = item.items() if is_object else enumerate(item)
        for key, v in pairs:
            if is_object and not key.isascii() and _SURROGATE.search(key):
                raise SchemaError(f"{_key(where)} (a key)" if where else "(a key)", broken)
            kind = type(v)
            if kind is str:
                if not v.isascii() and _SURROGATE.search(v) and ((*where, key) not in _PATHS or _BAD_PATH_SURROGATE.search(v)):
                    raise SchemaError(_key((*where, key)), broken)
            elif kind is dict or kind is list:
                stack.append((v, (*where, key)))
            elif kind is float and not math.isfinite(v) or kind is int and not -MAX_INT <= v <= MAX_INT:
                raise SchemaError(_key((*where, key)), f"is {_show(v)}, not a usable number")


# --------------------------------------------------------------------------
# jsonschema's errors in words


_TYPE_NOUNS = {
    "integer": "a whole number",
    "number": "a number",
    "string": "a text",
    "boolean": "true or false",
    "object": "an object",
    "array": "a list",
    "null": "null",
}
# What the values of some definitions are called, whatever check failed.
_DEF_NOUNS = {
    "time": f"a time in seconds (0 to {MAX_SECONDS:g})",
    "idList": "a list of segment ids",
    "audioPath": "a file path",
    "editType": "an edit this version knows",
    "token": "a [token, start, end] triple",
    "links": "a list of i-j links",
}


def _words(values: list[Any]) -> str:
    shown = [str(v) if isinstance(v, str) else json.dumps(v) for v in values]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]


def _bound(value: float) -> str:
    return str(value) if isinstance(value, int) else f"{value:g}"


def _def_name(subschema: Any) -> str | None:
    for name, definition in schema()["$defs"].items():
        if definition is subschema:
            return name
    return None


def _problem(above: tuple[Any, ...], error: Any) -> SchemaError:
    """One jsonschema error as the key path and what is wrong there; ``above``: the path to what was validated."""
    where = (*above, *error.absolute_path)
    sub, value, keyword = error.schema, error.instance, error.validator
    if keyword == "required":
        missing = next(name for name in sub["required"] if name not in value)
        return SchemaError(_key((*where, missing)), "is missing")
    if keyword == "additionalProperties":
        known = sub.get("properties", {})
        extra = next(name for name in value if name not in known)
        return SchemaError(_key((*where, extra)), f"is not a field this version knows (known: {', '.join(sorted(known))})")
    noun = _DEF_NOUNS.get(_def_name(sub) or "")
    if noun is not None:
        return SchemaError(_key(where), f"is {_show(value)}, not {noun}")
    if keyword == "type":
        kinds = [sub["type"]] if isinstance(sub["type"], str) else [k for k in sub["type"] if k != "null"]
        return SchemaError(_key(where), f"is {_show(value)}, not {_TYPE_NOUNS[kinds[0]]}")
    if keyword in ("minimum", "maximum"):
        low, high = sub.get("minimum"), sub.get("maximum")
        span = f"outside {_bound(low)}..{_bound(high)}" if low is not None and high is not None else (
            f"below {_bound(low)}" if low is not None else f"above {_bound(high)}"
        )
        return SchemaError(_key(where), f"is {_show(value)}, {span}")
    if keyword == "enum":
        return SchemaError(_key(where), f"is {_show(value)}, not {_words(sub['enum'])}")
    if keyword == "const":
        return SchemaError(_key(where), f"is {_show(value)}, not {_words([sub['const']])}")
    if keyword == "pattern":
        return SchemaError(_key(where), f"is {_show(value)}, not text of the form {sub['pattern']}")
    return SchemaError(_key(where), f"does not fit the project format: {error.message[:80]}")


def _leaves(error: Any) -> list[Any]:
    """The errors under ``anyOf`` that say what is wrong (not that the value is not null)."""
    if error.validator != "anyOf" or not error.context:
        return [error]
    branches = [n for n, option in enumerate(error.validator_value) if option != {"type": "null"}]
    inner = [e for e in error.context if e.relative_schema_path[0] in branches] or list(error.context)
    return [leaf for e in inner for leaf in _leaves(e)]


def _position(data: Any, error: Any) -> tuple[int, ...]:
    """Where ``error`` is in the file's order: a field missing from an object comes before its fields."""
    order: list[int] = []
    node = data
    for part in error.absolute_path:
        order.append(list(node).index(part) if isinstance(node, dict) else part)
        node = node[part]
    if error.validator == "required":
        order.append(-1)
    elif error.validator == "additionalProperties":
        known = error.schema.get("properties", {})
        order.append(next(n for n, name in enumerate(node) if name not in known))
    return tuple(order)


_CHILDREN = ("properties", "additionalProperties", "prefixItems", "items")


def _holders(sub: Any) -> list[dict[str, Any]] | None:
    """The (sub)schemas that say what ``sub``'s fields or items must be: ``sub`` itself, what its ``$ref`` names,
    the one option of an ``anyOf`` that is not null; None where that is not one schema."""
    if not isinstance(sub, dict):
        return None
    found = [sub] if any(k in sub for k in _CHILDREN) else []
    if "$ref" in sub:
        named = _holders(schema()["$defs"][sub["$ref"].removeprefix("#/$defs/")])
        if named is None:
            return None
        found += named
    if "anyOf" in sub:
        options = [option for option in sub["anyOf"] if option != {"type": "null"}]
        inner = _holders(options[0]) if len(options) == 1 else None
        if inner is None:
            return None
        found += inner
    return found


def _part(data: Any, path: tuple[Any, ...]) -> tuple[int, Any, Any]:
    """How far down ``path`` the schema can be followed: (depth, the subschema there, the value there).

    Only the schema of the value where the check failed needs to be found:
    the keywords of the values above it held, or that value would not be
    where it failed.
    """
    sub, node = schema(), data
    for depth, key in enumerate(path):
        holders = _holders(sub)
        if holders is None or len(holders) != 1:
            return depth, sub, node
        plain = holders[0]
        if isinstance(key, str):
            known = plain.get("properties", {})
            sub = known[key] if key in known else plain.get("additionalProperties", True)
        else:
            firsts = plain.get("prefixItems", [])
            sub = firsts[key] if key < len(firsts) else plain.get("items", True)
        node = node[key]
    return len(path), sub, node


def first_error(data: Any) -> SchemaError | None:
    """The first schema error in the file's order, in words; None when the JSON fits the schema.

    The compiled check finds whether the JSON fails and its first failing
    part; jsonschema then explains that part only (through a whole
    5,000-bead project it would take seconds).
    """
    path = failing_path(_fast_check(), data)
    if path is None:
        return None
    depth, sub, node = _part(data, path)
    errors = [leaf for error in validator().evolve(schema=sub).iter_errors(node) for leaf in _leaves(error)]
    if not errors:  # cannot happen while the two checks agree; then the whole file is looked at
        depth, node = 0, data
        errors = [leaf for error in validator().iter_errors(data) for leaf in _leaves(error)]
        if not errors:
            return None
    return _problem(path[:depth], min(errors, key=lambda e: _position(node, e)))


__all__ = [
    "AUTOSAVE_SUFFIX",
    "FORMAT_NAME",
    "MAX_DEPTH",
    "MAX_INT",
    "SCHEMA_FILE",
    "SCHEMA_VERSION",
    "SchemaError",
    "check_values",
    "first_error",
    "has_surrogate",
    "payload",
    "schema",
    "validator",
]
