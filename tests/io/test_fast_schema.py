"""The compiled yes/no check gives jsonschema's verdict, keyword by keyword, and says where a value fails."""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator, validators

from sialign.io.fast_schema import TYPES, compile_schema, failing_path


def jsonschema_verdict(schema: dict[str, Any], value: Any) -> bool:
    checker = Draft202012Validator.TYPE_CHECKER.redefine("integer", lambda _checker, v: TYPES["integer"](v))
    return bool(validators.extend(Draft202012Validator, type_checker=checker)(schema).is_valid(value))


VALUES: list[Any] = [None, True, False, 0, 1, -1, 1.0, 1.5, 2**60, float("nan"), float("inf"), "", "a", "auto", "0-1 2-3",
                     " 0-1", "1-", "a\x00", [], [1], [1, 2, 3], ["a", 1, 2], ["a", 1, 2, 3], {}, {"a": 1}, {"b": "x"},
                     {"a": 1, "b": "x"}, {"a": "1"}, [[1]], [{"a": 1}], {"a": None}]

SCHEMAS: list[tuple[str, dict[str, Any]]] = [
    ("integer", {"type": "integer"}),
    ("number", {"type": "number"}),
    ("nullable", {"type": ["number", "null"]}),
    ("string", {"type": "string"}),
    ("boolean", {"type": "boolean"}),
    ("object", {"type": "object"}),
    ("array", {"type": "array"}),
    ("enum", {"enum": ["auto", "confirmed", None]}),
    ("enum-numbers", {"enum": [1, True, [1]]}),
    ("const", {"const": 1}),
    ("range", {"minimum": 0, "maximum": 1}),
    ("range-only-low", {"type": "number", "minimum": 0}),
    ("pattern", {"pattern": "^\\s*([0-9]+-[0-9]+(\\s+[0-9]+-[0-9]+)*)?\\s*$"}),
    ("pattern-nul", {"type": ["string", "null"], "pattern": "^[^\\x00]*[^\\s\\x00][^\\x00]*$"}),
    ("required", {"required": ["a"]}),
    ("closed", {"properties": {"a": {"type": "integer"}}, "additionalProperties": False}),
    ("open", {"properties": {"a": {"type": "integer"}}}),
    ("additional-schema", {"additionalProperties": {"type": "string"}}),
    ("items", {"items": {"type": "integer"}}),
    ("triple", {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}, {"type": "integer"}],
                "items": False, "minItems": 3}),
    ("max-items", {"maxItems": 1}),
    ("any-of", {"anyOf": [{"type": "object", "required": ["a"]}, {"type": "null"}]}),
    ("ref", {"$ref": "#/$defs/id", "$defs": {"id": {"type": "integer", "minimum": 0}}}),
    ("recursive", {"$ref": "#/$defs/tree", "$defs": {"tree": {"type": "array", "items": {"$ref": "#/$defs/tree"}}}}),
    ("true", {"items": True, "properties": {"a": False}}),
    ("annotations", {"title": "t", "description": "d", "$comment": "c", "type": "integer"}),
]


@pytest.mark.parametrize("schema", [s for _, s in SCHEMAS], ids=[name for name, _ in SCHEMAS])
def test_fast_schema_verdicts_are_jsonschemas(schema: dict[str, Any]) -> None:
    check = compile_schema(schema)
    for value in VALUES:
        assert check(value) == jsonschema_verdict(schema, value), value


def test_fast_schema_integers_have_no_fraction_and_true_is_no_number() -> None:
    assert not compile_schema({"type": "integer"})(1.0)
    assert not compile_schema({"type": "number"})(True)
    assert compile_schema({"type": "number"})(1)


@pytest.mark.parametrize(
    "schema, message",
    [
        ({"oneOf": [{"type": "null"}]}, "keywords the fast check does not know: \\['oneOf'\\]"),
        ({"type": "string", "format": "date-time"}, "does not know: \\['format'\\]"),
        ({"$ref": "other.json#/x"}, "unsupported \\$ref"),
        ({"$ref": "#/$defs/missing"}, "unsupported \\$ref"),
    ],
    ids=["oneOf", "format", "remote-ref", "missing-def"],
)
def test_fast_schema_refuses_what_it_cannot_check(schema: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        compile_schema(schema)


TREE = {
    "type": "object",
    "required": ["items"],
    "additionalProperties": False,
    "properties": {
        "items": {"type": "array", "items": {"$ref": "#/$defs/item"}},
        "maybe": {"anyOf": [{"$ref": "#/$defs/item"}, {"type": "null"}]},
    },
    "$defs": {"item": {"type": "object", "required": ["id"], "properties": {"id": {"type": "integer"}}}},
}


@pytest.mark.parametrize(
    "value, where",
    [
        ({"items": [{"id": 1}]}, None),
        ({"items": [{"id": 1}, {"id": "x"}]}, ("items", 1, "id")),
        ({"items": [{"id": 1}, {}]}, ("items", 1)),  # a missing field: the object fails
        ({"items": [], "other": 1}, ()),  # an unknown field: the object fails
        ({}, ()),
        ({"items": 5}, ("items",)),
        ({"items": [], "maybe": {"id": 1.5}}, ("maybe", "id")),  # through the one option of anyOf that is not null
        ({"items": [], "maybe": 3}, ("maybe",)),
    ],
)
def test_fast_schema_failing_path_leads_to_the_innermost_failing_part(value: Any, where: tuple[Any, ...] | None) -> None:
    check = compile_schema(TREE)
    assert failing_path(check, value) == where
    assert check(value) is (where is None)


def test_fast_schema_failing_path_stops_where_two_options_fail_inside() -> None:
    schema = {"anyOf": [{"properties": {"a": {"type": "string"}}}, {"properties": {"a": {"type": "null"}}}]}
    assert failing_path(compile_schema(schema), {"a": 1}) == ()
