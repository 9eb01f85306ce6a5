"""A yes/no check compiled from a JSON Schema, for files that are nearly always valid.

jsonschema resolves every ``$ref`` and builds a validator for each value it
descends into: over a 5,000-bead project it takes seconds where plain code
takes a tenth of one. The check compiled here answers only "valid or not",
at the speed of plain code. For a value it refuses, :func:`failing_path`
gives the innermost object or list that fails, so that jsonschema, which
finds the error and says what it is (:mod:`sialign.io.project_schema`),
need not go through the whole file. So its verdict must be jsonschema's:
``tests/io/test_fast_schema.py`` compares the two keyword by keyword, and
``tests/io/test_project_schema.py`` on fuzzed projects.

Only the keywords in :data:`KEYWORDS` are known. A schema using any other
is refused when compiled, so a schema that starts using one fails its
tests instead of being checked in part.
"""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Callable
from typing import Any

Check = Callable[[Any], bool]

# The keys from a failing value up to the top, while failing_path runs in this thread (None otherwise).
_state = threading.local()

# The JSON types as SI Aligner reads them, for jsonschema's type checker and
# for this check alike: true is no number, and a whole number is written
# without a fraction (1.0 is a number but, unlike in plain JSON Schema, not
# an integer).
TYPES: dict[str, Check] = {
    "null": lambda v: v is None,
    "boolean": lambda v: isinstance(v, bool),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "string": lambda v: isinstance(v, str),
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
}

# The same types by the exact class of what json.loads returns, which this
# check is for: a set lookup is several times faster than isinstance calls.
_CLASSES: dict[str, frozenset[type]] = {
    "null": frozenset({type(None)}),
    "boolean": frozenset({bool}),
    "integer": frozenset({int}),
    "number": frozenset({int, float}),
    "string": frozenset({str}),
    "array": frozenset({list}),
    "object": frozenset({dict}),
}
_NUMBERS = _CLASSES["number"]

KEYWORDS = frozenset({
    "type", "enum", "const", "required", "properties", "additionalProperties", "items", "prefixItems",
    "minItems", "maxItems", "minimum", "maximum", "pattern", "anyOf", "$ref",
})
# Keywords that only describe: they never change a verdict.
ANNOTATIONS = frozenset({"$schema", "$id", "$defs", "$comment", "title", "description", "default", "examples"})


def _same(a: Any, b: Any) -> bool:
    """JSON equality as jsonschema's ``enum`` and ``const`` see it: 1 equals 1.0, true equals only true."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, dict)) or isinstance(b, (list, dict)):
        return False
    return bool(a == b)


def _failed(key: Any) -> bool:
    """Note that the item at ``key`` failed, when :func:`failing_path` asks; False."""
    trail = getattr(_state, "trail", None)
    if trail is not None:
        trail.append(key)
    return False


def _any(options: list[Check]) -> Check:
    def run(v: Any) -> bool:
        trail = getattr(_state, "trail", None)
        mark = len(trail) if trail is not None else 0
        leads = 0
        for option in options:
            before = len(trail) if trail is not None else 0
            if option(v):
                if trail is not None:
                    del trail[mark:]
                return True
            leads += trail is not None and len(trail) > before
        if trail is not None and leads > 1:  # two options failed inside: the value itself is where it fails
            del trail[mark:]
        return False

    return run


def _all(checks: list[Check]) -> Check:
    if not checks:
        return lambda v: True
    if len(checks) == 1:
        return checks[0]

    def run(v: Any) -> bool:
        for check in checks:
            if not check(v):
                return False
        return True

    return run


class _Compiler:
    def __init__(self, schema: dict[str, Any]) -> None:
        self.defs: dict[str, Any] = schema.get("$defs", {})
        self.done: dict[str, Check] = {}
        self.busy: set[str] = set()

    def ref(self, ref: str) -> Check:
        if not ref.startswith("#/$defs/") or ref[8:] not in self.defs:
            raise ValueError(f"unsupported $ref {ref!r} (only #/$defs/NAME)")
        name = ref[8:]
        if name in self.done:
            return self.done[name]
        if name in self.busy:  # a definition that holds itself (an edit holds edits): looked up when used
            return lambda v: self.done[name](v)
        self.busy.add(name)
        self.done[name] = self.build(self.defs[name])
        return self.done[name]

    def build(self, node: Any) -> Check:
        if node is True:
            return lambda v: True
        if node is False:
            return lambda v: False
        unknown = set(node) - KEYWORDS - ANNOTATIONS
        if unknown:
            raise ValueError(f"keywords the fast check does not know: {sorted(unknown)}")
        checks: list[Check] = []
        if "$ref" in node:
            checks.append(self.ref(node["$ref"]))
        if "enum" in node:
            checks.append(self.enum(node["enum"]))
        if "const" in node:
            const = node["const"]
            checks.append(lambda v: _same(v, const))
        if "minimum" in node or "maximum" in node:
            low, high = node.get("minimum", -math.inf), node.get("maximum", math.inf)
            # "not outside" rather than "inside": NaN passes, as in jsonschema
            checks.append(lambda v: type(v) not in _NUMBERS or not (v < low or v > high))
        if "pattern" in node:
            search = re.compile(node["pattern"]).search
            checks.append(lambda v: type(v) is not str or search(v) is not None)
        if "required" in node:
            names = tuple(node["required"])
            checks.append(lambda v: type(v) is not dict or all(n in v for n in names))
        if "properties" in node or "additionalProperties" in node:
            checks.append(self.object(node.get("properties", {}), node.get("additionalProperties", True)))
        if "items" in node or "prefixItems" in node:
            checks.append(self.array(node.get("prefixItems", []), node.get("items", True)))
        if "minItems" in node or "maxItems" in node:
            least, most = node.get("minItems", 0), node.get("maxItems", math.inf)
            checks.append(lambda v: type(v) is not list or least <= len(v) <= most)
        if "anyOf" in node:
            checks.append(_any([self.build(s) for s in node["anyOf"]]))
        rest = _all(checks)
        if "type" not in node:
            return rest
        kinds = [node["type"]] if isinstance(node["type"], str) else node["type"]
        classes = frozenset().union(*(_CLASSES[k] for k in kinds))
        if not checks:
            return lambda v: type(v) in classes
        return lambda v: type(v) in classes and rest(v)

    def enum(self, values: list[Any]) -> Check:
        if all(isinstance(e, str) or e is None for e in values):
            words = frozenset(values)
            return lambda v: (v is None or isinstance(v, str)) and v in words
        return lambda v: any(_same(v, e) for e in values)

    def object(self, properties: dict[str, Any], additional: Any) -> Check:
        fields = {name: self.build(s) for name, s in properties.items()}
        other = self.build(additional)
        closed = additional is False

        def run(v: Any) -> bool:
            if type(v) is not dict:
                return True
            for name, item in v.items():
                check = fields.get(name)
                if check is None:
                    if closed:  # an unknown field: the object is what fails
                        return False
                    check = other
                if not check(item):
                    return _failed(name)
            return True

        return run

    def array(self, prefix: list[Any], items: Any) -> Check:
        firsts = [self.build(s) for s in prefix]
        rest = self.build(items)

        def run(v: Any) -> bool:
            if type(v) is not list:
                return True
            for i, x in enumerate(v):
                if not (firsts[i] if i < len(firsts) else rest)(x):
                    return _failed(i)
            return True

        return run


def compile_schema(schema: dict[str, Any]) -> Check:
    """A function telling whether a value read by :func:`json.loads` fits ``schema``.

    ``schema`` is a draft 2020-12 schema using only the :data:`KEYWORDS`
    (with :data:`TYPES` for its types). The function takes what
    :func:`json.loads` returns (dicts, lists, str, int, float, bool, None),
    not subclasses or tuples.

    Raises:
        ValueError: the schema uses a keyword or a ``$ref`` form the check does not know.
    """
    return _Compiler(schema).build(schema)


def failing_path(check: Check, value: Any) -> tuple[Any, ...] | None:
    """Where ``check`` (from :func:`compile_schema`) refuses ``value``: the key path of the innermost failing part.

    That is the object or list whose own keyword failed (a missing field, a
    wrong type of the whole) or that holds a failing plain value; it stops
    higher where two ``anyOf`` options fail inside. None when ``value`` fits.
    """
    _state.trail = []
    try:
        if check(value):
            return None
        return tuple(reversed(_state.trail))
    finally:
        _state.trail = None


__all__ = ["KEYWORDS", "TYPES", "compile_schema", "failing_path"]
